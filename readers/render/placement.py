"""Which rendered page each block of a document stands on.

A Word document's text comes from the document itself, but its pages are LibreOffice's: so each
block (paragraph, table, ...) is looked for in the text of the rendered PDF, in order. Both sides
are reduced to letters and digits (case-folded, ligatures and full-width forms unfolded), which
makes the match blind to line breaks, hyphenation, spacing, bullets and punctuation. A cursor moves
only forward: each block is looked for from the end of the block before it, by its first characters,
else by characters from its middle or its end (a field or a tracked deletion may change its start),
within a window, so a short or repeated passage cannot jump pages ahead. A short block ("Yes.",
"Part 3") is looked for only just after the block before it; a block not found stays on the page of
the block before it; a block that runs over a page break is told where (``Placement.breaks``), so a
paragraph can be split between the pages it stands on. What the render shows besides the blocks —
running headers and footers, footnotes, text boxes (drawn after the body) — is taken out of each
page first, so a footnote, a header or a text box that shares a block's first words cannot stand in
for it. Pictures have no text to find: a block that is only pictures goes to the first page, from
the current one on, that still has a picture not yet accounted for (a figure pushed to the next page
by a full page is shown there). ``bench/bench_placement.py`` measures how often this lands on the
right page.

Where a block was found is kept (``Placement.found``: its letters in the printed pages), and its box
on each page it stands on is the box of those letters there (``letter_boxes``): the one search that
places a block says where it is drawn."""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import pypdfium2 as pdfium

from ..markup.blocks import Block, Box
from .pdfium import PDFIUM_LOCK

KEY = 32  # characters of a block looked for at a time
MIN_KEY = 6
# letters a block's render may be shorter than the block (a field's result, a symbol); shorter blocks
# ("Yes", "12") are too common to be placed by themselves
SLACK = 64
WINDOW = 6000  # how far past the cursor (about two pages of text) a block may be found
DIGITS = 4  # a box's fractions are kept to 1/10,000 of the page
LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")  # a link's text is printed, its target is not


def letters(text: str) -> str:
    """Only the letters and digits of ``text``, case-folded and with ligatures unfolded."""
    return "".join(char for char in unicodedata.normalize("NFKC", text).casefold() if char.isalnum())


@dataclass
class Passage:
    """What a block shows: its text, how many pictures, and what it shows again at the top of
    each page it runs onto (a table's heading rows)."""

    text: str
    pictures: int = 0
    repeated: str = ""


def _page_letters(text_page: pdfium.PdfTextPage) -> tuple[str, list[int]]:
    """A page's letters and digits (``letters``, character by character) in the order its content
    draws them, and the index of the character each comes from."""
    count = text_page.count_chars()
    text = text_page.get_text_range(0, count)
    if len(text) != count:  # characters outside the basic plane: one at a time, so indexes agree
        text = "".join(text_page.get_text_range(index, 1)[:1] or " " for index in range(count))
    shown, where = [], []
    for index, char in enumerate(text):
        found = letters(char)
        shown.append(found)
        where += [index] * len(found)
    return "".join(shown), where


def rendered_pages(pdf_path: Path) -> list[Passage]:
    """Each page of a PDF: its letters and digits in the order its content draws them, and its images."""
    with PDFIUM_LOCK:
        document = pdfium.PdfDocument(str(pdf_path))
        try:
            pages = []
            for page in document:
                text_page = page.get_textpage()
                images = sum(1 for _ in page.get_objects(filter=[pdfium.raw.FPDF_PAGEOBJ_IMAGE], max_depth=1))
                pages.append(Passage(_page_letters(text_page)[0], images))
                text_page.close()
                page.close()
            return pages
        finally:
            document.close()


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
    left, top, right, bottom = (round(min(1.0, max(0.0, value)), DIGITS) for value in turned)
    return left, top, right, bottom


def letter_boxes(pdf_path: Path, wanted: list[tuple[int, list[tuple[int, int]]]]) -> list[Box | None]:
    """The box of each (1-based page, its letters as (first, end) runs) of ``pdf_path``: of the
    characters those letters of the page (``rendered_pages``) come from, as fractions of the page as
    rendered; None where none of them has a size (or the page cannot be loaded)."""
    boxes: list[Box | None] = [None] * len(wanted)
    by_page: dict[int, list[int]] = {}
    for index, (number, _) in enumerate(wanted):
        by_page.setdefault(number, []).append(index)
    with PDFIUM_LOCK:
        try:
            document = pdfium.PdfDocument(str(pdf_path))
        except pdfium.PdfiumError:  # gone or damaged since it was placed on
            return boxes
        try:
            for number, indexes in by_page.items():
                try:
                    page = document[number - 1]
                except (pdfium.PdfiumError, IndexError):
                    continue
                text_page = page.get_textpage()
                try:
                    where = _page_letters(text_page)[1]
                    crop, rotation = page.get_cropbox(), page.get_rotation()
                    for index in indexes:
                        chars = {char for first, end in wanted[index][1] for char in where[first:end]}
                        corners = [text_page.get_charbox(char) for char in sorted(chars)]
                        corners = [c for c in corners if c[2] > c[0] and c[3] > c[1]]
                        if corners:
                            union = (
                                min(c[0] for c in corners),
                                min(c[1] for c in corners),
                                max(c[2] for c in corners),
                                max(c[3] for c in corners),
                            )
                            boxes[index] = _fractions(union, crop, rotation)
                finally:
                    text_page.close()
                    page.close()
        finally:
            document.close()
    return boxes


