"""Text turned on a PDF page: a quarter turn either way (an arXiv sidebar, a table or a page set in
landscape), upside down, or mirrored. ``readers.pdf.layout`` reads a line or two on its side in its own
direction (``rotated_lines``) and more set upright (``upright_as_read``), with the page's own layout."""

from __future__ import annotations

from .records import Boxed, Char
from .words import TURNED_SPACE, set_upright


def turn_of(char: Char) -> str:
    """How a character is turned: "level" (read left to right, slanted as an italic or not), "up" or
    "down" the page, "over" (upside down), or mirrored: "mirrored" left to right (its line runs from
    the right), "flipped" top to bottom (its lines run up the page)."""
    a, b, c, d = char["matrix"][:4]
    if a < 0 and d < 0 and char["upright"]:
        return "over"
    if char["upright"]:
        return "level"
    if not b and not c:  # a mirror's matrix: a and d of opposite signs
        return "mirrored" if a < 0 else "flipped"
    return "up" if b > 0 else "down"


def upright_as_read(char: Char, turn: str, width: float, height: float) -> Char:
    """A character turned ``turn`` (``turn_of``) placed as it stands on the ``width`` by ``height`` page
    turned or mirrored back, so that it reads left to right: its box moved, its baseline its box's
    bottom."""
    if turn in ("up", "down"):
        return set_upright(char, turn == "up", width, height)
    across = turn in ("over", "mirrored")  # mirrored left to right: upside down is mirrored both ways
    down = turn in ("over", "flipped")
    box: Boxed = {
        "x0": width - char["x1"] if across else char["x0"],
        "x1": width - char["x0"] if across else char["x1"],
        "top": height - char["bottom"] if down else char["top"],
        "bottom": height - char["top"] if down else char["bottom"],
    }
    return {**char, **box, "y0": 0.0, "matrix": (1.0, 0.0, 0.0, 1.0, 0.0, 0.0), "upright": True}


def rotated_lines(chars: list[Char]) -> list[tuple[str, float]]:
    """Runs of text turned on their side, each read in its own direction (up or down the page), with
    the middle of its run across the page."""
    lines = []
    for up in (True, False):
        runs: list[tuple[float, list[Char]]] = []
        for char in sorted((c for c in chars if (c["matrix"][1] > 0) == up), key=lambda c: (c["x0"] + c["x1"]) / 2):
            centre = (char["x0"] + char["x1"]) / 2
            if runs and abs(runs[-1][0] - centre) <= char["size"] / 2:
                runs[-1][1].append(char)
            else:
                runs.append((centre, [char]))
        for centre, run in runs:
            run.sort(key=lambda c: -c["bottom"] if up else c["top"])
            text, previous = "", None
            for char in run:
                gap = (
                    0.0
                    if previous is None
                    else (previous["top"] - char["bottom"] if up else char["top"] - previous["bottom"])
                )
                text += (" " if gap > TURNED_SPACE * char["size"] and not text.endswith(" ") else "") + char["text"]
                previous = char
            if text.strip():
                lines.append((" ".join(text.split()), centre))
    return lines


def page_box(box: tuple[float, float, float, float], turn: str, width: float, height: float) -> tuple:
    """Where a box of text turned ``turn`` and read upright (``upright_as_read``) stands on the ``width``
    by ``height`` page: ``upright_as_read`` undone."""
    x0, top, x1, bottom = box
    if turn == "up":
        return top, height - x1, bottom, height - x0
    if turn == "down":
        return width - bottom, x0, width - top, x1
    if turn in ("over", "mirrored"):
        x0, x1 = width - x1, width - x0
    if turn in ("over", "flipped"):
        top, bottom = height - bottom, height - top
    return x0, top, x1, bottom
