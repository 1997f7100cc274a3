"""``Job``: one file being read, handed to its kind's reader."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from .errors import ReaderError
from .kinds import kind_of
from .models import Page, Reading
from .payload.document import PdfSource
from .services import Services
from .settings import Settings

Progress = Callable[[str, float, float], None]


def no_progress(stage: str, done: float, total: float) -> None:
    pass


@dataclass
class Job:
    """One file being read: what it is, what was asked for, and the services to use.

    ``read_file`` is the injection point for containers: a ZIP's or an e-mail's reader reads each
    member through it (``readers.intake.members``), never by importing ``readers.core``.

    A reader of a paged kind leaves two things for ``readers.describe``, which describes the pages
    after it: ``pdf``, the PDF the pages were read from (the file, or LibreOffice's or Chromium's
    print of it), and ``figures``, each page's figures as ``readers.pdf.figures`` found them (with
    the dpi to render each at), or as the file itself gives them with their own ``image`` (a
    deck's pictures). A reader that sets neither has its pages described whole.
    """

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
    progress: Progress = no_progress
    visitor: str | None = None  # who asked, for public mode's per-visitor limit on vision calls
    read_file: Callable[..., Reading] | None = None
    hotwords: str | None = None  # names and terms an audio file's transcription should expect
    images: bool = True  # page images are wanted: a reader whose text needs no render may leave them out
    warnings: list[str] = field(default_factory=list)
    pdf: Path | None = None
    figures: dict[int, list[dict]] = field(default_factory=dict)

    @property
    def settings(self) -> Settings:
        return self.services.settings

    def select(self, page_count: int) -> list[int]:
        """The 1-based page numbers to read, checked against ``page_count`` and ``MAX_PAGES``."""
        unit = kind_of(self.kind).unit + "s"
        start, end = self.page_start, self.page_end
        for value in (start, end):
            if value is not None and not 1 <= value <= page_count:
                raise ReaderError(
                    "PAGE_OUT_OF_RANGE",
                    f"Page {value} is outside {self.name}, which has {page_count} "
                    f"{unit}. Choose a page from 1 to {page_count}.",
                )
        if start is not None and end is not None and start > end:
            raise ReaderError(
                "PAGE_OUT_OF_RANGE",
                f"The page range {start}-{end} is backwards: the first page must not come after the last.",
            )
        first, last = start or 1, end or page_count
        if last - first + 1 > self.settings.max_pages:
            last = first + self.settings.max_pages - 1
            self.warnings.append(
                f"{self.name}: read {unit} {first}-{last} of {first}-{end or page_count} "
                f"(MAX_PAGES is {self.settings.max_pages}). Ask for the next range to read more."
            )
        return list(range(first, last + 1))

    def reading(self, page_count: int, pages: list[Page], **extra) -> Reading:
        return Reading(
            name=self.name,
            kind=self.kind,
            mime=self.mime,
            sha256=self.sha256,
            page_count=page_count,
            pages=pages,
            warnings=self.warnings,
            question=self.question,
            multimodal=self.multimodal,
            pdf=PdfSource(self.pdf, self.settings.cache_dir) if self.pdf else None,
            **extra,
        )
