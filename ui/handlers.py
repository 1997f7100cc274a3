"""The page's handlers: plain functions over plain values, no Gradio, testable without a browser.

Uploads come in as file paths; readings go out as ``Entry`` objects (one per file, with its
``Reading`` or a readable error). The layout turns entries into components.

Each file is read once, by the call the API makes (``read_file``), in a thread of its own: its pages
come as they are read (``read_file``'s ``preview``) with its progress, and the page shows them as
they come; then its whole reading. A file read before with the same options is not read again, so
removing one file, or changing one file's pages, reads nothing else.
"""

from __future__ import annotations

import contextlib
import ipaddress
import queue
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from readers import Page, ReaderError, Reading, ReadOptions, Services, read_file
from readers.errors import too_large
from readers.intake.fetch import fetch, is_url, url_name
from readers.kinds import kind_of
from readers.markup.tables import markdown_table
from readers.payload.serialize import answer_json

MAX_FILES = 10
TICK = 0.5  # seconds: while a file is read, the page is updated at most this often (a new first page at once)
STAGE_WORDS = {
    "rendered": "pages rendered",
    "described": "pages described",
    "transcribed": "seconds of audio transcribed",
}
# The status line's and file list's few words for why a file was not read, by its error's code (the card
# below says it in full): every code a reading can fail with, and the app's own TOO_MANY.
REASONS = {
    "FILE_NOT_FOUND": "no longer on the server",
    "EMPTY_FILE": "empty",
    "FILE_TOO_LARGE": "too large",
    "UNSUPPORTED_FORMAT": "not a format it reads",
    "CORRUPT_FILE": "damaged",
    "ENCRYPTED_FILE": "password-protected",
    "PAGE_OUT_OF_RANGE": "no such pages",
    "PATH_OUTSIDE_WORKSPACE": "outside the workspace",
    "INVALID_QUERY": "a setting is off",
    "RENDER_FAILED": "ran out of time",
    "VISION_FAILED": "not described",
    "TRANSCRIPTION_FAILED": "not transcribed",
    "TOO_COMPLEX": "too complex to read",
    "URL_REFUSED": "address refused",
    "FETCH_FAILED": "could not be fetched",
    "TOO_MANY": "over the 10 files",
}
# A web address's own words where its code means something else for an upload: not on the server it names.
URL_REASONS = {"FILE_NOT_FOUND": "not found at that address"}
# Failures that another try may mend: a file that failed so is read again, not kept as it was.
AGAIN = {None, "RENDER_FAILED", "TRANSCRIPTION_FAILED", "VISION_FAILED"}
# What the page sends in place of a file over MAX_FILE_MB (``ui.browser``), then its size in bytes: the
# file is refused by name, its bytes never sent, and the others are read.
NOT_SENT = b"ReadLens: over the size limit, not sent: "
DELETED = (
    "{name} was deleted from the server once read (public mode), so these are its pages as first read. "
    "Upload it again to read it with other settings."
)
GONE = (
    "{name} is no longer on the server (public mode deletes each upload "
    "once read; otherwise uploads go after a day). Upload it again."
)
Range = tuple[int | None, int | None]


@dataclass  # unhashable, so Gradio tells a State's entries apart by identity: a new entry is a change
class Entry:
    """One uploaded file as the page shows it: its reading, or why it could not be read (``error``
    and its ``code``); while it is read, the ``pages`` read so far and its ``progress``. ``options``
    are what it was read with, ``answer`` what ``/read_file`` answers for it (the JSON download and
    each page's blocks), ``hotwords`` those that steered a recording's transcript."""

    name: str
    path: str | None = None
    reading: Reading | None = None
    error: str | None = None
    done: bool = False
    note: str | None = None
    code: str | None = None
    options: ReadOptions | None = None
    pages: tuple[Page, ...] = ()
    progress: str = ""
    answer: dict | None = None
    hotwords: str | None = None

    @property
    def reason(self) -> str:
        """Why it was not read, in a few words for the status line and the file list, from its error's code."""
        if is_url(self.path) and self.code in URL_REASONS:
            return URL_REASONS[self.code]
        return REASONS.get(self.code or "", "an unexpected error")

    @property
    def shown(self) -> list[Page]:
        """The pages to show: the reading's, or those read so far."""
        return self.reading.pages if self.reading is not None else list(self.pages)


