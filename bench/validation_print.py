"""How the validation set's printed part is set on the page (``bench.make_validation``): a document
of tables and paragraphs as HTML for Chromium, as a Word document or a workbook for LibreOffice, and
a table typed out in a monospaced font (dot leaders, rules of hyphens).

A ``Placed`` table is a source's table with the layout it is printed in (one of
``testkit.validation.LAYOUTS``), its caption and whether footnote marks are set on its figures.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, replace
from pathlib import Path

import openpyxl
from docx import Document
from docx.enum.section import WD_ORIENT
from docx.enum.text import WD_ALIGN_PARAGRAPH
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from docx.shared import Mm, Pt
from openpyxl.styles import Alignment, Border, Font, Side

from bench.validation_sources import Cell, Table

MARKS = ("a", "b", "*", "c", "†")  # footnote marks set after a figure, in turn
MARK_EVERY = 5  # every fifth figure of a table with footnote marks carries one
NOTES = {
    "a": "Figure restated from the earlier report.",
    "b": "Provisional figure.",
    "c": "Figure rounded to the unit shown.",
    "*": "Includes adjustments made after the period.",
    "†": "Not comparable with the previous period.",
}
GAP = 3  # spaces at least between a typed table's columns
TYPED_WIDTH = 100  # characters at most in a typed line: 8 pt Liberation Mono across an A4 page's text width
CALC_CHARACTER = 1.15  # a workbook column's width, in characters, for each character of its longest cell
CALC_WRAP = 40  # characters: a workbook column is no wider, its longer cells wrap (a Word table's column, likewise)
CALC_WRAP_SLACK = 8  # characters of a wrapped line left empty where a word did not fit, at most
CALC_LINE = 14  # points: a line of 11 pt text in a workbook's row
WORD_PADDING = 3  # characters a Word table's column has beyond its longest word or cell: the cell's margins
CHARACTER_EM = 0.55  # a character's mean width, in ems, in the fonts used (Liberation, DejaVu, Carlito, Caladea)


@dataclass(frozen=True)
class Placed:
    """A table as it is printed."""

    table: Table
    layout: str
    caption: str
    marks: bool = False  # footnote marks on some figures, and the notes under the table
    long: bool = False  # a table longer than a page: it breaks across pages; the others are kept on one

    def printed(self) -> Table:
        """The table as printed: a mark after every ``MARK_EVERY``-th figure when ``marks``."""
        if not self.marks:
            return self.table
        figures = [cell for cell in self.table.cells if self.table.numeric(cell) and cell.text[-1].isdigit()]
        marked = {figures[i]: MARKS[i // MARK_EVERY % len(MARKS)] for i in range(0, len(figures), MARK_EVERY)}
        cells = [replace(cell, text=cell.text + marked[cell]) if cell in marked else cell for cell in self.table.cells]
        return replace(self.table, cells=tuple(cells))

    def notes(self) -> list[str]:
        """The lines under the table: what its marks mean, then the source's own notes."""
        shown = {cell.text[-1] for cell in self.printed().cells if cell.text} if self.marks else set()
        return [f"{mark} {NOTES[mark]}" for mark in MARKS if mark in shown] + list(self.table.notes)

    def mark(self, cell: Cell) -> tuple[str, str]:
        """A printed cell's text parted into its figure and its footnote mark (empty when it has none)."""
        if self.marks and cell.row >= self.table.header and cell.text[-1:] in MARKS and cell.text[-2:-1].isdigit():
            return cell.text[:-1], cell.text[-1]
        return cell.text, ""


# -- HTML, printed by Chromium ----------------------------------------------------------------------

RULES = """
table.ruled td, table.ruled th { border: 0.6pt solid #000; }
table.header-rule { border-top: 1pt solid #000; border-bottom: 1pt solid #000; }
table.header-rule thead tr:last-child th { border-bottom: 0.6pt solid #000; }
table.header-rule thead th[colspan] { border-bottom: 0.4pt solid #000; }
table.zebra tbody tr:nth-child(even) td { background: #e6e6e6; }
table.zebra thead th { background: #c8c8c8; }
"""


