"""Where a piece of a reading comes from, in the one wording the export's citations and the chunks
share: ``report.pdf, p. 12``, ``deck.pptx, slides 3–4``, ``bundle.zip › papers/a.pdf, p. 3``,
``server.log, lines 95–140``, ``talk.wav, 0:07–0:11``."""

from __future__ import annotations

from collections.abc import Iterable

from ..kinds import KINDS, kind_of

# What a kind's pages are cited as: its unit ("p." for a page).
CITED_UNITS = {name: kind.unit for name, kind in KINDS.items() if kind.unit != "page"}
PLURAL_UNITS = {"p.": "pp."}  # others take an s: slides, sheets, frames


def clock(seconds: float) -> str:
    """A time in a recording as players show it: 0:07, 1:02:03."""
    minutes, second = divmod(int(seconds), 60)
    return f"{minutes // 60}:{minutes % 60:02d}:{second:02d}" if minutes >= 60 else f"{minutes}:{second:02d}"


def _numbers(pages: list[int]) -> str:
    """3, or 3–5 for a run, or 3–4, 7 when a page between holds none of it."""
    runs: list[list[int]] = []
    for number in pages:
        if runs and number == runs[-1][-1] + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    return ", ".join(f"{run[0]}–{run[-1]}" if len(run) > 1 else f"{run[0]}" for run in runs)


def where(
    kind: str,
    page_count: int,
    *,
    pages: Iterable[int] = (),
    lines: tuple[int, int] | None = None,
    span: tuple[float, float] | None = None,
) -> str:
    """``pp. 3–4``: the times of a recording (``span``), else the lines of a text file, else the pages —
    named by the kind's unit; "" for a file of one page that is not a paged document."""
    pages = sorted(set(pages))
    if span is not None:
        return f"{clock(span[0])}–{clock(span[1])}"
    if lines is not None:
        return f"lines {lines[0]}–{lines[1]}" if lines[1] > lines[0] else f"line {lines[0]}"
    if pages and (kind_of(kind).paged or page_count > 1):
        unit = CITED_UNITS.get(kind, "p.")
        if len(pages) > 1:
            unit = PLURAL_UNITS.get(unit, unit + "s")
        return f"{unit} {_numbers(pages)}"
    return ""


def source(
    name: str,
    kind: str,
    page_count: int,
    *,
    section: str | None = None,
    pages: Iterable[int] = (),
    lines: tuple[int, int] | None = None,
    span: tuple[float, float] | None = None,
) -> str:
    """``report.pdf, pp. 3–4``: the file (and the member of an archive or e-mail, ``section``), then
    where in it (``where``)."""
    cited = name + (f" › {section}" if section else "")
    place = where(kind, page_count, pages=pages, lines=lines, span=span)
    return f"{cited}, {place}" if place else cited


def page_source(reading, page) -> str:
    """``source`` of one page of ``reading`` (a ``readers.models.Reading``): a text file's page by its lines."""
    lines = (page.line, page.line + page.text.count("\n")) if page.line is not None else None
    return source(
        reading.name, reading.kind, reading.page_count, section=page.section, pages=[page.number], lines=lines
    )
