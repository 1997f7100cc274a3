"""A table ruled in pieces, read as one table: a header ruled alone over a body without rules, or rows
shaded in turn.

A table whose header is a shaded band or a ruled grid of its own (a spreadsheet's or a web page's header
row printed over zebra stripes or bare rows) has its body found by alignment (``readers.pdf.aligned``)
apart from the header's grid (``readers.pdf.cells``). When the body stands right under the grid, within
its width and over as many columns, the grid's rows are the body's header. Grids of as many columns one on
the other, sharing an edge, are one table too (two rows shaded in turn are too few for zebra stripes,
``readers.pdf.shades``, and each one's edges close a grid of its own; tables apart stand apart). A grid of one
row of words, no table alone (``readers.pdf.pages.is_table``), is such a header when a body stands under it.
A line right under a grid, its phrases each inside a column and filling two and half of them at least (or two,
the label's one of them), is the grid's last row (the row under the last of a table's shaded rows, ruled by
none), and so is each such line after it (a shaded header's rows); such a line in the row right over it is its
first (a header over shaded rows). A note of one phrase right under a grid, over such a row, is a row too.
A lone row that nothing joins is a table of one row when it is a record, not a header: three cells filled or
more, one of them figures only (a table's last row run on to the next page, alone at its top).
"""

from __future__ import annotations

from typing import TypeGuard

from ..markup.tables import markdown_table
from .boxes import box_of, centre_in, union
from .colheads import halves_joined, wrapped_header
from .framed import ALIGNED_ENDS
from .records import Item
from .rowlines import RECORD_CELLS
from .strips import phrases
from .unruled import HEADER_ROWS, item_lines
from .unsure import FIGURE, figures_only
from .words import phrase_text, right_to_left

# A ruled grid: its bbox, Markdown, rows and its columns' left edges
Ruled = tuple[tuple, str, list[list], list[float]]
BODY_REACH = 2.0  # times the body's row pitch: how far under the grid its first row may stand
EDGE_SHARE = 0.05  # of the grid's width: how far past its sides the body may reach
LABEL_LINES = 6  # lines of one phrase before a row of figures under a grid at most: a note, a section's wrapped label


def _over(grid: Ruled, block: Item) -> list[int] | None:
    """The column of ``grid`` over each of ``block``'s when the block has more (``spans``, where its columns
    stand): each one's middle inside one of the grid's columns, each of the grid's over one at least (a shaded
    header's "Seroprevalence (%)" over figures set in two halves, "Change" over an amount and its percentage), the
    block's first line under the grid's foot (not its words read again)."""
    (x0, _, x1, bottom), _, head, lefts = grid
    spans = block.get("spans", [])
    reach = EDGE_SHARE * (x1 - x0)
    if len(spans) <= len(lefts) or len(head[0]) != len(lefts) or block["top"] < bottom - ALIGNED_ENDS:
        return None
    edges = [x0 - reach, *lefts[1:], x1 + reach]
    over: list[int] = []
    for start, end in spans:
        column = next((n for n in range(len(lefts)) if edges[n] <= (start + end) / 2 < edges[n + 1]), None)
        if column is None:
            return None
        over.append(column)
    return over if set(over) == set(range(len(lefts))) else None


def _under(grid: Ruled, block: Item) -> bool:
    """``block``'s rows stand right under ``grid``, within its width, over as many columns as it has (or more,
    each under one of its columns: ``_over``), its first row not the grid's header read again (rows of a few
    lines each, found with their header: the shaded header stands less than half a row over them)."""
    (x0, _, x1, bottom), _, head, _ = grid
    body = block["rows"]
    pitch = (block["bottom"] - block["top"]) / len(body)
    reach = EDGE_SHARE * (x1 - x0)
    return (
        len(head) <= HEADER_ROWS
        and (len(head[0]) == len(body[0]) or _over(grid, block) is not None)
        and len(body[0]) > 1
        and body[0] != head[-1]
        and -pitch / 2 <= block["top"] - bottom <= BODY_REACH * pitch
        and block["x0"] >= x0 - reach
        and block["x1"] <= x1 + reach
        and block["x1"] - block["x0"] >= (x1 - x0) / 2
    )


def _atop(box: tuple, rows: list[list], block: Item) -> bool:
    """``block``'s rows are the header of the table in ``box`` (its ``rows``): words only, a few rows
    (``HEADER_ROWS``) over as many columns, right over it (``BODY_REACH`` of its rows' pitch) and within its width
    (a header set without shade over rows shaded in turn, found by alignment apart from them)."""
    x0, top, x1, bottom = box
    head = block["rows"]
    reach = EDGE_SHARE * (x1 - x0)
    return (
        len(head) <= HEADER_ROWS
        and len(head[0]) == len(rows[0]) > 1
        and not any(FIGURE.fullmatch(cell) for row in head for cell in row if cell)
        and 0 <= top - block["bottom"] <= BODY_REACH * (bottom - top) / len(rows)
        and block["x0"] >= x0 - reach
        and block["x1"] <= x1 + reach
        and block["x1"] - block["x0"] >= (x1 - x0) / 2
    )