def html_table(placed: Placed) -> str:
    table = placed.printed()
    rows = []
    for r, row in enumerate(table.rows()):
        cells = []
        for cell in (cell for cell in row if cell is not None):
            tag = "th" if r < table.header else "td"
            spans = (f' rowspan="{cell.rowspan}"' if cell.rowspan > 1 else "") + (
                f' colspan="{cell.colspan}"' if cell.colspan > 1 else ""
            )
            kind = ' class="num"' if table.numeric(cell) else ' class="group"' if cell.colspan > 1 else ""
            figure, mark = placed.mark(cell)
            text = html.escape(figure) + (f"<sup>{html.escape(mark)}</sup>" if mark else "")
            cells.append(f"<{tag}{spans}{kind}>{text}</{tag}>")
        rows.append(f"<tr>{''.join(cells)}</tr>")
    head, body = rows[: table.header], rows[table.header :]
    direction = ' dir="rtl"' if table.rtl else ""
    notes = "".join(f'<p class="note">{html.escape(note)}</p>' for note in placed.notes())
    return (
        f'<p class="caption">{html.escape(placed.caption)}</p>'
        f'<table class="{placed.layout.replace(" ", "-")}{"" if placed.long else " whole"}"{direction}>'
        + (f"<thead>{''.join(head)}</thead>" if head else "")
        + f"<tbody>{''.join(body)}</tbody></table>{notes}"
    )


def html_document(parts: list[Placed | str], font: str, size: float, landscape: bool) -> str:
    """A document of paragraphs (the strings) and tables, in ``font`` at ``size`` points."""
    body = []
    for part in parts:
        if isinstance(part, str):
            body.append(f"<p>{html.escape(part)}</p>")
        elif part.layout == "monospaced":
            lines = html.escape("\n".join(typed(part)))
            body.append(f'<p class="caption">{html.escape(part.caption)}</p><pre>{lines}</pre>')
        else:
            body.append(html_table(part))
    return f"""<!DOCTYPE html><html><head><meta charset="utf-8"><style>
@page {{ size: A4 {"landscape" if landscape else "portrait"}; margin: 18mm 16mm; }}
body {{ font-family: "{font}"; font-size: {size}pt; line-height: 1.25; }}
table {{ border-collapse: collapse; margin: 6pt 0 4pt; }}
th, td {{ padding: 2pt 6pt; text-align: left; vertical-align: top; }}
th.group {{ text-align: center; }} td.num, th.num {{ text-align: right; }}
table[dir="rtl"] th, table[dir="rtl"] td {{ text-align: right; font-family: "DejaVu Sans"; }}
tr {{ break-inside: avoid; }} table.whole {{ break-inside: avoid; }}
.caption {{ font-weight: bold; margin: 12pt 0 2pt; break-after: avoid; }} .note {{ font-size: 80%; margin: 1pt 0; }}
pre {{ font-family: "Liberation Mono"; font-size: 8pt; line-height: 1.3; break-inside: avoid; }}
{RULES}</style></head><body>{"".join(body)}</body></html>"""


# -- typed in a monospaced font ---------------------------------------------------------------------


def typed_widths(table: Table) -> list[int]:
    """Each column's width in characters: its longest cell, widened for the spanning cells over it."""
    widths = [1] * table.width
    for cell in table.cells:
        if cell.colspan == 1:
            widths[cell.col] = max(widths[cell.col], len(cell.text) + (2 if cell.col == 0 else 0))
    for cell in table.cells:
        if cell.colspan > 1:
            room = sum(widths[cell.col : cell.col + cell.colspan]) + GAP * (cell.colspan - 1)
            widths[cell.col + cell.colspan - 1] += max(0, len(cell.text) - room)
    return widths


