"""The search box over the files the page holds: ``/find``'s answer (``ui.tools.find_json``) for each
file read, from the readings already made (no new read), as Markdown with a link to each page."""

from __future__ import annotations

import dataclasses

from readers import ReaderError, Reading
from readers.kinds import kind_of

from .handlers import Entry
from .tools import find_json

SHOWN_HITS = 20  # a file's matching lines listed, as /find's default max_hits
CONTEXT_LINES = 1  # lines shown round each match


def held(reading: Reading):
    """``find_json``'s read over a reading in hand: its pages in the range asked, nothing read again."""
    return lambda first, last, **_: dataclasses.replace(
        reading, pages=[page for page in reading.pages if first <= page.number <= last]
    )


def search_results(entries: list[Entry], query: str, regex: bool, max_pages: int) -> str:
    """Each read file's matching lines (at most ``SHOWN_HITS``), under its name and how many match,
    each page a link to its place on the page, lines near each other shown once; or why the query cannot
    be searched."""
    if not (query or "").strip():
        return ""
    read = [(index, entry) for index, entry in enumerate(entries) if entry.reading is not None]
    if not read:
        return "Nothing is read yet: upload a file, then search it."
    parts = []
    for index, entry in read:
        try:
            found = find_json(held(entry.reading), query, regex, None, None, CONTEXT_LINES, SHOWN_HITS, max_pages)
        except ReaderError as error:
            return f"⚠️ {error.message}"
        count, unit = found["hit_count"], kind_of(entry.reading.kind).unit
        shown = f" (the first {SHOWN_HITS} shown)" if found["capped"] else ""
        parts.append(f"**{entry.name}** — {count} matching line{'s' * (count != 1)} in {found['searched']}{shown}")
        for hit in found["hits"]:
            where = f"{unit} {hit['page']}" if "page" in hit else "transcript"
            link = f"[{where}](#rl-file-{index}-page-{hit['page']})" if "page" in hit else where
            lines = f"lines {', '.join(map(str, hit['lines']))}" if len(hit["lines"]) > 1 else f"line {hit['line']}"
            parts.append(f"{link}, {lines} ({hit['in']}):\n```text\n{hit['context']}\n```")
    return "\n\n".join(parts)
