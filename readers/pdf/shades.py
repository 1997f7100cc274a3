"""Shades on a PDF page: rectangles filled, not stroked, that colour a table's cells (a header's band,
a cell's background, a zebra's stripes) rather than rule them. ``readers.pdf.cells`` leaves out the
edges of a shade inside a shade of its colour and every edge of a zebra's stripes when it looks for a
ruled table's grid; ``readers.pdf.figures`` takes no zebra's stripes for a drawing.
"""

from __future__ import annotations

# Points: a rectangle filled, not stroked, thicker than this both ways shades cells (a header's band, a
# cell's background); thinner, it is a rule drawn as a filled bar (rules are 0.25 to 1.5 pt).
SHADE_POINTS = 2.0
SHADE_REACH = 0.5  # points either side of a shade's edge looked at for shading of its colour
# Shades on a page at most for their edges to be looked at (each against every shade): more are a chart's or
# a map's fills, no table's cells (eu-025's survey tables shade 157); there every edge stays, as drawn.
SHADES_CHECKED = 300
# Shades of one colour over one column, one under the other with a gap between each two, at least this many:
# a table's rows shaded in turn (zebra stripes), no cells' rules; two could be a header's and a total's band.
ZEBRA_ROWS = 3
ZEBRA_PITCH = 2.5  # times a stripe's height the gap to the next stripe at most: a stripe a row, one row between


def inside_shade(edge: dict, shades: list[dict]) -> bool:
    """``edge`` lies inside a shade of its own shade's colour, along its whole length: it parts nothing
    (a cell's lines shaded one by one inside the cell's shade: EU survey tables' headers). Two shades
    that only meet at it are two cells."""
    across, along = (
        (("top", "bottom"), ("x0", "x1")) if edge["orientation"] == "h" else (("x0", "x1"), ("top", "bottom"))
    )
    at = edge[across[0]]
    return any(
        shade["non_stroking_color"] == edge["non_stroking_color"]
        and shade[across[0]] <= at - SHADE_REACH
        and shade[across[1]] >= at + SHADE_REACH
        and shade[along[0]] <= edge[along[0]] + SHADE_REACH
        and shade[along[1]] >= edge[along[1]] - SHADE_REACH
        for shade in shades
    )


def page_shades(page) -> list[dict]:
    """The page's shades: rectangles filled, not stroked, thicker than ``SHADE_POINTS`` both ways (none
    when there are more than ``SHADES_CHECKED``: a chart's or a map's fills)."""
    filled = [rect for rect in page.rects if rect["fill"] and not rect["stroke"]]
    shades = [rect for rect in filled if min(rect["width"], rect["height"]) > SHADE_POINTS]
    return shades if len(shades) <= SHADES_CHECKED else []


def _shaded(shades: list[dict], x: float, y: float) -> bool:
    return any(shade["x0"] <= x <= shade["x1"] and shade["top"] <= y <= shade["bottom"] for shade in shades)


def _zebras(shades: list[dict]) -> list[list[dict]]:
    """Each run of shades that stripe a table's rows in turn (``zebra_stripes``), their shades."""
    columns: dict[tuple, dict[tuple, list[dict]]] = {}
    for shade in shades:
        key = (str(shade["non_stroking_color"]), round(shade["x0"]), round(shade["x1"]))
        columns.setdefault(key, {}).setdefault((round(shade["top"]), round(shade["bottom"])), []).append(shade)
    zebras: list[list[dict]] = []
    for (_, x0, x1), stripes in columns.items():
        run: list[tuple] = []
        for top, bottom in [*sorted(stripes), (None, None)]:
            gap = top - run[-1][1] if run and top is not None else 0.0
            if SHADE_REACH < gap <= ZEBRA_PITCH * (run[-1][1] - run[-1][0]) and not _shaded(
                shades, (x0 + x1) / 2, run[-1][1] + gap / 2
            ):
                run.append((top, bottom))
                continue
            if len(run) >= ZEBRA_ROWS:
                zebras.append([shade for stripe in run for shade in stripes[stripe]])
            run = [(top, bottom)] if top is not None else []
    return zebras


def zebra_stripes(shades: list[dict]) -> set[int]:
    """The ids of the shades that stripe a table's rows in turn (zebra): ``ZEBRA_ROWS`` of one colour at
    least over one column (the same x0 and x1), each apart from the next by an unshaded gap no wider
    than ``ZEBRA_PITCH`` stripes (a shade drawn twice over itself, as LibreOffice draws them, is one
    stripe; rows shaded in two colours in turn, every one shaded, are cells the shades part). Their edges
    are no rules: the rows between them are the table's as much as theirs, and the table is found by
    its alignment (``readers.pdf.aligned``) or by the rules the page draws too."""
    return {id(shade) for zebra in _zebras(shades) for shade in zebra}


def zebra_boxes(page) -> list[tuple[float, float, float, float]]:
    """The box (left, top, right, bottom) of each run of a page's zebra stripes, from its first stripe's top to
    its last's bottom, the runs side by side over the same rows one (Word stripes each cell): the rows of one
    table."""
    rows: dict[tuple, list[float]] = {}
    for zebra in _zebras(page_shades(page)):
        top, bottom = min(shade["top"] for shade in zebra), max(shade["bottom"] for shade in zebra)
        box = rows.setdefault((round(top), round(bottom)), [zebra[0]["x0"], top, zebra[0]["x1"], bottom])
        box[0], box[2] = min(box[0], zebra[0]["x0"]), max(box[2], zebra[0]["x1"])
    return [(x0, top, x1, bottom) for x0, top, x1, bottom in rows.values()]
