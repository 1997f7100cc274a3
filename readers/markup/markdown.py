"""Markdown pieces the structured readers (Word, PowerPoint) write the same way: headings, links,
list items, list numbers as the document shows them; the blocks of a text whose source is Markdown
(a Markdown file, or what markdownify writes of HTML: ``markdown_blocks``, ``line_blocks``); and
blocks cut into pages of about a size (``block_pages``).

Tables are written by ``readers.markup.tables``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from .blocks import Block, BlockKind, Cell
from .tables import CELL_SPLIT

MAX_LIST_NUMBER = 32767  # the largest number Word and PowerPoint start or count a list at
FENCE = re.compile(r"[ \t]{0,3}(```|~~~)")  # a fenced code block's first and last line
HEADING_LINE = re.compile(r"#{1,6}[ \t]")
TABLE_HEAD = re.compile(r"\|.*\n\|(?:-+\|)+\n")  # a Markdown table's header row and the line under it
HEADING = re.compile(r"(#{1,6})[ \t]+(.+?)[ \t]*#*[ \t]*$")
TABLE_RULE = re.compile(r"\|?[ \t]*:?-{3,}:?[ \t]*(\|[ \t]*:?-{3,}:?[ \t]*)*\|?[ \t]*$")
LIST_ITEM = re.compile(r"([ \t]*)([-*+•]|\d{1,9}[.)]|[a-zA-Z][.)])[ \t]")
INTERRUPTING = ("-", "*", "+", "•", "1.", "1)")  # the markers that start a list inside a paragraph (CommonMark)
IMAGE = r"!\[[^\]]*\]\([^)]*\)"
PICTURES = re.compile(rf"(?:(?:{IMAGE}|\[{IMAGE}\]\([^)]*\))\s*)+")  # a paragraph of images (linked or not) alone
FORMULA = re.compile(r"\$\$.+\$\$$", re.S)
LIST_INDENT = "   "  # enough for a nested item to belong to "1. " as well as to "- "
ROMAN = [
    (1000, "m"),
    (900, "cm"),
    (500, "d"),
    (400, "cd"),
    (100, "c"),
    (90, "xc"),
    (50, "l"),
    (40, "xl"),
    (10, "x"),
    (9, "ix"),
    (5, "v"),
    (4, "iv"),
    (1, "i"),
]


def one_line(text: str) -> str:
    return " ".join(text.split())


def heading(level: int, text: str) -> str:
    return f"{'#' * min(max(level, 1), 6)} {one_line(text)}"


def heading_block(level: int, text: str) -> Block:
    level = min(max(level, 1), 6)
    return Block(BlockKind.HEADING, heading(level, text), level=level)


def link(text: str, url: str | None) -> str:
    """``[text](url)``; the bare text when there is no target, the bare URL when the text is the URL."""
    text, url = text.strip(), (url or "").strip()
    if not url or not text:
        return text or url
    if text == url or text == url.removeprefix("mailto:"):
        return text
    return f"[{text}]({url.replace(' ', '%20').replace(')', '%29')})"


def list_item(level: int, marker: str, text: str) -> str:
    """One item of a (nested) list: ``marker`` is "-" for bullets or the number as the document shows it."""
    return (
        f"{LIST_INDENT * max(level, 0)}{marker} {one_line(text)}".rstrip()
        if marker
        else f"{LIST_INDENT * max(level, 0)}{one_line(text)}"
    )


def _roman(number: int) -> str:
    out = ""
    for value, letters in ROMAN:
        count, number = divmod(number, value)
        out += letters * count
    return out


def _letters(number: int) -> str:
    """a, b, ..., z, aa, bb, ... as Word and PowerPoint count past z."""
    return chr(ord("a") + (number - 1) % 26) * ((number - 1) // 26 + 1)


def counter(number: int, style: str) -> str:
    """``number`` written in a list style: decimal, decimalZero, lowerLetter, upperLetter, lowerRoman, upperRoman.

    Past ``MAX_LIST_NUMBER`` a number is written in digits: a damaged or hostile start value of
    two billion would be two million m's in Roman numerals.
    """
    if (number < 1 or number > MAX_LIST_NUMBER) and style != "decimal":
        return str(number)
    if style == "decimalZero":
        return f"{number:02d}"
    if style in ("lowerLetter", "upperLetter"):
        text = _letters(number)
        return text.upper() if style == "upperLetter" else text
    if style in ("lowerRoman", "upperRoman"):
        text = _roman(number)
        return text.upper() if style == "upperRoman" else text
    return str(number)


@dataclass
class _Span:
    """Lines ``start`` to ``end`` (exclusive) of a text: one block, before its text is taken."""

    kind: BlockKind
    start: int
    end: int
    level: int = 0


def _table_start(lines: list[str], index: int) -> bool:
    return (
        lines[index].lstrip().startswith("|")
        and index + 1 < len(lines)
        and TABLE_RULE.match(lines[index + 1].strip()) is not None
    )


def _item_starts(line: str, in_item: bool) -> bool:
    """Whether ``line`` starts a list item: under another item, any marker does; inside a paragraph,
    only a bullet or a list's first number (as CommonMark has it), not "2023." or "P." where a line
    of a sentence begins."""
    found = LIST_ITEM.match(line)
    return found is not None and (in_item or found.group(2) in INTERRUPTING)


def _paragraph_spans(lines: list[str], start: int, end: int, headings: bool, items: list[int]) -> list[_Span]:
    """The blocks of lines ``start``-``end``, a paragraph (no blank line between them): heading lines,
    tables, list items (each with the lines under it that start no block), runs of other lines.
    ``items`` are the indents of the list items open, deepest last, which give an item's level."""
    spans: list[_Span] = []
    index = start
    while index < end:
        line = lines[index]
        heading = HEADING.match(line) if headings else None
        item = LIST_ITEM.match(line)
        if heading:
            spans.append(_Span(BlockKind.HEADING, index, index + 1, len(heading.group(1))))
            items.clear()
            index += 1
            continue
        if _table_start(lines, index):
            last = index + 2
            while last < end and lines[last].lstrip().startswith("|"):
                last += 1
            spans.append(_Span(BlockKind.TABLE, index, last))
            index = last
            continue
        last = index + 1
        while (
            last < end
            and not (headings and HEADING.match(lines[last]))
            and not _table_start(lines, last)
            and not _item_starts(lines[last], item is not None)
        ):
            last += 1
        if item:
            indent = len(item.group(1).expandtabs(4))
            while items and items[-1] >= indent:
                items.pop()
            spans.append(_Span(BlockKind.LIST_ITEM, index, last, len(items)))
            items.append(indent)
        else:
            text = "\n".join(lines[index:last]).strip()
            kind = (
                BlockKind.FIGURE
                if PICTURES.fullmatch(text)
                else BlockKind.FORMULA
                if FORMULA.match(text)
                else BlockKind.PARAGRAPH
            )
            spans.append(_Span(kind, index, last))
            if not line[:1].isspace():
                items.clear()
        index = last
    return spans


