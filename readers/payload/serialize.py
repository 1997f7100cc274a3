"""A ``Reading`` as JSON values: the command line's ``--format json`` and the batch records share it."""

from __future__ import annotations

import base64
from dataclasses import asdict

from ..models import Reading


def as_json(reading: Reading, images: bool = True) -> dict:
    """Every field of ``reading`` as JSON values, page images as base64 PNG (None when not ``images``),
    its notices' texts as ``warnings`` and the notices with their codes as ``notices`` (last), and
    ``text``, what a text-only model receives."""
    data = {}
    for key, value in asdict(reading).items():
        if key == "notices":
            data["warnings"] = reading.warnings
        elif key not in ("pdf", "_found"):  # where its PDF is on this machine, and what describe read figures from
            data[key] = value
    for page in data["pages"]:
        page["image"] = base64.b64encode(page["image"]).decode("ascii") if images and page["image"] else None
    data["text"] = reading.as_text()
    data["notices"] = notices_json(reading)
    return data


def notices_json(reading: Reading) -> list[dict]:
    """The reading's notices as JSON values: each one's ``code`` and ``text``."""
    return [{"code": str(notice.code), "text": notice.text} for notice in reading.notices]
