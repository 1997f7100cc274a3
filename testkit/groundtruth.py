"""Scoring a tool's Markdown against a ground-truth Markdown (``bench_formats``): both are normalised the
same way, then compared as word sequences, as word counts and row by row in their tables.

Normalisation (``words``): ReadLens's page headers (``[PAGE 1]``, ``[SHEET 2]``, ``[FILE: …]``, a
``[… - VISUAL CONTENT]`` header; what follows them is kept) and table separator rows are dropped; HTML
comments go; an image becomes its alt text and a link its text; HTML tags go (inline ones such as
``<b>`` to nothing, others to a space); entities are decoded and Markdown's backslash escapes undone;
heading, blockquote and list marks, emphasis and backticks go; the spaces docling puts before closing
punctuation and after opening brackets go; the text is lowercased and split into words on whitespace
and on table pipes, punctuation stripped from each word's ends.

Table rows (``table_rows``): each line starting with ``|`` (not a separator) is cut into cells on
unescaped pipes, each cell normalised like the text, empty cells dropped. A ground-truth row is matched
when the tool has a row with the same cells once runs of equal adjacent cells are collapsed (docling
repeats a merged cell across its span where other tools leave the spanned cells empty) and date-times
are written one way (``2024-01-01 00:00:00`` = ``2024-01-01 0:00:00`` = ``2024-01-01``); a tool row
matches one ground-truth row at most. A row not matched whole is matched as a column slice
(``rows_matched``) where its table, laid over one of the tool's tables, lands cell for cell on the same
columns of a tool row: docling cuts a sheet into tables at its empty columns (``xlsx_07``), and a row
whose cells stand together, in their columns, in a tool's wider table is there. Both counts are
reported: ``rows`` (whole or sliced) and ``whole_rows``.
"""

from __future__ import annotations

import difflib
import html
import re
import string
from collections import Counter

READLENS_HEADER = re.compile(r"^\[(?:[A-Z]+ \d+|FILE: .+|IMAGE: .+)(?: - VISUAL CONTENT.*)?\]\s*$")
SEPARATOR_ROW = re.compile(r"^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$")
HTML_COMMENT = re.compile(r"<!--.*?-->", re.S)
IMAGE = re.compile(r"!\[([^\]]*)\]\((?:[^()\s]|\([^()]*\))*(?:\s+\"[^\"]*\")?\)")
LINK = re.compile(r"\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\((?:[^()\s]|\([^()]*\))*(?:\s+\"[^\"]*\")?\)")
AUTOLINK = re.compile(r"<((?:https?|ftp|mailto):[^>\s]+)>")
HTML_TAG = re.compile(r"</?([A-Za-z][A-Za-z0-9-]*)(?:\s[^<>]*)?/?>")
# Tags that sit inside a run of text: removed without leaving a space.
INLINE_TAGS = {
    *("a", "b", "i", "u", "s", "em", "strong", "span", "sub", "sup", "code", "del", "ins", "mark"),
    *("font", "small", "big", "strike", "abbr", "kbd", "samp", "var", "tt", "q", "cite"),
}
ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|<>~$&])")
HEADING = re.compile(r"^\s{0,3}#{1,6}(?:\s+|$)")
BULLET = re.compile(r"^\s*(?:>\s*)*(?:[-*+]\s+)?")  # blockquote marks, then a list bullet
EMPHASIS = re.compile(r"[*_`]+|~~")
SPACE_BEFORE_PUNCT = re.compile(r"\s+([,.;:!?%)\]])")
SPACE_AFTER_OPEN = re.compile(r"([(\[])\s+")
PIPE_SPLIT = re.compile(r"(?<!\\)\|")
PUNCT = string.punctuation + "“”‘’«»…–—•·"
MIDNIGHT = re.compile(r"^(\d{4}-\d{2}-\d{2})[ t]0?0:00(?::00)?$")
SHORT_HOUR = re.compile(r"(?<![\d:])(\d):(\d\d)\b")


def without_page_headers(text: str) -> str:
    """ReadLens's text without its page header lines, which no other tool writes."""
    return "\n".join(line for line in text.splitlines() if not READLENS_HEADER.match(line.strip()))


def normalise_inline(text: str) -> str:
    """Markup out, entities and escapes undone, lowercased, whitespace collapsed; pipes are kept, an
    escaped one as ``¦``."""
    text = HTML_COMMENT.sub(" ", text)
    text = IMAGE.sub(lambda m: f" {m.group(1)} ", text)
    text = LINK.sub(lambda m: m.group(1), text)
    text = AUTOLINK.sub(lambda m: m.group(1), text)
    text = HTML_TAG.sub(lambda m: "" if m.group(1).lower() in INLINE_TAGS else " ", text)
    text = html.unescape(text).replace("\\|", "\x00")
    text = ESCAPE.sub(lambda m: "\x01" if m.group(1) in "*_`" else m.group(1), text)  # an escaped * is no emphasis
    text = EMPHASIS.sub("", text).replace("\x01", "").replace("\x00", "¦")
    text = " ".join(text.lower().split())
    return SPACE_AFTER_OPEN.sub(r"\1", SPACE_BEFORE_PUNCT.sub(r"\1", text))


