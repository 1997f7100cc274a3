"""A sheet's figures from the workbook itself: where its charts and pictures stand, with no render.

LibreOffice Calc draws a sheet as one page over whole columns and rows, from the first used cell or
drawing to the last, so a drawing's box on that page is its anchor (cell and offset, or an absolute
position) over that extent, measured as LibreOffice lays the sheet out, in points:

- a column is its width in characters times the width of a digit of the workbook's default font
  as LibreOffice draws it (``DIGIT_WIDTHS``: that of the font it stands in with); a sheet's
  default width, where the file gives only ``baseColWidth``, is that many digits and 5 pixels;
- a row is its height in points to the nearest pixel (a 16 pt row is 21 px, 15.75 pt);
- hidden columns and rows are 0;
- the page starts at the column of the first used cell or of a drawing's left edge and at the row
  of the first used cell or of a drawing's top edge, where a top edge on a row's boundary stands
  in the row above (as LibreOffice counts it); it ends with the column and row of the last used
  cell or of a drawing's right and bottom edge.

A picture is read as the sheet shows it: cut to its crop (``a:srcRect``), and with each shape or
picture drawn over it later in its drawing, filled, painted over it (``_drawn_over``).

Pictures are read from the sheet's drawing parts themselves, not from openpyxl's ``sheet._images``:
openpyxl drops, with a warning, every picture Pillow cannot open or save (EMF and WMF, which Office
uses for pasted and vector pictures), and such a picture is still on the sheet. A picture whose image
is missing from the file (its relationship gone, or naming no part) is a figure too, that says so;
openpyxl refuses the whole workbook for one, so it is loaded from a copy without them
(``without_missing_images``), and the pictures are read from the workbook itself.
"""

from __future__ import annotations

import bisect
import itertools
import posixpath
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from lxml import etree
from openpyxl.drawing.spreadsheet_drawing import SpreadsheetDrawing
from openpyxl.packaging.relationship import get_dependents, get_rels_path
from openpyxl.xml.constants import IMAGE_NS
from openpyxl.xml.functions import fromstring

from ..intake.links import Link, where
from ..intake.package import PARSER, with_parts
from ..markup.blocks import Box
from ..models import Figure, FoundFigure
from ..storage.files import WITHOUT_MISSING
from .drawings import cover_colour, covered_parts, ocr_image, picture_crop, shown_picture

EMU_PER_POINT = 12700
POINTS_PER_PIXEL = 0.75
PADDING_PIXELS = 5  # what a sheet's default column width adds to its baseColWidth digits
SHEET_COLUMNS = 16384  # columns in a sheet, A to XFD: Excel's limit
SHEET_ROWS = 1048576
DEFAULT_ROW_POINTS = 15.0
DEFAULT_FONT = ("calibri", 11.0)
# The widest digit, in ems, of the font LibreOffice draws a workbook's font with where the fonts
# packages.txt installs are all it has: Office's fonts by their metric-compatible stand-ins
# (Carlito, Liberation, Caladea), and any other (Aptos, DengXian, Verdana ...) by DejaVu Sans.
DIGIT_WIDTHS = {
    "calibri": 0.5068,
    "carlito": 0.5068,
    "arial": 0.5562,
    "helvetica": 0.5562,
    "liberation sans": 0.5562,
    "times new roman": 0.5,
    "liberation serif": 0.5,
    "courier new": 0.6001,
    "liberation mono": 0.6001,
    "cambria": 0.517,
    "caladea": 0.517,
}
OTHER_FONT_DIGIT = 0.6362  # DejaVu Sans
MISSING_IMAGE = "its image is missing from the file"  # as Word's and PowerPoint's pictures say it
XDR = "{http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing}"
BLIP = "{http://schemas.openxmlformats.org/drawingml/2006/main}blip"
EMBED = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}embed"
ANCHORS = tuple(XDR + kind for kind in ("twoCellAnchor", "oneCellAnchor", "absoluteAnchor"))


def _digit_points(book) -> float:
    """The width in points of a digit of the workbook's default font as LibreOffice draws it."""
    fonts = getattr(book, "_fonts", None)
    font = fonts[0] if fonts else None
    name = font.name.strip().lower() if font is not None and font.name else DEFAULT_FONT[0]
    size = float(font.sz) if font is not None and font.sz else DEFAULT_FONT[1]
    return DIGIT_WIDTHS.get(name, OTHER_FONT_DIGIT) * size


