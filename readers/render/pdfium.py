"""pdfium: page counts, figure renders, pages cut into a PDF of their own, and PNG encoding.

pdfium is not thread-safe, not even across documents: a call made while another thread is in
pdfium can crash the process. Pages, figures and cuts are made in the worker pool
(``readers.pdf.pool``); the few uses in a process that may have other threads reading (the app's
page counts, printed web pages and sheets, Word placement) hold ``PDFIUM_LOCK``.
"""

from __future__ import annotations

import io
import struct
import threading
import zlib
from pathlib import Path
from typing import Protocol

import numpy as np
import pypdfium2 as pdfium
from PIL import Image

from ..errors import ReaderError, described

PNG_COMPRESS_LEVEL = 1  # encodes about twice as fast as the default 6, at about the same size
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
PNG_UP = 2  # the filter type that stores each byte less the one above it
PNG_GREY, PNG_RGB = 0, 2  # colour types
PDFIUM_LOCK = threading.Lock()
# The most pages a PDF may have. pdfium counts a million in a fifth of a second, but pdfminer parses
# a page list whole to find any page in it, and does so in each batch of pages: 3 s a batch for a
# list of 100,000 pages, 14 s for a million (6 MB of "3 0 R"). Real documents stay far below.
MAX_PDF_PAGES = 100_000


def encode_png(image: Image.Image) -> bytes:
    """``image`` (a picture, which Pillow's filters suit) as a PNG; one whose pixels are all grey is
    stored as one channel: the same pixels from a third of the data, in about half the bytes and time."""
    if image.mode == "RGB":
        red, green, blue = image.split()
        if red.tobytes() == green.tobytes() == blue.tobytes():
            image = red
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=PNG_COMPRESS_LEVEL)
    return buffer.getvalue()


def rendered_png(bitmap: pdfium.PdfBitmap) -> bytes:
    """A pdfium render (RGB: made with ``rev_byteorder``) as a PNG made for pages, not photographs:
    one channel when every pixel is grey, and every row filtered Up (less the row above) before it
    is deflated. Pillow tries five filters on each row and keeps the best; on the corpus's first
    pages (61 renders at 150 dpi) Up alone makes 5% more bytes (19% more at worst, a page that is a
    photograph) in under half the time, 0.88 s against 1.84 s, and the pixels are the same."""
    pixels = bitmap.to_numpy()
    grey = bool((pixels[..., 0] == pixels[..., 1]).all() and (pixels[..., 1] == pixels[..., 2]).all())
    rows = (pixels[..., 0] if grey else pixels).reshape(bitmap.height, -1)
    filtered = np.empty((bitmap.height, rows.shape[1] + 1), np.uint8)
    filtered[:, 0] = PNG_UP
    filtered[0, 1:] = rows[0]
    np.subtract(rows[1:], rows[:-1], out=filtered[1:, 1:])  # modulo 256, as the filter wants
    header = struct.pack(">IIBBBBB", bitmap.width, bitmap.height, 8, PNG_GREY if grey else PNG_RGB, 0, 0, 0)
    data = zlib.compress(filtered.data, PNG_COMPRESS_LEVEL)
    return b"".join([PNG_SIGNATURE, *_chunk(b"IHDR", header), *_chunk(b"IDAT", data), *_chunk(b"IEND", b"")])


def _chunk(kind: bytes, data: bytes) -> list[bytes]:
    return [struct.pack(">I", len(data)), kind, data, struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))]


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
        if "security" in str(error).lower():  # "Unsupported security scheme"
            raise ReaderError(
                "ENCRYPTED_FILE",
                f"{name} is encrypted in a way ReadLens cannot open. Print or export it to a new PDF and upload that.",
            ) from None
        # pdfium's own words ("Data format error", "Unknown error") say nothing more to a person
        raise ReaderError(
            "CORRUPT_FILE",
            f"{name} is damaged: the PDF's data cannot be read, or the file is incomplete. "
            "Export or download it again.",
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


class Placed(Protocol):
    """Where a figure is on its page (left, top, right, bottom as fractions of the page shown) and the
    dpi to render it at: ``readers.models.FoundFigure`` is one."""

    box: tuple[float, float, float, float]
    dpi: int


def render_figures(path: str, number: int, figures: list[Placed]) -> list[bytes | str]:
    """A PNG of each figure of page ``number`` at the dpi its finding chose, or why it failed; runs in a worker."""
    results: list[bytes | str] = []
    try:
        document = pdfium.PdfDocument(path)
    except Exception as error:  # gone or damaged since its pages were read
        return [described(error)] * len(figures)
    try:
        page = document[number - 1]
        width, height = page.get_size()  # as shown, after the page's rotation, as render's crop counts
        for figure in figures:
            left, top, right, bottom = figure.box
            try:
                bitmap = page.render(
                    scale=figure.dpi / 72,
                    rev_byteorder=True,
                    crop=(left * width, (1 - bottom) * height, (1 - right) * width, top * height),
                )
                results.append(rendered_png(bitmap))
            except Exception as error:  # pdfium's own errors: this figure is lost, not the page
                results.append(described(error))
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
