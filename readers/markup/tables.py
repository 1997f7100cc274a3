"""Tables as Markdown, the one way every reader writes them."""

from __future__ import annotations

import re

MAX_SHEET_ROWS = 500  # rows a sheet or a CSV table shows before it is cut
CELL_SPLIT = re.compile(r"(?<!\\)\|")


def _cell(value) -> str:
    text = "" if value is None else str(value)
    return " ".join(text.split()).replace("|", "\\|")


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
