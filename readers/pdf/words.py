"""A PDF page's words, with word spaces found against each line's own letter spacing.

Many PDFs draw no space glyphs: each word is placed on its own, or moved along by a kerning
offset, so a word space is only a wider gap between two letters. How wide depends on the type:
tight letter spacing (a negative character spacing, common in dense tables) draws letters that
overlap and words a fraction of a point apart; a heading set letter-spaced draws them apart. A
fixed tolerance (pdfplumber's 3 pt, or a fixed share of the font size) glues the first
("CITIBANK-TRAVELCBACARD") and breaks the second. Here each gap is measured in ems of its
character's size against the line's letter spacing and its space's width (``line_words``); a space
glyph parts two words where it is drawn between them, and only there: one drawn over other text
(a form's padding) is left out (``placed_spaces``). Each word carries its line's baseline, where a
table's rows are told apart (``readers.pdf.cells``): boxes overlap when rows are set tight, and sit
higher or lower with each font's descent.

A page printed or scanned askew (a scan's text layer follows the scan) is read as if it were
square (``straightened``): its lines would otherwise run into the ones below them.

Text as typed: a spacing accent drawn over a letter (TeX's "Ja´n Mina´cˇ") is set on it, composed
("Ján Mináč", ``with_accents``); a run in another font on the same baseline is on the same line
whatever its top, so a bold label and its text keep their punctuation ("OLMo 2."); and Arabic or
Hebrew, drawn left to right as it is seen, comes in the order it is read, in its letters (``logical``,
``reads_right_to_left``). A glyph struck twice a hair apart to fake a bold is read once
(``struck_once``); one pdfminer cannot map (``(cid:N)``) is asked of pdfium (``readers.pdf.pdfium_text.mapped``).
"""

from __future__ import annotations

import math
import re
import unicodedata
from bisect import bisect_right
from collections import Counter
from collections.abc import Sequence
from statistics import median
from typing import TypeVar, cast

import numpy as np
from pdfplumber.utils import extract_words
from pdfplumber.utils.text import LIGATURES

from .records import Boxed, Char, Item, Word

