"""A workbook held to what its pages show before openpyxl loads it.

openpyxl makes an object for every comment and every picture a workbook holds, and opens each
picture with Pillow: a million comments took 2.1 GB, 100,000 pictures anchoring one small image
4.6 GB. A page shows a sheet's first ``MAX_SHEET_ROWS`` rows, and as many comments; so each
comments part keeps its first ``MAX_SHEET_COMMENTS`` comments and each drawing its first
``MAX_SHEET_DRAWINGS`` pictures and charts, in a copy made once per content hash, and the
reading says how many were left out.
"""

from __future__ import annotations

import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from ..intake.package import PARSER, with_parts
from ..markup.tables import MAX_SHEET_ROWS
from ..storage.files import BOUNDED, BOUNDS
from .sheet_figures import ANCHORS

MAX_SHEET_COMMENTS = MAX_SHEET_ROWS
MAX_SHEET_DRAWINGS = 200  # pictures and charts of one drawing (a sheet's): each picture is read by OCR
COMMENT_END = re.compile(rb"</(?:\w+:)?comment>")


@dataclass
class Cut:
    """What a bounded copy left out: for each comments part and drawing cut, how many it held."""

    comments: dict[str, int] = field(default_factory=dict)
    drawings: dict[str, int] = field(default_factory=dict)

    def warnings(self, name: str) -> list[str]:
        said = [
            f"{name} has {total:,} comments on one sheet; its first {MAX_SHEET_COMMENTS:,} are shown and the rest "
            "are left out (a page shows as many rows). Open the workbook in Excel to see them all."
            for total in self.comments.values()
        ]
        return said + [
            f"{name} has {total:,} pictures and charts on one sheet; its first {MAX_SHEET_DRAWINGS:,} are read and "
            "the rest are left out."
            for total in self.drawings.values()
        ]


def _comments_cut(data: bytes) -> tuple[bytes, int] | None:
    """A comments part less the comments after its first ``MAX_SHEET_COMMENTS`` (and how many it
    held), or None when it holds no more than that."""
    ends = [match.end() for match in COMMENT_END.finditer(data)]
    if len(ends) <= MAX_SHEET_COMMENTS:
        return None
    return data[: ends[MAX_SHEET_COMMENTS - 1]] + data[ends[-1] :], len(ends)


def _drawing_cut(data: bytes) -> tuple[bytes, int] | None:
    """A drawing less the anchors after its first ``MAX_SHEET_DRAWINGS`` (and how many it held), or None."""
    try:
        root = etree.fromstring(data, PARSER)
    except etree.XMLSyntaxError:  # what openpyxl makes of it decides
        return None
    anchors = [child for child in root if child.tag in ANCHORS]
    if len(anchors) <= MAX_SHEET_DRAWINGS:
        return None
    for anchor in anchors[MAX_SHEET_DRAWINGS:]:
        root.remove(anchor)
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True), len(anchors)


def bounded_workbook(job) -> tuple[Path, Cut]:
    """The workbook to load (the job's file, or a copy of it held to the bounds above) and what the
    copy left out."""
    store = job.services.store
    cached = store.get_json(job.sha256, BOUNDS)
    if cached is None:
        cut, parts = Cut(), {}
        with zipfile.ZipFile(job.path) as package:
            for name in package.namelist():
                if name.startswith("xl/comments") and name.endswith(".xml"):
                    cutter, held = _comments_cut, cut.comments
                elif name.startswith("xl/drawings/") and name.endswith(".xml"):
                    cutter, held = _drawing_cut, cut.drawings
                else:
                    continue
                if (found := cutter(package.read(name))) is not None:
                    parts[name], held[name] = found
            if parts:
                store.put_bytes(job.sha256, BOUNDED, with_parts(package, parts), job.kind)
        cached = {"comments": cut.comments, "drawings": cut.drawings}
        store.put_json(job.sha256, BOUNDS, cached)
    cut = Cut(cached["comments"], cached["drawings"])
    return (store.path(job.sha256, BOUNDED, job.kind) if cut.comments or cut.drawings else job.path), cut
