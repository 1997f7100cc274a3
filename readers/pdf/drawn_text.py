"""Words drawn as outlines: a poster's title, a logo's slogan, text a designer turned into shapes.

They have no characters behind them, so the text layer lacks them; their glyphs are filled shapes
(curves, and rectangles for an I or an l) of a line's height, side by side on one band, each
within a word space of the one before, and of different widths (the same shape repeated — a row
of markers, of bars — is not a word). Lines of at least ``MIN_GLYPHS`` such shapes, one above the
other, make a block; a block with no character inside is a figure of kind ``drawn text``, which OCR
reads like a picture.
"""

from __future__ import annotations

from .boxes import centre_in, union

MIN_GLYPHS = 3
MIN_HEIGHT = 4.0  # points: smaller shapes are dots, ticks, the dot of an i
WIDEST = 2.0  # a glyph is at most this many times as wide as it is high (an M, a W; an m at its x-height)
NARROWEST = 0.05  # and at least this share of its height (a thin l): a box's border is narrower
BAND = 0.5  # of the shorter glyph's height: how much two glyphs of one line overlap in height
SIZES = 0.4  # a glyph is at least this share of its neighbour's height (an x next to a T), and they of its
WORD_SPACE = 0.8  # of the line's height: the widest gap between two glyphs of one line
KERN = 0.2  # of the line's height: how far a glyph may reach back under the one before
VARIED = 1.25  # the widest glyph of a line is at least this many times the narrowest
LEADING = 1.5  # of a line's height: the gap under which two lines are one block


def _lines(glyphs: list[tuple]) -> list[list[tuple]]:
    lines: list[list[tuple]] = []
    for glyph in sorted(glyphs):
        height = glyph[3] - glyph[1]
        for line in lines:
            last, tallest = line[-1], max(box[3] - box[1] for box in line)
            overlap, shorter = min(last[3], glyph[3]) - max(last[1], glyph[1]), min(height, last[3] - last[1])
            if (
                overlap > BAND * shorter
                and shorter >= SIZES * max(height, last[3] - last[1])
                and -KERN * tallest <= glyph[0] - last[2] <= WORD_SPACE * tallest
            ):
                line.append(glyph)
                break
        else:
            lines.append([glyph])
    return [
        line
        for line in lines
        if len(line) >= MIN_GLYPHS and max(b[2] - b[0] for b in line) >= VARIED * min(b[2] - b[0] for b in line)
    ]


def drawn_text(
    shapes: list[tuple[float, float, float, float]], chars: list[tuple[float, float, float, float]]
) -> list[tuple[float, float, float, float]]:
    """The boxes (x0, top, x1, bottom) of the blocks of words drawn as outlines among the filled
    ``shapes`` of a page, none of whose ``chars`` (boxes) stands inside them."""
    glyphs = [
        box
        for box in shapes
        if box[3] - box[1] >= MIN_HEIGHT and NARROWEST <= (box[2] - box[0]) / (box[3] - box[1]) <= WIDEST
    ]
    blocks: list[list[tuple]] = []
    for line in sorted((union(line) for line in _lines(glyphs)), key=lambda box: box[1]):
        block = next(
            (
                block
                for block in blocks
                if line[1] - block[-1][3] < LEADING * (height := max(line[3] - line[1], block[-1][3] - block[-1][1]))
                and line[0] < block[-1][2] + height
                and block[-1][0] < line[2] + height
            ),
            None,
        )
        if block is None:
            blocks.append([line])
        else:
            block.append(line)
    found = [union(block) for block in blocks]
    return [box for box in found if not any(centre_in(char, [box]) for char in chars)]
