"""Markdown pieces the structured readers (Word, PowerPoint) write the same way: headings, links,
list items, list numbers as the document shows them, and joining blocks into a page.

Tables are written by ``readers.markup.tables``.
"""

from __future__ import annotations

import re

MAX_LIST_NUMBER = 32767  # the largest number Word and PowerPoint start or count a list at
FENCE = re.compile(r"[ \t]{0,3}(```|~~~)")  # a fenced code block's first and last line
HEADING_LINE = re.compile(r"#{1,6}[ \t]")
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


def markdown_pages(markdown: str, size: int) -> list[str]:
    """``markdown`` cut into pages of at most ``size`` characters at block boundaries (blank lines
    outside a fenced code block), as a long text file is paged: no block is cut (one longer than a
    page has a page of its own), and a heading goes to the page of the block under it."""
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
    pages: list[list[str]] = [[]]
    for block in blocks:
        page = pages[-1]
        full = sum(len(text) + 2 for text in page) + len(block) > size
        if full and not all(HEADING_LINE.match(text) for text in page):
            held = []  # the headings at the page's foot go over with the block they stand over
            while HEADING_LINE.match(page[-1]):
                held.insert(0, page.pop())
            pages.append(held)
        pages[-1].append(block)
    return ["\n\n".join(page) for page in pages]
