"""Tables in PDFs read whole, and what reading pages as a careful reader does costs.

- Each table of the generated fixtures (``testkit/fixtures/tables.py``: ruled, without rules under a
  header stacked over three rows or headings over pairs of columns, spanning cells, turned 90° both
  ways, continued onto the next page) against its hand-made truth: the share of its cells ReadLens
  gives in the right row and column, beside pdfplumber's own ``extract_tables()`` on the same pages
  (the simple approach) and markitdown's tables (its PDF converter, in its scratch virtualenv,
  ``bench.scratch.MARKITDOWN``; each page converted as a PDF of its own).
- A cold text-only read of a 20-page PDF (real corpus pages and the table fixtures) stays within
  10% (``READ_TARGET``; 5% of the reader before issue 41, which changed no reading) of the same read
  by the reader before each round of reading work (``BASELINES``, each checked out into a temporary
  git worktree), alternated in the same run,
  each read in a fresh process with an empty cache. The pages' extraction alone (in one process)
  is timed the same way, to show what the reading work itself costs.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pdfplumber
import pypdfium2 as pdfium

from bench import report
from bench.scratch import markitdown
from readers import Services, read_file
from readers.markup.tables import table_rows
from testkit import ROOT, make_settings
from testkit.fixtures import CORPUS_PAGES, multi_page_pdf
from testkit.fixtures import tables as truth

READ_TARGET = 1.10
# the reader before each round of work, timed beside the reader now, and the most the read may cost now
BASELINES = [
    ("b3b0d769e441cd843f3a3d6ba3c4c2b1dbc9ae18", "before issue 22 (furniture, words, drawn text, tables)", READ_TARGET),
    ("92016b1a5b7b0edeb0469ccbbbe56c77017267f5", "before issue 30 (real PDFs read right)", READ_TARGET),
    ("a14d0b292704b371a1278b1df18e3722bef57b78", "before issue 40 (tables found by alignment)", READ_TARGET),
    ("db72efd712e1294cd5aa64f422d868ffc761f341", "before issue 41 (typed seams: the same reading)", 1.05),
]
ROUNDS = 3
TIMED_READ = """
import sys, time
from readers import read_file
start = time.perf_counter()
read_file(sys.argv[1], multimodal=False)
print(time.perf_counter() - start)
"""
TIMED_EXTRACTION = """
import sys, time
from readers.pdf.pages import extract_pages
start = time.perf_counter()
extract_pages(sys.argv[1], list(range(1, 21)), None)
print(time.perf_counter() - start)
"""


def _score(found: list[list[str]], expected: list[list[str]]) -> tuple[int, int]:
    """Cells of ``expected`` that ``found`` holds in the same row and column, and how many there are."""
    right = sum(
        1
        for r, row in enumerate(expected)
        for c, cell in enumerate(row)
        if r < len(found) and c < len(found[r]) and (found[r][c] or "").strip() == cell
    )
    return right, sum(len(row) for row in expected)


def _markdown_tables(markdown: str) -> list[list[list[str]]]:
    """The rows of each table in ``markdown``: runs of lines that start with ``|``."""
    blocks = re.findall(r"(?m)(?:^\|.*\n?){3,}", markdown)
    return [table_rows(block.strip()) for block in blocks]


def _single_page(path: Path, number: int, target: Path) -> Path:
    source, single = pdfium.PdfDocument(str(path)), pdfium.PdfDocument.new()
    single.import_pages(source, [number - 1])
    single.save(str(target))
    return target


def truth_rows(folder: Path) -> list[list[str]]:
    sheet, invoices = truth.tables_pdf(folder / "tables.pdf"), truth.continued_pdf(folder / "invoices.pdf")
    continued = [truth.CONTINUED_HEADER] + truth.CONTINUED_ROWS[33:]
    cases = [
        ("ruled", sheet, 1, truth.RULED),
        ("without rules, header over three rows", sheet, 2, truth.STATEMENT),
        ("spanning cells", sheet, 3, truth.SPANNING),
        ("turned 90°, without rules", sheet, 4, truth.TURNED),
        ("turned 90° the other way, ruled", sheet, 5, truth.RULED),
        ("without rules, headings over two columns each", sheet, 6, truth.PAPER),
        ("continued, header on the first page only", invoices, 2, continued),
    ]
    services = Services(make_settings(folder / "cache"))
    readings = {path: read_file(path, services=services, multimodal=False) for path in (sheet, invoices)}
    pages = [_single_page(path, number, folder / f"{path.stem}-{number}.pdf") for _, path, number, _ in cases]
    theirs = markitdown(pages)
    rows = [["table", "ReadLens", "pdfplumber extract_tables()", "markitdown"]]
    totals = [0, 0, 0, 0]
    for (name, path, number, expected), page_file in zip(cases, pages):
        page = readings[path].pages[number - 1]
        ours = _score(table_rows(page.tables[0]) if page.tables else [], expected)
        with pdfplumber.open(path) as pdf:
            found = pdf.pages[number - 1].extract_tables()
        simple = max((_score(table, expected) for table in found), default=(0, ours[1]))
        peer = max(
            (_score(table, expected) for table in _markdown_tables(theirs.get(page_file, {}).get("markdown", ""))),
            default=(0, ours[1]),
        )
        totals = [totals[0] + ours[0], totals[1] + simple[0], totals[2] + peer[0], totals[3] + ours[1]]
        rows.append(
            [
                name,
                f"{ours[0]}/{ours[1]} cells",
                f"{simple[0]}/{simple[1]} cells",
                f"{peer[0]}/{peer[1]} cells" if theirs else "not run",
            ]
        )
    rows.append(
        [
            "all",
            *(f"{total / totals[3]:.0%}" for total in totals[:2]),
            f"{totals[2] / totals[3]:.0%}" if theirs else "not run",
        ]
    )
    return rows


def _timed(tree: Path, pdf: Path, cache: Path, code: str) -> float:
    environment = {
        **os.environ,
        "PYTHONPATH": str(tree),
        "READLENS_CACHE_DIR": str(cache),
        "OPENAI_API_KEY": "",
        "VISION_API_KEY": "",
    }
    done = subprocess.run(
        [sys.executable, "-c", code, str(pdf)], cwd=tree, env=environment, capture_output=True, text=True, check=True
    )
    return float(done.stdout.strip().splitlines()[-1])


def read_rows(folder: Path) -> list[list[str]]:
    sources = CORPUS_PAGES + [(folder / "tables.pdf", index) for index in range(6)]
    pdf = multi_page_pdf(folder / "twenty.pdf", 20, sources)
    trees: dict[str, Path] = {}
    runs: dict[tuple[str, str], list[float]] = {}
    try:
        for commit, label, _ in BASELINES:
            tree = folder / f"baseline-{commit[:8]}"
            made = subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), commit],
                capture_output=True,
                text=True,
            )
            if made.returncode:
                reason = (made.stderr.strip().splitlines() or ["git failed"])[-1]
                return [[f"cold text-only read, 20 pages, {label}", "not measured", f"no baseline: {reason}"]]
            trees[label] = tree
        for round_number in range(ROUNDS):
            for step, code in (("read", TIMED_READ), ("extraction", TIMED_EXTRACTION)):
                for name, tree in [*trees.items(), ("now", ROOT)]:
                    runs.setdefault((step, name), []).append(
                        _timed(tree, pdf, folder / f"cache-{step}-{tree.name}-{round_number}", code)
                    )
    finally:
        for tree in trees.values():
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], capture_output=True)
    best = {key: min(times) for key, times in runs.items()}
    rows = []
    for step, what in (("read", "cold text-only read, 20 pages"), ("extraction", "the pages' extraction alone")):
        rows.append([f"{what}, now", f"{best[step, 'now']:.2f} s", ""])
        for _, label, target in BASELINES:
            ratio = best[step, "now"] / best[step, label]
            verdict = f"{'PASS' if ratio <= target else 'FAIL'}: " if step == "read" else ""
            rows.append([f"{what}, {label}", f"{best[step, label]:.2f} s", f"{verdict}now {ratio:.2f}x"])
    return rows


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="readlens-bench-") as name:
        folder = Path(name)
        report.table(truth_rows(folder))
        report.table([["case", "time", "result"], *read_rows(folder)])
