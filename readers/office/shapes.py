"""A slide's figures from the deck itself: where its pictures, charts and diagrams stand, with no render.

A shape's place is its own offset and extent (``a:xfrm``, in EMU), mapped through the groups it sits
in, as a fraction of the slide's size: the box a render would show it in. A picture's figure
carries the image the deck embeds (``image``), which OCR reads at its full resolution, as the slide
shows it: cut to its crop (``a:srcRect``) and to the slide, and with each shape or picture drawn
over it, filled, painted over it (a picture turned by ``rot`` gets its crop only); a chart's is
labelled as a PDF chart's is ("column, 2 series") and, like a diagram's, has its words in the
slide's text already. Tables are text, not figures.
"""

from __future__ import annotations

from dataclasses import replace

from ..models import Figure, FoundFigure
from .drawings import (
    GRAPHIC_CHART,
    GRAPHIC_CHARTEX,
    GRAPHIC_DIAGRAM,
    MC,
    A,
    chart_summary,
    chosen,
    cover_colour,
    covered_parts,
    picture_bytes,
    picture_crop,
    picture_link,
    shown_picture,
)

P = "{http://schemas.openxmlformats.org/presentationml/2006/main}"
PLACES = (f"{P}spPr/{A}xfrm", f"{P}xfrm", f"{P}grpSpPr/{A}xfrm")  # a shape's, a graphic frame's, a group's
IDENTITY = (0.0, 0.0, 1.0, 1.0)  # x offset, y offset, x scale, y scale: a group's children into the slide
FAR = 10.0  # slide widths: past the slide's edge, as far as any shape reaches
OFF_SLIDE = [  # what lies past the slide's edges, shown as nothing
    ((-FAR, -FAR, 0.0, FAR), "white"),
    ((1.0, -FAR, FAR, FAR), "white"),
    ((-FAR, -FAR, FAR, 0.0), "white"),
    ((-FAR, 1.0, FAR, FAR), "white"),
]


def _numbers(element, name: str, keys: tuple[str, str]) -> tuple[float, float] | None:
    found = element.find(f"{A}{name}")
    try:
        return (float(found.get(keys[0])), float(found.get(keys[1]))) if found is not None else None
    except (TypeError, ValueError):  # a damaged number: the shape has no place
        return None


def _place(element):
    return next((found for found in (element.find(path) for path in PLACES) if found is not None), None)


def group_transform(group, outer: tuple) -> tuple:
    """The transform of a group's children: their chOff/chExt space onto the group's own box."""
    xfrm = _place(group)
    offset, extent = (
        (_numbers(xfrm, "off", ("x", "y")), _numbers(xfrm, "ext", ("cx", "cy"))) if xfrm is not None else (None, None)
    )
    child_offset, child_extent = (
        (_numbers(xfrm, "chOff", ("x", "y")), _numbers(xfrm, "chExt", ("cx", "cy")))
        if xfrm is not None
        else (None, None)
    )
    if not (offset and extent and child_offset and child_extent) or not all(child_extent):
        return outer
    ox, oy, sx, sy = outer
    scale_x, scale_y = extent[0] / child_extent[0], extent[1] / child_extent[1]
    return (
        ox + sx * (offset[0] - child_offset[0] * scale_x),
        oy + sy * (offset[1] - child_offset[1] * scale_y),
        sx * scale_x,
        sy * scale_y,
    )


def _extent(
    element, transform: tuple, width: float, height: float, inherited: tuple | None = None
) -> tuple[float, float, float, float] | None:
    """The element's box as fractions of the slide (left, top, right, bottom), wherever it reaches; None without
    one. ``inherited`` is (left, top, width, height) in EMU for a shape with no frame of its own (a placeholder
    standing where its layout's does)."""
    xfrm = _place(element)
    offset, extent = (
        (_numbers(xfrm, "off", ("x", "y")), _numbers(xfrm, "ext", ("cx", "cy"))) if xfrm is not None else (None, None)
    )
    if not (offset and extent) and inherited is not None:
        offset, extent = inherited[:2], inherited[2:]
    if not (offset and extent):
        return None
    ox, oy, sx, sy = transform
    left, top = (ox + sx * offset[0]) / width, (oy + sy * offset[1]) / height
    return left, top, left + sx * extent[0] / width, top + sy * extent[1] / height