# of a space's width: a gap this much wider than the letter spacing parts two words. Letters sit within a few
# hundredths of an em of their usual spacing; the narrowest word space is about 0.2 em, a usual space 0.25 em
WORD_SHARE = 0.4
# of the spread of a line's letter gaps (their median distance from their median): a gap parts words only this far
# past the letter spacing too. A font whose widths the PDF does not keep to places its letters up to a tenth of an
# em from their usual spacing, 4.3 times their spread (a data sheet in Arial: 0.024 em); in type set as its
# widths say the spread is under a hundredth of an em. It parts words ``TRACKING_MOST`` past the letter spacing at
# most: in a line of few glyphs that draws no spaces its words' gaps are in the spread ("5   1   -3" in a table)
LETTER_SPREAD = 5
SPACE_EMS = 0.25  # a space's width when the line draws none (Times' is 0.25 em, Helvetica's 0.28)
TRACKING_MOST = 0.3  # ems: letters set farther apart are words, whatever the line's spacing (a table's cells)
LEADERS = frozenset(".·_-…")  # a row of these is a leader ("Total .......... 12"), one word however spaced
LEADER_EMS = 0.5  # a leader's glyphs stand closer than this
LETTER_RUN = 3  # gaps alike in a row: a word set letter-spaced; two are two word spaces ("Register / Vol.")
LETTER_RUN_EMS = 0.03  # gaps this close to each other are alike: an OCR layer spaces a word's letters evenly
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
Row = TypeVar("Row", list[str], list[str | None])  # a table's row of cells, a ruled one's empty ones None
PRESENTATION = re.compile("[\ufb50-\ufdff\ufe70-\ufeff]")  # Arabic letters' contextual shapes
SAME_BASELINE = 0.1  # points: characters this close in baseline stand on one line, whatever their tops
SCRIPT_SIZE = 0.85  # of a line's largest glyph: one this small beside a glyph of the line is a script (TeX's: 0.7)
SCRIPT_SMALLEST = 0.5  # of it: a script's script is half its line's size; smaller text beside a drop cap is no script
SCRIPT_REACH = 0.3  # of a glyph's size: how far from it its script stands, at most
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
    """Upright ``chars`` (in the order the PDF draws them) grouped into lines by their tops, top to
    bottom, each left to right, their spacing accents set on their letters (``with_accents``) and
    their space glyphs where they part words (``placed_spaces``). Tops, as pdfplumber groups them,
    but each against the line's first top, never the last one's, so a staircase of tops between two
    lines (a form's boxes, a sidebar's lines) does not chain them into one line read letter by letter
    ("efafectiUve.Sly." for "effectively" over "U.S."): a superscript's top is level with its line's,
    its baseline is not; and a run in another font on the
    same baseline (a bold caption's label before its regular text) is on the same line, whatever its
    top, and so is a subscript (smaller, its middle within the line: "q₁", "H₂O"). A large glyph whose
    top stands below a small one's bottom is on a line of its own (a cover's title under its authors'
    names)."""
    lines: list[list[Char]] = []
    first, base = None, 0.0  # the line's topmost character, and its baseline
    for char in sorted(chars, key=lambda char: char["top"]):
        near = first and char["top"] - first["top"] <= LINE_EMS * char["size"] and char["top"] < first["bottom"]
        if lines and (near or abs(baseline(char) - base) <= SAME_BASELINE or _script(char, lines[-1])):
            lines[-1].append(char)
        else:
            lines.append([char])
            first, base = char, baseline(char)
    beside = _drawn_beside(chars)
    return [
        with_accents(placed_spaces(sorted(part, key=lambda char: char["x0"]), beside))
        for line in lines
        for part in _unstacked(line)
    ]


def _unstacked(line: list[Char]) -> list[list[Char]]:
    """``line``, or its baselines one line each, top to bottom, when letters of two of them stand one
    over the other: a footer's two lines beside a page number set large across both ("Working Paper
    Series No 1299" over "Febuary 2011", level with the number's top and its baseline) are no one line
    read letter by letter ("SeFreiebsu aNroy")."""
    levels: list[list[Char]] = []
    for char in sorted(line, key=baseline):
        if levels and baseline(char) - baseline(levels[-1][-1]) <= SAME_BASELINE:
            levels[-1].append(char)
        else:
            levels.append([char])
    spans = [[(char["x0"], char["x1"]) for char in level if char["text"].isalnum()] for level in levels]
    stacked = any(
        min(a1, b1) - max(a0, b0) > (min(a1 - a0, b1 - b0)) / 2
        for index, upper in enumerate(spans)
        for lower in spans[index + 1 :]
        for a0, a1 in upper
        for b0, b1 in lower
    )
    return levels if stacked else [line]


def _script(char: Char, line: list[Char]) -> bool:
    """Whether ``char`` is a sub- or superscript on ``line``: set smaller than the line's largest
    glyph, but not so small that the line is a drop cap or a title beside smaller text, and next to a
    glyph of the line, its middle within that glyph's height ("q₁", "H₂O", "x₁₂")."""
    letters = [glyph for glyph in line if glyph["text"].strip()]
    if not char["text"].strip() or not letters:
        return False  # a space has no size to tell by: one set large would take the line below as its script
    size = max(glyph["size"] for glyph in letters)
    if not SCRIPT_SMALLEST * size <= char["size"] <= SCRIPT_SIZE * size:
        return False
    middle = (char["top"] + char["bottom"]) / 2
    return any(
        glyph["top"] < middle < glyph["bottom"]
        and max(char["x0"] - glyph["x1"], glyph["x0"] - char["x1"]) <= SCRIPT_REACH * glyph["size"]
        for glyph in letters
    )


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


