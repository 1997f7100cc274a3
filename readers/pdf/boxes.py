"""Boxes on a PDF page, ``(x0, top, x1, bottom)`` in points from its top left: the few tests the
page engine makes of them (figures, drawn text, layout)."""

from __future__ import annotations

Box = tuple[float, float, float, float]
RULE_REACH = 3.0  # points: a rule this near a box or another rule joins it (pdfplumber's snap and join tolerance)


def box_of(obj) -> Box:
    """The box of a pdfplumber object (a character, a word, an image, a curve)."""
    return obj["x0"], obj["top"], obj["x1"], obj["bottom"]


def near(a: Box, b: Box, gap: float) -> bool:
    """The boxes overlap, or stand within ``gap`` of each other."""
    return a[0] - gap <= b[2] and b[0] - gap <= a[2] and a[1] - gap <= b[3] and b[1] - gap <= a[3]


def area(box: Box) -> float:
    return (box[2] - box[0]) * (box[3] - box[1])


def union(boxes) -> Box:
    """The smallest box round ``boxes``."""
    return min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes)


def centre_in(box: Box, boxes) -> bool:
    """The middle of ``box`` stands in one of ``boxes`` (its edges count)."""
    x, y = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return any(b[0] <= x <= b[2] and b[1] <= y <= b[3] for b in boxes)


def ruled(box: Box, edges: list[dict], chars: list[dict]) -> Box:
    """``box`` (a table's) grown to the rules that cross it or run on from them (``RULE_REACH``), until
    none more do: a table's box is its drawn grid where rules draw one, header rule, bottom rule and
    rules running on past its last column's rule or its last row's words included. Not where the grown
    box takes in any of ``chars`` (the page's) that ``box`` does not hold: rules that run on round other
    words are a form's or a frame's, not the table's grid."""
    grown = box
    while True:
        left, top, right, bottom = grown
        grown = union(
            [grown]
            + [
                box_of(edge)
                for edge in edges
                if (
                    edge["orientation"] == "h"
                    and top - RULE_REACH <= edge["top"] <= bottom + RULE_REACH
                    and edge["x0"] <= right + RULE_REACH
                    and edge["x1"] >= left - RULE_REACH
                )
                or (
                    edge["orientation"] == "v"
                    and left - RULE_REACH <= edge["x0"] <= right + RULE_REACH
                    and edge["top"] <= bottom + RULE_REACH
                    and edge["bottom"] >= top - RULE_REACH
                )
            ]
        )
        if grown == (left, top, right, bottom):
            break
    taken = [char for char in chars if char["text"].strip() and centre_in(box_of(char), [grown])]
    return box if any(not centre_in(box_of(char), [box]) for char in taken) else grown
