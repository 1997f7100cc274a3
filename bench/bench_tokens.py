"""Token counts: the exact o200k_base count (``readers.payload.tokens``) against the estimate it replaced,
4 characters per token, on the payloads of real files, in the same run.

Target (issue 11): counting about 8,000 tokens takes about a millisecond. The estimate is
instant; what it costs is its error, printed per payload. The exact count's one-time cost, loading
the package in a new process, is timed too.
"""

from __future__ import annotations

import math
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from time import perf_counter

from bench import report
from readers import Services, read_file
from testkit import CORPUS, ROOT, make_settings

CHARS_PER_TOKEN = 4
REPEATS = 50
FILES = [
    ROOT / "assets" / "chart-report.pdf",
    ROOT / "assets" / "web-page.html",
    ROOT / "assets" / "sales.xlsx",
    CORPUS / "markitdown" / "test.pdf",
    CORPUS / "pdfplumber" / "nics-background-checks-2015-11.pdf",
    CORPUS / "pdfplumber" / "issue-140-example.pdf",
    CORPUS / "markitdown" / "test.docx",
    ROOT / "README.md",
    ROOT / "readers" / "core.py",
]


def estimated(text: str) -> int:
    return math.ceil(len(text) / CHARS_PER_TOKEN)


def median_ms(count, text: str) -> float:
    timings = []
    for _ in range(REPEATS):
        start = perf_counter()
        count(text)
        timings.append((perf_counter() - start) * 1000)
    return statistics.median(timings)


def load_seconds() -> float:
    """A new process: import the counter and count one word, less the interpreter's own start."""

    def run(code: str) -> float:
        start = perf_counter()
        subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)
        return perf_counter() - start

    return statistics.median(
        run("from readers.payload.tokens import text_tokens; text_tokens('hello')") - run("pass") for _ in range(3)
    )


def main() -> None:
    from readers.payload.tokens import text_tokens

    with tempfile.TemporaryDirectory(prefix="readlens-bench-") as folder:
        services = Services(make_settings(Path(folder)))
        texts = [(path.name, read_file(path, services=services).as_text()) for path in FILES]
    texts.append(("all of the above", "\n\n".join(text for _, text in texts)))
    rows = [
        [
            "payload (text-only)",
            "characters",
            "tokens (exact)",
            "count time",
            "tokens per ms",
            "estimate (4 chars)",
            "estimate's error",
            "estimate time",
        ]
    ]
    for name, text in texts:
        exact, exact_ms = text_tokens(text), median_ms(text_tokens, text)
        guess = estimated(text)
        rows.append(
            [
                name,
                f"{len(text):,}",
                f"{exact:,}",
                f"{exact_ms:.3f} ms",
                f"{exact / exact_ms:,.0f}",
                f"{guess:,}",
                f"{(guess - exact) / exact:+.0%}",
                f"{median_ms(estimated, text):.4f} ms",
            ]
        )
    report.table(rows)
    print(f"loading the counter once per process: {load_seconds():.2f} s (the app does it while it starts)")
    print(f"median of {REPEATS} counts each")