def _headers_joined(blocks: list[Item]) -> list[Item]:
    """``blocks`` (found by alignment), each header right over a block's rows (``_atop``) joined to it, its
    wrapped headings' lines in one row (``wrapped_header``)."""
    kept: list[Item] = []
    for block in sorted(blocks, key=lambda block: block["top"]):
        box = (block["x0"], block["top"], block["x1"], block["bottom"])
        if kept and _atop(box, block["rows"], kept[-1]):
            head = kept.pop()
            rows = wrapped_header(head["rows"]) + block["rows"]
            block = {**block, "x0": min(head["x0"], box[0]), "top": head["top"], "x1": max(head["x1"], box[2])}
            block.update({"block": markdown_table(rows), "rows": rows})
        kept.append(block)
    return kept


def _spread(upper: Ruled, lower: Ruled) -> list[list] | None:
    """``upper``'s rows over ``lower``'s columns, when each of its columns starts where one of ``lower``'s does
    (``ALIGNED_ENDS``): a grouped header's names over their columns, each in the first of those it spans."""
    lefts = lower[3]
    starts = [[n for n, left in enumerate(lefts) if abs(left - start) <= ALIGNED_ENDS][:1] for start in upper[3]]
    if len(upper[2][0]) != len(upper[3]) or not all(starts):
        return None
    spread: list[list] = [[None] * len(lefts) for _ in upper[2]]
    for row, cells in zip(spread, upper[2]):
        for [column], cell in zip(starts, cells):
            row[column] = cell
    return spread


def _stacked(upper: Ruled, lower: Ruled) -> list[list] | None:
    """``upper``'s rows over ``lower``'s columns (``_spread``) when ``lower`` is ``upper``'s table's next rows: as
    wide, over its columns or more (a grouped header over its columns), its top on ``upper``'s bottom."""
    (x0, _, x1, bottom), rows = upper[0], upper[2]
    reach = EDGE_SHARE * (x1 - x0)
    if abs(lower[0][0] - x0) > reach or abs(lower[0][2] - x1) > reach or abs(lower[0][1] - bottom) > ALIGNED_ENDS:
        return None
    return rows if len(rows[0]) == len(lower[2][0]) else _spread(upper, lower) if len(rows) <= HEADER_ROWS else None


def _noted(upper: Ruled, lower: Ruled, lines: list[list[Item]], width: float) -> tuple[list[list], list[Item]] | None:
    """``upper``'s rows over ``lower``'s columns (``_stacked``) and a note's row under them, when a line of one
    phrase (phrases closer than ``width``) inside ``upper``'s sides is all that stands between the two grids, in a
    gap twice its height at most ("(in thousands, except percentages)" between a shaded header and shaded rows);
    the note's items too. The note stands in the column it starts in."""
    (x0, _, x1, bottom), top, lefts = upper[0], lower[0][1], lower[3]
    between = [line for line in lines if line[0]["top"] >= bottom - 1 and max(i["bottom"] for i in line) <= top + 1]
    found = phrases(between[0], width) if len(between) == 1 else []
    if len(found) != 1 or found[0][0]["x0"] < x0 or found[0][-1]["x1"] > x1:
        return None
    note = found[0]
    if top - bottom > 2 * (max(item["bottom"] for item in note) - min(item["top"] for item in note)):
        return None
    rows = _stacked(upper, ((lower[0][0], bottom, *lower[0][2:]), *lower[1:]))
    if rows is None:
        return None
    row = [""] * len(lefts)
    row[max((n for n, left in enumerate(lefts) if left - 1 <= note[0]["x0"]), default=0)] = phrase_text(note)
    return [*rows, row], note


def _refined(grid: Ruled, heads: list[Ruled]) -> Ruled:
    """``grid`` over the columns of a row ruled round alone (``heads``) that stands under it, a row or two apart
    at most (``BODY_REACH``), as wide and over its columns and more (``_spread``): a shaded header's cells span the
    body's, whose shaded rows draw each cell (a "$" apart from its amount)."""
    (x0, top, x1, bottom), _, rows, _ = grid
    reach, pitch = EDGE_SHARE * (x1 - x0), (bottom - top) / len(rows)
    for head in heads:
        (left, up, right, _), lefts = head[0], head[3]
        if abs(left - x0) <= reach and abs(right - x1) <= reach and 0 <= up - bottom <= BODY_REACH * pitch:
            if len(lefts) > len(grid[3]) and len(rows) <= HEADER_ROWS and (spread := _spread(grid, head)):
                return grid[0], markdown_table(spread), spread, lefts
    return grid


