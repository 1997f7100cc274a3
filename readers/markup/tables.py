"""Tables as Markdown, the one way every reader writes them."""

from __future__ import annotations

import re

from .blocks import Block, BlockKind, Box, Cell

MAX_SHEET_ROWS = 500  # rows a sheet or a CSV table shows before it is cut
CELL_SPLIT = re.compile(r"(?<!\\)\|")
# "Sub-" ending a cell's line, "region" next; "0001193125-22-" / "073453", "State/" / "territory"
RUN_ON = re.compile(r"(?<=[^\W_])([-\u2010/])[^\S\n]*\n\s*(?=[^\W_])")


def _words(value) -> str:
    """A cell's text on one line: a line that ends in a hyphen or a slash after a letter or digit runs on into
    the next if it starts with one ("Sub-Saharan", "0001193125-22-073453", "State/territory"); other line breaks
    are spaces."""
    return " ".join(RUN_ON.sub(r"\1", "" if value is None else str(value)).split())


def _cell(value) -> str:
    return _words(value).replace("|", "\\|")


def markdown_table(rows: list[list]) -> str:
    """A GitHub-flavoured Markdown table; the first row is the header. Empty rows are dropped."""
    rows = [[_cell(c) for c in row] for row in rows if row and any(c not in (None, "") for c in row)]
    if not rows:
        return ""
    width = max(len(row) for row in rows)
    rows = [row + [""] * (width - len(row)) for row in rows]
    lines = ["| " + " | ".join(rows[0]) + " |", "|" + "---|" * width]
    lines += ["| " + " | ".join(row) + " |" for row in rows[1:]]
    return "\n".join(lines)


def table_rows(markdown: str) -> list[list[str]]:
    """The rows of a table ``markdown_table`` wrote, its header first, each cell's ``\\|`` a ``|`` again."""
    lines = markdown.split("\n")
    return [
        [cell.strip().replace("\\|", "|") for cell in CELL_SPLIT.split(line.strip())[1:-1]]
        for line in [lines[0], *lines[2:]]
    ]


def table_block(rows: list[list], box: Box | None = None, kind: BlockKind = BlockKind.TABLE) -> Block | None:
    """A table's block from its rows, the header first, each a list of cells (a cell's text, or a
    ``Cell`` with its spans): its Markdown written from the grid the spans make (a spanning cell's
    words in every place it covers, so each row and column reads whole), rows with no text left
    out; None for a table with no text."""
    cells = [tuple(cell if isinstance(cell, Cell) else Cell(_words(cell)) for cell in row) for row in rows]
    grid = Block(kind, "", rows=tuple(cells)).grid()
    kept = [index for index, row in enumerate(grid) if any(row)]
    if not kept:
        return None
    text = markdown_table([grid[index] for index in kept])
    return Block(kind, text, box, rows=tuple(cells[index] for index in kept))
