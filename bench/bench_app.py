"""The app in a real browser and through the API, on the defaults (local OCR, no key).

Targets (issue 5): from choosing a 4-page PDF in the browser to its first page image visible in
under 3 s, and to all pages visible; six API clients reading different files at once.

Every file is a fresh copy (a byte after its end), so nothing comes from the cache. The simple
approach it is compared with reads the whole file and shows it when done: its "visible" times are
the API's whole-file time, a lower bound (a browser still has to draw it). The six clients are
compared with the same six reads one after another.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from gradio_client import Client, handle_file
from playwright.sync_api import sync_playwright

from bench import report
from testkit import CORPUS, ROOT
from testkit.server import CHROMIUM, CHROMIUM_ARGS, UPLOAD, launch_app, stop

REPORT_PDF = ROOT / "assets" / "chart-report.pdf"
RUNS = 3
FIRST_PAGE_TARGET_S = 3.0
CLIENT_FILES = [
    REPORT_PDF,
    CORPUS / "markitdown/test.pdf",
    CORPUS / "pdfplumber/issue-140-example.pdf",
    CORPUS / "pdfplumber/nics-background-checks-2015-11.pdf",
    ROOT / "assets/diagram.png",
    CORPUS / "python-docx/images/300-dpi.png",
]


class Copies:
    """Fresh copies of files: bytes after the end (a PDF's %%EOF, a PNG's IEND) make each one new content."""

    def __init__(self, folder: Path):
        self.folder, self.count = folder, 0

    def __call__(self, source: Path) -> Path:
        self.count += 1
        target = self.folder / str(self.count) / source.name
        target.parent.mkdir(parents=True)
        target.write_bytes(source.read_bytes() + f"\n% copy {self.count} {time.time()}\n".encode())
        return target


def browser_times(url: str, copies: Copies) -> list[tuple[float, float]]:
    """(first page image visible, all four visible) in seconds, for each run, from choosing the file."""
    times = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for _ in range(RUNS + 1):
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(url)
            page.wait_for_selector(UPLOAD, state="attached")
            pdf = copies(REPORT_PDF)
            images = f"img[src*='{pdf.stem}']"
            start = time.perf_counter()
            page.set_input_files(UPLOAD, str(pdf))
            page.wait_for_function(
                f'[...document.querySelectorAll("{images}")].some(i => i.complete && i.naturalWidth > 0)',
                timeout=120_000,
            )
            first = time.perf_counter() - start
            # Gradio loads images lazily: the last page's loads once it is scrolled to, as a person would.
            page.wait_for_function(f'document.querySelectorAll("{images}").length >= 4', timeout=120_000)
            page.locator(images).last.scroll_into_view_if_needed()
            page.wait_for_function(
                f'[...document.querySelectorAll("{images}")].filter(i => i.complete && i.naturalWidth > 0).length >= 4',
                timeout=120_000,
            )
            times.append((first, time.perf_counter() - start))
            page.close()
        browser.close()
    return times


def read(url: str, path: Path) -> float:
    start = time.perf_counter()
    Client(url, verbose=False).predict(handle_file(str(path)), None, None, "", False, api_name="/read_file")
    return time.perf_counter() - start


def main() -> None:
    with tempfile.TemporaryDirectory() as work:
        folder = Path(work)
        copies = Copies(folder / "copies")
        url, process = launch_app({"READLENS_CACHE_DIR": str(folder / "cache")}, folder / "app.log")
        try:
            runs = browser_times(url, copies)
            whole = [read(url, copies(REPORT_PDF)) for _ in range(RUNS)]
            sequential_start = time.perf_counter()
            one_by_one = [read(url, copies(path)) for path in CLIENT_FILES]
            sequential = time.perf_counter() - sequential_start
            fresh = [copies(path) for path in CLIENT_FILES]
            concurrent_start = time.perf_counter()
            with ThreadPoolExecutor(len(fresh)) as pool:
                latencies = list(pool.map(lambda path: read(url, path), fresh))
            concurrent = time.perf_counter() - concurrent_start
        finally:
            stop(process)

    cold, warm = runs[0], runs[1:]
    first = statistics.median(r[0] for r in warm)
    every = statistics.median(r[1] for r in warm)
    simple = statistics.median(whole)
    print(f"4-page PDF ({REPORT_PDF.name}), new content each time; median of {RUNS} after the app's first upload")
    met = "met" if first < FIRST_PAGE_TARGET_S else "MISSED"
    report.table(
        [
            ["case", "ReadLens app", "simple: whole file", "target"],
            ["first page image visible", f"{first:.2f} s", f"{simple:.2f} s", f"< {FIRST_PAGE_TARGET_S:.0f} s: {met}"],
            ["all 4 pages visible", f"{every:.2f} s", f"{simple:.2f} s", ""],
            ["first upload after start (first page / all)", f"{cold[0]:.2f} s / {cold[1]:.2f} s", "", ""],
        ]
    )
    print("simple = the whole file through /read_file, without the browser's upload and drawing: a lower bound\n")
    print(f"{len(CLIENT_FILES)} API clients, each a different file (4 PDFs, 2 images), text-only mode with local OCR")
    report.table(
        [
            ["case", "at once", "one after another"],
            ["all six done", f"{concurrent:.2f} s", f"{sequential:.2f} s"],
            ["slowest client", f"{max(latencies):.2f} s", f"{max(one_by_one):.2f} s"],
        ]
    )
