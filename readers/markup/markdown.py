"""Markdown pieces the structured readers (Word, PowerPoint) write the same way: headings, links,
list items, list numbers as the document shows them, and joining blocks into a page.

Tables are written by ``readers.markup.tables``.
"""

from __future__ import annotations

import re

MAX_LIST_NUMBER = 32767  # the largest number Word and PowerPoint start or count a list at
FENCE = re.compile(r"[ \t]{0,3}(```|~~~)")  # a fenced code block's first and last line
HEADING_LINE = re.compile(r"#{1,6}[ \t]")
TABLE_HEAD = re.compile(r"\|.*\n\|(?:-+\|)+\n")  # a Markdown table's header row and the line under it
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


def join_blocks(blocks: list[tuple[str, bool]]) -> str:
    """``(markdown, is_list_item)`` blocks separated by a blank line, except consecutive list
    items, which stay one tight list."""
    out: list[str] = []
    previous_item = False
    for text, is_item in blocks:
        if not text:
            continue
        if out:
            out.append("\n" if previous_item and is_item else "\n\n")
        out.append(text)
        previous_item = is_item
    return "".join(out)


def _blocks(markdown: str) -> list[str]:
    """``markdown``'s blocks: what stands between blank lines outside a fenced code block."""
    blocks: list[str] = []
    lines: list[str] = []
    fence = None
    for line in markdown.split("\n"):
        if fence and line.lstrip().startswith(fence):
            fence = None
        elif not fence and FENCE.match(line):
            fence = FENCE.match(line).group(1)
        if line.strip() or fence:
            lines.append(line)
        elif lines:
            blocks.append("\n".join(lines))
            lines = []
    if lines:
        blocks.append("\n".join(lines))
    return blocks


def _pieces(block: str, size: int) -> list[str]:
    """``block`` in pieces of at most ``size`` characters, each cut after its last line break, else
    its last space, else at ``size``; a fenced code block's pieces are each fenced, and a table's
    each start with its header row."""
    if len(block) <= size:
        return [block]
    fence = FENCE.match(block)
    opening = block.split("\n", 1)[0] + "\n" if fence else ""
    closing = "\n" + fence.group(1) if fence else ""
    if TABLE_HEAD.match(block):
        opening = TABLE_HEAD.match(block).group()
    room = max(size - len(opening) - len(closing), size // 2)
    pieces, start = [], 0
    while len(block) - start > room:
        head = block[start : start + room]
        end = head.rfind("\n")
        end = end if end > room // 2 else head.rfind(" ")
        end = end if end > room // 2 else room
        pieces.append(head[:end].rstrip())
        start += end
        while start < len(block) and block[start] in " \n":
            start += 1
    pieces.append(block[start:])
    if opening:
        pieces = [pieces[0] + closing, *(opening + piece + closing for piece in pieces[1:-1]), opening + pieces[-1]]
    return [piece for piece in pieces if piece.strip()]


def markdown_pages(markdown: str, size: int) -> list[str]:
    """``markdown`` cut into pages of about ``size`` characters at block boundaries (blank lines
    outside a fenced code block), as a long text file is paged: a heading goes to the page of the
    block under it (unless the headings alone fill a page), and a block longer than a page is cut
    into pieces of a page each (``_pieces``), so no page is much longer than ``size``. Linear in the
    text: a page's length and whether it holds more than headings are kept as it grows."""
    pages: list[list[str]] = [[]]
    length, has_text = 0, False  # the last page's characters (two between blocks), and whether it holds a non-heading
    for block in _blocks(markdown):
        for piece in _pieces(block, size):
            page = pages[-1]
            if page and length + 2 + len(piece) > size and (has_text or length >= size):
                held = []  # the headings at the page's foot go over with the block they stand over
                while has_text and HEADING_LINE.match(page[-1]):
                    held.append(page.pop())
                pages.append(held[::-1])
                length, has_text = sum(len(text) + 2 for text in held) - 2, False
            pages[-1].append(piece)
            length += len(piece) + 2 * (len(pages[-1]) > 1)
            has_text = has_text or not HEADING_LINE.match(piece)
    return ["\n\n".join(page) for page in pages]
