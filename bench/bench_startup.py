"""A command that starts quickly (issue 43): each ``readlens FILE`` is a new process, so what it
costs to start (imports, the OCR engine, LibreOffice) is paid on every file, beside markitdown's
``markitdown FILE`` on the same files.

Cold: one new process per read, ``python -m readers FILE`` (what the ``readlens`` command runs),
text-only with no API key (local OCR describes the figures) and an empty cache of its own, from a
folder with no ``.env``; markitdown's own command from the scratch virtualenv ``bench_peers`` makes
(``readlens-bench-markitdown``, outside the repo). The two alternate read by read, so the machine's
load falls on both alike; each figure is the median of ``RUNS`` processes, timed from start to exit.
Warm: in a process that has read the file once (its engines loaded), ``read_file`` + ``as_text()``
with an empty cache; markitdown's converted in its process after its import (``markitdown_peer``).

Target (issue 43): the median over the Office files of a cold process per file at most 3x markitdown's.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path
from statistics import median
from time import perf_counter

from bench.bench_peers import PEERS, PEERS_CHECK, markitdown_times
from bench.scratch import peers_python
from readers import Services, Settings, read_file
from readers.markup.tables import markdown_table
from tests.conftest import CORPUS, ROOT

RUNS = 5
RATIO = 3.0
FILES = [CORPUS / "markitdown" / "test.docx", CORPUS / "markitdown" / "test.pptx"] + [
    ROOT / "assets" / name for name in ("short-deck.pptx", "sales.xlsx")
]
KEYS = ("VISION_API_KEY", "OPENAI_API_KEY", "VISION_BASE_URL", "OPENAI_BASE_URL", "VISION_PROVIDER")


def cold_seconds(command: list[str], folder: Path) -> float | None:
    """Seconds from starting ``command`` to its exit, in ``folder``, with an empty cache; None if it failed."""
    cache = tempfile.mkdtemp(prefix="cache-", dir=folder)
    env = {key: value for key, value in os.environ.items() if key not in KEYS}
    env.update(READLENS_CACHE_DIR=cache, PYTHONPATH=str(ROOT))
    start = perf_counter()
    done = subprocess.run(command, cwd=folder, env=env, capture_output=True, timeout=600)
    seconds = perf_counter() - start
    return seconds if done.returncode == 0 and done.stdout.strip() else None


def warm_seconds(path: Path, folder: Path) -> float:
    """A read with an empty cache in this process, whose engines an earlier read of the file loaded."""
    cache = Path(tempfile.mkdtemp(prefix="cache-", dir=folder))
    start = perf_counter()
    read_file(path, services=Services(Settings(cache_dir=cache, vision_provider="auto"))).as_text()
    return perf_counter() - start


def shown(seconds: float | None) -> str:
    return "failed" if seconds is None else f"{seconds:.2f} s"


def main() -> None:
    print(f"{os.cpu_count()} cores; load average before: {os.getloadavg()[0]:.1f}", flush=True)
    python = peers_python("markitdown", PEERS, PEERS_CHECK)
    markitdown = python.parent / "markitdown" if python else None
    rows = [["file", "ReadLens cold", "markitdown cold", "ratio", "ReadLens warm", "markitdown warm"]]
    ours_cold, theirs_cold = {}, {}
    with tempfile.TemporaryDirectory(prefix="readlens-bench-") as folder:
        folder = Path(folder)
        for path in FILES:
            ours, theirs = [], []
            for _ in range(RUNS):
                ours.append(cold_seconds([sys.executable, "-m", "readers", str(path)], folder))
                if markitdown:
                    theirs.append(cold_seconds([str(markitdown), str(path)], folder))
            ours_cold[path] = None if None in ours else median(ours)
            theirs_cold[path] = None if not theirs or None in theirs else median(theirs)
        warm_theirs = markitdown_times(python, FILES) if python else {}
        for path in FILES:
            warm_seconds(path, folder)  # loads what the file needs, not counted
            warm = median(warm_seconds(path, folder) for _ in range(RUNS))
            mine, peer = ours_cold[path], theirs_cold[path]
            ratio = f"{mine / peer:.1f}x" if mine and peer else ""
            peer_warm = warm_theirs.get(path, {}).get("seconds")
            rows.append([path.name, shown(mine), shown(peer), ratio, shown(warm), shown(peer_warm)])
    both = [path for path in FILES if ours_cold[path] and theirs_cold[path]]
    print()
    print(markdown_table(rows), end="\n\n")
    if both:
        ours, theirs = median(ours_cold[p] for p in both), median(theirs_cold[p] for p in both)
        verdict = "PASS" if ours <= RATIO * theirs else "FAIL"
        print(
            f"Office, cold process per file (median of {len(both)} files): ReadLens {ours:.2f} s, "
            f"markitdown {theirs:.2f} s, {ours / theirs:.1f}x (target <= {RATIO:g}x): {verdict}"
        )
    else:
        print("markitdown was not measured: ReadLens alone")
    print(
        f"cold: a new process per read (python -m readers FILE, text-only, local OCR, empty cache; "
        f"markitdown FILE), median of {RUNS}, alternating; warm: read in a loaded process, empty cache; "
        f"load average after: {os.getloadavg()[0]:.1f}"
    )
