"""A ``Reading`` as JSON values: the command line's ``--format json`` and the batch records share it."""

from __future__ import annotations

import base64
from dataclasses import asdict

from ..models import Reading


def as_json(reading: Reading, images: bool = True) -> dict:
    """Every field of ``reading`` as JSON values, page images as base64 PNG (None when not ``images``),
    and ``text``, what a text-only model receives."""
    data = asdict(reading)
    del data["pdf"]  # where the PDF is on this machine: for as_messages(document=True), not a value to share
    del data["found_figures"]  # what describe read the figures from: the reading's pages already show them
    for page in data["pages"]:
        page["image"] = base64.b64encode(page["image"]).decode("ascii") if images and page["image"] else None
    data["text"] = reading.as_text()
    return data
