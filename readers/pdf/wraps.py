"""A table's cells wrapped over lines (``readers.pdf.unruled``): a line that only goes on with the cells of the row
above is those cells' next lines, not a row. Where the lines' boxes are known, their pitch says so
(``stacked_lines``: closer than rows stand; a header's line a padded row's gap under the one above is a row of its
own); where only the cells' text is left, what they hold does (``wrapped_lines``)."""

from __future__ import annotations

import re
from statistics import median

from .records import Item
from .unsure import CURRENCY, FIGURE, of_figures

LETTER = re.compile(r"[^\W\d_]")
DIGIT = re.compile(r"\d")
ALIGNED_ROWS = 3  # rows a table without rules has at least
STACKED = 0.6  # of the gap between a table's rows: a line closer under a cell is its next line
PADDED = 0.5  # of a line's height: a header's line standing this far under the one above is no cell's next line
UNITS = re.compile(r"\((?:[$€£] )?in [^()]+\)", re.I)  # a note of the figures' units: "(in thousands)"
PROSE_CHARS = 25  # characters a line of prose has at least on average: shorter lines in columns are cells
CENTRED = 1.0  # points: a line's middle this close to the table's is centred over it
DATED = re.compile(r"(?:\d{1,2}, ?)?\d{4}")  # a date's day and year, or its year: "29,2025", "31, 2024", "2013"
MONTHS = set("January February March April May June July August September October November December".split())
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


def stacked_lines(cells: list[list[str]], lines: list[list[Item]]) -> tuple[list[list[str]], list[bool]]:
    """``cells`` (one row a line of ``lines``) with a cell's lines joined where the lines' own pitch shows them one
    cell's: a line closer under the one above than ``STACKED`` times the gap between rows, each of its cells
    under a cell of the row above, is those cells' next line. In the header (the first row, above the first row
    of two cells of figures or more that has a label, a date under its month has none, and any line of figures
    not at the header's pitch) the gap between rows is the one over that row, and the line may hold anything
    short of prose (Word breaks a word too long for its column: "ISO-alpha" / "3"); under it, the gap is the
    usual one over rows that fill their first cell, and the line leaves the first cell empty ("+1-539-402-" /
    "0259") or fills it alone with words ("District of" / "Columbia"; a year after a comma: "September 28," /
    "2024"; not a heading ending in a colon under a row of figures: ``_goes_on``), filling fewer than the row above:
    a form's lines, each a row of its own, fill as many. A note of the figures' units in the header, and a title
    centred over the table under its first row (``_titled``, set in the first cell), are rows of their own.

    Returns the rows, and for each whether it stands apart from the one above (a header's line ``PADDED`` under
    it, a units note, a title): a row of its own, never a cell's next line ("(in thousands)" under "June 30,
    2025")."""
    figures = [index for index, row in enumerate(cells) if of_figures(row)]
    body = next((index for index in figures if cells[index][0]), figures[0] if figures else 0)
    over = [0.0] + [line[0]["top"] - max(item["bottom"] for item in above) for above, line in zip(lines, lines[1:])]
    end = next(  # a line of figures not at the header's pitch is a row's: records of two lines each start there
        (
            index
            for index in range(1, body)
            if over[index] >= STACKED * over[body] and any(map(FIGURE.fullmatch, cells[index]))
        ),
        body,
    )
    rows = [over[index] for index in range(end + 1, len(cells)) if cells[index][0] and any(cells[index][1:])]
    height = median(item["bottom"] - item["top"] for line in lines for item in line)
    joined, apart = cells[:1], [False]
    middle = (min(line[0]["x0"] for line in lines) + max(line[-1]["x1"] for line in lines)) / 2
    for index, row in enumerate(cells[1:], 1):
        above, header = joined[-1], index < end and len(joined) == 1
        pitch = over[body] if header else median(rows) if rows else 0.0
        filled = [column for column, cell in enumerate(row) if cell]
        noted = header and any(map(UNITS.fullmatch, row))  # "(in thousands)" under the headings: a row of its own
        titled = index > end and len(filled) == 1 and _titled(lines[index], lines[index - 1], middle)
        row = [row[filled[0]], *[""] * (len(row) - 1)] if titled else row  # spanning the table from its first cell
        if (
            not noted
            and not titled
            and over[index] < STACKED * pitch
            and all(above[column] for column in filled)
            and (
                all(len(cell) < PROSE_CHARS for cell in row)
                if header
                else (not row[0] or filled == [0] and _goes_on(row[0], above))
                and len(filled) < sum(map(bool, above))
                or any(above[column] in CURRENCY and FIGURE.fullmatch(row[column]) for column in filled)
                or filled == [0] == [column for column, cell in enumerate(above) if cell]
                and above[0][-1] not in ".:"
                # the next lines of a label and its text, closer than rows usually stand (three gaps at least), no
                # figure but in prose or a sentence's end ("as of September 29, 2024.", "2024."; not "39500 Sep 11"),
                # or a date's year under its day ("May 31," / "2013"), its day and year under its month ("March" /
                # "29,2025")
                or len(filled) > 1
                and len(rows) >= ALIGNED_ROWS
                and all(
                    in_prose(cell) or above[n].endswith(",") and FIGURE.fullmatch(cell) or dated(above[n], cell)
                    for n, cell in enumerate(row)
                )
            )
        ):
            joined[-1] = [f"{old}\n{new}".strip() for old, new in zip(above, row)]
        else:
            joined.append(row)
            apart.append(noted or titled or index < end and over[index] >= PADDED * height)
    return joined, apart


def dated(above: str | None, cell: str | None) -> bool:
    """Whether ``cell`` is the rest of the date the heading ``above`` it starts: "March" / "29,2025", "May 31," /
    "2013"."""
    return bool(above and cell and DATED.fullmatch(cell) and (above.endswith(",") or above.split()[-1] in MONTHS))


def dates_ended(above: list[str] | list[str | None], row: list[str] | list[str | None]) -> bool:
    """Whether each cell ``row`` fills ends the date begun in the cell above it (``dated``)."""
    return any(row) and all(dated(above[column], cell) for column, cell in enumerate(row) if cell)


def _titled(line: list[Item], above: list[Item], middle: float) -> bool:
    """``line`` is a section's title centred over the table (``middle``), not the next line of a cell: the words
    over it are not centred there too, and none starts where it does ("Part II" under "Item 4.  Controls and
    Procedures  18"; not "Ælfthryth" under "Wulfthryth", centred by chance)."""
    over = [item for item in above if item["x0"] < line[-1]["x1"] and line[0]["x0"] < item["x1"]]
    return (
        abs((line[0]["x0"] + line[-1]["x1"]) / 2 - middle) <= CENTRED
        and not (over and abs((over[0]["x0"] + over[-1]["x1"]) / 2 - middle) <= CENTRED)
        and all(abs(item["x0"] - line[0]["x0"]) > CENTRED for item in above)
    )


def _goes_on(label: str, above: list[str]) -> bool:
    """A line filling the first cell alone may be the next line of the label in ``above``: words ("District of" /
    "Columbia"), or a year after a comma; not a heading of the rows under it when ``above`` holds figures
    ("Foreign exchange contracts  $ 310,320" / "Derivatives not designated as hedging instruments:")."""
    if FIGURE.fullmatch(label):
        return above[0].endswith(",")
    return not (label.endswith(":") and any(above[1:]))


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
