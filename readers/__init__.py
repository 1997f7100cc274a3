"""ReadLens readers: see every file the way your model will.

    from readers import read_file
    reading = read_file("report.pdf", page_start=3, page_end=5, describe=None, multimodal=None)
    print(reading.as_text())

The flow, one package a step: ``intake`` (detect, zip safety, container members) → ``formats``
(one leaf reader a kind, chosen by the registry in ``kinds``) over the engines ``pdf``, ``office``
and ``markup`` → ``describe`` (vision, OCR, transcripts) → ``payload`` (what the model receives)
→ the app, the command line and ``batch``. ``storage`` keeps what is cached. At the top: ``core``
(``read_file``), ``job``, ``models`` (``Reading``, ``Page``: data), ``errors``, ``settings``,
``services``. Nothing imports a module above it.
"""

from .core import read_file
from .errors import ReaderError
from .models import Figure, Page, Reading, Segment, Transcript, Usage
from .services import Services
from .settings import Settings

__all__ = [
    "read_file",
    "Reading",
    "Page",
    "Figure",
    "ReaderError",
    "Transcript",
    "Segment",
    "Usage",
    "Services",
    "Settings",
]
