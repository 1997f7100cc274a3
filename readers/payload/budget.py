"""Answers that fit a token budget: as many whole pages of a reading as ``max_tokens`` holds, a page
longer than that in pieces, and where the next answer starts.

Only a page that does not fit on its own is cut: at the last paragraph break that fits (never just
after a heading), else at the last line break, so a line — and so a table row — is never cut. The
page's visual-content block (its description) and its image go whole with its last piece. A
``Cursor`` says where the next answer starts: a page, and how many characters of its content
(``Page.text``, what a text-only model gets of it) were given already; ``"12:0"``
is the start of page 12. Counts are exact: every candidate is counted as the reading it would be
(``count``, by default ``Reading.tokens("openai")``), never added up from its parts.

``reading`` is a ``readers.models.Reading``; this module does not import it (the payload sits below
the model): the pieces are made with ``dataclasses.replace``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from ..errors import ReaderError
from ..kinds import kind_of
from ..markup.blocks import BlockKind
from .tokens import text_tokens

CURSOR = re.compile(r"\s*(\d+)\s*(?::\s*(\d+)\s*)?")


@dataclass(frozen=True)
class Cursor:
    page: int
    offset: int = 0  # characters of the page's content already given

    def __str__(self) -> str:
        return f"{self.page}:{self.offset}"


def parse_cursor(value: str) -> Cursor:
    """A cursor as an answer gave it ("12:3456", or "12" for the start of page 12)."""
    match = CURSOR.fullmatch(value or "")
    if match is None or int(match[1]) < 1:
        raise ReaderError(
            "INVALID_QUERY",
            f"The cursor {value!r} is not one an answer gave: it is a page and a character offset, "
            'like "12:3456". Pass the cursor from the last answer as it is, or use page_start.',
        )
    return Cursor(int(match[1]), int(match[2] or 0))


@dataclass
class Fitted:
    """The part of a reading that fits: ``reading`` holds it (its first page may be a piece),
    ``tokens`` is its exact count, ``next`` where the following answer starts (None when every
    page read is in it); ``first`` is the cursor it started from."""

    reading: object
    tokens: int
    next: Cursor | None
    first: Cursor


def default_count(reading) -> int:
    return reading.tokens("openai")


def answer_count(line_numbers: bool) -> Callable:
    """The tokens of what an answer returns: ``Reading.tokens``, or in text-only mode with
    ``line_numbers`` the count of the numbered text."""
    if not line_numbers:
        return default_count
    return lambda reading: (
        reading.tokens("openai") if reading.multimodal else text_tokens(reading.as_text(line_numbers=True))
    )


def page_tokens(reading, count: Callable = default_count) -> list[int]:
    """Each page's tokens on its own: ``count`` of the reading holding that page alone."""
    return [count(replace(reading, pages=[page])) for page in reading.pages]


def piece(page, start: int, end: int, last: bool):
    """Characters ``start``-``end`` of ``page``'s text as a page of their own: the blocks they hold,
    a block they cut in its part (a table's part without its cells); ``last`` when the piece ends the
    page, so it carries the page's description, image and figures."""
    content = page.text
    if start == 0 and end == len(content) and last:
        return page
    spans = page.spans()
    held = [(block, span) for block, span in zip(page.blocks, spans) if span and span[1] > start and span[0] < end]
    blocks = []
    for index, (block, (begin, finish)) in enumerate(held):
        # the piece's own characters: a break it starts or ends inside goes with its first or last block
        low, high = (start if index == 0 else begin), (end if index == len(held) - 1 else finish)
        blocks.append(block if (low, high) == (begin, finish) else replace(block, text=content[low:high], rows=()))
    changes: dict[str, object] = {"blocks": blocks}
    if page.line is not None:
        changes["line"] = page.line + content.count("\n", 0, start)
    if not last:
        changes.update(description=None, description_source=None, image=None, figures=[])
    return replace(page, **changes)


def _check_offset(reading, page, offset: int) -> None:
    content, unit = page.text, kind_of(reading.kind).unit
    if not (offset == 0 or offset == len(content) or (0 < offset < len(content) and content[offset - 1] == "\n")):
        raise ReaderError(
            "INVALID_QUERY",
            f"The cursor {page.number}:{offset} does not point to the start of a line of {unit} {page.number} of "
            f"{reading.name} ({len(content):,} characters as read now). Pass it with the same file and page_end "
            f"as the call that gave it, or read from page_start={page.number}.",
        )


