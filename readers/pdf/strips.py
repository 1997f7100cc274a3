"""Strips on a page: the vertical gaps between words that part a table's columns (``readers.pdf.unruled``, and
the layout's bands, ``readers.pdf.bands``), found line by line and kept where lines share them."""

from __future__ import annotations

import math
import re

from .records import Item

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
