"""The parts a chart is read from: its marks (the vector objects, with colours made comparable), its
numbers (tick labels, data labels) and its loose labels (turned labels, phrases, lines); the value
axes, legend and title built from them are in ``axes``."""

from __future__ import annotations

import math
import re

from ..figures import BACKGROUND_SHARE
from ..records import Boxed, Char, Item

NUMBER = re.compile(r"([+-]?)[$€£¥]?([+-]?)(\d{1,3}(?:,\d{3})+|\d+)?(?:[.·](\d+)|,(\d{1,2}))?\s?(%|°|k|K|M|B|bn)?")
SUPERSCRIPT = "⁰¹²³⁴⁵⁶⁷⁸⁹⁻"
SCALE = {"k": 1e3, "K": 1e3, "M": 1e6, "B": 1e9, "bn": 1e9}
# Tolerances set against the generated charts of testkit/fixtures/charts.py (matplotlib, reportlab, LibreOffice).
THIN = 1.5  # points: a rect thinner than this is drawn as a line (a rule, a tick, a gridline, a legend's line key)
PHRASE_GAP = 0.6  # of the font size: words on a line closer than this read as one label
SUPERSCRIPT_SIZE = 0.85  # of the digits' size: a power set smaller than this (and higher) is a superscript
DIGIT_MIDDLE = 0.36  # of the font size: the digits' middle above the baseline (half their height, about 0.72 em)
UPRIGHT_SLANT = 0.02  # sine of a glyph's turn (about 1.1°): a smaller one is upright, read as a word
BASELINE_SLACK = 0.3  # of the font size: turned glyphs whose baselines lie this close are one label
SPACE_GAP = 0.25  # of the font size: a wider gap between turned glyphs is a word space


class Mark:
    """One vector object: ``kind`` is rect, curve or line (thin rects and two-point paths)."""

    __slots__ = ("kind", "x0", "x1", "top", "bottom", "fill", "stroke", "pts", "path", "index")

    def __init__(self, kind, box, fill, stroke, pts, path, index):
        self.kind, (self.x0, self.top, self.x1, self.bottom) = kind, box
        self.fill, self.stroke, self.pts, self.path, self.index = fill, stroke, pts, path, index

    w = property(lambda self: self.x1 - self.x0)
    h = property(lambda self: self.bottom - self.top)
    cx = property(lambda self: (self.x0 + self.x1) / 2)
    cy = property(lambda self: (self.top + self.bottom) / 2)
    colour = property(lambda self: self.fill if self.fill is not None else self.stroke)

    def shape(self):
        """What a marker looks like, whatever its colour: a legend key drawn alike is its series."""
        return self.kind, len(self.pts or ()), round(self.w), round(self.h)


def colour(value):
    """A colour as 0-255 RGB, whatever space it was given in; None for none or a pattern."""
    if value is None or isinstance(value, str):
        return None
    if isinstance(value, (int, float)):
        value = (value,)
    try:
        value = tuple(float(v) for v in value)
    except (TypeError, ValueError):
        return None
    if len(value) == 1:
        value *= 3
    elif len(value) == 4:
        c, m, y, k = value
        value = ((1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k))
    elif len(value) != 3:
        return None
    return tuple(round(max(0.0, min(1.0, v)) * 255) for v in value)


def same_colour(a, b, tolerance: int = 4) -> bool:
    return a is not None and b is not None and all(abs(x - y) <= tolerance for x, y in zip(a, b))


def collect_marks(page, box, slack: float = 2.0) -> list[Mark]:
    """The page's vector objects inside ``box``, thin rects as lines, duplicates (a fill and its
    outline drawn apart) merged."""
    area = float(page.width) * float(page.height)
    found: dict[tuple, Mark] = {}
    for kind, objects in (("rect", page.rects), ("curve", page.curves), ("line", page.lines)):
        for obj in objects:
            x0, top, x1, bottom = obj["x0"], obj["top"], obj["x1"], obj["bottom"]
            if x0 < box[0] - slack or x1 > box[2] + slack or top < box[1] - slack or bottom > box[3] + slack:
                continue
            if (x1 - x0) * (bottom - top) >= BACKGROUND_SHARE * area:
                continue
            fill = colour(obj.get("non_stroking_color")) if obj.get("fill") and kind != "line" else None
            stroke = colour(obj.get("stroking_color")) if obj.get("stroke") or kind == "line" else None
            this, pts = kind, obj.get("pts") or []
            if (
                kind == "curve"
                and len(pts) <= 6
                and len({round(x) for x, _ in pts}) == 2
                and len({round(y) for _, y in pts}) == 2
            ):
                this = "rect"  # a rectangle drawn as a path
            if this == "rect" and min(x1 - x0, bottom - top) < THIN:
                this, stroke, fill = "line", fill or stroke, None
            key = (this, round(x0 * 2), round(top * 2), round(x1 * 2), round(bottom * 2))
            old = found.get(key)
            if old is not None:
                old.fill = old.fill if old.fill is not None else fill
                old.stroke = old.stroke if old.stroke is not None else stroke
                continue
            found[key] = Mark(this, (x0, top, x1, bottom), fill, stroke, obj.get("pts"), obj.get("path"), len(found))
    return list(found.values())


