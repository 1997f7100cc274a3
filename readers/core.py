"""``read_file``: validate, confine, detect once, dispatch to the format's reader, describe.

Each reader turns what its libraries raise on a damaged file into a ``ReaderError`` where it calls
them. Should another exception still escape (a bug, or damage nobody has met yet), the guard
``last_resort`` logs it with its traceback (logger ``readers.core``) and raises ``CORRUPT_FILE``
in its place, with a sentence that names neither the exception nor its text (which may hold a
key). So ``read_file`` raises nothing but ``ReaderError``, as its contract says.
"""

from __future__ import annotations

import hashlib
import importlib
import logging
import operator
import os
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from .detect import detect
from .document import PdfSource
from .errors import ReaderError
from .models import UNITS, Page, Reading
from .office import SOURCE_EXTENSION, ooxml_copy
from .package import readable_package
from .services import Services, shared_services
from .settings import Settings

MAX_QUESTION_CHARS = 2000
VISUAL_KINDS = ("pdf", "pptx", "docx", "xlsx", "html", "image")  # readings whose page images are described here
CONTAINER_KINDS = ("zip", "email")  # their members' pages are described by the members' own readings
PACKAGE_KINDS = ("docx", "pptx", "xlsx", "epub")  # zip packages of XML parts, checked (and repaired) before their reader opens them

log = logging.getLogger(__name__)

Progress = Callable[[str, float, float], None]


def _no_progress(stage: str, done: float, total: float) -> None:
    pass


@dataclass
class Job:
    """One file being read: what it is, what was asked for, and the services to use."""

    path: Path
    name: str
    size: int
    sha256: str
    kind: str
    mime: str
    page_start: int | None
    page_end: int | None
    question: str | None
    multimodal: bool
    services: Services
    progress: Progress = _no_progress
    visitor: str | None = None  # who asked, for public mode's per-visitor limit on vision calls
    warnings: list[str] = field(default_factory=list)
    pdf: Path | None = None  # the PDF the pages were read from (the file, or LibreOffice's rendering of it)
    figures: dict[int, list[dict]] = field(default_factory=dict)  # per page, as readers.figures found them

    @property
    def settings(self) -> Settings:
        return self.services.settings

    def select(self, page_count: int) -> list[int]:
        """The 1-based page numbers to read, checked against ``page_count`` and ``MAX_PAGES``."""
        unit = UNITS.get(self.kind, "page") + "s"
        start, end = self.page_start, self.page_end
        for value in (start, end):
            if value is not None and not 1 <= value <= page_count:
                raise ReaderError("PAGE_OUT_OF_RANGE", f"Page {value} is outside {self.name}, which has {page_count} {unit}. Choose a page from 1 to {page_count}.")
        if start is not None and end is not None and start > end:
            raise ReaderError("PAGE_OUT_OF_RANGE", f"The page range {start}-{end} is backwards: the first page must not come after the last.")
        first, last = start or 1, end or page_count
        if last - first + 1 > self.settings.max_pages:
            last = first + self.settings.max_pages - 1
            self.warnings.append(f"{self.name}: read {unit} {first}-{last} of {first}-{end or page_count} (MAX_PAGES is {self.settings.max_pages}). Ask for the next range to read more.")
        return list(range(first, last + 1))

    def reading(self, page_count: int, pages: list[Page], **extra) -> Reading:
        return Reading(name=self.name, kind=self.kind, mime=self.mime, sha256=self.sha256, page_count=page_count, pages=pages,
                       warnings=self.warnings, question=self.question, multimodal=self.multimodal,
                       pdf=PdfSource(self.pdf, self.settings.cache_dir) if self.pdf else None, **extra)


def _resolve(path: str | os.PathLike, workspace: str | os.PathLike | None) -> Path:
    candidate = Path(path).expanduser()
    if workspace is None:
        return candidate
    root = Path(workspace).resolve()
    resolved = (root / candidate).resolve()
    if resolved != root and root not in resolved.parents:
        raise ReaderError("PATH_OUTSIDE_WORKSPACE", f"{path} is outside the workspace this reader is confined to. Use a path inside {root.name}/.")
    return resolved


