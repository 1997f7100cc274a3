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
right page."""

from __future__ import annotations

import bisect
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import pypdfium2 as pdfium

from .pdfium import PDFIUM_LOCK

KEY = 32  # characters of a block looked for at a time
MIN_KEY = 6
# letters a block's render may be shorter than the block (a field's result, a symbol); shorter blocks
# ("Yes", "12") are too common to be placed by themselves
SLACK = 64
WINDOW = 6000  # how far past the cursor (about two pages of text) a block may be found


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


def rendered_pages(pdf_path: Path) -> list[Passage]:
    """Each page of a PDF: its letters and digits in the order its content draws them, and its images."""
    with PDFIUM_LOCK:
        document = pdfium.PdfDocument(str(pdf_path))
        try:
            pages = []
            for page in document:
                text_page = page.get_textpage()
                images = sum(1 for _ in page.get_objects(filter=[pdfium.raw.FPDF_PAGEOBJ_IMAGE], max_depth=1))
                pages.append(Passage(letters(text_page.get_text_range()), images))
                text_page.close()
                page.close()
            return pages
        finally:
            document.close()


@dataclass
class Placement:
    pages: list[int]  # the 1-based page each block starts on
    breaks: list[list[tuple[int, int]]]  # per block: (letters before a page break, the page after it)
    matchable: int  # blocks long enough to be looked for
    unmatched: int  # of those, the ones not found


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


def _without_margins(page: str, edges: list[str], notes: list[tuple[str, str]]) -> str:
    """The page's letters less what is drawn around the body: ``edges`` (a running header at
    the start; footers and text boxes, drawn after the body, at the end, as often as they
    repeat) and ``notes`` (footnotes, wherever they stand, with their mark before them)."""
    if edges:
        trimmed = True
        while trimmed:
            trimmed = False
            for edge in edges:
                if page.endswith(edge):
                    page, trimmed = page[: -len(edge)], True
        for edge in edges:
            if page.startswith(edge):
                page = page[len(edge) :]
    for mark, note in notes:
        position = page.rfind(note)
        if position >= 0:
            cut = position - len(mark) if mark and page.startswith(mark, position - len(mark)) else position
            page = page[:cut] + page[position + len(note) :]
    return page


def _letter_set(texts) -> list[str]:
    return sorted({shown for text in texts if len(shown := letters(text)) >= MIN_KEY}, key=len, reverse=True)


def place_blocks(
    blocks: list[Passage],
    rendered: list[Passage],
    edges: list[str] = (),
    notes: list[tuple[str, str]] = (),
    repeated_pictures: int = 0,
) -> Placement:
    """The page of each block, given what each rendered page shows (``rendered_pages``).

    ``edges`` (headers, footers, text boxes) and ``notes`` (footnotes: their mark and text) are
    what the render shows that is no block's; ``repeated_pictures`` is how many pictures every
    page repeats (a logo in the header), which are no block's either.
    """
    edges = _letter_set(edges)
    notes = sorted(
        {(letters(mark), shown) for mark, text in notes if len(shown := letters(text)) >= MIN_KEY},
        key=lambda note: len(note[1]),
        reverse=True,
    )
    rendered = [Passage(_without_margins(page.text, edges, notes), page.pictures) for page in rendered]
    starts, total = [], 0
    for rendered_page in rendered:
        starts.append(total)
        total += len(rendered_page.text)
    stream = "".join(rendered_page.text for rendered_page in rendered)
    free = [max(0, rendered_page.pictures - repeated_pictures) for rendered_page in rendered]
    cursor, page, pages, breaks, matchable, unmatched = 0, 1, [], [], 0, 0
    for block in blocks:
        text = letters(block.text)
        breaks.append([])
        if len(text) >= MIN_KEY:
            matchable += 1
            found = _find(text, stream, cursor)
            if found is None:
                unmatched += 1
            else:
                start, cursor = found
                page = bisect.bisect_right(starts, start)
                breaks[-1] = _breaks(text, letters(block.repeated), stream, starts, start, cursor)
        elif text:
            position = stream.find(
                text, cursor, cursor + SLACK
            )  # a short heading or "Yes.": right after the block before
            if position >= 0:
                cursor = position + len(text)
                page = bisect.bisect_right(starts, position)
        elif block.pictures:
            page = next((number for number in range(page, min(page + 2, len(free)) + 1) if free[number - 1]), page)
        if block.pictures and page <= len(free):
            free[page - 1] = max(0, free[page - 1] - block.pictures)
        pages.append(page)
    return Placement(pages, breaks, matchable, unmatched)


def markdown_on_pages(markdown: str, printed: list[Passage]) -> list[list[str]]:
    """The Markdown's blocks on the printed pages (``rendered_pages``) that show them,
    placed as a Word document's blocks are; a block not found stays on the page of the block before it.
    A block keeps its indent, which nests it in the list item before it."""
    blocks = [
        block for block in (b.rstrip() for b in re.split(r"\n\s*\n", markdown)) if block.strip()
    ]  # a block keeps its indent: the next paragraph of a list item, a nested list

    shown = [
        Passage(re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", block)) for block in blocks
    ]  # a link's text is printed, its target is not
    pages: list[list[str]] = [[] for _ in printed] or [[]]
    for block, number in zip(blocks, place_blocks(shown, printed).pages):
        pages[min(number, len(pages)) - 1].append(block)
    return pages
