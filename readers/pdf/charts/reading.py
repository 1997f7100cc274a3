"""Chart data recovered from a vector chart drawn on a PDF page: bars (vertical, horizontal, grouped,
stacked), lines, areas, pies and donuts, scatter plots.

``read_chart(page, box, words)`` reads a drawing figure's marks (pdfplumber rects, curves, lines)
against its labels and returns a ``Chart`` (title, kind, series, categories, values) or None when
the drawing is not a chart it can rebuild with confidence; ``grouped_labels(words)`` is the fallback
that sorts a chart-like drawing's labels into title, axis ticks, legend and labels.

- **Axes.** A value axis is three or more number labels lined up (right, left or centre for a y
  axis; top or bottom for an x axis) whose values step evenly (or by decades: a log axis) and
  whose positions fit a line; each label's position is moved onto its tick mark or gridline.
- **Series** come from the legend: a small swatch (patch, line or marker) with a name just right of
  it, matched by fill or stroke colour (by marker shape when a marker's colour was lost).
- **Values** are the printed data labels when every mark has one that agrees with the drawing;
  otherwise the marks' ends are mapped through the value axis and rounded to its precision.
- **Pies**: filled curves whose arcs share one centre and whose angular spans add up to a full
  turn; a wedge's share is its span, its name the legend entry of its colour or the label nearest
  its middle direction. A donut is the same with a hole.

Four modules: this one (the API, the context a figure is read in, pies and the fallback),
``kinds`` (bars, lines, areas, scatter plots), ``axes`` (value axes, legend, title) and ``parts``
(marks, colours, numbers, labels). ``tests/test_charts.py`` checks them on generated charts with known
numbers; ``python -m bench charts`` times them (well under a millisecond for a usual chart, a few
for hundreds of marks).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from statistics import median

from ...markup.charts import chart_heading, number_text
from ...markup.tables import markdown_table
from ..records import Item
from .axes import TITLE_WORDS, find_axes, find_legend, legend_frame, title_of
from .kinds import ANGLES, DRAWN, PRINTED, read_xy
from .parts import (
    Phrase,
    collect_marks,
    digit_middles,
    lines_of,
    parse_number,
    phrases,
    same_colour,
    superscript_power,
    turned_labels,
)

ODD_DRAWING = (
    ArithmeticError,
    ValueError,
    IndexError,
    KeyError,
    TypeError,
    AttributeError,
)  # what a malformed drawing makes the readers raise
GLYPHS_FAR = 150  # points left of and below the box: a turned tick label runs this far from its plot
GLYPHS_NEAR = 30  # points right of and above the box where its glyphs are gathered too
EPSILON = 1e-6  # guards a division: points in a row, or parallel normals, have no centre
# Tolerances set against the generated charts of testkit/fixtures/charts.py (matplotlib, reportlab, LibreOffice).
ARC_CENTRES = 0.03  # of the radius: a wedge's arcs have their centres this close to their median
ARC_SHARE = 0.6  # of a wedge's arcs: so many must share its centre, or it is no wedge
RIM = 0.97  # of the radius: points this far out are on a wedge's rim, their angles its span
FULL_TURN_SLACK = 0.02  # radians: a span this close to a full turn is a whole disc
SPANS_SLACK = 3  # degrees: the wedges' spans add up to a full turn within this
HOLE_SIZE = 0.9  # of the radius: a whole disc larger than this is no donut's hole
HOLE_OFF_CENTRE = 0.05  # of the radius: how far a donut's hole may stand off the pie's centre
RADIUS_SLACK = 0.05  # of the radius: how far a wedge's radius may differ from the others'
EXPLODED = 0.3  # of the radius: how far an exploded wedge's centre may stand off the pie's
DONUT_HOLE = 0.2  # of the radius: wedges all starting further out than this make a donut
PIE_LABEL_REACH = 1.45  # radii from the centre within which a pie's labels stand
SHARE_AGREE = 1.5  # percentage points: printed shares this close to the angles' are the shares
LABEL_ANGLE = 20  # degrees: a slice's label is matched within half its span, or at least this
LABEL_ANGLE_SLACK = 10  # degrees beyond that
LABEL_OVER = 1.6  # of a number's size: a word set over or under it this close names it

__all__ = ["Chart", "read_chart", "grouped_labels", "PRINTED", "DRAWN", "ANGLES"]


@dataclass
class Chart:
    title: str | None
    kind: str  # bar, horizontal bar, stacked bar, line, area, pie, donut, scatter
    series: list[str]
    categories: list[str]
    rows: list[list]  # per category one value per series (None: no mark); pie: [share]; scatter: [series, x, y]
    how: str
    labels_used: set[int] = field(default_factory=set)
    category_title: str | None = None
    value_title: str | None = None  # the value axis' title, turned beside it (set by the page's layout)
    other_labels: list[str] = field(default_factory=list)  # its words its table does not hold: ticks (the layout's)

    def markdown(self) -> str:
        """The chart as every chart is written (``readers.markup.charts``), then how its values were obtained."""
        cell = lambda value: "" if value is None else number_text(value) if isinstance(value, (int, float)) else value
        if self.kind in ("pie", "donut"):
            rows = [["Slice", "Share (%)"], *[[name, cell(row[0])] for name, row in zip(self.categories, self.rows)]]
        elif self.kind == "scatter":
            rows = [
                ["Series", self.category_title or "x", self.value_title or "y"],
                *[[cell(value) for value in row] for row in self.rows],
            ]
        else:
            series = (
                [self.value_title] if self.value_title and self.series == ["Value"] else self.series
            )  # one series: named by its axis
            rows = [
                [self.category_title or "", *series],
                *[[name, *map(cell, row)] for name, row in zip(self.categories, self.rows)],
            ]
        axis = (
            f"Value axis: {self.value_title}"
            if self.value_title and self.series != ["Value"] and self.kind != "scatter"
            else ""
        )
        labels = f"Axis ticks and other labels: {', '.join(self.other_labels)}" if self.other_labels else ""
        heading = chart_heading(self.title or "", [self.kind])
        return "\n\n".join(filter(None, [heading, markdown_table(rows), axis, labels, f"*{self.how}*"]))

    @property
    def summary(self) -> str:
        """What it is, for the figure's label: "bar, 3 series", "pie, 4 slices"."""
        if self.kind in ("pie", "donut"):
            return f"{self.kind}, {len(self.categories)} slices"
        count = len(self.series) or 1
        return f"{self.kind}, {count} series"