def axis_aligned(mark: Mark) -> bool:
    """Every segment of the mark runs flat or upright (a rule, a frame, a tick)."""
    pts = mark.pts or [(mark.x0, mark.top), (mark.x1, mark.bottom)]
    return all(abs(a[0] - b[0]) < 0.5 or abs(a[1] - b[1]) < 0.5 for a, b in zip(pts, pts[1:]))


# ------------------------------------------------------------------ numbers and words
def parse_number(text: str):
    """The number a label prints ("1,200", "−5", "45%", "$3.5", "12,5", "20k", "(4.2)" for −4.2), or None."""
    text = text.strip().replace("\u2212", "-").replace("\u2013", "-").replace("\u202f", "").replace("\u00a0", "")
    if len(text) > 2 and text.startswith("10") and all(c in SUPERSCRIPT for c in text[2:]):  # 10³ on a log axis
        return 10.0 ** int(text[2:].translate(str.maketrans(SUPERSCRIPT, "0123456789-")))
    negative = text.startswith("(") and text.endswith(")")
    match = NUMBER.fullmatch(text[1:-1] if negative else text.strip("[]"))
    if not match or match.group(3) is None:
        return None
    sign = -1.0 if "-" in (match.group(1) + match.group(2)) or negative else 1.0
    fraction = match.group(4) or match.group(5)
    digits = match.group(3).replace(",", "") + ("." + fraction if fraction else "")
    return sign * float(digits) * SCALE.get(match.group(6) or "", 1.0)


def superscript_power(word: Item, chars: list[Char]):
    """10 raised to a power set small and high after it (a log axis' "10²"), or None."""
    if not word["text"].startswith("10") or len(word["text"]) < 3:
        return None
    inside = sorted(
        (
            c
            for c in chars
            if c["x0"] >= word["x0"] - 0.5
            and c["x1"] <= word["x1"] + 0.5
            and c["top"] >= word["top"] - 0.5
            and c["bottom"] <= word["bottom"] + 0.5
        ),
        key=lambda c: c["x0"],
    )
    if len(inside) < 3 or "".join(c["text"] for c in inside[:2]) != "10":
        return None
    power = inside[2:]
    if all(c["size"] < SUPERSCRIPT_SIZE * inside[0]["size"] and c["top"] < inside[0]["top"] - 0.5 for c in power):
        exponent = parse_number("".join(c["text"] for c in power))
        if exponent is not None and exponent == int(exponent):
            return 10.0**exponent
    return None


def digit_middles(chars: list[Char], words: list[Item], ids) -> dict:
    """The middle height of each number's digits: its baseline less 0.36 of its size. A tick label is
    centred on its tick by its digits, while its box runs from the font's descent to its ascent,
    which sits it up to half a line off (4 pt in LibreOffice's charts)."""
    found = {}
    for i in ids:
        w = words[i]
        first = next(
            (
                c
                for c in chars
                if abs(c["x0"] - w["x0"]) < 0.5 and w["top"] - 0.5 <= c["top"] and c["bottom"] <= w["bottom"] + 0.5
            ),
            None,
        )
        if (
            first is not None and first.get("matrix") and "y1" in first
        ):  # the baseline is y1 less the glyph's ascent above it
            found[i] = first["top"] + (first["y1"] - first["matrix"][5]) - DIGIT_MIDDLE * first["size"]
    return found


class Turned:
    """A label set at an angle (a tick label turned 45° or 90°), rebuilt from its glyphs: its text,
    box, the end nearest the axis above it, and the words pdfplumber made of its glyphs (junk)."""

    __slots__ = ("text", "x0", "x1", "top", "bottom", "end", "ids")
    text: str
    x0: float
    x1: float
    top: float
    bottom: float
    end: float
    ids: set[int]

    cx = property(lambda self: (self.x0 + self.x1) / 2)