def _closing(lines: list[str], start: int, fence: str) -> int:
    """The line after the one that closes ``fence``, opened before line ``start`` (or the end)."""
    last = start
    while last < len(lines) and not lines[last].lstrip().startswith(fence):
        last += 1
    return min(last + 1, len(lines))


def fence_after(lines: list[str], fence: str = "") -> str:
    """The fence (```` ``` ```` or ``~~~``) a fenced code block open after ``lines`` began with ("" for
    none), ``fence`` being the one open before them."""
    for line in lines:
        if fence and line.lstrip().startswith(fence):
            fence = ""
        elif not fence and (opened := FENCE.match(line)):
            fence = opened.group(1)
    return fence


def _spans(lines: list[str], headings: bool, fence: str = "") -> list[_Span]:
    """The blocks of ``lines`` in order: paragraphs end at blank lines, but inside a fenced code
    block, which is one block (``fence``: one open before the first line, which goes on to its
    closing line); a paragraph indented under a list item (its next paragraph) is part of it."""
    spans: list[_Span] = []
    items: list[int] = []
    index = _closing(lines, 0, fence) if fence else 0
    if index:
        spans.append(_Span(BlockKind.CODE, 0, index))
    while index < len(lines):
        line = lines[index]
        if not line.strip():
            index += 1
            continue
        opened = FENCE.match(line)
        if opened:
            last = _closing(lines, index + 1, opened.group(1))
            spans.append(_Span(BlockKind.CODE, index, last))
            index = last
            continue
        last = index
        while last < len(lines) and lines[last].strip() and not FENCE.match(lines[last]):
            last += 1
        if spans and spans[-1].kind == BlockKind.LIST_ITEM and line[:1].isspace() and not LIST_ITEM.match(line):
            end = index + 1
            while end < last and not LIST_ITEM.match(lines[end]):
                end += 1
            spans[-1].end = end  # the item's next paragraph
            index = end
            continue
        spans += _paragraph_spans(lines, index, last, headings, items)
        index = last
    return spans


