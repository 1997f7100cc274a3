"""Whether a page's blocks stand where their boxes say: each text or heading block's box holds its own
words and no others, and a ruled table's box is its drawn grid. ``bench/bench_blocks.py`` scores the
corpus's PDFs by it; ``tests/test_blocks.py`` holds pages to it.

A page's words are pdfium's (the characters the page draws, parted at spaces and line ends), each at
the centre of its characters' boxes, in the fractions of the page a block's box is in (the page as
rendered: its crop box, turned as it is). A block's words are its text's, its Markdown marks left out
(heading marks, list markers, a link's target, emphasis). Both sides are reduced to letters and digits
(``readers.render.placement.letters``), so spacing, case and punctuation do not count.

- **precision**: of the page's words whose centre lies in a block's box, the share that are the block's
  own (a word counts as the block's as many times as the block has it);
- **recall**: of the block's words, the share whose centre lies in its box.

Both are summed over blocks (micro): a long paragraph counts for its words. A ruled table's box is
compared with its drawn grid, by intersection over union, each table block with the grid that overlaps it
most (a table that overlaps none has no rules, and is not counted). A grid is found from a table
pdfplumber finds on the page (``find_tables`` with its default settings: the drawn lines), as the rules
that make it: its cells with the rules that cross them or run on from them (a rule that runs on past the
last vertical rule, over a column ruled only across its rows; vertical rules drawn on below the last
rule), the page's other half of a spread left out. The growing is the layout's own
(``readers.pdf.boxes.ruled``), but here it stops at no words: what this measures independently is where the
grid starts, pdfplumber's cells, not the layout's table. A table pdfplumber finds from filled boxes alone, no
rule among them, is shaded in bands: its bands are one grid, counted apart (its unshaded first or last row
lies outside them, and pdfplumber leaves out a band of one cell, a row spanned by one).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pdfplumber
import pypdfium2 as pdfium

from readers import Block, BlockKind
from readers.pdf.boxes import ruled
from readers.render.placement import letters

TEXT_KINDS = (BlockKind.HEADING, BlockKind.PARAGRAPH, BlockKind.LIST_ITEM, BlockKind.CAPTION)
LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
MARKS = re.compile(r"^\s*(#{1,6}\s+|[-*+•]\s+|\d{1,3}[.)]\s+)", re.M)

Box = tuple[float, float, float, float]
# A table shaded in bands: an unshaded row between two bands is at most this many times a band's height (a row
# of two lines between bands of one line is twice)
BAND_GAP = 2.5
RULE_WIDTH = 2.0  # points: a filled box this thin is a rule, not a shade
BAND_EDGES = 0.005  # of the page's width: bands of one table start and end within this of each other (half a cell rule)


@dataclass
class Score:
    """Words counted over blocks: the blocks' own words inside their boxes (``held``), the blocks' words
    (``words``) and the page's words inside their boxes (``inside``)."""

    held: int = 0
    words: int = 0
    inside: int = 0

    def add(self, other: Score) -> None:
        self.held, self.words, self.inside = (
            self.held + other.held,
            self.words + other.words,
            self.inside + other.inside,
        )

    @property
    def precision(self) -> float:
        return self.held / self.inside if self.inside else 1.0

    @property
    def recall(self) -> float:
        return self.held / self.words if self.words else 1.0


def _fraction(box: Box, crop: Box, rotation: int) -> tuple[float, float]:
    """The centre of a box in PDF points as fractions of the page as rendered (x from its left, y from its top)."""
    left, bottom, right, top = crop
    u = ((box[0] + box[2]) / 2 - left) / (right - left)
    v = (top - (box[1] + box[3]) / 2) / (top - bottom)
    return {0: (u, v), 90: (1 - v, u), 180: (1 - u, 1 - v), 270: (v, 1 - u)}[rotation % 360]


def page_words(pdf: Path, number: int) -> list[tuple[str, tuple[float, float]]]:
    """Page ``number``'s words as pdfium reads them: each one's letters and the centre of its characters."""
    document = pdfium.PdfDocument(str(pdf))
    try:
        page = document[number - 1]
        text_page = page.get_textpage()
        crop, rotation = page.get_cropbox(), page.get_rotation()
        count = text_page.count_chars()
        words, chars = [], []
        for index in range(count + 1):
            char = text_page.get_text_range(index, 1) if index < count else " "
            if char.strip():
                chars.append((char, text_page.get_charbox(index)))
                continue
            shown = letters("".join(char for char, _ in chars))
            boxes = [box for _, box in chars if box[2] > box[0] and box[3] > box[1]]
            if shown and boxes:
                union = (
                    min(b[0] for b in boxes),
                    min(b[1] for b in boxes),
                    max(b[2] for b in boxes),
                    max(b[3] for b in boxes),
                )
                words.append((shown, _fraction(union, crop, rotation)))
            chars = []
        text_page.close()
        page.close()
        return words
    finally:
        document.close()


