"""Figures: what finding them costs, what reading them costs, and what they save.

- Finding figures on a parsed page: at most a few ms (measured on every page of the benchmark's
  mixed PDF and of the figures fixture, after pdfplumber has parsed them as the reader does).
- A cold text-only read of a 20-page text-only PDF stays within 10% of the same read without
  figure finding (the reader before figures), measured alternately in the same run.
- Local OCR: seconds per figure, cold (the figures of the fixture, and a scanned A4 page).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from time import perf_counter

import pdfplumber

from readers import Services, read_file
from readers.markup.tables import markdown_table
from readers.pdf import pages as pdf_pages
from readers.pdf.pool import restart
from tests import fixtures
from tests.conftest import CORPUS, make_settings

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


def cold_read(path: Path, folder: Path, name: str) -> float:
    start = perf_counter()
    read_file(path, services=Services(make_settings(folder / name)))
    return perf_counter() - start


def without_figures(page, tables) -> list:
    return []


def read_rows(path: Path, folder: Path) -> list[list[str]]:
    """Alternate reads with and without figure finding; each variant with a fresh worker pool
    (forked after the switch, so the workers run the variant)."""
    finder = pdf_pages.find_figures
    runs = {"with": [], "without": []}
    for round_number in range(ROUNDS):
        for variant in ("without", "with"):
            pdf_pages.find_figures = finder if variant == "with" else without_figures
            restart()
            read_file(
                fixtures.figures_pdf(folder / f"warm-{variant}-{round_number}.pdf"),
                6,
                6,
                services=Services(make_settings(folder / f"warm-{variant}-{round_number}")),
            )  # start the pool
            runs[variant].append(cold_read(path, folder, f"{variant}-{round_number}"))
    pdf_pages.find_figures = finder
    before, after = min(runs["without"]), min(runs["with"])
    ratio = after / before
    return [
        ["cold text-only read, 20 text pages, without figure finding", f"{before:.2f} s", ""],
        [
            "cold text-only read, 20 text pages, with figure finding (ReadLens)",
            f"{after:.2f} s",
            f"{'PASS' if ratio <= READ_TARGET else 'FAIL'}: {ratio:.2f}x (<= {READ_TARGET:.2f}x)",
        ],
    ]


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
    print(
        f"{os.cpu_count()} cores; load average before: {os.getloadavg()[0]:.1f} "
        "(other work on the machine slows every row)",
        flush=True,
    )
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
        print(markdown_table(rows), end="\n\n")
    print(f"load average after: {os.getloadavg()[0]:.1f}")
