"""Tables without rules: columns found from the empty strips (gutters) their rows share.

Words are layout items (``readers.pdf.records.Item``) with a box (``x0``, ``x1``, ``top``, ``bottom``) and
``text``; ``readers.pdf.layout`` groups them into slabs (runs that overlap vertically) and hands a table's slabs here.

A financial statement or a paper stacks its header over two or three rows and centres a heading over the columns it
spans ("Year Ended / December 31," over "2023 2022"); a cell in the body may span columns too ("not reported" under
both years). Such words cross the gutter between the columns they span, so a gutter is the strip every row leaves
empty, or one that rows with fewer cells than most cross only with words centred on it or with prose set on a
column's left edge (a long cell spanning the columns after it). The crossing rows at the top are the header's rows,
each heading in the first column it spans ("Year Ended" over "December 31,"), each line a row of its own (a note
spanning the columns under the dates, "(in thousands)", too); a crossing row lower down has its spanning cell in its
first column. A heading over the whole width is a title, read before the table; so is a first line that crosses the
gutters all the rows under it share, off their middles ("Table: 5   Public Health Outlay …"), unless it holds a
heading over each column (a long one crossing a gutter): then it is the header, or its first line; so are a header's
first lines hiding gutters the rows under them share (``_header_hides``: periods grouped over dates, "(in
thousands)" over every amount), and over one or two rows of figures they cross those rows' gutters as headings. A
cell that runs on into the next column (a surname too long for its own) does not merge the two: a strip all but a
few rows leave empty, before a column whose words start on one edge in most rows, is a gutter too, and a word that
crosses it stays in the column it starts in.

What a line draws with characters (``drawn``: a leader's dots, a rule typed as hyphens) is the table's
rule, in no cell; every other word of the region is in a cell or comes back to be read beside the
table (``readers.pdf.unsure.unplaced``): a table loses no word.
"""

from __future__ import annotations

import math
import re
from statistics import median

from .colheads import grouped, halves_joined, headed_figures, header_wrapped, parted_under, set_apart, spanned
from .records import Item
from .strips import EDGE, common, dashed, gaps, heading_edges, overlapping, overrun, phrases, two_sided
from .unsure import CURRENCY, FIGURE, of_figures, unplaced
from .words import in_reading_order, phrase_text, right_to_left
from .wraps import ALIGNED_ROWS, PROSE_CHARS, PROSE_WORDS, STACKED, UNITS, dates_ended, stacked_lines, wrapped_lines

HEADER_ROWS = 3  # rows a header may be stacked over
NOTE = re.compile(r"\([^()]*[^\W\d_][^()]*\)")  # a note in brackets, of words: "(in thousands)"
GUTTER_EMS = 0.9  # of the body text's size: narrower gaps are word spaces, wider ones part columns or cells
# Characters that draw, not words: a leader's dots ("0.99 ..........  800"; three dots are a cell's "not
# available") and a rule typed as a run of hyphens or equals signs under a typewriter table's header.
LEADER = re.compile(r"(?:\.\s?){4,}|…{2,}")
SHORT_LEADER = re.compile(r"\.{2,3}")  # what a leader leaves where its label nearly fills the column
RULE = re.compile(r"[-–—=_]{3,}")


def line_chars(line: list[Item]) -> int:
    """A line's characters, a space after each word; a leader's dots are none."""
    return sum(len(item["text"]) + 1 for item in line if not LEADER.fullmatch(item["text"]))


def drawn(line: list[Item]) -> list[Item]:
    """What ``line`` draws rather than says: its leaders, or the whole line when it is a rule typed in hyphens."""
    if all(RULE.fullmatch(item["text"]) for item in line):
        return line
    return [item for item in line if LEADER.fullmatch(item["text"])]


def undrawn(slabs: list[list[Item]]) -> list[list[Item]]:
    """``slabs`` without what their lines draw (``drawn``), and without those left empty; where some lines
    have leaders, a word of two or three dots is a leader too (a label that fills its column but for ".."), and
    so is one before an amount anywhere ("Revenues .. $ 11,079,166")."""
    kept = []
    leadered = any(LEADER.fullmatch(item["text"]) for slab in slabs for item in slab)
    for slab in slabs:
        lines = item_lines(slab)
        gone = {id(item) for line in lines for item in drawn(line)}
        gone |= {id(item) for item in slab if leadered and SHORT_LEADER.fullmatch(item["text"])}
        gone |= {
            id(item)
            for line in lines
            for item, after in zip(line, line[1:])
            if SHORT_LEADER.fullmatch(item["text"]) and (after["text"] in CURRENCY or FIGURE.fullmatch(after["text"]))
        }
        if len(gone) < len(slab):
            kept.append([item for item in slab if id(item) not in gone])
    return kept


