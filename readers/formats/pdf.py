"""PDF pages: text and tables with pdfplumber, renders with pdfium, on every core, cached on disk.

Only the requested pages are parsed and rendered: pdfminer's page tree is walked straight to
them, and pdfium opens pages on demand. The pages go in batches to a pool of worker processes,
large batches first and single pages last, so pages of uneven cost keep every core busy to the
end; progress is reported as batches complete, and a page that fails to parse, or takes longer
than ``PAGE_TIMEOUT``, costs only that page (each worker's memory is bounded too). Each page's
extraction and PNG are stored in the disk cache by content hash, page and dpi, so a second read
touches no parser. ``python -m bench readers`` measures these choices.
"""

from __future__ import annotations

import ctypes
import io
import os
import resource
import signal
import threading
import time
from contextlib import contextmanager
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import get_context
from pathlib import Path

import pdfplumber
import pypdfium2 as pdfium
from pdfminer.pdfdocument import PDFDocument
from pdfminer.pdfpage import PDFPage
from pdfminer.pdftypes import dict_value, int_value, list_value

from ..errors import ReaderError
from ..figures import find_figures
from ..layout import heading_levels, page_markdown
from ..models import Figure, Page
from ..tables import markdown_table
from .image import encode_png

EXTRACTION_VERSION = 5  # part of each cached page's name: raise it when extraction changes, so old entries miss
WORKERS = min(4, os.cpu_count() or 1)  # a worker peaks near 150 MB on the bench pages; four bound that on big machines
WORKER_MEMORY = 4 << 30  # the most data one worker may hold: far above any honest page
PAGE_TIMEOUT = 60  # seconds one page's text, tables and render may take in a worker
PR_SET_PDEATHSIG = 1  # prctl(2)
_pool: Executor | None = None
_pool_lock = threading.Lock()
# pdfium is not thread-safe, not even across documents: a call made while another thread is in
# pdfium can crash the process. Pages, figures and cuts are made in the worker pool; the few uses
# in a process that may have other threads reading (the app's page counts, printed web pages and
# sheets, Word placement) hold this lock.
PDFIUM_LOCK = threading.Lock()


def page_count(path: Path) -> int:
    """The number of pages pdfium finds in ``path`` (raises ``pdfium.PdfiumError``)."""
    with PDFIUM_LOCK:
        document = pdfium.PdfDocument(str(path))
        try:
            return len(document)
        finally:
            document.close()


def _page_count(path: Path, name: str) -> int:
    try:
        count = page_count(path)
    except pdfium.PdfiumError as error:
        if "password" in str(error).lower():
            raise ReaderError("ENCRYPTED_FILE", f"{name} is password-protected. Remove the password (print or export it to a new PDF) and upload it again.") from None
        raise ReaderError("CORRUPT_FILE", f"{name} is damaged or incomplete and cannot be opened as a PDF ({str(error).rstrip('.')}). Export or download it again.") from None
    if count == 0:
        raise ReaderError("CORRUPT_FILE", f"{name} is a PDF with no pages.")
    return count


def _pdfminer_pages(document: PDFDocument, numbers: list[int]) -> dict[int, PDFPage]:
    """The pages numbered ``numbers`` (1-based), by one walk down the page tree.

    pdfplumber builds every page of the document to find a few; this steps over each subtree
    that holds none of the wanted pages by its /Count, and stops after the last one. A kid with
    /Kids is a subtree and any other kid is a page, as pdfium counts them, so the text found for
    page n is the text of the page pdfium renders as page n.
    """
    wanted, last, found, seen = set(numbers), max(numbers), {}, set()

    def visit(node: dict, inherited: dict, before: int) -> None:
        inherited = {**inherited, **{key: node[key] for key in PDFPage.INHERITABLE_ATTRS if key in node}}
        for kid in list_value(node.get("Kids", [])):
            if before >= last:
                return
            attrs = dict_value(kid)
            if "Kids" in attrs:
                count = int_value(attrs.get("Count", 0))
                if any(before < number <= before + count for number in wanted):
                    if kid.objid in seen:
                        raise ValueError("the page tree loops back on itself")
                    seen.add(kid.objid)
                    visit(attrs, inherited, before)
                before += count
            else:
                before += 1
                if before in wanted:
                    found[before] = PDFPage(document, kid.objid, {**inherited, **attrs}, None)

    visit(dict_value(document.catalog["Pages"]), {}, 0)
    return found


