"""The real structured sources of the validation set's printed part, read into tables
(``bench.make_validation`` prints them): HTML pages (a 10-K filing, a 10-Q extract, a Wikipedia
article), JATS articles, a patent application's tables, workbooks, CSV files (films, the world's
country codes with their names in Arabic) and the first article of the Universal Declaration of
Human Rights in the languages written right to left.

A table here is a list of ``Cell``s, each at its row and column with its spans, the first ``header``
rows its header. What a source draws as a table is kept as drawn; only what prints as nothing is
taken out: rows and columns in which no cell begins with text (the padding columns of a filing),
hidden text (``display:none``, an inline XBRL header), Wikipedia's reference marks and scripts.
"""

from __future__ import annotations

import csv
import gzip
import io
import re
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from pathlib import Path

import openpyxl
from lxml import etree
from lxml import html as lxml_html

from testkit.validation import RTL_LETTERS, VALIDATION, source_file

SOURCES = VALIDATION / "sources"
CURRENCY = ("$", "€", "£")
CLOSING = (")", "%", ")%", "%)")
HIDDEN = re.compile(r"display\s*:\s*none", re.IGNORECASE)
NUMBER = re.compile(r"^[($€£¥-]*\s*[-+−–]?\d[\d,.\s]*%?\)?[a-z*†‡]?$")  # 1,234.5  (12)  $ 7  45%  −3  12a
UTF8 = lxml_html.HTMLParser(encoding="utf-8")


@dataclass(frozen=True)
class Cell:
    row: int
    col: int
    text: str
    rowspan: int = 1
    colspan: int = 1


@dataclass(frozen=True)
class Table:
    """A source's table: where it comes from, its title, its cells and how many rows its header has."""

    origin: str  # the source file, relative to the validation folder
    where: str  # which table of the source: "table 12", "sheet ..., rows 6-18", "rows 1-20 of table 3"
    title: str
    header: int
    cells: tuple[Cell, ...]
    rtl: bool = False
    notes: tuple[str, ...] = field(default=())  # the source's notes under the table, printed under it

    @property
    def height(self) -> int:
        return max(cell.row + cell.rowspan for cell in self.cells)

    @property
    def width(self) -> int:
        return max(cell.col + cell.colspan for cell in self.cells)

    def rows(self) -> list[list[Cell | None]]:
        """The grid: each position its cell where the cell begins, None where a span covers it."""
        grid: list[list[Cell | None]] = [[None] * self.width for _ in range(self.height)]
        for cell in self.cells:
            grid[cell.row][cell.col] = cell
        return grid

    def slice(self, start: int, stop: int) -> Table:
        """The header and the body rows ``start:stop`` (counted in the body), spans cut at the edges."""
        first, last = self.header + start, min(self.header + stop, self.height)
        cells = []
        for cell in self.cells:
            end = cell.row + cell.rowspan
            if cell.row < self.header:
                cells.append(replace(cell, rowspan=min(end, self.header) - cell.row))
            elif first <= cell.row < last:
                cells.append(replace(cell, row=cell.row - first + self.header, rowspan=min(end, last) - cell.row))
            elif cell.row < first < end:  # begun above the slice: the rest of its span prints empty
                cells.append(replace(cell, row=self.header, text="", rowspan=min(end, last) - first))
        where = f"body rows {start + 1}-{last - self.header} of {self.where}"
        return tidy(replace(self, where=where, cells=tuple(cells)))

    def numeric(self, cell: Cell) -> bool:
        return cell.row >= self.header and bool(NUMBER.match(cell.text))


def text_of(element) -> str:
    """An element's visible text, its whitespace collapsed."""
    return " ".join("".join(element.itertext()).split())


def from_rows(rows: list[list[tuple[str, int, int]]]) -> list[Cell]:
    """Cells placed as HTML places ``(text, rowspan, colspan)`` rows: each in the next free column."""
    taken: set[tuple[int, int]] = set()
    cells = []
    for r, row in enumerate(rows):
        c = 0
        for text, rowspan, colspan in row:
            while (r, c) in taken:
                c += 1
            rowspan, colspan = max(1, min(rowspan, len(rows) - r)), max(1, colspan)
            cells.append(Cell(r, c, text, rowspan, colspan))
            taken.update((r + i, c + j) for i in range(rowspan) for j in range(colspan))
            c += colspan
    return cells


