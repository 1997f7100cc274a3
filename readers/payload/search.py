"""Finding a query in what the model receives from a reading's pages: words, or a regular expression,
with the lines round each hit in ``grep -n -C`` form (``12:`` the line that matches, ``11-`` a line
round it); hits whose lines overlap or touch are shown as one, as grep shows them (``merged``).

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


@dataclass(frozen=True)
class Hit:
    """Where a query matches in one text: the lines where a match starts (``starts``, numbered as in the
    text), the lines shown round them (``shown``: each line's number, whether a match is on it, its text)
    and the character of the text the first match starts at (``start``)."""

    starts: tuple[int, ...]
    shown: tuple[tuple[int, bool, str], ...]
    start: int = 0

    @property
    def line(self) -> int:
        """The first line where a match starts."""
        return self.starts[0]

    @property
    def context(self) -> str:
        """The lines shown, each numbered, ":" after the number of a line a match is on, "-" after one round it."""
        return "\n".join(f"{number}{':' if matched else '-'}{text}" for number, matched, text in self.shown)


def merged(hits: list[Hit]) -> list[Hit]:
    """The hits of one text, in order, with each run whose shown lines overlap or touch as one hit, so that
    no line is shown twice (``grep -C`` prints adjacent matches' lines once, in one group)."""
    runs: list[Hit] = []
    for hit in hits:
        last = runs[-1] if runs else None
        if last is None or hit.shown[0][0] > last.shown[-1][0] + 1:
            runs.append(hit)
            continue
        lines = {number: (matched, text) for number, matched, text in last.shown}
        for number, matched, text in hit.shown:
            lines[number] = (matched or lines.get(number, (False, text))[0], text)
        shown = tuple((number, *lines[number]) for number in sorted(lines))
        runs[-1] = Hit(last.starts + hit.starts, shown, last.start)
    return runs


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
        """A hit for each line of ``text`` (numbered from ``first_line``) where a match starts, once however
        many start on it, with ``context`` lines round it (``merged`` joins those that overlap); a match of
        no characters is not one."""
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
                found.append(
                    Hit(
                        (first_line + top,),
                        tuple((first_line + index, top <= index <= bottom, lines[index]) for index in shown),
                        match.start(),
                    )
                )
        except TimeoutError:
            raise ReaderError(
                "INVALID_QUERY",
                f"The regular expression {self.pattern.pattern!r} took over {self.seconds:g} s "
                f"(it had reached {where}): it backtracks too much (nested repeats such as (a+)+). "
                "Simplify it, or search for words.",
            ) from None
        return found
