"""PDF files: their pages read by the page engine (``readers.pdf``)."""

from __future__ import annotations

from ..pdf.pages import read_pdf_pages


def read(job):
    count, pages, found_figures = read_pdf_pages(job, job.path, job.sha256)
    return job.reading(count, pages, job.path, found_figures)