def display_name(path: str) -> str:
    """An upload's own name (Gradio keeps it as the last part of the temporary path)."""
    return Path(path).name


def _not_sent(path: Path) -> int | None:
    """The size of the file the page did not send (``NOT_SENT``), or None for a file sent."""
    with contextlib.suppress(OSError), open(path, "rb") as handle:
        head = handle.read(len(NOT_SENT) + 20)
        if head.startswith(NOT_SENT) and head[len(NOT_SENT) :].strip().isdigit():
            return int(head[len(NOT_SENT) :])
    return None


def triage(paths: list[str], max_bytes: int) -> list[str | Entry]:
    """Each upload in its order: its path, to read, or the entry that refuses it by name (beyond the
    tenth, or over ``max_bytes``, the browser's stand-in for it included)."""
    planned = []
    for index, path in enumerate(paths or []):
        name = display_name(path)
        upload = Path(path)
        size = upload.stat().st_size if upload.exists() else 0  # public mode deletes an upload once read
        size = _not_sent(upload) or size
        if index >= MAX_FILES:
            error = f"{name} was not read: at most {MAX_FILES} files can be read at once. Upload it in another batch."
            planned.append(Entry(name, path, error=error, done=True, code="TOO_MANY"))
        elif size > max_bytes:
            planned.append(
                Entry(name, path, error=too_large(name, size, max_bytes).message, done=True, code="FILE_TOO_LARGE")
            )
        else:
            planned.append(path)
    return planned


def parse_page(value) -> int | None:
    """A page-range box: empty or 0 means "not set"."""
    if value is None or value == "":
        return None
    number = int(value)
    return number if number > 0 else None


def parse_range(typed: str) -> Range | None:
    """A file's own pages, typed as "3", "3-5" or "3–5" (None when empty: the pages set for all files)."""
    numbers = [int(part) for part in typed.replace("–", "-").replace(",", "-").split("-") if part.strip().isdigit()]
    if not numbers:
        return None
    return parse_page(numbers[0]), parse_page(numbers[-1])


def unexpected(name: str, error: Exception) -> str:
    """The message for a bug rather than a bad file: the error's type only, never its text (it may hold a key)."""
    return (
        f"{name} could not be read because of an unexpected {type(error).__name__}. "
        "Try again; if it keeps happening, report it with the file."
    )


def _streamed(
    path: str, options: ReadOptions, services: Services
) -> Iterator[tuple[tuple[Page, ...], str, Reading | None]]:
    """``read_file`` in a thread: (the pages read so far, its progress, None) as they come, at most
    every ``TICK`` (a first page at once), then ((), "", the reading). Raises what ``read_file`` raises."""
    events: queue.SimpleQueue = queue.SimpleQueue()
    outcome = {}

    def run() -> None:
        try:
            outcome["reading"] = read_file(
                path, options=options, services=services, progress=lambda *step: events.put(step), preview=events.put
            )
        except BaseException as error:  # noqa: BLE001 - raised again where the reading is waited for, below
            outcome["error"] = error
        finally:
            events.put(None)

    threading.Thread(target=run, name=f"read {options.name}", daemon=True).start()
    pages, progress, shown = {}, "", 0.0
    while (event := events.get()) is not None:
        if isinstance(event, Page):
            pages[event.number] = event
        else:
            stage, done, total = event
            progress = f"{done:.0f} of {total:.0f} {STAGE_WORDS.get(stage, stage)}"
        if time.monotonic() - shown >= TICK or (isinstance(event, Page) and len(pages) == 1):
            shown = time.monotonic()
            yield tuple(pages[number] for number in sorted(pages)), progress, None
    if "error" in outcome:
        raise outcome["error"]
    yield (), "", outcome["reading"]


def _attempts(options: ReadOptions) -> list[ReadOptions]:
    """The options to read with, then, should the pages asked for be outside the file, from its first
    page asked to its last, then the whole file."""
    attempts = [options]
    if options.page_end is not None:
        attempts.append(replace(options, page_end=None))
    if options.page_start is not None:
        attempts.append(replace(options, page_start=None, page_end=None))
    return attempts