def _cells(line: str) -> tuple[Cell, ...]:
    return tuple(Cell(cell.strip().replace("\\|", "|")) for cell in CELL_SPLIT.split(line.strip())[1:-1])


def _block(kind: BlockKind, text: str, level: int) -> Block:
    if kind == BlockKind.TABLE:
        lines = text.strip("\n").split("\n")
        return Block(kind, text, rows=tuple(_cells(line) for line in [lines[0], *lines[2:]]))
    return Block(kind, text, level=level)


def markdown_blocks(markdown: str, headings: bool = True) -> list[Block]:
    """The blocks of a text whose source is Markdown: headings (when ``headings``; not in a log or a
    script, where ``#`` starts a comment), paragraphs, list items, tables with their cells, fenced
    code, formulas (``$$...$$``) and pictures standing alone. Laid out again (``readers.markup.blocks.layout``)
    they are the text, but for the blank lines between blocks, which are one each (each block after the
    first says whether it stands ``apart``: a blank line before it)."""
    lines = markdown.split("\n")
    blocks: list[Block] = []
    for span in _spans(lines, headings):
        text = "\n".join(lines[span.start : span.end]).strip("\n")  # a first line's indent kept, as the source has it
        block = _block(span.kind, text.rstrip(), span.level)
        blocks.append(replace(block, apart=not lines[span.start - 1].strip()) if blocks else block)
    return blocks


def line_blocks(text: str, headings: bool, fence: str = "") -> list[Block]:
    """The blocks of a text file's lines, each its lines exactly as they are, the blank lines after a
    block with it (and those before the first with the first), so the blocks' texts one line after
    another are ``text`` itself; ``fence`` is a fenced code block's open before them (``fence_after``)."""
    lines = text.split("\n")
    spans = _spans(lines, headings, fence)
    if not spans:
        return [Block(BlockKind.PARAGRAPH, text)] if text else []
    bounds = [0] + [span.start for span in spans[1:]] + [len(lines)]
    return [
        _block(span.kind, "\n".join(lines[bounds[index] : bounds[index + 1]]), span.level)
        for index, span in enumerate(spans)
    ]


def _pieces(block: Block, size: int) -> list[Block]:
    """``block`` in pieces of at most ``size`` characters, each cut after its last line break, else
    its last space, else at ``size``; a fenced code block's pieces are each fenced, and a table's
    each start with its header row."""
    text = block.text
    if len(text) <= size:
        return [block]
    fence = FENCE.match(text)
    opening = text.split("\n", 1)[0] + "\n" if fence else ""
    closing = "\n" + fence.group(1) if fence else ""
    if table_head := TABLE_HEAD.match(text):
        opening = table_head.group()
    room = max(size - len(opening) - len(closing), size // 2)
    pieces, start = [], 0
    while len(text) - start > room:
        head = text[start : start + room]
        end = head.rfind("\n")
        end = end if end > room // 2 else head.rfind(" ")
        end = end if end > room // 2 else room
        pieces.append(head[:end].rstrip())
        start += end
        while start < len(text) and text[start] in " \n":
            start += 1
    pieces.append(text[start:])
    if opening:
        pieces = [pieces[0] + closing, *(opening + piece + closing for piece in pieces[1:-1]), opening + pieces[-1]]
    if block.rows:
        return [_block(block.kind, piece, block.level) for piece in pieces if piece.strip()]
    return [replace(block, text=piece) for piece in pieces if piece.strip()]


def block_pages(blocks: list[Block], size: int) -> list[list[Block]]:
    """``blocks`` cut into pages of about ``size`` characters, as a long text file is paged: a heading
    goes to the page of the block under it (unless the headings alone fill a page), and a block
    longer than a page is cut into pieces of a page each (``_pieces``), so no page is much longer
    than ``size``. Linear in the text: a page's length and whether it holds more than headings are
    kept as it grows."""
    pages: list[list[Block]] = [[]]
    length, has_text = 0, False  # the last page's characters (two between blocks), and whether it holds a non-heading
    for block in blocks:
        for piece in _pieces(block, size):
            page = pages[-1]
            if page and length + 2 + len(piece.text) > size and (has_text or length >= size):
                held = []  # the headings at the page's foot go over with the block they stand over
                while has_text and page[-1].kind == BlockKind.HEADING:
                    held.append(page.pop())
                pages.append(held[::-1])
                length, has_text = sum(len(block.text) + 2 for block in held) - 2, False
            pages[-1].append(piece)
            length += len(piece.text) + 2 * (len(pages[-1]) > 1)
            has_text = has_text or piece.kind != BlockKind.HEADING
    return pages
