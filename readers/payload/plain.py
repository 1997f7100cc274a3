"""A page's Markdown as plain text (``Reading.as_text(plain=True)``, the export's and ``--format plain``'s):
headings, emphasis, code marks, links and escapes become their words (a link keeps its address in brackets), a
table's rows stand in columns padded to their widest cell, a fenced block's lines are kept as they are and its
fences dropped; list marks and line breaks stay, as a person would type them in a text file."""

from __future__ import annotations

import re

from ..markup.markdown import FENCE, HEADING, TABLE_RULE
from ..markup.tables import CELL_SPLIT

# The inline marks, in order: an image's alt text, a link's text (with its address), strong, emphasis, code, a
# backslash escape. Emphasis needs a mark against a word on each side and no word character outside it, so
# "2 * 3 * 4", "snake_case" and "*" alone stay as written.
INLINE = (
    (re.compile(r"!\[([^\]\n]*)\]\([^)\s]*\)"), r"\1"),
    (re.compile(r"\[([^\]\n]+)\]\(([^)\s]+)\)"), r"\1 (\2)"),
    (re.compile(r"(?<![\w*])(\*\*|__)(?=\S)(.+?)(?<=\S)\1(?![\w*])"), r"\2"),
    (re.compile(r"(?<![\w*\\])([*_])(?=[^\s*_])(.+?)(?<=[^\s\\])\1(?![\w*])"), r"\2"),
    (re.compile(r"`([^`\n]+)`"), r"\1"),
    (re.compile(r"\\([\\`*_{}\[\]()#+\-.!|<>~])"), r"\1"),
)
COLUMN_GAP = "  "  # between a table's columns: two spaces, as column(1) and psql set them


def _words(line: str) -> str:
    for pattern, words in INLINE:
        line = pattern.sub(words, line)
    return line


def _table(rows: list[str]) -> list[str]:
    """A Markdown table's lines (its rule left out) as rows of cells padded to each column's widest."""
    cells = [[_words(cell.strip()) for cell in CELL_SPLIT.split(row.strip().strip("|"))] for row in rows]
    widths = [max(len(row[column]) for row in cells if column < len(row)) for column in range(max(map(len, cells)))]
    return [COLUMN_GAP.join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in cells]


def unmarked(markdown: str) -> str:
    """``markdown`` as plain text, line for line but for a table's rule and a code block's fences."""
    lines: list[str] = []
    table: list[str] = []
    fence: str | None = None
    for line in markdown.split("\n"):
        piped = line.lstrip().startswith("|")
        if table and not piped:
            lines += _table(table)
            table = []
        if fence:
            fence = None if line.lstrip().startswith(fence) else fence
            if fence:
                lines.append(line)
        elif found := FENCE.match(line):
            fence = found.group(1)
        elif piped:
            if not TABLE_RULE.match(line.strip()):
                table.append(line)
        else:
            heading = HEADING.match(line)
            lines.append(_words(heading.group(2) if heading else line))
    return "\n".join(lines + _table(table) if table else lines)
