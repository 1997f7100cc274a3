"""The page's handlers: plain functions over plain values, no Gradio, testable without a browser.

Uploads come in as file paths; readings go out as ``Entry`` objects (one per file, with its
``Reading`` or a readable error). The layout turns entries into components.
"""

from __future__ import annotations

import contextlib
import ipaddress
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from readers import ReaderError, Reading, ReadOptions, Services, read_file
from readers.intake.detect import detect
from readers.intake.fetch import fetch, is_url, url_name
from readers.job import Progress
from readers.kinds import kind_of
from readers.markup.tables import markdown_table

MAX_FILES = 10
STAGE_WORDS = {
    "rendered": "pages rendered",
    "described": "pages described",
    "transcribed": "seconds of audio transcribed",
}
DELETED = (
    "{name} was deleted from the server once read (public mode), so these are its pages as first read. "
    "Upload it again to read it with other settings."
)
GONE = (
    "{name} is no longer on the server (public mode deletes each upload "
    "once read; otherwise uploads go after a day). Upload it again."
)


@dataclass
class Entry:
    """One uploaded file as the page shows it: its reading, or why it could not be read."""

    name: str
    path: str | None = None
    reading: Reading | None = None
    error: str | None = None
    done: bool = False
    note: str | None = None


def display_name(path: str) -> str:
    """An upload's own name (Gradio keeps it as the last part of the temporary path)."""
    return Path(path).name


def triage(paths: list[str], max_bytes: int) -> tuple[list[str], list[Entry]]:
    """Split uploads into the ones to read and the refused ones, each refusal naming its file."""
    accepted, refused = [], []
    for index, path in enumerate(paths or []):
        name = display_name(path)
        size = Path(path).stat().st_size if Path(path).exists() else 0  # public mode deletes an upload once read
        if index >= MAX_FILES:
            refused.append(
                Entry(
                    name,
                    path,
                    error=(
                        f"{name} was not read: at most {MAX_FILES} files can be "
                        "read at once. Upload it in another batch."
                    ),
                    done=True,
                )
            )
        elif size > max_bytes:
            refused.append(
                Entry(
                    name,
                    path,
                    error=(
                        f"{name} was not read: it is {size / 1048576:.1f} MB and "
                        f"the limit is {max_bytes / 1048576:g} MB per file."
                    ),
                    done=True,
                )
            )
        else:
            accepted.append(path)
    return accepted, refused


def parse_page(value) -> int | None:
    """A page-range box: empty or 0 means "not set"."""
    if value is None or value == "":
        return None
    number = int(value)
    return number if number > 0 else None


def unexpected(name: str, error: Exception) -> str:
    """The message for a bug rather than a bad file: the error's type only, never its text (it may hold a key)."""
    return (
        f"{name} could not be read because of an unexpected {type(error).__name__}. "
        "Try again; if it keeps happening, report it with the file."
    )


def visual_kind(path: str, name: str) -> str | None:
    """The file's kind when it may have page images to show (documents, images, archives and
    e-mails of them), else None; from its bytes (``name`` is a hint)."""
    kind = detect(Path(path), name).kind
    return kind if kind_of(kind).visual or kind_of(kind).container else None


def read_progressively(path: str, options: ReadOptions, services: Services, progress: Progress) -> Iterator[Reading]:
    """Yield the first requested page as soon as it is rendered, then exactly what ``read_file`` returns,
    with page images (the app shows every page).

    The early reading skips descriptions (a vision call can take seconds); the whole reading takes
    that page from the cache and describes every page. The file's verdict is the whole reading's,
    exactly as the API's: a first page that cannot be read alone (a damaged page) only shows nothing early.
    """
    try:
        kind = visual_kind(path, options.name)
    except ReaderError:  # read_file says why in its own words, its checks first (an empty file is empty)
        kind = None
    if kind and kind_of(kind).visual:  # audio, text and containers (read whole) have no first page worth showing early
        first = options.page_start or 1
        shown = replace(options, page_start=first, page_end=first, describe=None, multimodal=True, images=True)
        try:
            early = read_file(path, options=shown, services=services, progress=progress)
        except ReaderError:
            early = None
        if early is not None:
            early.multimodal = bool(options.multimodal)
            yield early
    yield read_file(path, options=replace(options, images=True), services=services, progress=progress)


def read_uploads(
    paths: list[str] | None,
    options: ReadOptions,
    services: Services,
    progress: Progress | None = None,
    previous: list[Entry] = (),
    discard: Callable[[str], None] | None = None,
    addresses: str = "",
) -> Iterator[list[Entry]]:
    """Read every upload, then every web address in ``addresses`` (separated by spaces or lines;
    https:// is assumed where none is written), in turn with ``options``, each under its own name
    (an address's is its URL), yielding the whole list each time something new is on screen.

    Each yield is a new list of new entries, so a listener sees every step as a change. One file's
    failure is that file's entry; the others are still read. ``discard`` (public mode) deletes each
    upload once read; an upload already deleted keeps its ``previous`` entry, with a note. An
    address is fetched into the cache once a read (``readers.intake.fetch``).
    """
    report = progress or (lambda stage, done, total: None)
    accepted, entries = triage(paths or [], services.settings.max_file_bytes)
    earlier = {entry.path: entry for entry in previous}
    if discard is not None:
        for path in set(paths or []) - set(accepted):  # refused unread
            discard(path)
    urls = [url if is_url(url) else f"https://{url}" for url in addresses.split()]
    for source in [*accepted, *urls]:
        name = url_name(source) if is_url(source) else display_name(source)
        if not is_url(source) and not Path(source).exists():
            entries.append(_gone(name, source, earlier.get(source)))
            continue
        entries.append(Entry(name, source))
        index = len(entries) - 1
        labelled = lambda stage, done, total, name=name: report(f"{name}: {STAGE_WORDS.get(stage, stage)}", done, total)
        try:
            path = str(fetch(source, services.settings, services.store)) if is_url(source) else source
            for reading in read_progressively(path, replace(options, name=name), services, labelled):
                entries[index] = Entry(name, path, reading)
                yield list(entries)
            entries[index] = Entry(name, path, entries[index].reading, done=True)
        except ReaderError as error:
            entries[index] = Entry(name, source, error=error.message, done=True)
        except Exception as error:  # noqa: BLE001 - one file's bug must not take the others' results off the page
            entries[index] = Entry(name, source, error=unexpected(name, error), done=True)
        finally:
            if discard is not None and not is_url(source):
                discard(source)
    yield list(entries)


def _gone(name: str, path: str, before: Entry | None) -> Entry:
    """The entry of an upload no longer on the server: what was read from it before, or why not."""
    if before is None:
        return Entry(name, path, error=GONE.format(name=name), done=True)
    return Entry(
        name, path, before.reading, before.error, done=True, note=DELETED.format(name=name) if before.reading else None
    )


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
