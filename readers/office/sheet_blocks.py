"""A sheet's cells as blocks: runs of rows between empty rows, parted where tables stand side by side, each
a table (after its title) or lines of text; and where each stands among the sheet's cells, for its box on
the sheet's page (``readers.office.sheet_figures.sheet_places``)."""

from __future__ import annotations

from dataclasses import dataclass

from ..markup.blocks import Block, BlockKind
from ..markup.tables import table_block

SIDE_GAP = 2  # empty columns that part two tables side by side (one is a spacer within a table)

Cells = tuple[int, int, int, int]  # first column, first row, last column, last row: 0-based in the grid


@dataclass
class _Run:
    """Rows of the grid, cut to some of its columns: ``top`` and ``left`` are where they start in it."""

    rows: list[list[str]]
    top: int
    left: int


def _runs(grid: list[list[str]], top: int = 0, left: int = 0) -> list[_Run]:
    """Runs of rows between empty rows, each trimmed to its own used columns and parted where
    tables stand side by side (``_side_by_side``)."""
    runs: list = []
    current: list = []
    start = 0
    for index, row in enumerate(grid + [[]]):
        if any(row):
            start = index if not current else start
            current.append(row)
        elif current:
            runs += _side_by_side(_Run(current, top + start, left))
            current = []
    return runs


def _side_by_side(run: _Run) -> list[_Run]:
    """A run of rows as its tables: one, trimmed to its used columns, or, where tables stand side by
    side, each side read again as a sheet of its own (left to right). ``SIDE_GAP`` or more empty
    columns part two sides; one empty column parts them only when they hold different rows (a table
    below and beside another, touching it at a corner), for within a table it is a spacer."""
    rows = run.rows
    used = [i for i in range(max(len(row) for row in rows)) if any(i < len(row) and row[i] for row in rows)]
    spans = [[used[0], used[0]]]  # columns with no empty column between them
    for column in used[1:]:
        if column == spans[-1][1] + 1:
            spans[-1][1] = column
        else:
            spans.append([column, column])

    def rows_of(first: int, last: int) -> set[int]:
        return {n for n, row in enumerate(rows) if any(row[first : last + 1])}

    sides = spans[:1]
    for first, last in spans[1:]:
        if first - sides[-1][1] - 1 < SIDE_GAP and _share_rows(rows_of(*sides[-1]), rows_of(first, last)):
            sides[-1][1] = last
        else:
            sides.append([first, last])
    parts = [
        _Run(
            [[row[i] if i < len(row) else "" for i in range(first, last + 1)] for row in rows],
            run.top,
            run.left + first,
        )
        for first, last in sides
    ]
    return parts if len(parts) == 1 else [found for part in parts for found in _runs(part.rows, part.top, part.left)]


def _share_rows(left: set[int], right: set[int]) -> bool:
    """Whether two sides one empty column apart are one table: at least half the rows of the one
    with fewer rows have cells on the other side too."""
    return 2 * len(left & right) >= min(len(left), len(right))


def _run_blocks(run: _Run) -> list[tuple[Block, Cells]]:
    """The blocks of a run of rows and their cells: a table, after its title when its first row has one value
    over a wider table (alone, or merged across it); a run of a single value, or wider than a column with one
    value a row (labels set diagonally), is a line of text a row."""
    block, right = run.rows, run.left + len(run.rows[0]) - 1
    values = [list(dict.fromkeys(filter(None, row))) for row in block]
    if all(len(row) == 1 for row in values) and (len(block) == 1 or len(block[0]) > 1):
        return [
            (Block(BlockKind.PARAGRAPH, row[0]), (run.left, run.top + n, right, run.top + n))
            for n, row in enumerate(values)
        ]
    titled = len(block[0]) > 1 and len(values[0]) == 1
    found = [(Block(BlockKind.PARAGRAPH, values[0][0]), (run.left, run.top, right, run.top))] if titled else []
    table = table_block(block[1:] if titled else block)
    bottom = run.top + len(block) - 1
    return found + ([(table, (run.left, run.top + titled, right, bottom))] if table else [])


def grid_blocks(grid: list[list[str]]) -> list[tuple[Block, Cells]]:
    """The blocks of a sheet's grid of cell texts, in reading order, each with the cells it covers."""
    return [found for run in _runs(grid) for found in _run_blocks(run)]
