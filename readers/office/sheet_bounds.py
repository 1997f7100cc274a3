"""A workbook held to what its pages show before openpyxl loads it.

openpyxl makes an object for every cell, comment and picture a workbook holds, and opens each
picture with Pillow: a million comments took 2.1 GB, 100,000 pictures anchoring one small image
4.6 GB, 12 million styled empty cells 4.7 GB and two minutes. A page shows a sheet's first
``MAX_SHEET_ROWS`` rows and ``MAX_SHEET_COLUMNS`` columns, and as many comments; so each comments
part keeps its first ``MAX_SHEET_COMMENTS`` comments, each drawing its first ``MAX_SHEET_DRAWINGS``
pictures and charts, and each sheet of more than ``MAX_SHEET_CELLS`` cells (counted as its XML
streams, before anything is built) the rows and columns its page shows, and one empty cell where
its last row and column end, so that its page still says how much was left out. The copy is made
once per content hash, and the reading says what was left out.
"""

from __future__ import annotations

import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree
from openpyxl.utils import column_index_from_string, get_column_letter

from ..errors import on_time
from ..intake.package import PARSER, with_parts
from ..markup.tables import MAX_SHEET_ROWS
from ..storage.files import BOUNDED, BOUNDS
from .sheet_figures import ANCHORS

MAX_SHEET_COMMENTS = MAX_SHEET_ROWS
MAX_SHEET_DRAWINGS = 200  # pictures and charts of one drawing (a sheet's): each picture is read by OCR
MAX_SHEET_COLUMNS = 200  # a stray cell in column XFD would otherwise make every row 16,384 cells wide
# openpyxl takes some 35 µs and 460 bytes a styled cell here (a million: 35 s, 460 MB); a page shows
# at most 500 rows of 200 cells, so a sheet of more than twice and a half that is cut to them.
MAX_SHEET_CELLS = 250_000
COMMENT_END = re.compile(rb"</(?:\w+:)?comment>")
CELL = re.compile(rb"<(?:\w+:)?c[\s/>]")
ROW_START = re.compile(rb"<(?:\w+:)?row\b[^>]*?(/?)>")
CELL_ELEMENT = re.compile(rb"<(?:\w+:)?c[\s/>](?:[^>]*?/>|.*?</(?:\w+:)?c>)", re.S)
ROW_NUMBER = re.compile(rb'^<(?:\w+:)?row\b[^>]*?\sr="(\d+)"')
LETTERS = re.compile(rb"([A-Z]{1,3})\d+")
REFERENCE = re.compile(rb'^<(?:\w+:)?c\b[^>]*?\sr="([A-Z]{1,3})(\d+)"')
CHUNK = 1 << 20  # bytes of a sheet's XML read at a time
TAG_ROOM = 64  # bytes at a chunk's end that may hold the start of a tag the next chunk ends
SHEET_DATA = re.compile(rb"<(\w+:)?sheetData\b[^>]*?>")
DATA_END = re.compile(rb"\s*</(?:\w+:)?sheetData>")
SPACE = re.compile(rb"\s*")


