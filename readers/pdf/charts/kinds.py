"""The charts read against axes, for ``reading``: bars (vertical, horizontal, grouped, stacked),
lines, areas and scatter plots. Each reader takes the context ``reading`` builds (the figure's
marks, numbers, legend) and the value axes found, and returns the chart's fields as a dict, or
None when the marks do not make that kind of chart with confidence."""

from __future__ import annotations

import bisect
import math
from statistics import median

from ...markup.charts import number_text
from ..records import Item
from .axes import find_axes, title_of
from .parts import THIN, axis_aligned, centre, lines_of, phrases

PRINTED = "values as printed"
DRAWN = "values read from the drawing, ±1% of the axis"
ANGLES = "shares from the wedges' angles"
AGREE = 0.03  # of the axis: a printed label this far from its mark's reading is not its value
MAX_ROWS = (
    250  # a table longer than this is no help to a reader: a dense curve is read at its ticks, a larger scatter refused
)
DENSE = 40  # points along a numeric x axis beyond which a line is read at the axis' ticks
STRAY_WORDS = 2  # more unexplained words than this inside the plot: a table or a diagram, not a chart
# Tolerances set against the generated charts of testkit/fixtures/charts.py (matplotlib, reportlab, LibreOffice).
BACKDROP_SHARE = 0.1  # of the marks' whole extent: a filled box this large holding other marks is a backdrop
AREA_WIDTH = 30  # points: a filled curve narrower than this is a marker, not an area
MARKER_SIDE = 14  # points: a filled mark no larger is a marker; a rect larger is a bar
LONG_RULE = 40  # points: a rule this long is an axis line or gridline, part of the plot
CATEGORY_DROP = 2.5  # of the font size: category labels start this close under the plot, else they are turned
WRAP_GAP = 0.25  # of the font size: a category label's next line is set this tight under it
WRAP_SLOT = 0.3  # of a category slot: each part of a wrapped label stands this near its label
TURNED_REACH = 40  # points: a turned category label may start this far left of the plot
AXIS_TITLE_GAP = 1.5  # of the font size: an axis title stands this close under its labels
POINT_LABEL = 0.8  # of a label's height: a data label this close to its point is its label
BAR_SLOT = 0.6  # of a category slot: a bar further from its category's position is none of them
STACK_GAP = 1.5  # points: a bar starts this close to the end of the one it stands on (or the base)
BAR_LABEL_REACH = 6.0  # points past a bar's end its data label may stand (or its own size, if larger)
CROSSING = 0.75  # points: a vertex this near the upright line is on it, a segment this narrow is upright
LINE_END_SLACK = 1.5  # points: a line is read this far past its first and last points


class _Plot:
    def __init__(self, marks):
        self.x0, self.x1 = min(m.x0 for m in marks), max(m.x1 for m in marks)
        self.top, self.bottom = min(m.top for m in marks), max(m.bottom for m in marks)

    def holds(self, word: Item, slack=1.0) -> bool:
        x, y = centre(word)
        return self.x0 - slack <= x <= self.x1 + slack and self.top - slack <= y <= self.bottom + slack


