"""Finding a query in what the model receives from a reading's pages: words, or a regular expression,
with the lines round each hit in ``grep -n -C`` form (``12:`` the line that matches, ``11-`` a line
round it).

Words match as written but for case and the spaces between them, across a line break too (a
sentence a PDF wrapped). A regular expression is Python's syntax, matched as written (``(?i)`` to
ignore case; ``^`` and ``$`` match at each line), by the ``regex`` package, which can stop one that
backtracks without end: a search gets ``SEARCH_SECONDS`` in all.
"""

from __future__ import annotations

import bisect
import time
from dataclasses import dataclass

import regex

from ..errors import ReaderError

MAX_QUERY_CHARS = 500
SEARCH_SECONDS = 5.0
LEAST_TIMEOUT = 0.01  # seconds handed to regex once the deadline has passed: a negative timeout means none to it


def compile_query(query: str, is_regex: bool) -> regex.Pattern:
    """The pattern for ``query``; ``ReaderError`` (``INVALID_QUERY``) with a sentence for an empty,
    overlong or invalid one."""
    if not isinstance(query, str) or not query.strip():
        raise ReaderError(
            "INVALID_QUERY",
            "The query is empty: give the words to find, or a regular expression with regex set to true.",
        )
    if len(query) > MAX_QUERY_CHARS:
        raise ReaderError(
            "INVALID_QUERY", f"The query is {len(query):,} characters long; give at most {MAX_QUERY_CHARS}."
        )
    if not is_regex:
        return regex.compile(
            r"\s+".join(regex.escape(word) for word in query.split()), regex.IGNORECASE | regex.VERSION0
        )
    try:
        return regex.compile(query, regex.MULTILINE | regex.VERSION0)
    except (regex.error, ValueError, OverflowError) as error:
        raise ReaderError(
            "INVALID_QUERY",
            f"The regular expression {query!r} is not valid: {error}. Correct it, or set regex to false "
            "to find the words as written.",
        ) from None


@dataclass
class Hit:
    line: int  # the number of the line where the match starts
    # the lines round it, each numbered, ":" after the number of a line the match is on, "-" after one round it
    context: str
    start: int = 0  # the character of the text the match starts at


def hit_block(page, hit: Hit):
    """The block of ``page`` a hit in its text starts in (``Page.spans``), or None."""
    return next(
        (block for block, span in zip(page.blocks, page.spans()) if span and span[0] <= hit.start < span[1] + 1), None
    )


class Search:
    """One query over many texts, within one time limit."""

    def __init__(self, pattern: regex.Pattern, context: int, seconds: float = SEARCH_SECONDS):
        self.pattern, self.context, self.seconds = pattern, context, seconds
        self.deadline = time.monotonic() + seconds

    def hits(self, text: str, first_line: int = 1, where: str = "the text") -> list[Hit]:
        """Each line of ``text`` (numbered from ``first_line``) where a match starts, once however
        many start on it; a match of no characters is not one."""
        starts = [0] + [index + 1 for index, char in enumerate(text) if char == "\n"]
        lines = text.split("\n")
        found: list[Hit] = []
        try:
            for match in self.pattern.finditer(
                text, concurrent=True, timeout=max(LEAST_TIMEOUT, self.deadline - time.monotonic())
            ):
                if match.end() == match.start():
                    continue
                top = bisect.bisect_right(starts, match.start()) - 1
                if found and found[-1].line == first_line + top:
                    continue
                bottom = bisect.bisect_right(starts, match.end() - 1) - 1
                shown = range(max(0, top - self.context), min(len(lines), bottom + self.context + 1))
                context = "\n".join(
                    f"{first_line + index}{':' if top <= index <= bottom else '-'}{lines[index]}" for index in shown
                )
                found.append(Hit(first_line + top, context, match.start()))
        except TimeoutError:
            raise ReaderError(
                "INVALID_QUERY",
                f"The regular expression {self.pattern.pattern!r} took over {self.seconds:g} s "
                f"(it had reached {where}): it backtracks too much (nested repeats such as (a+)+). "
                "Simplify it, or search for words.",
            ) from None
        return found
