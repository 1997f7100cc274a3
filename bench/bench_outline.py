"""The outline of a 300-page PDF (issue 23), cold and from the cache; target: cached under a second.

The outline reads every page twice (text-only and multimodal), counts each page's tokens in both
modes, and gathers headings, tables and figures. Cold, every page is extracted and rendered first;
cached, it reads the cached pages. It is timed in the API's function (``Endpoints.outline``) and
through ``gradio_client`` against ``python app.py``, upload included (the fixture is 0.3 MB). The
simple approach it is set beside extracts each page's text with pdfplumber and counts it, on every
call: no tables, headings, images, descriptions or cache, so a lower bound of the work, not an
outline. Each cached figure is the best of ``ROUNDS``, as the machine may be shared.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import pdfplumber
from gradio_client import Client, handle_file

from bench import report
from readers import Services, Settings
from readers.payload.tokens import text_tokens
from testkit.fixtures.book import BOOK_PAGES, field_manual_pdf
from testkit.server import ARTIFACTS, launch_app, stop
from ui.api import Endpoints

ROUNDS = 5
TARGET_S = 1.0


def timed(function, *args, **kwargs) -> float:
    start = time.perf_counter()
    function(*args, **kwargs)
    return time.perf_counter() - start


def best(function, *args, **kwargs) -> float:
    return min(timed(function, *args, **kwargs) for _ in range(ROUNDS))


def simple(path: Path) -> list[int]:
    with pdfplumber.open(path) as pdf:
        return [text_tokens(page.extract_text() or "") for page in pdf.pages]


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="readlens-bench-outline-") as folder:
        work = Path(folder)
        pdf = field_manual_pdf(work / "manual.pdf")
        size = f"{BOOK_PAGES} pages, {pdf.stat().st_size / 1e6:.1f} MB"
        endpoints = Endpoints(Services(Settings(cache_dir=work / "cache", vision_provider="none")), work / "out")
        cold = timed(endpoints.outline, str(pdf))
        cached = best(endpoints.outline, str(pdf))
        plain = best(simple, pdf)
        url, process = launch_app(
            {"READLENS_CACHE_DIR": str(work / "app-cache"), "VISION_PROVIDER": "none"}, ARTIFACTS / "bench-outline.log"
        )
        try:
            client = Client(url, verbose=False)
            over_api = [
                timed(client.predict, file=handle_file(str(pdf)), api_name="/outline") for _ in range(ROUNDS + 1)
            ]
        finally:
            stop(process)
    rows = [
        ["case", "file", "time", "target"],
        ["simple: pdfplumber text of every page, counted (no outline)", size, f"{plain:.2f} s", ""],
        ["outline, cold (extracts and renders every page)", size, f"{cold:.2f} s", ""],
        [
            "outline from the cache, Endpoints.outline",
            size,
            f"{cached:.2f} s",
            f"< {TARGET_S:g} s {'✓' if cached < TARGET_S else '✗'}",
        ],
        ["outline, cold, through gradio_client (app.py)", size, f"{over_api[0]:.2f} s", ""],
        [
            "outline from the cache, through gradio_client",
            size,
            f"{min(over_api[1:]):.2f} s",
            f"< {TARGET_S:g} s {'✓' if min(over_api[1:]) < TARGET_S else '✗'}",
        ],
    ]
    report.table(rows)
