"""ReadLens readers: see every file the way your model will.

    from readers import read_file
    reading = read_file("report.pdf", page_start=3, page_end=5, describe=None, multimodal=None)
    print(reading.as_text())
"""

from .core import read_file
from .errors import ReaderError
from .models import Figure, Page, Reading, Segment, Transcript, Usage
from .services import Services
from .settings import Settings

__all__ = ["read_file", "Reading", "Page", "Figure", "ReaderError", "Transcript", "Segment", "Usage", "Services", "Settings"]
