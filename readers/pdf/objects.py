"""A page's objects as pdfplumber gives them, its characters built in a third of pdfplumber's time.

pdfplumber turns each of pdfminer's layout items into a dict by resolving every attribute the
slow way (a recursive ``resolve_all`` on each float, a text decoding of the colour space's name per
character): on a page of 4,000 characters that is a sixth of the page's whole extraction. A
character's attributes are numbers, strings and tuples of numbers, which resolve to themselves,
so ``PlumberPage`` copies those as they are and builds the same dict, key for key in the same order
(``tests/test_pdf_objects.py`` compares it with pdfplumber's on real pages); any other value goes
through pdfplumber's ``resolve_all``, and a character whose font name is bytes, and every object
that is not a character, through pdfplumber's own ``process_object``.
"""

from __future__ import annotations

from functools import cache
from unicodedata import normalize

import pdfplumber
from pdfminer.layout import LTChar
from pdfplumber.page import ALL_ATTRS
from pdfplumber.utils import resolve_all, resolve_and_decode

_PLAIN = frozenset({float, int, str, bool, type(None)})  # what resolve_all gives back as it is


def _resolved(value):
    if type(value) is tuple and _PLAIN.issuperset(map(type, value)):
        return value
    return resolve_all(value)


@cache
def _space_name(name: str) -> str:
    """A colour space's name decoded as pdfplumber decodes it; a page names a handful."""
    return resolve_and_decode(name)


class PlumberPage(pdfplumber.page.Page):
    """pdfplumber's page, whose characters are built without resolving what needs no resolving."""

    def process_object(self, obj):
        if type(obj) is not LTChar or type(obj.fontname) is not str:
            return super().process_object(obj)
        attr = {
            key: value if type(value) in _PLAIN else _resolved(value)
            for key, value in vars(obj).items()
            if key in ALL_ATTRS
        }
        attr["object_type"] = "char"
        attr["page_number"] = self.page_number
        for space in ("ncs", "scs"):
            if hasattr(obj, space):
                name = getattr(obj, space).name
                attr[space] = _space_name(name) if type(name) is str else resolve_and_decode(name)
        text = obj.get_text()
        attr["text"] = normalize(self.pdf.unicode_norm, text) if self.pdf.unicode_norm is not None else text
        state = obj.graphicstate
        attr["stroking_color"] = state.scolor if isinstance(state.scolor, tuple) else (state.scolor,)
        attr["non_stroking_color"] = state.ncolor if isinstance(state.ncolor, tuple) else (state.ncolor,)
        height, left, top = self._frame()
        attr["top"] = (height - attr["y1"]) + top
        attr["bottom"] = (height - attr["y0"]) + top
        attr["doctop"] = self.initial_doctop + attr["top"]
        if left != 0:
            attr["x0"] = attr["x0"] + left
            attr["x1"] = attr["x1"] + left
        return attr

    def _frame(self) -> tuple[float, float, float]:
        """The page's height and its MediaBox's left and top, which pdfminer's coordinates are shifted by."""
        if not hasattr(self, "_frame_values"):
            self._frame_values = (self.height, *self.mediabox[:2])
        return self._frame_values


class CharsPage(pdfplumber.page.DerivedPage):
    """A pdfplumber page whose characters are given (``readers.pdf.pages``: struck once, each glyph
    pdfminer cannot map read by pdfium), its other objects its ``parent``'s."""

    def __init__(self, parent: pdfplumber.page.Page, chars: list[dict]):
        self.bbox = parent.bbox
        self._chars = chars
        super().__init__(parent)

    @property
    def objects(self) -> dict[str, list[dict]]:
        return {**self.parent_page.objects, "char": self._chars}
