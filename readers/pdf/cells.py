"""A ruled table's cells from the page's words, with the same word spacing as the prose.

pdfplumber finds a ruled table by its rules, but a table ruled round its columns and not between
its rows (a ledger, a statistics sheet ruled every fifth row) comes back as one row whose cells
each hold a whole column: a 1,000-word row. So each cell's words are read here
(``readers.pdf.words``, not pdfplumber's fixed 3 pt tolerance) line by line, and such a row is
split at its lines' baselines when they line up across its cells. A line that fills one cell
alone, not the first, goes on that cell's text in the row above (a description that wraps). A
ledger's body boxed as one cell under a ruled header (the Senate's expenditure reports) is parted
under the header's columns first, each run of words to the column it starts in.

A cell that spans columns or rows is repeated in each, a header stacked over rows is merged into
one row, and a table turned 90° on the page (its text reading up or down) is turned back.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter
from statistics import median

from pdfplumber.utils import extract_text

from .records import Char
from .unruled import GUTTER_EMS
from .words import LINE_EMS, ON_AXIS, is_level, line_words, set_upright, text_lines

RECORD_CELLS = 3  # cells holding a line at every shared baseline: fewer are cells that wrap, not records


def _inside(char: Char, box) -> bool:
    """pdfplumber's own test: the character's centre is in the box, its right and bottom edges left
    out, so a character on the rule between two cells is in one of them (``figures.centre_in`` takes both)."""
    x, y = (char["x0"] + char["x1"]) / 2, (char["top"] + char["bottom"]) / 2
    return box[0] <= x < box[2] and box[1] <= y < box[3]


def _turn(char: Char) -> int:
    """1 for a character turned to read up the page, -1 down it, 0 for one set along it or slanted."""
    a, b = char["matrix"][:2]
    if not b or abs(a) > ON_AXIS * abs(b):
        return 0
    return 1 if b > 0 else -1


def _cell_lines(chars: list[Char]) -> list[tuple[float, float, str]]:
    """The cell's lines as (baseline, size, text); text turned 90° is read as if the page were turned
    with it, text slanted is one line, as pdfplumber reads it."""
    turns = {_turn(char) for char in chars}
    if len(turns) == 1 and turns != {0}:
        chars = [set_upright(char, turns == {1}, 0.0, 0.0) for char in chars]
    if not all(is_level(char) for char in chars):
        return [(min(char["top"] for char in chars), max(char["size"] for char in chars), extract_text(chars))]
    lines = []
    for line in text_lines(chars):
        words = line_words(line)
        if words:
            lines.append(
                (words[0]["base"], max(char["size"] for char in line), " ".join(word["text"] for word in words))
            )
    return lines


def _split(cells: list[list[Char] | None]) -> list[list[str | None]]:
    """One ruled row as one row, or as one row per record when its lines line up across cells."""
    found = sorted(
        (base, size, index, text)
        for index, chars in enumerate(cells)
        if chars
        for base, size, text in _cell_lines(chars)
    )
    whole = [
        None if chars is None else "\n".join(text for _, _, index, text in found if index == column)
        for column, chars in enumerate(cells)
    ]
    if not found:
        return [whole]
    tolerance = LINE_EMS * median(size for _, size, _, _ in found)
    clusters: list[list[tuple[int, str]]] = []  # lines on one baseline: (cell, text)
    last = None
    for base, _, index, text in found:
        if clusters and base - last <= tolerance:
            clusters[-1].append((index, text))
        else:
            clusters.append([(index, text)])
        last = base
    filled = {index for _, _, index, _ in found}
    shared = [number for number, cluster in enumerate(clusters) if len({index for index, _ in cluster}) >= 2]
    records = [index for index in filled if all(index in {cell for cell, _ in clusters[number]} for number in shared)]
    if len(shared) < 2 or len(records) < RECORD_CELLS or 2 * len(records) < len(filled):
        return [whole]
    starts = [max((start for start in shared if start <= number), default=shared[0]) for number in range(len(clusters))]
    rows = {start: ["" if chars is not None else None for chars in cells] for start in shared}
    # Each shared baseline starts a record; a line on its own belongs to the record above it (to the
    # first, above them all).
    for number, cluster in enumerate(clusters):
        row = rows[starts[number]]
        for index, text in cluster:
            row[index] = f"{row[index]}\n{text}" if row[index] else text
    return [rows[start] for start in shared]


def _parted(chars: list[Char], edges: list[float]) -> list[list[Char]]:
    """A cell's characters parted into the columns it spans, which start at ``edges``: each run of
    words on a line (closer than a gutter) goes to the column it starts in, so a description that
    runs on past its column's rule stays in it, and an amount set right goes to its own."""
    columns: list[list[Char]] = [[] for _ in edges]
    for line in text_lines(chars):
        column, end = 0, None
        for char in line:
            if char["text"].strip() and (end is None or char["x0"] - end > GUTTER_EMS * char["size"]):
                column = max(0, bisect_right(edges, char["x0"] + 0.5) - 1)
            if char["text"].strip():
                end = char["x1"]
            columns[column].append(char)
    return columns