class _Axis:
    """Where each column (or row) of a sheet starts, in points: a default size and the exceptions."""

    def __init__(self, default: float, sizes: dict[int, float], count: int):
        self.default, self.count = default, count
        self.at = sorted(sizes)
        self.extra = [0.0, *itertools.accumulate(sizes[at] - default for at in self.at)]

    def start(self, index: int) -> float:
        return index * self.default + self.extra[bisect.bisect_left(self.at, index)]

    def index(self, position: float, boundary_before: bool) -> int:
        """The column or row ``position`` stands in; one on a boundary between two stands in the
        one before when ``boundary_before``, else in the one after."""
        low, high = 0, self.count  # the first index whose start lies past the position (or on it)
        while low < high:
            middle = (low + high) // 2
            start = self.start(middle)
            if start > position or (boundary_before and start == position):
                high = middle
            else:
                low = middle + 1
        return max(low - 1, 0)


class _Grid:
    """A sheet's columns and rows as LibreOffice lays them out (see the module's docstring)."""

    def __init__(self, sheet):
        formats, digit = sheet.sheet_format, _digit_points(sheet.parent)
        default_width = (
            formats.defaultColWidth * digit
            if formats.defaultColWidth
            else (formats.baseColWidth or 8) * digit + PADDING_PIXELS * POINTS_PER_PIXEL
        )
        columns: dict[int, float] = {}
        for dimension in sheet.column_dimensions.values():
            width = 0.0 if dimension.hidden else dimension.width * digit if dimension.width else None
            if width is not None and dimension.min:
                last = min(dimension.max or dimension.min, SHEET_COLUMNS)
                columns.update(dict.fromkeys(range(dimension.min - 1, last), width))
        self.columns = _Axis(default_width, columns, SHEET_COLUMNS)
        self.rows = _Axis(
            self._row_points(formats.defaultRowHeight or DEFAULT_ROW_POINTS),
            {
                index - 1: 0.0 if dimension.hidden else self._row_points(dimension.ht)
                for index, dimension in sheet.row_dimensions.items()
                if dimension.hidden or dimension.ht
            },
            SHEET_ROWS,
        )

    @staticmethod
    def _row_points(height: float) -> float:
        return round(height / POINTS_PER_PIXEL) * POINTS_PER_PIXEL

    def x(self, marker) -> float:
        return self.columns.start(marker.col) + (marker.colOff or 0) / EMU_PER_POINT

    def y(self, marker) -> float:
        return self.rows.start(marker.row) + (marker.rowOff or 0) / EMU_PER_POINT

    def page(self, used: tuple[int, int, int, int] | None, boxes: list) -> tuple[float, float, float, float]:
        """The page LibreOffice draws, in points on the sheet: from the first to the last used cell
        (``used``: first and last column and row, 0-based) or drawing (``boxes``), in whole columns
        and rows."""
        first_columns = [self.columns.index(box[0], False) for box in boxes]
        first_rows = [self.rows.index(box[1], True) for box in boxes]
        last_columns = [self.columns.index(box[2], True) for box in boxes]
        last_rows = [self.rows.index(box[3], True) for box in boxes]
        if used:
            first_columns, first_rows = [*first_columns, used[0]], [*first_rows, used[1]]
            last_columns, last_rows = [*last_columns, used[2]], [*last_rows, used[3]]
        return (
            self.columns.start(min(first_columns)),
            self.rows.start(min(first_rows)),
            self.columns.start(max(last_columns) + 1),
            self.rows.start(max(last_rows) + 1),
        )


def _points(anchor, grid: _Grid) -> tuple[float, float, float, float] | None:
    """An anchor's (left, top, right, bottom) in points: two cells, a cell and a size, or a position and a size."""
    kind = type(anchor).__name__
    if kind == "TwoCellAnchor":
        return grid.x(anchor._from), grid.y(anchor._from), grid.x(anchor.to), grid.y(anchor.to)
    if kind == "OneCellAnchor" and anchor.ext is not None:
        left, top = grid.x(anchor._from), grid.y(anchor._from)
        return left, top, left + anchor.ext.width / EMU_PER_POINT, top + anchor.ext.height / EMU_PER_POINT
    if kind == "AbsoluteAnchor" and anchor.pos is not None and anchor.ext is not None:
        left, top = anchor.pos.x / EMU_PER_POINT, anchor.pos.y / EMU_PER_POINT
        return left, top, left + anchor.ext.width / EMU_PER_POINT, top + anchor.ext.height / EMU_PER_POINT
    return None