def join_symbols(cells: list[Cell]) -> list[Cell]:
    """A filing's currency signs and closing brackets set in cells of their own, joined to their
    figure as the page reads them: ``$`` | ``1,234`` is ``$ 1,234``, ``(56`` | ``)`` is ``(56)``."""
    at = {(cell.row, cell.col): cell for cell in cells}
    joined = dict(at)
    for cell in cells:
        if cell.text in CURRENCY and cell.colspan == 1:
            after = at.get((cell.row, cell.col + 1))
            if after is not None and NUMBER.match(after.text) and after.colspan == 1:
                joined[after.row, after.col] = replace(after, text=f"{cell.text} {after.text}")
                joined[cell.row, cell.col] = replace(cell, text="")
        elif cell.text in CLOSING and cell.col > 0:
            before = joined.get((cell.row, cell.col - 1))
            if before is not None and before.text and before.colspan == 1:
                joined[before.row, before.col] = replace(before, text=before.text + cell.text)
                joined[cell.row, cell.col] = replace(cell, text="")
    return list(joined.values())


def tidy(table: Table) -> Table:
    """The table without the rows in which no cell begins with text and the columns no text is in but
    a spanning cell's (a filing's padding columns: the span then covers the columns left), every
    position covered by one cell (an empty one where a row was short), the header no taller than the
    table."""
    cells = [cell for cell in table.cells if cell.text or cell.rowspan > 1 or cell.colspan > 1]
    keep_rows = sorted({cell.row for cell in cells if cell.text})
    keep_cols = {cell.col for cell in cells if cell.text and cell.colspan == 1}
    for cell in cells:  # a spanning cell over no column kept keeps its first
        if cell.text and not keep_cols.intersection(range(cell.col, cell.col + cell.colspan)):
            keep_cols.add(cell.col)
    row_at = {row: index for index, row in enumerate(keep_rows)}
    col_at = {col: index for index, col in enumerate(sorted(keep_cols))}
    placed = []
    for cell in cells:
        rows = [row for row in range(cell.row, cell.row + cell.rowspan) if row in row_at]
        cols = [col for col in range(cell.col, cell.col + cell.colspan) if col in col_at]
        if cell.row in row_at and cols:
            placed.append(Cell(row_at[cell.row], col_at[cols[0]], cell.text, len(rows), len(cols)))
    taken = {(c.row + i, c.col + j) for c in placed for i in range(c.rowspan) for j in range(c.colspan)}
    height, width = len(keep_rows), len(keep_cols)
    placed += [Cell(r, c, "") for r in range(height) for c in range(width) if (r, c) not in taken]
    header = sum(1 for row in keep_rows if row < table.header)
    return replace(table, header=min(header, height - 1), cells=tuple(sorted(placed, key=lambda c: (c.row, c.col))))


def fit(table: Table) -> bool:
    """A table worth printing: two rows and two columns at least, six cells with text."""
    return (
        bool(table.cells)
        and table.height >= 2
        and table.width >= 2
        and sum(1 for cell in table.cells if cell.text) >= 6
    )


def read_text(path: Path) -> bytes:
    data = path.read_bytes()
    return gzip.decompress(data) if path.suffix == ".gz" else data


def _visible(root) -> None:
    """Take out what a browser does not show: hidden elements, scripts and styles, reference marks, and
    Wikipedia's sort keys (which its stylesheet hides)."""
    shown = "//script | //style | //sup[contains(@class, 'reference')] | //*[@style] | //*[@class = 'sortkey']"
    for element in root.xpath(shown):
        if (
            element.tag in ("script", "style")
            or element.get("class") == "sortkey"
            or "reference" in element.get("class", "")
            or HIDDEN.search(element.get("style", ""))
        ):
            element.drop_tree()


def _header_rows(table, rows: list) -> int:
    """The rows of an HTML table's header: its ``thead``'s, or its first rows that are all ``th``; in a
    filing, which marks none, the first rows whose first cell is empty (the periods over the figures)."""
    if table.find("thead") is not None:
        return len(table.find("thead").findall("tr"))
    marked = 0
    for tr in rows:
        if not tr.xpath("./td") and tr.xpath("./th"):
            marked += 1
        else:
            break
    if marked:
        return marked
    unmarked = 0
    for tr in rows:
        cells = [text_of(cell) for cell in tr.xpath("./td|./th")]
        if cells and not cells[0] and any(cells):
            unmarked += 1
        elif any(cells):  # the columns' names after the periods over them: a row of words
            words = unmarked and sum(map(bool, cells)) >= 2 and not any(NUMBER.match(text) for text in cells if text)
            return unmarked + bool(words)
    return unmarked


def _span(cell, name: str) -> int:
    value = (cell.get(name) or "1").strip()
    return int(value) if value.isdigit() else 1


