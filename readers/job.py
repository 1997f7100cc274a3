"""``Job``: one file being read, handed to its kind's reader: what it is, what was asked for, and
the services to use."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .errors import ReaderError
from .kinds import kind_of
from .models import Extraction, Page, PdfSource, Reading
from .notices import Code, Notice, part_of_file
from .options import ReadOptions
from .services import Services
from .settings import Settings

Progress = Callable[[str, float, float], None]
Preview = Callable[[Page], None]


def no_progress(stage: str, done: float, total: float) -> None:
    pass


def pictured(options: ReadOptions, services: Services) -> bool:
    """Whether a reading with ``options`` is read from page images (``Job.pictured``)."""
    return bool(options.multimodal or options.describe or getattr(services.vision, "sees_pages", False))


@dataclass(frozen=True)
class Job:
    """One file being read, as its reader is handed it: the file (``path``, its ``name`` to show,
    its ``size`` and content hash, its detected ``kind`` and ``mime``), the checked ``options``
    (``ReadOptions.checked``, with ``images`` decided), the ``services`` to use and where to report
    ``progress``. Inputs only: a reader returns all it makes, its notices too, in its ``Reading``
    (``reading()``); a step that reads the file from another path (a repaired or converted copy)
    hands its reader a new job (``dataclasses.replace``).

    ``preview``, when given, is handed each page of a paged document as soon as it is read, before
    the reading is whole (``readers.pdf.pages``).
    ``read_file`` is the injection point for containers: a ZIP's or an e-mail's reader reads each
    member through it (``readers.intake.members``), never by importing ``readers.core``.
    """

    path: Path
    name: str
    size: int
    sha256: str
    kind: str
    mime: str
    options: ReadOptions
    services: Services
    progress: Progress = no_progress
    read_file: Callable[..., Reading] | None = None
    preview: Preview | None = None

    @property
    def settings(self) -> Settings:
        return self.services.settings

    @property
    def pictured(self) -> bool:
        """Whether the answer is read from page images: multimodal, a question, or a vision model that looks at
        whole pages (so a web page is read on its printed pages)."""
        return pictured(self.options, self.services)

    def select(self, page_count: int, notices: list[Notice]) -> list[int]:
        """The 1-based page numbers to read, checked against ``page_count`` and ``MAX_PAGES`` (past
        which a notice says which range was read)."""
        unit = kind_of(self.kind).unit + "s"
        start, end = self.options.page_start, self.options.page_end
        for value in (start, end):
            if value is not None and not 1 <= value <= page_count:
                raise ReaderError(
                    "PAGE_OUT_OF_RANGE",
                    f"Page {value} is outside {self.name}, which has {page_count} "
                    f"{unit if page_count != 1 else unit[:-1]}. Choose a page from 1 to {page_count}.",
                )
        if start is not None and end is not None and start > end:
            raise ReaderError(
                "PAGE_OUT_OF_RANGE",
                f"The page range {start}-{end} is backwards: the first page must not come after the last.",
            )
        first, last = start or 1, end or page_count
        if last - first + 1 > self.settings.max_pages:
            last = first + self.settings.max_pages - 1
            notices.append(
                Notice(
                    Code.PAGES_LIMITED,
                    f"{self.name}: read {unit} {first}-{last} of {first}-{end or page_count} "
                    f"(MAX_PAGES is {self.settings.max_pages}). Ask for the next range to read more.",
                )
            )
        return list(range(first, last + 1))

    def reading(self, extraction: Extraction, **extra) -> Reading:
        """The reading of what ``extraction`` holds: its pages, the PDF they come from, each page's
        figures as found and the notices (``Reading``'s fields of those names), and one that says so
        when its pages are a range of a longer file (``Code.PART_OF_FILE``)."""
        numbers = [page.number for page in extraction.pages]
        if numbers and len(numbers) < extraction.page_count:
            unit = kind_of(self.kind).unit
            extraction.notices.append(part_of_file(self.name, unit, min(numbers), max(numbers), extraction.page_count))
        return Reading(
            name=self.name,
            kind=self.kind,
            mime=self.mime,
            sha256=self.sha256,
            page_count=extraction.page_count,
            pages=extraction.pages,
            notices=extraction.notices,
            question=self.options.describe,
            multimodal=bool(self.options.multimodal),
            pdf=PdfSource(extraction.pdf, self.settings.cache_dir) if extraction.pdf else None,
            _found=extraction.figures,
            **extra,
        )
