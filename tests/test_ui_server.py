"""The one running app the API and browser tests share (no tests here).

``python app.py`` runs in a subprocess (``testkit.server.launch_app``), configured only through its
environment: a free port, a private cache, and the vision provider pointed at a local
OpenAI-compatible test server with a key that must never show up anywhere.
"""

from __future__ import annotations

import atexit
import functools
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from testkit.fake_openai import FakeOpenAI, chat_reply
from testkit.server import ARTIFACTS, launch_app, stop

SECRET_KEY = "sk-readlens-test-7f3a9c-never-shown"
VISION_MODEL = "test-vision"
PIE_ANSWER = "Enterprise 45%, Small business 35%, Consumer 20%."
GENERIC_ANSWER = "A clustered bar chart of units sold per quarter for the North and South regions."
UNANSWERABLE = "What is on the back of this page?"
MAX_FILE_MB = 5


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
