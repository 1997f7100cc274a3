"""Page furniture: running headers and footers, page numbers, stamps and line numbers, kept apart from the pages' text.

A running header ("ACME Corp — Annual report 2024") or footer ("Page 3 of 12") tells a model
nothing the page's own label (``[PAGE 3]``) does not, and repeated on every page it is noise in
every chunk; so are a download stamp ("Downloaded from … at 6:14"), a document code ("P/N
119-036", "Revision: 2.4") and the line numbers in a margin. They are not thrown away: they go to
``page.furniture``, and the prose never holds them.

Extraction tells most of them on the page alone (``band_furniture``), as a reader does: by where
a line stands, how it is set and what it says. From each edge inwards, while every line so far was
furniture, a line within ``RUNNING_BAND`` of the edge is furniture as a whole when it holds a page
number, a stamp ("Downloaded from … at 6:14", "Download date: …", "Digitized by …"), a browser's
print date, a notice ("© …", "Published by …", "Use subject to …"), a journal's line ("March 2014 |
Volume 8 | Issue 3") or a link standing apart, beside a few words (a running title and its page
number: "10 Row and Column Access Control Support in IBM DB2 for i"); or when it is a running head:
a few words in at most two pieces that read as no sentence and no amount, apart from the body and
set smaller (at the foot, another font will do), and no line of a paragraph or a footnote. Within
``EDGE_BAND``, a piece of any line (pieces are parted by a gap of ``PIECE_EMS``) is furniture when
it reads as a page number ("Page 3 of 12", "3", "- 3 -", "iii", "7-45") or a document code set
apart from the body; a bare number counts only alone on its line, or on a line that stands apart
from the body: the last row of a table stays. A column of increasing numbers in a margin, set
smaller or in another font, is line numbers (``margin_numbers``); a line or two turned on their
side in the margin are a stamp (``readers.pdf.layout``). Such lines leave the page's flow and
stand marked (``furniture_line``) at the start or the end of its text. Content at the edge (a
footnote, a caption, a table's last row or header, a slide's own link) reads as none of these, and
stays.

Other lines at the edge are told by repetition: extraction marks the lines standing at the page's
top or bottom edge (``edge_words``, ``edge_line``); ``without_furniture`` then compares the marked
lines of all the pages read: a line found on most of them is furniture, any other keeps its
place. Digits are made equal for the comparison, but a line that differs only in them is
furniture only if one of its numbers counts the pages (the page's number, give or take a fixed
offset) and the others stay the same: a page's last line "Subtotal 12.40" is data.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from statistics import median

from .records import Item

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
    rf"[-–—]?\s*(?:\d{{1,5}}(?:\s*/\s*\d{{1,4}})?|\d{{1,3}}[-–]\d{{1,4}}|{_ROMAN})\s*[-–—]?", re.I
)  # 3, 3 / 12, - 3 -, iii, a chapter's page 7-45
_PAGE = r"(?:page|p\s?a\s?g\s?e|página|pagina|seite|p\.|pg\.?)\s*\|?\s*\d{1,5}(?:\s*(?:of|de|di|von|/)\s*\d{1,5})?"
_ATOMS = [
    _PAGE,  # Page 3, Page 3 of 12, p. 3, Página 12 de 14, P a g e | 23
    # P/N 119-036
    r"(?:p/n|part\s+(?:no\.?|number)|doc(?:ument)?\.?\s*(?:no\.?|number|id|code))\s*[:#]?\s*[\w./-]*\d[\w./-]*",
    r"(?:rev(?:ision)?\.?|version|ver\.)\s*[:#]?\s*(?:[a-z]?\d[\w.-]*|[a-z]\b)",  # Revision: 2.4, Rev. B
]
_ATOM = "(?:" + "|".join(_ATOMS) + ")"
_STAMP = (
    r"(?:this\s+(?:content|article|document|file|pdf)\s+(?:was\s+)?)?downloaded\s+(?:from|by|on|at)\b.*"
    r"|download\s+date\b.*|digitized\s+by\b.*"
)
_URL = r"(?:source:\s*)?(?:https?://|www\.)\S+(?:\s+\d{1,4}\s*/\s*\d{1,4})?"  # a link alone, with a print's 1/34
_PRINTED = r"\d{1,2}/\d{1,2}/\d{2,4},?\s+\d{1,2}:\d{2}(?:\s*[ap]m)?"  # a browser's print: 10/1/24, 3:42 PM
_NOTICE = r"(?:©|\(c\)\s|copyright\b|all\s+rights\s+reserved|published\s+by\b|use\s+subject\s+to\b).*"
_JOURNAL = r"[^|]+(?:\s\|\s[^|]+){2,}"  # March 2014 | Volume 8 | Issue 3 | e2748
FURNITURE_TEXT = re.compile(rf"{_STAMP}|{_URL}|{_PRINTED}|{_NOTICE}|{_JOURNAL}|{_ATOM}(?:\s*[|·•,;]?\s*{_ATOM})*", re.I)
# what is furniture at the page's edge whatever its type; a document code is only when set apart
# (a manual's cover names its part number as content)
EDGE_TEXT = re.compile(rf"{_STAMP}|{_PRINTED}|{_NOTICE}|{_JOURNAL}|{_PAGE}(?:\s*[|·•,;]?\s*{_PAGE})*", re.I)
LINK_ALONE = re.compile(_URL, re.I)  # a link alone at the edge, apart from the body (a slide's own link is content)
PAGE_AT_END = re.compile(rf"^{_PAGE}\b|\b{_PAGE}$", re.I)  # "ANEXO I-A-1 Página 12 de 14"
LINK = re.compile(r"https?://|www\.", re.I)
FOOTNOTE = re.compile(r"^(?:\d{1,2}|[*†‡§¶])\s+\S")  # "1 Torque values …", "* Called …": a note, not furniture
SENTENCE_END = re.compile(r"[.!?:;][\"'’”)\]]*$")
WORDLIKE = re.compile(r"[^\W\d_]{2}")  # a running head has words: a brace or a dash alone is content
AMOUNT = re.compile(r"\d[\d,]*\.\d{2}\b|\b\d{1,3}(?:,\d{3})+\b")  # 1,204.50: a total or a balance is data
# Measured on real pages: a running head stands within 15% of its edge (LNCS papers' at 12–13%), is
# a line of a few words (a book's or a report's title, a chapter), never a sentence, and is set
# apart from the body (smaller, or in another font) with space between.
RUNNING_BAND = 0.15  # of the page's height
RUNNING_WORDS = 14
RUNNING_PIECES = 2  # a title on the left, a chapter on the right
SAME_SIZE = 0.5  # points: lines this close in size are set alike
COLUMN_EDGE = 0.5  # points: numbers ending this close stand in one column
# words, at most, of a line beside its page number or a stamp ("Federal Register / Vol. 85, No. 152 /
# Thursday, August 6, 2020 / Proposed Rules  47699"), or of a publisher's line with its link
LINKED_WORDS = 25


def edge_words(lines: list[list[Item]], top: float, bottom: float) -> set[int]:
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


def _text(words: list[Item]) -> str:
    return " ".join(word["text"] for word in words)


def _set_apart(words: list[Item], body: float, body_font: str | None) -> bool:
    """Set smaller than the body text, or in another font."""
    return max(word["size"] for word in words) < SMALLER * body or all(word["font"] != body_font for word in words)


def _pieces(line: list[Item]) -> list[list[Item]]:
    """A line's words (left to right) parted where a gap is ``PIECE_EMS`` wide."""
    pieces = [[line[0]]]
    for left, right in zip(line, line[1:]):
        if right["x0"] - left["x1"] > PIECE_EMS * max(left["size"], right["size"]):
            pieces.append([])
        pieces[-1].append(right)
    return pieces