def _drawn_beside(chars: list[Char]) -> dict[int, tuple[Char | None, Char | None]]:
    """Each space glyph of ``chars`` (in the order the PDF draws them), by ``id``: the glyphs drawn
    just before and after it."""
    beside: dict[int, tuple[Char | None, Char | None]] = {}
    waiting: list[Char] = []
    before = None
    for char in chars:
        if char["text"].strip():
            for space in waiting:
                beside[id(space)] = (before, char)
            waiting, before = [], char
        else:
            waiting.append(char)
    for space in waiting:
        beside[id(space)] = (before, None)
    return beside


def placed_spaces(line: list[Char], beside: dict[int, tuple[Char | None, Char | None]]) -> list[Char]:
    """``line`` (left to right) with each space glyph that stands over a letter set where it parts
    two words: between the glyphs drawn just before and after it (``beside``), when they stand side
    by side on the line; else left out, since it parts nothing there. A run of spaces drawn as a field's padding
    reaches over the next field, drawn at its own place (a report's dates read "0 3 / 2 5 / 2 0 16"
    for "03/25/2016"), and an OCR layer's space may stand over the next word's first letter
    ("C'ESTa vec" for "C'EST avec"). A space in a gap stays as it is drawn."""
    letters = [char for char in line if char["text"].strip()]
    if len(letters) == len(line):
        return line
    starts = [char["x0"] for char in letters]
    order = {id(char): index for index, char in enumerate(letters)}
    placed: list[Char] = []
    for char in line:
        centre = (char["x0"] + char["x1"]) / 2
        under = bisect_right(starts, centre) - 1
        if char["text"].strip() or under < 0 or centre >= letters[under]["x1"]:
            placed.append(char)
            continue
        sides = sorted(order.get(id(glyph), -len(line)) for glyph in beside.get(id(char), (None, None)) if glyph)
        if len(sides) == 2 and sides[0] >= 0 and sides[1] == sides[0] + 1:  # drawn between neighbours on the line
            left, right = letters[sides[0]], letters[sides[1]]
            x0 = left["x1"] if left["x1"] < right["x0"] else (left["x0"] + right["x0"]) / 2
            placed.append({**char, "x0": x0, "x1": x0 + char["x1"] - char["x0"]})  # its width kept: a space's
    return sorted(placed, key=lambda char: char["x0"])


def _spacing(line: list[Char]) -> tuple[list[tuple[Char, Char, bool]], float, float, float]:
    """The line's neighbouring glyphs (each pair with whether a space glyph stands between them), its
    letter spacing (the usual gap between two letters of a word, in ems), the spread of its letter
    gaps (their median distance from it) and its space's width in ems.

    The letter spacing is the middle gap between glyphs with no space between them: tight in dense
    tables, wide in a heading set letter-spaced. A line that draws no spaces gives no such proof, so
    there it is never wider than none (a line of one-letter words still parts them), and it is
    never wider than ``TRACKING_MOST``. The space's width is that of the line's space glyphs, or
    ``SPACE_EMS`` when it draws none."""
    pairs: list[tuple[Char, Char, bool]] = []
    spaces: list[float] = []
    left, spaced = None, False
    for char in line:
        if not char["text"].strip():
            spaced = True
            spaces.append((char["x1"] - char["x0"]) / max(char["size"], 1.0))
            continue
        if left is not None:
            pairs.append((left, char, spaced))
        left, spaced = char, False
    gaps = [_gap(a, b) for a, b, spaced in pairs if not spaced]
    middle = median(gaps) if gaps else 0.0
    spread = median(abs(gap - middle) for gap in gaps) if gaps else 0.0
    letter = min(middle, TRACKING_MOST) if any(spaced for *_, spaced in pairs) else min(0.0, middle)
    return pairs, letter, spread, median(spaces) if spaces else SPACE_EMS


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


