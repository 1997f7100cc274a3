"""``read_file``: validate, confine, detect once, dispatch to the kind's reader, describe.

Nothing but ``ReaderError`` leaves it: see ``readers.errors.last_resort``.
"""

from __future__ import annotations

import hashlib
import operator
import os
from pathlib import Path

from .errors import ReaderError, last_resort
from .intake.detect import detect
from .intake.package import readable_package
from .job import Job, Progress, no_progress
from .kinds import SOURCE_EXTENSION, kind_of, reader
from .models import Reading
from .render.libreoffice import ooxml_copy
from .services import Services, shared_services
from .settings import MAX_HOTWORDS_CHARS, Settings

MAX_QUESTION_CHARS = 2000


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


def _check_page(value) -> int | None:
    if value is None:
        return None
    try:
        return operator.index(value)
    except TypeError:
        raise ReaderError("PAGE_OUT_OF_RANGE", f"{value!r} is not a page number: give a whole number from 1.") from None


def check_question(describe) -> str | None:
    if describe is not None and not isinstance(describe, str):
        raise ReaderError("INVALID_QUERY", "The question must be text.")
    if describe is None or not describe.strip():
        return None
    if len(describe) > MAX_QUESTION_CHARS:
        raise ReaderError(
            "INVALID_QUERY",
            f"The question is {len(describe):,} characters long; ask in at most {MAX_QUESTION_CHARS:,}.",
        )
    return describe.strip()


def check_hotwords(hotwords) -> str | None:
    """Names and jargon to steer the transcription towards, on one line; None for none."""
    if hotwords is not None and not isinstance(hotwords, str):
        raise ReaderError("INVALID_QUERY", "The hotwords must be text: names and terms separated by spaces or commas.")
    hotwords = " ".join((hotwords or "").split())
    if len(hotwords) > MAX_HOTWORDS_CHARS:
        raise ReaderError(
            "INVALID_QUERY",
            f"The hotwords are {len(hotwords):,} characters long; give at most {MAX_HOTWORDS_CHARS}: "
            "the names and terms the recording uses, not a text.",
        )
    return hotwords or None


def hash_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def read_file(
    path: str | os.PathLike,
    page_start: int | None = None,
    page_end: int | None = None,
    describe: str | None = None,
    multimodal: bool | None = None,
    workspace: str | os.PathLike | None = None,
    *,
    settings: Settings | None = None,
    services: Services | None = None,
    progress: Progress | None = None,
    name: str | None = None,
    visitor: str | None = None,
    hotwords: str | None = None,
    images: bool | None = None,
) -> Reading:
    """Read one file and return what a model receives from it.

    ``page_start``/``page_end`` are 1-based and inclusive; ``describe`` asks a question about
    each page's visuals; ``multimodal=None`` takes ``MODEL_MULTIMODAL`` from settings;
    ``workspace`` refuses paths that resolve outside that folder. ``name`` is the name to show
    (an upload's original name); ``visitor`` names who asked, for public mode's limit on each
    visitor's vision calls. ``hotwords`` (audio) are names and terms the transcription should
    expect; None takes ``WHISPER_HOTWORDS`` from settings, "" uses none. ``images`` asks for page
    images (``page.image``, and ``reading.pdf`` for ``as_messages(document=True)``); None builds
    them when the answer needs them: in multimodal mode, for a question, or for a vision model that
    looks at whole pages. Without them a deck or a workbook is read with no LibreOffice at all.
    Raises ``ReaderError`` for anything a person can fix.
    """
    services = services or shared_services(settings or Settings.from_env())
    settings = services.settings
    question = check_question(describe)
    hotwords = check_hotwords(settings.whisper_hotwords if hotwords is None else hotwords)
    try:
        resolved = _resolve(path, workspace)
        found, folder = resolved.is_file(), resolved.is_dir()
        size = resolved.stat().st_size if found else 0
    except (OSError, ValueError) as error:  # a name too long, a NUL byte, a folder we may not enter
        raise ReaderError(
            "FILE_NOT_FOUND",
            f"{name or path} could not be opened ({type(error).__name__}). Check the path and try again.",
        ) from None
    shown = name or resolved.name
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
        job = Job(
            path=resolved,
            name=shown,
            size=size,
            sha256=hash_file(resolved),
            kind=detected.kind,
            mime=detected.mime,
            page_start=_check_page(page_start),
            page_end=_check_page(page_end),
            question=question,
            multimodal=settings.multimodal if multimodal is None else bool(multimodal),
            services=services,
            progress=progress or no_progress,
            visitor=visitor,
            read_file=read_file,
            hotwords=hotwords,
        )
        job.images = (
            images
            if images is not None
            else bool(job.multimodal or question or getattr(services.vision, "sees_pages", False))
        )
        if job.mime in SOURCE_EXTENSION:  # legacy or ODF Office: read LibreOffice's OOXML copy with the OOXML reader
            job.path = ooxml_copy(job)
        if kind_of(job.kind).package:
            job.path = readable_package(job)
        reading = reader(detected.kind)(job)
        if kind_of(reading.kind).visual and (question or not reading.multimodal):
            from .describe.vision import describe_reading

            describe_reading(reading, job)
        return reading
