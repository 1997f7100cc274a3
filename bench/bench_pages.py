"""Real PDFs read right: ReadLens and markitdown on the page checks of ``tests/corpus/page-checks.json``
(``testkit.page_checks``): 45 pages of 41 real public PDFs — statements and invoices, papers in one to
three columns, scans with OCR layers, slides and posters, forms, reports, Korean, Chinese, Arabic and
Persian pages — and 283 checks written from each page's render.

Each tool reads what a model would be given: ReadLens ``read_file`` with its defaults (text-only,
local OCR, an empty cache), each page read alone or the file's checked pages together as the checks
say; markitdown 0.1 with its PDF extra, in its scratch virtualenv (``bench.scratch.MARKITDOWN``, never
a dependency), page by page (``markitdown_pages.py``). Printed: each kind's checks passed, side by
side; the seconds each tool took; and every check ReadLens fails, with why.

python -m bench pages
"""

from __future__ import annotations

import statistics
import tempfile
from pathlib import Path
from time import perf_counter

from bench import report
from bench.scratch import MARKITDOWN
from readers import ReaderError, Services, Settings, read_file
from testkit import CORPUS
from testkit.page_checks import KINDS, PageEntry, described, entries, evaluate, reads, split_pages


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


def markitdown_pages(pages: list[PageEntry]) -> tuple[dict, list[float]] | None:
    """``{(file, page, alone): text or None}`` as markitdown makes the pages (``markitdown_pages.py``),
    and the seconds of each file's conversion; None when markitdown could not be run."""
    answer = MARKITDOWN.run("markitdown_pages.py", *(CORPUS / file for file in sorted({entry.file for entry in pages})))
    if answer is None:
        return None
    answers = {Path(path).relative_to(CORPUS).as_posix(): found for path, found in answer.items()}
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
    pages = entries()
    with tempfile.TemporaryDirectory(prefix="readlens-bench-") as folder:
        texts, seconds = readlens_pages(pages, Path(folder) / "cache")
    results = {"ReadLens": scored(pages, texts)}
    timings = {"ReadLens": seconds}
    peer = markitdown_pages(pages)
    if peer is not None:
        results["markitdown"] = scored(pages, peer[0])
        timings["markitdown"] = peer[1]
    files = len({entry.file for entry in pages})
    print(f"{len(pages)} pages of {files} real PDFs, {sum(len(entry.checks) for entry in pages)} checks\n")
    rows = [["kind", *results]]
    for kind in (*KINDS, None):
        cells = []
        for checked in results.values():
            chosen = [passed for _, check, passed, _ in checked if kind is None or check["kind"] == kind]
            cells.append(f"{sum(chosen)}/{len(chosen)} ({100 * sum(chosen) / len(chosen):.1f}%)")
        rows.append([kind or "**all**", *cells])
    report.table(rows)
    for tool, spent in timings.items():
        print(f"{tool}: {sum(spent):.1f} s in all, median {statistics.median(spent):.2f} s a read")
    failed = [(entry, check, why) for entry, check, passed, why in results["ReadLens"] if not passed]
    print(f"\nReadLens fails {len(failed)} checks:")
    for entry, check, why in failed:
        print(f"- {entry.file} p. {entry.page}: {described(check)}" + (f" ({why})" if why else ""))