def _apart(line: list[Item], inner: list[Item] | None, at_top: bool) -> bool:
    """Space of ``APART`` line heights or more between ``line`` and the line next to it towards the
    page's middle (or nothing there)."""
    if inner is None:
        return True
    upper, lower = (line, inner) if at_top else (inner, line)
    height = max(word["bottom"] for word in line) - min(word["top"] for word in line)
    return min(word["top"] for word in lower) - max(word["bottom"] for word in upper) > APART * height


def _in_band(line: list[Item], at_top: bool, top: float, bottom: float, share: float) -> bool:
    band = share * (bottom - top)
    return max(w["bottom"] for w in line) <= top + band if at_top else min(w["top"] for w in line) >= bottom - band


def _page_number(
    pieces: list[list[Item]],
    numbers: list[list[Item]],
    inner: list[Item] | None,
    apart: bool,
    outermost: bool,
    body: float,
    body_font: str | None,
) -> bool:
    """Whether the one bare number among a line's ``pieces`` is its page number: on the outermost
    line, unless that line reads as a table's row (more pieces than a running title, its date and its
    number, next to the body: "002 Africa  …  Guinea  324 GN  GIN  x", a sheet's last row with its
    mark "x" at the foot); else alone on its line, or on a line apart from the body, and set apart (a
    table's last row, next to the body and with numbers of its own, stays). A number ending where one of
    the line inside ends is a column's: a table's last row at the page's foot ("Item 6.  Exhibits  22"
    under "… 22")."""
    numbered = len(pieces) > 1 and pieces[0] is numbers[0] and inner and NUMBER.fullmatch(inner[0]["text"])
    end = numbers[0][-1]["x1"] if numbers else 0.0
    columned = any(abs(word["x1"] - end) <= COLUMN_EDGE and BARE_NUMBER.fullmatch(word["text"]) for word in inner or [])
    if len(numbers) != 1 or numbered or columned:
        return False  # one number alone; a line's number beside the next line's is a transcript's numbering
    row = len(pieces) > RUNNING_PIECES + 1 and not apart
    return (outermost and not row) or ((len(pieces) == 1 or apart) and _set_apart(numbers[0], body, body_font))


