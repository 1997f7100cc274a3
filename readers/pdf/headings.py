"""Headings of a PDF page, from the evidence a reader uses: a line set larger than the page's body
text, or a short bold line standing alone (or numbered as a section and leading its paragraph), is
marked with its size (``heading_mark``) while the page is laid out; once the pages read are
compared, the sizes become ``#``, ``##`` and ``###`` (``heading_levels``), the largest first. A line's
size is its words' middle one, so one glyph set large makes no heading; over a scan, whose OCR layer
sizes each line by its box, a heading is set half as large again as the body. A heading is never a
paragraph: more than two lines, or fifteen words, are body text (``as_body``)."""

from __future__ import annotations

import re
from statistics import median

from .records import Item

HEADING = "\ue000"  # a private-use mark around a heading's size, until the pages read are ranked
HEADING_MARK = re.compile(f"{HEADING}([0-9.]+){HEADING}")
HEADING_RATIO = 1.15  # a line this much larger than the body text is a heading
# An OCR layer over a scan gives each line the size of its box on the scan: sizes wander by a
# fifth either way (measured on real book scans), so only a line half as large again is a heading.
SCAN_HEADING_RATIO = 1.5
HEADING_CHARS = 120
LEVEL_STEP = 0.9
ALPHANUMERIC = re.compile(r"[^\W_]")
SECTION_NUMBER = re.compile(r"(?:\d+\.)*\d+\.?\s+\S")  # 2.1.1 Pretraining data, 3. Results
BOLD_HEADING_RATIO = 0.95  # a bold line alone this large against the body text (or larger) is a heading
HEADING_LINES = 2  # a heading set on more lines is a paragraph set large
HEADING_WORDS = 15  # a heading of more words is a paragraph: the longest titles run to a dozen words


def heading_mark(
    line: list[Item], body: float, alone: bool, leads: bool = False, ratio: float = HEADING_RATIO
) -> str | None:
    """A heading mark carrying the line's size, which ``heading_levels`` turns into ``#``s; or None:
    a line set larger than the body text, or a bold line standing ``alone`` (or, numbered as a
    section, leading a paragraph in plain type: "2.1.1 Pretraining data"). ``ratio``: how much larger
    a heading is set (``SCAN_HEADING_RATIO`` for an OCR layer, whose line sizes follow the scan)."""
    words = [item for item in line if item.get("block") is None]
    if not any(ALPHANUMERIC.search(item["text"]) for item in words):
        return None  # a rule drawn with dashes
    size = median(item["size"] for item in words)  # one glyph set large (an OCR layer's dash) makes no heading
    text = " ".join(item["text"] for item in words)
    larger = size >= ratio * body and len(text) <= HEADING_CHARS
    bold = (
        (alone or (leads and SECTION_NUMBER.match(text) is not None))
        and all(item["bold"] for item in words)
        and size >= BOLD_HEADING_RATIO * body
        and len(text) <= HEADING_CHARS
        and not text.endswith((".", ":", ","))
    )
    return f"{HEADING}{size:.1f}{HEADING}" if larger or bold else None


def as_body(lines: list[list[Item]], marks: list[str | None]) -> list[str | None]:
    """``marks`` (one per line of a paragraph's ``lines``) with each run of lines marked alike that is
    too long for a heading cleared: more than ``HEADING_LINES`` lines or ``HEADING_WORDS`` words is
    body text, whatever its size (a page whose footnotes outnumber its body sets the body larger than
    the page's most common size)."""
    kept, start = list(marks), 0
    while start < len(marks):
        end = start + 1
        while end < len(marks) and marks[end] == marks[start]:
            end += 1
        words = sum(len(item["text"].split()) for line in lines[start:end] for item in line)
        if marks[start] and (end - start > HEADING_LINES or words > HEADING_WORDS):
            kept[start:end] = [None] * (end - start)
        start = end
    return kept


def heading_levels(texts: list[str]) -> list[str]:
    """``texts`` with each heading mark made ``#``, ``##`` or ``###`` by the size of its line
    against every heading size in ``texts`` (the pages read): the largest is ``#``."""
    levels, level, top = {}, 0, 0.0
    for size in sorted({float(size) for text in texts for size in HEADING_MARK.findall(text)}, reverse=True):
        if not level or size < LEVEL_STEP * top:  # sizes within a tenth of each other are one level (20 and 22 pt)
            level, top = level + 1, size
        levels[f"{size:.1f}"] = "#" * min(level, 3)
    return [HEADING_MARK.sub(lambda match: levels[match.group(1)], text) for text in texts]
