"""Leaves: one module per kind, each with one ``read(job) -> Reading``; they import the engines
below them (``pdf``, ``office``, ``render``, ``markup``, ``intake``), never each other.

``read(job)`` hands a job to its kind's module, named here one by one and imported only when a
file of that kind is read, so a text file never loads LibreOffice's or Whisper's code. It is the
one place that imports a format module; ``readers.kinds`` says what each kind is.
"""

from __future__ import annotations


def read(job):
    """The reading of ``job`` by the module of its kind (``job.kind``, a name in ``readers.kinds``)."""
    match job.kind:
        case "pdf":
            from . import pdf as reader
        case "docx":
            from . import docx as reader
        case "pptx":
            from . import pptx as reader
        case "xlsx":
            from . import xlsx as reader
        case "csv":
            from . import csv as reader
        case "html":
            from . import html as reader
        case "feed":
            from . import feed as reader
        case "epub":
            from . import epub as reader
        case "email":
            from . import email as reader
        case "zip":
            from . import zip as reader
        case "image":
            from . import image as reader
        case "audio":
            from . import audio as reader
        case "text":
            from . import text as reader
        case _:
            raise ValueError(f"no reader for the kind {job.kind!r}")
    return reader.read(job)
