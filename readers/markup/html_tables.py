"""HTML tables as Markdown tables: every row in order, spans carried, captions, nested tables in their cell.

A table's rows are its header rows (``<thead>``) first, then its body rows, then its footer rows
(``<tfoot>``), as a browser shows them; the first of them is the Markdown table's header row, or,
when ``<thead>`` holds several, its rows joined per column (``Sales / Q1``), a heading alone in
its row over them being a line above the table, as the caption is. A
cell that spans rows or columns (``rowspan``, ``colspan``) is written in every row and column it
covers, so each row reads whole and no value shifts into its neighbour's column; only a cell as
wide as the table (a title row) is written once. The caption is a line above the table. A table
inside a cell would break its row as Markdown, so it is one line of that cell (``flat_table``):
``[A1 · B1 / C1 · D1]``, cells joined by a dot and rows by a slash, in brackets.

A table that only lays the page out (``is_layout``: the page says so, or it is one row or one
column without a caption or header cells) is no table: its cells are read as blocks, in order.
"""

from __future__ import annotations

from bs4 import Tag

from .tables import markdown_table

MAX_COLSPAN = 1000  # HTML's own limit
MAX_CELLS = 1_000_000  # cells a table's layout may hold (a thousand rows of a thousand columns)
SECTIONS = ("thead", "tbody", "tfoot")


def _span(cell: Tag, name: str, limit: int) -> int:
    value = str(cell.get(name) or "1").strip()
    if not (value.isascii() and value.isdigit()):  # "²" is a digit to Python, and no number
        return 1
    number = int(value)
    return limit if number == 0 and name == "rowspan" else max(1, min(number, limit))


def is_layout(table: Tag) -> bool:
    """A table used to lay a page out, not to hold data: one the page calls so (``role=presentation``
    or ``none``), or, without a caption or header cells, one of a single row or a single column
    (a page's frame, a stack of blocks, an e-mail's boxes)."""
    if str(table.get("role") or "").strip().lower() in ("presentation", "none"):
        return True
    rows = _rows(table)
    if table.find("caption", recursive=False) or any(row.find("th", recursive=False) for row in rows):
        return False
    return len(rows) <= 1 or all(len(row.find_all(["td", "th"], recursive=False)) <= 1 for row in rows)


def layout_cells(table: Tag) -> list[Tag]:
    """A layout table's cells in reading order (row by row, left to right), each made a ``<div>``:
    a block of the page, not a cell whose content is one line."""
    cells = [cell for row in _rows(table) for cell in row.find_all(["td", "th"], recursive=False)]
    for cell in cells:
        cell.name = "div"
    return cells


def _rows(table: Tag) -> list[Tag]:
    """The table's own rows in the order a browser shows them: header, body, footer."""
    order: dict[str, list[Tag]] = {"thead": [], "tbody": [], "tfoot": []}
    for child in table.find_all(recursive=False):
        if child.name == "tr":
            order["tbody"].append(child)
        elif child.name in SECTIONS:
            order[child.name] += child.find_all("tr", recursive=False)
    return order["thead"] + order["tbody"] + order["tfoot"]


def _header_rows(table: Tag) -> int:
    """How many rows the table's ``<thead>`` holds (at least one: the first row heads a table without it)."""
    head = table.find("thead", recursive=False)
    return max(1, len(head.find_all("tr", recursive=False))) if head else 1


def _layout(rows: list[list[tuple[str, int, int]]]):
    """The slots each cell covers, (row, column): (text, its first row, its first column, its
    width), and the table's width; None past ``MAX_CELLS``."""
    slots: dict[tuple[int, int], tuple[str, int, int, int]] = {}
    width = 0
    for r, cells in enumerate(rows):
        c = 0
        for text, rowspan, colspan in cells:
            while (r, c) in slots:
                c += 1
            for dr in range(min(rowspan, len(rows) - r)):
                slots.update({(r + dr, c + dc): (text, r, c, colspan) for dc in range(colspan)})
                if len(slots) > MAX_CELLS:
                    return None
            c += colspan
            width = max(width, c)
    return (slots, width) if len(rows) * width <= MAX_CELLS else None


