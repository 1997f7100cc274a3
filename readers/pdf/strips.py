"""Strips on a page: the vertical gaps between words that part a table's columns (``readers.pdf.unruled``, and
the layout's bands, ``readers.pdf.bands``), found line by line and kept where lines share them, and the strips
narrower than a gutter that part columns all the same (a long cell run on into the next column, a spreadsheet's
number set a space from the next cell's text); and a line's phrases, its words in runs closer than a gutter."""

from __future__ import annotations

import math
import re
from bisect import bisect_left, bisect_right

from .records import Item
from .wraps import ALIGNED_ROWS

EDGE = 0.6  # points: words starting this close to a heading's left edge are set on it (a column left-aligned)
OVERRUN_ROWS = 0.1  # of a table's rows, at most: cells that run on into the next column ("VALSANGIACOMO BLANCO")
DASH = re.compile(r"[-–—]+")  # a dash that stands for no amount


def gaps(items: list[Item], left: float, right: float, width: float) -> list[tuple[float, float]]:
    """The vertical strips of at least ``width`` between ``left`` and ``right`` that no item covers."""
    found, edge = [], left
    for item in sorted(items, key=lambda i: i["x0"]):
        if item["x0"] - edge >= width:
            found.append((edge, item["x0"]))
        edge = max(edge, item["x1"])
    if right - edge >= width:
        found.append((edge, right))
    return found


def common(
    strips: list[tuple[float, float]], others: list[tuple[float, float]], width: float
) -> list[tuple[float, float]]:
    """The strips of at least ``width`` that lie in both lists."""
    return [(max(a, c), min(b, d)) for a, b in strips for c, d in others if min(b, d) - max(a, c) >= width]


def overlapping(one: list[Item], other: list[Item]) -> bool:
    """Two runs of a line's words (left to right) share some of their width."""
    return one[0]["x0"] < other[-1]["x1"] and other[0]["x0"] < one[-1]["x1"]


def two_sided(slab: list[Item], gap: tuple[float, float]) -> bool:
    """Items of ``slab`` stand on both sides of ``gap``."""
    return any(item["x1"] <= gap[0] + 0.5 for item in slab) and any(item["x0"] >= gap[1] - 0.5 for item in slab)


def dashed(gutters: list[tuple[float, float]], slabs: list[list[Item]]) -> list[tuple[float, float]]:
    """The ``gutters`` but those that part a column of dashes alone from the column beside it, no slab holding
    words on both sides: the dash that stands for no amount, centred in a column of amounts set right ("—" over
    "1,784,453")."""
    kept = list(gutters)
    index = 0
    while index < len(kept):
        low = kept[index - 1][1] if index else -math.inf
        high = kept[index + 1][0] if index + 1 < len(kept) else math.inf
        start, end = kept[index]
        sides = [
            [[i["text"] for i in slab if low <= (i["x0"] + i["x1"]) / 2 <= start] for slab in slabs],
            [[i["text"] for i in slab if end <= (i["x0"] + i["x1"]) / 2 <= high] for slab in slabs],
        ]
        words = [sum(side, []) for side in sides]
        if (
            all(words)
            and not any(left and right for left, right in zip(*sides))
            and any(all(map(DASH.fullmatch, side)) for side in words)
        ):
            del kept[index]
        else:
            index += 1
    return kept


def phrases(line: list[Item], width: float) -> list[list[Item]]:
    """A line's words in runs closer than a gutter: one heading each."""
    runs: list[list[Item]] = []
    for item in line:
        if runs and item["x0"] - runs[-1][-1]["x1"] < width:
            runs[-1].append(item)
        else:
            runs.append([item])
    return runs


def overrun(rows: list[list[Item]], width: float, gutters: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Strips all but a few rows leave empty, before a column whose words start on one edge in most
    rows: the few run a long cell on into that column, as a surname too long for its column does."""
    allowed = int(OVERRUN_ROWS * len(rows))
    starts = sorted(item["x0"] for row in rows for item in row)
    found: list[tuple[float, float]] = []
    for edge in sorted({round(start) for start in starts}):
        if not allowed or bisect_right(starts, edge + 1) - bisect_left(starts, edge - 1) < len(rows) / 2:
            continue
        crossing = {n for n, row in enumerate(rows) if any(i["x0"] < edge - 1 < i["x1"] + width for i in row)}
        clear = [item for n, row in enumerate(rows) if n not in crossing for item in row]
        before = [item["x1"] for item in clear if item["x0"] < edge - 1]
        after = [item["x0"] for item in clear if item["x0"] >= edge - 1]
        if not crossing or len(crossing) > allowed or not before or not after:
            continue
        strip = (max(before), min(after))
        if not any(min(strip[1], end) > max(strip[0], start) for start, end in gutters + found):
            found.append(strip)
    return found


def heading_edges(
    rows: list[list[Item]], width: float, gutters: list[tuple[float, float]]
) -> list[tuple[float, float]]:
    """Strips narrower than a gutter before a column whose heading (a phrase of the first row) starts
    where a word of most rows under it starts, most rows holding words left of it holding words before it
    in the same column too (a description's next lines hold none), no word crossing that edge: in a
    spreadsheet's print a number set to the right of its cell stands a space from the next cell's text
    ("002 Africa" under "Region Code" and "Region Name"); a mark set wide of its column in one row parts
    nothing."""
    body = rows[1:]
    found = []
    for phrase in phrases(sorted(rows[0], key=lambda item: item["x0"]), width)[1:]:
        edge = phrase[0]["x0"]
        if len(body) < ALIGNED_ROWS or any(start - EDGE <= edge <= end + EDGE for start, end in gutters):
            continue
        column = max((end for _, end in gutters if end < edge), default=-math.inf)  # where the parted column starts
        starting = sum(any(abs(item["x0"] - edge) <= EDGE for item in row) for row in body)
        labelled = [row for row in body if any(item["x0"] < edge - EDGE for item in row)]  # not a cell's next line
        before = [[item["x1"] for item in row if column <= item["x0"] and item["x1"] <= edge] for row in labelled]
        crossed = any(item["x0"] < edge - EDGE < edge + EDGE < item["x1"] for row in rows for item in row)
        if 2 * starting > len(body) and 2 * sum(map(bool, before)) > len(labelled) and not crossed:
            found.append((max(max(ends) for ends in before if ends), edge))
    return found