def read_one(source: str, options: ReadOptions, services: Services) -> Iterator[Entry]:
    """One file, an upload's path or a web address, read with ``options`` (under ``options.name``):
    entries with its pages as they come, then the entry of its reading, or of why it was not read.
    An address is fetched into the cache first (``readers.intake.fetch``), and its entries name the
    file fetched. Pages asked for outside the file are a note on the pages it has, not a failure."""
    name, outside, path = options.name, None, source
    attempts = _attempts(options)
    for attempt in attempts:
        try:
            path = str(fetch(source, services.settings, services.store)) if is_url(source) else source
            for pages, progress, reading in _streamed(path, replace(attempt, images=True), services):
                if reading is None:
                    yield Entry(name, path, options=options, pages=pages, progress=progress)
                    continue
                note = _shown_instead(outside, reading) if outside else None
                hotwords = options.checked(services.settings).hotwords if reading.transcript else None
                yield Entry(
                    name,
                    path,
                    reading,
                    done=True,
                    note=note,
                    options=options,
                    answer=answer_json(reading),
                    hotwords=hotwords,
                )
            return
        except ReaderError as error:
            if error.code == "PAGE_OUT_OF_RANGE" and attempt is not attempts[-1]:
                outside = outside or error.message
                continue
            yield Entry(name, source, error=error.message, done=True, code=error.code, options=options)
            return
        except Exception as error:  # noqa: BLE001 - one file's bug must not take the others' results off the page
            yield Entry(name, source, error=unexpected(name, error), done=True, options=options)
            return


def _shown_instead(outside: str, reading: Reading) -> str:
    unit = kind_of(reading.kind).unit  # as the sentence before it says it
    first, last = reading.pages[0].number, reading.pages[-1].number
    return (
        f"{outside} Shown instead: {unit}s {first}–{last}."
        if last > first
        else f"{outside} Shown instead: {unit} {first}."
    )


def read_uploads(
    paths: list[str] | None,
    options: ReadOptions,
    services: Services,
    previous: list[Entry] = (),
    discard: Callable[[str], None] | None = None,
    ranges: dict[str, Range] | None = None,
    addresses: str = "",
) -> Iterator[list[Entry]]:
    """Read every upload, then every web address in ``addresses`` (separated by spaces or lines;
    https:// is assumed where none is written), in turn with ``options`` (each under its own name,
    an address's its URL; an upload with its own pages from ``ranges`` when set there), yielding the
    whole list each time something new is on screen: first every file, waiting its turn, then each
    file's pages as they come.

    Each yield is a new list, so a listener sees every step as a change; when nothing would change
    (every upload already read with the same options, which keeps its ``previous`` entry, unread),
    nothing is yielded, so the pages are not drawn again and a table opened stays open. An address is
    fetched and read each time.
    One file's failure is that file's entry; the others are still read. ``discard`` (public mode)
    deletes each upload once read; an upload already deleted keeps its ``previous`` entry, with a note.
    """
    planned = triage(paths or [], services.settings.max_file_bytes)
    earlier = {entry.path: entry for entry in previous}
    entries, waiting = [], []
    for item in planned:
        if isinstance(item, Entry):
            entries.append(item)
            if discard is not None:
                discard(item.path)
            continue
        name = display_name(item)
        first, last = (ranges or {}).get(item, (options.page_start, options.page_end))
        wanted = replace(options, name=name, page_start=first, page_end=last)
        before = earlier.get(item)
        kept = before is not None and before.done and (before.reading is not None or before.code not in AGAIN)
        if kept and before.options == wanted:
            entries.append(before)
        elif not Path(item).exists():
            entries.append(_gone(name, item, before))
        else:
            waiting.append(len(entries))
            entries.append(Entry(name, item, options=wanted, progress="waiting its turn"))
    for url in (url if is_url(url) else f"https://{url}" for url in addresses.split()):
        waiting.append(len(entries))
        entries.append(
            Entry(url_name(url), url, options=replace(options, name=url_name(url)), progress="waiting its turn")
        )
    if entries != list(previous):  # a field left or set back, the files as they were: the pages are not drawn again
        yield list(entries)
    for index in waiting:
        path, wanted = entries[index].path, entries[index].options
        try:
            for entries[index] in read_one(path, wanted, services):
                yield list(entries)
        finally:
            if discard is not None and not is_url(path):
                discard(path)