def _joined(upper: Ruled, box: tuple, rows: list[list]) -> Ruled:
    """``upper`` with ``rows`` (standing in ``box``) under it."""
    (x0, top, x1, bottom), _, above, lefts = upper
    rows = above + rows
    return (min(x0, box[0]), top, max(x1, box[2]), max(bottom, box[3])), markdown_table(rows), rows, lefts


def _headed_body(grid: Ruled, body: Item) -> Ruled:
    """``grid`` as the header of ``body``, the aligned rows under it: over as many columns, or spread over the
    body's more (``_over``: each heading in the first column under it), a column set in halves under one heading
    joined (``halves_joined``); its columns' left edges the grid's or the body's, as many as its columns."""
    box, rows = (body["x0"], body["top"], body["x1"], body["bottom"]), body["rows"]
    over = _over(grid, body)
    if over is None:
        return _joined(grid, box, rows)
    spread = [
        [(row[column] or "") if over.index(column) == n else "" for n, column in enumerate(over)] for row in grid[2]
    ]
    joined = halves_joined(spread + rows)
    lefts = grid[3] if len(joined[0]) == len(grid[3]) else [start for start, _ in body["spans"]]
    return _joined((*grid[:2], [], lefts), box, joined)


def _columns(line: list[Item], edges: list[float], width: float) -> dict[int, str] | None:
    """The line's phrases (runs closer than ``width``) by the column each stands inside (columns start at
    ``edges``, the last one ending the grid), a column's together ("$ 5,325,311" under a date's heading); None
    when one stands across a rule or outside."""
    cells: dict[int, str] = {}
    for phrase in phrases(line, width):
        column = next((n for n in range(len(edges) - 1) if edges[n] - 1 <= phrase[0]["x0"] < edges[n + 1]), None)
        if column is None or phrase[-1]["x1"] > edges[column + 1] + 1:
            return None
        cells[column] = f"{cells[column]} {phrase_text(phrase)}" if column in cells else phrase_text(phrase)
    return cells


def _filled(cells: dict[int, str] | None, lefts: list[float]) -> TypeGuard[dict[int, str]]:
    """A line's ``cells`` (``_columns``) fill two and half of the columns at least, or two with the label's."""
    return (
        cells is not None
        and len(cells) >= 2
        and (2 * len(cells) >= len(lefts) or bool({0, len(lefts) - 1} & cells.keys()))
    )


def _ahead(lines: list[list[Item]], edges: list[float], width: float, pitch: float) -> bool:
    """A line filling the columns that start at ``edges`` (``_filled``) comes among the first ``LABEL_LINES`` of
    ``lines``, each of one phrase before it (a note, a section's label and its wrapped lines), each at most
    ``pitch`` under the one before."""
    for index, line in enumerate(lines[:LABEL_LINES]):
        if index and line[0]["top"] - max(item["bottom"] for item in lines[index - 1]) > pitch:
            return False
        if _filled(_columns(line, edges, width), edges[:-1]):
            return True
        if len(phrases(line, width)) > 1:
            return False
    return False


