"""Running headers and footers, kept out of the pages' text.

A running header ("ACME Corp — Annual report 2024") or footer ("Page 3 of 12") tells a model
nothing the page's own label (``[PAGE 3]``) does not, and repeated on every page it is noise in
every chunk. Extraction cannot tell one from a page, so it marks the lines standing at the page's
top or bottom edge (``edge_words``, ``edge_line``); ``without_furniture`` then compares the
marked lines of all the pages read: a line found on most of them is furniture and left out, any
other keeps its place. Digits are made equal for the comparison, but a line that differs only in
them is furniture only if one of its numbers counts the pages (the page's number, give or take a
fixed offset) and the others stay the same: a page's last line "Subtotal 12.40" is data. A page
read alone has nothing to compare with and keeps its lines.
"""

from __future__ import annotations

import re
from collections import defaultdict

EDGE = "\ue001"  # a private-use mark round an edge line, until the pages read are compared
EDGE_MARK = re.compile(f"{EDGE}(.*?){EDGE}", re.S)
EDGE_BAND = 0.12  # of the page's height: how near the top or bottom an edge line stands
EDGE_LINES = 2  # lines at each edge that may be furniture (a header and a date, a footer and a page number)
HEADING_SIZE = re.compile("[\ue000-\uf8ff][0-9.]*[\ue000-\uf8ff]")  # a heading mark carries the line's size: not the line's digits
NUMBER = re.compile(r"\d+")


def edge_words(lines: list[list[dict]], top: float, bottom: float) -> set[int]:
    """The ids of the words on the first and last ``EDGE_LINES`` of ``lines`` (a page's lines,
    top to bottom) that stand within ``EDGE_BAND`` of the page's top or bottom edge."""
    band = EDGE_BAND * (bottom - top)
    heads = [line for line in lines[:EDGE_LINES] if max(word["bottom"] for word in line) <= top + band]
    feet = [line for line in lines[-EDGE_LINES:] if min(word["top"] for word in line) >= bottom - band]
    return {id(word) for line in heads + feet for word in line}


def edge_line(text: str) -> str:
    return f"{EDGE}{text}{EDGE}"


def _key(line: str) -> str:
    return " ".join(NUMBER.sub("#", HEADING_SIZE.sub("", line)).casefold().split())


def _counts_pages(found: list[tuple[int, str]]) -> bool:
    """Lines alike but for their digits (``(page, line)``, one a page) are furniture when each
    of their numbers stays the same or follows the page's number, and one follows it."""
    numbers = [[int(run) for run in NUMBER.findall(HEADING_SIZE.sub("", line))] for _, line in found]
    if len({len(runs) for runs in numbers}) != 1:
        return False
    counting = False
    for position in range(len(numbers[0])):
        values = [runs[position] for runs in numbers]
        if len(set(values)) == 1:
            continue
        if len({value - page for value, (page, _) in zip(values, found)}) != 1:
            return False
        counting = True
    return counting or len({line for _, line in found}) == 1


def without_furniture(texts: dict[int, str]) -> dict[int, str]:
    """``texts`` (page number: the page's text) with the edge lines that repeat on most of the
    pages read left out, and every other edge line unmarked."""
    seen: dict[str, dict[int, str]] = defaultdict(dict)
    for number, text in texts.items():
        for line in EDGE_MARK.findall(text):
            seen[_key(line)].setdefault(number, line)
    furniture = {key for key, pages in seen.items()
                 if len(pages) >= 2 and 2 * len(pages) > len(texts) and _counts_pages(sorted(pages.items()))}
    result = {}
    for number, text in texts.items():
        lines = text.split("\n")
        kept = [line for line in lines if not ((edge := EDGE_MARK.fullmatch(line)) and _key(edge.group(1)) in furniture)]
        text = EDGE_MARK.sub(r"\1", "\n".join(kept))
        # A line left out leaves the blank lines round it, or none where it ended a paragraph; a page's text has no blank runs of its own.
        result[number] = re.sub(r"\n{3,}", "\n\n", text).strip("\n") if len(kept) < len(lines) else text
    return result