def _records(row, chars: list[Char], lefts: list[float], columns: dict) -> list[list[str | None]]:
    """One ruled row's cells, as one row or one per record (``_split``). A cell spanning columns
    whose lines line up as records under them (a ledger's body boxed as one cell under a ruled
    header) is parted into those columns first."""
    cells = [None if box is None else [char for char in chars if _inside(char, box)] for box in row.cells]
    records = _split(cells)
    if len(records) > 1 or not any(box and len(columns[box]) > 1 for box in row.cells):
        return records
    parted: list[list[Char] | None] = list(cells)
    for box, inside in zip(row.cells, cells):
        if box and len(columns[box]) > 1:
            for column, part in zip(columns[box], _parted(inside, [lefts[index] for index in columns[box]])):
                parted[column] = part
    split = _split(parted)
    return split if len(split) > 1 else records


def _covered(box, starts: list[float]) -> list[int]:
    """The indices of the grid lines in ``starts`` (column lefts or row tops) that fall in the span
    ``box`` = (start, end)."""
    return [index for index, start in enumerate(starts) if box[0] - 1 <= start < box[1] - 1]


def _header_rows(table, rows: list[list[str | None]], columns: dict, spans: dict) -> int:
    """How many rows the header is stacked over: the rows its first row's cells span down, or two
    when a cell spans some columns and the row under it is empty where the first row names a column."""
    first = [box for box in table.cells if spans[box][0] == 0]
    depth = max((len(spans[box]) for box in first), default=1)
    widths = {box: len(columns[box]) for box in first}
    if depth == 1 and len(rows) > 2 and any(1 < width < len(rows[0]) for width in widths.values()):
        named = [columns[box][0] for box in first if widths[box] == 1 and rows[0][columns[box][0]]]
        depth = 2 if any(not rows[1][column] for column in named) else 1
    return min(depth, 3, len(rows) - 1)


def ruled_rows(table) -> list[list[str]]:
    """The rows of a pdfplumber ``table``, each cell read from its own words and a row of records
    split. A cell that spans columns or rows is repeated in each (a title over the whole width is
    not), and a header stacked over rows is merged into one: "Sales" over "2023" is "Sales 2023"."""
    lefts = sorted({round(box[0], 1) for box in table.cells})
    tops = sorted({round(box[1], 1) for box in table.cells})
    columns = {box: _covered((box[0], box[2]), lefts) for box in table.cells}
    spans = {box: _covered((box[1], box[3]), tops) for box in table.cells}
    covering = {
        (row, column): box
        for box in table.cells
        if len(columns[box]) < len(lefts)
        for row in spans[box]
        for column in columns[box]
    }
    texts: dict = {}
    rows: list[list[str | None]] = []
    numbers: list[int | None] = []  # each row's in the grid; None for a record split from one
    turns: Counter = Counter()
    bbox = table.bbox  # pdfplumber works a table's and a row's box out anew on each use
    inside = sorted(
        (char for char in table.page.chars if _inside(char, bbox)), key=lambda char: (char["top"] + char["bottom"]) / 2
    )
    middles = [(char["top"] + char["bottom"]) / 2 for char in inside]
    for number, row in enumerate(table.rows):  # each row's characters, from those between its top and bottom
        box = row.bbox
        chars = [
            char for char in inside[bisect_left(middles, box[1]) : bisect_left(middles, box[3])] if _inside(char, box)
        ]
        turns.update(_turn(char) for char in chars)
        records = _records(row, chars, lefts, columns)
        if len(records) == 1:
            texts.update((box, text) for box, text in zip(row.cells, records[0]) if box is not None)
        numbers += [number] if len(records) == 1 else [None] * len(records)
        rows += records
    if len(table.rows) != len(tops):
        return rows
    rows = [
        [
            texts.get(covering.get((number, column))) if cell is None and number is not None else cell
            for column, cell in enumerate(row)
        ]
        for number, row in zip(numbers, rows)
    ]
    turn = turns.most_common(1)[0][0] if turns else 0
    if turn and None not in numbers:  # a table turned 90°: the page's columns are its rows
        count = len(rows)
        return [
            [rows[count - 1 - j][i] if turn > 0 else rows[j][len(rows[0]) - 1 - i] for j in range(count)]
            for i in range(len(rows[0]))
        ]
    depth = _header_rows(table, rows, columns, spans)
    if depth < 2:
        return rows
    header = []
    for column in range(len(rows[0])):
        parts: list[str] = []
        for row in rows[:depth]:
            if row[column] and (not parts or parts[-1] != row[column]):
                parts.append(row[column])
        header.append(" ".join(parts))
    return [header] + rows[depth:]