def reads_right_to_left(words: Sequence[Item] | Sequence[Word]) -> bool:
    """Whether most of a line's words are in a right-to-left script: its words are read from the right."""
    return 2 * sum(1 for word in words if RIGHT_TO_LEFT.search(word["text"])) > len(words)


def phrase_text(words: Sequence[Item] | Sequence[Word]) -> str:
    """A run of one line's words (left to right as seen) as it is read: from the right in a
    right-to-left script."""
    return " ".join(word["text"] for word in (words[::-1] if reads_right_to_left(words) else words))


def right_to_left(rows: Sequence[Sequence[str | None]]) -> bool:
    """Whether a table's body's letters (the rows under its first) are mostly in a right-to-left script."""
    text = "".join(cell for row in rows[1:] or rows for cell in row if cell)
    return 2 * len(RIGHT_TO_LEFT.findall(text)) > sum(char.isalpha() for char in text)


def in_reading_order(rows: list[Row]) -> list[Row]:
    """A table's rows (each left to right as seen) with their cells in the order they are read: from its right
    when its body reads right to left ("Country" is an Arabic table's first column), whatever its header's script."""
    return [row[::-1] for row in rows] if right_to_left(rows) else rows


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
    """The words of one line of characters (``text_lines``), left to right: a space glyph between two
    glyphs parts them, and so does a gap ``WORD_SHARE`` of a space wider than the line's letter
    spacing (and ``LETTER_SPREAD`` times its letter gaps' spread, if more: ``_spacing``); a row of dots
    or rules (a leader) is one word, and so is a letter-spaced run in a line that draws its spaces
    (``_letter_spaced``)."""
    pairs, letter, spread, space = _spacing(line)
    cut = letter + max(WORD_SHARE * space, min(LETTER_SPREAD * spread, TRACKING_MOST))
    parts = [
        spaced
        or (
            _gap(left, right) > cut
            and not (left["text"] == right["text"] in LEADERS and _gap(left, right) < LEADER_EMS)
        )
        for left, right, spaced in pairs
    ]
    if any(spaced for *_, spaced in pairs):
        parts = _letter_spaced(pairs, parts)
    base = median(baseline(char) for char in line)
    words: list[Word] = []
    current: list[Char] = [pairs[0][0]] if pairs else [char for char in line if char["text"].strip()][:1]
    for (_, right, _), part in zip(pairs, parts):
        if part:
            words.append(_word(current, base))
            current = []
        current.append(right)
    if current:
        words.append(_word(current, base))
    return [word for word in words if word["text"].strip(LEFT_OUT)]  # a glyph left out alone is no word


def _letter_spaced(pairs: list[tuple[Char, Char, bool]], parts: list[bool]) -> list[bool]:
    """``parts`` (whether each pair of neighbouring glyphs is parted) with each letter-spaced run kept
    whole: ``LETTER_RUN`` or more gaps in a row, none with a space drawn in it, each within
    ``LETTER_RUN_EMS`` of the first and narrower than ``TRACKING_MOST``. An OCR layer spreads each
    word's letters over the word's box on the scan ("A l e t t er"), a heading may be set so; a line
    that draws its spaces says where its words part, and two gaps alike ("Register / Vol.") are words."""
    kept, start = list(parts), 0
    while start < len(pairs):
        first = _gap(*pairs[start][:2])
        end = start
        while (
            end < len(pairs)
            and parts[end]
            and not pairs[end][2]
            and abs(_gap(*pairs[end][:2]) - first) <= LETTER_RUN_EMS
            and first < TRACKING_MOST
        ):
            end += 1
        if end - start >= LETTER_RUN:
            kept[start:end] = [False] * (end - start)
        start = max(end, start + 1)
    return kept


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
        cast(list[dict], [char for char in chars if not is_level(char)]),
        x_tolerance_ratio=TURNED_SPACE,
        return_chars=True,
    )
    return words + [cast(Word, {**word, "base": word["bottom"]}) for word in slanted]


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
