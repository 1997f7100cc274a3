"""A page's bands (``readers.pdf.layout``, step 1): its words and blocks cut into slabs, runs that overlap
vertically, and the slabs that follow each other leaving the same vertical strip empty (a gutter) joined into a
band, read as columns of text or as a table's rows."""

from __future__ import annotations

from statistics import median

from .records import Item
from .strips import common, gaps, two_sided

BAND_BREAK = 2.5  # line heights of empty space that part one band from the next
LINE_EDGE = 0.25  # of a word's height, at its top and its bottom: where the lines of staggered blocks overlap


def _core(item: Item) -> tuple[float, float]:
    """The middle of a word's height, where a line's words all overlap (a block's whole height): lines
    of two blocks set at different sizes overlap at their edges, staggered, without being one row."""
    if item.get("block") is not None:
        return item["top"], item["bottom"]
    edge = LINE_EDGE * (item["bottom"] - item["top"])
    return item["top"] + edge, item["bottom"] - edge


def slabs_of(items: list[Item]) -> list[list[Item]]:
    """Items grouped into runs whose cores (``_core``) overlap vertically, top to bottom."""
    runs: list[list[Item]] = []
    bottom = 0.0  # the last run's
    for item in sorted(items, key=lambda i: _core(i)[0]):
        top, end = _core(item)
        if runs and top < bottom:
            runs[-1].append(item)
            bottom = max(bottom, end)
        else:
            runs.append([item])
            bottom = end
    return runs


def bands_of(items: list[Item], width: float) -> list[tuple[list[list[Item]], list[tuple[float, float]]]]:
    """Consecutive slabs that share an empty strip (one inside the page's text when either is a table's or a
    figure's block and the other's words stand in columns, ``_columned``: a table across the page shares only a
    margin with the columns of text under it): each band's slabs, and its gutters (shared strips with text on
    both sides somewhere in the band). A band starts afresh after a vertical gap of more than ``BAND_BREAK``
    lines (a footer stands apart from the columns above it) unless the slab after it keeps every gutter of two
    or more that the band's lines have words on both sides of, and has words on both sides of each: a sheet's
    rows of long cells stand far apart."""
    left, right = min(i["x0"] for i in items), max(i["x1"] for i in items)
    line = median(item["bottom"] - item["top"] for item in items)
    found: list[tuple[list[list[Item]], list[tuple[float, float]]]] = []
    for slab in slabs_of(items):
        strips = gaps(slab, left, right, width)
        if found:
            above, shared = found[-1][0], common(found[-1][1], strips, width)
            close = min(item["top"] for item in slab) - max(item["bottom"] for item in above[-1]) <= BAND_BREAK * line
            held = [gap for gap in found[-1][1] if any(two_sided(up, gap) for up in above)]
            apart = any(item.get("block") is not None for item in slab + above[-1]) and (
                _columned(slab, strips, left, right) or _columned(sum(above, []), found[-1][1], left, right)
            )
            if ([gap for gap in shared if left < gap[0] and gap[1] < right] if apart else shared) and (
                close or len([gap for gap in common(held, strips, width) if two_sided(slab, gap)]) == len(held) > 1
            ):
                found[-1] = (above + [slab], shared)
                continue
        found.append(([slab], strips))
    # a gutter has text on both sides on two lines at least: one line's wide gap ("1   Introduction") is no column's
    return [
        (band, [gap for gap in strips if sum(two_sided(slab, gap) for slab in band) >= min(2, len(band))])
        for band, strips in found
    ]


def _columned(slab: list[Item], strips: list[tuple[float, float]], left: float, right: float) -> bool:
    """Two words or more of ``slab`` (a band's, or one line's; a block's item is none) stand on each side of one
    of ``strips`` inside the page's text, ``left`` to ``right``: columns, not a note's mark before its line ("a
    Site and datum …")."""
    words = [item for item in slab if item.get("block") is None]
    return any(
        left < start
        and end < right
        and sum(item["x1"] <= start for item in words) >= 2
        and sum(item["x0"] >= end for item in words) >= 2
        for start, end in strips
    )
