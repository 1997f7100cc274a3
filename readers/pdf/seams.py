"""Columns set edge to edge. A spreadsheet's print right-aligns a column of figures against the next column's
left-aligned words, a cell's padding apart: narrower than a word space, where a table's columns are found from
gutters (``readers.pdf.unruled``) and a reader sees "1Underwriting Agreement", "2011A group of teens". The
figures are moved a gutter to the left, so the strip between the columns is one, as the print's cells show.
"""

from __future__ import annotations

from .records import Item
from .unruled import EDGE, item_lines
from .unsure import FIGURE
from .words import SPACE_EMS
from .wraps import ALIGNED_ROWS, LETTER


def _cell(text: str) -> bool:
    """A word that may start a cell of its own after a figure: a word of letters, or a date ("3/4/22")."""
    return bool(LETTER.match(text) or (text[:1].isdigit() and not FIGURE.fullmatch(text)))


def open_seams(items: list[Item], width: float) -> None:
    """Move ``width`` (a gutter) to the left each figure of a seam: in ``ALIGNED_ROWS`` lines or more, a figure
    ending on one edge (``EDGE``), its next word (``_cell``) less than a word space (``SPACE_EMS``) after it,
    those words not all one (a unit after each figure is its cell's: "3 months", "12 months"), and no word of
    the lines from the first to the last crossing the strip between the figures and the words after them. A
    typewriter's columns are a space apart, whole characters: no seam."""
    lines = item_lines([item for item in items if item.get("block") is None])
    pairs = sorted(
        (
            (left, right)
            for line in lines
            for left, right in zip(line, line[1:])
            if FIGURE.fullmatch(left["text"])
            and 0 < right["x0"] - left["x1"] < SPACE_EMS * left.get("size", 0)
            and _cell(right["text"])
        ),
        key=lambda pair: pair[0]["x1"],
    )
    runs: list[list[tuple[Item, Item]]] = []
    for pair in pairs:
        if runs and pair[0]["x1"] - runs[-1][0][0]["x1"] <= EDGE:
            runs[-1].append(pair)
        else:
            runs.append([pair])
    for run in runs:
        if len(run) < ALIGNED_ROWS or len({right["text"] for _, right in run}) < 2:
            continue
        edge, start = max(left["x1"] for left, _ in run), min(right["x0"] for _, right in run)
        top, bottom = min(left["top"] for left, _ in run), max(left["bottom"] for left, _ in run)
        if any(
            item["x0"] < start - 0.5 and item["x1"] > edge + 0.5
            for line in lines
            for item in line
            if top <= item["top"] and item["bottom"] <= bottom
        ):
            continue
        for left, _ in run:
            left["x0"], left["x1"] = left["x0"] - width, left["x1"] - width
