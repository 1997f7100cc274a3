"""A table's cells from the page's words, with the same word spacing as the prose.

pdfplumber finds a ruled table by its rules, but a table ruled round its columns and not between
its rows (a ledger, a statistics sheet ruled every fifth row) comes back as one row whose cells
each hold a whole column: a 1,000-word row. So each cell's words are read here
(``readers.pdf.words``, not pdfplumber's fixed 3 pt tolerance) line by line, and such a row is
split at its lines' baselines when they line up across its cells. A line that fills one cell
alone, not the first, goes on that cell's text in the row above (a description that wraps),
in ruled tables and tables without rules alike.
"""

from __future__ import annotations

from statistics import median

from pdfplumber.utils import extract_text

from .words import LINE_EMS, is_level, line_words, text_lines

RECORD_CELLS = 3  # cells holding a line at every shared baseline: fewer are cells that wrap, not records


def _inside(char: dict, box) -> bool:
    """pdfplumber's own test: the character's centre is in the box, its right and bottom edges left
    out, so a character on the rule between two cells is in one of them (``figures.centre_in`` takes both)."""
    x, y = (char["x0"] + char["x1"]) / 2, (char["top"] + char["bottom"]) / 2
    return box[0] <= x < box[2] and box[1] <= y < box[3]


def _cell_lines(chars: list[dict]) -> list[tuple[float, float, str]]:
    """The cell's lines as (baseline, size, text); text turned or slanted is one line, as pdfplumber reads it."""
    if not all(is_level(char) for char in chars):
        return [(min(char["top"] for char in chars), max(char["size"] for char in chars), extract_text(chars))]
    lines = []
    for line in text_lines(chars):
        words = line_words(line)
        if words:
            lines.append((words[0]["base"], max(char["size"] for char in line), " ".join(word["text"] for word in words)))
    return lines


def _split(cells: list[list[dict] | None]) -> list[list[str | None]]:
    """One ruled row as one row, or as one row per record when its lines line up across cells."""
    found = sorted((base, size, index, text) for index, chars in enumerate(cells) if chars for base, size, text in _cell_lines(chars))
    whole = [None if chars is None else "\n".join(text for _, _, index, text in found if index == column) for column, chars in enumerate(cells)]
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
    # Each shared baseline starts a record; a line on its own belongs to the record above it (to the first, above them all).
    for number, cluster in enumerate(clusters):
        row = rows[starts[number]]
        for index, text in cluster:
            row[index] = f"{row[index]}\n{text}" if row[index] else text
    return [rows[start] for start in shared]


def ruled_rows(table) -> list[list[str | None]]:
    """The rows of a pdfplumber ``table``, as ``table.extract()`` gives them (None for a cell
    that another spans), each cell read from its own words and a row of records split."""
    rows = []
    for row in table.rows:
        chars = [char for char in table.page.chars if _inside(char, row.bbox)]
        rows += _split([None if box is None else [char for char in chars if _inside(char, box)] for box in row.cells])
    return rows


def joined_continuations(rows: list[list[str]]) -> list[list[str]]:
    """``rows`` with each row that fills one cell alone, not the first, joined to the row above."""
    joined: list[list[str]] = []
    for row in rows:
        filled = [index for index, cell in enumerate(row) if cell]
        if joined and len(filled) == 1 and filled[0] > 0 and len(row) == len(joined[-1]) and joined[-1][filled[0]]:
            joined[-1][filled[0]] += f"\n{row[filled[0]]}"
        else:
            joined.append(list(row))
    return joined
