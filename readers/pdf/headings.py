"""Headings of a PDF page: a line set larger than the page's body text, or a short bold line
standing alone, is marked with its size (``heading_mark``) while the page is laid out; once the
pages read are compared, the sizes become ``#``, ``##`` and ``###`` (``heading_levels``), the
largest first."""

from __future__ import annotations

import re

HEADING = "\ue000"  # a private-use mark around a heading's size, until the pages read are ranked
HEADING_MARK = re.compile(f"{HEADING}([0-9.]+){HEADING}")
HEADING_RATIO = 1.15  # a line this much larger than the body text is a heading
HEADING_CHARS = 120
LEVEL_STEP = 0.9
BOLD_HEADING_RATIO = 0.95  # a bold line alone this large against the body text (or larger) is a heading


def heading_mark(line: list[dict], body: float, alone: bool) -> str | None:
    """A heading mark carrying the line's size, which ``heading_levels`` turns into ``#``s; or None."""
    words = [item for item in line if item.get("block") is None]
    if not words:
        return None
    size = max(item["size"] for item in words)
    text = " ".join(item["text"] for item in words)
    larger = size >= HEADING_RATIO * body and len(text) <= HEADING_CHARS
    bold = (
        alone
        and all(item["bold"] for item in words)
        and size >= BOLD_HEADING_RATIO * body
        and len(text) <= HEADING_CHARS
        and not text.endswith((".", ":", ","))
    )
    return f"{HEADING}{size:.1f}{HEADING}" if larger or bold else None


def heading_levels(texts: list[str]) -> list[str]:
    """``texts`` with each heading mark made ``#``, ``##`` or ``###`` by the size of its line
    against every heading size in ``texts`` (the pages read): the largest is ``#``."""
    levels, level, top = {}, 0, 0.0
    for size in sorted({float(size) for text in texts for size in HEADING_MARK.findall(text)}, reverse=True):
        if not level or size < LEVEL_STEP * top:  # sizes within a tenth of each other are one level (20 and 22 pt)
            level, top = level + 1, size
        levels[f"{size:.1f}"] = "#" * min(level, 3)
    return [HEADING_MARK.sub(lambda match: levels[match.group(1)], text) for text in texts]
