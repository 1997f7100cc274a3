"""Packing pieces of a reading into chunks of at most ``max_tokens`` tokens, counted exactly
(``readers.payload.chunks`` cuts the reading into the pieces and says what a chunk is).

A piece joins the chunk under way when it fits; else the chunk closes and the piece starts the
next one; a piece too big for any chunk is cut at its next boundary (``boundaries.finer``) and its
pieces are packed in turn — a table between rows. Costs are counted piece by piece (each with
the space before it) and the finished chunk once more as a whole, since tokens do not quite add
up across a join; what that count finds over the limit is packed again.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .boundaries import SENTENCE_END, TableParts, finer, sentences
from .tokens import text_tokens

TEXTUAL = ("text", "transcript")  # what overlap joins: never tables (their parts repeat the header) or figures


@dataclass(frozen=True)
class Group:
    """Where a piece stands: the file inside a container and the heading path, with the context they make."""

    section: str | None
    headings: tuple[str, ...]
    context: str
    context_tokens: int


class Source:
    """One string the pieces are spans of (the pages' content one after another, a description, a
    transcript), and which page and line each offset is on."""

    def __init__(self, text: str, pages: Sequence[tuple[int, int, Any]] = ()):  # Any: a readers.models.Page
        self.text = text
        self.pages = list(pages)  # (start, end, page) in order
        self.starts = [start for start, _, _ in self.pages]
        self.newlines = (
            [match.start() for match in re.finditer("\n", text)]
            if any(page.line is not None for *_, page in self.pages)
            else []
        )

    def _page_at(self, offset: int) -> int:
        return max(bisect.bisect_right(self.starts, offset) - 1, 0)

    def page_numbers(self, start: int, end: int) -> tuple[int, ...]:
        if not self.pages:
            return ()
        first, last = self._page_at(start), self._page_at(max(end - 1, start))
        return tuple(page.number for _, _, page in self.pages[first : last + 1])

    def line_at(self, offset: int) -> int | None:
        page_start, _, page = self.pages[self._page_at(offset)]
        if page.line is None:
            return None
        return page.line + bisect.bisect_left(self.newlines, offset) - bisect.bisect_left(self.newlines, page_start)


@dataclass
class Unit:
    """A piece to pack: ``source.text[start:end]``; ``at`` orders it in the reading. A table's
    rows after the first carry the ``header`` a chunk starting with them repeats; its first piece,
    the head and first row, says where the head ends (``head``); a whole table or chart carries its
    ``table`` block, to be cut between rows."""

    kind: str
    source: Source
    start: int
    end: int
    group: Group
    at: int
    all_lines: bool = False
    header: str = ""
    head: int = 0
    table: TableParts | None = None
    table_id: int = -1
    times: tuple[float, float] | None = None
    pages: tuple[int, ...] | None = None
    caption: str | None = None
    boxes: tuple = ()  # readers.payload.chunks.Box

    @property
    def text(self) -> str:
        return self.source.text[self.start : self.end]

    def piece(self, start: int, end: int, **changes) -> Unit:
        values = {
            **self.__dict__,
            "start": start,
            "end": end,
            "at": self.at + start - self.start,
            "table": None,
            "head": 0,
            **changes,
        }
        return Unit(**values)

    def page_numbers(self) -> tuple[int, ...]:
        return self.pages if self.pages is not None else self.source.page_numbers(self.start, self.end)


def gap(before: Unit, after: Unit) -> str:
    """What stands between two pieces joined in a chunk: the space between them in the reading, or
    a blank line when something stood between them (a chart lifted out, a page's description)."""
    if before.source is after.source and before.end <= after.start:
        between = before.source.text[before.end : after.start]
        if not between.strip():
            return between
    return "\n\n"


def compose(units: list[Unit]) -> str:
    parts = []
    for index, unit in enumerate(units):
        if index:
            parts.append(gap(units[index - 1], unit))
        if unit.header and (index == 0 or units[index - 1].table_id != unit.table_id):
            parts.append(unit.header + "\n")
        parts.append(unit.text)
    return "".join(parts)


@dataclass
class Draft:
    units: list[Unit]
    overlap: str
    text: str
    tokens: int


class Packer:
    """Packs pieces into chunks in order, each at most ``max_tokens``: a piece joins the chunk under
    way when it fits; else the chunk closes and the piece starts the next one, or, too big for
    any chunk, is cut at its next boundary and its pieces are packed in turn."""

    def __init__(self, max_tokens: int, overlap_tokens: int = 0):
        self.max_tokens, self.overlap_tokens = max_tokens, overlap_tokens
        self.drafts: list[Draft] = []
        self.current: list[Unit] = []
        self.cost = 0
        self.room = 0
        self.table_ids = 0

    def _continues(self, first: Unit) -> bool:
        """Whether a chunk starting with ``first`` repeats the end of the last one: text after text
        under one heading."""
        if not self.overlap_tokens or not self.drafts or first.kind not in TEXTUAL:
            return False
        last = self.drafts[-1].units[-1]
        return last.group == first.group and last.kind in TEXTUAL

    def _room(self, first: Unit) -> int:
        return self.max_tokens - first.group.context_tokens - (self.overlap_tokens if self._continues(first) else 0)

    def _cost(self, unit: Unit, after: Unit | None) -> int:
        if after is None:
            return text_tokens(f"{unit.header}\n{unit.text}" if unit.header else unit.text)
        return text_tokens(
            gap(after, unit)
            + (f"{unit.header}\n" if unit.header and after.table_id != unit.table_id else "")
            + unit.text
        )

    def _fits(self, unit: Unit) -> bool:
        if not self.current:
            return self._cost(unit, None) <= self._room(unit)
        return self.cost + self._cost(unit, self.current[-1]) <= self.room

    def _add(self, unit: Unit) -> None:
        if not self.current:
            self.room, self.cost = self._room(unit), self._cost(unit, None)
        else:
            self.cost += self._cost(unit, self.current[-1])
        self.current.append(unit)

    def place(self, unit: Unit) -> None:
        if self.current and unit.group != self.current[0].group:
            self.close()
        if self.current and self._fits(unit):
            self._add(unit)
            return
        if unit.table is not None and unit.table.rows and not self._fits_alone([unit]):
            for row in self._rows(unit):
                self.place(row)
            return
        if self.current and unit.kind == "table" and self._glue(unit):
            return
        self.close()
        if self._fits(unit):
            self._add(unit)
            return
        for piece in self._finer(unit):
            self.place(piece)

    def _fits_alone(self, units: list[Unit]) -> bool:
        cost = self._cost(units[0], None) + sum(self._cost(unit, before) for before, unit in zip(units, units[1:]))
        return cost <= self._room(units[0])

    def _rows(self, unit: Unit) -> list[Unit]:
        """A table or chart cut between rows: the first piece is its head and first row, each
        later row repeats the head; a chart's notes follow."""
        self.table_ids += 1
        table, text = unit.table, unit.source.text
        assert table is not None, "a table's or a chart's unit"
        head = text[table.start : table.head]
        rows = [unit.piece(table.start, table.rows[0][1], table_id=self.table_ids, head=table.head)]
        rows += [unit.piece(start, end, header=head, table_id=self.table_ids) for start, end in table.rows[1:]]
        return rows + [unit.piece(start, end) for start, end in table.notes]

    def _glue(self, table: Unit) -> bool:
        """Move the sentence before a small table (its introduction) on with it into the next chunk, when both fit."""
        last = self.current[-1]
        if last.kind not in TEXTUAL or not self._fits_alone([table]):
            return False
        spans = sentences(last.source.text, last.start, last.end)
        for intro in [last] + ([last.piece(*spans[-1])] if len(spans) > 1 else []):
            if self._fits_alone([intro, table]):
                self.current.pop()
                if intro is not last:
                    self.current.append(last.piece(last.start, spans[-2][1]))
                self.close()
                self._add(intro)
                self._add(table)
                return True
        return False

    def _finer(self, unit: Unit) -> list[Unit]:
        """``unit`` cut at its next boundary. A table's rows are never cut while they fit alone: the
        head comes apart from the first row, and a row too long to go under its header goes without it."""
        if unit.head:
            header = unit.source.text[unit.start : unit.head]
            return [unit.piece(unit.start, unit.head), unit.piece(unit.head + 1, unit.end, header=header)]
        if unit.header:
            return [unit.piece(unit.start, unit.end, header="")]
        spans = finer(unit.source.text, unit.start, unit.end, unit.all_lines)
        if spans:
            return [unit.piece(start, end, header="") for start, end in spans]
        return self._characters(unit)

    def _characters(self, unit: Unit) -> list[Unit]:
        """A word too long for any chunk, cut into the longest runs of characters that fit."""
        room, text = self._room(unit), unit.source.text
        pieces, start = [], unit.start
        while start < unit.end:
            low, high = start + 1, unit.end
            while low < high:
                middle = (low + high + 1) // 2
                if text_tokens(text[start:middle]) <= room:
                    low = middle
                else:
                    high = middle - 1
            pieces.append(unit.piece(start, low, header=""))
            start = low
        return pieces

    def _overlap(self, first: Unit) -> str:
        """The end of the last chunk's trailing text, at most ``overlap_tokens``, from a sentence's
        start when one fits, else a word's; and the space after it."""
        units = self.drafts[-1].units
        index = len(units)
        while index and units[index - 1].kind in TEXTUAL:
            index -= 1
        text = compose(units[index:])
        starts = [
            position
            for position in range(len(text))
            if not text[position].isspace() and (position == 0 or text[position - 1].isspace())
        ]
        low, high = 0, len(starts)
        while low < high:  # the earliest word start whose tail fits
            middle = (low + high) // 2
            if text_tokens(text[starts[middle] :]) <= self.overlap_tokens:
                high = middle
            else:
                low = middle + 1
        if low == len(starts):
            return ""
        start = starts[low]
        sentence = next(
            (match.end(1) for match in SENTENCE_END.finditer(text, max(start - 8, 0)) if match.end(1) >= start), None
        )
        if sentence is not None and sentence < len(text):  # a whole sentence reads better than the end of one
            start = sentence
        return text[start:] + gap(units[-1], first)

    def close(self) -> None:
        """Finish the chunk under way, counted exactly; what the exact count finds over the limit is packed again."""
        units, self.current = self.current, []
        if not units:
            return
        carried: list[Unit] = []
        overlap = self._overlap(units[0]) if self._continues(units[0]) else ""
        while units:
            context = units[0].group.context
            text = "\n\n".join(filter(None, [context, overlap + compose(units)]))
            tokens = text_tokens(text)
            if tokens <= self.max_tokens:
                self.drafts.append(Draft(units, overlap, text, tokens))
                break
            if overlap:
                overlap = overlap.split(None, 1)[1] if len(overlap.split(None, 1)) > 1 else ""
            elif len(units) > 1:
                carried.insert(0, units.pop())
            else:
                carried = self._finer(units.pop()) + carried
        for unit in carried:
            self.place(unit)