def read_chart(page, box, words: list[Item]) -> Chart | None:
    """The chart drawn in ``box`` (x0, top, x1, bottom) of a pdfplumber ``page``, read with its
    labels ``words`` (dicts with x0, x1, top, bottom, text, size); None unless read with confidence."""
    try:
        return _read(page, box, words)
    except ODD_DRAWING:
        return None  # a drawing too odd to read is no chart we can vouch for


class _Context:
    def __init__(self, page, box, words: list[Item]):
        self.words, self.marks = words, collect_marks(page, box)
        # Glyphs near the box (a turned tick label runs far below and beside its plot).
        chars = [
            c
            for c in page.chars
            if box[0] - GLYPHS_FAR <= c["x0"] <= box[2] + GLYPHS_NEAR
            and box[1] - GLYPHS_NEAR <= c["top"] <= box[3] + GLYPHS_FAR
        ]
        self.turned = turned_labels(chars, words)
        self.junk = {i for label in self.turned for i in label.ids}  # words pdfplumber made of slanted glyphs
        self.numbers = {}
        for i, word in enumerate(words):
            value = parse_number(word["text"]) if i not in self.junk else None
            if i not in self.junk and word["text"].startswith("10") and len(word["text"]) > 2:
                value = superscript_power(word, chars) or value
            if value is not None:
                self.numbers[i] = value
        self.middles = digit_middles(chars, words, self.numbers)
        self.legend = find_legend(words, self.marks, self.junk)
        self.legend_ids = {i for entry in self.legend for i in entry.ids} | self.junk
        self.skip = {id(m) for entry in self.legend for m in entry.marks} | {
            id(m) for m in legend_frame(self.legend, self.marks)
        }

    def free(self, taken) -> list[int]:
        return [i for i in range(len(self.words)) if i not in taken and i not in self.legend_ids]

    def series(self, marks, colour_of, single: str):
        """Series names, and each mark's series (by ``id``); None when a mark matches no legend entry."""
        found, names = {}, []
        if self.legend:
            for m in marks:
                hits = [k for k, e in enumerate(self.legend) if same_colour(e.colour, colour_of(m))]
                if len(hits) != 1:
                    hits = [k for k, e in enumerate(self.legend) if e.shape == m.shape()]
                if len(hits) != 1:
                    return None
                found[id(m)] = hits[0]
            order = sorted(set(found.values()))
            return [self.legend[k].name for k in order], {key: order.index(k) for key, k in found.items()}
        colours: list = []
        for m in marks:
            k = next((k for k, c in enumerate(colours) if same_colour(c, colour_of(m))), None)
            if k is None:
                k, colours = len(colours), colours + [colour_of(m)]
            found[id(m)] = k
        names = [single] if len(colours) == 1 else [f"Series {k + 1}" for k in range(len(colours))]
        return names, found


