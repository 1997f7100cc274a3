"""A PDF page's text as Markdown, in the order a person reads it.

pdfplumber gives each word with its box, font and size; this module decides the reading order and
the structure, from geometry alone (``python -m bench readers`` measures its cost):

1. **Bands** (``readers.pdf.bands``). The page's words and tables are cut into slabs (runs that overlap vertically).
   Slabs that follow each other and leave the same vertical strip empty (a gutter at least ``GUTTER_EMS`` wide;
   figures printed edge to edge with the next column are first moved a gutter apart, ``readers.pdf.seams``) form a
   band; a line that crosses the gutter — a title, a full-width figure caption, a footer — ends it, and so does a gap
   of ``BAND_BREAK`` lines unless the rows under it keep the band's gutters (a sheet's tall rows). So a title, two
   columns under it and a footer are three bands, read top to bottom.
2. **Columns or rows.** A band with gutters is either text in columns (each column holds prose: its lines average
   ``PROSE_CHARS`` characters or more; a prose column beside a narrow sidebar counts too) and is read column after
   column, each column read the same way in turn; or it is a table without rules (short cells whose rows line up
   across the gutters) and becomes a Markdown table, each cell keeping its own words, under its header (the short
   lines just above it may be a header stacked over rows: ``readers.pdf.unruled``); else it is read line by line.
3. **Lines and paragraphs.** Words on a line are joined in order; a gap between lines wider than the page's own gap
   between a paragraph's lines starts a paragraph (``readers.pdf.paragraphs``: single, 1.5 and double spacing alike).
   Headings are lines set larger than the page's body text or a short bold line standing alone (``###``); bulleted
   lines become ``-`` items; words under a link annotation become ``[text](url)``; tables stand in their place.

Words come from ``readers.pdf.words`` (word spaces against each line's letter spacing). Page
furniture (``readers.pdf.furniture``) is kept out of the flow: line numbers in the margins and the
page numbers, stamps and codes of the top and bottom bands are taken out first and stand marked at
the text's start and end; the other lines at the page's edges are marked, and the running headers
and footers among them are left out once the pages read are compared.

Text turned on its side is read once, after the page's text: a line or two (an arXiv sidebar)
each run in its own direction; more (a table or a page set in landscape) upright, with the same
layout as the page. A glyph pdfminer cannot map (``(cid:N)``) is asked of pdfium, which reads more
fonts; one that neither can map is left out and counted.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from statistics import median

from ..markup.tables import markdown_table
from .aligned import aligned_tables, drawn_table
from .asides import asides, drawn_boxes
from .bands import bands_of
from .boxes import area, box_of, centre_in, near, ruled, union
from .charts.reading import grouped_labels, read_chart
from .figures import LABEL_GAP
from .framed import page_frames
from .furniture import RUNNING_WORDS, band_furniture, edge_line, edge_words, furniture_line, margin_numbers
from .headed import Ruled, headed, record
from .headings import HEADING_RATIO, SCAN_HEADING_RATIO, as_body, heading_mark
from .items import line_markdown, page_links, word_items
from .paragraphs import paragraph_gaps, paragraph_groups
from .placed import Placed
from .records import Boxed, Char, Item
from .seams import open_seams
from .shades import zebra_boxes
from .strips import two_sided
from .turned import page_box, rotated_lines, turn_of, upright_as_read
from .unruled import GUTTER_EMS, HEADER_ROWS, in_columns, item_lines, line_chars, unruled_table
from .words import DESCENT, page_words, phrase_text, text_lines
from .wraps import ALIGNED_ROWS, LETTER, PROSE_CHARS

CHART_REACH = 3 * LABEL_GAP  # points: how far from a drawing a chart's title and axis titles may stand
SCANNED_AREA = 0.9  # of the page: a picture this large under the text is a scan, the text its OCR layer
HANGING_LINES = 3  # body sizes a word's box may reach below a usual descent before it is cut back to one
BULLET = re.compile(r"^[•◦▪▫‣●○■□►▶–—*·]\s*")
MARKER = re.compile(r"[•◦▪▫‣●○■□►▶–—*·-]|\(?(?:\d{1,3}|[a-zA-Z]|[ivxIVX]{1,4})[.)]")  # a list item's, alone


def _under_last_row(line: list[Item], above: list[Item], row: list[Item], gutters: list[tuple[float, float]]) -> bool:
    """``line`` is the next line of a cell of a table's last ``row`` (whose columns ``gutters`` part): its words
    in one column, past the first (the labels'), where the row, labelled with a word, holds a line of prose, a
    line's height under the line ``above`` at most (a description's lines at the foot of a page, under the last
    row of a table of prose; not a form's footer under a field, nor prose beside a scan's specks)."""
    filled = [index for index, part in enumerate(in_columns(line, gutters)) if part]
    column = filled[0] if len(filled) == 1 else 0
    right = gutters[column][0] if column < len(gutters) else math.inf
    cells = in_columns(row, gutters)
    return (
        column > 0
        and all(item["x1"] <= right + 0.5 for item in line)
        and line_chars(cells[column]) >= PROSE_CHARS
        and bool(LETTER.search(phrase_text(cells[0])))
        and min(item["top"] for item in line) - max(item["bottom"] for item in above)
        <= median(item["bottom"] - item["top"] for item in row)
    )


def _overlap(a: Boxed, b: Boxed) -> bool:
    return a["top"] < b["bottom"] and b["top"] < a["bottom"]


def _is_prose(column: list[Item]) -> bool:
    if any(item.get("block") is not None for item in column):
        return True
    return median(line_chars(line) for line in item_lines(column)) >= PROSE_CHARS


def _aligned_rows(columns: list[list[Item]]) -> int:
    """Rows where two or more columns have a line starting at the same height."""
    starts = Counter(round(line[0]["top"]) for column in columns for line in item_lines(column))
    return sum(1 for count in starts.values() if count >= 2)


def _over_columns(slab: list[Item], left: float) -> bool:
    """A short line of words that all stand right of ``left`` (a table's first column): a heading
    over its columns, maybe."""
    return all(item.get("block") is None and item["x0"] >= left for item in slab) and all(
        line_chars(line) < PROSE_CHARS for line in item_lines(slab)
    )


def _hung_lists(columns: list[list[Item]]) -> list[list[Item]]:
    """``columns`` with each column of list markers alone ("1.", "b)", "•") joined to the column after
    it: the numbers a list hangs from, beside its items, are no column of a table."""
    joined: list[list[Item]] = []
    for column in columns:
        if joined and all(item.get("block") is None and MARKER.fullmatch(item["text"]) for item in joined[-1]):
            joined[-1] = joined[-1] + column
        else:
            joined.append(column)
    return joined


def _order(items: list[Item], width: float) -> list:
    """Blocks in reading order: lists of lines (paragraph material) and ``("table", rows, box)``."""
    blocks: list = []
    flowing = False  # the last block is lines of a band without gutters: the next such band continues it

    def flow(members: list[Item]) -> None:
        nonlocal flowing
        if flowing:
            blocks[-1] = item_lines(sum(blocks[-1], []) + members)
        else:
            blocks.append(item_lines(members))
        flowing = True

    for slabs, gutters in bands_of(items, width):
        members = sum(slabs, [])
        if not gutters or len(item_lines(members)) == 1:  # one line is read across: "2.1.1   Pretraining data"
            flow(members)
            continue
        columns = _hung_lists([column for column in in_columns(members, gutters) if column])
        if len(columns) == 1:  # a list hung from its numbers, alone: read line by line
            flow(members)
            continue
        prose = [_is_prose(column) for column in columns]
        # columns of text: all prose, or two of prose beside a sidebar's short lines (its lines may share their
        # baselines), or one beside short lines that do not line up with it as a table's rows do
        if all(prose) or sum(prose) >= 2 or (any(prose) and _aligned_rows(columns) < ALIGNED_ROWS):
            flowing = False
            for column in columns:
                blocks.extend(_order(column, width))
            continue
        # Not columns of text: a table, from its first row with cells on both sides of a gutter to its
        # last, under the short lines right of its first column that may be its stacked header.
        sided = [i for i, slab in enumerate(slabs) if any(two_sided(slab, gap) for gap in gutters)]
        first, last = sided[0], sided[-1]
        while last + 1 < len(slabs) and _under_last_row(slabs[last + 1], slabs[last], slabs[sided[-1]], gutters):
            last += 1
        top = first
        while top > max(0, first - HEADER_ROWS) and _over_columns(slabs[top - 1], gutters[0][0]):
            top -= 1
        if top:
            flow(sum(slabs[:top], []))
        table = unruled_table(slabs[top:first], slabs[first : last + 1], width)
        if table:
            if table[0]:
                flow(table[0])
            flowing = False
            before = {id(item) for item in table[0]}
            cells = [item for slab in slabs[top : last + 1] for item in slab if id(item) not in before]
            blocks.append(("table", table[1], union([box_of(item) for item in cells])))
        else:
            flow(sum(slabs[top : last + 1], []))
        if last + 1 < len(slabs):
            flow(sum(slabs[last + 1 :], []))
    return blocks


def _render(blocks: list, body: float, tables: list[str], placed: list[Placed], ratio: float = HEADING_RATIO) -> str:
    """The blocks as Markdown; each table without rules is also added to ``tables``, and each line
    (a table, a figure's block: whole) to ``placed`` with its box and whether it is a chart rebuilt;
    a heading is set ``ratio`` times the body text's size."""
    paragraphs: list[str] = []
    gaps = paragraph_gaps(blocks)
    for block in blocks:
        if isinstance(block, tuple):
            paragraphs.append(markdown_table(block[1]))
            tables.append(paragraphs[-1])
            placed.append((paragraphs[-1], block[2], False))
            continue
        groups = paragraph_groups(block, gaps)
        for group in groups:
            plain_after = len(group) > 1 and not all(item.get("bold") for item in group[1])
            marks = as_body(
                group,
                [
                    heading_mark(line, body, len(group) == 1, not index and plain_after, ratio)
                    for index, line in enumerate(group)
                ],
            )
            lines: list[str] = []
            for index, (line, mark) in enumerate(zip(group, marks)):
                text = line_markdown(line)
                placed.append((text, union([box_of(item) for item in line]), any(item.get("chart") for item in line)))
                if mark and index and marks[index - 1] == mark:  # a heading set on two or three lines is one heading
                    paragraphs[-1] += f" {text}"
                elif mark:
                    if lines:
                        paragraphs.append("\n".join(lines))
                        lines = []
                    paragraphs.append(_marked(f"{mark} {text}", line, body))
                else:
                    lines.append(
                        _marked(
                            BULLET.sub("- ", text, count=1) if BULLET.match(text) and len(text) > 2 else text,
                            line,
                            body,
                        )
                    )
            if lines:
                paragraphs.append("\n".join(lines))
    return "\n\n".join(p for p in paragraphs if p.strip())


def _marked(text: str, line: list[Item], body: float) -> str:
    """A line at the page's edge, marked until the pages read are compared (``readers.pdf.furniture``);
    one set larger than the body text is a title, never a running header."""
    edge = all(item.get("edge") for item in line) and max(item["size"] for item in line) < HEADING_RATIO * body
    return edge_line(text) if edge else text


def _figure_items(
    words: list[Item], figures: list[dict], page, turned: list[Char]
) -> tuple[list[Item], list[Item], list[Char]]:
    """The words outside figures, and one item per figure holding the words inside it where the
    figure stands: a drawing rebuilt as a chart is its table (``readers.pdf.charts``; the figure
    dict gets its ``chart`` summary), and the ``turned`` characters beside it are its value axis'
    title; a chart that cannot be rebuilt has its labels grouped (title, ticks per axis, legend,
    labels); other figures' words are read row by row. The turned characters no chart took are
    returned last."""
    left, top, width, height = float(page.bbox[0]), float(page.bbox[1]), float(page.width), float(page.height)
    boxes = [
        (
            (left + x0 * width, top + y0 * height, left + x1 * width, top + y1 * height),
            LABEL_GAP if figure["kind"] == "drawing" else 0.0,
        )
        for figure in figures
        for x0, y0, x1, y1 in [figure["box"]]
    ]
    inside: list[list[Item]] = [[] for _ in boxes]
    outside: list[Item] = []
    for word in words:
        box = box_of(word)
        index = next((i for i, (figure, gap) in enumerate(boxes) if near(box, figure, gap)), None)
        (outside if index is None else inside[index]).append(word)
    grown = True
    while grown:  # a label runs on: the next word on its line belongs to it too ("Small" then "business")
        grown = False
        for word in list(outside):
            owner = next(
                (
                    labels
                    for labels in inside
                    for label in labels
                    if _overlap(word, label)
                    and min(abs(word["x0"] - label["x1"]), abs(label["x0"] - word["x1"])) < label["size"]
                ),
                None,
            )
            if owner is not None:
                owner.append(word)
                outside.remove(word)
                grown = True
    for index, labels in enumerate(
        inside
    ):  # prose over a picture (an OCRed scan, a backdrop) is the page's text, not labels
        if labels and _is_prose(labels):
            outside += labels
            inside[index] = []
    items: list[Item] = []
    for figure, (box, _), labels in zip(figures, boxes, inside):
        if not labels:
            continue
        block = None
        if figure["kind"] == "drawing":
            # An axis title may stand a little farther out than the ticks: the chart may claim it.
            reach = [word for word in outside if near(box_of(word), box, CHART_REACH)]
            chart = read_chart(page, box, labels + reach)
            if (
                chart is not None
            ):  # its data where it stands; words near it that are none of its labels stay in the prose
                title = [char for char in turned if _beside(char, box)]
                turned = [char for char in turned if not _beside(char, box)]
                chart.value_title = " ".join(text for text, _ in rotated_lines(title)) or None
                block, figure["chart"] = chart.markdown(), chart.summary
                candidates = labels + reach
                claimed = {id(candidates[index]) for index in chart.labels_used}
                outside = [word for word in outside if id(word) not in claimed] + [
                    word for word in labels if id(word) not in claimed
                ]
                labels = [word for word in candidates if id(word) in claimed]
                chart.other_labels = _unsaid(labels, block)
                block = chart.markdown()
            else:
                block = drawn_table(labels) or grouped_labels(labels, page, box) or None
        x0, y0, x1, y1 = box  # the item stands where the figure and its labels do, so the page's flow goes round it
        items.append(
            {
                "x0": min(x0, *(w["x0"] for w in labels)),
                "x1": max(x1, *(w["x1"] for w in labels)),
                "top": min(y0, *(w["top"] for w in labels)),
                "bottom": max(y1, *(w["bottom"] for w in labels)),
                "text": "",
                "block": block or "\n".join(line_markdown(line) for line in item_lines(labels)),
                "chart": "chart" in figure,
            }
        )
    return outside, items, turned


def _unsaid(labels: list[Item], block: str) -> list[str]:
    """The chart's labels its Markdown (``block``) does not hold, its axes' ticks mostly, top to
    bottom: a chart rebuilt loses none of the words drawn on it."""
    said = Counter(block.replace("|", " ").split())
    unsaid = []
    for word in sorted(labels, key=lambda word: (word["top"], word["x0"])):
        if said[word["text"]]:
            said[word["text"]] -= 1
        else:
            unsaid.append(word["text"])
    return unsaid


def _beside(char: Char, box) -> bool:
    """A turned character left or right of a chart's drawing, level with it: its value axis' title."""
    level = char["top"] < box[3] and char["bottom"] > box[1]
    return level and (
        box[0] - CHART_REACH <= char["x1"] <= box[0] + 2 or box[2] - 2 <= char["x0"] <= box[2] + CHART_REACH
    )


def _turned_text(chars: list[Char], page, tables: list[str], span: tuple, placed: list[Placed]) -> tuple[list, list]:
    """Text turned on its side: a line or two (an arXiv sidebar) as lines in their own direction;
    more (a table or a page set in landscape), and text turned upside down or mirrored, read upright,
    with the page's own layout, its lines added to ``placed`` where they stand on the page. A line or two in
    the margin beside the page's upright text (``span``, its left and right) is a stamp or a code set
    sideways ("arXiv:2103.15348v2 [cs.CV] 21 Jun 2021"): furniture, the second list."""
    parts: list[str] = []
    furniture: list[str] = []
    width, height = float(page.bbox[2]), float(page.bbox[3])
    for turn in ("up", "down", "over", "mirrored", "flipped"):
        run = [char for char in chars if turn_of(char) == turn]
        turned = [upright_as_read(char, turn, width, height) for char in run]
        if turn in ("up", "down") and len(text_lines(turned)) < ALIGNED_ROWS:
            for text, centre in rotated_lines(run):
                aside = not span[0] <= centre <= span[1] and len(text.split()) <= RUNNING_WORDS
                (furniture if aside else parts).append(text)
            continue
        items = word_items(page_words(turned), [])
        if items:  # its words stand where the page turned would show them: placed back where they are
            body = Counter(round(item["size"], 1) for item in items).most_common(1)[0][0]
            lines: list[Placed] = []
            parts.append(_render(_order(items, GUTTER_EMS * body), body, tables, lines))
            placed += [(line, page_box(box, turn, width, height), chart) for line, box, chart in lines]
    return parts, furniture


def plain_markdown(chars: list[Char]) -> tuple[str, list[str]]:
    """The Markdown of a page known only by its characters (``readers.pdf.pdfium_text``: a page
    pdfminer cannot parse), and the tables without rules found: its upright words in reading order,
    with headings, lists and those tables; no links, figures or furniture."""
    upright = [char for char in chars if char["upright"]]
    sizes = Counter(round(char["size"], 1) for char in upright if char["text"].strip())
    return _markdown(word_items(page_words(upright), []), sizes.most_common(1)[0][0] if sizes else 10.0)


def boxed_markdown(phrases: list[tuple[tuple[float, float, float, float], str]]) -> tuple[str, list[str]]:
    """The Markdown of a page known only as phrases in boxes (left, top, right, bottom), as OCR reads a
    scan (``readers.describe.ocr``), and the tables without rules found: in reading order, columns read
    down, a table where the boxes line up as one, headings half as large again as the body (each
    phrase's size is its box's height)."""
    items: list[Item] = [
        {"x0": x0, "x1": x1, "top": top, "bottom": bottom, "text": text, "size": bottom - top, "bold": False}
        for (x0, top, x1, bottom), text in phrases
        if text.strip()
    ]
    return _markdown(items, median(item["size"] for item in items) if items else 1.0, SCAN_HEADING_RATIO)


def _markdown(items: list[Item], body: float, ratio: float = HEADING_RATIO) -> tuple[str, list[str]]:
    unruled: list[str] = []
    return (_render(_order(items, GUTTER_EMS * body), body, unruled, [], ratio) if items else ""), unruled


def page_markdown(
    page, grids: list[Ruled], lone: list[Ruled], figures: list[dict]
) -> tuple[str, list[str], list[str], list[Placed]]:
    """The Markdown of a pdfplumber ``page`` whose ruled tables are ``grids`` ``(bbox, markdown, rows)`` (and
    ``lone``, rows ruled round alone that may head a table) and whose ``figures`` are ``readers.pdf.figures``
    dicts; its tables (a table ruled in pieces one: ``readers.pdf.headed``); those beside which words no cell
    could hold were read as text; and each of its lines (a table or a figure's block whole) as it stands on the
    page: its Markdown and its box (left, top, right, bottom) as fractions of the page (``readers.pdf.placed``),
    a side box's lines each; a line or two turned on its side and the furniture taken out first placed nowhere."""
    boxes = [grid[0] for grid in grids]
    chars = [char for char in page.chars if not centre_in(box_of(char), boxes)] if boxes else page.chars
    upright = [char for char in chars if turn_of(char) == "level"]
    sizes = Counter(round(char["size"], 1) for char in upright if char["text"].strip())
    body = sizes.most_common(1)[0][0] if sizes else 10.0
    scanned = any(area(figure["box"]) >= SCANNED_AREA for figure in figures if figure["kind"] in ("picture", "scan"))
    if scanned and sizes:  # an OCR layer's sizes wander with the scan: its body size is their middle
        body = median(sizes.elements())
    fonts = Counter(char.get("fontname") for char in upright if char["text"].strip())
    body_font = fonts.most_common(1)[0][0] if fonts else None
    found = page_words(upright)
    for word in found:  # a display title in a font with a deep descent (Poppins) would hang over the lines under it
        usual = word["base"] + DESCENT * max(char["size"] for char in word["chars"])
        word["bottom"] = usual if word["bottom"] - usual > HANGING_LINES * body else word["bottom"]
    words = word_items(found, page_links(page))
    words, numbered = margin_numbers(words, body, body_font)
    items, labels, turned = _figure_items(words, figures, page, [c for c in chars if turn_of(c) != "level"])
    page_top, page_bottom = float(page.bbox[1]), float(page.bbox[3])
    records = [head[0] for head in lone if record(head[2][0])]  # a table's row: no running head, whatever it holds
    edge = [item for item in items if not centre_in(box_of(item), records)]
    taken, heads, feet = (
        band_furniture(item_lines(edge), page_top, page_bottom, body, body_font) if edge else (set(), [], [])
    )
    items = [item for item in items if id(item) not in taken]
    edges = edge_words(item_lines(items), page_top, page_bottom) if items else set()
    for item in items:
        item["edge"] = id(item) in edges
    open_seams(items, GUTTER_EMS * body)
    items, bodies, _, beside = aligned_tables(items, GUTTER_EMS * body, page_frames(page), zebra_boxes(page))
    tables, items, aligned = headed(grids, lone, items, bodies, GUTTER_EMS * body)
    unruled = [block["block"] for block in aligned]
    ratio = SCAN_HEADING_RATIO if scanned else HEADING_RATIO
    side = asides(items, drawn_boxes(page), float(page.width) * float(page.height))
    held = {id(word) for _, inside in side for word in inside}
    items = [item for item in items if id(item) not in held] + labels + aligned
    rendered = []  # each side box, its Markdown and its own lines, placed
    for box, inside in side:
        lines: list[Placed] = []
        rendered.append((box, _render(_order(inside, GUTTER_EMS * body), body, unruled, lines, ratio), lines))
    items += [
        {"x0": x0, "x1": x1, "top": top, "bottom": bottom, "text": "", "block": markdown}
        for (x0, top, x1, bottom), markdown in tables + [(box, markdown) for box, markdown, _ in rendered]
    ]
    boxed = {markdown: lines for _, markdown, lines in rendered}
    placed: list[Placed] = []
    text = _render(_order(items, GUTTER_EMS * body), body, unruled, placed, ratio) if items else ""
    placed = [line for whole in placed for line in boxed.get(whole[0], [whole])]
    spans = [(w["x0"], w["x1"]) for w in words] + [(box[0], box[2]) for box in boxes]
    text_span = (min(x0 for x0, _ in spans), max(x1 for _, x1 in spans)) if spans else (0.0, float(page.width))
    sideways, aside = _turned_text(turned, page, unruled, text_span, placed)
    parts = [*map(furniture_line, heads), text, *sideways, *map(furniture_line, feet + numbered + aside)]
    left, top, width, height = float(page.bbox[0]), float(page.bbox[1]), float(page.width), float(page.height)
    ruled_at = {markdown for _, markdown in tables} | set(unruled)  # a table's box is its rules where it has them
    fractions = [
        (line, ((x0 - left) / width, (y0 - top) / height, (x1 - left) / width, (y1 - top) / height), chart)
        for line, box, chart in placed
        for x0, y0, x1, y1 in [ruled(box, page.edges, page.chars) if line in ruled_at else box]
    ]
    return "\n\n".join(part for part in parts if part), [m for _, m in tables] + unruled, beside, fractions