def turned_labels(chars: list[Char], words: list[Item]) -> list[Turned]:
    lines: list[list] = []
    for c in chars:
        a, b, _, _, e, f = c["matrix"]
        norm = math.hypot(a, b)
        if norm == 0 or abs(b) <= UPRIGHT_SLANT * norm:
            continue  # upright glyphs are read as words
        ux, uy = a / norm, b / norm
        lines.append([round(math.degrees(math.atan2(uy, ux))), -uy * e + ux * f, ux * e + uy * f, c])
    lines.sort(key=lambda t: (t[0], t[1]))
    runs: list[list] = []
    for t in lines:  # glyphs on one slanted baseline: one label
        if runs and runs[-1][-1][0] == t[0] and abs(runs[-1][-1][1] - t[1]) <= BASELINE_SLACK * t[3]["size"]:
            runs[-1].append(t)
        else:
            runs.append([t])
    found = []
    for run in runs:
        run.sort(key=lambda t: t[2])
        text = run[0][3]["text"]
        for p, q in zip(run, run[1:]):
            text += (" " if q[2] - (p[2] + p[3].get("adv", 0)) > SPACE_GAP * q[3]["size"] else "") + q[3]["text"]
        label = Turned()
        glyphs = [t[3] for t in run]
        label.text = " ".join(text.split())
        label.x0, label.x1 = min(g["x0"] for g in glyphs), max(g["x1"] for g in glyphs)
        label.top, label.bottom = min(g["top"] for g in glyphs), max(g["bottom"] for g in glyphs)
        high = min(glyphs, key=lambda g: g["top"])
        label.end = (high["x0"] + high["x1"]) / 2
        label.ids = {
            i
            for i, w in enumerate(words)
            for g in glyphs
            if w["x0"] - 0.5 <= (g["x0"] + g["x1"]) / 2 <= w["x1"] + 0.5
            and w["top"] - 0.5 <= (g["top"] + g["bottom"]) / 2 <= w["bottom"] + 0.5
        }
        if label.text:
            found.append(label)
    return found


def centre(word: Boxed) -> tuple[float, float]:
    return (word["x0"] + word["x1"]) / 2, (word["top"] + word["bottom"]) / 2


class Phrase:
    """Words that read as one label ("Small business"): its text, box and word indices."""

    __slots__ = ("text", "x0", "x1", "top", "bottom", "size", "ids")

    def __init__(self, words: list[Item], ids):
        self.ids = list(ids)
        self.text = " ".join(words[i]["text"] for i in self.ids)
        self.x0, self.x1 = min(words[i]["x0"] for i in self.ids), max(words[i]["x1"] for i in self.ids)
        self.top, self.bottom = min(words[i]["top"] for i in self.ids), max(words[i]["bottom"] for i in self.ids)
        self.size = max(words[i].get("size") or (words[i]["bottom"] - words[i]["top"]) for i in self.ids)

    cx = property(lambda self: (self.x0 + self.x1) / 2)
    cy = property(lambda self: (self.top + self.bottom) / 2)


def lines_of(words: list[Item], ids) -> list[list[int]]:
    """Word indices grouped into lines (vertical centres within the line), top to bottom, left to right."""
    rows: list[list[int]] = []
    for i in sorted(ids, key=lambda i: centre(words[i])[1]):
        if rows and words[rows[-1][0]]["top"] <= centre(words[i])[1] <= words[rows[-1][0]]["bottom"]:
            rows[-1].append(i)
        else:
            rows.append([i])
    return [sorted(row, key=lambda i: words[i]["x0"]) for row in rows]


def phrases(words: list[Item], ids, gap: float = PHRASE_GAP, stops=()) -> list[Phrase]:
    """Runs of words on one line closer than ``gap`` of their size, not across a ``stops`` x."""
    found = []
    for row in lines_of(words, ids):
        run = [row[0]]
        for i in row[1:]:
            a, b = words[run[-1]], words[i]
            size = a.get("size") or (a["bottom"] - a["top"])
            if b["x0"] - a["x1"] <= gap * size and not any(a["x1"] <= s <= b["x0"] for s in stops):
                run.append(i)
            else:
                found.append(Phrase(words, run))
                run = [i]
        found.append(Phrase(words, run))
    return found


# ------------------------------------------------------------------ value axes
