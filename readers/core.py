"""``read_file``: check the options, confine, detect once, hand the job to its kind's reader
(``readers.formats.read``), describe.

Nothing but ``ReaderError`` leaves it: see ``readers.errors.last_resort``.
"""

from __future__ import annotations

import os
import stat
import zipfile
from dataclasses import replace
from pathlib import Path

from .errors import ReaderError, last_resort, time_budget, too_large
from .formats import read
from .intake.detect import detect, misnamed
from .intake.fetch import fetch, is_url, url_name
from .intake.links import links_warning
from .intake.package import readable_package
from .job import Job, Preview, Progress, no_progress, pictured
from .kinds import SOURCE_EXTENSION, kind_of
from .markup.blocks import paragraphs
from .models import Reading
from .notices import CACHED, Code, Notice
from .options import ReadOptions
from .render.libreoffice import ooxml_copy
from .services import Services, shared_services
from .settings import Settings
from .storage.files import file_sha256

# What a reading gives back is bounded as what it reads is: a page's text past a million characters
# (some 250,000 tokens: more than a model takes at once) is cut, and the warnings past the fiftieth
# and each past 2,000 characters (a list of 100,000 figures was 7 MB) too, each saying so.
MAX_PAGE_CHARS = 1_000_000
MAX_WARNINGS = 50
MAX_WARNING_CHARS = 2_000


def _resolve(path: str | os.PathLike, workspace: str | os.PathLike | None) -> Path:
    """The file ``path`` names, its links followed (a dataset's cache, a build's output), confined to
    ``workspace`` when one is given: a link that leads out of it is refused."""
    candidate = Path(path).expanduser()
    if workspace is None:
        return candidate.resolve()
    root = Path(workspace).resolve()
    resolved = (root / candidate).resolve()
    if resolved != root and root not in resolved.parents:
        raise ReaderError(
            "PATH_OUTSIDE_WORKSPACE",
            f"{path} is outside the workspace this reader is confined to. Use a path inside {root.name}/.",
        )
    return resolved


def _special(mode: int) -> str:
    """What a file that is no regular file nor a folder is, in words."""
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "a socket" if stat.S_ISSOCK(mode) else "a special file"


def _pictured(package: Path) -> bool:
    """Whether an Office package holds pictures (a media folder's parts): local OCR will read them."""
    try:
        with zipfile.ZipFile(package) as archive:
            return any("/media/" in name for name in archive.namelist())
    except (OSError, zipfile.BadZipFile):
        return False


def read_file(
    path: str | os.PathLike,
    page_start: int | None = None,
    page_end: int | None = None,
    describe: str | None = None,
    multimodal: bool | None = None,
    workspace: str | os.PathLike | None = None,
    *,
    hotwords: str | None = None,
    images: bool | None = None,
    options: ReadOptions | None = None,
    settings: Settings | None = None,
    services: Services | None = None,
    progress: Progress | None = None,
    preview: Preview | None = None,
) -> Reading:
    """Read one file, or a file named by its http(s) URL, and return what a model receives from it.

    A URL is fetched within the rules of ``readers.intake.fetch`` (public addresses only, unless
    ``URL_ALLOW`` names others; at most ``MAX_FILE_MB``; time-outs; at most 5 redirects), read by its
    bytes and Content-Type as a file would be, and named by its URL.

    ``page_start``/``page_end`` are 1-based and inclusive; ``describe`` asks a question about
    each page's visuals; ``multimodal=None`` takes ``MODEL_MULTIMODAL`` from settings;
    ``workspace`` refuses paths that resolve outside that folder. ``hotwords`` (audio) are names
    and terms the transcription should expect; None takes ``WHISPER_HOTWORDS`` from settings, ""
    uses none. ``images`` asks for page images (``page.image``, and ``reading.pdf`` for
    ``as_messages(document=True)``); None builds them when the answer needs them: in multimodal
    mode, for a question, or for a vision model that looks at whole pages. Without them a deck or
    a workbook is read with no LibreOffice at all.

    ``options`` (``readers.options.ReadOptions``) stands for all of these at once, as the command
    line, batch and the app pass them; give it or them, not both. ``settings`` or ``services``
    (vision model, cache, transcriber) are built from the environment when not given; ``progress``
    is called with ``(stage, done, total)`` as pages are rendered, described or transcribed.
    ``preview`` is called with each page of a paged document (a PDF, or an Office file or web page
    printed for its images) as soon as it is read, before the whole reading is: its render, and a
    PDF page's text as that page alone gives it (running headers and footers, the headings' levels
    and words broken over lines are settled over all the pages read, and descriptions come after),
    so a page can be shown while the others are read; the ``Reading`` returned holds the final pages.
    Raises ``ReaderError`` for anything a person can fix.
    """
    given = ReadOptions(page_start, page_end, describe, multimodal, images, hotwords, workspace=workspace)
    if options is not None and given != ReadOptions():
        raise TypeError("read_file takes options or its keyword options, not both")
    services = services or shared_services(settings or Settings.from_env())
    options = (options or given).checked(services.settings)
    if isinstance(path, str) and is_url(path):  # fetched into the cache (readers.intake.fetch), read as its URL
        name = options.name or url_name(path)
        options = replace(options, name=name, workspace=None)
        with last_resort(name):
            path = fetch(path, services.settings, services.store)
    return _read(path, options, services, progress or no_progress, preview)


