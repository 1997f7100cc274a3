"""A sheet's figures from the workbook itself: where its charts and pictures stand, with no render.

LibreOffice Calc draws a sheet as one page from cell A1 to the last used cell or drawing, so a
drawing's box on that page is its anchor (cell and offset, or an absolute position) over that
extent, measured in the sheet's own column widths and row heights (Excel's pixels: a column of
width w is 7w + 5 px, a row of h points is 4h/3 px; hidden ones are 0).

Pictures are read from the sheet's drawing parts themselves, not from openpyxl's ``sheet._images``:
openpyxl drops, with a warning, every picture Pillow cannot open or save (EMF and WMF, which Office
uses for pasted and vector pictures), and such a picture is still on the sheet.
"""

from __future__ import annotations

import base64
import posixpath
import zipfile

from openpyxl.drawing.spreadsheet_drawing import SpreadsheetDrawing
from openpyxl.packaging.relationship import get_dependents, get_rels_path
from openpyxl.xml.constants import IMAGE_NS
from openpyxl.xml.functions import fromstring

from .drawings import ocr_image

EMU_PER_PIXEL = 9525
DEFAULT_COLUMN_WIDTH = 8.43  # characters, Excel's default
COLUMN_PADDING = 0.43  # characters Excel adds to baseColWidth for a column's default width (8 + 0.43)
SHEET_COLUMNS = 16384  # columns in a sheet, A to XFD: Excel's limit
DEFAULT_ROW_POINTS = 15.0


class _Grid:
    """Where a column or row starts on the sheet, in pixels."""

    def __init__(self, sheet):
        formats = sheet.sheet_format
        default_width = formats.defaultColWidth or ((formats.baseColWidth or 8) + COLUMN_PADDING)
        self.column_default = round(7 * default_width + 5)
        self.columns: dict[int, int] = {}  # 0-based column -> its pixels, where not the default
        for dimension in sheet.column_dimensions.values():
            width = (
                0
                if dimension.hidden
                else round(7 * dimension.width + 5)
                if dimension.customWidth and dimension.width
                else None
            )
            if width is not None and dimension.min:
                for column in range(
                    dimension.min - 1, min(dimension.max or dimension.min, dimension.min + SHEET_COLUMNS)
                ):
                    self.columns[column] = width
        self.row_default = round((formats.defaultRowHeight or DEFAULT_ROW_POINTS) * 4 / 3)
        self.rows = {
            index - 1: 0 if dimension.hidden else round(dimension.ht * 4 / 3)
            for index, dimension in sheet.row_dimensions.items()
            if dimension.hidden or dimension.ht
        }

    @staticmethod
    def _start(index: int, default: int, sizes: dict[int, int]) -> int:
        return index * default + sum(size - default for at, size in sizes.items() if at < index)

    def x(self, marker) -> float:
        return self._start(marker.col, self.column_default, self.columns) + (marker.colOff or 0) / EMU_PER_PIXEL

    def y(self, marker) -> float:
        return self._start(marker.row, self.row_default, self.rows) + (marker.rowOff or 0) / EMU_PER_PIXEL

    def corner(self, columns: int, rows: int) -> tuple[int, int]:
        """The pixels to the far corner of the first ``columns`` columns and ``rows`` rows."""
        return self._start(columns, self.column_default, self.columns), self._start(rows, self.row_default, self.rows)


def _pixels(anchor, grid: _Grid) -> tuple[float, float, float, float] | None:
    """An anchor's (left, top, right, bottom) in pixels: two cells, a cell and a size, or a position and a size."""
    kind = type(anchor).__name__
    if kind == "TwoCellAnchor":
        return grid.x(anchor._from), grid.y(anchor._from), grid.x(anchor.to), grid.y(anchor.to)
    if kind == "OneCellAnchor" and anchor.ext is not None:
        left, top = grid.x(anchor._from), grid.y(anchor._from)
        return left, top, left + anchor.ext.width / EMU_PER_PIXEL, top + anchor.ext.height / EMU_PER_PIXEL
    if kind == "AbsoluteAnchor" and anchor.pos is not None and anchor.ext is not None:
        left, top = anchor.pos.x / EMU_PER_PIXEL, anchor.pos.y / EMU_PER_PIXEL
        return left, top, left + anchor.ext.width / EMU_PER_PIXEL, top + anchor.ext.height / EMU_PER_PIXEL
    return None


def _pictures(sheet, package: zipfile.ZipFile) -> list[tuple[bytes | str, object]]:
    """Each picture the sheet's drawings anchor (``package`` is the workbook openpyxl loaded), as
    (its image as ``ocr_image`` gives it, its anchor), in openpyxl's order. A drawing openpyxl
    cannot parse is skipped: openpyxl warned that it lost it, charts and all."""
    pictures = []
    for relation in sheet._rels.find(SpreadsheetDrawing._rel_type):
        try:
            drawing = SpreadsheetDrawing.from_tree(fromstring(package.read(relation.target)))
        except TypeError:  # shapes openpyxl does not know (its "DrawingML support is incomplete")
            continue
        relations_part = get_rels_path(relation.target)
        parts = get_dependents(package, relations_part) if relations_part in package.namelist() else None
        for blip in drawing._blip_rels:
            part = parts.get(blip.embed) if parts is not None else None
            if part is not None and part.Type == IMAGE_NS:
                extension = posixpath.splitext(part.target)[1].lstrip(".").lower() or "image"
                pictures.append((ocr_image(package.read(part.target), extension), blip.anchor))
    return pictures


def sheet_figures(sheet, charts: list[str | None], package: zipfile.ZipFile) -> list[dict]:
    """The sheet's charts (``charts``: each one's label, "column, 2 series", in ``sheet._charts``'
    order) and pictures (``_pictures`` of ``package``) as figures, top to bottom then left to right:
    kind, box (fractions of the sheet's page), caption, has_text, chart; a picture's ``image`` is its
    PNG or JPEG bytes in base64 (the extraction is cached as JSON), or ``unreadable`` says why they
    cannot be had (an EMF or WMF picture: Pillow cannot draw one here)."""
    grid = _Grid(sheet)
    placed = []
    for chart, label in zip(sheet._charts, charts):
        placed.append(({"kind": "drawing", "has_text": True, "chart": label}, _pixels(chart.anchor, grid)))
    for image, anchor in _pictures(sheet, package):
        kept = {"image": base64.b64encode(image).decode()} if isinstance(image, bytes) else {"unreadable": image}
        placed.append(({"kind": "picture", "has_text": False, "chart": None, **kept}, _pixels(anchor, grid)))
    placed = [(figure, box) for figure, box in placed if box and box[2] > box[0] and box[3] > box[1]]
    if not placed:
        return []
    used_right, used_bottom = grid.corner(sheet.max_column if sheet._cells else 0, sheet.max_row if sheet._cells else 0)
    width = max(used_right, *(box[2] for _, box in placed))
    height = max(used_bottom, *(box[3] for _, box in placed))
    figures = [
        {
            **figure,
            "caption": None,
            "box": tuple(
                round(min(max(value / extent, 0.0), 1.0), 4)
                for value, extent in zip(box, (width, height, width, height))
            ),
        }
        for figure, box in placed
    ]
    return sorted(figures, key=lambda figure: (figure["box"][1], figure["box"][0]))
