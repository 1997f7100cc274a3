"""The batch command's progress: a bar on a terminal (run under a real pseudo-terminal), a line a
minute in a log (``Progress`` with a shorter interval), both saying files done of the total, pages,
errors, retries and the time left."""

from __future__ import annotations

import fcntl
import io
import os
import pty
import re
import struct
import subprocess
import sys
import termios
import time

from readers.batch.progress import LOG_INTERVAL, Progress, Tally
from testkit import ROOT


def page_records(file: str, pages: int, errors: int = 0) -> list[dict]:
    return [
        {
            "file": file,
            "kind": "pdf",
            "pages_read": pages,
            "error": {"code": None, "message": "no"} if page < errors else None,
        }
        for page in range(pages)
    ]


def test_a_log_gets_a_line_at_the_start_and_then_one_every_interval():
    assert LOG_INTERVAL == 60  # a line a minute
    stream, tally = io.StringIO(), Tally()
    progress = Progress(4, "ray", tally, stream=stream, every=0.2)
    assert stream.getvalue() == "Reading (ray): 0 of 4 files (0%), 0 pages (0.0/s), 0 errors, 0 retried\n"
    tally.count(page_records("a.pdf", 3, errors=1))
    tally.retry("b.pdf", "its node was lost")
    progress.skip()  # a file an earlier run read: off the total
    deadline = time.monotonic() + 10
    while stream.getvalue().count("\n") < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    progress.close()
    line = stream.getvalue().splitlines()[1]
    assert re.fullmatch(
        r"Reading \(ray\): 1 of 3 files \(33%\), 3 pages \([\d.]+/s\), 1 error, 1 retried, \d+:\d\d left", line
    ), line
    assert "\r" not in stream.getvalue()  # whole lines, no redrawn bar


def test_a_terminal_gets_a_bar_with_files_pages_errors_retries_and_time_left(tmp_path):
    for number in range(3):
        (tmp_path / f"note-{number}.md").write_text(f"# Note {number}\n\nText.\n")
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.7\nnot really\n")
    main, terminal = pty.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 160, 0, 0))  # a terminal 160 columns wide
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "READLENS_CACHE_DIR": str(tmp_path / "cache"),
        "VISION_PROVIDER": "none",
    }
    command = [sys.executable, "-m", "readers", "batch", str(tmp_path), "--out", str(tmp_path / "pages.jsonl")]
    process = subprocess.Popen(command, env=env, stderr=terminal, stdout=subprocess.DEVNULL, cwd=tmp_path)
    os.close(terminal)
    shown = b""
    while True:
        try:
            chunk = os.read(main, 4096)
        except OSError:  # the command ended and closed the terminal
            break
        if not chunk:
            break
        shown += chunk
    os.close(main)
    assert process.wait(timeout=120) == 1
    screen = shown.decode()
    bars = re.findall(r"Reading \(local\):[^\r\n]*", screen)
    assert len(bars) > 1  # a bar redrawn in place (the terminal turns each line's end into \r\n)
    assert re.fullmatch(
        r"Reading \(local\): 100%\|.*\| 4/4 \[.*<.*, 3 pages \([\d.]+/s\), 1 error, 0 retried\]", bars[-1]
    ), bars[-1]
    assert "failed: " in screen and "broken.pdf" in screen
