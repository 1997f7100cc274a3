"""The empty strips between a table's words: where its columns part.

A strip is a vertical band of the page, ``(left, right)``; a table's gutters are the strips every row leaves
empty (``readers.pdf.unruled``). A sheet's print sets its cells edge to edge: an amount set right in its column
ends a word space before the next column's amount, and the strip between them is a gutter for the rows that
leave it wide (``touching``).
"""

from __future__ import annotations

from .records import Item
from .unsure import FIGURE


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


def touching(rows: list[list[Item]], width: float, gutters: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Strips most rows leave empty a gutter wide and the others a word space wide between a column's edge and
    the next column's words: a sheet's cells set edge to edge ("25.3 8.16*** (4)", an amount set right against the
    next column's, "25.3" ending where the column's amounts all end), where a gutter is none."""
    items = sum(rows, [])
    left, right = min(i["x0"] for i in items), max(i["x1"] for i in items)
    shared = gaps(rows[0], left, right, width / 8)
    for row in rows[1:]:
        shared = common(shared, gaps(row, left, right, width / 8), width / 8)
    found = []
    for strip in shared:
        wide = [
            any(a <= strip[0] + 0.5 and strip[1] - 0.5 <= b for a, b in gaps(row, left, right, width)) for row in rows
        ]
        narrowed = [row for row, apart in zip(rows, wide) if not apart]
        figures = all(
            FIGURE.fullmatch(max((i for i in row if i["x1"] <= strip[0] + 0.5), key=lambda i: i["x1"])["text"])
            and FIGURE.fullmatch(min((i for i in row if i["x0"] >= strip[1] - 0.5), key=lambda i: i["x0"])["text"])
            for row in narrowed
            if two_sided(row, strip)
        )
        ends = [i["x1"] for i in items if i["x1"] <= strip[0] + 0.5]
        edge = all(
            3 * sum(abs(end - max(i["x1"] for i in row if i["x1"] <= strip[0] + 0.5)) <= 1 for end in ends) >= len(rows)
            for row in narrowed
            if any(i["x1"] <= strip[0] + 0.5 for i in row)
        )
        if (
            2 * sum(wide) > len(rows)
            and narrowed
            and edge
            and figures
            and any(two_sided(row, strip) for row in rows)
            and not any(min(strip[1], end) > max(strip[0], start) for start, end in gutters)
        ):
            found.append(strip)
    return found
