"""Why a table read from a PDF page may be wrong, from the table itself: what a reader checks before
trusting it. Each builder's table is looked at as its rows of cells (the first its header):

- one row of words under its header, no figure: too little to tell a table from boxes or labels set
  in a grid (a diagram's, a chart's);
- ragged rows: more than ``RAGGED_SHARE`` of its body rows fill half the cells of its usual row or
  fewer (a row whose only cell is its first is a section's name, not ragged; "-" and ":" are values);
- a column whose cells mix kinds: a column of the body holding words in some rows and figures in
  others, ``MIXED_SHARE`` of its cells at least of each (a column of figures whose cells took a
  label's words, or two columns read as one);
- figures run together: a cell holding two figures or more (``1.0 1.1``, two amounts each with its
  currency sign or in brackets), so a column's values
  stand apart in it: two columns read as one;
- words placed beside it: a word the builder could not put in a cell, read as text beside the
  table (``unplaced``);
- read in pieces: it and the next or the last table on its page have as many columns, and only a few lines
  of text, no heading or caption among them, stand between them (a table's rows read as text between its
  pieces, or a gap that parted its rows: ``parted``).

``readers.pdf.pages`` gives each such table a ``TABLE_UNSURE`` notice naming its page, and the page
its index in ``Page.unsure_tables``; ``make bench icdar`` counts how many of the wrong tables and of
the right ones are flagged.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence

from ..markup.tables import table_rows
from .headings import HEADING
from .records import Item

CURRENCY = {"$", "€", "£", "¥"}  # a sign set apart from its amount (ruled apart, or wrapped over it) goes with it
# One figure: a count, an amount, a share, a year, with its sign, currency (a space after it: "$ 8,550") and
# footnote mark; thousands grouped with commas, points or spaces ("33 003"); a share's sign set apart ("(12) %").
FIGURE = re.compile(r"[-+−–(]?(?:[$€£¥] ?)?(?:\d+(?:[ ,.]\d{3})*(?:[.,]\d+)?|[.,]\d+)(?: ?%)?\)?(?: ?%)?\*{0,3}")
RANGE = re.compile(rf"(?:{FIGURE.pattern}) ?[-–] ?(?:{FIGURE.pattern})")  # one value's range: "0.39 - 0.46", "12–15"
EMPTY = re.compile(r"[-–—.:/x*]*|n\.?\s?[av]\.?|nil|none", re.I)  # what stands for no value: "-", "..", "n.a."
# Of the body's rows, those filling half their usual cells or fewer: a quarter are more than a table's own
# blanks (the sparsest right table of the ICDAR EU half has a fifth).
RAGGED_SHARE = 0.25
PARTED_LINES = 12  # lines of text between two pieces of a table at most: its rows read as text
TITLE = re.compile(rf"{HEADING}|#|\*\(continued|(table|figure|fig\.|chart|exhibit)\b", re.I)  # a heading, a caption
MIXED_SHARE = 0.25  # of a column's filled cells, of the rarer kind: a label in a column of figures is one or two


def figures_only(text: str) -> bool:
    """``text`` holds words, each a figure: a cell of values ("1,204.50", "12 %", "10.41")."""
    return bool(text.split()) and all(FIGURE.fullmatch(word) for word in text.split())


def of_figures(cells: Iterable[str]) -> bool:
    """Two cells or more of ``cells`` (a row's, or a line's phrases) are figures: a row of figures, no header's."""
    return sum(bool(FIGURE.fullmatch(cell)) for cell in cells) > 1


def _kind(cell: str) -> str:
    """ "" for an empty cell, "figure" (a value, or a value with its unit or share: "100 million",
    "63 (18.5%)", a range: "0.39 - 0.46"), "figures" (plain values side by side, after a label or not: "1.0
    1.1", "Age 50.8 15.9") or "words"."""
    parts = [part for part in cell.split() if not EMPTY.fullmatch(part)]
    if not parts:
        return ""
    if _two_amounts(cell.split()):
        return "figures"
    dashed = " ".join(part for part in cell.split() if part in "-–" or not EMPTY.fullmatch(part))
    if FIGURE.fullmatch(" ".join(parts)) or RANGE.fullmatch(dashed):  # "100 000"
        return "figure"
    plain = [bool(FIGURE.fullmatch(part)) and "(" not in part for part in parts]
    if len(parts) > 1 and plain[-1] and plain[-2]:  # "1.0 1.1", a label and its values ("Age 50.8 15.9")
        return "figures"
    return "figure" if FIGURE.fullmatch(parts[0]) else "words"


