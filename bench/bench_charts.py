"""Charts rebuilt from PDF drawings: what reading them costs.

- Each chart figure: at most ``CHART_TARGET_MS`` (20 ms) to rebuild, measured on every drawing of
  the chart fixtures the tests use and of assets/chart-report.pdf, inside the page extraction the
  reader runs (the words already laid out, as the reader has them).
- A cold text-only read of a 20-page text-only PDF stays within 5% of the same read without chart
  reading, measured alternately in the same run (each variant with a fresh worker pool).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from statistics import median
from time import perf_counter

import pdfplumber

from readers import Services, read_file
from readers.markup.tables import markdown_table
from readers.pdf import layout
from readers.pdf.pages import extract_pages
from readers.pdf.pool import restart
from tests import fixtures
from tests.conftest import CORPUS, ROOT, make_settings
from tests.fixtures import charts as chart_fixtures

CHART_TARGET_MS = 20.0
READ_TARGET = 1.05
ROUNDS = 3


def chart_ms(paths: list[Path]) -> list[tuple[float, str]]:
    """Milliseconds of each ``read_chart`` call while every page of ``paths`` is extracted here."""
    reader, times = layout.read_chart, []

    def timed(page, box, words):
        start = perf_counter()
        chart = reader(page, box, words)
        times.append(((perf_counter() - start) * 1000, chart.kind if chart else "none"))
        return chart

    layout.read_chart = timed
    try:
        for path in paths:
            with pdfplumber.open(path) as pdf:
                numbers = list(range(1, len(pdf.pages) + 1))
            extract_pages(str(path), numbers, 72)
    finally:
        layout.read_chart = reader
    return times


def read_rows(path: Path, folder: Path) -> list[list[str]]:
    reader, grouped = layout.read_chart, layout.grouped_labels
    runs = {"with": [], "without": []}
    for round_number in range(ROUNDS):
        for variant in ("without", "with"):
            layout.read_chart, layout.grouped_labels = (
                (reader, grouped) if variant == "with" else (lambda *args: None, lambda *args: "")
            )
            restart()  # the workers fork from here, with the variant
            read_file(
                ROOT / "assets/chart-report.pdf",
                1,
                1,
                services=Services(make_settings(folder / f"warm-{variant}-{round_number}")),
            )
            start = perf_counter()
            read_file(path, services=Services(make_settings(folder / f"{variant}-{round_number}")))
            runs[variant].append(perf_counter() - start)
    layout.read_chart, layout.grouped_labels = reader, grouped
    restart()
    before, after = min(runs["without"]), min(runs["with"])
    ratio = after / before
    return [
        ["cold text-only read, 20 text pages, without chart reading", f"{before:.2f} s", ""],
        [
            "cold text-only read, 20 text pages, with chart reading (ReadLens)",
            f"{after:.2f} s",
            f"{'PASS' if ratio <= READ_TARGET else 'FAIL'}: {ratio:.2f}x (<= {READ_TARGET:.2f}x)",
        ],
    ]


def main() -> None:
    print(
        f"{os.cpu_count()} cores; load average before: {os.getloadavg()[0]:.1f} "
        "(other work on the machine slows every row)",
        flush=True,
    )
    with tempfile.TemporaryDirectory(prefix="readlens-bench-") as name:
        folder = Path(name)
        (folder / "charts").mkdir()
        made = [
            make(folder / "charts")
            for name, make in chart_fixtures.CASES.items()
            if shutil.which("soffice") or name not in chart_fixtures.NEEDS_LIBREOFFICE
        ]
        charts = [path for path, _ in made] + [ROOT / "assets/chart-report.pdf"]
        times = chart_ms(charts)
        rebuilt = [ms for ms, kind in times if kind != "none"]
        worst = max(ms for ms, _ in times)
        text_only = fixtures.multi_page_pdf(folder / "text.pdf", 20, [(CORPUS / "markitdown/test.pdf", 0)])
        rows = [
            ["case", "time", "result"],
            [
                f"rebuilding a chart from its drawing ({len(rebuilt)} charts "
                f"rebuilt, {len(times) - len(rebuilt)} refused as no chart, "
                f"{len(charts)} PDFs)",
                f"{median(ms for ms, _ in times):.2f} ms median, {worst:.2f} ms worst",
                f"{'PASS' if worst <= CHART_TARGET_MS else 'FAIL'} (<= {CHART_TARGET_MS:g} ms)",
            ],
            *read_rows(text_only, folder),
        ]
        print(markdown_table(rows), end="\n\n")
    print(f"load average after: {os.getloadavg()[0]:.1f}")
