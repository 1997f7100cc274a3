"""Charts rebuilt from PDF drawings: what reading them costs.

- Each chart figure: at most ``CHART_TARGET_MS`` (20 ms) to rebuild, measured on every drawing of
  the chart fixtures the tests use and of assets/chart-report.pdf, inside the page extraction the
  reader runs (the words already laid out, as the reader has them).
- A cold text-only read of a 20-page text-only PDF stays within 5% of the same read without chart
  reading, measured alternately in the same run (each variant with a fresh worker pool).
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from statistics import median
from time import perf_counter

import pdfplumber

from bench import report
from bench.bench_figures import with_and_without
from readers.pdf import layout
from readers.pdf.pages import extract_pages
from testkit import CORPUS, ROOT, fixtures
from testkit.fixtures import charts as chart_fixtures

CHART_TARGET_MS = 20.0
READ_TARGET = 1.05


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

    def switch(on: bool) -> None:
        layout.read_chart, layout.grouped_labels = (reader, grouped) if on else (lambda *args: None, lambda *args: "")

    warm_up = (ROOT / "assets/chart-report.pdf", 1, 1)
    return with_and_without("chart reading", switch, warm_up, path, folder, READ_TARGET)


def main() -> None:
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
        report.table(rows)
