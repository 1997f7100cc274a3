"""What a retriever indexes and hands the model: a reading cut into chunks of at most
``max_tokens`` ``o200k_base`` tokens, counted exactly (``Reading.chunks``).

Each chunk's ``text`` is what is embedded and handed to the model: the heading path as context
(the Markdown heading lines above it, ``# Results`` then ``## Latency``), then, when overlap is
asked, the end of the previous chunk, then its content. The content is cut at the strongest
boundary that fits: a heading (or a file inside an archive), then a paragraph, then a line of a
text file or an item of a list, then a sentence, then a word — a sentence is cut only when it
alone is over the limit, a word only when it alone is (a base64 blob), between characters.

- A table is never cut inside a row: one over the limit is cut between rows and each part
  repeats the header row; a table goes with the sentence before it, which introduces it, when
  both fit. (The one exception: a row too long to go under its header goes without it, and a row
  longer than the whole limit is cut at words.)
- Each page's visual description and each chart rebuilt as a table is a chunk of its own, kind
  "figure", with its page, its figures' boxes and their captions; a chart over the limit is cut
  between rows like a table.
- Neighbours under the same heading merge up to the limit; a chunk may run over pages. A heading
  with nothing under it is kept as a line of text under the heading above it.
- ``overlap_tokens`` repeats the end of the previous chunk (from a sentence's start when one fits,
  else a word's), never past a heading, and only between text (a table's part repeats its header
  instead; figures stand alone).
- Audio: the transcript's segments grouped up to the limit, with their start and end times.

Arguments that cannot work raise ``ReaderError("INVALID_QUERY")`` with a sentence: ``max_tokens``
below ``MIN_TOKENS``, ``overlap_tokens`` over half of ``max_tokens``, or a heading path so long
that a chunk under it could not hold a word after it.

``reading`` here is a ``readers.models.Reading``; this module does not import it (the payload
sits below the model).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import ReaderError
from ..markup.blocks import BlockKind
from .boundaries import table_parts
from .citations import source, where
from .packing import Draft, Group, Packer, Source, Unit
from .tokens import text_tokens

CHUNK_TOKENS = 512  # the default max_tokens (Reading.chunks' too): the most many embedding models take in
MIN_TOKENS = 16  # the least max_tokens: a short heading path and a word
ROOM_FOR_A_WORD = 8  # tokens a chunk must have for its content after its heading path and overlap


@dataclass(frozen=True)
class Box:
    """Where a block or figure a chunk holds stands: its page and its box (left, top, right, bottom,
    fractions of the page from its top left)."""

    page: int
    box: tuple[float, float, float, float]


@dataclass
class Chunk:
    """One chunk: ``text`` (exactly what is embedded) = ``context`` (the heading path's lines), a
    blank line, ``overlap`` (the end of the previous chunk, with the space after it), then the
    content. ``citation`` says where it comes from (``report.pdf › a.docx, p. 3``) and ``where`` the place in
    that file alone (``p. 3``; "" for a file of one page). ``pages`` are the content's; ``lines`` (first,
    last) for a text file; ``start`` and
    ``end`` (seconds) for audio; ``boxes``, where the blocks (or the figures) it holds stand, each once;
    ``caption`` for a figure."""

    number: int
    kind: str
    text: str
    tokens: int
    pages: list[int]
    headings: list[str]
    section: str | None
    citation: str
    where: str = ""
    lines: tuple[int, int] | None = None
    start: float | None = None
    end: float | None = None
    caption: str | None = None
    boxes: list[Box] = field(default_factory=list)
    context: str = ""
    overlap: str = ""

    @property
    def content(self) -> str:
        """The text without its heading path and overlap: this chunk's own part of the reading."""
        return self.text[len(self.context) + (2 if self.context else 0) + len(self.overlap) :]