def item_lines(items: list[Item]) -> list[list[Item]]:
    """Items grouped into lines (vertical centres within the line), each sorted left to right; an
    item that stands for a block (a table, a figure) is a line of its own."""
    lines: list[list[Item]] = []
    for item in sorted(items, key=lambda i: (i["top"] + i["bottom"]) / 2):
        centre = (item["top"] + item["bottom"]) / 2
        if (
            lines
            and item.get("block") is None
            and lines[-1][0].get("block") is None
            and lines[-1][0]["top"] <= centre <= lines[-1][0]["bottom"]
        ):
            lines[-1].append(item)
        else:
            lines.append([item])
    return [sorted(line, key=lambda i: i["x0"]) for line in lines]


def in_columns(items: list[Item], gutters: list[tuple[float, float]]) -> list[list[Item]]:
    """``items`` parted by ``gutters``, left to right: one list per column, empty ones too. A word
    that runs on across a gutter stays in the column it starts in."""
    edges = [gap[1] for gap in gutters] + [float("inf")]
    columns: list[list[Item]] = [[] for _ in edges]
    for item in items:
        columns[next(index for index, edge in enumerate(edges) if item["x0"] < edge - 0.5)].append(item)
    return columns


def _gap(above: list[Item], below: list[Item]) -> float:
    return min(item["top"] for item in below) - max(item["bottom"] for item in above)


def _gutters(slabs: list[list[Item]], width: float) -> list[tuple[float, float]]:
    """The strips every slab leaves empty, with words on both sides in at least one of them."""
    items = sum(slabs, [])
    left, right = min(i["x0"] for i in items), max(i["x1"] for i in items)
    # a unit's note in brackets set in a column's cell, "(in thousands)", may run on over the next ones (and over a
    # column of dashes that stand for no amount beside the amounts: ``dashed``)
    ruling = [slab for slab in slabs if not _note(slab, left, width)] or slabs
    shared = gaps(ruling[0], left, right, width)
    for slab in ruling[1:]:
        shared = common(shared, gaps(slab, left, right, width), width)
    return dashed([gap for gap in shared if any(two_sided(slab, gap) for slab in slabs)], ruling)


def _note(slab: list[Item], left: float, width: float) -> bool:
    """The slab is one note in brackets, past the labels' column: "(in thousands, except percentages)"."""
    line = sorted(slab, key=lambda item: item["x0"])
    return line[0]["x0"] > left + width and len(phrases(line, width)) == 1 and bool(NOTE.fullmatch(phrase_text(line)))