def typeable(table: Table) -> bool:
    """A table that types on a page's width, one line a row: no cell across lines, no row span."""
    return (
        all(cell.rowspan == 1 and "\n" not in cell.text for cell in table.cells)
        and sum(typed_widths(table)) + GAP * (table.width - 1) <= TYPED_WIDTH
        and not table.rtl
    )


def typed(placed: Placed) -> list[str]:
    """A table typed out: the row's name followed by dot leaders, figures set right, text left, a
    heading centred over its columns with a rule of hyphens under a heading that spans, and a rule of
    hyphens under the header."""
    table = placed.printed()
    widths = typed_widths(table)
    starts = [sum(widths[:c]) + GAP * c for c in range(table.width)]
    total = starts[-1] + widths[-1]
    lines = []
    for r, row in enumerate(table.rows()):
        line, rule = [" "] * total, [" "] * total
        others = any(cell is not None and cell.text and cell.col > 0 for cell in row)
        for cell in (cell for cell in row if cell is not None and cell.text):
            start, end = starts[cell.col], starts[cell.col + cell.colspan - 1] + widths[cell.col + cell.colspan - 1]
            text = cell.text
            if r < table.header:
                at = start + (end - start - len(text)) // 2 if cell.colspan > 1 or cell.col else start
                if cell.colspan > 1:
                    rule[start:end] = "-" * (end - start)
            elif table.numeric(cell):
                at = end - len(text)
            else:
                at = start
                if cell.col == 0 and others:  # dot leaders from the row's name to its first figure
                    text = (text + " " + "." * (widths[0] - len(text))).rstrip(" ")[: widths[0] + GAP - 1]
            line[at : at + len(text)] = text
        lines.append("".join(line).rstrip())
        if "-" in rule:
            lines.append("".join(rule).rstrip())
        if r == table.header - 1:
            lines.append("-" * total)
    return lines + [""] + placed.notes()


# -- a Word document and a workbook, printed by LibreOffice -----------------------------------------


def word_widths(table: Table, room: float) -> list[float]:
    """A Word table's column widths, as shares of the page's width (``room`` characters), as a browser
    lays a table out: each column as wide as the longest word of its body at least, the room left
    shared out as each column's longest cell (up to ``CALC_WRAP`` characters) asks for more."""
    least, wanted = [float(WORD_PADDING)] * table.width, [float(WORD_PADDING)] * table.width
    for cell in table.cells:
        if cell.colspan == 1 and cell.text:
            if cell.row >= table.header:  # a heading's long word may break; a figure may not
                longest_word = max(len(word) for word in cell.text.split())
                least[cell.col] = max(least[cell.col], longest_word + WORD_PADDING)
            wanted[cell.col] = max(wanted[cell.col], min(len(cell.text), CALC_WRAP) + WORD_PADDING)
    wanted = [max(a, b) for a, b in zip(least, wanted)]
    if sum(wanted) <= room or sum(least) >= room:
        chosen = wanted if sum(wanted) <= room else least
        return [width / sum(chosen) for width in chosen]
    extra = [b - a for a, b in zip(least, wanted)]
    spare = room - sum(least)
    return [(a + spare * e / sum(extra)) / room for a, e in zip(least, extra)]


def _borders(element, tag: str, sides: dict[str, str]) -> None:
    """Set ``sides`` ({"top": "single", ...}) of a table's or a cell's borders."""
    borders = OxmlElement(tag)
    for side, kind in sides.items():
        edge = OxmlElement(f"w:{side}")
        edge.set(qn("w:val"), kind)
        edge.set(qn("w:sz"), "6")
        edge.set(qn("w:color"), "000000")
        borders.append(edge)
    element.append(borders)


def _shade(cell, fill: str) -> None:
    shading = OxmlElement("w:shd")
    shading.set(qn("w:val"), "clear")
    shading.set(qn("w:fill"), fill)
    cell._tc.get_or_add_tcPr().append(shading)


