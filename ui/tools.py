"""What an agent needs beyond a page range, for the endpoints in ``ui.api``: ``read_file``'s answers
within a token budget (``max_tokens``, ``cursor``), a file's outline (``/outline``) and the pages where
a query is found (``/find``).

A budgeted answer holds as many whole pages as fit (``readers.payload.budget``) and says what is
left and the exact call that goes on. Over MCP the budget is ``MCP_MAX_TOKENS`` unless the agent sets
one, and the pages in an answer leave out their text, tables, description and blocks, which ``text``
holds already: a model reads an MCP answer whole, so it would read them twice. The outline and ``find``
read the whole file (or the range asked) in runs of ``MAX_PAGES`` pages, as an agent reading it from
its first page gets them, so their counts are those of the answers.
"""

from __future__ import annotations

import itertools
import json
import sys
from collections.abc import Callable, Iterator

from readers import ReaderError, Reading
from readers.kinds import kind_of
from readers.notices import Code, part_of_file
from readers.payload.budget import Cursor, Fitted, answer_count, default_count, fit, page_tokens
from readers.payload.outline import heading_tree, outline_pages
from readers.payload.search import Search, compile_query, hit_block, merged
from readers.payload.serialize import notices_json

MCP_MAX_TOKENS = 20_000
MAX_HITS = 200
MAX_CONTEXT_LINES = 10
PAGE_TEXT = ("text", "tables", "description", "blocks")  # what the answer's text holds already
Read = Callable[..., Reading]  # read(page_start, page_end, multimodal=...) of the file in hand


def token_budget(max_tokens, mcp: bool) -> int | None:
    """The budget asked for; empty or 0 is ``MCP_MAX_TOKENS`` over MCP and no limit otherwise."""
    if max_tokens in (None, "", 0):
        return MCP_MAX_TOKENS if mcp else None
    if max_tokens < 0 or max_tokens != int(max_tokens):
        raise ReaderError(
            "INVALID_QUERY",
            f"max_tokens must be a whole number of tokens, such as 20000, not {max_tokens!r}. "
            f"0 or empty takes the default: {MCP_MAX_TOKENS:,} over MCP, no limit through gradio_client.",
        )
    return int(max_tokens)


def for_agents(answer: dict) -> dict:
    """An answer as an MCP client gets it: no ``messages`` (megabytes of base64 its model would read
    as text), and pages without the text, tables, description and blocks that ``text`` holds (a
    block's box costs as many tokens as a short paragraph's words: with them the answer would be twice
    its budget; ``find`` gives the block and box of each hit), or the fields they leave empty."""
    answer.pop("messages", None)
    answer["pages"] = [
        {key: value for key, value in page.items() if key not in PAGE_TEXT and value not in (None, [])}
        for page in answer["pages"]
    ]
    return answer


def _span(numbers: list[int], unit: str) -> str:
    return f"{unit}s {numbers[0]}-{numbers[-1]}" if len(numbers) > 1 else f"{unit} {numbers[0]}"


def file_arguments(sent: str, name: str) -> str:
    """How the call that goes on sends the same file, as it was sent (``sent``): "url" (``name`` is
    the URL), "inline", or as the same upload or Gradio's URL ("file")."""
    if sent == "url":
        return f"url={json.dumps(name)}"
    return f"file_base64=<the same file>, file_name={json.dumps(name)}" if sent == "inline" else "file=<the same file>"


def continue_call(file_arguments: str, arguments: dict, position: Cursor) -> str:
    """The call that goes on from ``position``, with the other ``arguments`` given (those set)."""
    step = {"cursor": str(position)} if position.offset else {"page_start": position.page}
    given = {
        name: value
        for name, value in arguments.items()
        if name not in ("page_start", "cursor") and value not in (None, "", False, 0)
    }
    shown = [
        f"{name}={json.dumps(value) if isinstance(value, str) else value}" for name, value in {**step, **given}.items()
    ]
    return f"read_file({', '.join([file_arguments, *shown])})"