def _read(page, box, words: list[Item]):
    if not words:
        return None
    ctx = _Context(page, box, words)
    if not ctx.marks:
        return None
    found = _pie(ctx) or read_xy(ctx)
    return Chart(**found) if isinstance(found, dict) else found


# ------------------------------------------------------------------ pies and donuts
def _circumcentre(a, b, c):
    d = 2 * (a[0] * (b[1] - c[1]) + b[0] * (c[1] - a[1]) + c[0] * (a[1] - b[1]))
    if abs(d) < EPSILON:
        return None
    sa, sb, sc = a[0] ** 2 + a[1] ** 2, b[0] ** 2 + b[1] ** 2, c[0] ** 2 + c[1] ** 2
    return (sa * (b[1] - c[1]) + sb * (c[1] - a[1]) + sc * (a[1] - b[1])) / d, (
        sa * (c[0] - b[0]) + sb * (a[0] - c[0]) + sc * (b[0] - a[0])
    ) / d


def _arc_centres(mark) -> list[tuple[float, float]]:
    """The centre of each Bézier arc of a path: where the normals at its two ends cross (for an arc
    drawn as short straight segments, the centre of each three points in a row)."""
    if not any(seg[0] == "c" for seg in mark.path or ()):
        pts = mark.pts or []
        if len(pts) < 6:  # a triangle or a box is no arc
            return []
        return [c for a, b, c_ in zip(pts, pts[1:], pts[2:]) if (c := _circumcentre(a, b, c_)) is not None]
    found, last, start = [], None, None
    for seg in mark.path or ():
        op = seg[0]
        if op == "m":
            last = start = seg[1]
        elif op == "c" and last is not None and len(seg) == 4:
            p0, p1, p2, p3 = last, seg[1], seg[2], seg[3]
            n0, n3 = (p0[1] - p1[1], p1[0] - p0[0]), (p3[1] - p2[1], p2[0] - p3[0])
            det = n0[0] * n3[1] - n0[1] * n3[0]
            if abs(det) > EPSILON * (math.hypot(*n0) * math.hypot(*n3) or 1):
                t = ((p3[0] - p0[0]) * n3[1] - (p3[1] - p0[1]) * n3[0]) / det
                found.append((p0[0] + t * n0[0], p0[1] + t * n0[1]))
            last = p3
        elif op == "h":
            last = start
        elif len(seg) > 1:
            last = seg[-1]
    return found