def _relations(package: zipfile.ZipFile, drawing: str) -> list:
    """A drawing part's relationships."""
    relations_part = get_rels_path(drawing)
    return list(get_dependents(package, relations_part)) if relations_part in package.namelist() else []


def _targets(package: zipfile.ZipFile, drawing: str) -> dict[str, Any]:
    """A drawing part's relationships by id, of those naming a part the package holds."""
    names = set(package.namelist())
    return {
        relation.Id: relation
        for relation in _relations(package, drawing)
        if relation.TargetMode != "External" and relation.target in names
    }


def _outside(relations: list) -> dict[str, str]:
    """The targets outside the file of a drawing's ``relations``, by id."""
    return {relation.Id: relation.target for relation in relations if relation.TargetMode == "External"}


def _linked(drawing, outside: dict[str, str]) -> list[tuple[Link, object]]:
    """The pictures of a drawing that only link their image outside the file (by ``r:link``, which
    openpyxl does not list, or an ``r:embed`` naming an external target), each as (its ``Link``,
    its anchor)."""
    linked = []
    for anchor in drawing.absoluteAnchor + drawing.oneCellAnchor + drawing.twoCellAnchor:
        picture = anchor.pic or (anchor.groupShape and anchor.groupShape.pic)
        blip = picture.blipFill.blip if picture and picture.blipFill else None
        target = (outside.get(blip.embed) or (outside.get(blip.link) if not blip.embed else None)) if blip else None
        if target is not None:
            linked.append((Link("picture", where(target)), anchor))
    return linked


def _drawn_over(drawing, root) -> dict[int, tuple]:
    """For each anchor of the openpyxl ``drawing`` (by ``id``), its crop and what is drawn over it:
    the anchors after it in the drawing's own XML (``root``: openpyxl keeps each kind of anchor in a
    list of its own, so loses their order) whose shape or picture hides what is under it, each with
    its colour."""
    kinds = {
        "twoCellAnchor": drawing.twoCellAnchor,
        "oneCellAnchor": drawing.oneCellAnchor,
        "absoluteAnchor": drawing.absoluteAnchor,
    }
    seen, ordered = dict.fromkeys(kinds, 0), []
    for element in root:
        kind = etree.QName(element).localname if isinstance(element.tag, str) else None
        if kind in kinds and seen[kind] < len(kinds[kind]):
            shape = next((child for child in element if etree.QName(child).localname in ("sp", "pic")), None)
            ordered.append((kinds[kind][seen[kind]], element, cover_colour(shape) if shape is not None else None))
            seen[kind] += 1
    return {
        id(anchor): (picture_crop(element), [(later, colour) for later, _, colour in ordered[index + 1 :] if colour])
        for index, (anchor, element, _) in enumerate(ordered)
    }


def _pictures(sheet, package: zipfile.ZipFile) -> list[tuple[bytes | str | Link, object, tuple]]:
    """Each picture the sheet's drawings anchor (``package`` is the workbook itself), as (its image
    as ``ocr_image`` gives it, or ``MISSING_IMAGE``, or the ``Link`` of one it only links; its
    anchor; its crop and the anchors drawn over it, ``_drawn_over``), in openpyxl's order, linked
    ones last. A drawing openpyxl cannot parse is skipped (openpyxl warned that it lost it, charts
    and all), as is one the package lacks: neither costs the sheet's other figures."""
    pictures: list[tuple[bytes | str | Link, object, tuple]] = []
    for relation in sheet._rels.find(SpreadsheetDrawing._rel_type):
        try:
            data = package.read(relation.target)
            drawing = SpreadsheetDrawing.from_tree(fromstring(data))
        except (TypeError, KeyError):  # shapes openpyxl does not know ("DrawingML support is incomplete"), no part
            continue
        over = _drawn_over(drawing, etree.fromstring(data, PARSER))
        parts, outside = _targets(package, relation.target), _outside(_relations(package, relation.target))
        for blip in drawing._blip_rels:
            part = parts.get(blip.embed)
            shown = over.get(id(blip.anchor), (None, []))
            if blip.embed in outside:
                continue  # one of _linked's
            if part is None:
                pictures.append((MISSING_IMAGE, blip.anchor, shown))
            elif part.Type == IMAGE_NS:
                extension = posixpath.splitext(part.target)[1].lstrip(".").lower() or "image"
                pictures.append((ocr_image(package.read(part.target), extension), blip.anchor, shown))
        pictures += [(link, anchor, (None, [])) for link, anchor in _linked(drawing, outside)]
    return pictures


