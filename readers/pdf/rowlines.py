"""A ruled row's lines: each cell's lines read from its own words (a word the printer broke for want of room
joined again), and the row split into one row per record where its lines line up across its cells
(``readers.pdf.cells``: a table ruled round its columns but not between its rows)."""

from __future__ import annotations

from statistics import median
from typing import cast

from pdfplumber.utils import extract_text

from .records import Char
from .spelling import word_list
from .unruled import LEADER
from .words import LINE_EMS, ON_AXIS, is_level, line_words, phrase_text, right_to_left, set_upright, text_lines
from .wraps import PROSE_CHARS

RECORD_CELLS = 3  # cells holding a line at (nearly) every shared baseline: fewer are cells that wrap, not records
RECORD_SHARE = 0.8  # of the shared baselines every cell has a line at, when not all: a record's cell may be empty
CODE_CHARS = 6  # letters and digits of a code or a number, at least, that a narrow cell breaks ("000142495" / "8")
CODE_TAIL = 2  # of them at most left for the next line: a record's value under a code is no such scrap
FIT_SLACK = 0.5  # points: a letter wider than the room its word leaves, less this, did not fit beside it


def turning(char: Char) -> int:
    """1 for a character turned to read up the page, -1 down it, 0 for one set along it or slanted."""
    a, b = char["matrix"][:2]
    if not b or abs(a) > ON_AXIS * abs(b):
        return 0
    return 1 if b > 0 else -1


def _cell_lines(chars: list[Char], room: float | None) -> list[tuple[float, float, str]]:
    """The cell's lines as (baseline, size, text); text turned 90° is read as if the page were turned
    with it, text slanted is one line, as pdfplumber reads it; a leader's dots are the table's, no
    word of the cell ("Stabilizer wiring change ........"). A word too wide for the cell's ``room`` (its width
    inside the table's padding) that the printer broke where the room ran out goes on whole ("Massach" /
    "usetts", "Ra" / "nk"): a line of one word whose next line starts in lower case, or a code's or a number's
    scrap (``_code_tail``), its first letter wider than the room the word leaves."""
    turns = {turning(char) for char in chars}
    if len(turns) == 1 and turns != {0}:
        chars = [set_upright(char, turns == {1}, 0.0, 0.0) for char in chars]
        room = None
    if not all(is_level(char) for char in chars):
        text = extract_text(cast(list[dict], chars))
        return [(min(char["top"] for char in chars), max(char["size"] for char in chars), text)]
    lines: list[tuple[float, float, str]] = []
    width = 0.0  # the last line's
    for line in text_lines(chars):
        words = [word for word in line_words(line) if not LEADER.fullmatch(word["text"])]
        if not words:
            continue
        text, first = phrase_text(words), next(char for char in line if char["text"].strip())
        above = lines[-1][2] if lines else ""
        fitted = room is not None and width + first["x1"] - first["x0"] > room - FIT_SLACK
        broken = (text[0].islower() and _broken(above, text)) or _code_tail(above, text)
        if fitted and " " not in above and above[-1:].isalnum() and broken:
            lines[-1] = (*lines[-1][:2], lines[-1][2] + text)
        else:
            lines.append((words[0]["base"], max(char["size"] for char in line), text))
        width = words[-1]["x1"] - words[0]["x0"]
    return lines


def _code_tail(above: str, text: str) -> bool:
    """Whether ``text`` is the tail of a code or a number ``above`` broken where the room ran out ("000142495" /
    "8", "S00002278" / "0"): a run of letters and digits ``CODE_CHARS`` long at least, with a digit, over
    ``CODE_TAIL`` of them at most, alone on their line (a value of a record under it is no such scrap)."""
    return (
        len(above) >= CODE_CHARS
        and above.isalnum()
        and any(char.isdigit() for char in above)
        and text.isalnum()
        and len(text) <= CODE_TAIL
    )


def _broken(above: str, text: str) -> bool:
    """Whether a word ``above`` goes on in ``text``: not both English words, the two one none ("inhabitants" /
    "per outlet", set to fill its cell, stays two)."""
    after = text.split()[0]
    words = word_list()
    return not (above.lower() in words and after.lower() in words and (above + after).lower() not in words)


def split_records(cells: list[list[Char] | None], rooms: list, by_records: bool) -> list[list[str | None]]:
    """One ruled row as one row, or as one row per record when its lines line up across cells
    (``by_records``); ``rooms``: each cell's width inside the padding, or None."""
    found = sorted(
        (base, size, index, text)
        for index, (chars, room) in enumerate(zip(cells, rooms))
        if chars
        for base, size, text in _cell_lines(chars, room)
    )
    whole = [
        None if chars is None else "\n".join(text for _, _, index, text in found if index == column)
        for column, chars in enumerate(cells)
    ]
    if not found or not by_records:
        return [whole]
    tolerance = LINE_EMS * median(size for _, size, _, _ in found)
    clusters: list[list[tuple[int, str]]] = []  # lines on one baseline: (cell, text)
    last = 0.0  # the baseline of the line before
    for base, _, index, text in found:
        if clusters and base - last <= tolerance:
            clusters[-1].append((index, text))
        else:
            clusters.append([(index, text)])
        last = base
    filled = {index for _, _, index, _ in found}
    # A baseline half the row's cells share is a record's (a cell centred between two records' lines
    # shares its own with few).
    least = max(2, len(filled) / 2)
    shared = [number for number, cluster in enumerate(clusters) if len({index for index, _ in cluster}) >= least]
    hits = {index: sum(index in {cell for cell, _ in clusters[number]} for number in shared) for index in filled}
    records = [index for index in filled if hits[index] == len(shared)]
    # Records: three cells or more with a line at every shared baseline, half the row's cells at least, the
    # labels' (the first read) among them or centred beside them, on none of their baselines ("6" spanning
    # "OTSL" / "HTML"; cells wrapped beside a one-line label set at their top are one row); or every cell with a
    # line at nearly every one (a column may leave a record's cell empty), its lines short (prose boxed in columns
    # lines up at its leading too). Lists side by side whose lines only share the page's line pitch (a ballot's
    # columns) end apart.
    label = max(filled) if right_to_left([whole]) else min(filled)
    labelled = hits[label] in (0, len(shared))
    lined_up = labelled and len(records) >= RECORD_CELLS and 2 * len(records) >= len(filled)
    short = median(len(text) for _, _, _, text in found) < PROSE_CHARS  # values, not prose at one leading
    nearly = short and min(hits.values()) >= RECORD_SHARE * len(shared) >= RECORD_CELLS
    if len(shared) < 2 or not (lined_up or nearly):
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