def _pie(ctx):
    wedges = [
        m
        for m in ctx.marks
        if m.kind == "curve"
        and m.fill is not None
        and id(m) not in ctx.skip
        and min(m.w, m.h) >= 8
        and len(m.pts or ()) >= 3
    ]
    if len(wedges) < 2:
        return None
    slices = []
    for m in wedges:  # each wedge about its own centre: an exploded slice stands off the others
        own = _arc_centres(m)
        if not own:
            continue
        cx, cy = median(c[0] for c in own), median(c[1] for c in own)
        dist = [math.hypot(x - cx, y - cy) for x, y in m.pts]
        radius = max(dist)
        if sum(math.hypot(x - cx, y - cy) <= ARC_CENTRES * radius for x, y in own) < ARC_SHARE * len(own):
            continue  # its curves are no arcs of one circle (a backdrop, a rounded box, a logo's swoosh)
        span, start = 0.0, None
        for (p, dp), (q, dq) in zip(zip(m.pts, dist), zip(m.pts[1:], dist[1:])):
            if dp >= RIM * radius and dq >= RIM * radius:
                a, b = math.atan2(p[1] - cy, p[0] - cx), math.atan2(q[1] - cy, q[0] - cx)
                start = a if start is None else start
                span += (b - a + math.pi) % (2 * math.pi) - math.pi
        slices.append((m, abs(span), start + span / 2 if start is not None else 0.0, radius, min(dist), (cx, cy)))
    whole = [
        s for s in slices if s[1] > 2 * math.pi - FULL_TURN_SLACK
    ]  # a full disc: a donut's hole painted over a pie, or a ring
    slices = [s for s in slices if s not in whole]
    if len(slices) < 2:
        return None
    radius = median(s[3] for s in slices)
    cx, cy = median(s[5][0] for s in slices), median(s[5][1] for s in slices)
    if any(
        w[3] > HOLE_SIZE * radius or math.hypot(w[5][0] - cx, w[5][1] - cy) > HOLE_OFF_CENTRE * radius for w in whole
    ):
        return None
    if any(
        abs(s[3] - radius) > RADIUS_SLACK * radius or math.hypot(s[5][0] - cx, s[5][1] - cy) > EXPLODED * radius
        for s in slices
    ):
        return None
    if abs(sum(s[1] for s in slices) - 2 * math.pi) > math.radians(SPANS_SLACK):
        return None
    kind = "donut" if whole or min(s[4] for s in slices) > DONUT_HOLE * radius else "pie"
    used: set[int] = set()
    names = [None] * len(slices)
    if ctx.legend:
        for k, s in enumerate(slices):
            hits = [e for e in ctx.legend if same_colour(e.colour, s[0].fill)]
            if len(hits) == 1:
                names[k] = hits[0].name
        if None not in names:
            used |= ctx.legend_ids
    free = phrases(ctx.words, ctx.free(set()))
    usual = median(p.size for p in free) if free else 0
    free = [
        p for p in free if math.hypot(p.cx - cx, p.cy - cy) <= PIE_LABEL_REACH * radius and p.size <= usual + 0.5
    ]  # a title is set larger
    shares_printed = [None] * len(slices)
    numeric = [p for p in free if parse_number(p.text) is not None]
    if None in names:
        names = _by_direction(slices, [p for p in free if parse_number(p.text) is None], used)
        if names is None:
            return None
    texts = _by_direction(slices, numeric, set()) if numeric else None
    if texts:
        shares_printed = [parse_number(t) if t.endswith("%") else None for t in texts]
        used |= {i for p in numeric for i in p.ids}
    shares = [round(100 * s[1] / sum(t[1] for t in slices), 1) for s in slices]
    how = ANGLES
    if None not in shares_printed and all(abs(a - b) <= SHARE_AGREE for a, b in zip(shares, shares_printed)):
        shares, how = shares_printed, PRINTED
    taken = used | {i for p in free if p.text in names for i in p.ids}
    title, ids = title_of(ctx.words, ctx.free(taken), cy - radius)
    legend = [e.name for e in ctx.legend]
    order = sorted(
        range(len(slices)),
        key=lambda k: (legend.index(names[k]) if names[k] in legend else len(legend), slices[k][0].index),
    )
    return Chart(
        title, kind, ["Share (%)"], [names[k] for k in order], [[shares[k]] for k in order], how, taken | set(ids)
    )


def _by_direction(slices, labels: list[Phrase], used: set):
    """Each slice's label: the one whose direction from its centre is nearest the slice's middle."""

    def apart(a, b):
        return abs((a - b + math.pi) % (2 * math.pi) - math.pi)

    pairs = sorted(
        (apart(math.atan2(p.cy - s[5][1], p.cx - s[5][0]), s[2]), k, j)
        for k, s in enumerate(slices)
        for j, p in enumerate(labels)
    )
    chosen, taken = {}, set()
    for gap, k, j in pairs:
        if (
            k not in chosen
            and j not in taken
            and gap <= max(slices[k][1] / 2, math.radians(LABEL_ANGLE)) + math.radians(LABEL_ANGLE_SLACK)
        ):
            chosen[k] = j
            taken.add(j)
    if len(chosen) < len(slices):
        return None
    used |= {i for j in taken for i in labels[j].ids}
    return [labels[chosen[k]].text for k in range(len(slices))]


