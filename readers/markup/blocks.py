"""The page as its reader laid it out: ``Block`` (kind, Markdown text, box, heading level, a table's
cells), and the text a page's blocks make (``layout``). ``readers.models.Page`` holds them; the readers
make them where the layout is decided, and everything after them (the payload, chunks, outline, find,
citations, the app's highlighting) is made from them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

Box = tuple[float, float, float, float]  # left, top, right, bottom: fractions of the page from its top-left corner


class BlockKind(StrEnum):
    """What a block of a page is."""

    HEADING = "heading"
    PARAGRAPH = "paragraph"
    LIST_ITEM = "list_item"
    TABLE = "table"
    FIGURE = "figure"  # a picture, a drawing or an object where it stands ("[Picture: alt text]")
    CHART = "chart"  # "Chart: <title> (<kind> chart)", its data as a table, and how its values were had
    CAPTION = "caption"
    CODE = "code"
    FORMULA = "formula"
    FURNITURE = "furniture"  # what the page shows round its content: running headers, page numbers, stamps


@dataclass(frozen=True)
class Cell:
    """One cell of a table: its text (Markdown) and how many rows and columns it spans."""

    text: str
    row_span: int = 1
    column_span: int = 1


@dataclass(frozen=True)
class Block:
    """One block of a page as its reader laid it out: its ``kind``, its ``text`` as Markdown (a
    heading with its ``#`` marks, a list item with its marker and indent, a table as a Markdown
    table), its ``box`` on the page, the printed extent (left, top, right, bottom as fractions of
    the page from its top-left corner: a table's drawn grid, a paragraph's lines), None where the
    page has no print or the block was not found on it; ``level``, a heading's (1-6) or a list
    item's nesting (0 at the top); a table's or chart's ``rows``: each row's cells that start
    in it, with their spans, the header row first; and ``apart``, whether the block stands a blank line
    apart from the block before it (True) or on the next line (False), as its source sets it (a list
    set a line apart, a list under the line that leads into it); None leaves it to the kinds: a blank
    line between blocks, a line break between two items of a list."""

    kind: BlockKind
    text: str
    box: Box | None = None
    level: int = 0
    rows: tuple[tuple[Cell, ...], ...] = ()
    apart: bool | None = None

    @property
    def title(self) -> str:
        """A heading's words, without its ``#`` marks."""
        return self.text.strip().lstrip("#").rstrip("# \t").strip()

    @classmethod
    def of(cls, data: dict) -> Block:
        """A block from its JSON values (``readers.payload.serialize``)."""
        return cls(
            BlockKind(data["kind"]),
            data["text"],
            tuple(data["box"]) if data.get("box") else None,
            data.get("level", 0),
            tuple(tuple(Cell(**cell) for cell in row) for row in data.get("rows", ())),
            data.get("apart"),
        )

    def grid(self) -> list[list[str]]:
        """A table's rows as a grid of texts, a spanning cell's text in every place it covers (as its
        Markdown has it, so each row and column reads whole): what a CSV of the table holds."""
        grid: list[list[str]] = []
        above: dict[tuple[int, int], str] = {}  # places covered by a cell of a row above
        for index, row in enumerate(self.rows):
            line: list[str] = []
            for cell in row:
                while (index, len(line)) in above:
                    line.append(above.pop((index, len(line))))
                for down in range(index + 1, index + cell.row_span):
                    for across in range(len(line), len(line) + cell.column_span):
                        above[down, across] = cell.text
                line += [cell.text] * cell.column_span
            while (index, len(line)) in above:
                line.append(above.pop((index, len(line))))
            grid.append(line)
        return grid


def layout(blocks: list[Block], lines: bool = False) -> tuple[str, list[tuple[int, int] | None]]:
    """The blocks' Markdown as one text, furniture left out, and where each block stands in it
    ((start, end), None for furniture or a block with no text): a blank line between blocks, a line
    break between the items of a list, unless a block says it stands ``apart`` or not; with ``lines``
    (a text file's runs of lines), a line break between any two."""
    parts: list[str] = []
    spans: list[tuple[int, int] | None] = []
    previous, length = None, 0
    for block in blocks:
        if block.kind == BlockKind.FURNITURE or not (block.text or lines):
            spans.append(None)
            continue
        if previous is not None:
            apart = block.apart
            if apart is None:
                apart = not previous == block.kind == BlockKind.LIST_ITEM
            parts.append("\n\n" if apart and not lines else "\n")
            length += len(parts[-1])
        parts.append(block.text)
        spans.append((length, length + len(block.text)))
        length += len(block.text)
        previous = block.kind
    return "".join(parts), spans


def paragraphs(text: str, kind: BlockKind = BlockKind.PARAGRAPH) -> list[Block]:
    """``text`` as one block of ``kind``, or none when it is blank: a line a reader writes itself (a
    note, a placeholder) with no layout of its own."""
    return [Block(kind, text)] if text.strip() else []
