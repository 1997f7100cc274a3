"""A PDF page's words, with word spaces found against each line's own letter spacing.

Many PDFs draw no space glyphs: each word is placed on its own, or moved along by a kerning
offset, so a word space is only a wider gap between two letters. How wide depends on the type:
tight letter spacing (a negative character spacing, common in dense tables) draws letters that
overlap and words a fraction of a point apart. A fixed tolerance (pdfplumber's 3 pt, or a fixed
share of the font size) glues such words ("CITIBANK-TRAVELCBACARD"). Here each gap is measured in
ems of its character's size against the line's usual gap between letters (the median gap, when it
is tighter than none): a gap ``WORD_EMS`` wider than that parts two words. Each word carries its
line's baseline, where a table's rows are told apart (``readers.pdf.cells``): boxes overlap when
rows are set tight, and sit higher or lower with each font's descent.

A page printed or scanned askew (a scan's text layer follows the scan) is read as if it were
square (``straightened``): its lines would otherwise run into the ones below them.

Text as typed: a spacing accent drawn over a letter (TeX's "Ja´n Mina´cˇ") is set on it, composed
("Ján Mináč", ``with_accents``); a run in another font on the same baseline is on the same line
whatever its top, so a bold label and its text keep their punctuation ("OLMo 2."); and Arabic or
Hebrew, drawn left to right as it is seen, comes in the order it is read, in its letters
(``logical``, ``reads_right_to_left``). A glyph struck twice a hair apart to fake a bold is read
once (``struck_once``), and one pdfminer cannot map (``(cid:N)``) is asked of pdfium (``mapped``).
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from statistics import median

import numpy as np
from pdfplumber.utils import extract_words
from pdfplumber.utils.text import LIGATURES

from .records import Boxed, Char, Item, Word

WORD_EMS = (
    0.1  # letters sit within a few hundredths of an em of their usual spacing; the narrowest word space is about 0.2 em
)
LINE_EMS = (
    0.3  # of the size: tops this close are one line (pdfplumber's 3 pt at 10 pt), and so are baselines in a table's row
)
SKEW_SHARPER = 1.1  # how much better lines must line up at a slope than level for the page to be straightened
SKEW_CHARS = 50  # fewer characters are too few to measure a slope on
SKEW_SAMPLE = 150  # characters enough to measure it on: a denser page is sampled
SKEW_HALF_DEGREES = 10  # slopes tried, in half degrees either way: a page set askew by up to 5°
SKEW_MOST = 0.1  # of a glyph's matrix, b against a (tan, about 5.7°): a steeper turn is on purpose, not a skew
ON_AXIS = 1e-3  # of a glyph's matrix, its small term against its large one: less is square to the page (0.06°)
ASCENT = 0.8  # of the size: a skewed glyph drawn level stands this far above its baseline (a usual font's)
DESCENT = 0.2  # of the size: and this far below it
RIGHT_TO_LEFT = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]")  # Hebrew, Arabic, their presentation forms
PRESENTATION = re.compile("[\ufb50-\ufdff\ufe70-\ufeff]")  # Arabic letters' contextual shapes
SAME_BASELINE = 0.1  # points: characters this close in baseline stand on one line, whatever their tops
# spacing accents as TeX and old fonts draw them beside their letter, and the combining marks they stand for
SPACING_ACCENTS = {
    "\u00b4": "\u0301",  # ´ acute
    "`": "\u0300",  # grave
    "\u02c6": "\u0302",  # ˆ circumflex
    "^": "\u0302",
    "\u00a8": "\u0308",  # ¨ diaeresis
    "\u02c7": "\u030c",  # ˇ caron
    "\u02dc": "\u0303",  # ˜ tilde
    "~": "\u0303",
    "\u00af": "\u0304",  # ¯ macron
    "\u02d8": "\u0306",  # ˘ breve
    "\u02d9": "\u0307",  # ˙ dot above
    "\u02da": "\u030a",  # ˚ ring above
    "\u00b8": "\u0327",  # ¸ cedilla
    "\u02db": "\u0328",  # ˛ ogonek
    "\u02dd": "\u030b",  # ˝ double acute
}
TURNED_SPACE = 0.15  # of the size: a wider gap parts words in turned text, which has no line's spacing to measure
CID = re.compile(r"^\(cid:\d+\)$")  # pdfminer's name for a glyph it cannot map to text
LEFT_OUT = "\u200b"  # stands for a glyph neither pdfminer nor pdfium can map
RESTRUCK = 0.1  # of the size: the same glyph drawn again this close is one glyph struck twice (a bold faked)


def struck_once(chars: list[Char]) -> list[Char]:
    """``chars`` without the second strokes of a glyph drawn twice, a hair apart, to make it look
    bold or shadowed: "EENNFFOORRCCEEDD" is read "ENFORCED". The glyphs are sorted by what they are,
    then by row (in steps of the nearness) and place along it: a second stroke follows its first."""
    if len(chars) < 2:
        return chars
    glyph = np.array([hash((c["text"], c.get("fontname"), c["size"], c["upright"])) for c in chars])
    x = np.array([c["x0"] for c in chars])
    top = np.array([c["top"] for c in chars])
    near = RESTRUCK * np.array([c["size"] for c in chars]) + 1e-9
    order = np.lexsort((x, np.floor(top / near), glyph))
    x, top, near, glyph = x[order], top[order], near[order], glyph[order]
    again = (glyph[1:] == glyph[:-1]) & (np.abs(x[1:] - x[:-1]) <= near[1:]) & (np.abs(top[1:] - top[:-1]) <= near[1:])
    if not again.any():
        return chars
    dropped = {int(order[index + 1]) for index in np.flatnonzero(again) if chars[order[index + 1]]["text"].strip()}
    return [char for index, char in enumerate(chars) if index not in dropped]


def baseline(char: Char) -> float:
    """The character's baseline, from the page's top: its box's bottom less the font's descent."""
    return char["bottom"] - (char["matrix"][5] - char["y0"])


def text_lines(chars: list[Char]) -> list[list[Char]]:
    """Upright ``chars`` grouped into lines by their tops, top to bottom, each left to right, their
    spacing accents set on their letters (``with_accents``). Tops, as pdfplumber groups them: a
    superscript's top is level with its line's, its baseline is not; and a run in another font on the
    same baseline (a bold caption's label before its regular text) is on the same line, whatever its
    top. A large glyph whose top stands below a small one's bottom is on a line of its own (a cover's
    title under its authors' names)."""
    lines: list[list[Char]] = []
    last, base = None, None
    for char in sorted(chars, key=lambda char: char["top"]):
        near = last and char["top"] - last["top"] <= LINE_EMS * char["size"] and char["top"] < last["bottom"]
        if lines and (near or abs(baseline(char) - base) <= SAME_BASELINE):
            lines[-1].append(char)
        else:
            lines.append([char])
            base = baseline(char)
        last = char
    return [with_accents(sorted(line, key=lambda char: char["x0"])) for line in lines]


def with_accents(line: list[Char]) -> list[Char]:
    """``line`` (left to right) with each spacing accent that stands over a letter beside it set on
    that letter, composed: LaTeX draws "Ján Mináč" as "Ja´n Mina´cˇ", an accent glyph over a letter."""
    composed: list[Char] = []
    for index, char in enumerate(line):
        mark = SPACING_ACCENTS.get(char["text"])
        if mark:
            centre = (char["x0"] + char["x1"]) / 2
            after = line[index + 1] if index + 1 < len(line) else None
            for neighbour, at in ((composed[-1] if composed else None, -1), (after, 1)):
                if neighbour and neighbour["text"].isalpha() and neighbour["x0"] <= centre <= neighbour["x1"]:
                    letter: Char = {**neighbour, "text": unicodedata.normalize("NFC", neighbour["text"] + mark)}
                    if at < 0:
                        composed[-1] = letter
                    else:
                        line[index + 1] = letter
                    break
            else:
                composed.append(char)
            continue
        composed.append(char)
    return composed


def _gap(left: Char, right: Char) -> float:
    return (right["x0"] - left["x1"]) / max(left["size"], 1.0)


def _letter_gap(line: list[Char]) -> float:
    """The line's usual gap between two letters, in ems; never wider than none, so a line of
    one-letter words still parts them."""
    gaps = [_gap(left, right) for left, right in zip(line, line[1:]) if left["text"].strip() and right["text"].strip()]
    return min(0.0, median(gaps)) if gaps else 0.0


def logical(glyphs: list[str]) -> str:
    """A word from its glyphs' texts, left to right as it is seen. A right-to-left script (Arabic,
    Hebrew), which PDFs draw left to right as it is seen, comes in the order it is read: its runs
    from the right, the glyphs of a right-to-left run from the right too (a run of Latin letters or
    digits inside it keeps its own order), each presentation form (an Arabic letter's shape at the
    start, middle or end of a word) as its letter."""
    if not any(RIGHT_TO_LEFT.search(glyph) for glyph in glyphs):
        return "".join(glyphs)
    runs: list[list[str]] = []
    for glyph in glyphs:
        rtl = bool(RIGHT_TO_LEFT.search(glyph))
        if runs and bool(RIGHT_TO_LEFT.search(runs[-1][0])) == rtl:
            runs[-1].append(glyph)
        else:
            runs.append([glyph])
    text = "".join("".join(run[::-1] if RIGHT_TO_LEFT.search(run[0]) else run) for run in runs[::-1])
    return "".join(unicodedata.normalize("NFKC", c) if PRESENTATION.match(c) else c for c in text)


def reads_right_to_left(words: list[Item]) -> bool:
    """Whether most of a line's words are in a right-to-left script: its words are read from the right."""
    return 2 * sum(1 for word in words if RIGHT_TO_LEFT.search(word["text"])) > len(words)


def _word(chars: list[Char], base: float) -> Word:
    return {
        "text": logical([LIGATURES.get(char["text"], char["text"]) for char in chars]),
        "chars": chars,
        "base": base,
        "x0": min(char["x0"] for char in chars),
        "x1": max(char["x1"] for char in chars),
        "top": min(char["top"] for char in chars),
        "bottom": max(char["bottom"] for char in chars),
    }


def line_words(line: list[Char]) -> list[Word]:
    """The words of one line of characters (``text_lines``), left to right."""
    cut = _letter_gap(line) + WORD_EMS
    base = median(baseline(char) for char in line)
    words: list[Word] = []
    current: list[Char] = []
    for char in line:
        if not char["text"].strip():
            if current:
                words.append(_word(current, base))
            current = []
        elif current and _gap(current[-1], char) > cut:
            words.append(_word(current, base))
            current = [char]
        else:
            current.append(char)
    if current:
        words.append(_word(current, base))
    return words


def is_level(char: Char) -> bool:
    """Set along the page's width (upright or slanted as an italic), not turned: pdfminer counts
    text turned by up to 45 degrees (a chart's axis labels) upright too."""
    return abs(char["matrix"][1]) <= ON_AXIS * abs(char["matrix"][0])


def _sharpness(points: list[tuple[float, float]], slope: float) -> int:
    """How tightly the points' baselines gather on rows of one point once ``slope`` is taken out:
    the sum of each row's count squared."""
    return sum(count * count for count in Counter(round(y - x * slope) for x, y in points).values())


def _slope(chars: list[Char]) -> float:
    """How far the page's lines fall per point to the right (a scan's text layer, a page printed or
    scanned askew), or 0 when they are level: the slope, to a tenth of a degree within 5°, at which
    the characters' baselines gather on the fewest rows (tried every half degree, then round the best)."""
    sample = chars[:: max(1, len(chars) // SKEW_SAMPLE)]
    points = [
        (char["x0"], baseline(char))
        for char in sample
        if char["text"].strip() and abs(char["matrix"][1]) <= SKEW_MOST * abs(char["matrix"][0])
    ]
    if len(points) < SKEW_CHARS:
        return 0.0
    best = max(
        range(-SKEW_HALF_DEGREES, SKEW_HALF_DEGREES + 1),
        key=lambda half: _sharpness(points, math.tan(math.radians(half / 2))),
    )
    slopes = [math.tan(math.radians(best / 2 + tenth / 10)) for tenth in range(-4, 5)]
    found = max(slopes, key=lambda slope: _sharpness(points, slope))
    return found if _sharpness(points, found) > SKEW_SHARPER * _sharpness(points, 0.0) else 0.0


def straightened(chars: list[Char]) -> list[Char]:
    """``chars`` as if their page were set square: each moved up or down by the page's slope
    (``_slope``) at its place, and a glyph turned by that slope drawn level, with its advance as
    its width. Lines that fall across the page would otherwise run into the line below."""
    slope = _slope(chars)
    if not slope:
        return chars
    moved: list[Char] = []
    for char in chars:
        a, b, c, d, e, f = char["matrix"]
        base = baseline(char) - slope * char["x0"]
        height = char["bottom"] + char["y0"]  # the page's height, as the character's box gives it
        if abs(b) <= ON_AXIS * abs(a) or abs(b) > SKEW_MOST * abs(
            a
        ):  # level glyphs on a falling line, or text turned on purpose
            size, top, right, matrix = char["size"], char["top"] - slope * char["x0"], char["x1"], (a, b, c, d)
            descent = char["bottom"] - baseline(char)
        else:
            scale = math.hypot(a, b)
            size = (char["height"] - char["adv"] * abs(b) / scale) / (abs(a) / scale)
            top, right, matrix, descent = (
                base - ASCENT * size,
                char["x0"] + char["adv"],
                (scale, 0.0, 0.0, scale),
                DESCENT * size,
            )
        bottom = base + descent
        moved.append(
            {
                **char,
                "top": top,
                "bottom": bottom,
                "x1": right,
                "y0": height - bottom,
                "y1": height - top,
                "size": size,
                "matrix": (*matrix, e, height - base),
            }
        )
    return moved


def page_words(chars: list[Char]) -> list[Word]:
    """The words of upright ``chars``: each with its box, text, characters and baseline (``base``),
    on a page set askew as if it were square (``straightened``). Text set at a slant has no line to
    measure letters along: pdfplumber's words, gaps as a share of the size."""
    chars = straightened(chars)
    words = [word for line in text_lines([char for char in chars if is_level(char)]) for word in line_words(line)]
    slanted = extract_words(
        [char for char in chars if not is_level(char)], x_tolerance_ratio=TURNED_SPACE, return_chars=True
    )
    return words + [{**word, "base": word["bottom"]} for word in slanted]


def set_upright(char: Char, up: bool, width: float, height: float) -> Char:
    """A character of text turned 90° (reading ``up`` the page, or down it) placed as it stands on
    the ``width`` by ``height`` page turned so that it reads left to right: its box moved, its
    baseline its box's bottom."""
    box: Boxed
    if up:
        box = {"x0": height - char["bottom"], "x1": height - char["top"], "top": char["x0"], "bottom": char["x1"]}
    else:
        box = {"x0": char["top"], "x1": char["bottom"], "top": width - char["x1"], "bottom": width - char["x0"]}
    return {**char, **box, "y0": 0.0, "matrix": (1.0, 0.0, 0.0, 1.0, 0.0, 0.0), "upright": True}


def mapped(chars: list[Char], pdfium_page, origin: tuple[float, float]) -> tuple[list[Char], int]:
    """Each ``(cid:N)`` char with the text pdfium reads at its place, or left out; and how many were left out."""
    if not any(CID.match(char["text"]) for char in chars):
        return chars, 0
    textpage = pdfium_page.get_textpage()
    kept: list[Char] = []
    dropped = 0
    try:
        for char in chars:
            if CID.match(char["text"]):
                # pdfminer gives such a glyph no width: ask pdfium for the character at its start, and its width.
                index = textpage.get_index(
                    char["x0"] + origin[0] + 0.5,
                    (char["y0"] + char["y1"]) / 2 + origin[1],
                    char["size"] / 2,
                    char["size"] / 2,
                )
                known = index is not None and index >= 0  # pypdfium2 answers None or -1 when no character is there
                found = textpage.get_text_range(index, 1) if known else ""
                right = textpage.get_charbox(index)[2] - origin[0] if known else char["x0"] + char["size"] / 2
                placed: Char = {**char, "x1": max(char["x1"], right)}
                if len(found) == 1 and found.isprintable() and not found.isspace():
                    kept.append({**placed, "text": found})
                else:  # left out, but its place kept by a zero-width space, so the word around it stays one word
                    kept.append({**placed, "text": LEFT_OUT})
                    dropped += 1
                continue
            kept.append(char)
    finally:
        textpage.close()
    return kept, dropped