def read_xy(ctx):
    """A chart with value axes, as a dict of ``Chart`` fields; None unless read with confidence.

    The marks left once the legend, its frame and any backdrop (a large box holding other marks)
    are set aside decide the kind: wide filled curves are areas; stroked, sloped paths are lines
    (markers on their vertices go with them; markers off them, with both axes numeric, make a
    scatter plot under a trend line); else filled boxes starting from one shared edge are bars,
    their orientation that of the shared edge; else small marks against two numeric axes are a
    scatter plot. Bars mixed with lines or areas, and a second scale, are refused."""
    words = ctx.words
    numbers = {i: v for i, v in ctx.numbers.items() if i not in ctx.legend_ids}
    rules = [m for m in ctx.marks if m.kind == "line"]
    yax, xax = find_axes(words, numbers, rules, ctx.middles)
    if yax is None and xax is None:
        return None
    if (yax and yax.rival) or (xax and xax.rival):
        return None  # two scales for one direction: which series reads against which is not drawn
    data = [m for m in ctx.marks if id(m) not in ctx.skip]
    if not data:
        return None
    reach = max(m.x1 for m in data) - min(m.x0 for m in data), max(m.bottom for m in data) - min(m.top for m in data)
    large = [
        m for m in data if m.kind == "rect" and m.fill is not None and m.w * m.h >= BACKDROP_SHARE * reach[0] * reach[1]
    ]
    background = {
        id(m) for m in large if any(o is not m and o.kind != "line" and _inside(o, m) for o in data)
    }  # holds others
    data = [m for m in data if id(m) not in background]
    filled = [m for m in data if m.fill is not None and m.kind != "line"]
    areas = [
        m for m in filled if m.kind == "curve" and len(m.pts or ()) >= 4 and m.w >= AREA_WIDTH and not axis_aligned(m)
    ]
    strokes = [
        m
        for m in data
        if m.fill is None and m.stroke is not None and m.kind != "rect" and not axis_aligned(m) and max(m.w, m.h) >= 8
    ]
    small = [m for m in filled if max(m.w, m.h) <= MARKER_SIDE and min(m.w, m.h) >= THIN]
    bars = [m for m in filled if m.kind == "rect" and id(m) not in {id(a) for a in areas}]
    big_bars = [m for m in bars if max(m.w, m.h) > MARKER_SIDE]
    long_rules = [m for m in rules if max(m.w, m.h) >= LONG_RULE]
    taken = set(yax.ids if yax else ()) | set(xax.ids if xax else ())
    if strokes and small and yax and xax:  # markers off the line's vertices: a scatter with a trend line drawn over it
        vertices = {(round(x), round(y)) for m in strokes for x, y in m.pts or ()}
        off = [
            m
            for m in small
            if not any((round(m.cx) + dx, round(m.cy) + dy) in vertices for dx in (-1, 0, 1) for dy in (-1, 0, 1))
        ]
        if len(off) > len(small) / 2:
            return _scatter(ctx, small, yax, xax, taken) if not big_bars else None
    if (areas or strokes) and big_bars:
        return None  # bars with a line or an area over them: a combined chart, not read
    if areas and yax:
        return _lines(ctx, areas, yax, xax, long_rules, taken, area=True)
    if strokes and yax:
        return _lines(ctx, strokes, yax, xax, long_rules, taken)
    chart = _bars(ctx, bars, yax, xax, long_rules, taken) if bars else None
    if chart is None and small and yax and xax:
        chart = _scatter(ctx, small, yax, xax, taken)
    return chart


def _inside(inner, outer) -> bool:
    return (
        inner.x0 >= outer.x0 - 0.5
        and inner.x1 <= outer.x1 + 0.5
        and inner.top >= outer.top - 0.5
        and inner.bottom <= outer.bottom + 0.5
    )


def _rows_below(ctx, taken, bottom, x0, x1):
    """Lines of free words below ``bottom`` across the plot's width, top to bottom."""
    words = ctx.words
    ids = [
        i for i in ctx.free(taken) if words[i]["top"] >= bottom - 3 and words[i]["x1"] >= x0 and words[i]["x0"] <= x1
    ]
    return lines_of(words, ids)