def html_tables(origin: str, title: str, select: str = "//table") -> list[Table]:
    """The tables of an HTML page (``select``: which; none nested in another) as the page shows them."""
    root = lxml_html.document_fromstring(read_text(source_file(origin)), parser=UTF8)
    _visible(root)
    found = []
    for index, table in enumerate(root.xpath(select), 1):
        if table.xpath(".//table") or table.xpath("ancestor::table"):
            continue
        rows = table.xpath("./tr|./thead/tr|./tbody/tr|./tfoot/tr")
        grid = [[(text_of(c), _span(c, "rowspan"), _span(c, "colspan")) for c in tr.xpath("./td|./th")] for tr in rows]
        if not any(grid):
            continue
        cells = tuple(join_symbols(from_rows(grid)))
        made = tidy(Table(origin, f"table {index}", title, _header_rows(table, rows), cells))
        found.append(made)
    return [table for table in found if fit(table)]


def prose(origin: str, select: str = "//p") -> list[str]:
    """A page's paragraphs of 200 characters or more, the text set among the tables of a document."""
    data = read_text(source_file(origin))
    if origin.endswith((".nxml", ".nxml.gz")):
        root = etree.fromstring(data, etree.XMLParser(resolve_entities=False, no_network=True))
    else:
        root = lxml_html.document_fromstring(data, parser=UTF8)
        _visible(root)
    return [text for p in root.xpath(select) if len(text := text_of(p)) >= 200 and not p.xpath(".//table")]


def jats_tables(origin: str, title: str) -> list[Table]:
    """The tables of a JATS article (its ``table-wrap``s, XHTML tables), each under its label and caption."""
    root = etree.fromstring(read_text(source_file(origin)), etree.XMLParser(resolve_entities=False, no_network=True))
    found = []
    for index, wrap in enumerate(root.iter("table-wrap"), 1):
        table = wrap.find(".//table")
        rows = table.xpath(".//tr")
        grid = [[(text_of(c), _span(c, "rowspan"), _span(c, "colspan")) for c in tr.xpath("./td|./th")] for tr in rows]
        header = len(table.xpath("./thead/tr"))
        caption = " ".join(filter(None, (text_of(wrap.find("label")) if wrap.find("label") is not None else "",)))
        heading = wrap.find("caption/title")
        name = f"{caption} {text_of(heading) if heading is not None else ''}".strip() or f"{title}, table {index}"
        notes = tuple(text_of(fn) for fn in wrap.xpath("./table-wrap-foot//fn | ./table-wrap-foot/p"))
        found.append(tidy(Table(origin, f"table {index}", name, header, tuple(from_rows(grid)), notes=notes)))
    return [table for table in found if fit(table)]


def _tgroup_rows(group, first: int) -> list[Cell]:
    """A CALS ``tgroup``'s cells, its rows numbered from ``first``."""
    names = {spec.get("colname"): n for n, spec in enumerate(group.findall("colspec"))}
    width = int(group.get("cols") or len(names) or 1)
    rows = group.xpath("./thead/row|./tbody/row")
    taken: set[tuple[int, int]] = set()
    cells = []
    for r, row in enumerate(rows, first):
        c = 0
        for entry in row.findall("entry"):
            while (r, c) in taken:
                c += 1
            start = names.get(entry.get("namest"), names.get(entry.get("colname"), c))
            end = names.get(entry.get("nameend"), start)
            c = max(c, start)
            colspan, rowspan = max(1, end - start + 1), min(1 + int(entry.get("morerows") or 0), first + len(rows) - r)
            if c + colspan > width:
                break
            cells.append(Cell(r, c, text_of(entry), rowspan, colspan))
            taken.update((r + i, c + j) for i in range(rowspan) for j in range(colspan))
            c += colspan
    return cells


def cals_tables(origin: str, title: str) -> list[Table]:
    """A patent's tables (the CALS model: ``tgroup``, ``colspec``, ``row``, ``entry`` with ``namest`` /
    ``nameend`` and ``morerows``). A patent sets one table as several ``tgroup``s: its widest ones, one
    under the other, are the table (the first its header when it has three rows or fewer and the
    ``thead`` marks none); a narrower one above them is its heading."""
    root = etree.fromstring(read_text(source_file(origin)), etree.XMLParser(resolve_entities=False, no_network=True))
    found = []
    for index, table in enumerate(root.iter("table"), 1):
        groups = table.findall("tgroup")
        widest = max(int(group.get("cols") or 1) for group in groups)
        parts = [group for group in groups if int(group.get("cols") or 1) == widest]
        headings = [text_of(group) for group in groups[: groups.index(parts[0])] if text_of(group)]
        cells: list[Cell] = []
        for group in parts:
            cells += _tgroup_rows(group, max((cell.row + cell.rowspan for cell in cells), default=0))
        header = len(parts[0].xpath("./thead/row|./tbody/row")) if len(parts) > 1 else 0
        header = len(table.xpath("./tgroup/thead/row")) or (header if header <= 3 else 0)
        name = " ".join([title, *headings])
        found.append(tidy(Table(origin, f"table {index}", name, header, tuple(cells))))
    return [table for table in found if fit(table)]


