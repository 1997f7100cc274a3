"""The app under load and faults (issue 33): 20 ``gradio_client`` users at once, reading a mix of
good files through the API, first alone, then while one hostile file of each kind is read, then
with two CPU hogs beside it as well.

Reported per phase: the good reads that succeeded, p50/p95 latency per kind of file, the good
files called damaged (there must be none: a slow engine says to try again), what each hostile file
got and how long it took, the peak memory of the app and its children, the requests a hostile web
page made reach a server (none), and after the app has stopped, its processes left behind.

Every good read is a fresh copy (other bytes, the same content), so nothing comes from the cache.
The target: every good file read, other users' p95 under 3x their unloaded p95 while the hostile
files are read, no process left.
"""

from __future__ import annotations

import http.server
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from gradio_client import Client, handle_file
from gradio_client.exceptions import AppError

from bench import report
from testkit import CORPUS, ROOT, fixtures
from testkit.processes import descendants, running
from testkit.server import launch_app, stop

USERS = 20
READS_PER_USER = 2
HOGS = 2
GOOD = [
    ("pdf", ROOT / "assets/chart-report.pdf"),
    ("pdf", CORPUS / "markitdown/test.pdf"),
    ("docx", CORPUS / "markitdown/test.docx"),
    ("pptx", ROOT / "assets/short-deck.pptx"),
    ("xlsx", ROOT / "assets/sales.xlsx"),
    ("html", ROOT / "assets/web-page.html"),
    ("image", ROOT / "assets/diagram.png"),
]
P95_FACTOR = 3
CLIENT_TIMEOUT = 300  # seconds for an upload or an answer (httpx's default of 5 s is shorter than a busy app's)


class Requests(http.server.BaseHTTPRequestHandler):
    """A server the hostile web page names; it counts what reaches it."""

    seen: list[str] = []

    def do_GET(self):
        self.seen.append(self.path)
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


def fresh(source: Path, folder: Path, number: int) -> Path:
    """``source`` with other bytes and the same content: a zip comment, an HTML comment, or bytes
    after the end of a PDF or PNG."""
    target = folder / str(number) / source.name
    target.parent.mkdir(parents=True)
    if zipfile.is_zipfile(source):
        target.write_bytes(source.read_bytes())
        with zipfile.ZipFile(target, "a") as package:
            package.comment = f"copy {number} {time.time()}".encode()
    elif source.suffix == ".html":
        target.write_text(source.read_text(encoding="utf-8") + f"\n<!-- copy {number} {time.time()} -->\n")
    else:
        target.write_bytes(source.read_bytes() + f"\n% copy {number} {time.time()}\n".encode())
    return target


def hostile_files(folder: Path, server: str) -> dict[str, Path]:
    """One file of each hostile kind the probe tried."""
    folder.mkdir(parents=True)
    page = folder / "refresh-and-icon.html"
    page.write_text(
        f'<html><head><meta http-equiv="refresh" content="0; url={server}/next">'
        f'<link rel="icon" href="{server}/favicon.ico"></head><body>{"<p>Notice board.</p>" * 40}</body></html>'
    )
    subject = " ".join(["=?utf-8?b?d29yZA==?="] * 20_000)  # "word", 20,000 times
    (folder / "header-bomb.eml").write_text(f"From: a@example.org\nTo: b@example.org\nSubject: {subject}\n\nHello.\n")
    log = folder / "mixed-bytes.log"
    log.write_bytes("café au lait\n".encode() * 10_000 + b"\xff\xfe\n" + "café au lait\n".encode() * 10_000)
    return {
        "million page references (pdf)": fixtures.page_references_pdf(folder / "million.pdf", 1_000_000),
        "stalling page (pdf)": fixtures.stalling_pdf(folder / "stall.pdf"),
        "zip bomb (docx)": fixtures.zip_bomb_docx(folder / "bomb.docx"),
        "pixel bomb (png)": fixtures.huge_png_header(folder / "huge.png"),
        "200-level multipart (eml)": fixtures.nested_mail(folder / "deep.eml", 200),
        "20,000 encoded words (eml)": folder / "header-bomb.eml",
        "refresh and icon (html)": page,
        "one bad byte pair (log)": log,
    }


def rss(pids: set[int]) -> int:
    total = 0
    for pid in pids:
        try:
            total += int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * 4096
        except OSError:
            pass
    return total


class Watch:
    """Samples the app's process tree: its peak memory, and every process it ever had."""

    def __init__(self, pid: int):
        self.pid, self.peak, self.seen, self.stopping = pid, 0, set(), threading.Event()
        self.thread = threading.Thread(target=self._sample, daemon=True)
        self.thread.start()

    def _sample(self):
        while not self.stopping.wait(0.5):
            pids = {self.pid} | descendants(self.pid)
            self.seen |= pids
            self.peak = max(self.peak, rss(pids))

    def stop(self):
        self.stopping.set()
        self.thread.join()


