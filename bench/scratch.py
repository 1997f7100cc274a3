"""The peers a benchmark sets ReadLens beside, each run in a scratch virtualenv outside the repo (in
the system's temp dir, ``readlens-bench-<name>``, made on the first run and kept for the next), never
a dependency of the project: ``MARKITDOWN``, ``CHUNKERS`` and ``ICDAR``. A peer's script in bench/
(``markitdown_peer.py``, ``markitdown_pages.py``, ``chunk_peers.py``, ``icdar_peers.py``) runs there
and prints its answer as JSON; when the peers cannot be installed or the script fails, it is said and
ReadLens is measured alone."""

from __future__ import annotations

import functools
import json
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

BENCH = Path(__file__).parent
TIMEOUT = 3600  # seconds for a peer's whole run: a bound on a hang, not a measure
MARKITDOWN_RUNS = 5  # conversions a file, of which markitdown_peer.py gives the median


@dataclass(frozen=True)
class Scratch:
    """A scratch virtualenv: its name, the packages installed into it and the code that proves they import."""

    name: str
    packages: tuple[str, ...]
    check: str

    @functools.cache  # noqa: B019 - one install (or one failure) per virtualenv and process
    def python(self) -> Path | None:
        """The virtualenv's Python with the packages installed (installing them the first time), or
        None when they cannot be installed."""
        folder = Path(tempfile.gettempdir()) / f"readlens-bench-{self.name}"
        python = folder / "bin" / "python"
        if python.exists() and subprocess.run([str(python), "-c", self.check], capture_output=True).returncode == 0:
            return python
        packages = ", ".join(self.packages)
        print(f"installing {packages} into a scratch virtualenv, {folder} (never the project's) ...", flush=True)
        try:
            subprocess.run(
                [sys.executable, "-m", "venv", "--clear", str(folder)],
                check=True,
                capture_output=True,
                text=True,
                timeout=300,
            )
            subprocess.run(
                [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", *self.packages],
                check=True,
                capture_output=True,
                text=True,
                timeout=1200,
            )
            subprocess.run([str(python), "-c", self.check], check=True, capture_output=True, text=True, timeout=300)
        except (subprocess.SubprocessError, OSError) as error:
            detail = (getattr(error, "stderr", None) or str(error)).strip().splitlines()
            print(
                f"{packages} could not be installed ({detail[-1] if detail else type(error).__name__}): "
                "measuring ReadLens alone",
                flush=True,
            )
            return None
        return python

    def run(self, script: str, *args: object):
        """The JSON ``bench/<script>`` prints when the virtualenv's Python runs it with ``args``, or
        None (and why, printed) when the peers are not installed or the script fails."""
        python = self.python()
        if python is None:
            return None
        done = subprocess.run(
            [str(python), str(BENCH / script), *map(str, args)], capture_output=True, text=True, timeout=TIMEOUT
        )
        if done.returncode != 0:
            why = (done.stderr.strip().splitlines() or ["no message"])[-1]
            print(f"{script} failed ({why}): measuring ReadLens alone", flush=True)
            return None
        return json.loads(done.stdout)


MARKITDOWN = Scratch(
    "markitdown", ("markitdown[docx,pptx,xlsx,pdf]",), "import markitdown, mammoth, pptx, openpyxl, pandas, pdfplumber"
)
CHUNKERS = Scratch(
    "chunk-peers",
    ("docling-core[chunking]", "langchain-text-splitters", "bpe-openai"),
    "import docling_core.transforms.chunker.hybrid_chunker, langchain_text_splitters, bpe_openai",
)
ICDAR = Scratch(
    "icdar",
    ("pymupdf4llm==1.28.2", "pymupdf==1.28.2", "pymupdf-layout==1.28.2", "camelot-py==2.0.0", "markitdown[pdf]==0.1.9"),
    "import pymupdf.layout, pymupdf4llm, camelot, markitdown",
)


def markitdown(paths: list[Path]) -> dict[Path, dict]:
    """markitdown on each file (``markitdown_peer.py``): the median seconds of ``MARKITDOWN_RUNS``
    conversions, its Markdown and that Markdown's length, or the error it raised; empty when
    markitdown could not be run."""
    answer = MARKITDOWN.run("markitdown_peer.py", MARKITDOWN_RUNS, *paths) or {}
    return {Path(path): result for path, result in answer.items()}
