"""PDF pages: text and tables with pdfplumber, renders with pdfium, both cores, cached on disk.

Only the requested pages are parsed and rendered. Each page's extraction and PNG are stored in
the disk cache by content hash, page and dpi, so a second read touches no parser at all.
"""

from __future__ import annotations

import io
import os
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

import pdfplumber
import pypdfium2 as pdfium
from pdfminer.pdfdocument import PDFPasswordIncorrect
from pdfminer.pdfparser import PDFSyntaxError

from .errors import ReaderError
from .models import Page
from .tables import markdown_table

MIME_TYPES = ("application/pdf",)
TEXT_OPTIONS = {"x_tolerance_ratio": 0.15}  # word gaps scale with the font; a fixed 3 pt glues small type
PNG_COMPRESS_LEVEL = 1  # level 1 is several times faster than the default 6 and about 15% larger
WORKERS = max(1, min(2, os.cpu_count() or 1))
_pool: ProcessPoolExecutor | None = None


def _page_count(path: Path, name: str) -> int:
    try:
        document = pdfium.PdfDocument(str(path))
    except pdfium.PdfiumError as error:
        if "password" in str(error).lower():
            raise ReaderError("ENCRYPTED_FILE", f"{name} is password-protected. Remove the password (print or export it to a new PDF) and upload it again.") from None
        raise ReaderError("CORRUPT_FILE", f"{name} is damaged or incomplete and cannot be opened as a PDF ({error}). Export or download it again.") from None
    try:
        count = len(document)
    finally:
        document.close()
    if count == 0:
        raise ReaderError("CORRUPT_FILE", f"{name} is a PDF with no pages.")
    return count


def _in_any(obj, boxes) -> bool:
    x = (obj["x0"] + obj["x1"]) / 2
    y = (obj["top"] + obj["bottom"]) / 2
    return any(x0 <= x <= x1 and top <= y <= bottom for x0, top, x1, bottom in boxes)


def _encode_png(image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=PNG_COMPRESS_LEVEL)
    return buffer.getvalue()


def extract_pages(path: str, numbers: list[int], dpi: int) -> list[dict]:
    """Text, Markdown tables and a PNG for each 1-based page in ``numbers``; runs in a worker."""
    results = []
    document = pdfium.PdfDocument(path)
    try:
        with pdfplumber.open(path, pages=numbers) as pdf:
            for number, page in zip(numbers, pdf.pages):
                tables = page.find_tables()
                boxes = [table.bbox for table in tables]
                body = page.filter(lambda obj: obj.get("object_type") != "char" or not _in_any(obj, boxes)) if boxes else page
                text = body.extract_text(**TEXT_OPTIONS) or ""
                markdown = [md for md in (markdown_table(table.extract()) for table in tables) if md]
                bitmap = document[number - 1].render(scale=dpi / 72)
                results.append({"number": number, "text": text, "tables": markdown, "has_text": bool(page.chars), "png": _encode_png(bitmap.to_pil())})
    finally:
        document.close()
    return results


def _executor() -> ProcessPoolExecutor:
    global _pool
    if _pool is None:
        _pool = ProcessPoolExecutor(WORKERS, mp_context=get_context("forkserver"))
    return _pool


def _extract_parallel(path: Path, numbers: list[int], dpi: int, name: str) -> list[dict]:
    chunks = [numbers[i::WORKERS] for i in range(WORKERS) if numbers[i::WORKERS]]
    try:
        if len(chunks) == 1:
            return extract_pages(str(path), numbers, dpi)
        futures = [_executor().submit(extract_pages, str(path), chunk, dpi) for chunk in chunks]
        return sorted((page for future in futures for page in future.result()), key=lambda page: page["number"])
    except (PDFSyntaxError, PDFPasswordIncorrect, pdfium.PdfiumError, ValueError, KeyError, TypeError) as error:
        raise ReaderError("CORRUPT_FILE", f"{name} is damaged and its pages could not be read ({type(error).__name__}). Export or download it again.") from None


def read_pdf_pages(job, pdf_path: Path, cache_key: str) -> tuple[int, list[Page]]:
    """Read the selected pages of ``pdf_path``; ``cache_key`` is the content hash entries go under."""
    store, dpi = job.services.store, job.settings.render_dpi
    meta = store.get_json(cache_key, "pdf.json")
    if meta is None:
        meta = {"page_count": _page_count(pdf_path, job.name)}
        store.put_json(cache_key, "pdf.json", meta)
    numbers = job.select(meta["page_count"])
    found: dict[int, dict] = {}
    for number in numbers:
        entry = store.get_json(cache_key, f"page-{number:04d}.json")
        png = store.get_bytes(cache_key, f"page-{number:04d}-{dpi}dpi.png")
        if entry is not None and png is not None:
            found[number] = {**entry, "png": png}
    missing = [n for n in numbers if n not in found]
    if missing:
        for page in _extract_parallel(pdf_path, missing, dpi, job.name):
            png = page.pop("png")
            store.put_bytes(cache_key, f"page-{page['number']:04d}-{dpi}dpi.png", png)
            store.put_json(cache_key, f"page-{page['number']:04d}.json", page)
            found[page["number"]] = {**page, "png": png}
    pages = []
    for done, number in enumerate(numbers, 1):
        entry = found[number]
        if not entry["has_text"]:
            job.warnings.append(f"Page {number} has no text layer (a scan or a picture); its content reaches a text-only model only through the visual description.")
        pages.append(Page(number=number, text=entry["text"], tables=entry["tables"], image=entry["png"]))
        job.progress("rendered", done, len(numbers))
    return meta["page_count"], pages


def read(job):
    return job.reading(*read_pdf_pages(job, job.path, job.sha256))