def _categories(ctx, vertical, other, plot, taken, centres=()):
    """The category labels (position along the category axis, text, word ids) and the row under them."""
    words = ctx.words
    if other is not None:
        return [(p, words[i]["text"], [i]) for p, _, i in sorted(other.ticks)], max(
            words[i]["bottom"] for i in other.ids
        )
    if vertical:
        rows = _rows_below(ctx, taken, plot.bottom, plot.x0, plot.x1)
        if not rows or words[rows[0][0]]["top"] > plot.bottom + CATEGORY_DROP * (words[rows[0][0]].get("size") or 10):
            return _turned_categories(ctx, plot, centres), plot.bottom
        found = [[p.cx, p.text, p.ids] for p in phrases(words, rows[0])]
        under = max(words[i]["bottom"] for i in rows[0])
        slot = _slot([f[0] for f in found], plot.x1 - plot.x0)
        for row in rows[1:]:  # a long label wraps: a line set tight under the labels, each part under one of them
            size = words[row[0]].get("size") or 10
            more = phrases(words, row)
            if (
                words[row[0]]["top"] - under > WRAP_GAP * size
                or len(found) < 2
                or not all(min(abs(f[0] - p.cx) for f in found) < WRAP_SLOT * slot for p in more)
            ):
                break
            for p in more:
                home = min(found, key=lambda f: abs(f[0] - p.cx))
                home[1], home[2] = f"{home[1]} {p.text}", home[2] + p.ids
            under = max(words[i]["bottom"] for i in row)
        return [tuple(f) for f in found], under
    ids = [
        i
        for i in ctx.free(taken)
        if words[i]["x1"] <= plot.x0 + 3 and plot.top - 4 <= centre(words[i])[1] <= plot.bottom + 4
    ]
    found = []
    for row in lines_of(words, ids):
        last = phrases(words, row)[-1]  # the run nearest the axis
        found.append((last.cy, last.text, last.ids))
    return found, plot.bottom


def _turned_categories(ctx, plot, centres):
    """Category labels turned on their side under the plot, each placed by its middle or by the end
    nearest the axis, whichever lines the labels up with the marks."""
    labels = sorted(
        (t for t in ctx.turned if t.top >= plot.bottom - 3 and t.x1 >= plot.x0 - TURNED_REACH and t.x0 <= plot.x1),
        key=lambda t: t.end,
    )
    if not labels or not centres:
        return []
    miss = lambda spots: sum(min(abs(c - x) for x in spots) for c in centres)
    by_end = miss([t.end for t in labels]) <= miss([t.cx for t in labels])
    return [(t.end if by_end else t.cx, t.text, []) for t in labels]


def _axis_title(ctx, taken, bottom, plot):
    """The line just under the lower axis' labels: that axis' title."""
    rows = _rows_below(ctx, taken, bottom + 1, plot.x0, plot.x1)
    if rows and ctx.words[rows[0][0]]["top"] - bottom <= AXIS_TITLE_GAP * (ctx.words[rows[0][0]].get("size") or 10):
        return " ".join(ctx.words[i]["text"] for i in rows[0]), rows[0]
    return None, []


def _slot(positions, extent) -> float:
    ordered = sorted(positions)
    return min((b - a for a, b in zip(ordered, ordered[1:])), default=extent)


def _finish(ctx, kind, plot, taken, series, categories, rows, how, cat_title=None):
    """The chart, once no unexplained words stand in its plot and its title is found."""
    stray = [i for i in ctx.free(taken) if plot.holds(ctx.words[i], -1.0)]
    if len(stray) > STRAY_WORDS:
        return None
    title, ids = title_of(ctx.words, ctx.free(taken), plot.top)
    return {
        "title": title,
        "kind": kind,
        "series": series,
        "categories": categories,
        "rows": rows,
        "how": how,
        "labels_used": taken | set(ids) | ctx.legend_ids,
        "category_title": cat_title,
    }


def _printed(ctx, taken, anchors, across_vertical, limit):
    """The data label of each anchor (category position, value-axis end, span of the mark): the
    nearest number standing over the mark or just past its end; None for a mark with none."""
    words, labels = ctx.words, [i for i in ctx.numbers if i not in taken and i not in ctx.legend_ids]
    pairs = []
    for k, (c0, c1, far, lo, hi) in enumerate(anchors):
        for i in labels:
            x, y = centre(words[i])
            c, v = (x, y) if across_vertical else (y, x)
            size = words[i]["bottom"] - words[i]["top"] if across_vertical else words[i]["x1"] - words[i]["x0"]
            if c0 - 2 <= c <= c1 + 2 and (lo - 1 <= v <= hi + 1 or abs(v - far) <= max(limit, size)):
                pairs.append((abs(v - far), k, i))
    chosen, seen = {}, set()
    for _, k, i in sorted(pairs):
        if k not in chosen and i not in seen:
            chosen[k], seen = i, seen | {i}
    return [chosen.get(k) for k in range(len(anchors))]