def word_table(document, placed: Placed) -> None:
    """The table in a Word document, in its layout: Word's own borders and shading, its header rows
    repeated on each page, figures set right, a right-to-left table laid out from the right."""
    table = placed.printed()
    caption = document.add_paragraph()
    caption.add_run(placed.caption).bold = True
    caption.paragraph_format.keep_with_next = True
    if placed.layout == "monospaced":
        lines = typed(placed)
        for n, line in enumerate(lines, 1):
            paragraph = document.add_paragraph()
            paragraph.paragraph_format.space_after = Pt(0)
            paragraph.paragraph_format.keep_with_next = n < len(lines)
            run = paragraph.add_run(line)
            run.font.name, run.font.size = "Liberation Mono", Pt(8)
        return
    made = document.add_table(rows=table.height, cols=table.width)
    made.autofit = False
    section = document.sections[-1]
    room = section.page_width - section.left_margin - section.right_margin
    size = document.styles["Normal"].font.size.pt
    for column, width in zip(made.columns, word_widths(table, room / 12700 / (size * CHARACTER_EM))):
        column.width = int(room * width)
        for target in column.cells:
            target.width = column.width
    properties = made._tbl.tblPr
    everywhere = ("top", "left", "bottom", "right", "insideH", "insideV")
    if placed.layout == "ruled":
        _borders(properties, "w:tblBorders", dict.fromkeys(everywhere, "single"))
    elif placed.layout == "header rule":
        _borders(properties, "w:tblBorders", {"top": "single", "bottom": "single"})
    else:
        _borders(properties, "w:tblBorders", dict.fromkeys(everywhere, "nil"))
    if table.rtl:
        properties.append(OxmlElement("w:bidiVisual"))
    for r, row in enumerate(made.rows):  # a row is never parted by a page break; the header rows repeat
        row._tr.get_or_add_trPr().append(OxmlElement("w:cantSplit"))
        if r < table.header:
            row._tr.get_or_add_trPr().append(OxmlElement("w:tblHeader"))
    for cell in table.cells:
        target = made.cell(cell.row, cell.col)
        if cell.rowspan > 1 or cell.colspan > 1:
            target = target.merge(made.cell(cell.row + cell.rowspan - 1, cell.col + cell.colspan - 1))
        paragraph = target.paragraphs[0]
        figure, mark = placed.mark(cell)
        run = paragraph.add_run(figure)
        if mark:
            paragraph.add_run(mark).font.superscript = True
        run.bold = cell.row < table.header
        if not placed.long and cell.row + cell.rowspan < table.height:  # the table is kept on one page
            paragraph.paragraph_format.keep_with_next = True
        if table.numeric(cell) or table.rtl:
            paragraph.alignment = WD_ALIGN_PARAGRAPH.RIGHT
        elif cell.colspan > 1 and cell.row < table.header:
            paragraph.alignment = WD_ALIGN_PARAGRAPH.CENTER
        if table.rtl:
            paragraph._p.get_or_add_pPr().append(OxmlElement("w:bidi"))
        if placed.layout == "header rule" and cell.row + cell.rowspan == table.header:
            _borders(target._tc.get_or_add_tcPr(), "w:tcBorders", {"bottom": "single"})
        if placed.layout == "zebra" and (cell.row < table.header or (cell.row - table.header) % 2):
            _shade(target, "C8C8C8" if cell.row < table.header else "E6E6E6")
    for note in placed.notes():
        document.add_paragraph(note).runs[0].font.size = Pt(8)


def word_document(parts: list[Placed | str], font: str, size: float, landscape: bool, target: Path) -> None:
    """A Word document of paragraphs (the strings) and tables, A4, in ``font`` at ``size`` points."""
    document = Document()
    section = document.sections[0]
    section.page_width, section.page_height = (Mm(297), Mm(210)) if landscape else (Mm(210), Mm(297))
    section.orientation = WD_ORIENT.LANDSCAPE if landscape else WD_ORIENT.PORTRAIT
    section.left_margin = section.right_margin = Mm(16)
    section.top_margin = section.bottom_margin = Mm(18)
    normal = document.styles["Normal"]
    normal.font.name, normal.font.size = font, Pt(size)
    for part in parts:
        if isinstance(part, str):
            document.add_paragraph(part)
        else:
            word_table(document, part)
    document.save(target)