def _extents(rows: list[list[Item]], gutters: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Where each column's words stand in ``rows``, from its first word's left to its last's right; an empty
    column nowhere (``(inf, -inf)``)."""
    return [
        (min(item["x0"] for item in column), max(item["x1"] for item in column)) if column else (math.inf, -math.inf)
        for column in in_columns(sum(rows, []), gutters)
    ]


def _headings(rows: list[list[Item]], width: float) -> tuple[list[list[Item]], int]:
    """The headings of the first of a table's ``rows`` (its phrases) with their next lines: the lines right under
    it, closer than ``STACKED`` of the table's usual gap between rows (a header's rows stand further apart; a
    sheet's lines all as far), of words, each phrase under a heading of its own ("As" /
    "Reported", "Hedging (Gains)" / "Losses Included in" / "Revenues"). The headings, each its words in reading
    order, and how many lines they take."""
    found = phrases(sorted(rows[0], key=lambda item: item["x0"]), width)
    usual = median(_gap(above, below) for above, below in zip(rows, rows[1:]))
    count = 1
    for line in rows[1 : len(rows) - ALIGNED_ROWS]:
        parts = phrases(sorted(line, key=lambda item: item["x0"]), width)
        under = [[n for n, head in enumerate(found) if overlapping(part, head)] for part in parts]
        if (
            _gap(rows[count - 1], line) >= STACKED * usual
            or of_figures(phrase_text(part) for part in parts)
            or any(len(heads) != 1 for heads in under)
            or len({heads[0] for heads in under}) < len(parts)
        ):
            break
        for part, (n,) in zip(parts, under):
            found[n] = found[n] + part
        count += 1
    return found, count


def _group_headings(found: list[list[Item]], rows: list[list[Item]], width: float) -> list[str] | None:
    """A header's headings (``found``, phrases) as its row over ``rows`` when they (two or more) stand over groups
    of their columns, one over two columns at least, or each heads its own columns in turn (set in their cells over
    figures set right: ``spanned``), or one is centred over all of them or over the last two or more, and leave
    the first column empty; else None."""
    gutters, _ = column_gutters(rows, width)
    if not found or not gutters or found[0][0]["x0"] <= gutters[0][0]:  # over the labels' column
        return None
    extents = _extents(rows, gutters)
    middle = (found[0][0]["x0"] + found[-1][-1]["x1"]) / 2
    # one heading, centred over every column but the labels' ("As of June 30, 2025")
    if len(found) == 1 and len(extents) >= 3 and abs(middle - (extents[1][0] + extents[-1][1]) / 2) <= width:
        return [phrase_text(found[0]) if index == 1 else "" for index in range(len(extents))]
    groups = grouped(found, extents, gutters, width)
    if len(found) == 1:  # or over the last two or more ("Incorporated by Reference" over three), not the table
        if not groups or len(groups[0]) < 2 or groups[0][-1] < len(extents) - 1:
            return None
        off = abs((extents[groups[0][0]][0] + extents[groups[0][-1]][1]) / 2 - middle)
        if off > width or off >= abs((extents[0][0] + extents[-1][1]) / 2 - middle):  # the table's title
            return None
    if not groups or all(len(group) < 2 for group in groups):
        groups = [spanned(phrase, extents, gutters, heading=True) for phrase in found]
        if 0 in groups[0] or any(before[-1] >= after[0] for before, after in zip(groups, groups[1:])):
            return None
    row = [""] * len(extents)
    for phrase, group in zip(found, groups):
        row[group[0]] = phrase_text(phrase)
    return row


def column_gutters(rows: list[list[Item]], width: float) -> tuple[list[tuple[float, float]], set[int]]:
    """The gutters of a table's ``rows`` and the rows that cross one: the strips every row leaves empty, and those
    that rows with fewer cells than most cross only with words centred on them (a heading, or a cell spanning the
    columns either side) or with prose set on a column's edge (a long cell, no word of another's), a third at most."""
    strict = _gutters(rows, width)
    runs = [phrases(sorted(row, key=lambda item: item["x0"]), width) for row in rows]
    # A header's lines of fewer phrases than the first row of figures under them span the columns of the
    # rows under them when those are too few to be a table alone (an amount, and its share of the total)
    lead = next((n for n, found in enumerate(runs) if of_figures(map(phrase_text, found))), 0)
    # (a label's lines wrapped under its row of figures count for none under a header of a few lines)
    figures = sum(of_figures(map(phrase_text, found)) for found in runs[lead:])
    short = len(rows) - lead < ALIGNED_ROWS or figures < ALIGNED_ROWS and lead <= HEADER_ROWS + 1
    if 0 < lead and short and max(map(len, runs[:lead])) < len(runs[lead]):
        body = _gutters(rows[lead:], width)
        if len(body) > len(strict):
            heads = {n for n in range(lead) for i in rows[n] for gap in body if i["x0"] < gap[1] and gap[0] < i["x1"]}
            return body, heads
    if len(rows) > ALIGNED_ROWS and (body := _gutters(rows[1:], width)):
        apart = set_apart(runs[0], body, max(item["x1"] for row in rows[1:] for item in row))
        strict = apart if apart and len(apart) > len(strict) else strict
    strict = sorted(strict + overrun(rows, width, strict))
    strict = sorted(strict + heading_edges(rows, width, strict))
    usual = median(len(found) for found in runs)
    fewer = [index for index, found in enumerate(runs) if len(found) < usual]
    others = [row for index, row in enumerate(rows) if index not in fewer]
    if not fewer or len(others) < ALIGNED_ROWS:
        return strict, set()
    found, crossing = [], set()
    starts = [phrase[0]["x0"] for n, run in enumerate(runs) if n not in fewer for phrase in run]
    gap: tuple[float, float] | None
    for gap in _gutters(others, width):
        crossed = set()
        for index in fewer:
            over = [phrase for phrase in runs[index] if phrase[0]["x0"] < gap[1] and gap[0] < phrase[-1]["x1"]]
            if any(  # (off the middle of a wide strip it reaches into a column: a heading set left in its cell)
                abs((phrase[0]["x0"] + phrase[-1]["x1"] - gap[0] - gap[1]) / 2)
                <= max(width, (gap[1] - gap[0]) / 4 if (phrase[0]["x0"] < gap[0]) == (gap[1] < phrase[-1]["x1"]) else 0)
                or phrase[0]["x0"] < gap[0] < gap[1] < phrase[-1]["x1"]
                and len(phrase) >= PROSE_WORDS
                and line_chars(phrase) >= PROSE_CHARS
                and any(abs(phrase[0]["x0"] - start) <= EDGE for start in starts)
                and all(abs(item["x0"] - start) > EDGE for item in phrase[1:] for start in starts)
                for phrase in over
            ):
                crossed.add(index)
            elif over:  # words that only reach into the strip narrow it
                gap = max(
                    common([gap], gaps(rows[index], gap[0], gap[1], width), width),
                    key=lambda strip: strip[1] - strip[0],
                    default=None,
                )
                if gap is None:
                    break
        if gap is not None and crossed and len(crossed) <= len(rows) // 3:
            found.append(gap)
            crossing |= crossed
    # A strip the crossing words leave beside them is part of the gutter they cross.
    gutters = found + [gap for gap in strict if not any(min(gap[1], end) > max(gap[0], start) for start, end in found)]
    return sorted(gutters), crossing


def _parted(line: list[Item], gutters: list[tuple[float, float]], width: float) -> bool:
    """The line is one phrase that the ``gutters`` would part between words (``in_columns``), none of them after a
    figure: a note that runs on across a column's edge ("(in thousands, except percentages)"), one cell. A figure
    set close before words is a column of its own ("20 We Care for a Greener Planet", a contents' page number)."""
    columns = [cell for cell in in_columns(line, gutters) if cell]
    return (
        len(columns) > 1
        and len(phrases(line, width)) == 1
        and not any(FIGURE.fullmatch(cell[-1]["text"]) for cell in columns[:-1])
    )


def _spread(
    line: list[Item], extents: list[tuple[float, float]], gutters: list[tuple[float, float]], width: float
) -> list[str]:
    """A line's cells when its words cross gutters: each run of words once, in the first column it
    spans (Markdown has no spans: the rest are left empty); a note of the figures' units starting in a gutter, in
    the column after it (over the figures, not the labels it clears)."""
    cells: list[list[str]] = [[] for _ in extents]
    for phrase in phrases(line, width):
        text, x0 = phrase_text(phrase), phrase[0]["x0"]
        after = [index + 1 for index, (start, end) in enumerate(gutters) if start <= x0 <= end]
        cells[after[0] if after and UNITS.fullmatch(text) else spanned(phrase, extents, gutters)[0]].append(text)
    return [" ".join(parts) for parts in cells]


def _header_hides(rows: list[list[Item]], found: int, width: float) -> bool:
    """The first line of ``rows`` hides gutters the rows under it share (more than ``found``), or its first lines
    do (``HEADER_ROWS`` at most): of fewer phrases than those rows, or hiding as many again (set left over figures)."""
    counts = [len(phrases(sorted(row, key=lambda item: item["x0"]), width)) for row in rows]
    for start in range(1, min(HEADER_ROWS + 2, len(rows) - ALIGNED_ROWS)):
        more = len(column_gutters(rows[start:], width)[0])
        if more > found and (start == 1 or max(counts[:start]) < median(counts[start:])) or more > 2 * found > 0:
            return True
    return len(rows) - 1 == ALIGNED_ROWS and len(column_gutters(rows[1:], width)[0]) > found


def _hidden(
    above: list[list[Item]], slabs: list[list[Item]], rows: list[list[Item]], width: float
) -> tuple[list[Item], list[list[str]]] | None:
    """``unruled_table`` of rows whose header's first row (its headings over as many lines: ``_headings``) hides
    gutters the rows under it share: the table under it, and that row as its header, or its words read before it."""
    found, count = _headings(rows, width)
    table = unruled_table(above[count:], slabs[max(0, count - len(above)) :], width)
    if not table:
        return None
    head = sum(rows[:count], [])
    (first, *rest), closer = table[1], _gap(head, rows[count]) < STACKED * _gap(rows[count], rows[count + 1])
    tries = (_group_headings(found, rows[start:], width) or [] for start in range(count, count + HEADER_ROWS))
    if headings := next((row for row in tries if len(row) == len(first)), None):
        filled = [bool(heading) for heading in headings]
        joins = closer and (2 * sum(filled) > len(first) or all(on for on, cell in zip(filled, first) if cell))
    else:  # a heading over each column: a header row, or its first line over one of words
        heads = [phrase_text(phrase) for phrase in found]
        if not len(heads) == len(first) > 2:
            extents = _extents(rows[count:], column_gutters(rows[count:], width)[0])
            lefts = [(phrase[0]["x0"], text) for phrase, text in zip(found, heads)]
            parted = None if right_to_left(table[1]) else parted_under(lefts, extents, table[1])  # read leftward
            return (table[0], parted) if parted else (head + table[0], table[1])
        headings, joins = in_reading_order([heads, *rest])[0], not any(map(FIGURE.fullmatch, first))
    if joins:
        return table[0], [[f"{head} {cell}".strip() for head, cell in zip(headings, first)], *rest]
    return table[0], [headings, *table[1]]


def unruled_table(
    above: list[list[Item]], slabs: list[list[Item]], width: float
) -> tuple[list[Item], list[list[str]]] | None:
    """A table without rules from ``slabs`` (rows with words on both sides of a gutter) and the
    slabs ``above`` them that may be its stacked header; ``width`` is the narrowest gutter.

    Returns the items read before the table (a title over its whole width, header candidates
    that are none, a word no cell holds) and its rows, the first its header; or None when the slabs
    make no table. Leaders and rules typed in characters (``drawn``) are the table's own rules: no
    cell holds them."""
    above, slabs = undrawn(above), undrawn(slabs)
    if not slabs:
        return None
    rows = above + slabs
    gutters, crossing = column_gutters(rows, width)
    if len(rows) > ALIGNED_ROWS and _header_hides(rows, len(gutters), width):
        # A first line that crosses gutters all the rows under it share, off their middles, is no
        # row: a title over the table ("Table: 5   Public Health Outlay …   (Rs. in 000)").
        # Headings centred over groups of the columns (over the body's columns, under a header's lines that
        # cross them too) or each over its own are a header's row; headings over most columns, or over every cell
        # the row under them fills ("June" over "30,2025", "Q2'25 vs. Q2'24" over none), are the first line of that
        # row when it stands closer under them than over the row after it.
        return _hidden(above, slabs, rows, width)
    if not gutters:
        return None
    # The rows at the top that cross a gutter and leave the first column (the labels) empty are a
    # header stacked over the header row; a row lower down that crosses one holds a spanning cell.
    cut = 0
    while (
        cut < min(HEADER_ROWS, len(rows) - ALIGNED_ROWS + 1)
        and cut in crossing
        and all(item["x1"] > gutters[0][0] + 0.5 for item in rows[cut])
    ):
        cut += 1
    extents = _extents([row for index, row in enumerate(rows[cut:], cut) if index not in crossing], gutters)
    lines = [(index, line) for index, row in enumerate(rows[cut:], cut) for line in item_lines(row)]
    if len(lines) < ALIGNED_ROWS - bool(cut):
        return None
    cells, apart = stacked_lines(
        [
            _spread(line, extents, gutters, width)
            if index in crossing or _parted(line, gutters, width) or UNITS.fullmatch(phrase_text(line))
            else [phrase_text(cell) for cell in in_columns(line, gutters)]
            for index, line in lines
        ],
        [line for _, line in lines],
    )
    # A line above that neither spans columns nor fills two ("Invoice 1042" over the amounts; but one column's
    # heading wrapped under a line with a heading in that column: "Cost on U.S." / "operators") is no header, nor is
    # one centred over the whole table, its first column too ("DAILY MEAN VALUES"; a heading over the columns of
    # figures is centred over them alone): it and the lines above it are read before the table.
    runs = [phrases(sorted(slab, key=lambda item: item["x0"]), width) for slab in above]
    body = sum(slabs, [])
    middle = (min(item["x0"] for item in body) + max(item["x1"] for item in body)) / 2
    stray = [
        index
        for index, found in enumerate(runs)
        if len(found) < 2
        and (
            len(columns := spanned(found[0], extents, gutters)) < 2
            and not (index and any(spanned(phrase, extents, gutters) == columns for phrase in runs[index - 1]))
            or abs((found[0][0]["x0"] + found[0][-1]["x1"]) / 2 - middle) <= width
        )
    ]
    if stray:
        table = unruled_table(above[stray[-1] + 1 :], slabs, width)
        return table and (sum(above[: stray[-1] + 1], []) + table[0], table[1])
    before: list[Item] = []
    stacked: list[list[str]] = [[] for _ in cells[0]]  # each column's own headings, top to bottom
    spanning: list[tuple[list[tuple[int, ...]], list[str]]] = []  # rows of headings over columns, and their spans
    # A line of headings over groups of columns standing a row's gap over the next line (as far as the header
    # stands over the table's first line) keeps its headings over one column ("Change" beside "Three Months Ended")
    head_lines = item_lines(sum(rows[:cut], []))
    under = [_gap(line, below) for line, below in zip(head_lines, head_lines[1:] + item_lines(rows[cut])[:1])]
    units: list[str] = []  # a note of the figures' units under the headings, the header's last line: a row of its own
    ahead = True
    for line, gap in zip(head_lines, under):
        row, spans, own = [""] * len(stacked), list[tuple[int, ...]](), list[tuple[int, str]]()
        found = phrases(line, width)
        if line is head_lines[-1] and any(stacked) and len(found) == 1 and UNITS.fullmatch(phrase_text(found[0])):
            units = row
            units[spanned(found[0], extents, gutters)[0]] = phrase_text(found[0])
            continue
        groups = grouped(found, extents, gutters, width) if len(found) > 1 else None
        for index, phrase in enumerate(found):
            columns = groups[index] if groups else spanned(phrase, extents, gutters, heading=len(found) > 1)
            text = phrase_text(phrase)
            if len(columns) == len(stacked):
                before += phrase
            elif len(columns) == 1:
                own.append((columns[0], text))
            else:
                row[columns[0]], spans = text, [*spans, tuple(columns)]
        for column, text in own:
            if spans and gap >= STACKED * under[-1]:
                row[column] = text
            else:
                stacked[column].append(text)
                ahead = ahead and not spanning  # headings stacked over the headings over columns ("As of" / "June 30")
        if spans and spanning and spanning[-1][0] == spans:  # a heading set on two lines is one heading
            spanning[-1] = (spans, [f"{old} {new}".strip() for old, new in zip(spanning[-1][1], row)])
        elif spans:
            spanning.append((spans, row))
    # The rows of headings over columns, and those stacked each over its own column when a row of figures, a line
    # spanning the columns or a note of the figures' units follows ("(in thousands)"), are set apart: the lines
    # under them may be a header's wrapped lines. In the order the cells are read (from the right in Arabic): the
    # first column is the labels'.
    head_rows = [row for _, row in spanning]
    if any(stacked) and (
        any(map(FIGURE.fullmatch, cells[0]))
        and not dates_ended([(parts or [""])[-1] for parts in stacked], cells[0])
        or cut in crossing
        and not cells[0][0]
        or cells[0][0].endswith(":")
        or any(map(UNITS.fullmatch, cells[0]))
        or units
    ):
        alone = [[" ".join(parts) for parts in stacked]]
        head_rows = (alone + head_rows if ahead else head_rows + alone) + [units][: bool(units)]
    else:
        cells[0] = [" ".join(parts + [cell] if cell else parts) for parts, cell in zip(stacked, cells[0])]
    if head_rows and len(cells) > 1 and dates_ended(head_rows[-1], cells[0]):  # "March" over "29,2025": one heading
        head_rows[-1] = [f"{old}\n{new}".strip() for old, new in zip(head_rows[-1], cells[0])]
        cells, apart = cells[1:], apart[1:]
    ordered = in_reading_order(head_rows + cells)
    cells = halves_joined(ordered[: len(head_rows)] + wrapped_lines(*header_wrapped(ordered[len(head_rows) :], apart)))
    held = {id(item) for item in before}
    left = unplaced([item for row in rows for item in row if id(item) not in held], cells)
    return before + left, headed_figures(cells)
