"""A table's column headings: a header wrapped over lines joined per column, the columns a heading spans,
headings centred over groups of columns (a group's name over its units), a column set in two halves
under one heading, and headings set left over columns parted under them."""

from __future__ import annotations

import math
import re

from .records import Item
from .unsure import FIGURE, of_figures
from .words import Row
from .wraps import ALIGNED_ROWS, dates_ended

EDGE = 0.6  # points: a column starting this close to a heading's left edge stands under it
NOTE_MARK = re.compile(r"\(\d\)")  # a note's mark after a heading: "(1)"
LETTERS = re.compile(r"[^\W\d_]{2}")
RUNS_ON = re.compile(r"[^\W\d_][-\u2010]$")  # a heading's line that ends in a hyphen after a letter: "Sub-"
NEARER = 0.5  # of its distance to the farther side: a heading in a gutter nearer one column than this is off its middle
APART = 1.0  # points: a heading set this close to a gutter's edge leaves it no strip of its own
GROUP_CENTRED = 0.05  # of a group's width: a heading centred over it stands this close to its middle, or a gutter


def _runs_on(above: str | None, cell: str | None) -> bool:
    """Whether ``cell`` is the next line of the heading ``above`` it: "Sub-" / "region"."""
    return bool(above and cell and RUNS_ON.search(above) and cell[:1].isalpha())


def _figures(cell: str) -> list[str]:
    """The words of a cell that may be figures: not a note's mark after words ("the Plans or Programs (1)")."""
    words = cell.split()
    return words[:-1] if len(words) > 1 and NOTE_MARK.fullmatch(words[-1]) and LETTERS.search(cell) else words


def wrapped_header(rows: list[Row]) -> list[Row]:
    """``rows`` with a header wrapped over lines joined per column (a cell's lines by a line break):
    at the top, before any figure ("M49" is none, nor a note's mark after words: ``_figures``), a row whose
    cells all stand under cells of the row above goes into them when it leaves its first cell empty ("to air"
    over "kg/year" in each column) or one of its cells runs on from the heading above it ("Region" / "Code"
    beside "Sub-" / "region"); and so does a row whose every cell ends the date begun above it ("March" /
    "29,2025")."""
    joined = [list(rows[0])]
    for index, row in enumerate(rows[1:], 1):
        above = joined[-1]
        words = (word for earlier in rows[: index + 1] for cell in earlier for word in _figures(cell or ""))
        if dates_ended(above, row) or (
            not any(map(FIGURE.fullmatch, words))
            and (not row[0] or any(_runs_on(old, new) for old, new in zip(above, row)))
            and any(row)
            and all(above[column] for column, cell in enumerate(row) if cell)
        ):
            joined[-1] = [f"{old or ''}\n{new or ''}".strip() for old, new in zip(above, row)]
        else:
            joined.append(list(row))
    return joined


def spanned(
    phrase: list[Item], extents: list[tuple[float, float]], gutters: list[tuple[float, float]], heading: bool = False
) -> list[int]:
    """The columns a phrase spans: those its words overlap, and both sides of a gutter its middle stands in; or else
    the column between the gutters its middle stands in (a heading over a column left empty under it, "2021"
    over a year with no figures). A ``heading`` in a line of headings (not one over a group of columns), set in
    its cell over figures set right, heads one column: one that starts in the gutter before a column and ends
    within it (``APART`` at most past its figures' end) heads it alone, and one that overlaps none and stands off
    the gutter's middle (``NEARER``) heads the column after the gutter."""
    x0, x1 = phrase[0]["x0"], phrase[-1]["x1"]
    middle = (x0 + x1) / 2
    columns = {index for index, (left, right) in enumerate(extents) if x0 < right and left < x1}
    if heading and len(columns) == 1 and x0 < extents[min(columns)][0] and x1 <= extents[min(columns)][1] + APART:
        return sorted(columns)
    for index, (start, end) in enumerate(gutters):
        if start <= middle <= end:
            before, after = x0 - extents[index][1], extents[index + 1][0] - x1
            off = heading and not columns and min(before, after) < NEARER * max(before, after)
            columns |= {index + 1} if off else {index, index + 1}
    return sorted(columns) or [sum(end <= middle for _, end in gutters)]