def _printed_points(ctx, taken, points):
    """The data label of each point: the nearest number within about a line of it."""
    words, labels = ctx.words, [i for i in ctx.numbers if i not in taken and i not in ctx.legend_ids]
    pairs = []
    for k, (x, y) in enumerate(points):
        for i in labels:
            w = words[i]
            gap = math.hypot(max(0.0, w["x0"] - x, x - w["x1"]), max(0.0, w["top"] - y, y - w["bottom"]))
            if gap <= POINT_LABEL * (w["bottom"] - w["top"]):
                pairs.append((gap, k, i))
    chosen, seen = {}, set()
    for _, k, i in sorted(pairs):
        if k not in chosen and i not in seen:
            chosen[k], seen = i, seen | {i}
    return [chosen.get(k) for k in range(len(points))]


def _bars(ctx, bars, yax, xax, long_rules, taken):
    shared = lambda values: _mode(values)[1]
    vertical = yax is not None and (
        xax is None
        or max(shared([m.bottom for m in bars]), shared([m.top for m in bars]))
        >= max(shared([m.x0 for m in bars]), shared([m.x1 for m in bars]))
    )
    val, other = (yax, xax) if vertical else (xax, yax)
    if val is None:
        return None
    spans = {id(m): (m.x0, m.x1, m.bottom, m.top) if vertical else (m.top, m.bottom, m.x0, m.x1) for m in bars}
    plot = _Plot(bars + [r for r in long_rules if (r.w > r.h) == vertical])
    cats, under = _categories(
        ctx, vertical, other, plot, taken, [(spans[id(m)][0] + spans[id(m)][1]) / 2 for m in bars]
    )
    if not cats:
        return None
    positions = [c[0] for c in cats]
    slot = _slot(positions, plot.x1 - plot.x0 if vertical else plot.bottom - plot.top)
    groups: dict[int, list] = {}
    for m in bars:
        c = (spans[id(m)][0] + spans[id(m)][1]) / 2
        k = min(range(len(cats)), key=lambda k: abs(positions[k] - c))
        if abs(positions[k] - c) > BAR_SLOT * slot:
            return None
        groups.setdefault(k, []).append(m)
    ticks = [t[1] for t in val.ticks]
    zero = val.pos(0) if not val.log and min(ticks) - val.step <= 0 <= max(ticks) + val.step else val.pos(min(ticks))
    base, shared = _mode([e for m in bars for e in spans[id(m)][2:]], zero)  # where the bars start: the end they share
    if shared < 2:  # a lone bar starts at zero, or at the axis' low end
        base = min(spans[id(bars[0])][2:], key=lambda e: abs(e - zero))
    overlap = lambda a, b: min(a[1], b[1]) - max(a[0], b[0]) > 0.5 * min(a[1] - a[0], b[1] - b[0])
    stacked = any(overlap(spans[id(a)], spans[id(b)]) for g in groups.values() for a in g for b in g if a is not b)
    reading, anchors = {}, []
    for g in groups.values():
        reach = base
        for m in sorted(g, key=lambda m: min(abs(e - base) for e in spans[id(m)][2:])):
            v0, v1 = spans[id(m)][2:]
            near, far = (v0, v1) if abs(v0 - reach) <= abs(v1 - reach) else (v1, v0)
            if abs(near - reach) > STACK_GAP:
                return None
            reach = far if stacked else base
            reading[id(m)] = val.value(far) - (val.value(near) if stacked else 0.0)
            anchors.append((spans[id(m)][0], spans[id(m)][1], far, min(v0, v1), max(v0, v1)))
    lowest = under if vertical else max(ctx.words[i]["bottom"] for i in val.ids)  # the labels along the bottom
    title, title_ids = _axis_title(ctx, taken | {i for c in cats for i in c[2]}, lowest, plot)
    single = (title if not vertical else None) or "Value"
    named = ctx.series(bars, lambda m: m.fill, single)
    if named is None:
        return None
    names, index = named
    if not ctx.legend and all(len(g) == 1 for g in groups.values()):
        names, index = [single], dict.fromkeys(index, 0)  # one bar a category, each its own colour
    labels = _printed(ctx, taken, anchors, vertical, BAR_LABEL_REACH)
    printed = [ctx.numbers[i] if i is not None else None for i in labels]
    ordered = [
        id(m) for g in groups.values() for m in sorted(g, key=lambda m: min(abs(e - base) for e in spans[id(m)][2:]))
    ]
    how = DRAWN
    if None not in printed and all(_agrees(val, p, reading[key]) for p, key in zip(printed, ordered)):
        reading, how = dict(zip(ordered, printed)), PRINTED
        taken = taken | set(labels)
    rows = [[None] * len(names) for _ in cats]
    for k, g in groups.items():
        for m in g:
            if rows[k][index[id(m)]] is not None:
                return None
            rows[k][index[id(m)]] = reading[id(m)] if how == PRINTED else _round(val, reading[id(m)])
    taken = taken | {i for c in cats for i in c[2]} | set(title_ids)
    kind = "stacked bar" if stacked else ("bar" if vertical else "horizontal bar")
    return _finish(ctx, kind, plot, taken, names, [c[1] for c in cats], rows, how, title if vertical else None)