def block_words(block: Block) -> Counter:
    """A block's words, its Markdown marks left out, as letters and digits."""
    text = MARKS.sub("", LINK.sub(r"\1", block.text))
    return Counter(shown for word in text.split() if (shown := letters(word)))


def block_score(block: Block, words: list[tuple[str, tuple[float, float]]]) -> Score:
    """The block's own words inside its box, its words, and the page's words inside its box (a block the
    layout placed nowhere holds none of its words the page prints: a note the reading adds, "(continued
    from page 1)", is no word of the page)."""
    own = block_words(block)
    if block.box is None:
        return Score(0, sum((own & Counter(word for word, _ in words)).values()), 0)
    left, top, right, bottom = block.box
    inside = Counter(word for word, (x, y) in words if left <= x <= right and top <= y <= bottom)
    return Score(sum((own & inside).values()), sum(own.values()), sum(inside.values()))


def grids(pdf: Path, number: int) -> tuple[list[Box], list[Box]]:
    """The drawn grids of page ``number``, as fractions of the page, cut to it (a spread's other page is not
    this page's): the ruled ones, each table pdfplumber finds that a rule draws (a line, a stroked box or a
    box no wider than ``RULE_WIDTH``) with the rules that cross it or run on from them
    (``readers.pdf.boxes.ruled``, as the layout grows a table's box); and the shaded ones, the tables it finds
    from filled boxes alone, a table's shaded bands one grid (``_banded``)."""
    with pdfplumber.open(pdf) as document:
        page = document.pages[number - 1]
        x0, top, x1, bottom = (float(value) for value in page.bbox)
        width, height = x1 - x0, bottom - top
        ruled_grids, shaded = [], []
        for table in page.find_tables():
            left, up, right, down = ruled(table.bbox, page.edges, [])
            box = (max(0.0, (left - x0) / width), max(0.0, (up - top) / height))
            box += (min(1.0, (right - x0) / width), min(1.0, (down - top) / height))
            if box[2] > box[0] and box[3] > box[1]:
                if _drawn_with_rules(table.bbox, page):
                    ruled_grids.append(box)
                else:
                    shaded.append((box, len(table.rows)))
        return ruled_grids, _banded(shaded)


def _drawn_with_rules(box: Box, page) -> bool:
    """A rule lies in ``box``: a line, a stroked shape, or a shape no wider or taller than ``RULE_WIDTH``."""
    left, top, right, bottom = box
    return any(
        left - RULE_WIDTH <= shape["x0"]
        and shape["x1"] <= right + RULE_WIDTH
        and top - RULE_WIDTH <= shape["top"]
        and shape["bottom"] <= bottom + RULE_WIDTH
        and (shape["object_type"] == "line" or shape["stroke"] or min(shape["width"], shape["height"]) <= RULE_WIDTH)
        for shape in page.lines + page.rects + page.curves
    )


def _banded(found: list[tuple[Box, int]]) -> list[Box]:
    """Grids ``(box, rows)``, each grid with the one-row grids of its width stacked under it (``_stacked``)
    one grid: a table shaded in bands has no rules but its shades' edges, and pdfplumber finds each band
    (its header's too) a table of its own, the unshaded rows between them none."""
    merged: list[Box] = []
    for box, rows in sorted(found, key=lambda grid: grid[0][1]):
        above = next((index for index, last in enumerate(merged) if rows == 1 and _stacked(last, box)), None)
        if above is None:
            merged.append(box)
        else:
            last = merged[above]
            merged[above] = (min(last[0], box[0]), last[1], max(last[2], box[2]), box[3])
    return merged


def _stacked(above: Box, below: Box) -> bool:
    """``below`` is a band of ``above``'s table: of its width, under it at most ``BAND_GAP`` of its own height."""
    return (
        abs(below[0] - above[0]) <= BAND_EDGES
        and abs(below[2] - above[2]) <= BAND_EDGES
        and 0 <= below[1] - above[3] <= BAND_GAP * (below[3] - below[1])
    )


def iou(one: Box, other: Box) -> float:
    across = max(0.0, min(one[2], other[2]) - max(one[0], other[0]))
    down = max(0.0, min(one[3], other[3]) - max(one[1], other[1]))
    both = across * down
    area = lambda box: (box[2] - box[0]) * (box[3] - box[1])
    union = area(one) + area(other) - both
    return both / union if union > 0 else 0.0


def grid_matches(tables: list[Block], drawn: list[Box]) -> list[float]:
    """Each table block's IoU with the drawn grid that overlaps it most, for the tables that overlap one (a
    table without rules overlaps none)."""
    found = [max((iou(grid, table.box) for grid in drawn), default=0.0) for table in tables if table.box]
    return [value for value in found if value > 0]
