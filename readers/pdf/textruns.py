"""Runs of aligned lines that are no table (``readers.pdf.aligned``): text set in columns, and a table of
contents."""

from __future__ import annotations

import re
from statistics import median

from .records import Item
from .strips import phrases
from .unruled import item_lines, line_chars
from .unsure import FIGURE
from .words import phrase_text
from .wraps import ALIGNED_ROWS, PROSE_CHARS

PAGE_NUMBER = re.compile(r"\d{1,4}|[ivxlcdm]{1,7}|\d{1,3}[-–]\d{1,4}", re.I)  # "12", "xiv", "1-3"
TEXT_COLUMN = 1.6  # one column of lines this much longer than prose's shortest is text beside a narrow column
TABLE_COLUMNS = 4  # short columns, at least, after short labels: a table whatever the long ones beside them hold


def is_text(rows: list[list[Item]], gutters: list[tuple[float, float]]) -> bool:
    """The run is text set in columns: every column's lines are prose, or one column's are long beside
    others not of figures (a cost table's long descriptions beside its amounts are a table's, and so are a film's
    plot beside its title and its year, and, after short labels, long cells among ``TABLE_COLUMNS`` short columns or
    more: funds' names among eight columns of codes, tickers and dates). The lines above the first that holds
    figures in two columns are a header's, when there is one: long headings over figures are no text."""
    cells: list[list[tuple[int, bool, bool] | None]] = []  # each line's cells: its length, has a figure, is one
    for row in rows:
        for line in item_lines(row):
            cells.append([])
            for index in range(len(gutters) + 1):
                left = gutters[index - 1][1] if index else float("-inf")
                right = gutters[index][0] if index < len(gutters) else float("inf")
                cell = [item for item in line if left - 0.5 <= item["x0"] and item["x1"] <= right + 0.5]
                figure = any(char.isdigit() for item in cell for char in item["text"])
                cells[-1].append(
                    (line_chars(cell), figure, bool(FIGURE.fullmatch(phrase_text(cell)))) if cell else None
                )
    body = next((index for index, line in enumerate(cells) if sum(bool(cell and cell[1]) for cell in line) > 1), 0)
    lengths, figures, plain = (
        [[entry[part] for line in cells[body:] if (entry := line[index])] for index in range(len(gutters) + 1)]
        for part in range(3)
    )
    middles = [median(found) if found else 0 for found in lengths]
    long = [middle >= TEXT_COLUMN * PROSE_CHARS for middle in middles]
    of_figure = all(2 * sum(found) >= len(found) for found, wide in zip(figures, long) if not wide)
    # (or, the last column, beside one of words and one whose every line is a figure but its heading's: a film's
    # title, its year and its plot; a form's line numbers stand on both sides of its long lines)
    year = any(len(found) > ALIGNED_ROWS and all(found[1:]) for found in plain)
    beside_figures = of_figure or len(gutters) > 1 and long[-1] and sum(long) == 1 and year
    many = sum(1 for middle, wide in zip(middles, long) if middle and not wide) >= TABLE_COLUMNS and not long[0]
    return all(middle >= PROSE_CHARS for middle in middles if middle) or (any(long) and not beside_figures and not many)


def is_contents(rows: list[list[Item]], drawing: list[Item], width: float) -> bool:
    """The run is a table of contents: every row ends in a page number, most after a leader's dots."""
    leadered = sum(
        any(dots["top"] < row[-1]["bottom"] and row[0]["top"] < dots["bottom"] for dots in drawing) for row in rows
    )
    return 2 * leadered >= len(rows) and all(
        PAGE_NUMBER.fullmatch(phrase_text(phrases(row, width)[-1])) for row in rows
    )
