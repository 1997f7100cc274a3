"""Page furniture: running headers and footers, page numbers, stamps and line numbers, kept apart from the pages' text.

A running header ("ACME Corp — Annual report 2024") or footer ("Page 3 of 12") tells a model
nothing the page's own label (``[PAGE 3]``) does not, and repeated on every page it is noise in
every chunk; so are a download stamp ("Downloaded from … at 6:14"), a document code ("P/N
119-036", "Revision: 2.4") and the line numbers in a margin. They are not thrown away: they go to
``page.furniture``, and the prose never holds them.

Extraction tells some of them on the page alone: a piece of a line in the top or bottom band
(``band_furniture``; pieces are parted by a gap of ``PIECE_EMS``) set smaller than the body text
or in another font, that reads as a page number ("Page 3 of 12", "3", "- 3 -", "iii"), a download
stamp or a document code, and a column of increasing numbers in a margin, set smaller or in
another font (``margin_numbers``). A bare number counts only alone on its line, or on a line that
stands apart from the body: the last row of a table stays. Such lines leave the page's flow and
stand marked (``furniture_line``) at the start or the end of its text. Content at the edge (a
footnote, a caption, a table's last row) reads as none of these, and stays.

Other lines at the edge are told by repetition: extraction marks the lines standing at the page's
top or bottom edge (``edge_words``, ``edge_line``); ``without_furniture`` then compares the marked
lines of all the pages read: a line found on most of them is furniture, any other keeps its
place. Digits are made equal for the comparison, but a line that differs only in them is
furniture only if one of its numbers counts the pages (the page's number, give or take a fixed
offset) and the others stay the same: a page's last line "Subtotal 12.40" is data. A page read
alone has nothing to compare with and keeps those lines.
"""

from __future__ import annotations

import re
from collections import defaultdict

EDGE = "\ue001"  # a private-use mark round an edge line, until the pages read are compared
EDGE_MARK = re.compile(f"{EDGE}(.*?){EDGE}", re.S)
EDGE_BAND = 0.12  # of the page's height: how near the top or bottom an edge line stands
EDGE_LINES = 2  # lines at each edge that may be furniture (a header and a date, a footer and a page number)
HEADING_SIZE = re.compile(
    "[\ue000-\uf8ff][0-9.]*[\ue000-\uf8ff]"
)  # a heading mark carries the line's size: not the line's digits
NUMBER = re.compile(r"\d+")
FURNITURE = "\ue002"  # a private-use mark round a line told as furniture on its page alone
FURNITURE_MARK = re.compile(f"{FURNITURE}(.*?){FURNITURE}")
PIECE_EMS = (
    2.0  # a gap this wide (in ems of the words' size) parts a line into pieces: a running title and its page number
)
SMALLER = 0.95  # of the body text's size: smaller type than the body's
APART = (
    1.0  # line heights of empty space between a line and the body: a bare number on such a line is no table's last row
)
MARGIN_NUMBERS = 5  # increasing numbers in a column, at the least, to be line numbers
MARGIN_GAP = 0.5  # ems between line numbers and the text beside them, at the least

_ROMAN = r"(?=[ivxl])(?:xl|l?x{0,3})(?:ix|iv|v?i{0,3})"
BARE_NUMBER = re.compile(
    rf"[-–—]?\s*(?:\d{{1,4}}(?:\s*/\s*\d{{1,4}})?|{_ROMAN})\s*[-–—]?", re.I
)  # 3, 3 / 12, - 3 -, iii
_ATOMS = [
    r"(?:page|p\.|pg\.?)\s*\d{1,4}(?:\s*(?:of|/)\s*\d{1,4})?",  # Page 3, Page 3 of 12, p. 3
    # P/N 119-036
    r"(?:p/n|part\s+(?:no\.?|number)|doc(?:ument)?\.?\s*(?:no\.?|number|id|code))\s*[:#]?\s*[\w./-]*\d[\w./-]*",
    r"(?:rev(?:ision)?\.?|version|ver\.)\s*[:#]?\s*(?:[a-z]?\d[\w.-]*|[a-z]\b)",  # Revision: 2.4, Rev. B
]
_ATOM = "(?:" + "|".join(_ATOMS) + ")"
_STAMP = (
    r"(?:this\s+(?:content|article|document|file|pdf)\s+(?:was\s+)?)?downloaded\s+(?:from|by|on|at)\b.*"
    r"|download\s+date\b.*"
)
FURNITURE_TEXT = re.compile(rf"{_STAMP}|{_ATOM}(?:\s*[|·•,;]?\s*{_ATOM})*", re.I)


def edge_words(lines: list[list[dict]], top: float, bottom: float) -> set[int]:
    """The ids of the words on the first and last ``EDGE_LINES`` of ``lines`` (a page's lines,
    top to bottom) that stand within ``EDGE_BAND`` of the page's top or bottom edge."""
    band = EDGE_BAND * (bottom - top)
    heads = [line for line in lines[:EDGE_LINES] if max(word["bottom"] for word in line) <= top + band]
    feet = [line for line in lines[-EDGE_LINES:] if min(word["top"] for word in line) >= bottom - band]
    return {id(word) for line in heads + feet for word in line}


def edge_line(text: str) -> str:
    return f"{EDGE}{text}{EDGE}"


def furniture_line(text: str) -> str:
    return f"{FURNITURE}{text}{FURNITURE}"


def _text(words: list[dict]) -> str:
    return " ".join(word["text"] for word in words)