def read(url: str, path: Path) -> tuple[float, str | None]:
    """Seconds for one read through the API, and its error (None when it was read)."""
    start = time.perf_counter()
    try:
        client = Client(url, verbose=False, httpx_kwargs={"timeout": CLIENT_TIMEOUT})
        client.predict(handle_file(str(path)), None, None, "", False, api_name="/read_file")
        error = None
    except AppError as failure:
        error = str(failure)
    except Exception as failure:  # noqa: BLE001 - the connection itself: counted as a failed read
        error = f"client: {type(failure).__name__}: {failure}"
    return time.perf_counter() - start, error


def phase(url: str, folder: Path, hostile: dict[str, Path] | None) -> dict:
    """20 users reading good files, with the hostile files read alongside when given."""
    tasks = [(user, turn) for user in range(USERS) for turn in range(READS_PER_USER)]
    chosen = {(user, turn): GOOD[(user + turn * 3) % len(GOOD)] for user, turn in tasks}  # every kind, mixed
    copies = {task: fresh(chosen[task][1], folder, index) for index, task in enumerate(tasks)}
    kinds = {task: chosen[task][0] for task in tasks}

    def user(number: int) -> list:
        return [(kinds[(number, turn)], *read(url, copies[(number, turn)])) for turn in range(READS_PER_USER)]

    with ThreadPoolExecutor(USERS + 1) as pool:
        attack = pool.submit(lambda: {name: read(url, path) for name, path in (hostile or {}).items()})
        results = [row for rows in pool.map(user, range(USERS)) for row in rows]
        hostile_results = attack.result()
    return {"good": results, "hostile": hostile_results}


def summary(title: str, outcome: dict, peak: int) -> dict[str, float]:
    """Print a phase's reads (p50 and p95 per kind of file) and what each hostile file got; each kind's p95."""
    good = outcome["good"]
    failed = [(kind, error) for kind, _, error in good if error]
    damaged = [error for _, error in failed if "damaged" in error]
    print(
        f"-- {title}: {len(good) - len(failed)}/{len(good)} good reads succeeded, {len(damaged)} called damaged, "
        f"peak memory of the app and its children {peak / 2**30:.2f} GB"
    )
    for kind, error in failed:
        print(f"   failed ({kind}): {error[:160]}")
    rows, p95s = [["kind", "reads", "p50", "p95"]], {}
    for kind in sorted({kind for kind, _, _ in good}):
        times = sorted(seconds for each, seconds, error in good if each == kind and not error)
        if not times:
            continue
        p95s[kind] = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
        rows.append([kind, len(times), f"{statistics.median(times):.2f} s", f"{p95s[kind]:.2f} s"])
    report.table(rows)
    if outcome["hostile"]:
        hostile = [["hostile file", "time", "outcome"]]
        hostile += [
            [name, f"{seconds:.2f} s", (error or "read")[:110]] for name, (seconds, error) in outcome["hostile"].items()
        ]
        report.table(hostile)
    return p95s


def main() -> None:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Requests)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    address = f"http://127.0.0.1:{server.server_address[1]}"
    hogs: list[subprocess.Popen] = []
    with tempfile.TemporaryDirectory(prefix="readlens-load-") as work:
        folder = Path(work)
        hostile = hostile_files(folder / "hostile", address)
        url, process = launch_app({"READLENS_CACHE_DIR": str(folder / "cache")}, folder / "app.log")
        watch = Watch(process.pid)
        try:
            read(url, fresh(GOOD[0][1], folder / "warm", 0))  # the pool, LibreOffice and Chromium start once
            alone = phase(url, folder / "alone", None)
            peak_alone, watch.peak = watch.peak, 0
            attacked = phase(url, folder / "attacked", hostile)
            peak_attacked, watch.peak = watch.peak, 0
            hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(HOGS)]
            hogged = phase(url, folder / "hogged", hostile)
            peak_hogged = watch.peak
        finally:
            for hog in hogs:
                hog.kill()
                hog.wait()
            stop(process)
            watch.stop()
            server.shutdown()
        deadline = time.monotonic() + 15
        while any(map(running, watch.seen)) and time.monotonic() < deadline:
            time.sleep(0.2)
        left = sorted(pid for pid in watch.seen if running(pid))

    print(
        f"{USERS} users at once, {READS_PER_USER} reads each of fresh copies of {len(GOOD)} good files; "
        f"{len(hostile)} hostile files read alongside in the second and third runs"
    )
    unloaded = summary("good files alone", alone, peak_alone)
    loaded = summary("with the hostile files", attacked, peak_attacked)
    summary(f"with the hostile files and {HOGS} CPU hogs", hogged, peak_hogged)
    worst = {kind: loaded[kind] / unloaded[kind] for kind in loaded if kind in unloaded}
    slowest = max(worst, key=worst.get)
    print(
        f"p95 with the hostile files over p95 alone: at most {worst[slowest]:.1f}x ({slowest}); "
        f"target under {P95_FACTOR}x: {'met' if worst[slowest] < P95_FACTOR else 'MISSED'}"
    )
    print(f"requests the hostile web page made reach a server: {len(Requests.seen)}")
    print(f"processes of the app left after it stopped: {len(left)} {left if left else ''}")
