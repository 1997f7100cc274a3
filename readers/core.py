"""``read_file``: check the options, confine, detect once, hand the job to its kind's reader
(``readers.formats.read``), describe.

Nothing but ``ReaderError`` leaves it: see ``readers.errors.last_resort``.
"""

from __future__ import annotations

import os
import zipfile
from dataclasses import replace
from pathlib import Path

from .errors import ReaderError, last_resort, too_large
from .formats import read
from .intake.detect import detect, misnamed
from .intake.fetch import fetch, is_url, url_name
from .intake.links import links_warning
from .intake.package import readable_package
from .job import Job, Preview, Progress, no_progress
from .kinds import SOURCE_EXTENSION, kind_of
from .models import Reading
from .options import ReadOptions
from .render.libreoffice import ooxml_copy
from .services import Services, shared_services
from .settings import Settings
from .storage.files import file_sha256


def _resolve(path: str | os.PathLike, workspace: str | os.PathLike | None) -> Path:
    candidate = Path(path).expanduser()
    if workspace is None:
        return candidate
    root = Path(workspace).resolve()
    resolved = (root / candidate).resolve()
    if resolved != root and root not in resolved.parents:
        raise ReaderError(
            "PATH_OUTSIDE_WORKSPACE",
            f"{path} is outside the workspace this reader is confined to. Use a path inside {root.name}/.",
        )
    return resolved


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
    if is_url(path):  # fetched into the cache within the rules of readers.intake.fetch, read as its URL
        options = replace(options, name=options.name or url_name(path), workspace=None)
        with last_resort(options.name):
            path = fetch(path, services.settings, services.store)
    return _read(path, options, services, progress or no_progress, preview)


def _read(
    path: str | os.PathLike, options: ReadOptions, services: Services, progress: Progress, preview: Preview | None
) -> Reading:
    """Confine, check, detect once, hand the job to its kind's reader, then describe its pages."""
    settings = services.settings
    try:
        resolved = _resolve(path, options.workspace)
        found, folder = resolved.is_file(), resolved.is_dir()
        size = resolved.stat().st_size if found else 0
    except (OSError, ValueError) as error:  # a name too long, a NUL byte, a folder we may not enter
        raise ReaderError(
            "FILE_NOT_FOUND",
            f"{options.name or path} could not be opened ({type(error).__name__}). Check the path and try again.",
        ) from None
    shown = options.name or resolved.name
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
        detected = detect(resolved, shown)
        if options.images is None:
            wanted = options.multimodal or options.describe or getattr(services.vision, "sees_pages", False)
            options = replace(options, images=bool(wanted))
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
        if warning := misnamed(shown, detected):
            job.warnings.append(warning)
        if warning := links_warning(job):
            job.warnings.append(warning)
        if job.mime in SOURCE_EXTENSION:  # legacy or ODF Office: read LibreOffice's OOXML copy with the OOXML reader
            job.path = ooxml_copy(job)
        if kind_of(job.kind).package:
            job.path = readable_package(job)
            if not options.multimodal and getattr(services.vision, "source", None) == "ocr" and _pictured(job.path):
                from .describe.ocr import load_soon

                load_soon()
        reading = read(job)
        if kind_of(reading.kind).visual and (options.describe or not reading.multimodal):
            from .describe.vision import describe_reading

            describe_reading(reading, job)
        return reading
