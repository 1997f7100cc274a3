"""Paragraphs: a page's lines grouped by the page's own line pitch.

A paragraph starts where the gap between two lines is wider than the gap between the lines of a
paragraph. How wide that is depends on the page: single spacing leaves about a fifth of a line
between lines, 1.5 spacing some three quarters, double spacing a whole line. A fixed gap made every
line of a 1.5-spaced report its own paragraph, and the lines of a bulleted item fell outside its
bullet.

A line that ends where its column does, with no room for the next line's first word, was wrapped:
its paragraph goes on. The gaps under wrapped lines are the page's own gap between a paragraph's
lines; ``paragraph_gaps`` measures it for each size of type, as the gap more than half of them
leave, ``PITCH_LINES`` at least (lines set unevenly, a formula's taller lines among them, keep no
spacing to measure). Under a wrapped line a paragraph starts only past that gap, by as much as
``PARAGRAPH_GAP`` is past a single-spaced page's (never under ``PARAGRAPH_GAP``); under a line that
ended before its column did (a paragraph's last line, a heading, a short list item), between lines
of two sizes (the body and its footnotes) or in type too little wrapped to measure, a gap wider than
``PARAGRAPH_GAP`` starts one, as on a single-spaced page. ``paragraph_groups`` groups the lines,
each block (a table, a figure, a side box) a paragraph of its own.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from statistics import median

from .figures import PARAGRAPH_GAP
from .records import Item
from .words import SPACE_EMS

SINGLE_SPACED_GAP = 0.2  # line heights: the gap between the lines of a single-spaced paragraph (leading 1.2)
PITCH_LINES = 3  # wrapped lines that leave one gap: a spacing the page sets (one or two may be chance)
GAP_STEP = 0.05  # line heights: gaps this close are one (a typeset page repeats its gap to a hundredth)
SIZE_STEP = 0.5  # points: type sizes this close are one size


def _height(line: list[Item]) -> float:
    return max(1.0, median(item["bottom"] - item["top"] for item in line))


def _gap(previous: list[Item], line: list[Item]) -> float:
    """The empty space between two lines, in the first one's heights."""
    return (line[0]["top"] - max(item["bottom"] for item in previous)) / _height(previous)


def _size(line: list[Item]) -> float:
    return round(median(item["size"] for item in line) / SIZE_STEP) * SIZE_STEP


def _is_text(line: list[Item]) -> bool:
    return line[0].get("block") is None


def _rights(lines: list[list[Item]]) -> dict[float, float]:
    """The right edge of a column of ``lines`` for each size of type: where its longest line of that
    size ends (a running footer or a note set smaller moves no edge of the body's)."""
    rights: dict[float, float] = {}
    for line in lines:
        if _is_text(line):
            size = _size(line)
            rights[size] = max(rights.get(size, 0.0), max(item["x1"] for item in line))
    return rights


def _runs_on(previous: list[Item], line: list[Item], rights: dict[float, float]) -> bool:
    """Whether ``previous`` was wrapped into ``line``, a line of its size: it ends where its column
    does (``rights``: its right edge for each size), with no room for ``line``'s first word."""
    if not (_is_text(previous) and _is_text(line)) or _size(previous) != _size(line):
        return False
    first = line[0]
    room = rights[_size(previous)] - max(item["x1"] for item in previous)
    return room < first["x1"] - first["x0"] + SPACE_EMS * first["size"]


def paragraph_gaps(blocks: list) -> dict[float, float]:
    """For each size of type the page whose ``blocks`` are given (``readers.pdf.layout``'s: lists of
    lines, or tables) wraps enough lines in, the gap (in line heights) past which a line of that size
    under a wrapped line starts a paragraph (see the module's docstring)."""
    found: dict[float, Counter] = defaultdict(Counter)
    for block in blocks:
        if isinstance(block, list):
            rights = _rights(block)
            for previous, line in zip(block, block[1:]):
                if _runs_on(previous, line, rights):
                    found[_size(previous)][round(_gap(previous, line) / GAP_STEP)] += 1
    measured = {}
    for size, gaps in found.items():
        step, count = gaps.most_common(1)[0]
        if count >= PITCH_LINES and 2 * count > gaps.total():  # a spacing the page keeps, not lines set unevenly
            measured[size] = max(PARAGRAPH_GAP, GAP_STEP * step + PARAGRAPH_GAP - SINGLE_SPACED_GAP)
    return measured


def paragraph_groups(lines: list[list[Item]], gaps: dict[float, float]) -> list[list[list[Item]]]:
    """``lines`` grouped into paragraphs (a line under a wrapped one closer than its size's gap in
    ``gaps``, any other closer than ``PARAGRAPH_GAP``), each block (a table, a figure, a side box) a
    paragraph of its own. A block that stands beside a paragraph, the lines before and after it one
    paragraph, follows that paragraph: it is not read in its middle."""
    rights = _rights(lines)

    def continues(previous: list[Item], line: list[Item]) -> bool:
        if not (_is_text(line) and _is_text(previous)):
            return False
        limit = gaps.get(_size(previous), PARAGRAPH_GAP) if _runs_on(previous, line, rights) else PARAGRAPH_GAP
        return _gap(previous, line) <= limit

    groups: list[list[list[Item]]] = []
    beside: list[list[Item]] = []
    for index, line in enumerate(lines):
        if groups and continues(groups[-1][-1], line):
            groups[-1].append(line)
            continue
        after = lines[index + 1] if index + 1 < len(lines) else None
        if groups and not _is_text(line) and after and continues(groups[-1][-1], after):
            beside.append(line)
            continue
        groups += [[held] for held in beside] + [[line]]
        beside = []
    return groups + [[held] for held in beside]