@dataclass
class Cut:
    """What a bounded copy left out: for each comments part and drawing cut, how many it held."""

    comments: dict[str, int] = field(default_factory=dict)
    drawings: dict[str, int] = field(default_factory=dict)
    cells: dict[str, int] = field(default_factory=dict)

    def warnings(self, name: str) -> list[str]:
        said = [
            f"{name} has {total:,} comments on one sheet; its first {MAX_SHEET_COMMENTS:,} are shown and the rest "
            "are left out (a page shows as many rows). Open the workbook in Excel to see them all."
            for total in self.comments.values()
        ]
        said += [
            f"{name} has {total:,} pictures and charts on one sheet; its first {MAX_SHEET_DRAWINGS:,} are read and "
            "the rest are left out."
            for total in self.drawings.values()
        ]
        return said + [
            f"{name} has a sheet of {total:,} cells; only the rows and columns its page shows were loaded, so a "
            "chart drawn from cells past them shows only what those hold."
            for total in self.cells.values()
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


def _cell_count(package: zipfile.ZipFile, name: str) -> int:
    """The cells of a sheet's XML, counted as it streams, up to just past ``MAX_SHEET_CELLS``."""
    count, carried = 0, b""
    with package.open(name) as part:
        while count <= MAX_SHEET_CELLS and (chunk := part.read(CHUNK)):
            data = carried + chunk
            end = data.rfind(b"<", max(0, len(data) - TAG_ROOM))
            end = len(data) if end < 0 else end
            count += len(CELL.findall(data, 0, end))
            carried = data[end:]
    return count + len(CELL.findall(carried))


def _reference(row: bytes, cell) -> int | None:
    """The column of the cell element ``cell`` (a match in ``row``) by its reference, or None without one."""
    found = REFERENCE.match(row, cell.start())
    return column_index_from_string(found[1].decode()) if found else None


def _last_column(row: bytes, cells: int, tag: bytes) -> int:
    """The column the last of a row's ``cells`` stands in: by the last reference in it, counting the
    cells after it; without one, the row's cells from column A."""
    at = row.rfind(b'r="', row.index(b">"))  # after the row's own tag, whose r is the row's
    found = LETTERS.match(row, at + 3) if at > 0 and row[at - 1 : at].isspace() else None
    return column_index_from_string(found[1].decode()) + row.count(tag, at) if found else cells


def _kept_cells(row: bytes, least: int | None) -> tuple[bytes, int]:
    """The row element with only its cells up to ``MAX_SHEET_COLUMNS`` from the leftmost column of the
    sheet's kept rows (``least``, none yet; this row's own counts), and that leftmost column."""
    cells = list(CELL_ELEMENT.finditer(row))
    first = _reference(row, cells[0]) or 1
    least = min(least or first, first)
    kept, column = [], 0
    for cell in cells:
        column = _reference(row, cell) or column + 1
        if column < least + MAX_SHEET_COLUMNS:
            kept.append(cell.group())
    return row[: row.index(b">") + 1] + b"".join(kept) + row[row.rindex(b"</") :], least


def _sheet_cut(package: zipfile.ZipFile, name: str) -> tuple[bytes, int] | None:
    """A sheet of more than ``MAX_SHEET_CELLS`` cells held to the rows and columns its page shows
    (from its first row of cells), with an empty cell where its last row and column end; and how
    many cells it held. None for a smaller sheet, or one whose XML is not as expected."""
    if _cell_count(package, name) <= MAX_SHEET_CELLS:
        return None
    rows, total, number, first, least, last_row, last_column = [], 0, 0, None, None, 0, 0
    with package.open(name) as part:
        data, at = b"", 0
        while (opened := SHEET_DATA.search(data)) is None:
            if not (chunk := part.read(CHUNK)):
                return None
            data += chunk
        head, data = data[: opened.end()], data[opened.end() :]
        prefix = opened[1] or b""
        tag, row_end = b"<" + prefix + b"c", b"</" + prefix + b"row>"  # within a row only cells' tags start so
        while not (end := DATA_END.match(data, at)):
            spaces = SPACE.match(data, at)  # \s* matches at any place
            at = spaces.end() if spaces else at
            started = ROW_START.match(data, at)
            if started and started[1]:  # <row .../>: no cells
                stop = started.end()
            elif started and (closed := data.find(row_end, started.end())) >= 0:
                stop = closed + len(row_end)
            else:  # the row goes on in the next chunk
                if not (chunk := part.read(CHUNK)):
                    return None
                data, at = data[at:] + chunk, 0
                continue
            on_time()
            row, at = data[at:stop], stop
            number = int(numbered[1]) if (numbered := ROW_NUMBER.match(row)) else number + 1
            if not (cells := row.count(tag)):
                continue
            total, first = total + cells, first or number
            last_row, last_column = number, max(last_column, _last_column(row, cells, tag))
            if number < first + MAX_SHEET_ROWS:
                kept, least = _kept_cells(row, least)
                rows.append((number, kept))
        tail = data[end.start() :] + part.read()
    marker = f'<c r="{get_column_letter(last_column)}{last_row}"/>'.encode()
    shown = [row for _, row in rows]
    if rows[-1][0] == last_row:  # the last row is kept: the marker ends it
        ending = shown[-1].rindex(b"</")
        shown[-1] = shown[-1][:ending] + marker + shown[-1][ending:]
    else:
        shown.append(f'<row r="{last_row}">'.encode() + marker + b"</row>")
    return head + b"".join(shown) + tail, total


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
                    found, held = _comments_cut(package.read(name)), cut.comments
                elif name.startswith("xl/drawings/") and name.endswith(".xml"):
                    found, held = _drawing_cut(package.read(name)), cut.drawings
                elif name.startswith("xl/worksheets/") and name.endswith(".xml"):
                    found, held = _sheet_cut(package, name), cut.cells
                else:
                    continue
                if found is not None:
                    parts[name], held[name] = found
            if parts:
                store.put_bytes(job.sha256, BOUNDED, with_parts(package, parts), job.kind)
        cached = {"comments": cut.comments, "drawings": cut.drawings, "cells": cut.cells}
        store.put_json(job.sha256, BOUNDS, cached)
    cut = Cut(cached["comments"], cached["drawings"], cached["cells"])
    return (store.path(job.sha256, BOUNDED, job.kind) if cut.comments or cut.drawings or cut.cells else job.path), cut