def _check_page(value) -> int | None:
    if value is None:
        return None
    try:
        return operator.index(value)
    except TypeError:
        raise ReaderError("PAGE_OUT_OF_RANGE", f"{value!r} is not a page number: give a whole number from 1.") from None


def _check_question(describe) -> str | None:
    if describe is not None and not isinstance(describe, str):
        raise ReaderError("INVALID_QUERY", "The question must be text.")
    if describe is None or not describe.strip():
        return None
    if len(describe) > MAX_QUESTION_CHARS:
        raise ReaderError("INVALID_QUERY", f"The question is {len(describe):,} characters long; ask in at most {MAX_QUESTION_CHARS:,}.")
    return describe.strip()


def hash_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _reader(kind: str) -> Callable[[Job], Reading]:
    """Each kind's module (``readers/formats/<kind>.py``) has one ``read(job)``; import only the one needed."""
    return importlib.import_module(f".formats.{kind}", __package__).read


@contextmanager
def last_resort(name: str):
    """Let a ``ReaderError`` through; log any other exception and raise ``CORRUPT_FILE`` in its place."""
    try:
        yield
    except ReaderError:
        raise
    except Exception as error:  # noqa: BLE001 - the last-resort guard: see the module docstring
        log.exception("Reading %s failed with an unexpected %s", name, type(error).__name__)
        raise ReaderError("CORRUPT_FILE", f"{name} could not be read: ReadLens met something in it that it does not handle. The file may be "
                                          "damaged; save or export it again. If it keeps failing, report it with the file.") from error


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
) -> Reading:
    """Read one file and return what a model receives from it.

    ``page_start``/``page_end`` are 1-based and inclusive; ``describe`` asks a question about
    each page's visuals; ``multimodal=None`` takes ``MODEL_MULTIMODAL`` from settings;
    ``workspace`` refuses paths that resolve outside that folder. ``name`` is the name to show
    (an upload's original name); ``visitor`` names who asked, for public mode's limit on each
    visitor's vision calls. Raises ``ReaderError`` for anything a person can fix.
    """
    services = services or shared_services(settings or Settings.from_env())
    settings = services.settings
    question = _check_question(describe)
    try:
        resolved = _resolve(path, workspace)
        found, folder = resolved.is_file(), resolved.is_dir()
        size = resolved.stat().st_size if found else 0
    except (OSError, ValueError) as error:  # a name too long, a NUL byte, a folder we may not enter
        raise ReaderError("FILE_NOT_FOUND", f"{name or path} could not be opened ({type(error).__name__}). Check the path and try again.") from None
    shown = name or resolved.name
    if not found:
        raise ReaderError("FILE_NOT_FOUND", f"{shown} was not found{' (it is a folder)' if folder else ''}. Check the path and try again.")
    if size == 0:
        raise ReaderError("EMPTY_FILE", f"{shown} is empty (0 bytes). Upload the file again; it may not have been saved completely.")
    if size > settings.max_file_bytes:
        raise ReaderError("FILE_TOO_LARGE", f"{shown} is {size / 1048576:.1f} MB; the limit is {settings.max_file_mb:g} MB (MAX_FILE_MB).")
    with last_resort(shown):
        detected = detect(resolved, shown)
        job = Job(path=resolved, name=shown, size=size, sha256=hash_file(resolved), kind=detected.kind, mime=detected.mime,
                  page_start=_check_page(page_start), page_end=_check_page(page_end), question=question,
                  multimodal=settings.multimodal if multimodal is None else bool(multimodal),
                  services=services, progress=progress or _no_progress, visitor=visitor)
        if job.mime in SOURCE_EXTENSION:  # legacy or ODF Office: read LibreOffice's OOXML copy with the OOXML reader
            job.path = ooxml_copy(job)
        if job.kind in PACKAGE_KINDS:
            job.path = readable_package(job)
        reading = _reader(detected.kind)(job)
        if reading.kind in VISUAL_KINDS and (question or not reading.multimodal):
            from .vision import describe_reading

            describe_reading(reading, job)
        return reading
