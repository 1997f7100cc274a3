"""Assertions on what a model wrote: Whisper's transcripts, local OCR's text.

A model's output varies with the processor it runs on (its instruction set) and with the thread
count (``OMP_NUM_THREADS``): ``tiny.en`` ends a sentence with a full stop on one machine and without
it on the next, OCR may read a colon with or without the space after it. A test of a model's output
asserts what the test is about — the words, in order; a name spelled right; a share of the words
found — compared as words: lower case, punctuation and spacing dropped. Where the output is ours
(Markdown, tables, page numbers, headers, tokens) tests stay exact.

Each failure message shows both texts in full, so a difference on another machine is read at once.
"""

from __future__ import annotations

import re
from collections import Counter

WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")


def words(text: str) -> list[str]:
    """The text's words in order, lower case, without punctuation: "Last week." → ["last", "week"]."""
    return [word.replace("’", "'") for word in WORD.findall(text.casefold())]


def _shown(label: str, text: str) -> str:
    return f"\n--- {label} ---\n{text}\n"


def assert_same_words(actual: str, expected: str) -> None:
    """The same words in the same order, whatever the case, punctuation and spacing."""
    assert words(actual) == words(expected), (
        "the words differ:" + _shown("model wrote", actual) + _shown("expected", expected)
    )


def _position(items: list, wanted: list, start: int = 0) -> int | None:
    """Where the run ``wanted`` stands in ``items`` from ``start`` on, or None."""
    ends = range(start, len(items) - len(wanted) + 1)
    return next((index for index in ends if items[index : index + len(wanted)] == wanted), None)


def assert_says(actual: str, *phrases: str) -> None:
    """Each phrase's words stand together in ``actual``, and the phrases come in the order given."""
    said, start = words(actual), 0
    for phrase in phrases:
        found = _position(said, words(phrase), start)
        where = " after the phrases before it" if start else ""
        assert found is not None, f"{phrase!r} is not said{where}:" + _shown("model wrote", actual)
        start = found + len(words(phrase))


def assert_lines(actual: str, expected: list[str]) -> None:
    """Line by line, the same words: the lines and their order are ours, the spelling inside them the model's."""
    got = [words(line) for line in actual.splitlines() if words(line)]
    assert got == [words(line) for line in expected], (
        "the lines differ:" + _shown("model wrote", actual) + _shown("expected", "\n".join(expected))
    )


def assert_has_lines(actual: str, expected: list[str]) -> None:
    """``expected`` stands in ``actual`` as consecutive lines, line by line the same words."""
    got, wanted = [words(line) for line in actual.splitlines()], [words(line) for line in expected]
    assert _position(got, wanted) is not None, (
        "the lines are not there:" + _shown("model wrote", actual) + _shown("expected", "\n".join(expected))
    )


def recall(actual: str, expected: str) -> float:
    """The share of ``expected``'s words (counted with repeats) that ``actual`` holds."""
    wanted, found = Counter(words(expected)), Counter(words(actual))
    return sum(min(count, found[word]) for word, count in wanted.items()) / max(1, sum(wanted.values()))


def assert_recall(actual: str, expected: str, floor: float) -> None:
    """At least ``floor`` of ``expected``'s words are in ``actual``."""
    share = recall(actual, expected)
    assert share >= floor, (
        f"{share:.1%} of the expected words found, below {floor:.0%}:"
        + _shown("model wrote", actual)
        + _shown("expected", expected)
    )


def other_words_error_rate(reference: str, actual: str, terms: str) -> float:
    """The word error rate of ``actual`` against ``reference`` over the reference's words other than
    ``terms`` (hotwords): words written for a term (in its place, or beside it) are the term's own."""
    said, wrote, spoken = words(reference), words(actual), set(words(terms))
    # edit distances, then the way back: which reference word each edit falls on
    table = [
        [row + column if not row or not column else 0 for column in range(len(wrote) + 1)]
        for row in range(len(said) + 1)
    ]
    for row in range(1, len(said) + 1):
        for column in range(1, len(wrote) + 1):
            table[row][column] = min(
                table[row - 1][column] + 1,
                table[row][column - 1] + 1,
                table[row - 1][column - 1] + (said[row - 1] != wrote[column - 1]),
            )
    row, column, errors = len(said), len(wrote), 0
    terms_at = {index for index, word in enumerate(said) if word in spoken}
    while row or column:
        if row and column and table[row][column] == table[row - 1][column - 1] + (said[row - 1] != wrote[column - 1]):
            errors += said[row - 1] != wrote[column - 1] and row - 1 not in terms_at
            row, column = row - 1, column - 1
        elif row and table[row][column] == table[row - 1][column] + 1:
            errors += row - 1 not in terms_at
            row -= 1
        else:  # a word written before reference word ``row``: a term's when beside one
            errors += not {row, row - 1} & terms_at
            column -= 1
    return errors / max(1, len(said) - len(terms_at))