def _gone(name: str, path: str, before: Entry | None) -> Entry:
    """The entry of an upload no longer on the server: what was read from it before, or why not."""
    if before is None:
        return Entry(name, path, error=GONE.format(name=name), done=True, code="FILE_NOT_FOUND")
    return replace(before, done=True, note=DELETED.format(name=name) if before.reading else None)


def visitor(request, proxies: tuple[str, ...]) -> str | None:
    """Who is asking, for public mode's per-visitor limit (None outside a request): the client's
    address; or, when that is one of the trusted ``proxies`` (``FORWARDED_ALLOW_IPS``: a Space's
    proxy, Gradio's own MCP server calling the app), the address its X-Forwarded-For names last that
    is no trusted proxy. Each proxy adds the address it was reached from at the end; what stands
    before is whatever the client sent, so a direct client's header is never believed."""
    if request is None or request.client is None:
        return None
    host = request.client.host
    if not _trusted(host, proxies):
        return host
    hops = [hop.strip() for hop in request.headers.get("x-forwarded-for", "").split(",") if hop.strip()]
    return next((hop for hop in reversed(hops) if not _trusted(hop, proxies)), hops[0] if hops else host)


def _trusted(address: str, proxies: tuple[str, ...]) -> bool:
    if "*" in proxies:
        return True
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:  # no address (Starlette's test client says "testclient")
        return False
    return any(
        ip.is_private if entry == "private" else ip in ipaddress.ip_network(entry, strict=False) for entry in proxies
    )


def discard_upload(path: str) -> None:
    """Delete an uploaded file, and the folder Gradio made for it (named by its content) when that is left empty."""
    upload = Path(path)
    upload.unlink(missing_ok=True)
    with contextlib.suppress(OSError):
        upload.parent.rmdir()


def cache_summary(services: Services) -> str:
    """The cache panel's line: where the cache is and how much it holds."""
    megabytes = (services.store.size_bytes() + services.cache.size_bytes()) / 1048576
    return (
        f"Cache at `{services.settings.cache_dir}`: {megabytes:.1f} MB — "
        f"renders, extracted pages and {len(services.cache)} descriptions."
    )


def clear_cache(services: Services) -> str:
    """Empty the cache, except in public mode, where every visitor shares it: then the panel says so."""
    if services.settings.public:
        return f"Clearing the cache is off in public mode (READLENS_PUBLIC). {cache_summary(services)}"
    services.store.clear()
    services.cache.clear()
    return cache_summary(services)


def backends_line(services: Services) -> str:
    """The status line of what describes and transcribes here, and how to change it (never a key)."""
    settings, vision = services.settings, services.vision
    if vision is None:
        described = "none (`VISION_PROVIDER=none`): pages are not described"
    elif vision.answers_questions:
        described = f"vision model **{vision.model}** at {settings.vision_base_url or 'OpenAI'}"
    else:
        described = (
            "**local OCR** (rapidocr), which reads the text in figures but answers no question — "
            "set `VISION_BASE_URL` and `VISION_MODEL` for a vision model"
        )
    heard = " then ".join(f"**{backend.source}**" for backend in services.transcriber.backends)
    return f"**Descriptions:** {described} · **Audio:** {heard} (`LOCAL_WHISPER_MODEL`, `WHISPER_BASE_URL`)"


def limits_table(settings) -> str:
    """The limits in force, each with the setting that changes it, as Markdown."""
    rows = [
        ("Files at once", f"{MAX_FILES}", "(fixed)"),
        ("Size of a file", f"{settings.max_file_mb:g} MB", "`MAX_FILE_MB`"),
        ("Pages read at once", f"{settings.max_pages}", "`MAX_PAGES`"),
        ("Longest side of a page image", f"{settings.max_image_side} px", "`MAX_IMAGE_SIDE`"),
        ("Page renders", f"{settings.render_dpi} dpi", "`RENDER_DPI`"),
        ("Longest recording", f"{settings.max_audio_minutes:g} minutes", "`MAX_AUDIO_MINUTES`"),
        ("Vision calls at once", f"{settings.vision_concurrency}", "`VISION_CONCURRENCY`"),
    ]
    if settings.public:
        rows.append(
            ("Vision calls a minute per visitor", f"{settings.vision_calls_per_minute}", "`VISION_CALLS_PER_MINUTE`")
        )
    return markdown_table([["Limit", "In force", "Setting"], *rows])
