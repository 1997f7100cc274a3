"""The readers against the simple approach they replace, measured in the same run.

Targets (issue 2; the cold one raised by issue 34): pages 41-60 of a 240-page PDF read cold (text,
tables, 150 dpi PNG) at least 3x faster than pdf2image plus pdfplumber page by page; the same pages
again at least 20x faster than cold; a PPTX read for slides 1-2 and then 3-4 converts nothing the
second time.
The machine may be shared, so the simple approach and ReadLens alternate, and each figure is the
best of ``ROUNDS``.
"""

from __future__ import annotations

import io
import os
import resource
import subprocess
import tempfile
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path
from time import perf_counter

import pdfplumber
import pypdfium2 as pdfium
from pdf2image import convert_from_path

from bench import report
from readers import Services, Settings, read_file
from readers.pdf import pool as pdf_pool
from readers.pdf.objects import PlumberPage
from readers.pdf.pages import pdfminer_pages
from readers.render import libreoffice as office
from readers.render.pdfium import PNG_COMPRESS_LEVEL, rendered_png
from testkit import CORPUS

SOURCES = (
    "markitdown/test.pdf",
    "pdfplumber/nics-background-checks-2015-11.pdf",
    "pdfplumber/issue-140-example.pdf",
    "docling/ocr_test.pdf",
)
DECK = CORPUS / "markitdown" / "test.pptx"
PAGES, FIRST, LAST, DPI = 240, 41, 60, 150
ROUNDS = 3
COLD_TARGET, WARM_TARGET = 3.0, 20.0


def build_pdf(target: Path) -> Path:
    """PAGES pages cycling through real corpus pages: prose, a ruled table, a form, a scan."""
    sources = [pdfium.PdfDocument(str(CORPUS / name)) for name in SOURCES]
    merged = pdfium.PdfDocument.new()
    for index in range(PAGES):
        merged.import_pages(sources[index % len(sources)], [0])
    merged.save(str(target))
    return target


def timed(function, *args) -> float:
    start = perf_counter()
    function(*args)
    return perf_counter() - start


