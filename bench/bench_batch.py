"""The batch command's engines on one collection of 100 files, measured in the same run.

Issue 12: pages per second for 100 files, the local engine against Ray on the same machine, next
to the simple approach (one file after another) and the local engine's alternatives: a process
per file (reading its PDF pages itself, with its own models, as Ray's workers do) and more
threads than cores. ``LocalEngine``'s docstring explains the choice.
The files are of every kind, each of different content (``testkit.fixtures.collection``), and
each engine starts with an empty cache, with local OCR for scans and images as with nothing
configured. Memory is the peak of the resident memory summed over this process and all its
descendants (PDF workers, LibreOffice, Ray's processes), and CPU time their sum, both sampled
every 0.2 s: on a shared machine the CPU per page says more than the time. Ray's start-up is
timed apart from its run; the OCR and Whisper models the first row loads in this process stay
loaded for the later local rows (a few seconds). Each row says the machine's load around it.
"""

from __future__ import annotations

import json
import os
import tempfile
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

from bench import report
from readers import Settings
from readers.batch.engines import LocalEngine, RayEngine, cores, read_records_in_process
from readers.batch.run import run
from testkit.fixtures import collection

FILES = 100
PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")


class ProcessEngine(LocalEngine):
    """The alternative: a process per file under way, reading its PDF pages itself, as Ray's workers do.
    (With a PDF pool of its own in each, a worker process hangs on exit: see ``read_records_in_process``.)"""

    name = "processes"
    work = staticmethod(read_records_in_process)

    def _pool(self):
        return ProcessPoolExecutor(self.workers, mp_context=get_context("forkserver"))


class TreeUsage:
    """The peak resident memory of this process and its descendants together, and the CPU time
    they used, sampled every ``interval`` seconds (a process's last moments may be missed)."""

    def __init__(self, interval: float = 0.2):
        self.interval, self.peak = interval, 0
        self._ticks: dict[int, int] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _look(self) -> tuple[int, dict[int, int]]:
        """The resident bytes of the tree now, and each of its processes' CPU ticks so far."""
        parents, resident, ticks = {}, {}, {}
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                    pid = int(entry.name)
                    parents[pid], ticks[pid] = int(fields[1]), int(fields[11]) + int(fields[12])  # ppid; utime + stime
                    resident[pid] = int((entry / "statm").read_text().split()[1]) * PAGE_SIZE
                except (OSError, IndexError, ValueError):  # the process ended while we looked
                    pass
        tree, frontier = {os.getpid()}, [os.getpid()]
        while frontier:
            parent = frontier.pop()
            children = [pid for pid, ppid in parents.items() if ppid == parent and pid not in tree]
            tree.update(children)
            frontier += children
        return sum(resident.get(pid, 0) for pid in tree), {pid: ticks[pid] for pid in tree if pid in ticks}

    def _record(self) -> None:
        resident, ticks = self._look()
        self.peak = max(self.peak, resident)
        for pid, used in ticks.items():
            self._ticks[pid] = max(self._ticks.get(pid, 0), used)

    def _sample(self) -> None:
        while not self._stop.wait(self.interval):
            self._record()

    @property
    def cpu_seconds(self) -> float:
        return sum(used - self._start.get(pid, 0) for pid, used in self._ticks.items()) / os.sysconf("SC_CLK_TCK")

    def __enter__(self) -> TreeUsage:
        self._record()
        self._start = dict(self._ticks)
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()
        self._record()


def counted(out: Path) -> tuple[int, int, int]:
    """Page records, files read and files failed in a JSON Lines output."""
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    failed = sum(record["kind"] is None for record in records)
    files = len({record["sha256"] for record in records if record["kind"] is not None})
    return sum(record["page"] is not None for record in records), files, failed


def measure(name: str, engine, folder: Path, work: Path) -> list[str]:
    """The engine's row: its pages, time, pages per second, CPU per page, peak memory and the load around it."""
    out = work / f"{engine.name}-{engine.workers}.jsonl"
    settings = Settings(cache_dir=work / f"cache-{engine.name}-{engine.workers}", vision_provider="ocr")
    load = os.getloadavg()[0]
    with TreeUsage() as usage:
        start = time.perf_counter()
        status = run([str(folder)], out, engine=engine, settings=settings)
        seconds = time.perf_counter() - start
    pages, files, failed = counted(out)
    if status != 0 or failed or files != FILES:
        raise SystemExit(f"bench: {name} read {files} files, {failed} failed (exit status {status})")
    return [
        name,
        f"{pages}",
        f"{seconds:.1f} s",
        f"{pages / seconds:.2f}",
        f"{usage.cpu_seconds / pages:.2f} s",
        f"{usage.peak / 2**20:,.0f} MB",
        f"{load:.1f} / {os.getloadavg()[0]:.1f}",
    ]


def main() -> None:
    import ray

    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    count = cores()
    with tempfile.TemporaryDirectory(prefix="readlens-bench-") as folder:
        work = Path(folder)
        collection(work / "files", FILES)
        table = report.Rows(["engine", "pages", "time", "pages/s", "CPU per page", "peak memory", "load before/after"])
        row = lambda name, engine: table.add(measure(name, engine, work / "files", work))
        row("simple: one file after another (local, 1 worker)", LocalEngine(1))
        row(f"local: {count} threads, one PDF pool (ReadLens default)", LocalEngine(count))
        start = time.perf_counter()
        ray.init(num_cpus=count, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
        started = time.perf_counter() - start
        try:
            row(f"ray: local Ray, {count} CPUs, a task per file (start-up {started:.1f} s, not counted)", RayEngine())
        finally:
            ray.shutdown()
        row(f"alternative: a process per file, {count} at once, pages read in it", ProcessEngine(count))
        row(f"local: {2 * count} threads", LocalEngine(2 * count))
    print()
