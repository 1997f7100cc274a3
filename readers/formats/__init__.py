"""Leaves: one module per kind, each with one ``read(job) -> Reading``; they import the engines
below them (``pdf``, ``office``, ``render``, ``markup``, ``intake``), never each other.

``read(job)`` hands a job to the module ``readers.kinds`` names as its kind's reader, imported only
when a file of that kind is read, so a text file never loads LibreOffice's or Whisper's code. It is
the one place that imports a format module.
"""

from __future__ import annotations

import importlib

from ..kinds import KINDS


def read(job):
    """The reading of ``job`` by the reader of its kind (``job.kind``, a name in ``readers.kinds``)."""
    if job.kind not in KINDS:
        raise ValueError(f"no reader for the kind {job.kind!r}")
    return importlib.import_module(f".{KINDS[job.kind].reader}", __name__).read(job)