def _number_text(value, number_format: str) -> str:
    """A workbook cell's value as its number format shows it (the formats the source uses)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        if isinstance(value, (datetime, date)):
            return value.strftime("%d.%m.%Y")
        return " ".join(str(value).split()) if value is not None else ""
    section = number_format.split(";")[0]
    decimals = len(section.split(".")[1].rstrip("%)_-* ")) if "." in section else 0
    shown = value * 100 if "%" in section else value
    text = f"{shown:,.{decimals}f}" if "," in section else f"{shown:.{decimals}f}"
    return text + ("%" if "%" in section else "")


def sheet_table(origin: str, sheet: str, rows: tuple[int, int], header: int, title: str) -> Table:
    """Rows ``first..last`` (as numbered in the sheet) of a worksheet, its merged cells as spans."""
    book = openpyxl.load_workbook(io.BytesIO(read_text(source_file(origin))), data_only=True)
    sheet_ = book[sheet]
    first, last = rows
    ranges = sheet_.merged_cells.ranges
    merged = {(m.min_row, m.min_col): (m.max_row - m.min_row + 1, m.max_col - m.min_col + 1) for m in ranges}
    covered = {(r, c) for m in sheet_.merged_cells.ranges for r, c in m.cells if (r, c) != (m.min_row, m.min_col)}
    cells = []
    for r in range(first, last + 1):
        for c in range(1, sheet_.max_column + 1):
            if (r, c) in covered:
                continue
            cell = sheet_.cell(r, c)
            rowspan, colspan = merged.get((r, c), (1, 1))
            text = _number_text(cell.value, cell.number_format)
            cells.append(Cell(r - first, c - 1, text, min(rowspan, last - r + 1), colspan))
    where = f"sheet {sheet!r}, rows {first}-{last}"
    return tidy(Table(origin, where, title, header, tuple(cells)))


def csv_table(origin: str, columns: list[str], title: str, longest: int | None = None, rtl: bool = False) -> Table:
    """A CSV file's ``columns``, its first row the header (with ``longest``, only its records whose
    values are that long at most; ``rtl``: a table laid out from the right)."""
    records = list(csv.DictReader(io.StringIO(read_text(source_file(origin)).decode("utf-8-sig"))))
    records = [r for r in records if longest is None or all(len(r[name]) <= longest for name in columns)]
    grid = [[(name, 1, 1) for name in columns]] + [[(" ".join(r[n].split()), 1, 1) for n in columns] for r in records]
    where = f"columns {', '.join(columns)}" + (f", records of {longest} characters at most" if longest else "")
    return tidy(Table(origin, where, title, 1, tuple(from_rows(grid)), rtl=rtl))


def _printable_here(text: str) -> bool:
    """Text whose letters this machine's fonts all draw: Latin, Hebrew and Arabic (DejaVu Sans has them)."""
    return all(
        not char.isalpha() or ord(char) < 0x250 or 0x590 <= ord(char) <= 0x6FF or 0xFB1D <= ord(char) <= 0xFEFC
        for char in text
    )


def right_to_left(origin: str, per_table: int) -> list[Table]:
    """The first article of the Universal Declaration in each language written right to left (in the
    Hebrew or Arabic script, which the fonts here draw), ``per_table`` languages a table: the language's
    name (as the source gives it) and the article."""
    text = read_text(source_file(origin)).decode("utf-8")
    articles = []
    for block in text.split("\n\n"):
        lines = block.strip().splitlines()
        article = " ".join(" ".join(lines[1:]).split())
        named = len(lines) >= 2 and not RTL_LETTERS.search(lines[0])
        if named and RTL_LETTERS.search(article) and _printable_here(article):
            articles.append((lines[0].strip("()"), article))
    found = []
    for start in range(0, len(articles), per_table):
        grid = [[("Language", 1, 1), ("Article 1", 1, 1)]] + [
            [(name, 1, 1), (article, 1, 1)] for name, article in articles[start : start + per_table]
        ]
        where = f"languages {start + 1}-{start + len(grid) - 1} written right to left"
        title = "Universal Declaration of Human Rights, Article 1"
        found.append(tidy(Table(origin, where, title, 1, tuple(from_rows(grid)), rtl=True)))
    return [table for table in found if fit(table)]
