"""A table ruled only across (booktabs, a "header rule"): a rule over its header, one under it, one under
its last row, all three as wide, and no rule between its columns. pdfplumber finds no grid in it, and its
alignment alone loses rows that stand far apart (a label wrapped over four lines beside no figures before a
row of figures) or cuts its header off from its body. Its rules frame it: the lines between the first two
are its header, those between the last two its body (``readers.pdf.aligned`` reads them as one table). A
rule of the same width over or under the three, with no caption between (the next table's), is a table ruled
under each row: no frame."""

from __future__ import annotations

import math

from .records import Item

RULE_PITCH = 60.0  # points between a table's row rules at most: farther apart they rule different things
ALIGNED_ENDS = 2.0  # points: rules' ends this close stand at one x (a rule drawn in segments too)

# left, right, the rule of its width over it, its top, its header rule, its bottom, the rule of its width under it
Frame = tuple[float, float, float, float, float, float, float]


def page_rules(page) -> list[tuple[float, float, float]]:
    """The page's horizontal rules as (x0, x1, top), the segments one rule is drawn in joined."""
    rules: list[list[float]] = []
    for edge in sorted(
        (edge for edge in page.edges if edge["orientation"] == "h"), key=lambda edge: (round(edge["top"]), edge["x0"])
    ):
        last = rules[-1] if rules else None
        if last and abs(edge["top"] - last[2]) <= 1 and edge["x0"] <= last[1] + ALIGNED_ENDS:
            last[1] = max(last[1], edge["x1"])
        else:
            rules.append([edge["x0"], edge["x1"], edge["top"]])
    return [(x0, x1, top) for x0, x1, top in rules if x1 - x0 >= RULE_PITCH]


def page_frames(page) -> list[Frame]:
    """The frames of the page's tables ruled only across: three rules of one width, one under the other, and
    where the rules of that width over and under them stand (infinitely far when there are none)."""
    rules = sorted(page_rules(page), key=lambda rule: rule[2])
    frames: list[Frame] = []
    for x0, x1, _ in rules:
        same = [top for left, right, top in rules if abs(left - x0) <= ALIGNED_ENDS and abs(right - x1) <= ALIGNED_ENDS]
        ends = [-math.inf, *same, math.inf]
        for index in range(len(same) - 2):
            over, top, mid, bottom, under = ends[index : index + 5]
            if (frame := (x0, x1, over, top, mid, bottom, under)) not in frames:
                frames.append(frame)
    return frames


def framed_lines(lines: list[list[Item]], captions: list[bool], frame: Frame) -> tuple[int, int, int] | None:
    """The frame's lines among ``lines`` (in reading order; ``captions`` tells which are a table's caption): the
    first, the first under its header rule and the last index. None when it holds no line over its header rule or
    fewer than two under it, a line stands out of it (text set beside), or a rule of its width stands over or under
    it with no caption between (the next table's): a table ruled under each row has no frame."""
    left, right, over, top, mid, bottom, under = frame
    inside = [index for index, line in enumerate(lines) if top < (line[0]["top"] + line[0]["bottom"]) / 2 < bottom]
    if not inside:
        return None
    first, last = inside[0], inside[-1]
    body = next((index for index in inside if lines[index][0]["top"] > mid), last + 1)
    ruled = [
        not any(captions[n] for n, line in enumerate(lines) if start < line[0]["top"] < end)
        for start, end in ((over, top), (bottom, under))
        if end - start < math.inf
    ]
    if (
        inside != list(range(first, last + 1))
        or body == first
        or last - body < 1
        or any(ruled)
        or any(
            item["x0"] < left - ALIGNED_ENDS or item["x1"] > right + ALIGNED_ENDS for n in inside for item in lines[n]
        )
    ):
        return None
    return first, body, last
