"""The one running app the API and browser tests share (no tests here).

``python app.py`` runs in a subprocess, configured only through its environment: a free port, a
private cache, and the vision provider pointed at a local OpenAI-compatible test server with a
key that must never show up anywhere.
"""

from __future__ import annotations

import atexit
import functools
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

from tests.conftest import ROOT
from tests.fake_openai import FakeOpenAI, chat_reply

ARTIFACTS = ROOT / "tests" / "artifacts"
SECRET_KEY = "sk-readlens-test-7f3a9c-never-shown"
VISION_MODEL = "test-vision"
PIE_ANSWER = "Enterprise 45%, Small business 35%, Consumer 20%."
GENERIC_ANSWER = "A clustered bar chart of units sold per quarter for the North and South regions."
UNANSWERABLE = "What is on the back of this page?"
MAX_FILE_MB = 5
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


@dataclass
class RunningApp:
    url: str
    fake: FakeOpenAI
    log: Path
    process: subprocess.Popen
    temp: Path  # the app's TMPDIR: its temporary files and Gradio's uploads (temp/gradio)
    cache: Path  # the app's READLENS_CACHE_DIR

    def cache_files(self) -> dict[Path, int]:
        """Each file in the app's cache with the time it was last written."""
        return {path: path.stat().st_mtime_ns for path in self.cache.rglob("*") if path.is_file()}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def answer(request) -> tuple[int, dict]:
    """The test vision model: a targeted answer when asked about percentages, a refusal when asked
    the ``UNANSWERABLE`` question, else a generic description."""
    asked = json_text(request.json)
    if UNANSWERABLE in asked:
        return 400, {
            "error": {"message": "This request was refused by the test model.", "type": "invalid_request_error"}
        }
    return 200, chat_reply(PIE_ANSWER if "percentages" in asked else GENERIC_ANSWER)


def json_text(body: dict | None) -> str:
    parts = [
        part.get("text", "")
        for message in (body or {}).get("messages", [])
        for part in (message["content"] if isinstance(message["content"], list) else [{"text": message["content"]}])
    ]
    return "\n".join(parts)


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


@functools.cache
def running_app() -> RunningApp:
    fake = FakeOpenAI()
    fake.routes["/v1/chat/completions"] = answer
    fake.start()
    cache, temp = (Path(tempfile.mkdtemp(prefix=f"readlens-test-{use}-")) for use in ("cache", "temp"))
    url, process = launch_app(
        {
            "READLENS_CACHE_DIR": str(cache),
            "VISION_PROVIDER": "openai",
            "VISION_BASE_URL": fake.base_url,
            "VISION_API_KEY": SECRET_KEY,
            "VISION_MODEL": VISION_MODEL,
            "MAX_FILE_MB": str(MAX_FILE_MB),
            "TMPDIR": str(temp),
            "URL_ALLOW": "127.0.0.1",  # the tests' own web servers, on loopback
        },
        ARTIFACTS / "app.log",
    )
    atexit.register(shutil.rmtree, cache, True)
    atexit.register(shutil.rmtree, temp, True)
    atexit.register(fake.stop)
    atexit.register(stop, process)
    return RunningApp(url, fake, ARTIFACTS / "app.log", process, temp, cache)