def _continues(line: list[Item], lines: list[list[Item]], at_top: bool) -> bool:
    """Whether ``line`` goes on from (or into) a line of its own type just inside it, on the same
    column: the last line of a footnote beside a column of body text."""
    height = max(word["bottom"] for word in line) - min(word["top"] for word in line)
    left, right = min(word["x0"] for word in line), max(word["x1"] for word in line)
    size, font = median(word["size"] for word in line), Counter(word["font"] for word in line).most_common(1)[0][0]
    for other in lines:
        if other is line or abs(median(word["size"] for word in other) - size) > SAME_SIZE:
            continue
        if Counter(word["font"] for word in other).most_common(1)[0][0] != font:
            continue
        upper, lower = (line, other) if at_top else (other, line)
        gap = min(word["top"] for word in lower) - max(word["bottom"] for word in upper)
        overlap = min(right, max(w["x1"] for w in other)) > max(left, min(w["x0"] for w in other))
        if overlap and 0 <= gap <= APART * height:
            return True
    return False


def _running(
    line: list[Item],
    lines: list[list[Item]],
    parts: list[list[Item]],
    apart: bool,
    at_top: bool,
    body: float,
    body_font: str | None,
) -> bool:
    """Whether the outermost ``line`` (nothing but furniture between it and the page's edge) is
    furniture as a whole: a few words beside a piece told as furniture (a running title and its page
    number, a print's date and the page's title); a repository's or publisher's line with its link;
    or a running head, a few words set apart from the body that read as no sentence."""
    text = _text(line)
    words = len(text.split())
    if parts:
        return words <= LINKED_WORDS or FURNITURE_TEXT.fullmatch(text) is not None
    smaller = median(word["size"] for word in line) < SMALLER * body
    if FOOTNOTE.match(text) and smaller and (len(line) < 2 or line[0]["font"] == line[1]["font"]):
        return False  # a note's marker is set as its note; a running foot's page number stands out
    if PAGE_AT_END.search(text) or (apart and LINK.search(text)):
        return words <= LINKED_WORDS
    if len(_pieces(line)) > RUNNING_PIECES or _continues(line, lines, at_top):
        return False  # words in columns (a table's header at the top of a page), or a paragraph's line
    other_font = Counter(word["font"] for word in line).most_common(1)[0][0] != body_font
    set_apart = smaller or (other_font and not at_top)
    reads_as_data = SENTENCE_END.search(text) or AMOUNT.search(text) or not WORDLIKE.search(text)
    return (apart or (smaller and other_font)) and words <= RUNNING_WORDS and not reads_as_data and set_apart


