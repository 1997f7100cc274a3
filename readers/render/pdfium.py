"""pdfium: page counts, figure renders, pages cut into a PDF of their own, and PNG encoding.

pdfium is not thread-safe, not even across documents: a call made while another thread is in
pdfium can crash the process. Pages, figures and cuts are made in the worker pool
(``readers.pdf.pool``); the few uses in a process that may have other threads reading (the app's
page counts, printed web pages and sheets, Word placement) hold ``PDFIUM_LOCK``.
"""

from __future__ import annotations

import io
import threading
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image

from ..errors import ReaderError

PNG_COMPRESS_LEVEL = 1  # encodes about twice as fast as the default 6, at about the same size
PDFIUM_LOCK = threading.Lock()
# The most pages a PDF may have. pdfium counts a million in a fifth of a second, but pdfminer parses
# a page list whole to find any page in it, and does so in each batch of pages: 3 s a batch for a
# list of 100,000 pages, 14 s for a million (6 MB of "3 0 R"). Real documents stay far below.
MAX_PDF_PAGES = 100_000


def encode_png(image: Image.Image) -> bytes:
    """``image`` as a PNG. One whose pixels are all grey (most pages: black print on white paper) is
    stored as one channel: the same pixels from a third of the data, about half the bytes in half
    the time (a text page at 150 dpi: 240 KB in 17 ms instead of 500 KB in 43 ms; the test costs 1.5 ms)."""
    if image.mode == "RGB":
        red, green, blue = image.split()
        if red.tobytes() == green.tobytes() == blue.tobytes():
            image = red
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=PNG_COMPRESS_LEVEL)
    return buffer.getvalue()


def page_count(path: Path) -> int:
    """The number of pages pdfium finds in ``path`` (raises ``pdfium.PdfiumError``)."""
    with PDFIUM_LOCK:
        document = pdfium.PdfDocument(str(path))
        try:
            return len(document)
        finally:
            document.close()


def checked_page_count(path: Path, name: str) -> int:
    """The page count of the PDF ``path`` (shown as ``name``); ``ENCRYPTED_FILE``, ``CORRUPT_FILE``,
    or ``FILE_TOO_LARGE`` past ``MAX_PDF_PAGES``, when it cannot be read."""
    try:
        count = page_count(path)
    except pdfium.PdfiumError as error:
        if "password" in str(error).lower():
            raise ReaderError(
                "ENCRYPTED_FILE",
                f"{name} is password-protected. Remove the password (print "
                "or export it to a new PDF) and upload it again.",
            ) from None
        raise ReaderError(
            "CORRUPT_FILE",
            f"{name} is damaged or incomplete and cannot be opened as a PDF "
            f"({str(error).rstrip('.')}). Export or download it again.",
        ) from None
    if count == 0:
        raise ReaderError("CORRUPT_FILE", f"{name} is a PDF with no pages.")
    if count > MAX_PDF_PAGES:
        raise ReaderError(
            "FILE_TOO_LARGE",
            f"{name} is a PDF of {count:,} pages; ReadLens reads PDFs of at most {MAX_PDF_PAGES:,} pages. "
            "Split it, or print the pages you need to a PDF of their own.",
        )
    return count


def render_figures(path: str, number: int, figures: list[dict]) -> list[bytes | str]:
    """A PNG of each figure of page ``number`` at the dpi its finding chose, or why it failed; runs in a worker."""
    results: list[bytes | str] = []
    try:
        document = pdfium.PdfDocument(path)
    except Exception as error:  # gone or damaged since its pages were read
        return [f"{type(error).__name__}: {error}"] * len(figures)
    try:
        page = document[number - 1]
        width, height = page.get_size()  # as shown, after the page's rotation, as render's crop counts
        for figure in figures:
            left, top, right, bottom = figure["box"]
            try:
                bitmap = page.render(
                    scale=figure["dpi"] / 72,
                    rev_byteorder=True,
                    crop=(left * width, (1 - bottom) * height, (1 - right) * width, top * height),
                )
                results.append(encode_png(bitmap.to_pil()))
            except Exception as error:  # pdfium's own errors: this figure is lost, not the page
                results.append(f"{type(error).__name__}: {error}")
    finally:
        document.close()
    return results


def pages_pdf(path: str, first: int, last: int) -> bytes:
    """A new PDF of pages ``first``-``last`` (1-based) of ``path``, copied by pdfium; runs in a worker."""
    source, cut = pdfium.PdfDocument(path), pdfium.PdfDocument.new()
    try:
        cut.import_pages(source, list(range(first - 1, last)))
        buffer = io.BytesIO()
        cut.save(buffer)
    finally:
        cut.close()
        source.close()
    return buffer.getvalue()
