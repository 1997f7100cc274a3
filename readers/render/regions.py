"""Where each block of a page's text stands on the page: its box on the PDF the page was read from
(a PDF file, or the print LibreOffice or Chromium made of a document), in the fractions of the page
its render shows.

Each block's lines are looked for in the page's text layer as ``readers.render.placement`` looks
for a block on the printed pages: both reduced to letters and digits, so line breaks, hyphens,
spacing and Markdown marks do not matter. A cursor moves forward from each line found, so a
repeated phrase is found where the block before it left off; a line not found after the cursor is
looked for from the page's start (columns, a caption drawn after its table); a table row not found
whole is looked for cell by cell, after the cursor only (a short cell is found in many places). The
block's box holds every character found for it; a block with no line found (a scan's text from
OCR) has none.
"""

from __future__ import annotations

import re
from pathlib import Path

import pypdfium2 as pdfium

from .pdfium import PDFIUM_LOCK
from .placement import KEY, letters

SHORTEST = 3  # letters: a shorter line ("1", "Q") is found only right after the line before it
NEAR = 64  # letters after the cursor a short line may stand
LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")  # a link's text is printed, its target is not
DIGITS = 4  # a box's fractions are kept to 1/10,000 of the page

Box = tuple[float, float, float, float]


def _lines(block: str) -> list[tuple[str, list[str]]]:
    """What is looked for, in order: each line's letters, with a table row's cells, looked for one by
    one when the row is not found whole."""
    lines = []
    for line in LINK.sub(r"\1", block).split("\n"):
        cells = [letters(cell) for cell in line.strip().strip("|").split("|")] if line.lstrip().startswith("|") else []
        if shown := letters(line):
            lines.append((shown, [cell for cell in cells if cell]))
    return lines


def _find(unit: str, stream: str, cursor: int, anywhere: bool = True) -> tuple[int, int] | None:
    """Where ``unit`` stands in ``stream``: after ``cursor`` first, else (``anywhere``) from the start;
    a long one by its first and last ``KEY`` letters when it is not there whole."""
    if len(unit) < SHORTEST:
        position = stream.find(unit, cursor, cursor + NEAR)
        return (position, position + len(unit)) if position >= 0 else None
    starts = (cursor, 0) if anywhere else (cursor,)
    for start in starts:
        position = stream.find(unit, start)
        if position >= 0:
            return position, position + len(unit)
    for start in starts:
        head = stream.find(unit[:KEY], start)
        if head >= 0:
            tail = stream.find(unit[-KEY:], head, head + 2 * len(unit))
            return head, (tail + KEY if tail >= 0 else head + KEY)
    return None


def _fractions(box: Box, crop: Box, rotation: int) -> Box:
    """A box in PDF points (left, bottom, right, top) as fractions of the page as rendered (left, top,
    right, bottom from its top-left corner), turned as the page is."""
    left, bottom, right, top = crop
    u0, u1 = sorted(((box[0] - left) / (right - left), (box[2] - left) / (right - left)))
    v0, v1 = sorted(((top - box[3]) / (top - bottom), (top - box[1]) / (top - bottom)))
    turned = {
        0: (u0, v0, u1, v1),
        90: (1 - v1, u0, 1 - v0, u1),
        180: (1 - u1, 1 - v1, 1 - u0, 1 - v0),
        270: (v0, 1 - u1, v1, 1 - u0),
    }[rotation % 360]
    return tuple(round(min(1.0, max(0.0, value)), DIGITS) for value in turned)


def _page_boxes(page: pdfium.PdfPage, blocks: list[str]) -> list[Box | None]:
    text_page = page.get_textpage()
    try:
        count = text_page.count_chars()
        text = text_page.get_text_range(0, count)
        if len(text) != count:  # characters outside the basic plane: one at a time, so indexes agree
            text = "".join(text_page.get_text_range(index, 1)[:1] or " " for index in range(count))
        stream, where = [], []
        for index, char in enumerate(text):
            shown = letters(char)
            stream.append(shown)
            where += [index] * len(shown)
        stream = "".join(stream)
        crop, rotation, cursor, boxes = page.get_cropbox(), page.get_rotation(), 0, []
        for block in blocks:
            chars = set()
            for line, cells in _lines(block):
                found = [_find(line, stream, cursor)]
                if found[0] is None:
                    found = [_find(cell, stream, cursor, anywhere=False) for cell in cells]
                for start, end in filter(None, found):
                    chars.update(where[start:end])
                    cursor = max(cursor, end) if start >= cursor else cursor
            corners = [text_page.get_charbox(index) for index in sorted(chars)]
            corners = [corner for corner in corners if corner[2] > corner[0] and corner[3] > corner[1]]
            if not corners:
                boxes.append(None)
                continue
            union = (
                min(c[0] for c in corners),
                min(c[1] for c in corners),
                max(c[2] for c in corners),
                max(c[3] for c in corners),
            )
            boxes.append(_fractions(union, crop, rotation))
        return boxes
    finally:
        text_page.close()


def block_boxes(pdf_path: Path, pages: list[tuple[int, list[str]]]) -> list[list[Box | None]]:
    """For each (1-based page number, its blocks' Markdown) the box of each block on that page of
    ``pdf_path``, or None where it is not found; a page the PDF does not have, or that pdfium cannot
    load (a damaged page, read by another engine), finds none."""
    with PDFIUM_LOCK:
        try:
            document = pdfium.PdfDocument(str(pdf_path))
        except pdfium.PdfiumError:  # gone or damaged since its pages were read
            return [[None] * len(blocks) for _, blocks in pages]
        try:
            found = []
            for number, blocks in pages:
                try:
                    page = document[number - 1] if 1 <= number <= len(document) else None
                except pdfium.PdfiumError:
                    page = None
                if page is None:
                    found.append([None] * len(blocks))
                    continue
                try:
                    found.append(_page_boxes(page, blocks))
                finally:
                    page.close()
            return found
        finally:
            document.close()