def cpu_seconds() -> float:
    """CPU used so far by this process, its waited-for children (pdftoppm) and the PDF workers.

    The workers are the fork server's children, so their time is read from /proc.
    """
    own = sum(sum(resource.getrusage(who)[:2]) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    workers = pdf_pool.worker_pids()
    ticks = 0
    for pid in list(workers):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        ticks += int(fields[11]) + int(fields[12])  # utime, stime
    return own + ticks / os.sysconf("SC_CLK_TCK")


def measured(function, *args) -> tuple[float, float]:
    """Wall-clock and CPU seconds of one call. The pool outlives the call, so its CPU is counted too."""
    cpu, start = cpu_seconds(), perf_counter()
    function(*args)
    return perf_counter() - start, cpu_seconds() - cpu


def simple(path: Path) -> None:
    """The design this product replaces: pdf2image and pdfplumber, one page at a time."""
    with pdfplumber.open(path) as pdf:
        for number in range(FIRST, LAST + 1):
            image = convert_from_path(path, dpi=DPI, first_page=number, last_page=number)[0]
            image.save(io.BytesIO(), format="PNG")
            page = pdf.pages[number - 1]
            page.extract_text()
            page.extract_tables()


def read_range(path: Path, services: Services, first: int, last: int) -> None:
    reading = read_file(path, first, last, multimodal=True, services=services)
    if len(reading.pages) != last - first + 1 or not all(page.image and not page.error for page in reading.pages):
        raise SystemExit(f"bench: ReadLens returned incomplete pages for {path.name} {first}-{last}")


def services_in(folder: Path) -> Services:
    return Services(Settings(cache_dir=folder, vision_provider="none"))


def verdict(ratio: float, target: float) -> str:
    return "PASS" if ratio >= target else "FAIL"


def pdf_rows(path: Path, work: Path) -> list[list[str]]:
    simple_runs, cold_runs, warm_runs = [], [], []
    for round_number in range(ROUNDS):
        simple_runs.append(measured(simple, path))
        services = services_in(work / f"cache-{round_number}")
        cold_runs.append(measured(read_range, path, services, FIRST, LAST))
        warm_runs.append(measured(read_range, path, services, FIRST, LAST))
    (plain, plain_cpu), (cold, cold_cpu), (warm, warm_cpu) = min(simple_runs), min(cold_runs), min(warm_runs)
    pages = f"pages {FIRST}-{LAST} of {PAGES}"
    return [
        ["simple: pdf2image + pdfplumber, page by page", pages, f"{plain:.2f} s", f"{plain_cpu:.2f} s", "1.0x", ""],
        [
            "ReadLens cold (empty cache)",
            pages,
            f"{cold:.2f} s",
            f"{cold_cpu:.2f} s",
            f"{plain / cold:.1f}x vs simple",
            f"{verdict(plain / cold, COLD_TARGET)} (>= {COLD_TARGET}x); first "
            f"cold read, starting the worker pool: {cold_runs[0][0]:.2f} s",
        ],
        [
            "ReadLens warm (same pages again)",
            pages,
            f"{warm:.3f} s",
            f"{warm_cpu:.3f} s",
            f"{cold / warm:.0f}x vs cold",
            f"{verdict(cold / warm, WARM_TARGET)} (>= {WARM_TARGET:g}x)",
        ],
    ]


def pptx_row(work: Path) -> list[str]:
    calls = []
    convert = office.convert_to_pdf

    def counted(*args, **kwargs):
        calls.append(args)
        return convert(*args, **kwargs)

    office.convert_to_pdf = counted
    try:
        services = services_in(work / "cache-pptx")
        first = timed(read_range, DECK, services, 1, 2)
        converted_first = len(calls)
        second = timed(read_range, DECK, services, 3, 4)
    finally:
        office.convert_to_pdf = convert
    converted_second = len(calls) - converted_first
    return [
        f"PPTX {DECK.name}: slides 1-2, then 3-4",
        "2 + 2 slides",
        f"{first:.2f} s, then {second:.2f} s",
        "",
        f"LibreOffice conversions: {converted_first}, then {converted_second}",
        "PASS" if converted_second == 0 and converted_first == 1 else "FAIL",
    ]


def choice_rows(path: Path, work: Path) -> list[list[str]]:
    """What the PDF reader's choices cost on one core, against the alternatives."""
    numbers = range(FIRST, LAST + 1)
    document = pdfium.PdfDocument(str(path))

    def pdf2image_pages():
        for number in numbers:
            convert_from_path(path, dpi=DPI, first_page=number, last_page=number)[0].save(io.BytesIO(), format="PNG")

    def pdftoppm_range():
        subprocess.run(
            ["pdftoppm", "-r", str(DPI), "-png", "-f", str(FIRST), "-l", str(LAST), str(path), str(work / "ppm")],
            check=True,
            stderr=subprocess.DEVNULL,
        )

    def pdfium_pages(level):
        for number in numbers:
            document[number - 1].render(scale=DPI / 72, rev_byteorder=True).to_pil().save(
                io.BytesIO(), format="PNG", compress_level=level
            )

    def readlens_pages():
        for number in numbers:
            rendered_png(document[number - 1].render(scale=DPI / 72, rev_byteorder=True))

    def plumber_page(number):
        with pdfplumber.open(path, pages=[number]) as pdf:
            _ = pdf.pages[0].chars

    def walked_page(number):
        with open(path, "rb") as stream:
            pdf = pdfplumber.PDF(stream, stream_is_external=True)
            _ = PlumberPage(pdf, pdfminer_pages(pdf.doc, [number])[number], page_number=number).chars

    def plumber_count():
        with pdfplumber.open(path) as pdf:
            len(pdf.pages)

    def pool_start(method):
        with ProcessPoolExecutor(pdf_pool.WORKERS, mp_context=get_context(method)) as pool:
            list(pool.map(pdf_pool.batches, [[1]] * pdf_pool.WORKERS))  # each worker imports the reader

    rows = [
        ["render + PNG, 20 pages: pdf2image per page, PNG level 6", f"{timed(pdf2image_pages):.2f} s"],
        ["render + PNG, 20 pages: pdftoppm, one call for the range", f"{timed(pdftoppm_range):.2f} s"],
        ["render + PNG, 20 pages: pdfium, Pillow PNG level 6", f"{timed(pdfium_pages, 6):.2f} s"],
        [
            f"render + PNG, 20 pages: pdfium, Pillow PNG level {PNG_COMPRESS_LEVEL}",
            f"{timed(pdfium_pages, PNG_COMPRESS_LEVEL):.2f} s",
        ],
        [
            f"render + PNG, 20 pages: pdfium, grey in one channel, rows filtered Up, level {PNG_COMPRESS_LEVEL} "
            "(ReadLens)",
            f"{timed(readlens_pages):.2f} s",
        ],
        ["open page 200 and parse it: pdfplumber.open(pages=[200])", f"{timed(plumber_page, 200):.3f} s"],
        ["open page 200 and parse it: page-tree walk (ReadLens)", f"{timed(walked_page, 200):.3f} s"],
        ["page count: pdfplumber", f"{timed(plumber_count):.3f} s"],
        ["page count: pdfium (ReadLens)", f"{timed(lambda: len(pdfium.PdfDocument(str(path)))):.4f} s"],
        [
            "start the worker pool: fork server (ReadLens when other threads run)",
            f"{timed(pool_start, 'forkserver'):.3f} s",
        ],
        ["start the worker pool: fork (ReadLens in a single-threaded process)", f"{timed(pool_start, 'fork'):.3f} s"],
    ]
    document.close()
    return rows


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="readlens-bench-") as folder:
        work = Path(folder)
        path = build_pdf(work / f"mixed-{PAGES}-pages.pdf")
        rows = [["case", "pages", "time", "CPU time", "ratio", "target"], *pdf_rows(path, work), pptx_row(work)]
        report.table(rows)
        report.table([["PDF reader choice (one core unless said)", "time"], *choice_rows(path, work)])
