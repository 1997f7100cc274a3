"""The app as ``python app.py`` runs it, in a process of its own configured only through its
environment, and the browser that drives it (Debian's Chromium through Playwright): what the API and
browser tests (``tests/test_ui_server.py``) and the app's benchmarks (``bench_app``, ``bench_load``,
``bench_outline``) start."""

from __future__ import annotations

import atexit
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from testkit import ROOT

ARTIFACTS = ROOT / "tests" / "artifacts"  # the app's logs and the browser's screenshots, for a person to look at
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"]
UPLOAD = "#uploads input[type=file]"  # the page's upload box
CONFIG_PREFIXES = (
    "VISION_",
    "WHISPER_",
    "OPENAI_",
    "MODEL_",
    "READLENS_",
    "MAX_",
    "GRADIO_",
    "USE_LOCAL_WHISPER",
    "LOCAL_WHISPER",
)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_until_up(url: str, process: subprocess.Popen, log: Path, seconds: float = 90) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"app.py exited with {process.returncode}:\n{log.read_text()[-3000:]}")
        try:
            if httpx.get(url, timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"app.py did not answer within {seconds:.0f} s:\n{log.read_text()[-3000:]}")


def launch_app(environment: dict[str, str], log: Path, attempts: int = 3) -> tuple[str, subprocess.Popen]:
    """Start ``python app.py`` on a free port with only ``environment`` as its configuration.

    The port is free when chosen, but another process may take it before the app listens: then
    the app exits saying so, and it is started again on another port."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(CONFIG_PREFIXES)}
    env.update(
        {"GRADIO_SERVER_NAME": "127.0.0.1", "GRADIO_ANALYTICS_ENABLED": "False", "PYTHONUNBUFFERED": "1", **environment}
    )
    workdir = Path(tempfile.mkdtemp(prefix="readlens-run-"))  # no developer .env is read from here
    atexit.register(shutil.rmtree, workdir, True)
    log.parent.mkdir(parents=True, exist_ok=True)
    for attempt in range(1, attempts + 1):
        port = free_port()
        with open(log, "wb") as output:
            process = subprocess.Popen(
                [sys.executable, str(ROOT / "app.py")],
                cwd=workdir,
                env={**env, "GRADIO_SERVER_PORT": str(port)},
                stdout=output,
                stderr=subprocess.STDOUT,
            )
        url = f"http://127.0.0.1:{port}/"
        try:
            wait_until_up(url, process, log)
            return url, process
        except RuntimeError:
            process.kill()
            if attempt == attempts or "empty port" not in log.read_text():
                raise


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(15)
    except subprocess.TimeoutExpired:
        process.kill()