def _grid(rows: list[list[tuple[str, int, int]]], headers: int = 1) -> tuple[list[list[str]], str]:
    """Rows of (text, rowspan, colspan) cells laid out as a browser does, each span's text in every
    slot it covers, except a cell as wide as the table (a title row), which is written once. A row
    that holds nothing but the start of spans going down (a row header alone in its row,
    ``<tr><th rowspan=6>2025</th></tr>``) is not a row of its own: its labels are in the rows below.
    The first ``headers`` rows are one header row: each column's labels, top down, joined by `` / ``
    (``Sales / Q1``), a label spanning down the rows named once.

    A table whose spans would lay out more than ``MAX_CELLS`` cells (spans in the thousands) is
    laid out with each cell once; if it is that large even so, its first rows are kept, and the
    note (the second value) says how many."""
    note, laid = "", _layout(rows)
    if laid is None:
        rows = [[(text, 1, 1) for text, _, _ in cells] for cells in rows]
        width = max(map(len, rows), default=0)
        if len(rows) * width > MAX_CELLS:
            kept = max(1, MAX_CELLS // width)
            note, rows = (
                f"(rows 1–{kept:,} of {len(rows):,} shown: the table has over {MAX_CELLS:,} cells)",
                rows[:kept],
            )
        laid = _layout(rows)
    slots, width = laid
    headers = min(headers, len(rows)) if headers > 1 else 0  # one header row is a row as any other
    grid = [_joined(slots, headers, width)] if headers else []
    for r in range(headers, len(rows)):
        labels_only = r + 1 < len(rows) and all(
            (r, c) not in slots or not slots[(r, c)][0] or slots.get((r + 1, c)) == slots[(r, c)] for c in range(width)
        )
        if not labels_only:
            grid.append([_shown(slots.get((r, c)), c, width) for c in range(width)])
    return grid, note


def _joined(slots: dict, headers: int, width: int) -> list[str]:
    """The first ``headers`` rows' labels joined per column, each cell once."""
    row = []
    for c in range(width):
        column = [slots[(r, c)] for r in range(headers) if slots.get((r, c), ("",))[0]]
        row.append(" / ".join(slot[0] for n, slot in enumerate(column) if slot not in column[:n]))
    return row


def _shown(slot, column: int, width: int) -> str:
    if slot is None:
        return ""
    text, _, first, colspan = slot
    return "" if colspan >= width and column != first else text


def _cells(table: Tag, cell_markdown, parent_tags) -> list[list[tuple[str, int, int]]]:
    """The table's rows as (text, rowspan, colspan) cells; a table in a cell is read into its text
    by the converter (``flat_table``)."""
    rows, trs = [], _rows(table)
    for r, tr in enumerate(trs):
        rows.append(
            [
                (
                    cell_markdown(cell, parent_tags),
                    _span(cell, "rowspan", len(trs) - r),
                    _span(cell, "colspan", MAX_COLSPAN),
                )
                for cell in tr.find_all(["td", "th"], recursive=False)
            ]
        )
    return rows


def _caption(table: Tag, cell_markdown, parent_tags) -> str:
    caption = table.find("caption", recursive=False)
    return " ".join(cell_markdown(caption, parent_tags).split()) if caption else ""


def flat_table(table: Tag, cell_markdown, parent_tags) -> str:
    """A table inside a table's cell as one line of that cell: its caption, then its rows, each
    cell once, cells joined by `` · `` and rows by `` / ``, in brackets so that where it starts and
    ends stays plain beside the cell's other text and inside another flattened table."""
    rows = [" · ".join(text for text, _, _ in cells if text) for cells in _cells(table, cell_markdown, parent_tags)]
    caption = _caption(table, cell_markdown, parent_tags)
    return f"[{caption + ': ' if caption else ''}{' / '.join(row for row in rows if row)}]"


def table_markdown(table: Tag, cell_markdown, parent_tags) -> str:
    """``table`` (a BeautifulSoup tag) as Markdown; ``cell_markdown(cell, parent_tags)`` writes a
    cell's content (the converter's own inline Markdown, a table in it by ``flat_table``),
    ``parent_tags`` as markdownify passes them."""
    rows, headers = _cells(table, cell_markdown, parent_tags), _header_rows(table)
    headers = headers if headers < len(rows) else 1  # a table all in <thead> has no header to join: its rows stay
    titles = []
    while headers > 1 and len(rows[0]) == 1:  # a heading over the columns' headings: the table's title
        titles.append(rows.pop(0)[0][0])
        headers -= 1
    grid, note = _grid(rows, headers)
    caption = _caption(table, cell_markdown, parent_tags)
    return "\n\n".join(part for part in (caption, *titles, markdown_table(grid), note) if part)