def check_sizes(max_tokens, overlap_tokens) -> None:
    """Refuse sizes that cannot work, with a sentence that fits the Python call, the command line and the API alike
    (``ReaderError`` ``INVALID_QUERY``)."""
    for name, value in (("The chunk size", max_tokens), ("The overlap", overlap_tokens)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ReaderError("INVALID_QUERY", f"{name} must be a whole number of tokens, not {value!r}.")
    if max_tokens < MIN_TOKENS:
        raise ReaderError(
            "INVALID_QUERY",
            f"A chunk of {max_tokens} tokens cannot hold a heading and a word; give at least {MIN_TOKENS} tokens.",
        )
    if not 0 <= overlap_tokens <= max_tokens // 2:
        raise ReaderError(
            "INVALID_QUERY",
            f"An overlap of {overlap_tokens} tokens does not go with chunks of {max_tokens}: "
            f"give 0 to {max_tokens // 2} (at most half a chunk).",
        )


class Headings:
    """The heading path as the reading goes, and the groups it makes. A heading that nothing
    stood under when it closes (a heading followed by one of its level) is given back, to be
    packed as a line of text: no word of the reading is lost."""

    def __init__(self, max_tokens: int, overlap_tokens: int):
        self.max_tokens, self.overlap_tokens = max_tokens, overlap_tokens
        self.section: str | None = None
        self.path: list[list] = []  # [level, title, heading unit's span, used]
        self._groups: dict[tuple, Group] = {}

    def group(self) -> Group:
        """The group of what stands under the current heading path; refused when the path leaves no room for a word."""
        path = self.path
        key = (self.section, tuple((level, title) for level, title, *_ in path))
        if key not in self._groups:
            context = "\n".join(f"{'#' * level} {title}" for level, title, *_ in path)
            tokens = text_tokens(context + "\n\n") if context else 0
            if self.max_tokens - tokens - self.overlap_tokens < ROOM_FOR_A_WORD:
                raise ReaderError(
                    "INVALID_QUERY",
                    f"A chunk of {self.max_tokens} tokens cannot hold the heading path "
                    f"{' › '.join(title for _, title, *_ in path)!r} ({tokens} tokens)"
                    f"{' and the overlap' if self.overlap_tokens else ''} and a word after it; "
                    f"give at least {tokens + self.overlap_tokens + ROOM_FOR_A_WORD} tokens.",
                )
            self._groups[key] = Group(self.section, tuple(title for _, title, *_ in path), context, tokens)
        return self._groups[key]

    def use(self) -> Group:
        for entry in self.path:
            entry[3] = True
        return self.group()

    def _closed(self, count: int) -> list[tuple[Group, tuple[int, int, Source]]]:
        """Close the last ``count`` headings; the unused ones, each with the group above it."""
        unused = []
        while count > 0 and self.path:
            entry = self.path.pop()
            if not entry[3]:
                unused.append((self.group(), entry[2]))
                for above in self.path:  # their titles stand in this heading's context
                    above[3] = True
            count -= 1
        return unused[::-1]

    def open(self, level: int, title: str, span: tuple[int, int], source: Source) -> list:
        closing = sum(1 for open_level, *_ in self.path if open_level >= level)
        unused = self._closed(closing)
        self.path.append([level, title, (*span, source), False])
        return unused

    def enter(self, section: str | None) -> list:
        """A new file inside a container: its headings start afresh."""
        unused = self.finish() if section != self.section else []
        self.section = section
        return unused

    def finish(self) -> list:
        return self._closed(len(self.path))


def _runs(reading) -> tuple[Source, list[list]]:
    """The pages' content as one string, and its runs: [start, end, pages] — the lines of one text
    file, read across its pages; any other page alone. Pages are joined by a blank line, a text
    file's pages by the line break between them."""
    parts: list[str] = []
    pages: list[tuple[int, int, Any]] = []  # Any: a readers.models.Page (which imports this module)
    runs: list[list] = []
    position, previous = 0, None
    for page in reading.pages:
        text_file = page.line is not None
        joins = previous is not None and text_file and previous.line is not None and previous.section == page.section
        if previous is not None:
            parts.append("\n" if joins else "\n\n")
            position += len(parts[-1])
        content = page.text
        pages.append((position, position + len(content), page))
        if joins:
            runs[-1][1] = position + len(content)
            runs[-1][2].append(page)
        else:
            runs.append([position, position + len(content), [page]])
        parts.append(content)
        position += len(content)
        previous = page
    return Source("".join(parts), pages), runs


def _run_blocks(source: Source, pages: list) -> list[tuple]:
    """The blocks of a run's pages, each (page, block, start, end in ``source``). A text file's block that
    a page break cuts (no blank line at the break, and no heading after it: a table's rows, a paragraph
    going on) is one, its first page's."""
    starts = {id(page): start for start, _, page in source.pages}
    found: list[tuple] = []
    for page in pages:
        for index, (block, span) in enumerate(zip(page.blocks, page.spans())):
            if span is None:
                continue
            start, end = starts[id(page)] + span[0], starts[id(page)] + span[1]
            cut = (
                index == 0
                and found
                and page.line is not None
                and found[-1][0].line is not None
                and block.kind != BlockKind.HEADING
                and source.text[found[-1][3] : start] == "\n"
                and source.text[found[-1][3] - 1 : found[-1][3]] not in ("", "\n")
                and source.text[start : start + 1] not in ("", "\n")
            )
            if cut:
                found[-1] = (*found[-1][:3], end)
            else:
                found.append((page, block, start, end))
    return found


def _trimmed(text: str, start: int, end: int) -> tuple[int, int] | None:
    """``start``-``end`` without the blank space at either end; None when it is all blank."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return (start, end) if end > start else None


def _description(page, position: int, group: Group) -> Unit:
    text = page.description.strip()
    captions = [figure.caption for figure in page.figures if figure.caption]
    return Unit(
        "figure",
        Source(text),
        0,
        len(text),
        group,
        position,
        all_lines=True,
        pages=(page.number,),
        caption="; ".join(captions) or None,
        boxes=tuple(Box(page.number, figure.box) for figure in page.figures),
    )


def _document_units(reading, packer: Packer, headings: Headings) -> list[Unit]:
    """Pack the pages' text into ``packer``; the figures (charts, descriptions), to be packed apart, in order."""
    source, runs = _runs(reading)
    figures: list[Unit] = []

    def text_unit(kind: str, start: int, end: int, all_lines: bool, **more) -> Unit:
        return Unit(kind, source, start, end, headings.use(), start, all_lines=all_lines, **more)

    def pack_unused(unused: list) -> None:
        for group, (start, end, held) in unused:
            packer.place(Unit("text", held, start, end, group, start))

    for _, end, pages in runs:
        pack_unused(headings.enter(pages[0].section))
        charts = {page.number: [figure for figure in page.figures if figure.chart] for page in pages}
        for page, block, start, stop in _run_blocks(source, pages):
            trimmed = _trimmed(source.text, start, stop)
            if not trimmed:
                continue
            boxes = (Box(page.number, block.box),) if block.box else ()
            if block.kind == BlockKind.HEADING:
                pack_unused(headings.open(block.level, block.title, trimmed, source))
            elif block.kind == BlockKind.CHART:
                drawn = charts[page.number].pop(0) if charts[page.number] else None
                figures.append(
                    text_unit(
                        "figure",
                        *trimmed,
                        False,
                        table=table_parts(source.text[start:stop], start, len(block.rows)),
                        caption=drawn.caption if drawn else None,
                        boxes=boxes or ((Box(page.number, drawn.box),) if drawn else ()),
                    )
                )
            elif block.kind == BlockKind.TABLE:
                parts = table_parts(source.text[start:stop], start)
                packer.place(text_unit("table", *trimmed, page.line is not None, table=parts, boxes=boxes))
            else:
                packer.place(text_unit("text", *trimmed, page.line is not None, boxes=boxes))
        for page in pages:
            if page.description:
                figures.append(_description(page, end, headings.use()))
    pack_unused(headings.finish())
    return figures


def _transcript_units(reading, headings: Headings) -> list[Unit]:
    """A recording's segments (or its text, when it has none), each with its times."""
    transcript = reading.transcript
    segments = [
        (segment.start, segment.end, segment.text.strip()) for segment in transcript.segments if segment.text.strip()
    ]
    if not segments and transcript.text.strip():
        segments = [(0.0, transcript.duration, transcript.text.strip())]
    source = Source(" ".join(text for _, _, text in segments))
    units, position, group = [], 0, headings.group()
    for start, end, text in segments:
        units.append(
            Unit("transcript", source, position, position + len(text), group, position, times=(start, end), pages=())
        )
        position += len(text) + 1
    return units


def _chunk(reading, number: int, draft: Draft) -> Chunk:
    units = draft.units
    first = units[0]
    pages = sorted({page for unit in units for page in unit.page_numbers()})
    lines = None
    if all(unit.source.pages and unit.times is None for unit in units):
        found = [
            (first_line, last_line)
            for unit in units
            if (first_line := unit.source.line_at(unit.start)) is not None
            and (last_line := unit.source.line_at(max(unit.end - 1, unit.start))) is not None
        ]
        if len(found) == len(units):
            lines = (min(line for line, _ in found), max(line for _, line in found))
    times = [unit.times for unit in units if unit.times]
    span = (min(start for start, _ in times), max(end for _, end in times)) if times else None
    kind = (
        first.kind
        if first.kind in ("figure", "transcript")
        else "table"
        if any(unit.kind == "table" for unit in units)
        else "text"
    )
    return Chunk(
        number=number,
        kind=kind,
        text=draft.text,
        tokens=draft.tokens,
        pages=pages,
        headings=list(first.group.headings),
        section=first.group.section,
        lines=lines,
        start=span[0] if span else None,
        end=span[1] if span else None,
        citation=source(
            reading.name,
            reading.kind,
            reading.page_count,
            section=first.group.section,
            pages=pages,
            lines=lines,
            span=span,
        ),
        where=where(reading.kind, reading.page_count, pages=pages, lines=lines, span=span),
        caption=first.caption,
        boxes=list(dict.fromkeys(box for unit in units for box in unit.boxes)),
        context=first.group.context,
        overlap=draft.overlap,
    )


def reading_chunks(reading, max_tokens: int = CHUNK_TOKENS, overlap_tokens: int = 0) -> list[Chunk]:
    """``Reading.chunks``: see this module's docstring."""
    check_sizes(max_tokens, overlap_tokens)
    packer, headings = Packer(max_tokens, overlap_tokens), Headings(max_tokens, overlap_tokens)
    if reading.transcript is not None:
        for unit in _transcript_units(reading, headings):
            packer.place(unit)
        packer.close()
        drafts = list(packer.drafts)
    else:
        figures = _document_units(reading, packer, headings)
        packer.close()
        drafts = list(packer.drafts)
        for figure in figures:  # each alone: never merged with text, nor with another figure
            alone = Packer(max_tokens)
            alone.place(figure)
            alone.close()
            drafts.extend(alone.drafts)
    drafts.sort(key=lambda draft: draft.units[0].at)
    return [_chunk(reading, number, draft) for number, draft in enumerate(drafts, 1)]
