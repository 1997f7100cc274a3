"""A command that starts quickly (issue 43): each ``readlens FILE`` is a new process, so what it
costs to start (imports, the OCR engine, LibreOffice) is paid on every file, beside markitdown's
``markitdown FILE`` on the same files: every DOCX, PPTX and XLSX in tests/corpus and assets, as
``bench_peers``' Office group.

Cold: one new process per file, ``python -m readers FILE`` (what the ``readlens`` command runs),
text-only with no API key (local OCR describes the figures) and an empty cache of its own, from a
folder with no ``.env``: the file never read, the machine as after an earlier run (LibreOffice's
profile, which its first start ever makes, is kept in the cache's ``office-profiles``; a warm-up
read made it); markitdown's own command from its scratch virtualenv (``bench.scratch.MARKITDOWN``,
``readlens-bench-markitdown``, outside the repo). The two alternate file by file, so the machine's
load falls on both alike; each figure is one process, timed from its start to its exit.
Warm: in this process after a first read of the file (its engines loaded), ``read_file`` +
``as_text()`` with an empty cache; markitdown's, converted in its process after its import
(``markitdown_peer``, the median of its runs).

Target (issue 43): over the files both read, the median of a cold process per file at most 3x
markitdown's.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path
from statistics import median
from time import perf_counter

from bench import report
from bench.bench_peers import gave_text, office_files
from bench.scratch import MARKITDOWN, markitdown
from readers import ReaderError, Services, Settings, read_file
from testkit import CORPUS, ROOT

RATIO = 3.0
NAMED = [CORPUS / "markitdown" / "test.docx", CORPUS / "markitdown" / "test.pptx"]  # the issue's own examples
KEYS = ("VISION_API_KEY", "OPENAI_API_KEY", "VISION_BASE_URL", "OPENAI_BASE_URL", "VISION_PROVIDER")


def cold_seconds(command: list[str], folder: Path) -> float | None:
    """Seconds from starting ``command`` to its exit, in ``folder``, with an empty cache but for
    LibreOffice's profiles (``folder``'s); None if it failed."""
    cache = Path(tempfile.mkdtemp(prefix="cache-", dir=folder))
    (cache / "office-profiles").symlink_to(folder / "office-profiles", target_is_directory=True)
    env = {key: value for key, value in os.environ.items() if key not in KEYS}
    env.update(READLENS_CACHE_DIR=str(cache), PYTHONPATH=str(ROOT))
    start = perf_counter()
    done = subprocess.run(command, cwd=folder, env=env, capture_output=True, timeout=600)
    seconds = perf_counter() - start
    return seconds if done.returncode == 0 and done.stdout.strip() else None


def warm_seconds(path: Path, folder: Path) -> float | None:
    """A read with an empty cache in this process, whose engines an earlier read loaded; None if it failed."""
    cache = Path(tempfile.mkdtemp(prefix="cache-", dir=folder))
    start = perf_counter()
    try:
        read_file(path, services=Services(Settings(cache_dir=cache, vision_provider="auto"))).as_text()
    except ReaderError:
        return None
    return perf_counter() - start


def shown(seconds: float | None) -> str:
    return "failed" if seconds is None else f"{seconds:.2f} s"


def main() -> None:
    python = MARKITDOWN.python()
    command = python.parent / "markitdown" if python else None
    files = office_files()
    theirs_warm = markitdown(files)
    ours, theirs, warm = {}, {}, {}
    with tempfile.TemporaryDirectory(prefix="readlens-bench-") as folder:
        folder = Path(folder)
        (folder / "office-profiles").mkdir()
        cold_seconds([sys.executable, "-m", "readers", str(NAMED[0])], folder)  # LibreOffice makes its profile
        for path in files:
            ours[path] = cold_seconds([sys.executable, "-m", "readers", str(path)], folder)
            theirs[path] = cold_seconds([str(command), str(path)], folder) if command else None
        for path in files:
            warm_seconds(path, folder)  # loads what the file needs, not counted
            warm[path] = warm_seconds(path, folder)
    rows = [["file", "ReadLens cold", "markitdown cold", "ratio", "ReadLens warm", "markitdown warm"]]
    for path in files:
        mine, peer = ours[path], theirs[path]
        ratio = f"{mine / peer:.1f}x" if mine and peer else ""
        peer_warm = theirs_warm.get(path, {}).get("seconds")
        name = str(path.relative_to(ROOT))
        rows.append([name, shown(mine), shown(peer), ratio, shown(warm[path]), shown(peer_warm)])
    print()
    report.table(rows)
    both = [path for path in files if ours[path] and theirs[path] and gave_text(theirs_warm.get(path))]
    for path in NAMED:
        cold = f"{shown(ours[path])} against markitdown's {shown(theirs[path])}"
        print(f"{path.name}: cold {cold}, warm {shown(warm[path])}")
    if both:
        mine, peer = median(ours[p] for p in both), median(theirs[p] for p in both)
        verdict = "PASS" if mine <= RATIO * peer else "FAIL"
        print(
            f"Office, a cold process per file (median of the {len(both)} files both read): ReadLens {mine:.2f} s, "
            f"markitdown {peer:.2f} s, {mine / peer:.1f}x (target <= {RATIO:g}x): {verdict}"
        )
    else:
        print("markitdown was not measured: ReadLens alone")
    print(
        "cold: a new process per file (python -m readers FILE, text-only, local OCR, empty cache but LibreOffice's "
        "profile; markitdown FILE), alternating; warm: read in a loaded process, empty cache"
    )
