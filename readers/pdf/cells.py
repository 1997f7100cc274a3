"""A ruled table's cells from the page's words, with the same word spacing as the prose.

pdfplumber finds a ruled table by its rules, but a table ruled round its columns and not between its rows (a
ledger, a statistics sheet ruled every fifth row) comes back as one row whose cells each hold a whole column: a
1,000-word row. So each cell's words are read (``readers.pdf.rowlines``, with ``readers.pdf.words``, not
pdfplumber's fixed 3 pt tolerance) line by line, a word the printer broke for want of room joined again, and such
a row is split at its lines' baselines when they line up across its cells, its labels' cell among them (cells
wrapped beside a one-line label are one row). A line that fills one cell
alone, not the first, goes on that cell's text in the row above (a description that wraps). A ledger's body
boxed as one cell under a ruled header (the Senate's expenditure reports) is parted under the header's columns
first, each run of words to the column it starts in. Every character in the table's box is in one of its
cells: one the grid drew no cell round (a line indented past its cell's rule, a label left of its row's first
cell) goes to its column's cell in the row it stands level with, so the table loses no word of the page.

A cell that spans columns or rows is written once, where its span starts (Markdown has no spans: the
rest of its span is left empty), a header stacked over rows stays rows, each heading over the
columns it spans; and a table turned 90° on the page (its text reading up or down) is turned back.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections import Counter
from statistics import median
from typing import cast

from pdfplumber.table import Table
from pdfplumber.utils import extract_text, line_to_edge, rect_to_edges

from .aligned import CAPTION
from .boxes import box_of, centre_in
from .colheads import wrapped_header
from .framed import ALIGNED_ENDS, RULE_PITCH, page_rules
from .records import Char
from .rowlines import split_records, turning
from .shades import inside_shade, page_shades, zebra_stripes
from .unruled import GUTTER_EMS, HEADER_ROWS
from .unsure import CURRENCY, figures_only
from .words import baseline, in_reading_order, text_lines

CONTINUED = re.compile(r"(?:[—–-]\s*|\()continued\)?\.?$", re.I)  # a continued table's title: "COSTS—Continued"
CLOSED_RULES = 2  # row rules ending at one x at least, to close a table there (a one-row stub column: eu-013 p. 5)
RULED_COLUMNS = 2  # vertical rules inside a table's row rules at least, to close it at their ends
# Of the characters in a ruled table's box, the share its cells must hold: a form's rules make a grid
# of its number boxes across the whole form (f1040nr p. 3: 11% held), whose words a table would lose.
# Real tables hold 89% (a booktabs table's header) to 100% of theirs.
HELD_SHARE = 0.8
JOINED_EMS = 0.1  # of the size: glyphs on one baseline closer than this are one word's (a space is a quarter em)


def _ruled_columns(page, left: float, right: float, top: float, bottom: float) -> int:
    """How many x positions between ``left`` and ``right`` vertical rules stand at, over ``top`` to
    ``bottom``."""
    return len(
        {
            round(edge["x0"])
            for edge in page.edges
            if edge["orientation"] == "v"
            and left + ALIGNED_ENDS < edge["x0"] < right - ALIGNED_ENDS
            and edge["top"] <= bottom
            and edge["bottom"] >= top
        }
    )


def _ruled_length(page, x: float, top: float, bottom: float) -> float:
    """How much of ``top`` to ``bottom`` vertical rules at ``x`` already cover."""
    spans = sorted(
        (max(edge["top"], top), min(edge["bottom"], bottom))
        for edge in page.edges
        if edge["orientation"] == "v" and abs(edge["x0"] - x) <= ALIGNED_ENDS and edge["bottom"] > top
    )
    covered, reached = 0.0, top
    for start, end in spans:
        covered += max(0.0, end - max(start, reached))
        reached = max(reached, end)
    return covered


def closing_edges(page) -> list[dict]:
    """Vertical edges where a table ruled between its rows and its columns is open at its sides: the rows' rules end at
    one x (``ALIGNED_ENDS`` apart at most), one under the other (``CLOSED_RULES`` of them, ``RULE_PITCH`` apart at
    most), they cross ``RULED_COLUMNS`` vertical rules, and the edge joins their ends where rules do not already (each
    section of a form boxed on its own; where rules stand along most of it, only beside the rows a vertical rule crosses
    and none stands beside: LibreOffice leaves a merged cell's side unruled), up to the last rule a vertical rule
    reaches when the rest are over two row pitches on (a page's foot rule). pdfplumber finds a table only where rules
    cross, so a table whose labels stand left of its first vertical rule loses that column without it; a table with
    rules only under its header and at its ends (booktabs) is framed by them (``readers.pdf.framed``). Given to
    ``find_tables`` as ``explicit_vertical_lines``."""
    rules = page_rules(page)
    edges = []
    for side in (0, 1):
        groups: list[list[tuple[float, float, float]]] = []
        for rule in sorted(rules, key=lambda rule: rule[side]):
            if groups and rule[side] - groups[-1][-1][side] <= ALIGNED_ENDS:
                groups[-1].append(rule)
            else:
                groups.append([rule])
        for group in groups:
            x = median(rule[side] for rule in group)
            chain: list[tuple[float, float, float]] = []
            for end in [*sorted(group, key=lambda rule: rule[2]), None]:
                if end is not None and (not chain or end[2] - chain[-1][2] <= RULE_PITCH):
                    chain.append(end)
                    continue
                left, right = min(found[0] for found in chain), max(found[1] for found in chain)
                reached = [
                    index
                    for index, (upper, lower) in enumerate(zip(chain, chain[1:]))
                    if _ruled_columns(page, left, right, upper[2] + ALIGNED_ENDS, lower[2] - ALIGNED_ENDS)
                ]
                pitch = max((chain[index + 1][2] - chain[index][2] for index in reached), default=0.0)
                last = reached[-1] + 1 if reached else 0
                chain = chain[: last + 1] if chain[-1][2] - chain[last][2] > 2 * pitch else chain
                top, bottom = chain[0][2], chain[-1][2]
                if len(chain) >= CLOSED_RULES and _ruled_columns(page, left, right, top, bottom) >= RULED_COLUMNS:
                    spans = (
                        [(top, bottom)]
                        if _ruled_length(page, x, top, bottom) < (bottom - top) / 2
                        else [  # a side ruled but beside a few rows (a spreadsheet's merged cells): those rows'
                            (upper[2], lower[2])
                            for index, (upper, lower) in enumerate(zip(chain, chain[1:]))
                            if index in reached
                            and not _ruled_length(page, x, upper[2] + ALIGNED_ENDS, lower[2] - ALIGNED_ENDS)
                        ]
                    )
                    edges += [
                        {"object_type": "line", "x0": x, "x1": x, "top": upper, "bottom": lower}
                        | {"width": 0, "height": lower - upper}
                        for upper, lower in spans
                    ]
                chain = [end] if end else []
    return edges


def table_settings(page) -> dict | None:
    """``find_tables``' settings for the page: its rules (as pdfplumber's ``lines`` strategy takes them,
    a point long at least), each edge of a shade (``SHADE_POINTS``) inside a shade of its colour and
    every edge of a zebra's stripes (``zebra_stripes``) left out,
    and the edges that close a table open at its sides (``closing_edges``); None when too few rules
    are left to make a grid."""
    shades = page_shades(page)
    shading = {id(rect) for rect in shades}
    striped = zebra_stripes(shades)
    edges = [line_to_edge(line) for line in page.lines] + page.curve_edges
    for rect in (rect for rect in page.rects if id(rect) not in striped):
        edges += [edge for edge in rect_to_edges(rect) if id(rect) not in shading or not inside_shade(edge, shades)]
    vertical = [edge for edge in edges if edge["orientation"] == "v" and edge["height"] >= 1] + closing_edges(page)
    horizontal = [edge for edge in edges if edge["orientation"] == "h" and edge["width"] >= 1]
    if len(vertical) < 2 or len(horizontal) < 2:
        return None
    explicit = {"vertical_strategy": "explicit", "horizontal_strategy": "explicit"}
    return explicit | {"explicit_vertical_lines": vertical, "explicit_horizontal_lines": horizontal}


def holds_its_words(table) -> bool:
    """Whether the cells of a pdfplumber ``table`` hold ``HELD_SHARE`` of the characters in its box, so
    reading it as a table loses none of the page's words (those no cell holds are read as text then)."""
    inside, middles = _banded(table)
    held = sum(  # a table's cells do not overlap: each holds the characters of its rows' band inside it
        _inside(char, box) and bool(char["text"].strip())
        for box in table.cells
        for char in inside[bisect_left(middles, box[1]) : bisect_left(middles, box[3])]
    )
    return held >= HELD_SHARE * sum(bool(char["text"].strip()) for char in inside)


def _banded(table) -> tuple[list[Char], list[float]]:
    """The characters in a pdfplumber ``table``'s box by the height of their middles, and those
    middles: a row's or a cell's characters are a slice of them (``bisect``)."""
    bbox = table.bbox  # pdfplumber works a table's and a row's box out anew on each use
    # Its edges count, as where the page's text leaves the table's characters out (``readers.pdf.layout``).
    inside = sorted((char for char in table.page.chars if centre_in(box_of(char), [bbox])), key=_middle)
    return inside, [_middle(char) for char in inside]


def _middle(char: Char) -> float:
    return (char["top"] + char["bottom"]) / 2


def _inside(char: Char, box) -> bool:
    """pdfplumber's own test: the character's centre is in the box, its right and bottom edges left
    out, so a character on the rule between two cells is in one of them (``figures.centre_in`` takes both)."""
    x, y = (char["x0"] + char["x1"]) / 2, (char["top"] + char["bottom"]) / 2
    return box[0] <= x < box[2] and box[1] <= y < box[3]


def _parted(chars: list[Char], edges: list[float], right: float) -> list[list[Char]]:
    """A cell's characters parted into the columns it spans, which start at ``edges`` (the last ends at
    ``right``): each run of words on a line (closer than a gutter) goes to the column it starts in, so
    a description that runs on past its column's rule stays in it, and an amount set right goes to
    its own; a line of one run centred over them, above lines that stand apart under them (a group's
    name over its columns' headings), is a heading that spans them all, written in the first."""
    columns: list[list[Char]] = [[] for _ in edges]
    centred: list[tuple[int, list[Char]]] = []
    apart = False
    for line in text_lines(chars):
        column, end, runs = 0, None, 0
        for char in line:
            if char["text"].strip() and (end is None or char["x0"] - end > GUTTER_EMS * char["size"]):
                column = max(0, bisect_right(edges, char["x0"] + 0.5) - 1)
                runs += 1
            if char["text"].strip():
                end = char["x1"]
            columns[column].append(char)
        middle = (line[0]["x0"] + line[-1]["x1"]) / 2
        if not apart and runs == 1 and abs(middle - (edges[0] + right) / 2) <= (right - edges[0]) / 4:
            centred.append((column, line))
        apart = apart or runs > 1
    for column, line in centred if apart else ():
        ids = {id(char) for char in line}
        columns[column] = [char for char in columns[column] if id(char) not in ids]
        columns[0] += line
    return columns


def _records(
    row, cells: list[list[Char] | None], lefts: list[float], columns: dict, header: bool, padding: float
) -> list[list[str | None]]:
    """One ruled row's ``cells`` (each one's characters, ``_placed``), as one row or one per record
    (``split_records``); a ``header`` row (the first of several, and each after it before a digit is seen)
    is one row, its cells' lines wrapped headings however they line up. A cell spanning
    columns whose words stand apart under them (a ledger's body boxed as one cell under a ruled
    header, a row ruled only above and below) is parted into those columns first. ``padding``: the table's."""
    rooms = [box[2] - box[0] - 2 * padding if box else None for box in row.cells]
    records = split_records(cells, rooms, not header)
    parted: list[list[Char] | None] = list(cells)
    for box, inside in zip(row.cells, cells):
        spanned = columns[box] if box else []
        parts = _parted(inside, [lefts[index] for index in spanned], box[2]) if inside and len(spanned) > 1 else []
        if sum(map(bool, parts)) > 1:  # its words stand apart; a heading centred over its columns stays whole
            for column, part in zip(columns[box], parts):
                parted[column] = part
    if all(new is old for new, old in zip(parted, cells)):
        return records
    split = split_records(
        parted, [room if new is old else None for room, new, old in zip(rooms, parted, cells)], not header
    )
    filled = [sum(1 for row in found for cell in row if cell) for found in (split, records)]
    return split if len(split) > len(records) or filled[0] > filled[1] else records


def _covered(box, starts: list[float]) -> list[int]:
    """The indices of the grid lines in ``starts`` (column lefts or row tops) that fall in the span
    ``box`` = (start, end)."""
    return [index for index, start in enumerate(starts) if box[0] - 1 <= start < box[1] - 1]


def _joined_columns(rows: list[list[str | None]], joined: set[int]) -> tuple[list[list[str | None]], list[int]]:
    """``rows`` with each column in ``joined`` (a cell spans from it into the next) merged into the
    next when no row fills both but with a currency sign before an amount: a table ruled under its
    header but not between the columns of its body ("Signed TA (EURm)" over three ruled strips, its
    amounts in one cell across them) has one column there, not three of which two stay empty; and
    a "$" ruled apart from its amount ("$ | 178", "3,423" across both) goes with it. The rows, and the columns
    kept (each merged column is the one it starts in)."""
    kept = list(range(len(rows[0]))) if rows else []
    for column in sorted(joined, reverse=True):
        if column + 1 < len(rows[0]) and all(
            (row[column] or "").strip() in CURRENCY for row in rows if row[column] and row[column + 1]
        ):
            rows = [
                row[:column] + [" ".join(cell for cell in row[column : column + 2] if cell)] + row[column + 2 :]
                for row in rows
            ]
            del kept[column + 1]
    return rows, kept


def without_title(table):
    """The pdfplumber ``table`` without its first rows when they are a caption ("Table: 5 Public Health
    Outlay …" ruled in as the table's top row, or a continued table's title, "ESTIMATED COSTS—Continued", ruled
    in under the page's running head's double rule) and the empty rows over it: its words are read before the
    table, as text."""
    texts = (extract_text([char for char in table.page.chars if _inside(char, row.bbox)]).strip() for row in table.rows)
    title, text = next(((index, text) for index, text in enumerate(texts) if text), (0, ""))
    if len(table.rows) < title + 2 or not (CAPTION.match(text) or CONTINUED.search(text)):
        return table
    return Table(table.page, [cell for row in table.rows[title + 1 :] for cell in row.cells if cell is not None])


def with_header_above(table):
    """The pdfplumber ``table`` with the row over its first rule as its header, when a rule as wide
    as the table stands just above it (``RULE_PITCH`` at most) with words between: a booktabs table
    ruled above and below its header but with cells only in its body kept the header out of it. The
    header's cells are those of the body's fullest row, words stand in half of them at least, and no
    line runs on across them (a caption)."""
    x0, top, x1, _ = table.bbox
    above = [
        rule[2]
        for rule in page_rules(table.page)
        if abs(rule[0] - x0) <= ALIGNED_ENDS and abs(rule[1] - x1) <= ALIGNED_ENDS and 2 < top - rule[2] <= RULE_PITCH
    ]
    if not above:
        return table
    fullest = max(table.rows, key=lambda row: sum(cell is not None for cell in row.cells))
    header = [(cell[0], max(above), cell[2], top) for cell in fullest.cells if cell is not None]
    chars = [char for char in table.page.chars if _inside(char, (x0, max(above), x1, top)) and char["text"].strip()]
    named = sum(any(_inside(char, box) for char in chars) for box in header)
    return (
        Table(table.page, header + list(table.cells))
        if named >= max(2, len(header) / 2) and not any(_crossed(chars, box[2]) for box in header[:-1])
        else table
    )


def _crossed(chars: list[Char], x: float) -> bool:
    """A line of ``chars`` runs on across ``x`` (closer than a gutter on both sides): a caption, no
    header cell."""
    for line in text_lines(chars):
        left = max((char["x1"] for char in line if char["x1"] <= x), default=None)
        right = min((char["x0"] for char in line if char["x0"] >= x), default=None)
        straddles = any(char["x0"] < x < char["x1"] for char in line)
        if straddles or (left is not None and right is not None and right - left < GUTTER_EMS * line[0]["size"]):
            return True
    return False


def _placed(table) -> list[list[list[Char] | None]]:
    """Each of a pdfplumber ``table``'s rows as its cells' characters (None where no cell starts), every
    character in the table's box in one of them: in the cell it stands in, or, where the grid drew no
    cell round it (a line indented past its cell's rule, a label left of the first cell of its row),
    in its column's cell of the row it stands level with, a cell of its own where that row has none."""
    xs = sorted({box[0] for box in table.cells})  # where pdfplumber's ``row.cells`` start, one column each
    inside, middles = _banded(table)
    placed: list[list[list[Char] | None]] = []
    held: set[int] = set()
    for row in table.rows:  # each row's characters, from those between its top and bottom
        box = row.bbox
        chars = [
            char for char in inside[bisect_left(middles, box[1]) : bisect_left(middles, box[3])] if _inside(char, box)
        ]
        cells = [None if box is None else [char for char in chars if _inside(char, box)] for box in row.cells]
        held |= {id(char) for cell in cells if cell for char in cell}
        placed.append(cells)
    bands = [(row.bbox[1], row.bbox[3]) for row in table.rows]
    for char in inside:
        if id(char) in held:
            continue
        middle = _middle(char)
        level = [n for n, (top, bottom) in enumerate(bands) if top <= middle < bottom]
        number = (
            min(level, key=lambda n: bands[n][1] - bands[n][0])
            if level
            else min(range(len(bands)), key=lambda n: min(abs(middle - bands[n][0]), abs(middle - bands[n][1])))
        )
        x = (char["x0"] + char["x1"]) / 2
        column = max(0, bisect_right(xs, x) - 1)
        row, cells = table.rows[number], placed[number]
        column = next(
            (index for index, box in enumerate(row.cells) if box is not None and box[0] <= x < box[2]), column
        )
        cells[column] = [*(cells[column] or []), char]
    return [_whole_words(cells) for cells in placed]


def _whole_words(cells: list[list[Char] | None]) -> list[list[Char] | None]:
    """A row's cells with each word whole in the cell it starts in: a word the grid's rule cuts (a
    label run on across its cell's rule, "W | ith footnote") keeps its letters together."""
    owner = {id(char): index for index, chars in enumerate(cells) if chars for char in chars}
    glyphs = [char for chars in cells if chars for char in chars if char["text"].strip()]
    glyphs.sort(key=lambda char: (round(baseline(char)), char["x0"]))
    moved = False
    for left, right in zip(glyphs, glyphs[1:]):
        same = round(baseline(left)) == round(baseline(right))
        if same and owner[id(left)] != owner[id(right)] and right["x0"] - left["x1"] < JOINED_EMS * left["size"]:
            owner[id(right)], moved = owner[id(left)], True
    if not moved:
        return cells
    parted: list[list[Char] | None] = [None if chars is None else [] for chars in cells]
    for chars in cells:
        for char in chars or []:
            parted[owner[id(char)]] = [*(parted[owner[id(char)]] or []), char]
    return parted


def ruled_rows(table) -> tuple[list[list[str | None]], list[float]]:
    """The rows of a pdfplumber ``table``, each cell read from its own words and a row of records split; a spanning
    cell written once, in its first row and column; a header stacked over rows stays rows ("Sales" over "2023").
    The rows, and the left edge of each of their columns."""
    lefts = sorted({round(box[0], 1) for box in table.cells})
    columns = {box: _covered((box[0], box[2]), lefts) for box in table.cells}
    rows: list[list[str | None]] = []
    turns: Counter = Counter()
    figures = False  # a row above held a digit: the header, its rows of words, is over
    placed = _placed(table)
    padding = max(  # the table's: the least room a cell leaves between its rules and its words
        0.0,
        min(
            (
                min(min(char["x0"] for char in cell) - box[0], box[2] - max(char["x1"] for char in cell))
                for row, cells in zip(table.rows, placed)
                for box, cell in zip(row.cells, cells)
                if box and cell
            ),
            default=0.0,
        ),
    )
    for number, (row, cells) in enumerate(zip(table.rows, placed)):
        chars = [char for cell in cells if cell for char in cell]
        turns.update(turning(char) for char in chars)
        figures = figures or any(char["text"].isdigit() for char in chars)
        # A row ruled alone with no cell of figures only is a header ruled round (over a body left unruled), its
        # lines wrapped headings ("M49 Code"), as is a top row of words with its labels' cell empty ("March" /
        # "29,2025"); a lone row with columns of figures may be a ledger's records, ruled round its columns.
        words = not any(figures_only(extract_text(cast(list[dict], cell))) for cell in cells if cell)
        heads = number < HEADER_ROWS and not cells[0] and any(char["text"].isalpha() for char in chars)
        header = (not number or not figures or heads) and (len(table.rows) > 1 or words)
        rows += _records(row, cells, lefts, columns, header, padding)
    rows, kept = _joined_columns(rows, {column for box in table.cells for column in columns[box][:-1]})
    rows = wrapped_header(rows)
    turn = turns.most_common(1)[0][0] if turns else 0
    if turn:  # a table turned 90°: the page's columns are its rows
        count = len(rows)
        return [
            [rows[count - 1 - j][i] if turn > 0 else rows[j][len(rows[0]) - 1 - i] for j in range(count)]
            for i in range(len(rows[0]))
        ], lefts
    return in_reading_order(rows), [lefts[column] for column in kept]
