"""Tables without rules found on a page by their alignment, before the page is laid out.

``readers.pdf.layout`` reads a page in bands of lines that share an empty strip; a table whose rows
stand far apart, or that sits between paragraphs sharing only a margin with it, never forms a band
of its own there, and its rows were read as lines of text ("Austria 86.2 13.8 0 3,375"). So the
tables are looked for first, as tabula's and Nurminen's stream methods do, and each one found is
handed to the layout as a block that stands where it is on the page, as a ruled table is:

1. Each line is cut into phrases at gaps of a gutter's width or more; a line of two phrases or more
   may be a table's row, read from the right in a right-to-left script (but a caption, "Table 5: …",
   and a line whose phrases are set in sizes ``ROW_SIZES`` apart: blocks side by side, ``_sizes_apart``).
2. A table is a run of such lines, each within ``ROW_REACH`` line heights of the one above (and,
   once the run has its spacing, within ``ROW_SPACING`` times its usual gap or a line height, or
   ``GROUP_LINES`` blank lines more where the next line keeps every column: rows set in groups of
   five), that keep at least one empty strip in common with text on both sides (the region's
   gutters). A line of one phrase, one whose words cross the gutters, or one of few phrases under
   some columns only (``WRAPPED_SHARE``), may stand among them (a cell's text wrapped onto a second
   line, a section's name, a cell that spans columns) when the
   rows go on after it, ``LONE_LINES`` in a row at most, and any number of lines within the labels'
   column set on the last row's label (a label wrapped over lines, a section's name). A caption ends
   the run: it heads the next table. A header's lines, closer than the rows stand, go on over a first
   row of figures a line or two under them, whose gutters are the run's from there (the header's headings
   span them). A line with a label and the cell beside it is a row whose last cells are empty: the run keeps
   its gutters past them. What the
   page draws with characters, a leader's dots and a rule typed as hyphens (``readers.pdf.unruled.drawn``),
   parts no columns and ends no table: it is the table's own rules. A table has ``ALIGNED_ROWS`` rows at
   least, or two when they are a header over one row of figures, in ``PAIR_COLUMNS`` columns or more
   (``_pair``).
   A table ruled only across (``readers.pdf.framed``: a rule over its header, one under it and one
   under its last row) runs from its header rule, or the first run of rows inside it, to its last row,
   and every line over its header rule is its header.
3. Up to ``HEADER_ROWS`` short lines just above it may be its header stacked over rows (and a line of
   more headings than the first row has cells, each cell under one, however long: ``_under_headings``; or
   one heading over the columns past the labels', however long: ``_over_columns``); the rows
   and those lines go to ``readers.pdf.unruled.unruled_table``, which finds the columns, the header
   and the spanning cells, and gives back what is no header (a title) to be read as text.
4. What reads as text set in columns is no table: a run whose columns are all prose, or one with a
   column of long lines of prose (``PROSE_CHARS`` characters on average, ``TEXT_COLUMN`` times that
   for one column beside others not of figures), stays with the page's text, unless its rows are shaded in turn
   after short labels (a zebra's column of sentences); so does a table of
   contents (every line ending in a page number, most after a leader): ``readers.pdf.textruns``. A line of one
   phrase among the rows across one of their gutters at most (a section's name) parts none. A word no cell holds is read
   beside the table, and the table is said to be so (``readers.pdf.unsure``).
5. A drawing that is no chart but a table's rules and shading (a shaded header and total drawn as
   rectangles) is read as the table its words make (``drawn_table``, called by the layout).
"""

from __future__ import annotations

import re
from statistics import median

from ..markup.tables import markdown_table, table_rows
from .boxes import box_of, centre_in
from .framed import Frame, framed_lines
from .records import Boxed, Item
from .strips import common, gaps, overlapping, phrases, two_sided
from .textruns import is_contents, is_text
from .unruled import GUTTER_EMS, HEADER_ROWS, column_gutters, drawn, item_lines, line_chars, undrawn, unruled_table
from .unsure import of_figures
from .words import in_reading_order, phrase_text, right_to_left
from .wraps import ALIGNED_ROWS, DIGIT, PROSE_CHARS, STACKED

