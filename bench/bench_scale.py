"""``make bench scale``: the batch command on 10,000 small files, on this machine and on Ray's
three-node cluster on this machine (``testkit.raycluster``: a head and two worker nodes of one CPU).

Issue 54. The files are made from real files of the corpus, of seven kinds (``MIX``), each copy
given bytes of its own (a line, a row, a comment, bytes after a PDF's or PNG's end), so no read is
a cache hit; every run starts with an empty cache and reads with no vision service (so images and
scans are only rendered). Each run is the real command line, ``python -m readers batch``, a
process of its own, timed from its start to its end:

- files and pages per second, locally and on the cluster;
- the driver's peak memory (the batch process's own high-water mark, ``VmHWM``, not its workers')
  at 1,000 and at 10,000 files, which should stay flat: the driver keeps a path and a content hash
  per file, and a few files' records at a time;
- the time to resume: a local run killed (SIGKILL) halfway, then the same command again, timed to
  its first new record (the scan of the output and the skipping of the files already read) and to
  its end;
- the scaling from one worker node to two, on the same 1,000 files;
- the output writer (the driver, one process) on the records of the local 10,000-file run: JSON
  Lines appended a file at a time, scanned as a resume scans them, and written as Parquet at the end.

The load before and after each row is printed with it: on a shared 2-core machine the rates follow
the other work, and two worker nodes of one CPU each are the machine's two cores.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bench import report
from bench.bench_batch import counted
from readers.batch.outputs import JsonlOutput, ParquetOutput, output_journal
from testkit import CORPUS, ROOT
from testkit.processes import descendants, running
from testkit.raycluster import cluster

FILES = 10_000
SMALL = 1_000  # the smaller collection: the driver's memory at a tenth of the files, and the scaling runs
PER_FOLDER = 500  # files in each subfolder, as a collection is kept
# (corpus file, suffix, how many of every 100): mostly the cheap kinds, so 10,000 reads fit in minutes on
# 2 shared cores; PDFs and pictures (about half a second each here) are a few in a hundred.
MIX = (
    ("docling/groundtruth/word_tables.docx.md", "md", 40),
    ("docling/formats/csv-comma-in-cell.csv", "csv", 20),
    ("docling/formats/eml_simple.eml", "eml", 15),
    ("docling/formats/example_01.html", "html", 15),
    ("markitdown/test_blog.html", "html", 5),
    ("pdfplumber/issue-140-example.pdf", "pdf", 3),
    ("python-docx/images/300-dpi.png", "png", 2),
)
POLL = 0.2  # seconds between looks at the run's output and its memory


def varied(source: bytes, suffix: str, number: int) -> bytes:
    """``source`` with bytes of its own for copy ``number``: its text or rows change, or bytes a reader
    skips are added (after a PDF's %%EOF, after a PNG's last chunk, an HTML comment)."""
    if suffix in ("md", "eml"):
        return source + f"\nCopy {number}: ship {number * 7 % 997} crates.\n".encode()
    if suffix == "csv":
        return source + f"copy {number},{number * 3}\n".encode()
    if suffix == "html":
        return source + f"<!-- copy {number} -->\n".encode()
    return source + f"\n% copy {number}\n".encode()


def generate(folder: Path, count: int) -> None:
    kinds = [(CORPUS.joinpath(name).read_bytes(), suffix) for name, suffix, share in MIX for _ in range(share)]
    for number in range(count):
        source, suffix = kinds[number * 37 % len(kinds)]  # the kinds spread through the collection
        where = folder / f"part-{number // PER_FOLDER:03d}"
        where.mkdir(parents=True, exist_ok=True)
        (where / f"{number:05d}.{suffix}").write_bytes(varied(source, suffix, number))


@dataclass
class Run:
    seconds: float
    first: float  # seconds to the first record written (past what was there before)
    peak: int  # the driver's peak resident memory, bytes
    cpu: float  # the driver's CPU seconds (its own, not its workers'; sampled, so a moment short)
    status: int


def _lines(out: Path) -> int:
    try:
        with open(out, "rb") as handle:
            return sum(1 for _ in handle)
    except FileNotFoundError:
        return 0


def _driver(pid: int) -> tuple[int, float]:
    """The process's peak resident memory so far (bytes) and the CPU it used (seconds), its own only."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:  # it ended meanwhile
        return 0, 0.0
    peak = next(
        (int(line.split()[1]) * 1024 for line in status.splitlines() if line.startswith("VmHWM:")), 0
    )  # a zombie: none
    return peak, (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def batch(folder: Path, out: Path, cache: Path, *engine: str, kill_at: int = 0) -> Run:
    """One run of the command line; with ``kill_at``, killed with SIGKILL once the output holds that
    many records, and the processes it leaves (its PDF workers) ended by their ids."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "READLENS_CACHE_DIR": str(cache), "VISION_PROVIDER": "none"}
    command = [sys.executable, "-m", "readers", "batch", str(folder), "--out", str(out), *engine]
    before = _lines(out)
    start = time.perf_counter()
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    first = peak = cpu = 0
    while process.poll() is None:
        memory, used = _driver(process.pid)
        peak, cpu = max(peak, memory), max(cpu, used)
        written = _lines(out)
        if not first and written > before:
            first = time.perf_counter() - start
        if kill_at and written >= kill_at:
            left = descendants(process.pid)
            process.kill()
            process.wait()
            for pid in filter(running, left):
                os.kill(pid, signal.SIGKILL)
            break
        time.sleep(POLL)
    stderr = process.stderr.read()
    process.stderr.close()
    if process.returncode not in (0, -signal.SIGKILL):
        raise SystemExit(f"bench: the run failed (exit status {process.returncode}):\n{stderr[-2000:]}")
    return Run(time.perf_counter() - start, first, peak, cpu, process.returncode)


def row(table: report.Rows, name: str, folder: Path, work: Path, *engine: str) -> float:
    """Measure one run into ``table``; its files per second from its first record on (the start-up of
    the process, Ray's workers and the readers left out)."""
    load = os.getloadavg()[0]
    out = work / f"{len(list(work.glob('*.jsonl')))}.jsonl"
    done = batch(folder, out, work / f"cache-{out.stem}", *engine)
    pages, files, failed = counted(out)
    table.add(
        [
            name,
            f"{files:,}",
            f"{pages:,}",
            f"{failed}",
            f"{done.seconds:.1f} s",
            f"{files / done.seconds:.1f}",
            f"{pages / done.seconds:.1f}",
            f"{done.first:.1f} s",
            f"{done.peak / 2**20:,.0f} MB",
            f"{done.cpu / files * 1000:.1f} ms",
            f"{load:.1f} / {os.getloadavg()[0]:.1f}",
        ]
    )
    return (files - 1) / (done.seconds - done.first)


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="readlens-scale-") as folder:
        work = Path(folder)
        start = time.perf_counter()
        generate(work / "small", SMALL)
        generate(work / "large", FILES)
        print(f"{SMALL:,} and {FILES:,} files made in {time.perf_counter() - start:.1f} s: {_mix()}\n", flush=True)
        header = ["run", "files", "pages", "failed", "time", "files/s", "pages/s", "first record", "driver peak"]
        header.append("driver CPU per file")
        table = report.Rows([*header, "load before/after"])
        row(table, f"local, {SMALL:,} files", work / "small", work)
        row(table, f"local, {FILES:,} files", work / "large", work)
        writer(work / "1.jsonl", work / "writer")
        with cluster(workers=1) as nodes:
            ray = ("--engine", "ray", "--ray-address", nodes.address)
            one = row(table, f"Ray, head + 1 worker node, {SMALL:,} files", work / "small", work, *ray)
            nodes.add()
            two = row(table, f"Ray, head + 2 worker nodes, {SMALL:,} files", work / "small", work, *ray)
            row(table, f"Ray, head + 2 worker nodes, {FILES:,} files", work / "large", work, *ray)
        print(
            f"\nScaling from one worker node to two ({SMALL:,} files, from each run's first record on): "
            f"{one:.1f} files/s, then {two:.1f}: {two / one:.2f}x.\n"
        )
        resume(work)


def writer(records: Path, work: Path) -> None:
    """The output writer's rates on the records in ``records``: appended a file at a time (one write,
    flushed, per file), scanned as a resume does, and written into a Parquet file at the end."""
    files: dict[tuple[str, str], list[dict]] = {}
    for line in records.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        files.setdefault((record["file"], record["sha256"]), []).append(record)
    count = sum(map(len, files.values()))
    work.mkdir()
    output = JsonlOutput(work / "pages.jsonl")
    start = time.perf_counter()
    for file_records in files.values():
        output.append(file_records)
    output.close()
    appended = time.perf_counter() - start
    start = time.perf_counter()
    JsonlOutput(work / "pages.jsonl").resume()
    scanned = time.perf_counter() - start
    (work / "pages.jsonl").rename(output_journal(work / "pages.parquet"))
    parquet = ParquetOutput(work / "pages.parquet")
    parquet.resume()
    start = time.perf_counter()
    parquet.close()
    written = time.perf_counter() - start
    print(
        f"\nOutput writer, {count:,} records of {len(files):,} files: JSON Lines appended at "
        f"{count / appended:,.0f} records/s, scanned for a resume at {count / scanned:,.0f} records/s, "
        f"written as Parquet at the end at {count / written:,.0f} records/s "
        f"(load {os.getloadavg()[0]:.1f}).\n",
        flush=True,
    )


def _mix() -> str:
    return ", ".join(f"{share}% {suffix} ({Path(name).name})" for name, suffix, share in MIX)


def resume(work: Path) -> None:
    """A local run of the 10,000 files killed halfway, then resumed."""
    out, cache = work / "resumed.jsonl", work / "cache-resumed"
    load = os.getloadavg()[0]
    killed = batch(work / "large", out, cache, kill_at=FILES // 2)
    kept = _lines(out)
    again = batch(work / "large", out, cache)
    pages, files, _ = counted(out)
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    if len({(record["file"], record["page"]) for record in records}) != len(records) or files != FILES:
        raise SystemExit(f"bench: the resumed run holds {files:,} files in {len(records):,} records, some twice")
    print(
        f"Resume: a local run of {FILES:,} files killed after {killed.seconds:.1f} s with {kept:,} records written; "
        f"the same command again wrote its first new record after {again.first:.1f} s (the output scanned, "
        f"the files already read hashed and skipped) and ended after {again.seconds:.1f} s, "
        f"{files:,} files and {pages:,} pages in all, each once "
        f"(load {load:.1f} / {os.getloadavg()[0]:.1f}).",
        flush=True,
    )