def normalised_lines(markdown: str) -> list[str]:
    """The Markdown's non-empty lines, normalised: separator rows dropped, heading and list marks removed."""
    lines = []
    for line in HTML_COMMENT.sub(" ", markdown).splitlines():  # a comment may span lines
        if SEPARATOR_ROW.match(line) and "-" in line and ("|" in line or line.strip().startswith(":")):
            continue
        line = normalise_inline(BULLET.sub("", HEADING.sub("", line)))
        if line:
            lines.append(line)
    return lines


def words(markdown: str) -> list[str]:
    """The normalised words in order; table pipes separate words, and words of punctuation alone are dropped."""
    found = []
    for line in normalised_lines(markdown):
        for word in PIPE_SPLIT.sub(" ", line).split():
            word = word.strip(PUNCT)
            if word:
                found.append(word)
    return found


def tables(markdown: str) -> list[list[list[str]]]:
    """Each table (a run of row lines) as its rows of normalised cells, empty cells kept, separator rows left out."""
    found: list[list[list[str]]] = [[]]
    for line in HTML_COMMENT.sub(" ", markdown).splitlines():
        line = line.strip()
        if not line.startswith("|"):
            found.append([])
        elif not SEPARATOR_ROW.match(line):
            body = line[1:-1] if line.endswith("|") and not line.endswith("\\|") and len(line) > 1 else line[1:]
            found[-1].append([normalise_inline(cell) for cell in PIPE_SPLIT.split(body)])
    return [table for table in found if table]


def table_rows(markdown: str) -> list[list[str]]:
    """Each table row's normalised non-empty cells (separator rows and empty rows left out)."""
    return [cells for table in tables(markdown) for row in table if (cells := [cell for cell in row if cell])]


def row_key(cells: list[str]) -> tuple[str, ...]:
    """A row as it is matched: date-times written one way, runs of equal adjacent cells collapsed."""
    key: list[str] = []
    for cell in cells:
        cell = SHORT_HOUR.sub(r"0\1:\2", MIDNIGHT.sub(r"\1", cell))
        if not key or key[-1] != cell:
            key.append(cell)
    return tuple(key)


def _slice_key(cells: list[str]) -> tuple[str, ...]:
    """``row_key`` with the empty cells kept, so a slice matches only in the same columns."""
    return row_key([cell or "\x00" for cell in cells])


def rows_matched(truth_markdown: str, tool_markdown: str) -> tuple[int, int]:
    """The ground-truth rows the tool's tables match: whole, then whole or as a column slice.

    Whole: a tool row with the same non-empty cells (``row_key``); each tool row matches one at most.
    Column slice: a ground-truth table cut out of a wider one (docling cuts a sheet into pieces at its
    empty columns) is laid over each tool table at each row and column offset, and a row it has left
    counts where it equals, cell for cell, empty cells included, the same run of columns of the tool
    row it lands on; the offset that matches the most rows is taken, and each tool cell backs one
    ground-truth cell at most. A value that turns up elsewhere in the tool's tables does not count."""
    available = Counter(map(row_key, table_rows(tool_markdown)))
    truth_tables, tool_tables = tables(truth_markdown), tables(tool_markdown)
    left: list[list[int]] = []  # per ground-truth table, its rows not matched whole
    whole = 0
    for table in truth_tables:
        left.append([])
        for index, row in enumerate(table):
            key = row_key([cell for cell in row if cell])
            if key and available[key] > 0:
                available[key] -= 1
                whole += 1
            elif key:
                left[-1].append(index)
    used = [[[False] * len(row) for row in table] for table in tool_tables]
    sliced = 0
    for table, todo in zip(truth_tables, left):
        if not todo:
            continue
        best: list[tuple[int, int, int, int]] = []  # (tool table, tool row, first column, width) per row matched
        for number, tool in enumerate(tool_tables):
            widest = max(map(len, tool))
            for shift in range(-max(todo), len(tool)):
                for column in range(widest):
                    hits = [
                        (number, shift + index, column, len(table[index]))
                        for index in todo
                        if 0 <= shift + index < len(tool)
                        and len(tool[shift + index]) >= column + len(table[index])
                        and not any(used[number][shift + index][column : column + len(table[index])])
                        and _slice_key(tool[shift + index][column : column + len(table[index])])
                        == _slice_key(table[index])
                    ]
                    if len(hits) > len(best):
                        best = hits
        for number, row, column, width in best:
            used[number][row][column : column + width] = [True] * width
        sliced += len(best)
    return whole, whole + sliced


def similarity(truth: list[str], tool: list[str]) -> float:
    """difflib's ratio of the two word sequences (1.0 when both are empty)."""
    if not truth and not tool:
        return 1.0
    return difflib.SequenceMatcher(None, truth, tool, autojunk=False).ratio()


def recall(truth: list[str], tool: list[str]) -> float:
    """The share of the ground truth's words (counted with repeats) the tool also gives."""
    if not truth:
        return 1.0
    return sum((Counter(truth) & Counter(tool)).values()) / len(truth)


def score(truth_markdown: str, tool_markdown: str) -> dict:
    """A tool's similarity, word recall and table rows matched (``rows``: whole or as a column slice;
    ``whole_rows``: whole) against the ground truth, and the ground truth's table rows."""
    truth_words, tool_words = words(truth_markdown), words(tool_markdown)
    whole, rows = rows_matched(truth_markdown, tool_markdown)
    return {
        "similarity": similarity(truth_words, tool_words),
        "recall": recall(truth_words, tool_words),
        "rows": rows,
        "whole_rows": whole,
        "truth_rows": len(table_rows(truth_markdown)),
    }