def _box(extent: tuple | None) -> tuple[float, float, float, float] | None:
    """An extent cut to the slide, as a figure's box; None off it."""
    box = tuple(round(min(max(value, 0.0), 1.0), 4) for value in extent) if extent else None
    return box if box and box[2] > box[0] and box[3] > box[1] else None


def shape_box(
    element, transform: tuple, width: float, height: float, inherited: tuple | None = None
) -> tuple[float, float, float, float] | None:
    """The element's box as fractions of the slide (left, top, right, bottom), cut to the slide; None off it
    (``inherited`` as for ``_extent``)."""
    return _box(_extent(element, transform, width, height, inherited))


def _shown(found: FoundFigure, element, extent: tuple, drawn_over: list[tuple[tuple, str]]) -> FoundFigure:
    """A picture's figure with its image as the slide shows it (see the module's docstring)."""
    if found.image is None:
        return found
    turned = (xfrm := _place(element)) is not None and (xfrm.get("rot") not in (None, "0") or xfrm.get("flipH"))
    covers = [] if turned else covered_parts(extent, [*drawn_over, *OFF_SLIDE])
    image = shown_picture(found.image, picture_crop(element), covers)
    return replace(found, image=image) if isinstance(image, bytes) else replace(found, image=None, unreadable=image)


def _figure(element, part) -> FoundFigure | None:
    """What a shape is as a figure (its kind, whether its words are text already, a chart's label, a
    picture's image), its box still to be set, or None for shapes that are text and pictures the file lacks."""
    unplaced = (0.0, 0.0, 0.0, 0.0)
    if element.tag == f"{P}pic":
        if (linked := picture_link(element, part)) is not None:
            return FoundFigure(Figure("picture", unplaced, linked=linked))
        image = picture_bytes(element, part)
        if image is None:
            return None
        figure = Figure("picture", unplaced)
        return FoundFigure(figure, image=image) if isinstance(image, bytes) else FoundFigure(figure, unreadable=image)
    if element.tag == f"{P}graphicFrame":
        data = element.find(f".//{A}graphicData")
        uri = data.get("uri") if data is not None else None
        if uri in (GRAPHIC_CHART, GRAPHIC_CHARTEX):
            return FoundFigure(Figure("drawing", unplaced, has_text=True, chart=chart_summary(data, part)))
        if uri == GRAPHIC_DIAGRAM:
            return FoundFigure(Figure("drawing", unplaced, has_text=True))
    return None


def slide_figures(slide, width: int, height: int) -> list[FoundFigure]:
    """The slide's figures top to bottom, then left to right, as ``readers.pdf.figures`` gives a
    page's: kind, box, no caption (a slide says nothing of which line names a picture), has_text,
    chart; a picture's own ``image`` (its PNG or JPEG bytes, as the slide shows it), or ``unreadable``,
    why they cannot be had, or ``linked``, where the picture it only links points."""
    drawn = []  # every shape in the order the slide draws them: (element, extent, figure or None)

    def walk(tree, transform: tuple) -> None:
        for element in tree:
            if element.tag == f"{MC}AlternateContent":
                walk(chosen(element), transform)
            elif element.tag == f"{P}grpSp":
                walk(element, group_transform(element, transform))
            elif isinstance(element.tag, str) and (extent := _extent(element, transform, width, height)):
                drawn.append((element, extent, _figure(element, slide.part)))

    walk(slide.shapes._spTree, IDENTITY)
    figures = []
    for index, (element, extent, found) in enumerate(drawn):
        if found is not None and (box := _box(extent)):
            over = [(later, colour) for other, later, _ in drawn[index + 1 :] if (colour := cover_colour(other))]
            shown = _shown(found, element, extent, over)
            figures.append(replace(shown, figure=replace(shown.figure, box=box)))
    return sorted(figures, key=lambda found: (found.box[1], found.box[0]))
