"""Side boxes: the words set inside a box drawn on the page (a newsletter's side box, a textbook's
glossary, a boxed note) are read as a block of their own, whole, where the box stands, so the body
text beside it is never spliced with it line by line ("condizionamenti ester-Persona"), however
narrow the gap between them. ``readers.pdf.layout`` reads the block's words in their own reading
order; ``readers.pdf.paragraphs.paragraph_groups`` places it, like any block (a table, a figure),
after the paragraph it stands beside rather than in its middle.

A box is a side box when it holds lines of text of its own: at least ``ASIDE_LINES`` lines of some
``ASIDE_LINE_CHARS`` characters (a figure's labels in its frame are shorter) and ``ASIDE_WORDS``
words, none crossing its edge (a highlight or a rule behind part of a line is no box); and it
covers less than ``ASIDE_PAGE`` of the page (a frame round the whole text is no side box). A ruled
table's cells were taken before; a box holding a smaller one is left to it.
"""

from __future__ import annotations

from statistics import median

from .boxes import Box, area, box_of, near
from .records import Item
from .shades import page_shades, zebra_stripes
from .unruled import item_lines

ASIDE_LINES = 2
ASIDE_WORDS = 6  # fewer words in a box are a label, a button or a form's field, not a block of text
ASIDE_PAGE = 0.5  # of the page's area
ASIDE_LINE_CHARS = 20  # a side box's lines are text this long or longer; a figure's labels in their frame are short
EDGE_SLACK = 1.0  # points: a word may touch a box's edge


def drawn_boxes(page) -> list[Box]:
    """The boxes drawn on a pdfplumber ``page``: its rectangles and curves, filled or stroked, but a zebra's
    stripes (``readers.pdf.shades.zebra_stripes``): a table's rows shaded in turn, its cells' words no side box's
    (a description at the foot of a page, in the last stripe)."""
    stripes = zebra_stripes(page_shades(page))
    return [
        box_of(obj)
        for obj in (*page.rects, *page.curves)
        if (obj.get("fill") or obj.get("stroke")) and id(obj) not in stripes
    ]


def _within(word: Item, box: Box) -> bool:
    return (
        word["x0"] >= box[0] - EDGE_SLACK
        and word["x1"] <= box[2] + EDGE_SLACK
        and word["top"] >= box[1] - EDGE_SLACK
        and word["bottom"] <= box[3] + EDGE_SLACK
    )


def asides(words: list[Item], drawn: list[Box], page_area: float) -> list[tuple[Box, list[Item]]]:
    """The side boxes among ``drawn`` with the ``words`` each holds (see the module's docstring),
    smallest first."""
    found: list[tuple[Box, list[Item]]] = []
    taken: set[int] = set()
    for box in sorted(set(drawn), key=area):
        if area(box) >= ASIDE_PAGE * page_area or any(near(box, other, 0) for other, _ in found):
            continue
        touching = [word for word in words if near(box_of(word), box, 0)]
        inside = [word for word in touching if _within(word, box)]
        lines = item_lines(inside)
        if (
            len(inside) < len(touching)
            or len(inside) < ASIDE_WORDS
            or len(lines) < ASIDE_LINES
            or median(sum(len(word["text"]) + 1 for word in line) for line in lines) < ASIDE_LINE_CHARS
            or any(id(word) in taken for word in inside)
        ):
            continue
        found.append((box, inside))
        taken.update(id(word) for word in inside)
    return found
