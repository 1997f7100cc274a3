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
matches one ground-truth row at most.
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


def table_rows(markdown: str) -> list[list[str]]:
    """Each table row's normalised non-empty cells (separator rows and empty rows left out)."""
    rows = []
    for line in HTML_COMMENT.sub(" ", markdown).splitlines():
        line = line.strip()
        if not line.startswith("|") or SEPARATOR_ROW.match(line):
            continue
        body = line[1:-1] if line.endswith("|") and not line.endswith("\\|") and len(line) > 1 else line[1:]
        cells = [cell for cell in map(normalise_inline, PIPE_SPLIT.split(body)) if cell]
        if cells:
            rows.append(cells)
    return rows


def row_key(cells: list[str]) -> tuple[str, ...]:
    """A row as it is matched: date-times written one way, runs of equal adjacent cells collapsed."""
    key: list[str] = []
    for cell in cells:
        cell = SHORT_HOUR.sub(r"0\1:\2", MIDNIGHT.sub(r"\1", cell))
        if not key or key[-1] != cell:
            key.append(cell)
    return tuple(key)


def rows_matched(truth: list[list[str]], tool: list[list[str]]) -> int:
    """How many ground-truth rows the tool's rows match, each tool row matching one at most."""
    available = Counter(map(row_key, tool))
    matched = 0
    for key in map(row_key, truth):
        if available[key] > 0:
            available[key] -= 1
            matched += 1
    return matched


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
    """A tool's similarity, word recall and table rows matched against the ground truth, and the
    ground truth's table rows."""
    truth_words, tool_words = words(truth_markdown), words(tool_markdown)
    truth_rows = table_rows(truth_markdown)
    return {
        "similarity": similarity(truth_words, tool_words),
        "recall": recall(truth_words, tool_words),
        "rows": rows_matched(truth_rows, table_rows(tool_markdown)),
        "truth_rows": len(truth_rows),
    }