@dataclass
class Placement:
    pages: list[int]  # the 1-based page each block starts on
    breaks: list[list[tuple[int, int]]]  # per block: (letters before a page break, the page after it)
    matchable: int  # blocks long enough to be looked for
    unmatched: int  # of those, the ones not found
    found: list[list[tuple[int, int, int]]] = field(default_factory=list)  # per block: (page, first letter, end)


def _find(text: str, stream: str, cursor: int) -> tuple[int, int] | None:
    """(start, end) of ``text`` in ``stream`` at or after ``cursor``, or None."""
    limit = cursor + WINDOW + len(text)
    middle = max(0, len(text) // 2 - KEY // 2)
    for offset in dict.fromkeys([0, middle, max(0, len(text) - KEY)]):
        key = text[offset : offset + KEY]
        position = stream.find(key, cursor, limit)
        if position < 0:
            continue
        start = max(cursor, position - offset)
        tail = text[-KEY:]
        near_end = max(position, start + len(text) - len(tail) - SLACK)  # not an earlier repeat of the same words
        end = stream.find(tail, near_end, position + 2 * len(text) + WINDOW)
        return start, (end + len(tail) if end >= 0 else position + len(key))
    return None


def _breaks(text: str, repeated: str, stream: str, starts: list[int], start: int, end: int) -> list[tuple[int, int]]:
    """Where a block found at ``start:end`` runs over page breaks: (its letters before, next page).

    A break counts only where the next page goes on with exactly the block's next letters (after
    the ``repeated`` heading rows of a table), so a block whose render differs (a tracked
    deletion shown struck through) stays whole.
    """
    found, shown_again = [], 0
    for index in range(bisect.bisect_right(starts, start), bisect.bisect_right(starts, max(start, end - 1))):
        before, at = starts[index] - start - shown_again, starts[index]
        if repeated and stream.startswith(repeated, at):
            at += len(repeated)
            shown_again += len(repeated)
        if 0 < before < len(text) and stream[at : at + MIN_KEY] == text[before : before + MIN_KEY]:
            found.append((before, index + 1))
    return found


class _Kept:
    """A page's letters as pieces are cut out of them, and where each letter left stood on the page."""

    def __init__(self, text: str):
        self.text = text
        self.pieces = [(0, len(text))]  # the page's letters kept, (start, end), in order

    def cut(self, start: int, end: int) -> None:
        """Cut out letters ``start`` to ``end`` of what is kept."""
        self.text = self.text[:start] + self.text[end:]
        pieces, position = [], 0
        for first, last in self.pieces:
            here = (position, position + last - first)
            position = here[1]
            if here[1] <= start or here[0] >= end:
                pieces.append((first, last))
                continue
            if here[0] < start:
                pieces.append((first, first + start - here[0]))
            if here[1] > end:
                pieces.append((first + end - here[0], last))
        self.pieces = pieces

    def on_page(self, start: int, end: int) -> list[tuple[int, int]]:
        """Where letters ``start`` to ``end`` of what is kept stand on the page: (start, end) pieces."""
        out, position = [], 0
        for first, last in self.pieces:
            low, high = max(start, position), min(end, position + last - first)
            if low < high:
                out.append((first + low - position, first + high - position))
            position += last - first
        return out


def _without_margins(page: str, edges: list[str], notes: list[tuple[str, str]]) -> _Kept:
    """The page's letters less what is drawn around the body: ``edges`` (a running header at
    the start; footers and text boxes, drawn after the body, at the end, as often as they
    repeat) and ``notes`` (footnotes, wherever they stand, with their mark before them)."""
    kept = _Kept(page)
    if edges:
        trimmed = True
        while trimmed:
            trimmed = False
            for edge in edges:
                if kept.text.endswith(edge):
                    kept.cut(len(kept.text) - len(edge), len(kept.text))
                    trimmed = True
        for edge in edges:
            if kept.text.startswith(edge):
                kept.cut(0, len(edge))
    for mark, note in notes:
        position = kept.text.rfind(note)
        if position >= 0:
            cut = position - len(mark) if mark and kept.text.startswith(mark, position - len(mark)) else position
            kept.cut(cut, position + len(note))
    return kept


def _letter_set(texts) -> list[str]:
    return sorted({shown for text in texts if len(shown := letters(text)) >= MIN_KEY}, key=len, reverse=True)


def place_blocks(
    blocks: list[Passage],
    rendered: list[Passage],
    edges: Sequence[str] = (),
    notes: Sequence[tuple[str, str]] = (),
    repeated_pictures: int = 0,
) -> Placement:
    """The page of each block, given what each rendered page shows (``rendered_pages``).

    ``edges`` (headers, footers, text boxes) and ``notes`` (footnotes: their mark and text) are
    what the render shows that is no block's; ``repeated_pictures`` is how many pictures every
    page repeats (a logo in the header), which are no block's either.
    """
    edge_letters = _letter_set(edges)
    keys = sorted(
        {(letters(mark), shown) for mark, text in notes if len(shown := letters(text)) >= MIN_KEY},
        key=lambda note: len(note[1]),
        reverse=True,
    )
    kept = [_without_margins(page.text, edge_letters, keys) for page in rendered]
    rendered = [Passage(page.text, printed.pictures) for page, printed in zip(kept, rendered)]
    starts, total = [], 0
    for rendered_page in rendered:
        starts.append(total)
        total += len(rendered_page.text)
    stream = "".join(rendered_page.text for rendered_page in rendered)
    free = [max(0, rendered_page.pictures - repeated_pictures) for rendered_page in rendered]
    cursor, page, pages, matchable, unmatched = 0, 1, [], 0, 0
    breaks: list[list] = []
    spans: list[list] = []
    for block in blocks:
        text = letters(block.text)
        breaks.append([])
        spans.append([])
        if len(text) >= MIN_KEY:
            matchable += 1
            found = _find(text, stream, cursor)
            if found is None:
                unmatched += 1
            else:
                start, cursor = found
                page = bisect.bisect_right(starts, start)
                breaks[-1] = _breaks(text, letters(block.repeated), stream, starts, start, cursor)
                spans[-1] = _on_pages(kept, starts, start, cursor)
        elif text:
            position = stream.find(
                text, cursor, cursor + SLACK
            )  # a short heading or "Yes.": right after the block before
            if position >= 0:
                cursor = position + len(text)
                page = bisect.bisect_right(starts, position)
                spans[-1] = _on_pages(kept, starts, position, cursor)
        elif block.pictures:
            page = next((number for number in range(page, min(page + 2, len(free)) + 1) if free[number - 1]), page)
        if block.pictures and page <= len(free):
            free[page - 1] = max(0, free[page - 1] - block.pictures)
        pages.append(page)
    return Placement(pages, breaks, matchable, unmatched, spans)


def _on_pages(kept: list[_Kept], starts: list[int], start: int, end: int) -> list[tuple[int, int, int]]:
    """Letters ``start`` to ``end`` of the pages' stream as (1-based page, first letter, end) on the pages."""
    out = []
    for index in range(bisect.bisect_right(starts, start) - 1, bisect.bisect_right(starts, max(start, end - 1))):
        low, high = max(start, starts[index]) - starts[index], min(end, starts[index] + len(kept[index].text))
        for first, last in kept[index].on_page(low, high - starts[index]):
            out.append((index + 1, first, last))
    return out


def boxes_on(pdf_path: Path, placed: Placement) -> list[dict[int, Box]]:
    """Each placed block's box on each page it was found on: the box of its letters there (``letter_boxes``)."""
    wanted: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for index, spans in enumerate(placed.found):
        for number, first, end in spans:
            wanted.setdefault((index, number), []).append((first, end))
    found = letter_boxes(pdf_path, [(number, runs) for (_, number), runs in wanted.items()])
    boxes: list[dict[int, Box]] = [{} for _ in placed.found]
    for (index, number), box in zip(wanted, found):
        if box is not None:
            boxes[index][number] = box
    return boxes


def blocks_on_pages(blocks: list[Block], pdf_path: Path) -> list[list[Block]]:
    """The blocks on the printed pages of ``pdf_path`` that show them, each with its box there,
    placed as a Word document's blocks are; a block not found stays on the page of the block before it."""
    printed = rendered_pages(pdf_path)
    shown = [Passage(LINK.sub(r"\1", block.text)) for block in blocks]  # a link's text is printed, its target is not
    placed = place_blocks(shown, printed)
    boxes = boxes_on(pdf_path, placed)
    pages: list[list[Block]] = [[] for _ in printed] or [[]]
    for block, number, box in zip(blocks, placed.pages, boxes):
        number = min(number, len(pages))
        pages[number - 1].append(replace(block, box=box.get(number)))
    return pages
