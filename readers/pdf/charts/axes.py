"""What frames a chart: its value axes (number labels lined up, stepping evenly, each moved onto
its tick), its legend (a swatch and the name beside it) and its title, found among the parts
``parts`` gives."""

from __future__ import annotations

import math

from ..records import Item
from .parts import PHRASE_GAP, THIN, Mark, Phrase, centre, lines_of, parse_number

SWATCH_GAP = 13.0  # points: a legend name starts this close to the right of its swatch
ALIGN = 1.6  # points: tick labels of one axis line up this closely
# Tolerances set against the generated charts of testkit/fixtures/charts.py (matplotlib, reportlab, LibreOffice).
SPAN_SHOWN = 100  # a reading's decimals show a hundredth of its axis' span
SPAN_FINEST = 10000  # and never resolve finer than a ten-thousandth of it
EVEN_RELATIVE = 1e-6  # of the first step: float error allowed between steps that are even
EVEN_ABSOLUTE = 1e-9  # and beside it, for steps near 0
TICK_REACH = 0.75  # of a label's height (width on an x axis): its tick or gridline lies this near its middle
SHIFT_AGREE = 0.75  # points: labels whose offsets to their ticks differ this little share one offset
OVERLAP = 0.6  # of a label's height (width on an x axis): labels closer than this stand on each other
FIT = 0.03  # of the labels' spread: a label further than this from the fitted line breaks the axis
SWATCH_WIDEST = 42  # points: the widest legend swatch (a line key with its marker)
SWATCH_SMALLEST = 2.5  # points: a patch or marker key's shorter side is at least this
MARKER_KEY = 12  # points: a key no larger (and not flat) is a marker, which stands mid-way along its slot
MARKER_REACH = 1.5 * SWATCH_GAP  # points: so its name may start this far right of it
FRAME_REACH = 24  # points: a legend's frame stands no further than this outside its entries
TITLE_WORDS = 14  # a line of more words is no chart title


class Axis:
    """Numeric tick labels along one side: ``vertical`` (a y axis) or not; positions snapped to
    their tick marks or gridlines; value = a + b * position (log10 value on a log axis)."""

    def __init__(self, vertical, ticks, log):
        self.vertical, self.ticks, self.log, self.rival = (
            vertical,
            ticks,
            log,
            None,
        )  # ticks: (position, value, word index)
        xs = [t[0] for t in ticks]
        ys = [math.log10(t[1]) if log else t[1] for t in ticks]
        mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
        self.b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
        self.a = my - self.b * mx
        self.ids = {t[2] for t in ticks}
        values = sorted(ys)
        self.step = min(b - a for a, b in zip(values, values[1:]))
        self.span = values[-1] - values[0]

    def value(self, pos: float) -> float:
        v = self.a + self.b * pos
        return 10.0**v if self.log else v

    def pos(self, value: float) -> float:
        return ((math.log10(value) if self.log else value) - self.a) / self.b

    def decimals(self) -> int:
        """One decimal more than the tick step warrants, and fine enough to show a hundredth of the
        span; never finer than a ten-thousandth of it."""
        if self.span <= 0 or self.step <= 0:
            return 1
        most = max(0, math.ceil(-math.log10(self.span / SPAN_FINEST)))
        return min(most, max(0, -math.floor(math.log10(self.step)) + 1, math.ceil(-math.log10(self.span / SPAN_SHOWN))))

    def read(self, pos: float) -> float:
        value = self.value(pos)
        if self.log:
            return float(f"{value:.3g}")
        return round(value, self.decimals()) + 0.0


def _evenly(values: list[float]) -> bool:
    steps = [b - a for a, b in zip(values, values[1:])]
    return (
        bool(steps)
        and all(abs(s - steps[0]) <= EVEN_RELATIVE * max(1.0, abs(steps[0])) + EVEN_ABSOLUTE for s in steps)
        and steps[0] > 0
    )