def _read(
    path: str | os.PathLike, options: ReadOptions, services: Services, progress: Progress, preview: Preview | None
) -> Reading:
    """Confine, check, detect once, hand the job to its kind's reader, then describe its pages."""
    settings = services.settings
    try:
        resolved = _resolve(path, options.workspace)
        facts = resolved.stat() if resolved.exists() else None  # a link to a file is followed to it
    except (OSError, ValueError) as error:  # a name too long, a NUL byte, a folder we may not enter
        raise ReaderError(
            "FILE_NOT_FOUND",
            f"{options.name or path} could not be opened ({type(error).__name__}). Check the path and try again.",
        ) from None
    shown = options.name or Path(path).name or resolved.name  # a link is named as it was given, not as its target
    mode, size = (facts.st_mode, facts.st_size) if facts else (0, 0)
    found, folder = stat.S_ISREG(mode), stat.S_ISDIR(mode)
    if facts and not found and not folder:  # a FIFO (reading it would wait for a writer), a device, a socket
        raise ReaderError(
            "UNSUPPORTED_FORMAT",
            f"{shown} is not a regular file (it is {_special(mode)}): it has no content to read. Give a file's path.",
        )
    if not found:
        raise ReaderError(
            "FILE_NOT_FOUND",
            f"{shown} was not found{' (it is a folder)' if folder else ''}. Check the path and try again.",
        )
    if size == 0:
        raise ReaderError(
            "EMPTY_FILE", f"{shown} is empty (0 bytes). Upload the file again; it may not have been saved completely."
        )
    if size > settings.max_file_bytes:
        raise too_large(shown, size, settings.max_file_bytes)
    with last_resort(shown):
        # every step that reads the file works within its time budget; describing the pages has its own bounds
        with time_budget(settings.read_timeout, shown):
            detected = detect(resolved, shown)
            if options.images is None:
                options = replace(options, images=pictured(options, services))
            job = Job(
                resolved,
                shown,
                size,
                file_sha256(resolved),
                detected.kind,
                detected.mime,
                options,
                services,
                progress,
                read_file,
                preview,
            )
            notices = [Notice(Code.MISNAMED, warning)] if (warning := misnamed(shown, detected)) else []
            if warning := links_warning(job):
                notices.append(Notice(Code.LINKED_CONTENT, warning))
            if job.mime in SOURCE_EXTENSION:  # legacy or ODF Office: read LibreOffice's OOXML copy with its reader
                job = replace(job, path=ooxml_copy(job, notices))
            if kind_of(job.kind).package:
                job = replace(job, path=readable_package(job, notices))
                if not options.multimodal and getattr(services.vision, "source", None) == "ocr" and _pictured(job.path):
                    from .describe.ocr import load_soon

                    load_soon()
            reading = read(job)
        reading.notices[:0] = notices
        if kind_of(reading.kind).visual and (options.describe or not reading.multimodal):
            from .describe.vision import describe_reading

            describe_reading(reading, job)
        if settings.public:
            _unmarked(reading)
        _bounded(reading)
        return reading


def _unmarked(reading: Reading) -> None:
    """In public mode a visitor's reading does not show whether anyone read the same bytes before: no
    description or transcript says it came from the cache, and the cache's hits count as the calls
    they stood in for."""
    for page in reading.pages:
        if page.description_source:
            page.description_source = page.description_source.removesuffix(CACHED)
    if reading.transcript is not None:
        reading.transcript = replace(reading.transcript, source=reading.transcript.source.removesuffix(CACHED))
    reading.usage.calls, reading.usage.cache_hits = reading.usage.calls + reading.usage.cache_hits, 0


def _bounded(reading: Reading) -> None:
    """``reading`` held to ``MAX_PAGE_CHARS`` a page, ``MAX_WARNINGS`` warnings and ``MAX_WARNING_CHARS`` each,
    with what was left out said."""
    for page in reading.pages:
        if len(content := page.text) > MAX_PAGE_CHARS:
            from .payload.budget import piece  # the tokenizer it loads is wanted only here

            page.blocks = piece(page, 0, MAX_PAGE_CHARS, True).blocks + paragraphs(
                f"[{len(content) - MAX_PAGE_CHARS:,} more characters left out]"
            )
            reading.notices.append(
                Notice(
                    Code.CUT,
                    f"Page {page.number} of {reading.name} has {len(content):,} characters, more than a model reads "
                    f"at once: its first {MAX_PAGE_CHARS:,} are shown, and the rest is left out.",
                    page.number,
                )
            )
    notices = reading.notices
    for index, notice in enumerate(notices):
        if len(text := notice.text) > MAX_WARNING_CHARS:
            cut = f"{text[:MAX_WARNING_CHARS]}… ({len(text) - MAX_WARNING_CHARS:,} characters more)"
            notices[index] = replace(notice, text=cut)
    if len(notices) > MAX_WARNINGS:
        notices[MAX_WARNINGS - 1 :] = [
            Notice(
                Code.NOTICES_CUT,
                f"… and {len(notices) - MAX_WARNINGS + 1:,} more warnings, left out. Read fewer pages at a time "
                "to see them.",
            )
        ]
