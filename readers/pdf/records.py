"""The records a PDF page's text travels in between the modules of ``readers.pdf``: plain dicts, typed
so that an editor and a type checker know their fields. Nothing is built, copied or checked for them
at run time: a word is still read as ``word["x0"]`` and told apart by ``id(word)``.

- ``Char``: a character as pdfplumber gives it (``page.chars``), with the keys the page engine
  reads. ``readers.pdf.words`` makes changed copies: straightened, set upright, an accent set on
  its letter, a glyph pdfminer cannot map read by pdfium. Read by ``words``, ``layout``, ``cells``
  and the chart readers (``readers.pdf.charts``).
- ``Word``: a word of ``readers.pdf.words`` (``page_words``, ``line_words``): its text, its
  characters, its line's baseline and its box. Read by ``layout`` (which turns each into an
  ``Item``) and ``cells``.
- ``Item``: one thing placed in a page's reading order by ``readers.pdf.layout``: a word with its
  size, font, boldness and link (``readers.pdf.items.word_items``), or a block that stands where it is on the page
  (a ruled table, a figure's labels, a chart rebuilt) with its Markdown in ``block``. Read by
  ``unruled``, ``furniture``, ``headings`` and the chart readers.

Each has its box (``Boxed``): ``x0``, ``x1``, ``top`` and ``bottom``, in points from the page's top
left, as pdfplumber gives them.
"""

from typing import NotRequired, TypedDict

Matrix = tuple[float, float, float, float, float, float]  # a glyph's text matrix: a, b, c, d, e, f


class Boxed(TypedDict):
    """What stands on the page in a box."""

    x0: float
    x1: float
    top: float
    bottom: float


class Char(Boxed):
    """A character of pdfplumber's ``page.chars`` (which hold more keys than the engine reads)."""

    text: str
    fontname: str
    size: float
    upright: bool  # pdfminer's: reads left to right, level or slanted (``words.is_level`` tells which)
    y0: float  # the box's bottom and top, from the page's bottom
    y1: float
    height: float
    adv: float  # the glyph's advance along its baseline
    matrix: Matrix  # its baseline is at f from the page's bottom


class Word(Boxed):
    """A word of ``readers.pdf.words``; text set at a slant is pdfplumber's word, with more keys."""

    text: str
    chars: list[Char]
    base: float  # its line's baseline, from the page's top: a table's rows are told apart on it


class Item(Boxed):
    """A word or a block in a page's reading order (``readers.pdf.layout``). A word's item has
    ``size``, ``font``, ``bold`` and ``link``, and ``edge`` once the lines at the page's top and
    bottom are found; a block's has ``block`` and an empty ``text``."""

    text: str
    size: NotRequired[float]  # the word's largest character's
    font: NotRequired[str | None]  # the font most of its characters are set in
    bold: NotRequired[bool]  # every character in a bold font
    link: NotRequired[str | None]  # the link annotation over the word's middle
    edge: NotRequired[bool]  # on a line at the page's top or bottom edge (``readers.pdf.furniture``)
    block: NotRequired[str]  # the block's Markdown
    rows: NotRequired[list[list]]  # a table's cells (``readers.pdf.aligned``)
    spans: NotRequired[list[tuple[float, float]]]  # each of its columns' left and right, left to right, when known
    chart: NotRequired[bool]  # the block is a chart rebuilt from the figure's drawing (``readers.pdf.charts``)
