"""A page pdfminer cannot parse, read from pdfium's characters instead: no page is lost where an
engine can read it.

pdfminer gives up on some pages that pdfium reads (a colour space it does not know, an object it
cannot find, a page tree it cannot walk). ``pdfium_page`` reads such a page's characters from pdfium
(each with its loose box, font, size and origin, as ``readers.pdf.records.Char``) and lays them out
with the page engine's own words and reading order (``readers.pdf.layout.plain_markdown``); what
only pdfminer's objects give is left out: ruled tables, figures, links and furniture at the edges.
A page with no characters but something drawn on it is a scan, read whole by OCR. And on a page
pdfminer reads, a glyph it cannot map (``(cid:N)``) is read by pdfium at its place (``mapped``), and so is a
glyph drawn for many letters, each given as the page's actual text, which pdfminer does not read.
"""

from __future__ import annotations

import ctypes
import math
import re

import pypdfium2.raw as pdfium_c

from ..render.pdfium import rendered_png
from .figures import OCR_DPI, OCR_MAX_SIDE
from .layout import plain_markdown
from .records import Char
from .spelling import drawn_hyphens, plain
from .unsure import doubts
from .words import LEFT_OUT

NOT_TEXT = {0, 0xA, 0xD, 0xFFFE, 0xFFFF}  # line ends pdfium adds, and its marks for a glyph it cannot map
BROKEN_HYPHEN = 0x2  # pdfium's character for a hyphen (or a soft hyphen) that breaks a word at a line's end
FONT_NAME = 128  # bytes: room for a font's name
CID = re.compile(r"^\(cid:\d+\)$")  # pdfminer's name for a glyph it cannot map to text
SAME_GLYPH = 0.25  # of the size: pdfium's character for a glyph pdfminer cannot map starts this close to it
ACTUAL_TEXT = b"/ActualText"  # a page's marked text that stands for what its glyphs draw
STAND_INS = 3  # times one glyph is drawn, as as many different letters, at least: it stands in for them
SYMBOL_FONT = "Symbol"  # the standard Greek and mathematical font, whose letters pdfminer reads as Latin


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
            broken = code == BROKEN_HYPHEN and pdfium_c.FPDFText_IsHyphen(handle, index) == 1
            size = pdfium_c.FPDFText_GetFontSize(handle, index) * math.hypot(matrix.c, matrix.d)  # Tf times the matrix
            chars.append(
                {
                    "text": "-" if broken else chr(code),
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
        chars = drawn_hyphens(pdfium_chars(page))
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
    tables = sorted(unruled, key=text.find)
    return {
        "number": number,
        "text": text,
        "tables": tables,
        "doubts": [doubts(table) for table in tables],
        "has_text": bool(chars),
        "unmapped": 0,
        "figures": [{**scan, "dpi": max(1, int(min(OCR_DPI, OCR_MAX_SIDE / longest)))}] if drawn else [],
        "placed": [],  # its lines are not placed: pdfium's characters are read without the layout's boxes
        "png": rendered_png(bitmap) if bitmap else None,
        "read_by": f"{type(failure).__name__}: {failure}",
    }


def _unread(char: Char) -> bool:
    """pdfminer has no text for the glyph (``(cid:N)``), or reads a letter of the Symbol font by the
    standard encoding: a chi as "c" (the font not embedded, its encoding its own; pdfium knows it)."""
    return bool(CID.match(char["text"])) or (
        char["fontname"].split("+")[-1] == SYMBOL_FONT and char["text"].isascii() and char["text"].isalpha()
    )


def _at(textpage, char: Char, bottom: float) -> tuple[str, float | None]:
    """The character pdfium reads where ``char``'s glyph starts, and its right edge ("" and None for none: no
    character there, one pdfium has no map for, or one that starts elsewhere, the letter before found for a
    space)."""
    # pdfminer gives an unmapped glyph no width: ask pdfium for the character at its start, and its width.
    index = textpage.get_index(
        char["x0"] + 0.5, (char["y0"] + char["y1"]) / 2 + bottom, char["size"] / 2, char["size"] / 2
    )
    # pypdfium2 answers None or -1 when no character is there; pdfium too may have no map for the glyph
    if index is None or index < 0 or pdfium_c.FPDFText_HasUnicodeMapError(textpage.raw, index):
        return "", None
    box = textpage.get_charbox(index)
    if abs(box[0] - char["x0"]) > SAME_GLYPH * char["size"]:
        return "", None
    return textpage.get_text_range(index, 1), box[2]


def _doubled(chars: list[Char], index: int) -> bool:
    """The char next to ``chars[index]`` on its line, before or after it, is the same glyph of the same font."""
    char = chars[index]
    return any(
        0 <= other < len(chars)
        and (chars[other]["text"], chars[other]["fontname"]) == (char["text"], char["fontname"])
        and abs(chars[other]["y0"] - char["y0"]) < char["size"] / 2
        for other in (index - 1, index + 1)
    )


def _stand_ins(chars: list[Char], contents: bytes, textpage, bottom: float) -> set[int]:
    """The chars (their indices) whose glyph stands in for text the page gives as ``/ActualText``: a glyph
    pdfminer, which knows no actual text, reads as one letter ``STAND_INS`` times or more, most of them beside
    itself, where pdfium reads as many different letters, most of them not that one (a print drawing each letter
    of a script its font lacks as one box, "शशशशश" for "शून्य"). Small capitals given their capitals, a ligature
    its letters, or letters laid out from the right are none: no glyph stands beside itself so often."""
    if ACTUAL_TEXT not in contents:
        return set()
    groups: dict[tuple[str, str], list[int]] = {}
    for index, char in enumerate(chars):
        groups.setdefault((char["fontname"], char["text"]), []).append(index)
    found: set[int] = set()
    for (_, text), members in groups.items():
        if len(members) < STAND_INS or not text.isalpha():  # a space is found where its neighbours stand
            continue
        if sum(_doubled(chars, index) for index in members) <= len(members) / 2:
            continue
        read = [_at(textpage, chars[index], bottom)[0] for index in members]
        letters = {letter for letter in read if letter.isalpha()}
        if len(letters) >= STAND_INS and sum(letter != text for letter in read) > len(read) / 2:
            found.update(members)
    return found


def mapped(chars: list[Char], pdfium_page, contents: bytes) -> tuple[list[Char], int]:
    """Each char pdfminer cannot read (``_unread``), or reads as the glyph that stands in for other text
    (``_stand_ins``: the page's ``contents`` say), with the text pdfium reads at its place, or a ``(cid:N)`` one
    left out where pdfium has no map for that glyph either (a pi font's arrow would read as its code's letter);
    and how many were left out."""
    if ACTUAL_TEXT not in contents and not any(_unread(char) for char in chars):
        return chars, 0
    textpage = pdfium_page.get_textpage()
    # pdfplumber's x is the page's own; its y0 is pdfminer's, from the bottom of the page's MediaBox
    bottom = pdfium_page.get_mediabox()[1]
    kept: list[Char] = []
    dropped = 0
    try:
        standing = _stand_ins(chars, contents, textpage, bottom)
        for index, char in enumerate(chars):
            if not (_unread(char) or index in standing):
                kept.append(char)
                continue
            found, right = _at(textpage, char, bottom)
            placed: Char = {
                **char,
                "x1": max(char["x1"], right if right is not None else char["x0"] + char["size"] / 2),
            }
            if len(found) == 1 and found.isprintable() and not found.isspace():
                kept.append({**placed, "text": found})
            elif not CID.match(char["text"]):  # a Symbol letter pdfium does not find: pdfminer's, as read
                kept.append(char)
            else:  # left out, but its place kept by a zero-width space, so the word around it stays one word
                kept.append({**placed, "text": LEFT_OUT})
                dropped += 1
    finally:
        textpage.close()
    return kept, dropped