# ------------------------------------------------------------------ fallback
def grouped_labels(words: list[Item], page=None, box=None) -> str:
    """A chart-like drawing's labels sorted into title, axis ticks, legend and labels; a number
    standing over a category is written with it. With ``page`` and ``box`` the legend is found
    by its swatches. "" when there are no words, or neither a value axis nor a legend among them,
    or the drawing is too odd to sort (its labels are then read row by row, as a diagram's are)."""
    try:
        return _grouped(words, page, box)
    except ODD_DRAWING:
        return ""


def _grouped(words: list[Item], page, box) -> str:
    if not words:
        return ""
    numbers = {i: v for i, w in enumerate(words) if (v := parse_number(w["text"])) is not None}
    legend = find_legend(words, collect_marks(page, box), set()) if page is not None and box is not None else []
    legend_ids = {i for e in legend for i in e.ids}
    yax, xax = find_axes(words, {i: v for i, v in numbers.items() if i not in legend_ids}, [])
    if yax is None and xax is None and not legend:
        return ""  # no value axis and no legend: a diagram's words, not a chart's labels
    taken = legend_ids | (yax.ids if yax else set()) | (xax.ids if xax else set())
    rest = [i for i in range(len(words)) if i not in taken]
    title, title_ids = None, []
    if rest:  # the top line, set larger than the labels (or alone)
        rows = lines_of(words, rest)
        usual = median(w.get("size") or 0 for w in words)
        if len(rows[0]) <= TITLE_WORDS and (
            len(rows) == 1 or max(words[i].get("size") or 0 for i in rows[0]) > usual + 0.5
        ):
            title, title_ids = " ".join(words[i]["text"] for i in rows[0]), rows[0]
    rest = [i for i in rest if i not in title_ids]
    cats = []
    if xax is None:  # a row of words, all on one line, below everything numeric: the category axis
        rows = lines_of(words, [i for i in rest if i not in numbers])
        lowest = [
            row
            for row in rows
            if len(phrases(words, row)) >= 2
            and all(words[i]["top"] >= max((words[j]["bottom"] for j in numbers), default=0) - 2 for i in row)
        ]
        cats = phrases(words, lowest[0]) if lowest else []
    cat_ids = {i for p in cats for i in p.ids}
    parts = [f"Title: {title}"] if title else []
    if xax or cats:
        parts.append(
            "Axis ticks (x): "
            + ", ".join([words[i]["text"] for _, _, i in sorted(xax.ticks)] if xax else [p.text for p in cats])
        )
    if yax:
        parts.append("Axis ticks (y): " + ", ".join(words[i]["text"] for _, _, i in sorted(yax.ticks, reverse=True)))
    if legend:
        parts.append("Legend: " + ", ".join(e.name for e in legend))
    labels = []
    for p in phrases(words, [i for i in rest if i not in cat_ids]):
        if parse_number(p.text) is not None:
            anchor = min(cats, key=lambda c: abs(c.cx - p.cx), default=None) if cats else None
            # else a word set right over or under it, or just before it on its line
            near = [
                q
                for q in phrases(words, [i for i in rest if i not in numbers])
                if (min(q.x1, p.x1) > max(q.x0, p.x0) and abs(q.cy - p.cy) < LABEL_OVER * p.size)
                or (abs(q.cy - p.cy) < 0.5 * p.size and 0 <= p.x0 - q.x1 < p.size)
            ]
            anchor = anchor or min(near, key=lambda q: math.hypot(q.cx - p.cx, q.cy - p.cy), default=None)
            labels.append(f"{p.text} ({anchor.text})" if anchor else p.text)
        else:
            labels.append(p.text)
    if labels:
        parts.append("Labels: " + ", ".join(labels))
    return "\n".join(parts)