CAPTION = re.compile(r"(table|figure|fig\.|chart|exhibit)\s*[:.]?\s*[A-Z]{0,3}\d", re.I)  # "Table: 5", "Table SA3."
ROW_REACH = 2.5  # line heights between two rows of a table at most: statistics tables space theirs widely
ROW_SPACING = 2.0  # times the rows' usual spacing: a wider gap ends the table (a form's lines under it)
LONE_LINES = 2  # lines of one phrase in a row inside a table: wrapped cells, a section's name
# Gutters a run keeps at least for lines under one cell each to be that cell's, not gaps, when the next
# row keeps those either side of them: fewer is a form's two columns (a label's lines beside a block of fields).
WRAPPED_STRIPS = 2
GROUP_LINES = 2  # blank lines between groups of a table's rows at most, when the next group keeps every column
DRAWN_FILLED = 0.75  # of such a table's cells holding text: a diagram's boxes in a grid leave more empty
# Of a run's gutters, a line with this many times fewer phrases at most, keeping only some of them, is a
# wrapped cell's line under a few columns (a ten-column table's "Saharan Africa"), no row: it narrows no gutter.
WRAPPED_SHARE = 2
ROW_SIZES = 1.5  # times the smallest phrase's type size: a line of a larger one beside it is two blocks, no row
LABEL_EDGE = 1.0  # points: a line starting this far left of the last row's label at most is set on it or in from it
SECTION_LINES = 2  # a section's label and its part's alone over a table's first row at most
PAIR_COLUMNS = 4  # columns a table of two rows has at least: a header over one row of figures


def _under_headings(row: list[Item], line: list[Item], width: float) -> bool:
    """Each phrase of ``row`` stands under a phrase of ``line``: a header of more headings than the row has
    cells, each over its column, however long (an exhibit list's "Form", "Exhibit" and "Filing Date/Period End
    Date" over no cells)."""
    heads = phrases(line, width)
    return all(any(overlapping(phrase, head) for head in heads) for phrase in phrases(row, width))


def _over_columns(rows: list[list[Item]], line: list[Item], width: float) -> bool:
    """``line`` is one heading over the columns of ``rows`` past their first (the labels'), however long
    ("Incorporated by Reference" over Form, Exhibit and Filing Date): no paragraph's line, which starts over the
    labels."""
    labels = phrases(rows[0], width)[0]
    return (
        len(phrases(line, width)) == 1
        and labels[-1]["x1"] < line[0]["x0"]
        and line[-1]["x1"] <= max(item["x1"] for row in rows for item in row) + width
    )


def _in_columns(rows: list[list[Item]], line: list[Item], width: float) -> bool:
    """``line`` is a row of headings, two or more and no figures, each over columns of ``rows`` between two of their
    gutters, however long ("Accrued expenses and other liabilities" over its column of figures)."""
    heads = phrases(line, width)
    strips = column_gutters(rows, width)[0]
    return (
        1 < len(heads) <= len(strips)
        and not of_figures(phrase_text(head) for head in heads)
        and not any(head[0]["x0"] < start and end < head[-1]["x1"] for head in heads for start, end in strips)
    )


def _meet(run: tuple[int, ...], other: tuple[int, ...]) -> bool:
    """Two runs of lines (first, …, last) share a line."""
    return run[0] <= other[-1] and other[0] <= run[-1]


def _gutters(line: list[Item], left: float, right: float, width: float) -> list[tuple[float, float]]:
    """The empty strips between a line's phrases."""
    return [gap for gap in gaps(line, left, right, width) if two_sided(line, gap)]


def _under_one(line: list[Item], above: list[Item], width: float) -> bool:
    """The line stands under one phrase of the line above, and no other: a cell's next line, when the line
    above is a row (its cells may be as long as its columns are wide) or both are short of prose."""
    left, right = line[0]["x0"], line[-1]["x1"]
    found = phrases(above, width)
    over = [phrase for phrase in found if left < phrase[-1]["x1"] and phrase[0]["x0"] < right]
    return len(over) == 1 and (len(found) > 1 or max(line_chars(over[0]), line_chars(line)) < PROSE_CHARS)


