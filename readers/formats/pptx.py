"""PowerPoint decks (PPT and ODP arrive as LibreOffice's PPTX copy): each slide's Markdown from
the deck itself, on the pages of LibreOffice's PDF (``readers.office.slides``)."""

from __future__ import annotations

from ..office.slides import slide_pages


def read(job):
    return job.reading(slide_pages(job))
