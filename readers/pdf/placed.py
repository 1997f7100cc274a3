"""Where a PDF page's blocks stand. The layout places each line of the page as it renders it
(``readers.pdf.layout.page_markdown``): its Markdown and its box, a table or a figure's block whole.
A block of the page's final text (its furniture taken out, its headings levelled with the other
pages', a word broken at a line's end joined, a table continued from the page before joined to it)
takes the boxes of the lines it is made of. A chart rebuilt from a drawing, which the page's Markdown
parts into its heading, table and notes, is one chart block again.

Lines and blocks are compared by their letters and digits alone (``readers.render.placement.letters``):
what the pages' comparison changes (a heading's marks, a hyphen at a line's end, a furniture mark)
is neither. The page's lines are read as one run of letters; a block is found in it from where the
block before it ended (or from the start: a table read after the text), made of whole lines where it
can be, and inside a line only when it has ``FEWEST_LETTERS`` (a "0" stands in a table's every other
figure). A block not found whole (a table with rows from another page) takes the lines of its own
lines that are found, each of at least ``FEWEST_LETTERS``; a block none of whose lines is found has no box.
"""

from __future__ import annotations

from dataclasses import replace

from ..markup.blocks import Block, BlockKind, Box, layout
from ..render.placement import letters

# a line's Markdown, its box ((left, top, right, bottom) as fractions of the page) and whether it is a chart rebuilt
Placed = tuple[str, Box, bool]
FEWEST_LETTERS = 4  # a line of a block found apart: fewer ("12", "Yes") stand in too many places on a page
CHART_PARTS = 4  # the blocks a chart's Markdown parts into: its heading, table, value axis and how its values were had


def placed_blocks(blocks: list[Block], placed: list[Placed]) -> list[Block]:
    """``blocks`` with the box of the ``placed`` lines each is made of (None where none is found), the
    blocks of a chart the layout rebuilt made one chart block again (``_charts``)."""
    blocks = _charts(blocks, {letters(text) for text, _, chart in placed if chart})
    run = ""
    spans: list[tuple[int, int, Box]] = []
    for text, box, _ in placed:
        found = letters(text)
        if found:
            spans.append((len(run), len(run) + len(found), box))
            run += found
    cursor = 0
    starts, ends = {start for start, _, _ in spans}, {end for _, end, _ in spans}

    def find(part: str, whole_lines: bool = False) -> tuple[int, int] | None:
        for origin in (cursor, 0):
            at = run.find(part, origin)
            while at >= 0 and whole_lines and not (at in starts and at + len(part) in ends):
                at = run.find(part, at + 1)
            if at >= 0:
                return at, at + len(part)
        return None

    result = []
    for block in blocks:
        whole = letters(block.text)
        ranges: list[tuple[int, int]] = []
        if whole:
            at = find(whole, True) or (find(whole) if len(whole) >= FEWEST_LETTERS else None)
            lines = [part for line in block.text.splitlines() if len(part := letters(line)) >= FEWEST_LETTERS]
            ranges = [at] if at else [span for part in lines if (span := find(part))]
        boxes = [box for start, end, box in spans if any(start < stop and begin < end for begin, stop in ranges)]
        if boxes:
            cursor = max(stop for _, stop in ranges)
            result.append(replace(block, box=_clipped(boxes)))
        else:
            result.append(block)
    return result


def _charts(blocks: list[Block], charts: set[str]) -> list[Block]:
    """``blocks`` with each run of them that is a chart (its letters one of ``charts``', a table among
    them) one chart block, its text theirs and its rows its table's."""
    if not charts:
        return blocks
    found: list[Block] = []
    start = 0
    while start < len(blocks):
        for end in range(start + 2, min(len(blocks), start + CHART_PARTS) + 1):
            run = blocks[start:end]
            table = next((block for block in run if block.kind == BlockKind.TABLE), None)
            if table and letters("".join(block.text for block in run)) in charts:
                found.append(Block(BlockKind.CHART, layout(run)[0], rows=table.rows, apart=run[0].apart))
                start = end
                break
        else:
            found.append(blocks[start])
            start += 1
    return found


def _clipped(boxes: list[Box]) -> Box:
    """The smallest box round ``boxes``, within the page, to 4 places as a figure's (a tenth of a point on a
    page a metre long)."""
    return (
        round(max(0.0, min(box[0] for box in boxes)), 4),
        round(max(0.0, min(box[1] for box in boxes)), 4),
        round(min(1.0, max(box[2] for box in boxes)), 4),
        round(min(1.0, max(box[3] for box in boxes)), 4),
    )