def _two_amounts(words: list[str]) -> bool:
    """A cell's ``words`` are two amounts or more, each with its currency sign ("$ 160,544 $ (1,709,112)") or
    each in brackets ("(3,400) (138,000)")."""
    amounts = [word for word in words if word not in CURRENCY]
    if len(amounts) < 2 or not all(FIGURE.fullmatch(word) for word in amounts):
        return False
    signs = sum(word in CURRENCY or word[:1] in CURRENCY for word in words)
    return signs > 1 or sum(word.startswith("(") and word.endswith(")") for word in amounts) > 1


def parted(text: str, tables: list[str]) -> set[int]:
    """The indexes of the page's ``tables`` (in the order of its Markdown ``text``) that may be pieces of one:
    two in turn of as many columns, ``PARTED_LINES`` lines of text at most between them, none a heading, a
    caption or a title in capitals ("STATISTICS OF MONTHLY MEAN DATA")."""
    found: set[int] = set()
    end = 0
    for index, (first, second) in enumerate(zip(tables, tables[1:])):
        start = text.find(first, end)
        end = start + len(first) if start >= 0 else end
        after = text.find(second, end)
        lines = [line.strip() for line in text[end:after].splitlines() if line.strip()]
        if (
            0 <= start < after
            and len(table_rows(first)[0]) == len(table_rows(second)[0])
            and len(lines) <= PARTED_LINES
            and not any(TITLE.match(line) or line.isupper() for line in lines)
        ):
            found |= {index, index + 1}
    return found


def doubts(markdown: str, beside: bool = False, pieces: bool = False) -> list[str]:
    """Why the table ``markdown`` may be read wrong (the module's list, in its words), none when it
    reads as a table should; ``beside`` when its builder placed words beside it, ``pieces`` when it may
    be a piece of a table (``parted``). Its body is what follows its header: the rows from the first that
    holds a figure (or from its second row)."""
    rows = table_rows(markdown)
    every = [[_kind(cell) for cell in row] for row in rows]
    start = max(1, next((index for index, row in enumerate(every) if "figure" in row or "figures" in row), 1))
    body, kinds = rows[start:], every[start:]
    reasons = ["words placed beside it"] * beside + ["it and the table next to it may be one, read in pieces"] * pieces
    if any(kind == "figures" for row in every for kind in row):  # a heading's cell too ("1.0 1.1")
        reasons.append("figures run together in a cell")
    if not body:
        return reasons
    filled = [sum(bool(cell.strip()) for cell in row) for row in body]  # ":" and "-" are values not available
    usual = Counter(filled).most_common(1)[0][0]
    short = [count for count, row in zip(filled, body) if 2 * count <= usual and not (count == 1 and row[0].strip())]
    if len(body) == 1 and not any(kind for kind in kinds[0] if kind != "words"):
        reasons.append("one row of words under its header")
    if len(short) > RAGGED_SHARE * len(body):
        reasons.append("ragged rows")
    if any(_mixed([row[index] for row in kinds]) for index in range(len(rows[0]))):
        reasons.append("a column mixes words and figures")
    return reasons


def _mixed(column: list[str]) -> bool:
    counts = Counter(kind for kind in column if kind)
    figures, words = counts["figure"] + counts["figures"], counts["words"]
    return min(figures, words) >= max(2, MIXED_SHARE * (figures + words))


def unplaced(items: list[Item], rows: Sequence[Sequence[str | None]]) -> list[Item]:
    """The words of ``items`` that no cell of ``rows`` holds: a table builder's account of its region,
    so that a word it could not place is read beside the table as text, never lost (a block's, a boxed cell's
    lines read apart, by its Markdown's words)."""
    held = Counter(word for row in rows for cell in row if cell for word in cell.split())
    missing = []
    for item in items:
        words = Counter((item.get("block") or item["text"]).split())
        if all(held[word] >= count for word, count in words.items()):
            held -= words
        else:
            missing.append(item)
    return missing