def _snap(vertical, found, words: list[Item], rules):
    """Each tick label's position moved onto its tick mark or gridline: the offset most labels share
    (a label's box sits a little off its tick, the same for all), so an axis line beside the last
    label does not pull it."""
    options = []
    for pos, _value, i in found:
        w = words[i]
        half = (w["bottom"] - w["top"] if vertical else w["x1"] - w["x0"]) * TICK_REACH
        near = []
        for r in rules:
            if vertical and r.h < THIN:
                at, reach = r.cy, max(0.0, r.x0 - w["x1"], w["x0"] - r.x1)
            elif not vertical and r.w < THIN:
                at, reach = r.cx, max(0.0, r.top - w["bottom"], w["top"] - r.bottom)
            else:
                continue
            if abs(at - pos) <= half and reach <= 16:
                near.append(at - pos)
        options.append(near)
    every = [o for near in options for o in near]
    if not every:
        return found
    shift = max(every, key=lambda o: sum(any(abs(o - p) <= SHIFT_AGREE for p in near) for near in options))
    if sum(any(abs(shift - p) <= SHIFT_AGREE for p in near) for near in options) * 2 < len(found):
        return found
    snapped = []
    for (pos, value, i), near in zip(found, options):
        best = min(near, key=lambda o: abs(o - shift), default=None)
        snapped.append((pos + (best if best is not None and abs(best - shift) <= SHIFT_AGREE else shift), value, i))
    return snapped


def find_axes(words: list[Item], numbers: dict, rules: list[Mark], middles=None):
    """The best vertical and horizontal numeric axes among ``numbers`` ({word index: value});
    ``middles`` gives a label's vertical middle better than its box does (see ``digit_middles``)."""
    best: dict = {True: None, False: None}
    every: dict = {True: [], False: []}
    for vertical in (True, False):
        keys = (
            (lambda w: w["x1"], lambda w: w["x0"], lambda w: centre(w)[0])
            if vertical
            else (lambda w: w["top"], lambda w: w["bottom"])
        )
        for key in keys:
            ordered = sorted(numbers, key=lambda i: key(words[i]))
            groups: list[list[int]] = []
            group: list[int] = []
            for i in ordered:
                if group and key(words[i]) - key(words[group[0]]) > ALIGN:
                    groups.append(group)
                    group = []
                group.append(i)
            groups.append(group)
            for group in groups:
                axis = _axis_of(vertical, group, words, numbers, rules, middles or {})
                if axis:
                    every[vertical].append(axis)
                if axis and (best[vertical] is None or len(axis.ticks) > len(best[vertical].ticks)):
                    best[vertical] = axis
    for vertical, axis in best.items():  # a second scale along the same direction (a right-hand y axis)
        if axis is not None:
            spread = abs(axis.ticks[-1][0] - axis.ticks[0][0])
            axis.rival = next(
                (
                    other
                    for other in every[vertical]
                    if not other.ids & axis.ids and abs(other.ticks[-1][0] - other.ticks[0][0]) >= 0.5 * spread
                ),
                None,
            )
    return best[True], best[False]


def _axis_of(vertical, group, words: list[Item], numbers, rules, middles):
    if len(group) < 3:
        return None
    found = sorted(
        ((middles.get(i, centre(words[i])[1]) if vertical else centre(words[i])[0], numbers[i], i) for i in group),
        key=lambda t: t[0],
    )
    sizes = [
        (words[i]["bottom"] - words[i]["top"]) if vertical else (words[i]["x1"] - words[i]["x0"]) for _, _, i in found
    ]
    if any(b[0] - a[0] < OVERLAP * min(s1, s2) for a, b, s1, s2 in zip(found, found[1:], sizes, sizes[1:])):
        return None  # labels on top of each other are no axis
    values = [t[1] for t in found]
    if values[0] > values[-1]:
        values = values[::-1]
    log = False
    if not _evenly(values):
        if not (
            all(v > 0 for v in values)
            and _evenly([round(math.log10(v), 6) for v in values])
            and values[-1] / values[0] >= 100
        ):
            return None
        log = True
    axis = Axis(vertical, _snap(vertical, found, words, rules), log)
    spread = found[-1][0] - found[0][0]
    fitted = [axis.pos(v) for _, v, _ in axis.ticks]
    if spread <= 0 or max(abs(f - t[0]) for f, t in zip(fitted, axis.ticks)) > FIT * spread:
        return None
    return axis


# ------------------------------------------------------------------ legend
class Entry:
    __slots__ = ("name", "colour", "shape", "marks", "ids", "box")

    def __init__(self, name, colour_, shape, marks, ids, box):
        self.name, self.colour, self.shape, self.marks, self.ids, self.box = name, colour_, shape, marks, ids, box


