"""What the walker makes of a Word document and page assembly places: blocks of Markdown."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...markup.blocks import BlockKind, Cell


@dataclass
class Block:
    """One paragraph, list item, table, comment, ... of the document, as Markdown.

    ``kind`` is what it is (``readers.models.BlockKind``), with a heading's or a list item's
    ``level``. ``plain`` is its text as the page shows it (no Markdown, no link targets): what finds its
    page in the render. Blocks with no ``plain`` (comments, notes) follow the block before them.
    ``top``/``bottom`` are shown at the top and the bottom of the page the block is on: headers,
    and footnotes and footers.
    """

    markdown: str
    plain: str = ""
    kind: BlockKind = BlockKind.PARAGRAPH
    level: int = 0
    bottom: list[str] = field(default_factory=list)
    pictures: int = 0
    compact: str = ""  # a table's cells on one line, for a header or a cell that holds it
    rows: list[list[str]] = field(default_factory=list)  # a table's cells, to cut it where pages break
    cells: list[tuple[Cell, ...]] = field(default_factory=list)  # and its cells with their spans, row by row
    row_letters: list[int] = field(default_factory=list)  # how many letters each row shows
    heading_rows: int = 0  # rows Word repeats at the top of each page the table runs onto
    repeated: str = ""  # the text of those rows
    aside: bool = False  # a comment or a table in a cell: it stays outside the table cell it was made in
    margins: Margins | None = None  # on a section's first block: the section's headers and footers


@dataclass
class Margins:
    """A section's headers and footers, each one line, by the pages they stand on (their type):
    ``first`` on the section's first page when it has a title page, ``even`` on even pages when
    the document tells even from odd, ``default`` on the others. A type a section does not define
    is its previous section's, as in Word."""

    headers: dict[str, str]
    footers: dict[str, str]
    title_page: bool

    def lines(self, first: bool, even: bool) -> list[str]:
        """The header and footer of a page: the section's first page or not, an even page (in a
        document that tells even from odd) or not."""
        kind = "first" if first and self.title_page else "even" if even else "default"
        return [line for line in (self.headers.get(kind), self.footers.get(kind)) if line]


@dataclass
class Parsed:
    """A whole document as the walker reads it: its blocks, and what placing them on pages needs."""

    blocks: list[Block]
    tracked_changes: bool
    margin_pictures: int  # pictures a header and footer show on every page
    edges: list[str]  # text the render shows around the blocks: headers, footers, text boxes
    notes: list[tuple[str, str]]  # and footnotes (their mark, their text)
    unreadable: list[str]  # parts that could not be read
    even_and_odd: bool = False  # even pages have headers and footers of their own
    drawn: bool = False  # the document draws shapes, text boxes, charts or diagrams (not only pictures)
    sections: int = 1
    cut: list[str] = field(default_factory=list)  # what was cut to the walker's bounds (a table's rows)
