"""Columns set edge to edge. A spreadsheet's print right-aligns a column of figures against the next column's
left-aligned words, a cell's padding apart: narrower than a word space, where a table's columns are found from
gutters (``readers.pdf.unruled``) and a reader sees "1Underwriting Agreement", "2011A group of teens". The
figures are moved a gutter to the left, so the strip between the columns is one, as the print's cells show.
Its left-aligned columns stand as close to the cells before them, wherever those end ("… of the Registrant filed
8-K", "Cell 2 Cell 3"): the words that start such a column give up the rest of a gutter from their left. So do an
amount's currency sign and a dash that stands for no amount, closer than a word space after a figure ("$ 160,544
$ (1,709,112)", "(18,099) —"): neither ends the figure before it.
"""

from __future__ import annotations

from collections.abc import Callable
from statistics import median

from .records import Item
from .strips import EDGE
from .unruled import item_lines
from .unsure import CURRENCY, FIGURE
from .words import SPACE_EMS
from .wraps import ALIGNED_ROWS, LETTER

Pair = tuple[Item, Item]  # a word and the next on its line
DASHES = ("—", "–")  # a dash alone in a cell: no amount


def _cell(text: str) -> bool:
    """A word that may start a cell of its own after a figure: a word of letters, or a date ("3/4/22")."""
    return bool(LETTER.match(text) or (text[:1].isdigit() and not FIGURE.fullmatch(text)))


def _aligned(pairs: list[Pair], at: Callable[[Pair], float]) -> list[list[Pair]]:
    """The runs of ``pairs`` (a word and the next) standing ``at`` one edge (``EDGE``), in ``ALIGNED_ROWS`` lines
    or more, the words after the edge not all one (a unit after each figure is its cell's: "3 months")."""
    runs: list[list[Pair]] = []
    for pair in sorted(pairs, key=at):
        if runs and at(pair) - at(runs[-1][0]) <= EDGE:
            runs[-1].append(pair)
        else:
            runs.append([pair])
    return [run for run in runs if len(run) >= ALIGNED_ROWS and len({right["text"] for _, right in run}) > 1]


def _spanned(lines: list[list[Item]], run: list[Pair]) -> list[Item]:
    """The words of the lines from the ``run``'s first to its last."""
    top, bottom = min(left["top"] for left, _ in run), max(left["bottom"] for left, _ in run)
    return [item for line in lines for item in line if top <= item["top"] and item["bottom"] <= bottom]


def _crossed(lines: list[list[Item]], run: list[Pair], start: float, end: float) -> bool:
    """A word of the lines from the ``run``'s first to its last starts before ``start`` and ends after ``end``."""
    return any(item["x0"] < start - 0.5 and item["x1"] > end + 0.5 for item in _spanned(lines, run))


def _wide(line: list[Item], left: Item, right: Item, width: float) -> bool:
    """The gap between ``left`` and ``right`` is a gutter, or wider than one and a half word spaces (``SPACE_EMS``)
    and twice the line's other gaps narrower than a gutter (a typewriter's spaces are all one)."""
    gap = right["x0"] - left["x1"]
    others = [b["x0"] - a["x1"] for a, b in zip(line, line[1:]) if a is not left and 0 < b["x0"] - a["x1"] < width]
    return gap >= width or gap > 1.5 * SPACE_EMS * left.get("size", 0) and (not others or gap > 2 * median(others))


def _open_starts(lines: list[list[Item]], width: float) -> None:
    """Shift right, a gutter's width from the words before them, the words that start a left-aligned column set
    close after other cells: in ``ALIGNED_ROWS`` lines or more, words not all one that may start a cell
    (``_cell``) start on one edge (``EDGE``) a wide gap (``_wide``) after the word before it, one of them less
    than a gutter (that word ending a phrase of two words or more, not a list's number or bullet, nor a form's
    line number or letter), and no word of the lines from the first to the last crosses that edge; every word
    starting on the edge moves (the column's heading too), each within its own box, a gutter from the word of
    the cells before it that ends nearest to it (a cell's wrapped line may end closer than its first)."""
    pairs = [
        (left, right)
        for line in lines
        for before, left, right in zip(line, line[1:], line[2:])
        if _cell(right["text"]) and left["x0"] - before["x1"] < width and _wide(line, left, right, width)
    ]
    for run in _aligned(pairs, lambda pair: pair[1]["x0"]):
        start = min(right["x0"] for _, right in run)
        if _crossed(lines, run, start, start):
            continue
        reach = max(left["x1"] for left, _ in run)  # the cells before the edge: their words start left of it
        shift = width - start + max(item["x1"] for item in _spanned(lines, run) if item["x0"] < reach)
        if shift <= 0:  # the column stands a gutter apart already
            continue
        for item in (item for line in lines for item in line if abs(item["x0"] - start) <= EDGE):
            item["x0"] = min(item["x0"] + shift, item["x1"] - 0.1)


def _open_signs(lines: list[list[Item]], width: float) -> None:
    """Shift right, a gutter's width from the figure before them, a currency sign with the amount after it, or a
    dash alone (the next word a gutter away, or none), set closer than a word space after a figure: the next
    column's cell, in a line of its own too (a sheet's columns of amounts set edge to edge), if the shift leaves
    a gutter before the line's next word."""
    for line in lines:
        for n, (left, right) in enumerate(zip(line, line[1:]), 1):
            gap = right["x0"] - left["x1"]
            if not 0 <= gap < SPACE_EMS * left.get("size", 0) or not FIGURE.fullmatch(left["text"]):
                continue
            after = line[n + 1 : n + 2]
            sign = right["text"] in CURRENCY and after and FIGURE.fullmatch(after[0]["text"])
            lone = right["text"] in DASHES and (not after or after[0]["x0"] - right["x1"] >= width)
            moved = line[n : n + 2] if sign else [right] if lone else []
            rest = line[n + len(moved) : n + len(moved) + 1]
            shift = width - gap + EDGE  # (a gutter's width and a little: no rounding narrows it)
            if moved and (not rest or rest[0]["x0"] - moved[-1]["x1"] - shift >= width):
                for item in moved:
                    item["x0"], item["x1"] = item["x0"] + shift, item["x1"] + shift


def open_seams(items: list[Item], width: float) -> None:
    """Move ``width`` (a gutter) to the left each figure of a seam: in ``ALIGNED_ROWS`` lines or more, a figure
    ending on one edge (``EDGE``), its next word (``_cell``) less than a word space (``SPACE_EMS``) after it,
    those words not all one (a unit after each figure is its cell's: "3 months", "12 months"), and no word of
    the lines from the first to the last crossing the strip between the figures and the words after them. A
    typewriter's columns are a space apart, whole characters: no seam. Then the left-aligned columns set close
    (``_open_starts``), and the amounts and dashes set close after a figure (``_open_signs``)."""
    lines = item_lines([item for item in items if item.get("block") is None])
    pairs = [
        (left, right)
        for line in lines
        for left, right in zip(line, line[1:])
        if FIGURE.fullmatch(left["text"])
        and 0 < right["x0"] - left["x1"] < SPACE_EMS * left.get("size", 0)
        and _cell(right["text"])
    ]
    for run in _aligned(pairs, lambda pair: pair[0]["x1"]):
        if _crossed(lines, run, min(right["x0"] for _, right in run), max(left["x1"] for left, _ in run)):
            continue
        for left, _ in run:
            left["x0"], left["x1"] = left["x0"] - width, left["x1"] - width
    _open_starts(lines, width)
    _open_signs(lines, width)
