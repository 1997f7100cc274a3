"""``read_file``: check the options, confine, detect once, hand the job to its kind's reader
(``readers.formats.read``), describe.

Nothing but ``ReaderError`` leaves it: see ``readers.errors.last_resort``.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

from .errors import ReaderError, last_resort
from .formats import read
from .intake.detect import detect, misnamed
from .intake.links import links_warning
from .intake.package import readable_package
from .job import Job, Progress, no_progress
from .kinds import SOURCE_EXTENSION, kind_of
from .models import Reading
from .options import ReadOptions
from .render.libreoffice import ooxml_copy
from .services import Services, shared_services
from .settings import Settings
from .storage.files import file_sha256


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
) -> Reading:
    """Read one file and return what a model receives from it.

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
    Raises ``ReaderError`` for anything a person can fix.
    """
    given = ReadOptions(page_start, page_end, describe, multimodal, images, hotwords, workspace=workspace)
    if options is not None and given != ReadOptions():
        raise TypeError("read_file takes options or its keyword options, not both")
    services = services or shared_services(settings or Settings.from_env())
    return _read(path, (options or given).checked(services.settings), services, progress or no_progress)


def _read(path: str | os.PathLike, options: ReadOptions, services: Services, progress: Progress) -> Reading:
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
    shown = options.name or Path(path).name or resolved.name  # a link is named as it was given, not as its target
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
        raise ReaderError(
            "FILE_TOO_LARGE",
            f"{shown} is {size / 1048576:.1f} MB; the limit is {settings.max_file_mb:g} MB (MAX_FILE_MB).",
        )
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
        )
        if warning := misnamed(shown, detected):
            job.warnings.append(warning)
        if warning := links_warning(job):
            job.warnings.append(warning)
        if job.mime in SOURCE_EXTENSION:  # legacy or ODF Office: read LibreOffice's OOXML copy with the OOXML reader
            job.path = ooxml_copy(job)
        if kind_of(job.kind).package:
            job.path = readable_package(job)
        reading = read(job)
        if kind_of(reading.kind).visual and (options.describe or not reading.multimodal):
            from .describe.vision import describe_reading

            describe_reading(reading, job)
        return reading
