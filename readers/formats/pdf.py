"""PDF files: their pages read by the page engine (``readers.pdf``)."""

from __future__ import annotations

from ..pdf.pages import read_pdf_pages


def read(job):
    return job.reading(read_pdf_pages(job, job.path, job.sha256))