def find_legend(words: list[Item], marks: list[Mark], taken: set) -> list[Entry]:
    """Legend entries: a small swatch (patch, line or marker) with a name starting just right of it."""
    small = [
        m
        for m in marks
        if m.w <= SWATCH_WIDEST
        and m.h <= 16
        and m.colour is not None
        and (
            m.w >= 8 and m.h < THIN and m.fill is None
            if m.kind == "line" or m.h < THIN
            else min(m.w, m.h) >= SWATCH_SMALLEST
        )
    ]  # a patch, a marker or a flat line
    free = [i for i in range(len(words)) if i not in taken]
    pairs = []
    for m in small:
        reach = (
            MARKER_REACH if max(m.w, m.h) <= MARKER_KEY and m.h >= THIN else SWATCH_GAP
        )  # a marker key stands mid-way along its slot
        near = [
            i
            for i in free
            if -0.5 <= words[i]["x0"] - m.x1 <= reach and words[i]["top"] - 2 <= m.cy <= words[i]["bottom"] + 2
        ]
        if near:
            pairs.append((m, min(near, key=lambda i: words[i]["x0"])))
    # A number beside a small bar is its data label: numeric names need a column or row of swatches.
    numeric = [p for p in pairs if parse_number(words[p[1]]["text"]) is not None]
    if numeric and not (
        len(numeric) >= 2
        and (len({round(m.x0) for m, _ in numeric}) == 1 or len({round(m.cy) for m, _ in numeric}) == 1)
    ):
        pairs = [p for p in pairs if p not in numeric]
    stops = [m.x0 for m, _ in pairs]
    entries, seen = [], set()
    for m, first in sorted(pairs, key=lambda p: (round(p[0].cy), p[0].x0)):
        if first in seen:
            continue
        run = [first]
        for i in sorted(free, key=lambda i: words[i]["x0"]):
            last = words[run[-1]]
            if (
                i not in run
                and words[i]["x0"] > last["x1"] - 0.5
                and abs(centre(words[i])[1] - centre(last)[1]) < 2
                and words[i]["x0"] - last["x1"] <= PHRASE_GAP * (last.get("size") or 10)
                and not any(last["x1"] <= s <= words[i]["x0"] for s in stops)
            ):
                run.append(i)
        seen.update(run)
        inner = [
            o
            for o in marks
            if o is not m
            and o.x0 >= m.x0 - 1
            and o.x1 <= m.x1 + 1
            and o.top >= m.top - 4
            and o.bottom <= m.bottom + 4
            and o.w <= SWATCH_WIDEST
            and o.h <= 16
        ]
        key = (
            m if m.h >= 3 or not inner else max(inner, key=lambda o: o.h)
        )  # a line key with its marker: the marker's shape
        name = Phrase(words, run)
        box = (min(m.x0, name.x0), min(m.top, name.top), name.x1, max(m.bottom, name.bottom))
        line_colour = m.stroke if m.fill is None else m.fill
        entries.append(Entry(name.text, line_colour, key.shape(), [m, *inner], run, box))
    return entries


def legend_frame(entries: list[Entry], marks: list[Mark]) -> list[Mark]:
    """The box drawn round a legend: it holds every entry and little else."""
    if not entries:
        return []
    x0, top = min(e.box[0] for e in entries), min(e.box[1] for e in entries)
    x1, bottom = max(e.box[2] for e in entries), max(e.box[3] for e in entries)
    return [
        m
        for m in marks
        if m.x0 <= x0 + 1
        and m.x1 >= x1 - 1
        and m.top <= top + 1
        and m.bottom >= bottom - 1
        and m.x0 >= x0 - FRAME_REACH
        and m.x1 <= x1 + FRAME_REACH
        and m.top >= top - FRAME_REACH
        and m.bottom <= bottom + FRAME_REACH
    ]


# ------------------------------------------------------------------ loose labels
def title_of(words: list[Item], free: list[int], above: float):
    """The chart's title: the largest-set line standing above ``above`` (the plot's top)."""
    rows = list(lines_of(words, [i for i in free if words[i]["bottom"] <= above + 1]))
    rows = [row for row in rows if len(row) <= TITLE_WORDS]
    if not rows:
        return None, []
    size = lambda row: max(words[i].get("size") or 0 for i in row)
    row = max(rows, key=lambda r: (round(size(r), 1), -words[r[0]]["top"]))
    return " ".join(words[i]["text"] for i in row), row
