"""A reading's Markdown as the blocks chunks are cut from: headings, paragraphs, tables and the
charts rebuilt as tables, each a span of the text (``parse``); and the boundaries inside a block,
from strongest to weakest: lines (of a text file, or items of a list), sentences, words (``finer``).

Spans are offsets into one string, so a piece is always exactly the text it was cut from.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..markup.markdown import FENCE

HEADING = re.compile(r"(#{1,6})[ \t]+(.+?)[ \t]*#*[ \t]*$")
TABLE_RULE = re.compile(r"\|?[ \t]*:?-{3,}:?[ \t]*(\|[ \t]*:?-{3,}:?[ \t]*)*\|?[ \t]*$")
# The line over a chart's table (readers.markup.charts.chart_heading), and what a rebuilt chart says under it.
CHART = re.compile(r"Chart(: .+)? \((.+ )?chart\)$")
CHART_NOTE = re.compile(r"Value axis: .+|Axis ticks and other labels: .+|\*values .+\*$")
LIST_ITEM = re.compile(r"[ \t]*([-*+•]|\d{1,3}[.)]|[a-zA-Z][.)]|>)[ \t]")
# A sentence ends at . ! ? (and closing quotes or brackets) before a space and anything but a
# lower-case letter, so "e.g. the" and "3.5 m" stay whole.
SENTENCE_END = re.compile(r"[.!?…。！？][\"'”’)\]]*(\s+)(?=[^\sa-z])")
WORD = re.compile(r"\S+")
SHORTEST_SENTENCE = 4  # characters: "1." or "a)" before a space is a list number, not a sentence

Span = tuple[int, int]


@dataclass
class Block:
    """One block of a page's Markdown: ``kind`` is "heading", "text", "table" or "chart".

    A table's (or chart's) ``head`` ends the part every piece of it repeats — the chart's title
    line, the header row and the rule; ``rows`` are its rows, ``notes`` what a chart says under its
    table (how its values were read)."""

    kind: str
    start: int
    end: int
    level: int = 0
    title: str = ""
    head: int = 0
    rows: list[Span] = field(default_factory=list)
    notes: list[Span] = field(default_factory=list)


def _lines(text: str, start: int, end: int) -> list[Span]:
    spans, position = [], start
    while position <= end:
        newline = text.find("\n", position, end)
        stop = end if newline < 0 else newline
        spans.append((position, stop))
        position = stop + 1
    return spans


def _is_table_start(text: str, lines: list[tuple[int, int, bool]], index: int) -> bool:
    start, end, code = lines[index]
    if code or not text[start:end].lstrip().startswith("|") or index + 1 >= len(lines):
        return False
    rule_start, rule_end, rule_code = lines[index + 1]
    return not rule_code and TABLE_RULE.match(text[rule_start:rule_end].strip()) is not None


def _paragraph_blocks(text: str, lines: list[tuple[int, int, bool]], markdown: bool) -> list[Block]:
    """The blocks of one paragraph (lines with no blank line between): its heading lines, its
    tables, its runs of text."""
    blocks, index = [], 0

    def special(at: int) -> bool:
        start, end, code = lines[at]
        return (markdown and not code and HEADING.match(text[start:end]) is not None) or _is_table_start(
            text, lines, at
        )

    while index < len(lines):
        start, end, code = lines[index]
        heading = HEADING.match(text[start:end]) if markdown and not code else None
        if heading:
            blocks.append(Block("heading", start, end, level=len(heading.group(1)), title=heading.group(2)))
            index += 1
        elif _is_table_start(text, lines, index):
            last = index + 2
            while (
                last < len(lines)
                and not lines[last][2]
                and text[lines[last][0] : lines[last][1]].lstrip().startswith("|")
            ):
                last += 1
            blocks.append(
                Block(
                    "table",
                    start,
                    lines[last - 1][1],
                    head=lines[index + 1][1],
                    rows=[line[:2] for line in lines[index + 2 : last]],
                )
            )
            index = last
        else:
            last = index + 1
            while last < len(lines) and not special(last):
                last += 1
            blocks.append(Block("text", start, lines[last - 1][1]))
            index = last
    return blocks


def _charts(text: str, blocks: list[Block]) -> list[Block]:
    """Each chart's title line, its table and the notes under it, joined into one "chart" block."""
    out: list[Block] = []
    index = 0
    while index < len(blocks):
        block = blocks[index]
        if (
            block.kind == "text"
            and CHART.match(text[block.start : block.end])
            and "\n" not in text[block.start : block.end]
        ):
            chart = Block("chart", block.start, block.end, head=block.end)
            if index + 1 < len(blocks) and blocks[index + 1].kind == "table":
                table = blocks[index + 1]
                chart.head, chart.rows, chart.end = table.head, table.rows, table.end
                index += 1
            while (
                index + 1 < len(blocks)
                and blocks[index + 1].kind == "text"
                and CHART_NOTE.match(text[blocks[index + 1].start : blocks[index + 1].end])
            ):
                index += 1
                chart.notes.append((blocks[index].start, blocks[index].end))
                chart.end = blocks[index].end
            out.append(chart)
        else:
            out.append(block)
        index += 1
    return out


def parse(text: str, start: int, end: int, markdown: bool) -> list[Block]:
    """The blocks of ``text[start:end]`` in order. Paragraphs end at blank lines, except inside a
    fenced code block, whose lines are never headings or tables. ``markdown`` says whether ``#``
    lines are headings (not in a log or a Python file, where ``#`` starts a comment)."""
    blocks: list[Block] = []
    paragraph: list[tuple[int, int, bool]] = []
    fence = None
    for line_start, line_end in _lines(text, start, end):
        line = text[line_start:line_end]
        if fence:
            paragraph.append((line_start, line_end, True))
            if line.lstrip().startswith(fence):
                fence = None
        elif FENCE.match(line):
            fence = FENCE.match(line).group(1)
            paragraph.append((line_start, line_end, True))
        elif line.strip():
            paragraph.append((line_start, line_end, False))
        elif paragraph:
            blocks += _paragraph_blocks(text, paragraph, markdown)
            paragraph = []
    if paragraph:
        blocks += _paragraph_blocks(text, paragraph, markdown)
    return _charts(text, blocks)


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


def _line_cuts(text: str, start: int, end: int, all_lines: bool) -> list[Span]:
    """The line breaks of ``text[start:end]`` a piece may end at: every one in a text file, else
    those before a list item (a PDF's or a document's other line breaks only wrap a sentence)."""
    cuts, position = [], start
    while (newline := text.find("\n", position, end)) >= 0:
        if all_lines or LIST_ITEM.match(text, newline + 1, end):
            cuts.append((newline, newline + 1))
        position = newline + 1
    return cuts


def finer(text: str, start: int, end: int, all_lines: bool) -> list[Span]:
    """``text[start:end]`` cut at its strongest boundaries: lines (``all_lines``: every line, as in
    a text file; else before list items), else sentences, else words; [] for a single word."""
    for pieces in (
        lambda: _cut(text, start, end, _line_cuts(text, start, end, all_lines)),
        lambda: sentences(text, start, end),
        lambda: [match.span() for match in WORD.finditer(text, start, end)],
    ):
        found = pieces()
        if len(found) > 1:
            return found
    return []