def _is_table(rows: list[list]) -> bool:
    """A chart's gridlines also make a grid of cells, but a mostly empty one. A sparse grid that
    is refused here is not lost: its text stays in the page's text."""
    filled = [sum(1 for cell in row if cell not in (None, "")) for row in rows]
    cells = sum(len(row) for row in rows)
    return bool(cells) and max(filled, default=0) >= 2 and sum(filled) >= 0.3 * cells


def _extract_page(pdf, pdfminer_page: PDFPage, document, number: int, dpi: int) -> dict:
    page = pdfplumber.page.Page(pdf, pdfminer_page, page_number=number)
    tables = [(table.bbox, markdown) for table in page.find_tables() if _is_table(rows := table.extract()) and (markdown := markdown_table(rows))]
    figures = find_figures(page, [bbox for bbox, _ in tables])
    pdfium_page = document[number - 1]  # pdfium loads the page anew on each index: once, for text and render
    try:
        text, unmapped = page_markdown(page, tables, figures, pdfium_page)
        has_text = bool(page.chars)
        page.close()  # its caches form reference cycles; free the parsed objects now, not at the next GC
        bitmap = pdfium_page.render(scale=dpi / 72, rev_byteorder=True)  # RGB order: no BGR swap before encoding
    finally:
        pdfium_page.close()
    return {"number": number, "text": text, "tables": [markdown for _, markdown in tables], "has_text": has_text, "unmapped": unmapped,
            "figures": figures, "png": encode_png(bitmap.to_pil())}


def _failed(number: int, error: Exception) -> dict:
    return {"number": number, "error": f"{type(error).__name__}: {error}"}


def extract_pages(path: str, numbers: list[int], dpi: int) -> list[dict]:
    """Text, Markdown tables and a PNG for each 1-based page in ``numbers``; runs in a worker.

    A page that cannot be read comes back as ``{"number": n, "error": "..."}``.
    """
    with open(path, "rb") as stream:
        try:
            pdf = pdfplumber.PDF(stream, stream_is_external=True)
            pdfminer_pages = _pdfminer_pages(pdf.doc, numbers)
            document = pdfium.PdfDocument(path)
        except Exception as error:  # the file is unreadable here; the caller decides what that means
            return [_failed(number, error) for number in numbers]
        results = []
        try:
            for number in numbers:
                try:
                    if number not in pdfminer_pages:
                        raise ValueError(f"page {number} is missing from the page tree")
                    with _time_limit(PAGE_TIMEOUT):
                        result = _extract_page(pdf, pdfminer_pages[number], document, number, dpi)
                    results.append(result)
                except Exception as error:  # a damaged page costs that page only
                    results.append(_failed(number, error))
        finally:
            document.close()
    return results


@contextmanager
def _time_limit(seconds: float):
    """Raise ``TimeoutError`` in the block after ``seconds``, so a page built to stall the parser
    (millions of drawing operations in a few kilobytes) costs that page only. Only a process's
    main thread can set the alarm, as the pool's workers do; elsewhere the block runs unbounded.

    The alarm fires again every tenth of a second until the block ends: pdfminer swallows some
    exceptions, and one raised inside a destructor is only printed, so a single alarm may be lost.
    A timer set before (pytest-timeout's, say) is put back with what remained of it."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum, frame):
        raise TimeoutError(f"reading the page took longer than {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, expire)
    started = time.monotonic()
    outer_delay, outer_interval = signal.setitimer(signal.ITIMER_REAL, seconds, 0.1)
    try:
        yield
    finally:
        try:
            signal.setitimer(signal.ITIMER_REAL, 0)  # an alarm already on its way is raised as this call returns
        finally:
            signal.signal(signal.SIGALRM, previous)
        if outer_delay:
            signal.setitimer(signal.ITIMER_REAL, max(outer_delay - (time.monotonic() - started), 0.001), outer_interval)


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
                bitmap = page.render(scale=figure["dpi"] / 72, rev_byteorder=True,
                                     crop=(left * width, (1 - bottom) * height, (1 - right) * width, top * height))
                results.append(encode_png(bitmap.to_pil()))
            except Exception as error:  # pdfium's own errors: this figure is lost, not the page
                results.append(f"{type(error).__name__}: {error}")
    finally:
        document.close()
    return results


def figure_images(job, wanted: dict[int, list[dict]]):
    """Yield ``(page number, [PNG bytes or error text per figure])`` for the figures in ``wanted``
    (page number to figure dicts) of the job's PDF, rendered by the worker pool as they finish."""
    futures = {}
    try:
        pool = _executor()
        futures = {pool.submit(render_figures, str(job.pdf), number, figures): number for number, figures in wanted.items()}
        for future in as_completed(futures):
            yield futures[future], future.result()
    except BrokenProcessPool:
        raise _worker_died(pool, f"A PDF worker process stopped while rendering the figures of {job.name}. Try again.") from None
    finally:
        for future in futures:
            future.cancel()


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