def sheet_widths(table: Table) -> list[float]:
    """A workbook's column widths (in characters): each as wide as its longest cell, up to
    ``CALC_WRAP`` characters, the last column under a spanning cell widened to hold it."""
    widths = [8.0] * table.width
    for cell in table.cells:
        if cell.colspan == 1:
            widths[cell.col] = max(widths[cell.col], min(len(cell.text), CALC_WRAP) * CALC_CHARACTER + 2)
    for cell in table.cells:
        if cell.colspan > 1:
            room = sum(widths[cell.col : cell.col + cell.colspan])
            last = cell.col + cell.colspan - 1
            widths[last] += max(0.0, min(len(cell.text), CALC_WRAP) * CALC_CHARACTER + 2 - room)
    return widths


def lines(text: str, width: float) -> int:
    """The lines ``text`` wraps to in a workbook's cell ``width`` characters wide."""
    return -(-len(text) // max(1, int(width / CALC_CHARACTER) - CALC_WRAP_SLACK))


def workbook(parts: list[Placed], target: Path) -> None:
    """A workbook with a sheet for each table: its caption in the first row, the table under it,
    figures set right, columns as wide as their text (wrapping past ``CALC_WRAP`` characters), each
    row as tall as its wrapped text. Ruled tables have thin borders; the others are as a sheet prints
    by default, without grid lines."""
    book = openpyxl.Workbook()
    book.remove(book.active)
    thin = Side(style="thin", color="000000")
    for number, placed in enumerate(parts, 1):
        table = placed.printed()
        sheet = book.create_sheet(f"Table {number}")
        widths = sheet_widths(table)
        heights = [1] * (table.height + 3)  # each row's lines: LibreOffice sizes no row to its wrapped text
        for cell in table.cells:
            target_cell = sheet.cell(cell.row + 3, cell.col + 1, cell.text)
            if cell.rowspan > 1 or cell.colspan > 1:
                sheet.merge_cells(
                    start_row=cell.row + 3,
                    start_column=cell.col + 1,
                    end_row=cell.row + 2 + cell.rowspan,
                    end_column=cell.col + cell.colspan,
                )
            width = sum(widths[cell.col : cell.col + cell.colspan])
            wrap = len(cell.text) * CALC_CHARACTER + 2 > width
            if wrap and cell.rowspan == 1:
                heights[cell.row + 2] = max(heights[cell.row + 2], lines(cell.text, width))
            horizontal = "right" if table.numeric(cell) else "center" if cell.colspan > 1 else "left"
            target_cell.alignment = Alignment(horizontal=horizontal, vertical="top", wrap_text=wrap)
            target_cell.font = Font(bold=cell.row < table.header)
            if placed.layout == "ruled":
                target_cell.border = Border(left=thin, right=thin, top=thin, bottom=thin)
            elif placed.layout == "header rule" and cell.row + cell.rowspan == table.header:
                target_cell.border = Border(bottom=thin)
        sheet.cell(1, 1, placed.caption).font = Font(bold=True)  # wrapped over the table's width
        sheet.cell(1, 1).alignment = Alignment(wrap_text=True, vertical="top")
        sheet.merge_cells(start_row=1, start_column=1, end_row=1, end_column=table.width)
        heights[0] = lines(placed.caption, sum(widths))
        for col, width in enumerate(widths, 1):
            sheet.column_dimensions[openpyxl.utils.get_column_letter(col)].width = width
        for row, count in enumerate(heights, 1):
            if count > 1:
                sheet.row_dimensions[row].height = count * CALC_LINE
        for row, note in enumerate(placed.notes(), table.height + 4):
            sheet.cell(row, 1, note).font = Font(size=8)
    book.save(target)