def _set_apart(words: list[dict], body: float, body_font: str) -> bool:
    """Set smaller than the body text, or in another font."""
    return max(word["size"] for word in words) < SMALLER * body or all(word["font"] != body_font for word in words)


def _pieces(line: list[dict]) -> list[list[dict]]:
    """A line's words (left to right) parted where a gap is ``PIECE_EMS`` wide."""
    pieces = [[line[0]]]
    for left, right in zip(line, line[1:]):
        if right["x0"] - left["x1"] > PIECE_EMS * max(left["size"], right["size"]):
            pieces.append([])
        pieces[-1].append(right)
    return pieces


def band_furniture(
    lines: list[list[dict]], top: float, bottom: float, body: float, body_font: str
) -> tuple[set[int], list[str], list[str]]:
    """The furniture a page shows on its own, in the top and bottom bands of its ``lines`` (words
    with their box, text, size and font; top to bottom, each left to right): the ids of its
    words, and its pieces' texts at the top and at the bottom."""
    band = EDGE_BAND * (bottom - top)
    taken: set[int] = set()
    found: tuple[list[str], list[str]] = ([], [])
    for index, line in enumerate(lines):
        at_top = max(word["bottom"] for word in line) <= top + band
        if not at_top and min(word["top"] for word in line) < bottom - band:
            continue
        # the line next to it towards the page's middle: a bare number close to it may be a table's last row
        inner = (
            lines[index + 1]
            if at_top and index + 1 < len(lines)
            else lines[index - 1]
            if not at_top and index
            else None
        )
        upper, lower = (line, inner) if at_top else (inner, line)
        height = max(word["bottom"] for word in line) - min(word["top"] for word in line)
        apart = (
            inner is None or min(word["top"] for word in lower) - max(word["bottom"] for word in upper) > APART * height
        )
        pieces = _pieces(line)
        for piece in pieces:
            text = _text(piece)
            bare = BARE_NUMBER.fullmatch(text) is not None
            if (FURNITURE_TEXT.fullmatch(text) or (bare and (len(pieces) == 1 or apart))) and _set_apart(
                piece, body, body_font
            ):
                taken.update(id(word) for word in piece)
                found[0 if at_top else 1].append(text)
    return taken, *found


def margin_numbers(words: list[dict], body: float, body_font: str) -> tuple[list[dict], list[str]]:
    """``words`` without the line numbers in the page's left or right margin, and what those were
    ("Line numbers 1–52"): a column of ``MARGIN_NUMBERS`` or more numbers, increasing down the
    page, aligned, beyond every other word's edge, set smaller than the body text or in another font."""
    numbers = [word for word in words if NUMBER.fullmatch(word["text"]) and len(word["text"]) <= 4]
    others = [word for word in words if not NUMBER.fullmatch(word["text"])]
    if len(numbers) < MARGIN_NUMBERS or not others:
        return words, []
    left, right = min(word["x0"] for word in others), max(word["x1"] for word in others)
    taken: set[int] = set()
    found = []
    for outside in (
        lambda word: word["x1"] < left - MARGIN_GAP * word["size"],
        lambda word: word["x0"] > right + MARGIN_GAP * word["size"],
    ):
        column = sorted((word for word in numbers if outside(word)), key=lambda word: word["top"])
        if len(column) < MARGIN_NUMBERS or not _set_apart(column, body, body_font):
            continue
        values = [int(word["text"]) for word in column]
        em = max(word["size"] for word in column)
        aligned = any(
            max(word[edge] for word in column) - min(word[edge] for word in column) <= em for edge in ("x0", "x1")
        )
        if aligned and all(a < b for a, b in zip(values, values[1:])):
            taken.update(id(word) for word in column)
            found.append(f"Line numbers {values[0]}\u2013{values[-1]}")
    return [word for word in words if id(word) not in taken], found


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


def without_furniture(texts: dict[int, str]) -> tuple[dict[int, str], dict[int, list[str]]]:
    """``texts`` (page number: the page's text) without their furniture, and each page's furniture
    in the order it stands: the lines marked as such on their page, and the edge lines that repeat
    on most of the pages read; every other edge line is unmarked and keeps its place."""
    seen: dict[str, dict[int, str]] = defaultdict(dict)
    for number, text in texts.items():
        for line in EDGE_MARK.findall(text) + FURNITURE_MARK.findall(
            text
        ):  # a page number told on one page counts on the others
            seen[_key(line)].setdefault(number, line)
    repeated = {
        key
        for key, pages in seen.items()
        if len(pages) >= 2 and 2 * len(pages) > len(texts) and _counts_pages(sorted(pages.items()))
    }
    result, furniture = {}, {}
    for number, text in texts.items():
        lines = text.split("\n")
        kept, apart = [], []
        for line in lines:
            edge = EDGE_MARK.fullmatch(line)
            marked = FURNITURE_MARK.fullmatch(line) or (edge if edge and _key(edge.group(1)) in repeated else None)
            if marked:
                apart.append(" ".join(HEADING_SIZE.sub("", marked.group(1)).split()))
            else:
                kept.append(line)
        text = EDGE_MARK.sub(r"\1", "\n".join(kept))
        # A line left out leaves the blank lines round it, or none where it ended a paragraph; a
        # page's text has no blank runs of its own.
        result[number] = re.sub(r"\n{3,}", "\n\n", text).strip("\n") if apart else text
        furniture[number] = apart
    return result, furniture