class Budget:
    """``read_file`` within ``max_tokens`` (None: no limit), from ``start`` (a cursor, or None)."""

    def __init__(self, max_tokens: int | None, start: Cursor | None, line_numbers: bool):
        self.max_tokens, self.start, self.count = max_tokens, start, answer_count(line_numbers)

    @property
    def active(self) -> bool:
        return self.max_tokens is not None or bool(self.start and self.start.offset)

    def fit(self, reading: Reading) -> Fitted:
        if not reading.pages:  # a recording's transcript, or a container with nothing readable: not cut
            tokens = self.count(reading)
            if self.max_tokens is not None and tokens > self.max_tokens:
                raise ReaderError(
                    "INVALID_QUERY",
                    f"max_tokens={self.max_tokens:,} is too small for {reading.name}: its "
                    f"{'transcript' if reading.transcript else 'answer'} takes {tokens:,} tokens and is not cut. "
                    f"Raise max_tokens to at least {tokens:,}.",
                )
            return Fitted(reading, tokens, None, Cursor(1))
        return fit(reading, self.max_tokens or sys.maxsize, self.start, self.count)

    def report(self, fitted: Fitted, reading: Reading, last: int, file_arguments: str, arguments: dict) -> dict:
        """The answer's ``budget``: its tokens, what it holds, what is left and the call that goes on."""
        unit = kind_of(reading.kind).unit
        position = fitted.next
        if (
            position is None and reading.pages and reading.pages[-1].number < last
        ):  # MAX_PAGES stopped the reading first
            position = Cursor(reading.pages[-1].number + 1)
        here, left, call = self._here(fitted, reading, unit), None, None
        if position is not None:
            rest = list(range(position.page + (1 if position.offset else 0), last + 1))
            left = ", then ".join(
                part
                for part in [
                    f"{unit} {position.page} from character {position.offset:,}" if position.offset else "",
                    _span(rest, unit) if rest else "",
                ]
                if part
            )
            call = continue_call(file_arguments, {**arguments, "max_tokens": self.max_tokens}, position)
        limit = f"max_tokens={self.max_tokens:,}" if self.max_tokens is not None else "no max_tokens"
        note = f"This answer holds {here} ({fitted.tokens:,} tokens; {limit}). " + (
            f"Left: {left}. To go on, call {call}." if call else f"Nothing is left of the {unit}s asked for."
        )
        return {
            "max_tokens": self.max_tokens,
            "tokens": fitted.tokens,
            "pages": [page.number for page in fitted.reading.pages],
            "left": left,
            "next": ({"cursor": str(position)} if position.offset else {"page_start": position.page})
            if position
            else None,
            "call": call,
            "note": note,
        }

    @staticmethod
    def _here(fitted: Fitted, reading: Reading, unit: str) -> str:
        pages, start, position = fitted.reading.pages, fitted.first, fitted.next
        if not pages:
            return "the whole transcript" if reading.transcript else "nothing"
        size = len(reading.pages[0].text)
        if position is not None and position.page == pages[0].number:  # a piece of a page longer than the budget
            return f"{unit} {start.page}, characters {start.offset:,}-{position.offset:,} of {size:,}"
        whole = [page.number for page in pages[1:]] if start.offset else [page.number for page in pages]
        parts = [f"{unit} {start.page} from character {start.offset:,}"] if start.offset else []
        return ", then ".join(parts + ([_span(whole, unit)] if whole else []))


def windows(read: Read, first: int | None, last: int | None, max_pages: int, **options) -> Iterator[Reading]:
    """The pages ``first``-``last`` (None: the start, the end) in readings of ``max_pages`` pages
    at most; first the first page alone, to learn how many there are. A recording is one reading."""
    start = first or 1
    probe = read(start, start, **options)
    if not probe.pages:
        yield probe
        return
    end = last or probe.page_count
    for window in range(start, end + 1, max_pages):
        yield read(window, min(window + max_pages - 1, end), **options)


def _said(readings: list[Reading]) -> dict:
    """What the readings say beside their pages, each once: ``warnings`` and ``notices`` (with codes).
    Each run of pages is part of the file; what they read together is said once, if it is."""
    notices = [notice for reading in readings for notice in reading.notices if notice.code != Code.PART_OF_FILE]
    read, first = [page.number for reading in readings for page in reading.pages], readings[0]
    if read and len(read) < first.page_count:
        unit = kind_of(first.kind).unit
        notices.append(part_of_file(first.name, unit, min(read), max(read), first.page_count))
    notices = list(dict.fromkeys(notices))
    return {"warnings": [notice.text for notice in notices], "notices": notices_json(notices)}