def _across(line: list[Item], strips: list[tuple[float, float]]) -> bool:
    """The line runs across one of ``strips`` (a run's gutters), from before it to after it."""
    return any(line[0]["x0"] < strip[0] and strip[1] < line[-1]["x1"] for strip in strips)


def _keeps(shared: list[tuple[float, float]], strip: tuple[float, float]) -> bool:
    """One of the ``shared`` gutters is (part of) ``strip``."""
    return any(min(end, strip[1]) > max(start, strip[0]) for start, end in shared)


def _kept(
    held: list[list[Item]], row: list[Item], strips: list[tuple[float, float]], shared: list[tuple[float, float]]
) -> bool:
    """The next ``row`` keeps the run's gutters either side of the lines ``held`` under one cell (``shared``
    with the run's ``strips``; or it ends before the one after them: a row of few cells), so they are that
    cell's lines, in a run of ``WRAPPED_STRIPS`` gutters at least."""
    left, right = min(line[0]["x0"] for line in held), max(line[-1]["x1"] for line in held)
    before = [strip for strip in strips if strip[1] <= left + 0.5]
    sides = before[-1:] + [strip for strip in strips if strip[0] >= right - 0.5][:1]
    return len(strips) >= WRAPPED_STRIPS and all(_keeps(shared, strip) or row[-1]["x1"] <= strip[1] for strip in sides)


def _sizes_apart(line: list[Item], width: float) -> bool:
    """The line's phrases are set in sizes ``ROW_SIZES`` apart: blocks side by side (a journal's box beside
    its authors' names), no table's row."""
    sizes = [
        median(item.get("size", item["bottom"] - item["top"]) for item in phrase) for phrase in phrases(line, width)
    ]
    return max(sizes) > ROW_SIZES * min(sizes)


def _sections(lines: list[list[Item]], first: int, last: int, floor: int, width: float) -> int:
    """The first line of a table whose rows run from ``first`` to ``last``: the labels of a section alone over
    them are its first rows ("Numerator:" under the header's dates; "Cash flow hedges:" over "Foreign exchange
    contracts"), lines of one phrase set at the labels' left edge, ``SECTION_LINES`` at most, after ``floor``,
    the topmost ending in a colon, or the first line of such a label wrapped (the next starting in lower case or
    with a digit)."""
    labels = min(row[0]["x0"] for row in lines[first : last + 1])
    found = first
    for line in range(first - 1, max(floor, first - SECTION_LINES) - 1, -1):
        if len(phrases(lines[line], width)) > 1 or abs(lines[line][0]["x0"] - labels) > 1:
            break
        # (or the first line of the label found, wrapped: "December 29, 2024 to February" / "1, 2025:")
        starts = phrase_text(lines[found])[:1]
        wrapped = found == line + 1 < first and (starts.islower() or starts.isdigit())
        found = line if phrase_text(lines[line]).endswith(":") or wrapped else found
    return found


def _pair(lines: list[list[Item]], strips: list[tuple[float, float]], width: float) -> bool:
    """Two lines are a table of a header over one row: both cut at the same gutters into ``PAIR_COLUMNS``
    phrases or more, or the row's two or more each starting where the header's first do (``LABEL_EDGE``; its last
    cells empty: "SNB22-3  293-375" under "-  Brinell HB  Rockwell C …"), each short of prose, most of the row's
    holding a figure ("C  Si  Mn …" over "0.39 - 0.46 0.2 - 0.35 …"): a steel's composition, a key figure's years."""
    head, row = (phrases(line, width) for line in lines)
    starts = all(abs(phrase[0]["x0"] - under[0]["x0"]) <= LABEL_EDGE for phrase, under in zip(row, head))
    return (
        (len(head) == len(row) == len(strips) + 1 or 1 < len(row) < len(head) and starts)
        and len(head) >= PAIR_COLUMNS
        and all(line_chars(phrase) < PROSE_CHARS for phrase in head + row)
        and 2 * sum(bool(DIGIT.search(phrase_text(phrase))) for phrase in row) > len(row)
    )


