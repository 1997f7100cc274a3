"""Real PDFs read right: ReadLens and markitdown on the page checks of ``tests/corpus/page-checks.json``
(``tests.page_checks``): 45 pages of 41 real public PDFs — statements and invoices, papers in one to
three columns, scans with OCR layers, slides and posters, forms, reports, Korean, Chinese, Arabic and
Persian pages — and 283 checks written from each page's render.

Each tool reads what a model would be given: ReadLens ``read_file`` with its defaults (text-only,
local OCR, an empty cache), each page read alone or the file's checked pages together as the checks
say; markitdown 0.1 with its PDF extra, in the scratch virtualenv ``bench_peers`` makes (never a
dependency), page by page (``markitdown_pages.py``). Printed: each kind's checks passed, side by
side; the seconds each tool took; and every check ReadLens fails, with why.

python -m bench pages
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import tempfile
from pathlib import Path
from time import perf_counter

from readers import ReaderError, Services, Settings, read_file
from tests.conftest import CORPUS
from tests.page_checks import KINDS, PageEntry, described, entries, evaluate, reads, split_pages

from .bench_peers import PEERS, PEERS_CHECK
from .scratch import peers_python

WORKER = Path(__file__).with_name("markitdown_pages.py")


def readlens_pages(pages: list[PageEntry], cache: Path) -> tuple[dict, list[float]]:
    """``{(file, page, alone): text or None}`` as ReadLens reads them, and the seconds of each read."""
    services = Services(Settings(cache_dir=cache, vision_provider="auto"))
    texts, seconds = {}, []
    for (file, first, last), group in sorted(reads(pages).items()):
        start = perf_counter()
        try:
            found = split_pages(read_file(CORPUS / file, first, last, services=services).as_text())
        except ReaderError as error:
            print(f"  ReadLens could not read {file}: {error.code}: {error.message}")
            found = {}
        seconds.append(perf_counter() - start)
        texts |= {(entry.file, entry.page, entry.alone): found.get(entry.page) for entry in group}
    return texts, seconds


def markitdown_pages(pages: list[PageEntry], python: Path) -> tuple[dict, list[float]]:
    files = sorted({entry.file for entry in pages})
    result = subprocess.run(
        [str(python), str(WORKER), *(str(CORPUS / file) for file in files)],
        capture_output=True,
        text=True,
        timeout=3600,
    )
    answers = {Path(path).relative_to(CORPUS).as_posix(): answer for path, answer in json.loads(result.stdout).items()}
    texts = {}
    for entry in pages:
        found = answers[entry.file].get("pages") or []
        texts[(entry.file, entry.page, entry.alone)] = found[entry.page - 1] if entry.page <= len(found) else None
    inconsistent = [file for file, answer in answers.items() if answer.get("consistent") is False]
    if inconsistent:
        print(f"  markitdown's pages do not add up to its whole output for {', '.join(inconsistent)}")
    return texts, [answer["seconds"] for answer in answers.values() if "seconds" in answer]


def scored(pages: list[PageEntry], texts: dict) -> list[tuple[PageEntry, dict, bool, str]]:
    return [
        (entry, check, *evaluate(check, texts[(entry.file, entry.page, entry.alone)]))
        for entry in pages
        for check in entry.checks
    ]


def main() -> None:
    print(f"{os.cpu_count()} cores; load average before: {os.getloadavg()[0]:.1f}", flush=True)
    pages = entries()
    with tempfile.TemporaryDirectory(prefix="readlens-bench-") as folder:
        texts, seconds = readlens_pages(pages, Path(folder) / "cache")
    results = {"ReadLens": scored(pages, texts)}
    timings = {"ReadLens": seconds}
    python = peers_python("markitdown", PEERS, PEERS_CHECK)
    if python is not None:
        peer_texts, peer_seconds = markitdown_pages(pages, python)
        results["markitdown"] = scored(pages, peer_texts)
        timings["markitdown"] = peer_seconds
    files = len({entry.file for entry in pages})
    print(f"{len(pages)} pages of {files} real PDFs, {sum(len(entry.checks) for entry in pages)} checks\n")
    print(f"| kind | {' | '.join(results)} |\n|---|{'---|' * len(results)}")
    for kind in (*KINDS, None):
        cells = []
        for rows in results.values():
            chosen = [passed for _, check, passed, _ in rows if kind is None or check["kind"] == kind]
            cells.append(f"{sum(chosen)}/{len(chosen)} ({100 * sum(chosen) / len(chosen):.1f}%)")
        print(f"| {kind or '**all**'} | {' | '.join(cells)} |")
    for tool, spent in timings.items():
        print(f"{tool}: {sum(spent):.1f} s in all, median {statistics.median(spent):.2f} s a read")
    failed = [(entry, check, why) for entry, check, passed, why in results["ReadLens"] if not passed]
    print(f"\nReadLens fails {len(failed)} checks:")
    for entry, check, why in failed:
        print(f"- {entry.file} p. {entry.page}: {described(check)}" + (f" ({why})" if why else ""))
    print(f"load average after: {os.getloadavg()[0]:.1f}")