def outline_json(read: Read, first: int | None, last: int | None, max_pages: int) -> dict:
    """``/outline``'s answer: every page's tokens in both modes, tables, figures, and the headings."""
    rows, found, readings = [], [], []
    for text_only in windows(read, first, last, max_pages, multimodal=False):
        readings.append(text_only)
        if not text_only.pages:
            break
        multimodal = read(text_only.pages[0].number, text_only.pages[-1].number, multimodal=True)
        page_rows, page_headings = outline_pages(text_only, multimodal)
        rows += page_rows
        found += page_headings
    reading = readings[0]
    unit = kind_of(reading.kind).unit
    answer = {
        "name": reading.name,
        "kind": reading.kind,
        "page_count": reading.page_count,
        "pages": rows,
        "headings": heading_tree(found),
        "tokens": {mode: sum(row[mode] for row in rows) for mode in ("text_only", "multimodal")},
    }
    if reading.transcript is not None:
        tokens = default_count(reading)
        answer.update(
            duration=reading.transcript.duration,
            language=reading.transcript.language,
            tokens={"text_only": tokens, "multimodal": tokens},
        )
        answer["note"] = (
            f"A recording: its transcript is {tokens:,} tokens. read_file "
            "gives it whole (raise max_tokens to at least that)."
        )
    else:
        answer["note"] = (
            f"Tokens are OpenAI's (o200k_base) for each {unit} read alone, "
            "text-only (text and visual descriptions) and "
            f"multimodal (text and image). Read {unit}s with read_file(page_start=..., "
            "page_end=..., max_tokens=...); find "
            f"searches them."
        )
    return answer | _said(readings)


def _block_of(page, where: str, hit) -> dict:
    """The kind and box of the block a hit in a page's text is in (its box lights it on the page)."""
    block = hit_block(page, hit) if page and where == "text" else None
    return {"block": str(block.kind), "box": block.box} if block else {}


def find_json(
    read: Read, query: str, is_regex: bool, first: int | None, last: int | None, context, max_hits, max_pages: int
) -> dict:
    """``/find``'s answer: the lines where ``query`` matches, page by page, at most ``max_hits``; the lines
    round matches near each other are shown once, in one hit (``readers.payload.search.merged``)."""
    context = min(MAX_CONTEXT_LINES, max(0, int(context if context is not None else 2)))
    max_hits = min(MAX_HITS, max(1, int(max_hits or 20)))
    search = Search(compile_query(query, bool(is_regex)), context)
    hits, pages, readings = [], [], []
    for reading in windows(read, first, last, max_pages, multimodal=False):
        readings.append(reading)
        if reading.transcript is not None:
            found = [
                (None, "transcript", hit)
                for hit in search.hits(reading.transcript.text, 1, f"{reading.name}'s transcript")
            ]
            hits += found
            continue
        counts = None
        for index, page in enumerate(reading.pages):
            where = f"{reading.name}, {kind_of(reading.kind).unit} {page.number}"
            found = [(page, "text", hit) for hit in search.hits(page.text, page.line or 1, where)]
            found += [(page, "visual content", hit) for hit in search.hits(page.description or "", 1, where)]
            if found:
                counts = counts or page_tokens(reading)
                pages.append({"number": page.number, "hits": len(found), "tokens": counts[index]})
                hits += found
    reading = readings[0]
    unit = kind_of(reading.kind).unit
    shown = []
    for _, run in itertools.groupby(hits[:max_hits], key=lambda found: (id(found[0]), found[1])):
        run = list(run)
        page, where = run[0][:2]
        shown += [
            {
                **({"page": page.number} if page else {}),
                **({"section": page.section} if page and page.section else {}),
                "line": hit.line,
                "lines": list(hit.starts),
                "in": where,
                "context": hit.context,
                **_block_of(page, where, hit),
            }
            for hit in merged([found[2] for found in run])
        ]
    searched = [page.number for reading in readings for page in reading.pages]
    span = _span(searched, unit) if searched else "the transcript"
    if not hits:
        note = f"No match in {span} of {reading.name}."
    elif len(hits) > max_hits:
        note = (
            f"Capped: the first {max_hits} of {len(hits)} matching lines "
            f"are shown, on {len(pages)} {unit}s. Narrow the query, "
            f"search fewer {unit}s (page_start, page_end), or raise max_hits (at most {MAX_HITS})."
        )
    else:
        note = f"{len(hits)} matching {'line' if len(hits) == 1 else 'lines'} in {span}." + (
            f" Read a {unit} with read_file(page_start=N, page_end=N)." if pages else ""
        )
    return {
        "name": reading.name,
        "kind": reading.kind,
        "page_count": reading.page_count,
        "query": query,
        "regex": bool(is_regex),
        "searched": span,
        "pages": pages,
        "hits": shown,
        "hit_count": len(hits),
        "capped": len(hits) > max_hits,
        "note": note,
        **_said(readings),
    }
