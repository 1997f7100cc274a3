"""A table's cells wrapped over lines (``readers.pdf.unruled``): a row that only goes on with the cells of
the row above is those cells' next lines, not a row."""

from __future__ import annotations

import math
import re
from bisect import bisect_left
from statistics import median

from .records import Item
from .unsure import FIGURE

LETTER = re.compile(r"[^\W\d_]")
DIGIT = re.compile(r"\d")
PROSE_CHARS = 25  # characters a line of prose has at least on average: shorter lines in columns are cells
PROSE_WORDS = 4  # words a cell's line of prose has at least: its figures are the prose's ("as of May 11, 2017")


def wrapped_lines(rows: list[list[str]], apart: list[bool]) -> list[list[str]]:
    """``rows`` with the lines of a wrapped cell joined: a row that fills one cell alone, not the
    first, goes on that cell in the row above, and so does one that leaves the first empty and fills
    fewer cells than the row above with words only, each under a cell of words ("Sub-" / "Saharan
    Africa", "Guinea-" / "Bissau" in one row of a ten-column table: ``_wraps``); and a label whose
    second line starts in lower case ("Selling, general and" / "administrative") is one label,
    beside the numbers of either line. A row ``apart`` (standing a padded row's gap under the row above) is a row."""
    joined: list[list[str]] = []
    for row, alone in zip(rows, apart):
        filled = [index for index, cell in enumerate(row) if cell]
        above = joined[-1] if joined and len(row) == len(joined[-1]) and not alone else None
        if above and filled and filled[0] > 0 and _wraps(row, above, filled):
            for index in filled:
                above[index] += f"\n{row[index]}"
        elif (
            above
            and filled[:1] == [0]
            and row[0][:1].islower()
            and above[0]
            and (len(filled) == 1 or not any(above[1:]))
        ):
            above[0] += f" {row[0]}"
            above[1:] = [old or new for old, new in zip(above[1:], row[1:])]
        else:
            joined.append(list(row))
    return joined


def _wraps(row: list[str], above: list[str], filled: list[int]) -> bool:
    """The cells ``filled`` of ``row`` are the wrapped lines of the cells over them in ``above``."""
    if not all(above[index] for index in filled):
        return False
    if len(filled) == 1:
        return True
    count = sum(1 for cell in above if cell)
    # words, no figure among them ("Markets Bull 3X" under a fund's name; not "12 months")
    words = all(LETTER.search(above[index]) and not any(map(FIGURE.fullmatch, row[index].split())) for index in filled)
    return words and len(filled) < count


def in_prose(cell: str) -> bool:
    """The cell's line holds no figure but in prose (``PROSE_WORDS`` words or more) or at a sentence's end
    ("September 29, 2024."; not "39500 Sep 11")."""
    return (
        len(cell.split()) >= PROSE_WORDS or not DIGIT.search(cell) or cell.endswith(".") and bool(LETTER.search(cell))
    )


def under_last_row(line: list[Item], above: list[Item], row: list[Item], gutters: list[tuple[float, float]]) -> bool:
    """``line`` is the next line of a cell of a table's last ``row`` (whose columns ``gutters`` part): its words
    in one column, past the first (the labels'), where the row, labelled with a word, holds a line of prose, a
    line's height under the line ``above`` at most (a description's lines at the foot of a page, under the last
    row of a table of prose; not a form's footer under a field, nor prose beside a scan's specks)."""
    starts = [start for start, _ in gutters]
    columns = {bisect_left(starts, item["x0"]) for item in line}
    (column,) = columns if len(columns) == 1 else {0}
    right = gutters[column][0] if column < len(gutters) else math.inf
    cell = [item for item in row if bisect_left(starts, item["x0"]) == column]
    label = " ".join(item["text"] for item in row if bisect_left(starts, item["x0"]) == 0)
    return (
        column > 0
        and all(item["x1"] <= right + 0.5 for item in line)
        and sum(len(item["text"]) + 1 for item in cell) >= PROSE_CHARS
        and bool(LETTER.search(label))
        and min(item["top"] for item in line) - max(item["bottom"] for item in above)
        <= median(item["bottom"] - item["top"] for item in row)
    )