def _mode(values, prefer: float = 0.0) -> tuple[float, int]:
    """The value most others lie within a point of (of two as common, the nearer ``prefer``), and
    how many do (by buckets of a point)."""
    buckets: dict[int, list] = {}
    for v in values:
        buckets.setdefault(round(v), []).append(v)
    count = lambda b: len(buckets[b]) + len(buckets.get(b - 1, ())) + len(buckets.get(b + 1, ()))
    best = max(buckets, key=lambda b: (count(b), -abs(b - prefer)))
    near = buckets[best] + buckets.get(best - 1, []) + buckets.get(best + 1, [])
    return median(near), len(near)


def _agrees(axis, printed: float, read: float) -> bool:
    """A printed label is the mark's value when it lies within AGREE of the axis from the reading."""
    if axis.log:
        return printed > 0 and read > 0 and abs(math.log10(printed) - math.log10(read)) <= AGREE * axis.span
    return abs(printed - read) <= AGREE * axis.span


def _round(axis, value: float) -> float:
    if axis.log:
        return float(f"{value:.3g}")
    return round(value, axis.decimals()) + 0.0


def _crossings(pts, x: float) -> list[float]:
    """Where a polyline or polygon crosses the upright line at ``x`` (its vertices there too)."""
    found = [py for px, py in pts if abs(px - x) <= CROSSING]
    for (ax, ay), (bx, by) in zip(pts, pts[1:] + pts[:1]):
        if min(ax, bx) < x < max(ax, bx) and abs(bx - ax) > CROSSING:
            found.append(ay + (by - ay) * (x - ax) / (bx - ax))
    return found