def grouped(
    line: list[list[Item]], extents: list[tuple[float, float]], gutters: list[tuple[float, float]], width: float
) -> list[list[int]] | None:
    """The columns each heading of a line over the header row spans when the headings are centred over groups
    of columns ("Total area" over Rank, sq mi and km²): each over the run of columns whose words' middle is its
    own, the runs apart and covering as many columns as they can; None when no such runs centre every heading."""
    own = [spanned(phrase, extents, gutters) for phrase in line]
    middles = [(phrase[0]["x0"] + phrase[-1]["x1"]) / 2 for phrase in line]
    filled = [index for index, (left, right) in enumerate(extents) if left < right]
    if not filled:
        return None
    choices = []
    for index, (covered, middle) in enumerate(zip(own, middles)):
        low = own[index - 1][-1] + 1 if index else min(filled[1:] or filled)
        high = own[index + 1][0] - 1 if index + 1 < len(own) else filled[-1]
        low = min(low, covered[0])
        runs = [
            (first, last)
            for first in range(low, covered[0] + 1)
            for last in range(covered[-1], high + 1)
            if extents[first][0] < extents[first][1]
            and extents[last][0] < extents[last][1]
            and abs((extents[first][0] + extents[last][1]) / 2 - middle)
            <= max(width, GROUP_CENTRED * (extents[last][1] - extents[first][0]))
        ]
        if not runs:
            return None
        choices.append(runs)
    best: dict[int, tuple[int, list[tuple[int, int]]]] = {-1: (0, [])}  # by the last column taken: most covered
    for runs in choices:
        step: dict[int, tuple[int, list[tuple[int, int]]]] = {}
        for end, (count, taken) in best.items():
            for first, last in runs:
                if first > end and count + last - first + 1 > step.get(last, (-1, []))[0]:
                    step[last] = (count + last - first + 1, [*taken, (first, last)])
        best = step
    return [list(range(first, last + 1)) for first, last in max(best.values())[1]] if best else None


def set_apart(
    headings: list[list[Item]], gutters: list[tuple[float, float]], right: float
) -> list[tuple[float, float]] | None:
    """The gutters of a table whose header row's ``headings`` (its phrases, left to right) stand in its body's
    ``gutters`` (the body ending at ``right``), as a spreadsheet prints headings set left in their cells over
    figures set right: a heading that starts in a gutter ("sq mi" just after the "5" of the column before,
    short of "301,368.57") belongs to the column after it, and one that ends in a gutter to the column before it;
    a heading before another in the same gutter, or past the body's end, is a column of its own, empty in
    the body ("% land"). None when a heading crosses a gutter whole (a group's name over its columns), leaves a
    gutter no strip, or the header has fewer headings than the body has gutters."""
    if len(headings) < len(gutters):
        return None
    found: list[tuple[float, float]] = []
    for start, end in [*gutters, (right, math.inf)]:
        edge, starting, strips = start, False, list[tuple[float, float]]()
        for x0, x1 in ((phrase[0]["x0"], phrase[-1]["x1"]) for phrase in headings):
            if x0 <= start and end <= x1:
                return None
            if start < x1 and x0 < end:
                strips += [(edge, x0)] if x0 - edge >= APART else []
                edge, starting = max(edge, x1), x0 > start
        strips += [(edge, end)] if not starting and end - edge >= APART and end < math.inf else []
        if not strips and end < math.inf:
            return None
        found += strips
    return found