def band_furniture(
    lines: list[list[Item]], top: float, bottom: float, body: float, body_font: str | None
) -> tuple[set[int], list[str], list[str]]:
    """The furniture a page shows on its own, at the top and the bottom of its ``lines`` (words
    with their box, text, size and font; top to bottom, each left to right): the ids of its words,
    and its texts at the top and at the bottom, in the order they stand.

    From each edge inwards, while every line so far was furniture, a line within ``RUNNING_BAND``
    may be furniture as a whole (``_running``); within ``EDGE_BAND`` a piece of any line is furniture
    when it reads as such: a page number, a stamp, a link, a notice, a document code."""
    taken: set[int] = set()
    found: dict[bool, list[list[str]]] = {True: [], False: []}  # each line's pieces, from the edge inwards
    for at_top, ordered in ((True, lines), (False, lines[::-1])):
        outermost = True
        for index, line in enumerate(ordered):
            if not _in_band(line, at_top, top, bottom, RUNNING_BAND if outermost else EDGE_BAND):
                break
            inner = ordered[index + 1] if index + 1 < len(ordered) else None
            apart, pieces = _apart(line, inner, at_top), _pieces(line)
            numbers = [piece for piece in pieces if BARE_NUMBER.fullmatch(_text(piece))]
            parts = [
                piece
                for piece in pieces
                if (outermost and (EDGE_TEXT.fullmatch(_text(piece)) or (apart and LINK_ALONE.fullmatch(_text(piece)))))
                or (FURNITURE_TEXT.fullmatch(_text(piece)) and _set_apart(piece, body, body_font))
                or (piece in numbers and _page_number(pieces, numbers, inner, apart, outermost, body, body_font))
            ]
            if outermost and _running(line, lines, parts, apart, at_top, body, body_font):
                parts = [line]
            outermost = outermost and parts == [line]
            taken.update(id(word) for piece in parts for word in piece)
            found[at_top].append([_text(piece) for piece in parts])
    heads, feet = found[True], found[False][::-1]
    return taken, [text for line in heads for text in line], [text for line in feet for text in line]


def margin_numbers(words: list[Item], body: float, body_font: str | None) -> tuple[list[Item], list[str]]:
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


def _parted(lines: list[str], repeated: set[str]) -> tuple[list[str], list[str]]:
    """``lines`` parted into those kept and the furniture's texts: the lines marked as furniture on
    their page, and the edge lines whose key is ``repeated``."""
    kept, apart = [], []
    for line in lines:
        edge = EDGE_MARK.fullmatch(line)
        marked = FURNITURE_MARK.fullmatch(line) or (edge if edge and _key(edge.group(1)) in repeated else None)
        if marked:
            apart.append(" ".join(HEADING_SIZE.sub("", marked.group(1)).split()))
        else:
            kept.append(line)
    return kept, apart


def without_furniture(texts: dict[int, str]) -> tuple[dict[int, str], dict[int, list[str]]]:
    """``texts`` (page number: the page's text) without their furniture, and each page's furniture
    in the order it stands: the lines marked as such on their page, and the edge lines that repeat
    on most of the pages read, unless they are all the page holds (each page of a form or a generated
    report says what the others say but for its number); every other edge line is unmarked and
    keeps its place."""
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
        kept, apart = _parted(text.split("\n"), repeated)
        if not any(line.strip() for line in kept):  # repetition never takes a page's whole body (a form's pages)
            kept, apart = _parted(text.split("\n"), set())
        text = EDGE_MARK.sub(r"\1", "\n".join(kept))
        # A line left out leaves the blank lines round it, or none where it ended a paragraph; a
        # page's text has no blank runs of its own.
        result[number] = re.sub(r"\n{3,}", "\n\n", text).strip("\n") if apart else text
        furniture[number] = apart
    return result, furniture