def _lines(ctx, marks, yax, xax, long_rules, taken, area=False):
    named = ctx.series(marks, (lambda m: m.fill) if area else (lambda m: m.stroke), "Value")
    if named is None:
        return None
    names, index = named
    shapes = [[] for _ in names]
    for m in marks:
        shapes[index[id(m)]].append(m)
    if not area and any(_overlapping(g) for g in shapes):
        return None  # two lines of one colour side by side: which point is whose cannot be told
    plot = _Plot(marks + [r for r in long_rules if r.w > r.h])
    paths = []
    for group in shapes:
        pts = [p for m in group for p in m.pts or [(m.x0, m.bottom), (m.x1, m.top)]]
        paths.append(pts if area else sorted({(round(x, 2), round(y, 2)) for x, y in pts}))
    cats, under = _categories(ctx, True, xax, plot, taken, [x for path in paths for x, _ in path])
    if xax is not None:  # a numeric x axis: the points stand at ticks, or else at their own x
        vertices = sorted({round(x, 1) for path in paths for x, _ in path})
        clusters = [x for k, x in enumerate(vertices) if k == 0 or x - vertices[k - 1] > 1.0]
        if len(clusters) > DENSE or area:
            pass  # a dense curve: read at the ticks
        elif not all(any(abs(x - c[0]) <= 1.0 for c in cats) for x in vertices):
            cats = [(x, number_text(_round(xax, xax.value(x))), []) for x in clusters]
        else:
            cats = [c for c in cats if any(abs(x - c[0]) <= 1.0 for x in vertices)]
    if not cats:
        return None
    rows, anchors = [], []
    low = max(y for p in paths for _, y in p)  # the areas' common floor
    for position, _, _ in cats:
        row = []
        for path in paths:
            ys = _crossings(path, position) if area else _crossings_line(path, position)
            if not ys:
                row.append(None)
                continue
            top, bottom = min(ys), max(ys)
            row.append(
                yax.value(top) - (yax.value(bottom) if area and bottom < low - 1.0 else 0.0) if area else yax.value(top)
            )
            anchors.append((position, top))
        rows.append(row)
    if all(v is None for row in rows for v in row):
        return None
    how, flat = DRAWN, [v for row in rows for v in row if v is not None]
    labels = [] if area else _printed_points(ctx, taken, anchors)
    if labels and None not in labels and all(_agrees(yax, ctx.numbers[i], v) for i, v in zip(labels, flat)):
        values = iter(ctx.numbers[i] for i in labels)
        rows, how, taken = (
            [[next(values) if v is not None else None for v in row] for row in rows],
            PRINTED,
            taken | set(labels),
        )
    else:
        rows = [[_round(yax, v) if v is not None else None for v in row] for row in rows]
    taken = taken | {i for c in cats for i in c[2]}
    cat_title, ids = _axis_title(ctx, taken, under, plot)
    return _finish(
        ctx, "area" if area else "line", plot, taken | set(ids), names, [c[1] for c in cats], rows, how, cat_title
    )


def _overlapping(marks) -> bool:
    """Some two of the marks span the same stretch of x (not just meeting end to end)."""
    reach = -math.inf
    for m in sorted(marks, key=lambda m: m.x0):
        if m.x0 < reach - 2:
            return True
        reach = max(reach, m.x1)
    return False


def _crossings_line(path, x: float) -> list[float]:
    """A polyline's height at ``x`` (its points sorted by x): its vertex there, or between its neighbours."""
    if not path or x < path[0][0] - LINE_END_SLACK or x > path[-1][0] + LINE_END_SLACK:
        return []
    k = bisect.bisect_left(path, (x, -math.inf))
    near = min(path[max(0, k - 1) : k + 1], key=lambda p: abs(p[0] - x))
    if abs(near[0] - x) <= 1.0:
        return [near[1]]
    if 0 < k < len(path) and path[k][0] > path[k - 1][0]:
        (ax, ay), (bx, by) = path[k - 1], path[k]
        return [ay + (by - ay) * (x - ax) / (bx - ax)]
    return []


def _scatter(ctx, marks, yax, xax, taken):
    named = ctx.series(marks, lambda m: m.fill, "Value")
    if named is None:
        return None
    names, index = named
    if len(marks) > MAX_ROWS:
        return None
    rows = sorted(
        ([names[index[id(m)]], _round(xax, xax.value(m.cx)), _round(yax, yax.value(m.cy))] for m in marks),
        key=lambda r: (names.index(r[0]), r[1], r[2]),
    )
    plot = _Plot(marks)
    plot.x0, plot.x1 = min(plot.x0, *(t[0] for t in xax.ticks)), max(plot.x1, *(t[0] for t in xax.ticks))
    plot.top, plot.bottom = min(plot.top, *(t[0] for t in yax.ticks)), max(plot.bottom, *(t[0] for t in yax.ticks))
    title, ids = _axis_title(ctx, taken, max(ctx.words[i]["bottom"] for i in xax.ids), plot)
    return _finish(ctx, "scatter", plot, taken | set(ids), names, [], rows, DRAWN, title)
