"""A page pdfminer cannot parse, read from pdfium's characters instead: no page is lost where an
engine can read it.

pdfminer gives up on some pages that pdfium reads (a colour space it does not know, an object it
cannot find, a page tree it cannot walk). ``pdfium_page`` reads such a page's characters from pdfium
(each with its loose box, font, size and origin, as ``readers.pdf.records.Char``) and lays them out
with the page engine's own words and reading order (``readers.pdf.layout.plain_markdown``); what
only pdfminer's objects give is left out: ruled tables, figures, links and furniture at the edges.
A page with no characters but something drawn on it is a scan, read whole by OCR.
"""

from __future__ import annotations

import ctypes
import math

import pypdfium2.raw as pdfium_c

from ..render.pdfium import rendered_png
from .figures import OCR_DPI, OCR_MAX_SIDE
from .layout import plain_markdown
from .records import Char
from .spelling import plain

NOT_TEXT = {0, 0xA, 0xD, 0xFFFE, 0xFFFF}  # line ends pdfium adds, and its marks for a glyph it cannot map
FONT_NAME = 128  # bytes: room for a font's name


def pdfium_chars(pdfium_page) -> list[Char]:
    """The characters pdfium reads on ``pdfium_page``, in the order the PDF draws them, as the page
    engine's records: from the page's top left, their boxes as high as their font (pdfium's loose boxes)."""
    textpage = pdfium_page.get_textpage()
    left, bottom, _, top = pdfium_page.get_mediabox()
    chars: list[Char] = []
    try:
        handle, box, matrix = textpage.raw, pdfium_c.FS_RECTF(), pdfium_c.FS_MATRIX()
        x, y, flags, name = ctypes.c_double(), ctypes.c_double(), ctypes.c_int(), ctypes.create_string_buffer(FONT_NAME)
        for index in range(textpage.count_chars()):
            code = pdfium_c.FPDFText_GetUnicode(handle, index)
            if code in NOT_TEXT or pdfium_c.FPDFText_IsGenerated(handle, index):
                continue
            pdfium_c.FPDFText_GetLooseCharBox(handle, index, box)
            pdfium_c.FPDFText_GetCharOrigin(handle, index, x, y)
            pdfium_c.FPDFText_GetMatrix(handle, index, matrix)
            pdfium_c.FPDFText_GetFontInfo(handle, index, name, FONT_NAME, flags)
            size = pdfium_c.FPDFText_GetFontSize(handle, index) * math.hypot(matrix.c, matrix.d)  # Tf times the matrix
            chars.append(
                {
                    "text": chr(code),
                    "fontname": name.value.decode("latin-1"),
                    "size": size,
                    "upright": matrix.a * matrix.d > 0 and matrix.b * matrix.c <= 0,  # as pdfminer tells it
                    "x0": box.left - left,
                    "x1": box.right - left,
                    "top": top - box.top,
                    "bottom": top - box.bottom,
                    "y0": box.bottom - bottom,
                    "y1": box.top - bottom,
                    "height": box.top - box.bottom,
                    "adv": box.right - box.left,
                    "matrix": (matrix.a, matrix.b, matrix.c, matrix.d, x.value - left, y.value - bottom),
                }
            )
    finally:
        textpage.close()
    return chars


def pdfium_page(document, number: int, dpi: int | None, failure: Exception) -> dict:
    """Page ``number``'s extraction (``readers.pdf.pages``' form) from pdfium's characters, where
    pdfminer failed with ``failure`` (named in its ``read_by``); raises ``failure`` if pdfium cannot
    read the page either."""
    try:
        page = document[number - 1]
    except Exception:  # noqa: BLE001 - pdfium raises its own types for a page it cannot load
        raise failure from None
    try:
        chars = pdfium_chars(page)
        text, unruled = plain_markdown(chars)
        text, unruled = plain(text), [plain(table) for table in unruled]
        drawn = not chars and pdfium_c.FPDFPage_CountObjects(page.raw) > 0
        bitmap = page.render(scale=dpi / 72, rev_byteorder=True) if dpi else None
        longest = max(page.get_width(), page.get_height()) / 72
    except Exception:  # noqa: BLE001
        raise failure from None
    finally:
        page.close()
    scan = {"kind": "scan", "box": [0.0, 0.0, 1.0, 1.0], "caption": None, "has_text": False}
    return {
        "number": number,
        "text": text,
        "tables": sorted(unruled, key=text.find),
        "has_text": bool(chars),
        "unmapped": 0,
        "figures": [{**scan, "dpi": max(1, int(min(OCR_DPI, OCR_MAX_SIDE / longest)))}] if drawn else [],
        "placed": [],  # its lines are not placed: pdfium's characters are read without the layout's boxes
        "png": rendered_png(bitmap) if bitmap else None,
        "read_by": f"{type(failure).__name__}: {failure}",
    }