def _runs(lines: list[list[Item]], over: list[float], width: float) -> list[tuple[int, int]]:
    """The runs of lines (first, last index) that may be a table's rows; ``over`` is the gap over each line."""
    left, right = min(line[0]["x0"] for line in lines), max(line[-1]["x1"] for line in lines)
    height = median(item["bottom"] - item["top"] for line in lines for item in line)
    captions = [bool(CAPTION.match(phrase_text(line))) for line in lines]
    parts = [phrases(line, width) for line in lines]
    splits = [
        0 if caption or _sizes_apart(line, width) else len(found)
        for caption, line, found in zip(captions, lines, parts)
    ]
    figures = [of_figures(map(phrase_text, found)) for found in parts]
    runs: list[tuple[int, int]] = []
    start = 0
    while start < len(lines):
        strips = _gutters(lines[start], left, right, width) if splits[start] > 1 else []
        if not strips:  # no strip parts the line's phrases where they overlap (a word run on under the next)
            start += 1
            continue
        last, rows, lone, wrapping = start, 1, 0, True
        held: list[list[Item]] = []  # lines under one cell since the last row
        tallest = LONE_LINES  # the most lines between two rows: a cell wrapped over them
        spacing: list[float] = []
        for index in range(start + 1, len(lines)):
            gap = over[index]
            reach = ROW_REACH * height if len(spacing) < 2 else max(height, ROW_SPACING * median(spacing))
            shared = common(strips, _gutters(lines[index], left, right, width), width) if splits[index] > 1 else []
            if captions[index]:  # a caption ("Table 5. …") heads the next table: it ends this one
                break
            # a section's label set on the labels' edge after a blank line or two, its rows after it
            section = (
                rows >= ALIGNED_ROWS
                and gap <= reach + GROUP_LINES * height
                and splits[index] < 2
                and lines[index][-1]["x1"] <= strips[0][0] + 0.5
                and abs(lines[index][0]["x0"] - min(line[0]["x0"] for line in lines[start : last + 1])) <= LABEL_EDGE
            )
            if (
                gap > reach
                and not section
                and not (
                    # rows set in groups (five to a group in a statistics table) go on after a blank line or two
                    rows >= ALIGNED_ROWS
                    and gap <= reach + GROUP_LINES * height
                    and len(shared) == len(strips)
                    # and a header's lines, closer than rows stand, over a first row of figures a line height or two on
                    or gap <= ROW_REACH * height
                    and len(shared) > 1
                    and not any(figures[start:index])
                    and figures[index]
                )
            ):
                break
            # the gap between groups is no row spacing, and the rows over it may be a header's lines
            if gap > reach and not section:
                strips, last, rows, lone, tallest = shared, index, rows + 1, 0, max(tallest, index - last - 1)
                held, wrapping, spacing = [], True, []
                continue
            # A lone line, one across the gutters (a cell that spans columns), or one of a few phrases that
            # would keep few of the run's gutters (a wrapped cell's second line, under some columns only).
            # (but one with a label and the cell beside it is a row whose last cells are empty)
            labelled = bool(shared) and lines[index][0]["x1"] <= strips[0][0] + 0.5 and _keeps(shared, strips[0])
            if not shared or (
                len(shared) < len(strips) and WRAPPED_SHARE * splits[index] <= len(strips) and not labelled
            ):
                # A cell wrapped over lines, at the lines' own pitch, is no gap: a line of some columns, or
                # one under one phrase of a row or of such a line (not under a lone line: a paragraph's, unless
                # both stand between the run's gutters: a long cell's lines in its column), when the next row
                # keeps the gutters either side of them.
                under = (
                    gap <= height
                    and not shared
                    and wrapping
                    and (
                        _under_one(lines[index], lines[index - 1], width)
                        or bool(held)
                        and len(strips) >= WRAPPED_STRIPS
                        and not any(_across(line, strips) for line in (lines[index], held[-1]))
                    )
                )
                # A line within the labels' column, set on or in from the last row's label (a label wrapped over
                # lines, a section's name), is the table's.
                label = (
                    gap <= height
                    and lines[index][-1]["x1"] <= strips[0][0] + 0.5
                    and lines[last][0]["x1"] <= strips[0][0] + 0.5
                    and lines[index][0]["x0"] >= lines[last][0]["x0"] - LABEL_EDGE
                )
                lone += not (gap <= height and shared or under or label)
                held, wrapping = held + [lines[index]] * under, under
                if lone > LONE_LINES:
                    break
                continue
            if held and not _kept(held, lines[index], strips, shared) and lone + len(held) > LONE_LINES:
                break
            # between rows (a wrapped cell's lines stand closer, and so do a header's, over no figures yet)
            spacing += [gap] if any(figures[start : index + 1]) else []
            if figures[index] and not any(figures[start:index]):  # a header's headings span the columns under them
                shared = _gutters(lines[index], left, right, width)
            # a label and the cell beside it, the row's last cells empty, keep the run's gutters past its end ("4.1**
            # Description of …")
            if splits[index] == 2 and len(shared) == 1 and lines[index][0]["x0"] < strips[0][0]:
                end = lines[index][-1]["x1"]
                shared += [strip for strip in strips if strip[0] >= end and not _keeps(shared, strip)]
            strips, last, rows, lone, tallest = shared, index, rows + 1, 0, max(tallest, index - last - 1)
            held, wrapping = [], True
        # The last row's cells may wrap onto lines of their own under it, right of the first gutter or from the
        # labels' edge at a wrapped cell's pitch ("Total" / "Revenues") (each gap between them holding the run's
        # gutters), or under the first column's labels, indented (a hanging
        # indent: "MDS installation, INOP" / "marker removal.") or, short of prose and a gutter short of any row's
        # second cell, closer under it than its rows usually stand ("All U.S." / "territory"); as many lines as
        # the most between two rows, or more inside one column right of the first (a long description's).
        labels, ended = min(line[0]["x0"] for line in lines[start : last + 1]), last
        second = min(found[1][0]["x0"] for line in lines[start : last + 1] if len(found := phrases(line, width)) > 1)
        wordy = line_chars(phrases(lines[last], width)[0]) >= PROSE_CHARS  # a long label: its lines are its own
        while last + 1 < len(lines) and not captions[last + 1]:
            line, gap = lines[last + 1], over[last + 1]
            inside = line[0]["x0"] >= strips[0][1] - 0.5 and not _across(line, strips)  # one column's, past the first
            tight = gap < STACKED * median(spacing or [height])
            if (
                gap > height
                or last - ended >= tallest
                and not inside
                and not (wordy and tight and line[-1]["x1"] <= strips[0][0] + 0.5)
                or not (
                    (
                        line[0]["x0"] >= strips[0][1] - 0.5
                        or splits[last + 1] > 1
                        and line[0]["x0"] <= labels + LABEL_EDGE
                    )
                    and (
                        splits[last + 1] < 2
                        or len(common(strips, _gutters(line, left, right, width), width)) >= splits[last + 1] - 1
                        and gap < STACKED * median(spacing or [height])  # at a wrapped cell's pitch, closer than rows
                    )
                    or splits[last + 1] < 2
                    and line[-1]["x1"] <= strips[0][0] + 0.5
                    and (
                        labels + 1 < line[0]["x0"]
                        or tight
                        and line[-1]["x1"] + width <= second
                        and (wordy or line_chars(line) < PROSE_CHARS)
                    )
                )
            ):
                break
            last += 1
        if last == start and start + 1 < len(lines) and over[start + 1] <= ROW_REACH * height:
            last += _pair(lines[start : start + 2], strips, width)  # a header over a row of its first cells
        if rows >= ALIGNED_ROWS or last == start + 1 and _pair(lines[start : last + 1], strips, width):
            runs.append((start, last))
        start = last + 1
    return runs


