"""ReadLens readers: see every file the way your model will.

    from readers import read_file
    reading = read_file("report.pdf", page_start=3, page_end=5, describe=None, multimodal=None)
    print(reading.as_text())

The flow, one package a step: ``core.read_file`` checks the ``options`` (``ReadOptions``) →
``intake`` (detect from bytes, zip safety and repair, container members) → ``formats.read`` hands
the ``job`` to its kind's leaf reader, which reads with the engines ``pdf`` (pages, tables,
figures, charts), ``office``, ``render`` (LibreOffice, Chromium, pdfium, placement) and ``markup``
→ ``describe`` (vision, OCR, transcripts) → ``payload`` (what the model receives: text, messages,
the PDF, tokens, chunks) → the app, the command line and ``batch``. ``storage`` keeps what is
cached, under the versions in ``versions``. At the top: ``errors``, ``settings``, ``services``,
``kinds`` (the registry), ``models`` (``Reading``, ``Page``: data). Nothing imports a module
above it.
"""

from .core import read_file
from .errors import ReaderError
from .markup.blocks import Block, BlockKind, Cell
from .models import Figure, Page, Reading, Segment, Transcript, Usage
from .options import ReadOptions
from .services import Services
from .settings import Settings

__all__ = [
    "read_file",
    "ReadOptions",
    "Reading",
    "Page",
    "Block",
    "BlockKind",
    "Cell",
    "Figure",
    "ReaderError",
    "Transcript",
    "Segment",
    "Usage",
    "Services",
    "Settings",
]
