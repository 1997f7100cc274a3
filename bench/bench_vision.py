"""Describing pages against a vision server that takes 500 ms per call, in the same run:

- 8 pages with figures, ``VISION_CONCURRENCY=4``: under 1.5 s, next to one after another (about 4 s);
- a text-only re-read of 20 described pages: zero calls and under 0.2 s;
- calls made and saved on a document of figures and text pages, next to a call for every page.

The server is ``testkit/fake_openai.py`` reached through the real ``openai`` SDK. Page renders are
cached first, so the figures are the describing (and, for the re-read, the whole ``read_file``).
Each figure is the best of ``ROUNDS``, as the machine may be shared.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from time import perf_counter

from bench import report
from readers import Services, read_file
from testkit import fixtures, make_settings
from testkit.fake_openai import FakeOpenAI

CALL_SECONDS = 0.5
ROUNDS = 2
CONCURRENT_TARGET, REREAD_TARGET = 1.5, 0.2


def timed_read(path: Path, services: Services) -> tuple[float, int]:
    """Seconds for one text-only ``read_file`` of every page, and the vision calls it made."""
    start = perf_counter()
    reading = read_file(path, services=services)
    elapsed = perf_counter() - start
    assert all(page.description for page in reading.pages if page.figures), [page.error for page in reading.pages]
    return elapsed, reading.usage.calls


def described_from_scratch(path: Path, services: Services) -> tuple[float, int]:
    """Best of ``ROUNDS`` reads, each with the description cache emptied first."""
    runs = []
    for _ in range(ROUNDS):
        services.cache.clear()
        runs.append(timed_read(path, services))
    return min(runs)


def shown(run: tuple[float, int]) -> list[str]:
    """A read's seconds and vision calls, as the table shows them."""
    return [f"{run[0]:.3f}", str(run[1])]


def main() -> None:
    server = FakeOpenAI().start()
    server.delay = CALL_SECONDS
    try:
        with tempfile.TemporaryDirectory() as folder:
            cache = Path(folder) / "cache"
            figures = fixtures.figures_pdf(Path(folder) / "figures.pdf")
            with_figures = [(figures, index) for index in (0, 1, 3, 4)]  # a picture, a chart, a picture, a scan
            eight = fixtures.multi_page_pdf(Path(folder) / "eight.pdf", 8, with_figures)
            twenty = fixtures.multi_page_pdf(Path(folder) / "twenty.pdf", 20, with_figures)
            mixed = fixtures.multi_page_pdf(
                Path(folder) / "mixed.pdf", 24, [(figures, index) for index in range(6)] + fixtures.CORPUS_PAGES
            )
            for path in (eight, twenty, mixed):
                read_file(path, services=Services(make_settings(cache)))  # renders only: provider none
            vision = lambda concurrency: Services(
                make_settings(
                    cache, vision_provider="openai", vision_base_url=server.base_url, vision_concurrency=concurrency
                )
            )
            one_by_one = described_from_scratch(eight, vision(1))
            concurrent = described_from_scratch(eight, vision(4))
            services = vision(4)
            first = described_from_scratch(twenty, services)
            reread = min(timed_read(twenty, services) for _ in range(ROUNDS))
            saving = read_file(mixed, services=services)
    finally:
        server.stop()
    verdict = lambda passed: "PASS" if passed else "FAIL"
    rows = [
        ["case", "seconds", "calls", "target", "result"],
        ["8 pages, one after another (concurrency 1)", *shown(one_by_one), "", ""],
        [
            "8 pages, VISION_CONCURRENCY=4",
            *shown(concurrent),
            f"< {CONCURRENT_TARGET:g} s",
            verdict(concurrent[0] < CONCURRENT_TARGET),
        ],
        ["20 pages, first read (concurrency 4)", *shown(first), "", ""],
        [
            "20 pages, text-only re-read",
            *shown(reread),
            f"< {REREAD_TARGET:g} s, 0 calls",
            verdict(reread[0] < REREAD_TARGET and reread[1] == 0),
        ],
    ]
    print(f"Vision descriptions: a server taking {CALL_SECONDS * 1000:.0f} ms per call; best of {ROUNDS}.")
    report.table(rows)
    usage = saving.usage
    print(
        f"{len(saving.pages)} pages (pictures, a chart, a scan, prose, "
        f"tables): {usage.calls} calls made, {usage.calls_saved} saved "
        f"on pages with only text, against {len(saving.pages)} calls when every page is sent."
    )