def _striped(
    runs: list[tuple[int, int]], lines: list[list[Item]], captions: list[bool], zebras: list[tuple]
) -> list[tuple[int, int]]:
    """Each run with the lines after it that stand inside the zebra stripes' box its last line stands in (the
    table's last rows, a section's label alone: "LIABILITIES AND SHAREHOLDERS' EQUITY:" over the page's foot),
    up to the next run or a caption."""

    grown = []
    for (first, last), after in zip(runs, [*(run[0] for run in runs[1:]), len(lines)]):
        box = next((box for box in zebras if _inside(lines[last], box)), None)
        while box and last + 1 < after and not captions[last + 1] and _inside(lines[last + 1], box):
            last += 1
        grown.append((first, last))
    return grown


def _inside(line: list[Item], box: tuple) -> bool:
    middle = (line[0]["top"] + line[0]["bottom"]) / 2
    return box[1] < middle < box[3] and box[0] - 1 <= line[0]["x0"] and line[-1]["x1"] <= box[2] + 1


def aligned_tables(
    items: list[Item], width: float, frames: list[Frame], zebras: list[tuple]
) -> tuple[list[Item], list[Item], list[str], list[str]]:
    """The page's ``items`` with each table found by alignment or framed by its rules (``frames``,
    ``readers.pdf.framed``), grown to the end of its zebra stripes (``zebras``, their boxes), taken out; one
    block item for each table, where it stands; each table's Markdown; and the Markdown of those beside which
    words no cell could hold stay in the page's text (``readers.pdf.unsure.unplaced``). ``width`` is the
    narrowest gutter."""
    words = [item for item in items if item.get("block") is None]
    lines = undrawn(item_lines(words))  # a leader's dots and a typed rule part no columns and end no table
    if not lines:
        return items, [], [], []
    # A rule typed between two lines stands for no gap: the gap over a line is from the rule's foot if one is over it
    rules = [max(item["bottom"] for item in line) for line in item_lines(words) if drawn(line) == line]
    over = [0.0] + [
        line[0]["top"] - max([*(item["bottom"] for item in above), *(foot for foot in rules if foot < line[0]["top"])])
        for above, line in zip(lines, lines[1:])
    ]
    read = {id(item) for line in lines for item in line}
    drawing = [item for item in words if id(item) not in read]
    taken: set[int] = set()
    blocks: list[Item] = []
    tables: list[str] = []
    beside: list[str] = []
    end = 0  # the line after the last table
    captions = [bool(CAPTION.match(phrase_text(line))) for line in lines]
    runs = _striped(_runs(lines, over, width), lines, captions, zebras)
    framed = [found for frame in frames if (found := framed_lines(lines, captions, frame))]
    framed = [found for n, found in enumerate(framed) if not any(_meet(found, other) for other in framed[:n])]
    # a framed table's rows run from the first line a run of its rows starts on (or its header rule) to its foot
    starts: list[tuple[int | None, int, int]] = [
        (floor, max(floor, min([body, *(run[0] for run in runs if _meet(run, (floor, last)))])), last)
        for floor, body, last in framed
    ]
    starts += [(None, *run) for run in runs if not any(_meet(run, (floor, last)) for floor, _, last in framed)]
    for floor, start, last in sorted(starts, key=lambda run: run[1]):
        first = _sections(lines, start, last, end if floor is None else floor, width)  # from the sections' labels
        top = first if floor is None else floor  # a framed table's header is all its lines over its rows
        pair = last == start + 1
        height = median(item["bottom"] - item["top"] for item in lines[start])
        while (
            not pair
            and top > max(end, first - HEADER_ROWS)
            and (
                len(phrases(lines[top - 1], width)) < 2 + len(phrases(lines[start], width))
                and all(line_chars(phrase) < PROSE_CHARS for phrase in phrases(lines[top - 1], width))
                or _under_headings(lines[start], lines[top - 1], width)
                or _over_columns(lines[start : last + 1], lines[top - 1], width)
                or _in_columns(lines[start : last + 1], lines[top - 1], width)
            )
            and not CAPTION.match(phrase_text(lines[top - 1]))
            and lines[top][0]["top"] - max(item["bottom"] for item in lines[top - 1]) <= ROW_REACH * height
        ):
            top -= 1
        rows = lines[first : last + 1]
        region = sum(rows, [])
        left, right = min(item["x0"] for item in region), max(item["x1"] for item in region)
        # the columns are the body's: a header's lines over figures (``HEADER_ROWS`` at most) span them
        lead = next(
            (n for n, row in enumerate(rows) if of_figures(phrase_text(found) for found in phrases(row, width))), 0
        )
        under = rows[lead if lead <= HEADER_ROWS else 0 :]
        # a line of one phrase across one gutter at most of those the others leave (a section's name) parts none
        lone = [len(phrases(row, width)) == 1 for row in under]
        cells = [row for row, one in zip(under, lone) if not one]
        strips = _gutters(sum(cells, []), left, right, width)
        crossed = [sum(row[0]["x0"] < b and a < row[-1]["x1"] for a, b in strips) for row in under]
        wide = [row for row, one, count in zip(under, lone, crossed) if one and count > 1]
        strips = _gutters(sum(cells + wide, []), left, right, width)
        # rows shaded in turn are a table's, a column of sentences after their labels too (long labels shaded in
        # turn are left to the shaded header's grid, ``readers.pdf.headed``)
        striped = 2 * sum(any(_inside(row, box) for box in zebras) for row in rows) > len(rows) and (
            median(line_chars(phrases(row, width)[0]) for row in rows) < PROSE_CHARS
        )
        if (is_text(rows, strips) and not striped) or is_contents(rows, drawing, width):
            continue
        # a framed pair of lines is one row under the frame's header when they read so (a row wrapped: "CFA Franc" /
        # "BCEAO"), else a header and its row, the lines over the header rule read before them
        table = unruled_table(lines[top:first], rows, width) if not pair or floor is not None else None
        if table is None and pair:
            table = (
                sum(lines[top:first], []),
                in_reading_order([[phrase_text(phrase) for phrase in phrases(line, width)] for line in rows]),
            )
        if table is None:
            continue
        before = {id(item) for item in table[0]}
        members = [item for line in lines[top : last + 1] for item in line if id(item) not in before]
        markdown = markdown_table(table[1])
        if not members or not markdown:
            continue
        box: Boxed = {
            "x0": min(item["x0"] for item in members),
            "x1": max(item["x1"] for item in members),
            "top": min(item["top"] for item in members),
            "bottom": max(item["bottom"] for item in members),
        }
        inside = [item for item in drawing if centre_in(box_of(item), [box_of(box)])]  # the table's own rules
        taken |= {id(item) for item in members + inside}
        end = last + 1
        tables.append(markdown)
        if any(item["top"] >= lines[first][0]["top"] for item in table[0]):  # among its rows, not a title over it
            beside.append(markdown)
        blocks.append({**box, "text": "", "block": markdown, "rows": table[1]})
        strips = column_gutters(rows, width)[0]
        if len(strips) + 1 == len(table[1][0]) and not right_to_left(table[1]):  # its columns where they stand
            ends = [left, *(edge for strip in strips for edge in strip), right]
            blocks[-1]["spans"] = list(zip(ends[::2], ends[1::2]))
    return [item for item in items if id(item) not in taken], blocks, tables, beside


def drawn_table(labels: list[Item]) -> str | None:
    """The Markdown of a drawing that holds a table, not a chart: its rows' rules, a shaded header
    and total drawn as rectangles and lines, or a panel's box round a table with its title and notes;
    the table found by alignment fills most of its cells (``DRAWN_FILLED``), and the drawing's other
    lines stand before or after it. None for any other drawing (a diagram's boxes set in a grid)."""
    width = GUTTER_EMS * median(item.get("size", item["bottom"] - item["top"]) for item in labels)
    rest, blocks, tables, _ = aligned_tables(labels, width, [], [])
    cells = [cell for table in tables for row in table_rows(table) for cell in row]
    if not cells or sum(map(bool, cells)) < DRAWN_FILLED * len(cells):
        return None
    parts: list[str] = []
    for line in item_lines(rest + blocks):
        block = line[0].get("block")
        if block or not parts or parts[-1].startswith("|"):
            parts.append(block or phrase_text(line))
        else:  # the drawing's lines of text between its tables go together
            parts[-1] += f"\n{phrase_text(line)}"
    return "\n\n".join(parts)