def halves_joined(rows: list[list[str]]) -> list[list[str]]:
    """``rows`` with each column that the header's last row leaves without a heading (the header: the rows at
    the top of two cells or more, no row of figures) and whose cells stand only in body rows its left
    neighbour leaves empty, both columns holding some, joined to that neighbour: one column set in two
    halves, its figures set right and those with a footnote mark set left ("13.1" and "6.9ab" under
    "Seroprevalence (%)"), no row's words on both sides of the gutter between them. A table without such a
    header joins a column of figures alone to a neighbour of words so: an infobox's values, set left, and
    its bare figures set right ("4,699,755" under "4,933,210 (120th)")."""
    header = next((index for index, row in enumerate(rows) if of_figures(row) or sum(map(bool, row)) < 2), 0)
    column = 1
    while column < len(rows[0]):
        body, left = rows[header:], column - 1
        filled = all(any(row[index] for row in body) for index in (left, column))
        words = any(row[left] and not FIGURE.fullmatch(row[left]) for row in body)
        unheaded = (
            not rows[header - 1][column]
            if header
            else words and all(FIGURE.fullmatch(row[column]) for row in body if row[column])
        )
        if filled and unheaded and not any(row[left] and row[column] for row in body):
            rows = [[*row[:left], " ".join(filter(None, row[left : column + 1])), *row[column + 1 :]] for row in rows]
        else:
            column += 1
    return rows


def parted_under(
    headings: list[tuple[float, str]], extents: list[tuple[float, float]], rows: list[list[str]]
) -> list[list[str]] | None:
    """``rows`` under ``headings`` (each its left edge and text, fewer than the columns, set left in their cells)
    with the columns under each heading, from its left edge to the next one's, joined: a cell's words set left
    and its figures set right part one column in two where no row fills both ("N/mm 2" and "890" under "Yield
    point or Proof"); the headings' wrapped lines joined to them (``wrapped_header``). None unless each heading
    stands over a column, the first over the first, and no row fills two columns under one heading."""
    lefts = [left for left, _ in headings]
    if not 2 <= len(headings) < len(extents) or any(len(row) != len(extents) for row in rows):
        return None
    if extents[0][0] < lefts[0] - EDGE:
        return None
    under = [sum(left - EDGE <= start for left in lefts[1:]) for start, _ in extents]
    for index, (start, _) in enumerate(extents):
        if math.isinf(start):  # an empty column goes with the one before it
            under[index] = under[index - 1] if index else 0
    if sorted(set(under)) != list(range(len(headings))) or under != sorted(under):
        return None
    groups = [[index for index, group in enumerate(under) if group == heading] for heading in range(len(headings))]
    if any(sum(bool(row[index]) for index in group) > 1 for row in rows for group in groups):
        return None
    cells = [[" ".join(filter(None, (row[index] for index in group))) for group in groups] for row in rows]
    return wrapped_header([[text for _, text in headings], *cells])


def header_wrapped(rows: list[list[str]], apart: list[bool]) -> tuple[list[list[str]], list[bool]]:
    """``rows`` with a header wrapped over lines joined per column (``wrapped_header``), never over a row standing
    ``apart`` (a padded row's gap under the one above), and which of the rows left stand apart."""
    runs: list[list[list[str]]] = []
    for row, alone in zip(rows, apart):
        if alone or not runs:
            runs.append([])
        runs[-1].append(row)
    joined = [wrapped_header(run) for run in runs]
    return sum(joined, []), [bool(n) and not index for n, run in enumerate(joined) for index, _ in enumerate(run)]


def headed_figures(rows: list[list[str]]) -> list[list[str]]:
    """``rows`` with a heading over no cells of its own put over the column of figures beside it that
    has no heading: a heading set left in a cell whose figures are set right stands clear of them
    ("Intermediate Region Code" over "014" in a spreadsheet's print; a form's words stay apart)."""
    column = 0
    while len(rows) >= ALIGNED_ROWS and column + 1 < len(rows[0]):
        head, pair = rows[0], (column, column + 1)
        filled = [any(row[index] for row in rows[1:]) for index in pair]
        figures = all(FIGURE.fullmatch(row[index]) for row in rows[1:] for index in pair if row[index])
        if (
            figures
            and filled.count(True) == 1
            and [bool(head[index]) for index in pair] == [not full for full in filled]
        ):
            rows = [[*row[:column], (row[column] or row[column + 1]), *row[column + 2 :]] for row in rows]
        column += 1
    return rows