def cut_pages(pdf_path: Path, first: int, last: int, name: str) -> bytes:
    """Pages ``first``-``last`` of ``pdf_path`` as a PDF of their own, made by the worker pool
    (pdfium is not safe to call from several threads). Raises ``RENDER_FAILED`` if it cannot be made."""
    pool = _executor()
    try:
        return pool.submit(pages_pdf, str(pdf_path), first, last).result()
    except BrokenProcessPool:
        raise _worker_died(pool, f"A PDF worker process stopped while cutting pages {first}-{last} of {name}. Try again.") from None
    except Exception as error:  # pdfium's own errors on a damaged file
        raise ReaderError("RENDER_FAILED", f"Pages {first}-{last} of {name} could not be copied into a PDF of their own "
                                           f"({type(error).__name__}: {error}).") from None


def _batches(numbers: list[int]) -> list[list[int]]:
    """Guided scheduling: large batches first (each opens the file once, which costs tens of ms
    on a big PDF), single pages last (so the workers finish together)."""
    batches, rest = [], list(numbers)
    while rest:
        size = max(1, len(rest) // (2 * WORKERS))
        batches.append(rest[:size])
        rest = rest[size:]
    return batches


def _start_worker() -> None:
    """A worker ends when the process that started it ends, however abruptly (``kill -9``, a
    closed pipe): otherwise it would wait for work for ever (Linux only; elsewhere a no-op). Its
    data is limited to ``WORKER_MEMORY``, so a page whose streams inflate to gigabytes fails with
    a MemoryError instead of taking the machine's memory."""
    try:
        ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        pass
    _, hard = resource.getrlimit(resource.RLIMIT_DATA)
    resource.setrlimit(resource.RLIMIT_DATA, (WORKER_MEMORY if hard == resource.RLIM_INFINITY else min(WORKER_MEMORY, hard), hard))


def _executor() -> Executor:
    """The shared worker pool, started on first use.

    With other threads running (the app's), workers come from a fork server: a fork would copy
    locks those threads may hold. Without them, a plain fork is safe, and it is the only start
    method that does not re-run a script's ``__main__`` in every worker, so a script that calls
    ``read_file`` without ``if __name__ == "__main__":`` still works.
    """
    global _pool
    with _pool_lock:
        if _pool is None:
            method = "fork" if threading.active_count() == 1 else "forkserver"
            _pool = ProcessPoolExecutor(WORKERS, mp_context=get_context(method), initializer=_start_worker)
        return _pool


def pages_in_this_process() -> None:
    """From now on, read PDF pages in this process (one thread) rather than in a pool of worker
    processes: for a process that is itself one of many workers, such as a Ray task, where a pool
    in each would crowd the cores and hold more memory."""
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(1, thread_name_prefix="pdf-pages")


def _discard_pool(pool: Executor) -> None:
    global _pool
    with _pool_lock:
        if _pool is pool:
            _pool = None
    pool.shutdown(wait=True, cancel_futures=True)


def _worker_died(pool: Executor | None, message: str) -> ReaderError:
    """The ``RENDER_FAILED`` error to raise when a worker of ``pool`` stopped; the pool is
    discarded first (if there is one), so the next read starts a fresh one."""
    if pool is not None:
        _discard_pool(pool)
    return ReaderError("RENDER_FAILED", message)


def _submit(pdf_path: Path, numbers: list[int], dpi: int) -> tuple[Executor, list]:
    """Submit the batches. A pool that broke while idle (a worker was killed) is replaced once."""
    for attempt in range(2):
        pool = _executor()
        try:
            return pool, [pool.submit(extract_pages, str(pdf_path), batch, dpi) for batch in _batches(numbers)]
        except BrokenProcessPool:
            _discard_pool(pool)
            if attempt:
                raise


def _extract(job, pdf_path: Path, numbers: list[int], dpi: int):
    """Yield each page's extraction as its batch finishes; a page that failed has an "error"."""
    pool, futures = None, []
    try:
        pool, futures = _submit(pdf_path, numbers, dpi)
        for future in as_completed(futures):
            yield from future.result()
    except BrokenProcessPool:
        raise _worker_died(pool, f"A PDF worker process stopped while reading {job.name}: the file may be damaged, or the machine ran out of memory. Try again; if it fails again, the file is the cause.") from None
    finally:
        for future in futures:
            future.cancel()


def read_pdf_pages(job, pdf_path: Path, cache_key: str, text_from_pdf: bool = True) -> tuple[int, list[Page]]:
    """Read the selected pages of ``pdf_path``; ``cache_key`` is the content hash entries go under.

    ``text_from_pdf=False`` when the caller takes the text from elsewhere (a deck's slides, a web
    page's HTML), so what the PDF's text layer lacks (all of it, or glyphs with no map) is not reported. Reports ``job.progress("rendered", done, total)`` as pages come from the cache or a worker.
    """
    store, dpi = job.services.store, job.settings.render_dpi
    meta = store.get_json(cache_key, "pdf.json")
    if meta is None:
        meta = {"page_count": _page_count(pdf_path, job.name)}
        store.put_json(cache_key, "pdf.json", meta)
    numbers = job.select(meta["page_count"])
    found: dict[int, dict] = {}
    for number in numbers:
        entry = store.get_json(cache_key, f"page-{number:04d}.v{EXTRACTION_VERSION}.json")
        png = store.get_bytes(cache_key, f"page-{number:04d}-{dpi}dpi.png")
        if entry is not None and png is not None:
            found[number] = {**entry, "png": png}
    job.progress("rendered", len(found), len(numbers))
    failed: dict[int, str] = {}
    missing = [n for n in numbers if n not in found]
    for done, result in enumerate(_extract(job, pdf_path, missing, dpi) if missing else (), len(found) + 1):
        number = result["number"]
        if "error" in result:
            failed[number] = result["error"]
        else:
            png = result.pop("png")
            store.put_bytes(cache_key, f"page-{number:04d}-{dpi}dpi.png", png)
            store.put_json(cache_key, f"page-{number:04d}.v{EXTRACTION_VERSION}.json", result)
            found[number] = {**result, "png": png}
        job.progress("rendered", done, len(numbers))
    if not found:
        raise ReaderError("CORRUPT_FILE", f"{job.name} is damaged: none of its pages could be read ({failed[numbers[0]]}). Export or download it again.")
    texts = dict(zip(found, heading_levels([entry["text"] for entry in found.values()])))
    pages = []
    for number in numbers:
        if number in failed:
            job.warnings.append(f"Page {number} of {job.name} is damaged and could not be read ({failed[number]}).")
            pages.append(Page(number=number, error=f"This page is damaged and could not be read ({failed[number]})."))
            continue
        entry = found[number]
        if text_from_pdf and not entry["has_text"] and entry["figures"]:  # not a blank page
            job.warnings.append(f"Page {number} has no text layer (a scan or a picture); its content reaches a text-only model only through the visual description.")
        if text_from_pdf and entry["unmapped"]:
            count = entry["unmapped"]
            job.warnings.append(f"Page {number} of {job.name}: {count} {'character' if count == 1 else 'characters'} could not be read and "
                                f"{'was' if count == 1 else 'were'} left out (the font has no map from its glyphs to text).")
        job.figures[number] = entry["figures"]
        figures = [Figure(f["kind"], tuple(f["box"]), f["caption"], f["has_text"]) for f in entry["figures"]]
        pages.append(Page(number=number, text=texts[number], tables=entry["tables"], image=entry["png"], figures=figures))
    job.pdf = pdf_path
    return meta["page_count"], pages


def read(job):
    return job.reading(*read_pdf_pages(job, job.path, job.sha256))