def _edge_row(
    grid: Ruled, lines: list[list[Item]], width: float, below: bool
) -> tuple[list[Item], list[str | None]] | None:
    """The line right ``below`` ``grid`` (half a row's height at most) that is its last row, or the line in
    the row's height right above it that is its first (a header over shaded rows), its phrases each inside a
    column, in two and half of them at least, or two with the label's (``_columns``); a last row with the lines
    close under it whose phrases stand in its cells' columns (a cell's wrapped lines). Its items and its cells
    in reading order."""
    (_, top, right, bottom), _, rows, lefts = grid
    pitch = (bottom - top) / len(rows)
    near = (
        [line for line in lines if line[0]["top"] >= bottom - 1]
        if below
        else [line for line in lines[::-1] if max(item["bottom"] for item in line) <= top + 1]
    )
    if len(rows[0]) != len(lefts) or not near:
        return None
    if near[0][0]["top"] - bottom > pitch if below else near[0][0]["bottom"] < top - pitch:
        return None
    edges = [*lefts, right]
    cells = _columns(near[0], edges, width)
    if below and len(near) > 1 and len(found := phrases(near[0], width)) == 1:  # a note over rows ("(in thousands)")
        column = next((n for n, left in enumerate(lefts[::-1]) if left - 1 <= found[0][0]["x0"]), None)
        if (
            column is not None
            and column < len(lefts) - 1  # a label alone in the first column is a row, its wrapped lines with it
            and found[0][-1]["x1"] <= right + 1
            and _ahead(near[1:], edges, width, pitch)
            and near[1][0]["top"] - max(item["bottom"] for item in near[0]) <= pitch
        ):
            note: list[str | None] = [None] * len(lefts)
            note[len(lefts) - 1 - column] = phrase_text(found[0])
            return list(near[0]), note
    if not _filled(cells, lefts) and not (
        below and cells and cells.keys() == {0} and _ahead(near[1:], edges, width, pitch)
    ):
        return None
    taken = list(near[0])
    for line in near[1:] if below else []:
        wrapped = _columns(line, edges, width)
        height = line[0]["bottom"] - line[0]["top"]
        if not wrapped or not wrapped.keys() <= cells.keys() or line[0]["top"] - taken[-1]["bottom"] > height / 2:
            break
        cells = {column: f"{text}\n{wrapped[column]}" if column in wrapped else text for column, text in cells.items()}
        taken += line
    row = [cells.get(column) for column in range(len(lefts))]
    return taken, row[::-1] if right_to_left([*rows, row]) else row


def headed(
    grids: list[Ruled], heads: list[Ruled], items: list[Item], blocks: list[Item], width: float
) -> tuple[list[tuple[tuple, str]], list[Item], list[Item]]:
    """The page's ruled ``grids``, each over a body found by alignment right under it (``blocks``, their
    items) joined to it as its header, each over a grid stacked right under it (``_stacked``), or a note's line
    under it (``_noted``), joined to it,
    each with its first and last rows among the page's word ``items`` (``_edge_row``, phrases closer than
    ``width``);
    a grid of ``heads`` (a lone row ruled round, no table alone) kept only when something is joined to it
    or it to something. The tables (bbox, Markdown), and the items and the blocks not joined."""
    joined: list[Ruled] = []
    alone = {id(head) for head in heads}
    kept: list[tuple] = []
    lines = item_lines([item for item in items if "block" not in item])
    notes: set[int] = set()
    blocks = _headers_joined(blocks)
    for grid in sorted(grids + heads, key=lambda grid: grid[0][1]):
        above = _stacked(joined[-1], grid) if joined else None
        if above is None and joined and (noted := _noted(joined[-1], grid, lines, width)):
            above, notes = noted[0], notes | {id(item) for item in noted[1]}
        if above is not None:
            kept += [box[0] for box in (joined[-1], grid) if id(box) in alone]
            rows = above + grid[2]  # on the lower grid's columns
            joined[-1] = union([joined[-1][0], grid[0]]), markdown_table(rows), rows, grid[3]
            continue
        body = next((block for block in blocks if _under(grid, block)), None)
        if body is not None:
            kept += [grid[0]] if id(grid) in alone else []
            blocks = [block for block in blocks if block is not body]
            grid = _headed_body(grid, body)
        joined.append(grid)
    items = [item for item in items if id(item) not in notes and not centre_in(box_of(item), kept)]  # the table's
    lines = item_lines([item for item in items if "block" not in item])
    tables = []
    loose = [head for head in heads if id(head) in alone and head[0] not in kept and record(head[2][0])]
    for grid in [grid for grid in joined if id(grid) not in alone] + loose:
        if id(grid) in alone:  # a record no table took: a table of its own, while its words are loose
            inside = {id(item) for item in items if centre_in(box_of(item), [grid[0]])}
            if not inside:
                continue
            items = [item for item in items if id(item) not in inside]
            lines = [line for line in lines if id(line[0]) not in inside]
        else:
            grid = _refined(grid, [head for head in heads if id(head) in alone and head[0] not in kept])
        for below in (True, False):
            while (row := _edge_row(grid, lines, width, below)) is not None:  # row after row
                taken = {id(item) for item in row[0]}  # whole lines
                items = [item for item in items if id(item) not in taken]
                lines = [line for line in lines if id(line[0]) not in taken]
                box, _, rows, lefts = grid
                rows = rows + [row[1]] if below else [row[1], *rows]
                grid = union([box, *map(box_of, row[0])]), markdown_table(rows), rows, lefts
        tables.append((grid[0], grid[1]))
    return tables, items, blocks


def record(row: list) -> bool:
    """A lone row ruled round is a record: ``RECORD_CELLS`` cells filled or more, one of figures only."""
    cells = [str(cell) for cell in row if cell]
    return len(cells) >= RECORD_CELLS and any(figures_only(cell) for cell in cells)
