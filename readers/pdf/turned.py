"""Text turned on a PDF page: a quarter turn either way (an arXiv sidebar, a table or a page set in
landscape) or upside down. ``readers.pdf.layout`` reads a line or two in its own direction
(``rotated_lines``) and more set upright (``readers.pdf.words.set_upright``, ``half_turned``), with the
page's own layout."""

from __future__ import annotations

from .records import Boxed, Char
from .words import TURNED_SPACE


def turn_of(char: Char) -> str:
    """How a character is turned: "level" (read left to right, slanted as an italic or not), "up" or
    "down" the page, or "over" (upside down)."""
    a, b, _, d = char["matrix"][:4]
    if a < 0 and d < 0 and char["upright"]:
        return "over"
    if char["upright"]:
        return "level"
    return "up" if b > 0 else "down"


def half_turned(char: Char, width: float, height: float) -> Char:
    """A character set upside down placed as it stands on the ``width`` by ``height`` page turned half
    round, so that it reads left to right: its box moved, its baseline its box's bottom."""
    box: Boxed = {
        "x0": width - char["x1"],
        "x1": width - char["x0"],
        "top": height - char["bottom"],
        "bottom": height - char["top"],
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