def without_missing_images(job) -> Path | None:
    """A copy of the job's workbook whose drawings leave out each picture whose image is missing
    from the file, for openpyxl, which refuses the whole workbook for one; None when no picture
    misses its image. Made once per content hash."""
    target = job.services.store.path(job.sha256, WITHOUT_MISSING, job.kind)
    if target.is_file():
        return target
    with zipfile.ZipFile(job.path) as package:
        drawings, left_out = {}, 0
        for name in package.namelist():
            if name.startswith("xl/drawings/") and name.endswith(".xml"):
                root, parts = etree.fromstring(package.read(name), PARSER), _targets(package, name)
                missing = [
                    anchor
                    for anchor in root
                    if anchor.tag in ANCHORS
                    and any(blip.get(EMBED) and blip.get(EMBED) not in parts for blip in anchor.iter(BLIP))
                ]
                for anchor in missing:
                    root.remove(anchor)
                drawings[name] = etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)
                left_out += len(missing)
        if not left_out:
            return None
        copy = with_parts(package, drawings)
    job.services.store.put_bytes(job.sha256, WITHOUT_MISSING, copy, job.kind)
    return target


@dataclass(frozen=True)
class SheetPlaces:
    """Where a sheet's parts stand on its page, as fractions of it (LibreOffice draws a sheet on one page):
    its ``figures`` (charts and pictures, top to bottom then left to right), each chart's box in the sheet's
    order (``charts``), and the box of each range of cells asked for (``cells``)."""

    figures: list[FoundFigure]
    charts: list[Box | None]
    cells: list[Box | None]
    lost: str | None = None  # why its drawings could not be placed, when they could not


def sheet_places(
    sheet, charts: Sequence[str | None], package: zipfile.ZipFile, ranges: list[tuple[int, int, int, int]]
) -> SheetPlaces:
    """The sheet's charts (``charts``: each one's label, "column, 2 series", in ``sheet._charts``' order) and
    pictures (``_pictures`` of ``package``) as figures: kind, box, has_text, chart; a picture's ``image`` (its PNG
    or JPEG bytes), or ``unreadable`` saying why they cannot be had (an EMF or WMF picture: Pillow cannot draw one
    here), or ``linked``, where one the file only links points (never loaded); and the boxes of ``ranges`` of
    cells (first column, first row, last column, last row, 0-based)."""
    grid = _Grid(sheet)
    placed: list[tuple[Figure, dict | None, Box | None]] = []
    for chart, label in zip(sheet._charts, charts):
        placed.append((Figure("drawing", (0.0,) * 4, has_text=True, chart=label), None, _points(chart.anchor, grid)))
    for image, anchor, (crop, over) in _pictures(sheet, package):
        if isinstance(image, bytes) and (anchored := _points(anchor, grid)):
            over_it = [(box, colour) for later, colour in over if (box := _points(later, grid))]
            image = shown_picture(image, crop, covered_parts(anchored, over_it))
        held = (
            {"image": image} if isinstance(image, bytes) else {} if isinstance(image, Link) else {"unreadable": image}
        )
        linked = image.where if isinstance(image, Link) else None
        placed.append((Figure("picture", (0.0,) * 4, linked=linked), held, _points(anchor, grid)))
    drawn = [box for *_, box in placed if box and box[2] > box[0] and box[3] > box[1]]
    used = (sheet.min_column - 1, sheet.min_row - 1, sheet.max_column - 1, sheet.max_row - 1) if sheet._cells else None
    if not drawn and used is None:
        return SheetPlaces([], [None] * len(sheet._charts), [None] * len(ranges))
    left, top, right, bottom = grid.page(used, drawn)
    width, height = right - left, bottom - top

    def fractions(box) -> Box:
        return tuple(
            round(min(max((value - start) / extent, 0.0), 1.0), 4)
            for value, start, extent in zip(box, (left, top, left, top), (width, height, width, height))
        )

    figures: list[FoundFigure] = []
    chart_boxes: list[Box | None] = []
    for figure, found, box in placed:
        shown = fractions(box) if box and box[2] > box[0] and box[3] > box[1] else None
        if found is None:
            chart_boxes.append(shown)
        if shown is not None:
            figures.append(FoundFigure(replace(figure, box=shown), **(found or {})))
    cells: list[Box | None] = [
        fractions((grid.columns.start(c0), grid.rows.start(r0), grid.columns.start(c1 + 1), grid.rows.start(r1 + 1)))
        for c0, r0, c1, r1 in ranges
    ]
    return SheetPlaces(sorted(figures, key=lambda found: (found.box[1], found.box[0])), chart_boxes, cells)