def _cuts(page, offset: int) -> tuple[list[int], list[int]]:
    """Where the rest of ``page`` from ``offset`` may be cut: (paragraph breaks, line breaks), each
    the end of a piece; the end of the content, before the visual block and image, counts as both."""
    content = page.text
    headings = [span for block, span in zip(page.blocks, page.spans()) if span and block.kind == BlockKind.HEADING]
    lines = [index for index in range(offset + 1, len(content)) if content[index] == "\n"]
    paragraphs = [
        index
        for index in lines
        if content[index + 1 : index + 2] == "\n" and not any(start <= index <= end for start, end in headings)
    ]
    if (page.description or page.image) and len(
        content
    ) > offset:  # the content alone, its visual block and image in the next piece
        lines.append(len(content))
        paragraphs.append(len(content))
    return paragraphs, lines


def _last_fitting(cuts: list[int], fits: Callable[[int], bool]) -> int | None:
    """The last cut for which ``fits`` holds, by bisection (a longer piece never has fewer tokens)."""
    low, high, found = 0, len(cuts) - 1, None
    while low <= high:
        middle = (low + high) // 2
        if fits(cuts[middle]):
            found, low = cuts[middle], middle + 1
        else:
            high = middle - 1
    return found


def _too_small(reading, page, offset: int, max_tokens: int, total: Callable) -> ReaderError:
    content, unit = page.text, kind_of(reading.kind).unit
    if offset >= len(content.rstrip("\n")):
        need = total([piece(page, offset, len(content), True)])
        what = (
            f"{unit} {page.number}'s visual content (its description or its "
            f"image) takes {need:,} tokens with the {unit}'s label, "
            "and it is never cut"
        )
    else:
        end = content.find("\n", offset + 1)
        end = len(content) if end < 0 else end
        need = total(
            [piece(page, offset, end, end == len(content) and not (page.description or page.image))]
        )  # the line without the visual block
        row = "a table row" if content[offset:end].lstrip("\n").startswith("|") else "a line"
        what = (
            f"{unit} {page.number} goes on with {row} of {need:,} tokens (with "
            f"the {unit}'s label), and {row} is never cut"
        )
    return ReaderError(
        "INVALID_QUERY",
        f"max_tokens={max_tokens:,} is too small for {reading.name}: {what}. Raise max_tokens to at least {need:,}.",
    )


def fit(reading, max_tokens: int, start: Cursor | None = None, count: Callable = default_count) -> Fitted:
    """The pages of ``reading`` (read from ``start.page``) that fit in ``max_tokens``: the rest of
    the first page from ``start.offset``, then as many whole pages as fit. When even that rest does
    not fit, the piece of it that does. Raises ``ReaderError`` (``INVALID_QUERY``) for a cursor that
    does not fit the page and for a budget too small to hold the next line or visual block."""
    pages = reading.pages
    first, offset = pages[0], start.offset if start else 0
    _check_offset(reading, first, offset)

    def total(chosen: list) -> int:
        return count(replace(reading, pages=chosen))

    head = piece(first, offset, len(first.text), True)
    if total([head]) > max_tokens:
        paragraphs, lines = _cuts(first, offset)
        fits = lambda end: total([piece(first, offset, end, False)]) <= max_tokens
        end = _last_fitting(paragraphs, fits) or _last_fitting(lines, fits)
        if end is None:
            raise _too_small(reading, first, offset, max_tokens, total)
        part = piece(first, offset, end, False)
        return Fitted(
            replace(reading, pages=[part]),
            total([part]),
            Cursor(first.number, min(end + 1, len(first.text))),
            Cursor(first.number, offset),
        )
    low, high, taken = 2, len(pages), 1
    while low <= high:  # the most whole pages after the first that still fit
        middle = (low + high) // 2
        if total([head, *pages[1:middle]]) <= max_tokens:
            taken, low = middle, middle + 1
        else:
            high = middle - 1
    chosen = [head, *pages[1:taken]]
    return Fitted(
        replace(reading, pages=chosen),
        total(chosen),
        Cursor(pages[taken].number) if taken < len(pages) else None,
        Cursor(first.number, offset),
    )
