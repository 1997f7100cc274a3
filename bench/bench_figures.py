"""Figures: what finding them costs, what reading them costs, and what they save.

- Finding figures on a parsed page: at most a few ms (measured on every page of the benchmark's
  mixed PDF and of the figures fixture, after pdfplumber has parsed them as the reader does).
- A cold text-only read of a 20-page text-only PDF stays within 10% of the same read without
  figure finding (the reader before figures), measured alternately in the same run.
- Local OCR: seconds per figure, cold (the figures of the fixture, and a scanned A4 page).
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from time import perf_counter

import pdfplumber

from bench import report
from readers import Services, read_file
from readers.pdf import pages as pdf_pages
from readers.pdf.pool import restart
from testkit import CORPUS, fixtures, make_settings

ROUNDS = 3
READ_TARGET = 1.10
FIND_TARGET_MS = 5.0


def finding_ms(paths: list[Path]) -> tuple[float, float, int]:
    """Mean and worst milliseconds of ``find_figures`` per page, over every page of ``paths``."""
    times = []
    for path in paths:
        with pdfplumber.open(path) as pdf:
            for page in pdf.pages:
                _ = page.chars  # parsed, as the reader has it when it looks for figures
                tables = [table.bbox for table in page.find_tables() if pdf_pages.is_table(table.extract())]
                start = perf_counter()
                pdf_pages.find_figures(page, tables)
                times.append((perf_counter() - start) * 1000)
    return sum(times) / len(times), max(times), len(times)


def with_and_without(feature: str, switch, warm_up: tuple, path: Path, folder: Path, target: float) -> list:
    """Two rows: the best of ``ROUNDS`` cold text-only reads of ``path`` without ``feature`` and with
    it, alternated, and the ratio against ``target``. ``switch(on)`` turns the feature on or off; each
    variant gets a fresh worker pool (forked after the switch, so the workers run the variant),
    started by a read of ``warm_up`` (a file and its first and last page)."""
    runs = {False: [], True: []}
    try:
        for round_number in range(ROUNDS):
            for on in (False, True):
                switch(on)
                restart()
                read_file(*warm_up, services=Services(make_settings(folder / f"warm-{on}-{round_number}")))
                start = perf_counter()
                read_file(path, services=Services(make_settings(folder / f"{on}-{round_number}")))
                runs[on].append(perf_counter() - start)
    finally:
        switch(True)
        restart()
    before, after = min(runs[False]), min(runs[True])
    ratio = after / before
    return [
        [f"cold text-only read, 20 text pages, without {feature}", f"{before:.2f} s", ""],
        [
            f"cold text-only read, 20 text pages, with {feature} (ReadLens)",
            f"{after:.2f} s",
            f"{'PASS' if ratio <= target else 'FAIL'}: {ratio:.2f}x (<= {target:.2f}x)",
        ],
    ]


def read_rows(path: Path, folder: Path) -> list[list[str]]:
    finder = pdf_pages.find_figures

    def switch(on: bool) -> None:
        pdf_pages.find_figures = finder if on else lambda page, tables: []

    warm_up = (fixtures.figures_pdf(folder / "warm-up.pdf"), 6, 6)
    return with_and_without("figure finding", switch, warm_up, path, folder, READ_TARGET)


def ocr_rows(folder: Path) -> list[list[str]]:
    figures = fixtures.figures_pdf(folder / "figures.pdf")
    services = Services(make_settings(folder / "ocr", vision_provider="ocr"))
    start = perf_counter()
    reading = read_file(figures, 1, 4, services=services)
    seconds = perf_counter() - start
    rows = [
        [
            f"local OCR, {reading.usage.calls} figures of the fixture (pages 1-4), cold",
            f"{seconds:.2f} s",
            f"{seconds / max(1, reading.usage.calls):.2f} s per figure",
        ]
    ]
    start = perf_counter()
    scan = read_file(CORPUS / "docling/ocr_test.pdf", services=services)
    rows.append(
        [
            "local OCR, a scanned A4 page (600 dpi image, read at 300 dpi), cold",
            f"{perf_counter() - start:.2f} s",
            f"{scan.usage.calls} figure",
        ]
    )
    start = perf_counter()
    again = read_file(figures, 1, 4, services=services)
    rows.append(["the same figures again (cached)", f"{perf_counter() - start:.3f} s", f"{again.usage.calls} OCR runs"])
    return rows


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="readlens-bench-") as name:
        folder = Path(name)
        mixed = fixtures.multi_page_pdf(folder / "mixed.pdf", 40)
        text_only = fixtures.multi_page_pdf(folder / "text.pdf", 20, [(CORPUS / "markitdown/test.pdf", 0)])
        mean, worst, pages = finding_ms([mixed, fixtures.figures_pdf(folder / "found.pdf")])
        rows = [
            ["case", "time", "result"],
            [
                f"finding figures on a parsed page ({pages} pages: prose, tables, pictures, a chart, a scan)",
                f"{mean:.2f} ms mean, {worst:.2f} ms worst",
                f"{'PASS' if worst <= FIND_TARGET_MS else 'FAIL'} (<= {FIND_TARGET_MS:g} ms)",
            ],
            *read_rows(text_only, folder),
            *ocr_rows(folder),
        ]
        report.table(rows)
