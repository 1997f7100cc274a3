"""The scratch virtualenv a benchmark runs its peers in: outside the repo, in the system's temp
dir, never a dependency of the project."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path


def peers_python(name: str, packages: list[str], check: str) -> Path | None:
    """The Python of the scratch virtualenv ``readlens-bench-<name>`` with ``packages`` installed
    (made on the first run; ``check`` is the code that proves they import), or None when they
    cannot be installed."""
    folder = Path(tempfile.gettempdir()) / f"readlens-bench-{name}"
    python = folder / "bin" / "python"
    if python.exists() and subprocess.run([str(python), "-c", check], capture_output=True).returncode == 0:
        return python
    print(f"installing {', '.join(packages)} into a scratch virtualenv, {folder} (never the project's) ...", flush=True)
    try:
        subprocess.run(
            [sys.executable, "-m", "venv", "--clear", str(folder)],
            check=True,
            capture_output=True,
            text=True,
            timeout=300,
        )
        subprocess.run(
            [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", *packages],
            check=True,
            capture_output=True,
            text=True,
            timeout=1200,
        )
        subprocess.run([str(python), "-c", check], check=True, capture_output=True, text=True, timeout=300)
    except (subprocess.SubprocessError, OSError) as error:
        detail = (getattr(error, "stderr", None) or str(error)).strip().splitlines()
        print(
            f"{', '.join(packages)} could not be installed ({detail[-1] if detail else type(error).__name__}): "
            "measuring ReadLens alone",
            flush=True,
        )
        return None
    return python
