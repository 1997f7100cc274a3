"""The boundaries inside a piece of a reading's text a chunk may be cut at, from strongest to weakest:
lines (of a text file), sentences, words (``finer``); and a table's or chart's parts (``TableParts``:
its head, rows and notes), where it is cut between rows.

Spans are offsets into one string, so a piece is always exactly the text it was cut from.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# A sentence ends at . ! ? (and closing quotes or brackets) before a space and anything but a
# lower-case letter, so "e.g. the" and "3.5 m" stay whole.
SENTENCE_END = re.compile(r"[.!?…。！？][\"'”’)\]]*(\s+)(?=[^\sa-z])")
WORD = re.compile(r"\S+")
SHORTEST_SENTENCE = 4  # characters: "1." or "a)" before a space is a list number, not a sentence

Span = tuple[int, int]


@dataclass
class TableParts:
    """Where a table's (or a chart's) parts stand in the text: ``start``, the ``head`` every piece of it
    repeats ends (a chart's title line, the header row and the rule), its ``rows``, and its ``notes``
    (what a chart says under its table: how its values were read)."""

    start: int
    head: int
    rows: list[Span] = field(default_factory=list)
    notes: list[Span] = field(default_factory=list)


def _lines(text: str, start: int) -> list[Span]:
    """The non-blank lines of ``text``, as spans of the string it starts at ``start`` in."""
    spans, position = [], 0
    for line in text.split("\n"):
        if line.strip():
            spans.append((start + position, start + position + len(line)))
        position += len(line) + 1
    return spans


def table_parts(text: str, start: int, rows: int | None = None) -> TableParts | None:
    """The parts of a table written as Markdown (a header line, a rule, a line a row:
    ``readers.markup.tables.markdown_table``) in ``text``, which stands at ``start``: a table's every
    line after its rule is a row; a chart's (``rows``: its table's rows, the header's included) stands
    after its title line and is followed by its notes. None when it has no row under its header."""
    lines = _lines(text, start)
    first = 0 if rows is None else 1
    last = len(lines) if rows is None else first + rows + 1
    if len(lines) < max(last, first + 3):
        return None
    return TableParts(lines[0][0], lines[first + 1][1], lines[first + 2 : last], lines[last:])


def _trimmed(text: str, start: int, end: int) -> Span | None:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return (start, end) if end > start else None


def _cut(text: str, start: int, end: int, cuts: list[Span]) -> list[Span]:
    """The pieces of ``text[start:end]`` between ``cuts`` (spans of what separates them), blank pieces left out."""
    pieces, position = [], start
    for cut_start, cut_end in cuts:
        pieces.append((position, cut_start))
        position = cut_end
    pieces.append((position, end))
    return [span for span in (_trimmed(text, *piece) for piece in pieces) if span]


def sentences(text: str, start: int, end: int) -> list[Span]:
    cuts = [match.span(1) for match in SENTENCE_END.finditer(text, start, end)]
    return _cut(text, start, end, [cut for cut in cuts if not _list_number(text, start, cut[0])])


def _list_number(text: str, start: int, stop: int) -> bool:
    """Whether the sentence ending at ``stop`` is only a list number ("1." or "a)" at the start of a line)."""
    line_start = max(text.rfind("\n", start, stop) + 1, start)
    return len(text[line_start:stop].strip()) < SHORTEST_SENTENCE


def _line_cuts(text: str, start: int, end: int) -> list[Span]:
    cuts, position = [], start
    while (newline := text.find("\n", position, end)) >= 0:
        cuts.append((newline, newline + 1))
        position = newline + 1
    return cuts


def finer(text: str, start: int, end: int, all_lines: bool) -> list[Span]:
    """``text[start:end]`` cut at its strongest boundaries: lines (``all_lines``: a text file's; other
    line breaks only wrap a sentence or a list item's lines), else sentences, else words; [] for a single word."""
    for pieces in (
        lambda: _cut(text, start, end, _line_cuts(text, start, end)) if all_lines else [],
        lambda: sentences(text, start, end),
        lambda: [match.span() for match in WORD.finditer(text, start, end)],
    ):
        found = pieces()
        if len(found) > 1:
            return found
    return []
