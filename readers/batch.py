"""Reading a collection: ``python -m readers batch PATH... --out pages.jsonl [--engine local|ray]``.

Every file under the given paths is read with ``read_file`` (folders are walked recursively,
in name order; names starting with a dot are left out of a walk, not when named), and each
page becomes one record: a line of JSON, or a row of Parquet when the output's name ends in
``.parquet``. Every record has the fields of ``FIELDS``::

    file, sha256, kind, mime       the path as walked, the content hash, the detected type
    page, page_count, pages_read   1-based page; the document's pages; how many pages were read
    section, line                  the file inside an archive or e-mail the page comes from; the
                                   number of a text file's page's first line (else null)
    text, tables                   the page's text (audio: the transcript's), Markdown tables
    image                          the page as base64 PNG in multimodal mode, else null
    description, description_source
    error                          null, or {code, message}
    transcript                     audio: {text, language, duration, segments, source}
    warnings                       the file's warnings, on its first record

A file that cannot be read is one record whose error has its ``ReaderError`` code; an audio
file is one record (``page`` null); a page that failed on its own keeps its record, with an
error whose code is null, and the file's other pages come back as usual.

Resuming: each file's records are written together (one write, flushed), so a stopped run
leaves at most one file's records cut short, at the end. Run again on the same output and it
is scanned first: files read without an error are known by content hash and not read again
(nor a copy of one under another name); a file cut short, or one whose records carry an
error, is dropped from the output and read again; new files are appended. Parquet cannot be
appended to, so records go to ``<out>.partial.jsonl`` while the run goes on and the Parquet
file is rewritten once, at the end.

The engines (``LocalEngine``, ``RayEngine``) run ``read_records`` on each file, a few at a
time, and hand the records back to this process, which alone writes the output.
"""

from __future__ import annotations

import fcntl
import itertools
import json
import os
import signal
import sys
import threading
import time
from concurrent.futures import FIRST_COMPLETED, Executor, ThreadPoolExecutor, wait
from contextlib import closing, contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Iterable, Iterator

from tqdm import tqdm

from .core import _check_question, hash_file, read_file
from .errors import ReaderError
from .models import Reading
from .serialize import as_json
from .services import shared_services
from .settings import Settings
from .store import atomic_file

FIELDS = ("file", "sha256", "kind", "mime", "page", "page_count", "pages_read", "section", "line", "text", "tables", "image",
          "description", "description_source", "error", "transcript", "warnings")
INSTALL_HINT = "the app does not install it; run `make setup-batch`, or `pip install -r requirements-batch.txt`"
FAILURES_LISTED = 20


class BatchError(Exception):
    """The run cannot start or go on (an output that is not ours, Ray missing); said for a person."""


@dataclass(frozen=True)
class Request:
    """What to read from every file: ``read_file``'s arguments."""

    page_start: int | None = None
    page_end: int | None = None
    describe: str | None = None
    multimodal: bool | None = None


# -- records ---------------------------------------------------------------------------------


def _record(file: str, sha256: str | None, **values) -> dict:
    return {**dict.fromkeys(FIELDS), "file": file, "sha256": sha256, "pages_read": 0, "tables": [], "warnings": [], **values}


def failure_records(file: str, sha256: str | None, code: str | None, message: str) -> list[dict]:
    """The one record of a file that could not be read."""
    return [_record(file, sha256, error={"code": code, "message": message})]


def page_records(reading: Reading, file: str) -> list[dict]:
    """The records of one reading: one per page, or one for audio (and for a file without pages)."""
    data = as_json(reading, images=reading.multimodal)
    common = {"kind": data["kind"], "mime": data["mime"], "page_count": data["page_count"], "pages_read": len(data["pages"])}
    if not data["pages"]:
        transcript = data["transcript"]
        return [_record(file, data["sha256"], **common, text=transcript["text"] if transcript else "", transcript=transcript,
                        warnings=data["warnings"])]
    return [_record(file, data["sha256"], **common, page=page["number"], section=page["section"], line=page["line"], text=page["text"], tables=page["tables"], image=page["image"],
                    description=page["description"], description_source=page["description_source"],
                    error={"code": None, "message": page["error"]} if page["error"] else None,
                    warnings=data["warnings"] if index == 0 else [])
            for index, page in enumerate(data["pages"])]


def read_records(path: str, file: str, sha256: str | None, request: Request, settings: Settings) -> list[dict] | None:
    """The records of one file; runs in an engine's worker (a thread here, or a Ray task).

    A page range that runs past a file's last page reads up to that page, as a collection's
    files have different lengths. Returns None when the read was interrupted (Ctrl-C reached
    the worker): the file is left for the next run.
    """
    services = shared_services(settings)

    def read(start: int | None, end: int | None) -> Reading:
        return read_file(path, start, end, request.describe, request.multimodal, services=services)

    try:
        try:
            reading = read(request.page_start, request.page_end)
        except ReaderError as error:
            if error.code != "PAGE_OUT_OF_RANGE" or request.page_end is None:
                raise
            reading = read(request.page_start, None)
    except ReaderError as error:
        return failure_records(file, sha256, error.code, error.message)
    except KeyboardInterrupt:
        return None
    except Exception as error:  # noqa: BLE001 - a bug costs this file only; its type, never its text (it may hold a key)
        return failure_records(file, sha256, None, f"{Path(file).name} could not be read: unexpected {type(error).__name__}. Report it with the file.")
    return page_records(reading, file)


# -- output ----------------------------------------------------------------------------------


@dataclass
class Previous:
    """What earlier runs left in the output."""

    done: set[str] = field(default_factory=set)  # content hashes of the files read without an error
    pages: int = 0
    retried: int = 0  # files whose records carry an error: dropped, to be read again
    cut: int = 0  # files whose records a stopped run did not finish writing: dropped

    def add(self, other: "Previous") -> None:
        self.done |= other.done
        self.pages += other.pages
        self.retried += other.retried
        self.cut += other.cut

    def describe(self, out: Path) -> str:
        parts = [f"{_count(len(self.done), 'file')} ({_count(self.pages, 'page')}) already read into {out.name} are skipped"]
        if self.retried:
            parts.append(f"{self.retried:,} with errors are read again" if self.retried > 1 else "1 with an error is read again")
        if self.cut:
            parts.append(f"{self.cut:,} cut short by a stopped run are read again" if self.cut > 1 else "1 cut short by a stopped run is read again")
        return "Resuming: " + "; ".join(parts) + "."


def _check(record, where: str) -> dict:
    if not isinstance(record, dict) or not {"file", "sha256", "pages_read", "error"} <= record.keys():
        raise BatchError(f"{where} is not a ReadLens batch record, so the output is not one; choose another --out.")
    return record


def _sift(pairs: Iterable[tuple[dict, object]], previous: Previous) -> set:
    """The payloads (line or row numbers) of the records to drop, files cut short and files
    whose records carry an error (to be read again); what is kept is counted in ``previous``.

    A file's records are consecutive and each says how many there are (``pages_read``, or 1).
    """
    dropped: set = set()
    group: list[tuple[dict, object]] = []

    def close(complete: bool) -> None:
        failed = any(record["error"] for record, _ in group)
        if complete and not failed:
            previous.done.add(group[0][0]["sha256"])
            previous.pages += sum(record["page"] is not None for record, _ in group)
        else:
            dropped.update(payload for _, payload in group)
            if complete:
                previous.retried += 1
            else:
                previous.cut += 1
        group.clear()

    for record, payload in pairs:
        if group and (record["file"], record["sha256"]) != (group[0][0]["file"], group[0][0]["sha256"]):
            close(complete=False)
        group.append((record, payload))
        if len(group) >= (group[0][0]["pages_read"] or 1):
            close(complete=True)
    if group:
        close(complete=False)
    return dropped


class JsonlOutput:
    """Records appended to a JSON Lines file, each file's records in one write."""

    def __init__(self, path: Path):
        self.path = path
        self.partial: int | None = None  # the number of a last line cut short, found by _records
        self._handle = None

    def _lines(self) -> Iterator[tuple[int, bytes]]:
        with open(self.path, "rb") as handle:
            yield from enumerate(handle, 1)

    def _records(self) -> Iterator[tuple[dict, int]]:
        """Each record with its line number, up to a last line without its newline (cut short)."""
        self.partial = None
        for number, line in self._lines():
            if not line.endswith(b"\n"):
                self.partial = number
                return
            try:
                record = json.loads(line)
            except ValueError:
                raise BatchError(f"{self.path} line {number} is not JSON, so the file is not a ReadLens batch output; choose another --out.") from None
            yield _check(record, f"{self.path} line {number}"), number

    def resume(self) -> Previous:
        """Scan what earlier runs wrote, and rewrite the file without the records to drop."""
        previous = Previous()
        if not self.path.exists():
            return previous
        dropped = _sift(self._records(), previous)
        if self.partial:
            previous.cut += self.partial - 1 not in dropped  # else its file's first lines were counted already
            dropped.add(self.partial)
        if dropped:
            with atomic_file(self.path) as target:
                target.writelines(line for number, line in self._lines() if number not in dropped)
        return previous

    def append(self, records: list[dict]) -> None:
        if self._handle is None:
            self._handle = open(self.path, "ab")
        self._handle.write(b"".join(json.dumps(record, ensure_ascii=False).encode("utf-8") + b"\n" for record in records))
        self._handle.flush()

    def close(self) -> None:
        if self._handle is None:
            self.path.touch()
        else:
            self._handle.close()
            self._handle = None

    def records(self) -> Iterator[dict]:
        for record, _ in self._records():
            yield record


def _parquet():
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise BatchError(f"Parquet output needs pyarrow: {INSTALL_HINT}.") from None
    return pa, pq


def parquet_schema(pa):
    segment = pa.struct([("start", pa.float64()), ("end", pa.float64()), ("text", pa.string())])
    transcript = pa.struct([("text", pa.string()), ("language", pa.string()), ("duration", pa.float64()),
                            ("segments", pa.list_(segment)), ("source", pa.string())])
    types = {"page": pa.int64(), "page_count": pa.int64(), "pages_read": pa.int64(), "line": pa.int64(), "tables": pa.list_(pa.string()),
             "error": pa.struct([("code", pa.string()), ("message", pa.string())]), "transcript": transcript,
             "warnings": pa.list_(pa.string())}
    return pa.schema([(name, types.get(name, pa.string())) for name in FIELDS])


class ParquetOutput:
    """Records in a Parquet file: journalled to ``<out>.partial.jsonl`` during the run, and
    written into the Parquet file (with the rows it kept) once, at the end."""

    CHUNK = 256  # records per row batch

    def __init__(self, path: Path):
        self.pa, self.pq = _parquet()
        self.path = path
        self.journal = JsonlOutput(output_journal(path))
        self._dropped: set[int] = set()

    def resume(self) -> Previous:
        previous = Previous()
        if self.path.exists():
            try:
                rows = self.pq.read_table(self.path, columns=["file", "sha256", "page", "pages_read", "error"]).to_pylist()
            except (self.pa.ArrowException, KeyError):
                raise BatchError(f"{self.path} is not a ReadLens batch output in Parquet; choose another --out.") from None
            self._dropped = _sift(((row, index) for index, row in enumerate(rows)), previous)
        previous.add(self.journal.resume())
        return previous

    def append(self, records: list[dict]) -> None:
        self.journal.append(records)

    def close(self) -> None:
        """Write the kept rows and the journal's records into the Parquet file, and remove the journal."""
        self.journal.close()
        schema = parquet_schema(self.pa)
        with atomic_file(self.path) as handle, self.pq.ParquetWriter(handle, schema) as writer:
            if self.path.exists():
                offset = 0
                for batch in self.pq.ParquetFile(self.path).iter_batches(batch_size=self.CHUNK):
                    keep = [offset + index not in self._dropped for index in range(batch.num_rows)]
                    writer.write_batch(batch.filter(self.pa.array(keep)))
                    offset += batch.num_rows
            records = self.journal.records()
            while chunk := list(itertools.islice(records, self.CHUNK)):
                writer.write_batch(self.pa.RecordBatch.from_pylist(chunk, schema=schema))
        self.journal.path.unlink()
        self._dropped = set()


def output_journal(path: Path) -> Path:
    """Where a Parquet output's records wait for the end of the run."""
    return path.with_name(path.name + ".partial.jsonl")


def open_output(path: Path) -> JsonlOutput | ParquetOutput:
    return ParquetOutput(path) if path.suffix.lower() == ".parquet" else JsonlOutput(path)


@contextmanager
def _only_writer(out: Path):
    """Hold ``.<out>.lock`` for the run, so two runs never write one output."""
    lock = out.with_name(f".{out.name}.lock")
    with open(lock, "w") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise BatchError(f"another batch is writing {out}; wait for it to finish, or choose another --out.") from None
        try:
            yield lock
        finally:
            lock.unlink(missing_ok=True)


# -- input -----------------------------------------------------------------------------------


def collect(paths: Iterable[str], leave_out: set[Path] = frozenset()) -> list[tuple[str, Path]]:
    """Each file to read as (the path as given or walked, the path): folders are walked
    recursively in name order, leaving out names that start with a dot and the paths in
    ``leave_out`` (the output's own files)."""
    files = []
    for given in paths:
        root = Path(given)
        if not root.is_dir():
            files.append((given, root))
            continue
        for folder, folders, names in os.walk(root):
            folders[:] = sorted(name for name in folders if not name.startswith("."))
            for name in sorted(names):
                path = Path(folder, name)
                if not name.startswith(".") and path.is_file() and path.resolve() not in leave_out:
                    files.append((os.path.normpath(path), path))
    return files


# -- engines ---------------------------------------------------------------------------------


def _windowed(tasks: Iterator[tuple], window: int, submit: Callable, wait_any: Callable, cancel: Callable) -> Iterator[tuple[tuple, object]]:
    """Run ``tasks`` with at most ``window`` under way; yield (task, handle) as each finishes.
    Tasks are taken from the iterator only as room frees, so memory stays bounded."""
    running: dict = {}
    try:
        while True:
            for task in itertools.islice(tasks, window - len(running)):
                running[submit(task)] = task
            if not running:
                return
            for handle in wait_any(list(running)):
                yield running.pop(handle), handle
    finally:
        for handle in running:
            cancel(handle)


def cores() -> int:
    return len(os.sched_getaffinity(0))


class LocalEngine:
    """Files read on this machine's cores: ``workers`` threads (default: one per core) in this
    process, each calling ``read_file`` on one file at a time.

    Threads, not a process per file, because the heavy steps of a read already leave the
    interpreter and spread over the cores by themselves: a PDF's pages (and a DOCX's or PPTX's,
    through their PDFs) go to the PDF reader's one pool of worker processes, LibreOffice is a
    process of its own, and OCR and Whisper run in native code on every core. So one process
    holds one PDF pool, one OCR engine and one Whisper model however many files are under way,
    and the threads only keep that pool fed while a file waits on LibreOffice or a vision
    service. A process per file would nest a PDF pool in each process (on 2 cores, 4 PDF
    workers; and such a process hangs on exit, joining its pool's workers before the pool is
    shut down) or, reading its pages itself as Ray's workers do, hold a copy of every model per
    process. ``python -m bench batch`` measured on 2 cores, 100 files: the same CPU time per page
    for all of them (0.56-0.65 s), and a peak of 1.3 GB for these threads against 2.8 GB for a
    process per file and 4.2 GB for Ray; their times swung with the load of a shared machine.
    Memory stays bounded: at most ``workers`` files are under way, each file's records are
    written as soon as it is read, and page images are kept only in multimodal mode.
    """

    name = "local"

    def __init__(self, workers: int | None = None):
        self.workers = workers or cores()

    def __enter__(self) -> "LocalEngine":
        return self

    def __exit__(self, *exc) -> None:
        pass

    work = staticmethod(read_records)

    def _pool(self) -> Executor:
        return ThreadPoolExecutor(self.workers, thread_name_prefix="readlens-batch")

    def read(self, tasks: Iterator[tuple], *shared) -> Iterator[tuple[tuple, object]]:
        """Yield (task, ``self.work(*task, *shared)`` or the exception it raised) as each finishes."""
        pool = self._pool()
        try:
            for task, future in _windowed(tasks, self.workers, lambda task: pool.submit(self.work, *task, *shared),
                                          lambda futures: wait(futures, return_when=FIRST_COMPLETED).done, lambda future: future.cancel()):
                yield task, future.exception() or future.result()
        finally:
            pool.shutdown(wait=False, cancel_futures=True)


def read_records_in_process(*args) -> list[dict] | None:
    """``read_records`` for an engine that runs a process per file under way (Ray's workers):
    the PDF reader's pages are read in this process rather than in a pool of its own.

    Such an engine already keeps a core busy per process, so a PDF pool in each would only
    crowd the cores and hold more memory; and a process that ends abruptly (Ray ends its idle
    workers with SIGKILL) or exits with its pool still up (a process pool's worker joins its
    children before its pool is shut down, and waits for ever) would leave that pool's
    processes behind. A one-thread executor takes the pool's place.
    """
    from .formats.pdf import pages_in_this_process

    pages_in_this_process()
    return read_records(*args)


class RayEngine:
    """The same reads as Ray tasks, on a local Ray started here (``address`` None) or on the
    cluster at ``address`` (``"auto"``: the one ``ray start --head`` started on this machine).

    Each task runs ``read_records_in_process`` on one file in a Ray worker, with the readers shipped to
    the cluster as a ``py_modules`` runtime environment and the driver's settings (its
    ``READLENS_CACHE_DIR`` made absolute), so the records are the local engine's. Every node
    needs the same Python packages (``make setup-batch``) and the files at the same paths; a
    shared filesystem lets the nodes share the cache too. At most ``workers`` tasks (default:
    the cluster's CPUs) are under way, so the object store holds a few files' records at a time.
    """

    name = "ray"

    def __init__(self, address: str | None = None, workers: int | None = None):
        self.address, self.workers = address, workers
        self._started = False

    def __enter__(self) -> "RayEngine":
        try:
            import ray
        except ImportError:
            raise BatchError(f"--engine ray needs Ray: {INSTALL_HINT}.") from None
        self.ray = ray
        if not ray.is_initialized():
            os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # nothing is reported anywhere
            try:
                ray.init(address=self.address, num_cpus=None if self.address else self.workers, include_dashboard=False,
                         log_to_driver=False, logging_level="ERROR", runtime_env={"py_modules": [str(Path(__file__).parent)]})
            except (ConnectionError, RuntimeError, ValueError) as error:
                raise BatchError(f"Ray could not start or connect{f' to {self.address}' if self.address else ''}: {error}") from None
            self._started = True
        self.window = self.workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
        return self

    def __exit__(self, *exc) -> None:
        if self._started:
            self.ray.shutdown()

    def read(self, tasks: Iterator[tuple], *shared) -> Iterator[tuple[tuple, object]]:
        ray = self.ray
        remote = ray.remote(read_records_in_process)
        shared_refs = [ray.put(value) for value in shared]
        for task, ref in _windowed(tasks, self.window, lambda task: remote.remote(*task, *shared_refs),
                                   lambda refs: ray.wait(refs, num_returns=1)[0], lambda ref: ray.cancel(ref)):
            try:
                yield task, ray.get(ref)
            except ray.exceptions.RayError as error:
                yield task, error


# -- the run ---------------------------------------------------------------------------------


class _Stopper:
    """The first Ctrl-C (or SIGTERM) starts no more files and lets the files under way finish
    and be written; a second stops at once (what was written is kept)."""

    def __init__(self):
        self.signal = 0
        self._saved: dict = {}

    def __enter__(self) -> "_Stopper":
        if threading.current_thread() is threading.main_thread():
            for number in (signal.SIGINT, signal.SIGTERM):
                self._saved[number] = signal.signal(number, self._handle)
        return self

    def _handle(self, number, frame) -> None:
        if self.signal:
            raise KeyboardInterrupt
        self.signal = number
        tqdm.write("Stopping: no more files are started; the ones under way are finished and written. Ctrl-C again stops at once.", file=sys.stderr)

    def __exit__(self, *exc) -> None:
        for number, handler in self._saved.items():
            signal.signal(number, handler)


@dataclass
class Tally:
    """What this run did, for the progress line and the summary."""

    started: float = field(default_factory=time.monotonic)
    read: int = 0
    pages: int = 0
    failed: list[tuple[str, str]] = field(default_factory=list)
    page_errors: int = 0
    skipped: int = 0
    copies: int = 0

    def count(self, records: list[dict]) -> str | None:
        """Count one file's records; the reason when the file could not be read."""
        first = records[0]
        if first["kind"] is None:
            reason = f"{first['error']['code'] or 'ERROR'}: {first['error']['message']}"
            self.failed.append((first["file"], reason))
            return reason
        self.read += 1
        self.pages += sum(record["page"] is not None for record in records)
        self.page_errors += sum(bool(record["error"]) for record in records)
        return None

    @property
    def seconds(self) -> float:
        return time.monotonic() - self.started

    def summary(self, out: Path, stopped: bool) -> str:
        rate = f", {self.pages / self.seconds:.1f} pages/s" if self.pages else ""
        lines = [f"{'Stopped' if stopped else 'Done'} in {_clock(self.seconds)}: {_count(self.read, 'file')} read ({_count(self.pages, 'page')}{rate}), "
                 f"{len(self.failed):,} failed; records in {out}."]
        if self.skipped or self.copies:
            lines.append(f"Skipped: {_count(self.skipped, 'file')} already in {out.name}, {_count(self.copies, 'copy', 'copies')} of other files (same content).")
        if self.page_errors:
            lines.append(f"{_count(self.page_errors, 'page')} {'has' if self.page_errors == 1 else 'have'} an error in the record; running again reads those files again.")
        if self.failed:
            lines.append("Failed:")
            lines += [f"  {file}: {reason}" for file, reason in self.failed[:FAILURES_LISTED]]
            if len(self.failed) > FAILURES_LISTED:
                lines.append(f"  ... and {len(self.failed) - FAILURES_LISTED:,} more (their records carry the error).")
        if stopped:
            lines.append("Run the same command again to go on.")
        return "\n".join(lines)


def _count(number: int, singular: str, plural: str | None = None) -> str:
    return f"{number:,} {singular if number == 1 else plural or singular + 's'}"


def _clock(seconds: float) -> str:
    minutes, seconds = divmod(round(seconds), 60)
    return f"{minutes // 60}:{minutes % 60:02d}:{seconds:02d}" if minutes >= 60 else f"{minutes}:{seconds:02d}"


def _tasks(files: list[tuple[str, Path]], previous: Previous, tally: Tally, settings: Settings, bar: tqdm, stopper: _Stopper) -> Iterator[tuple]:
    """(path, file, sha256) of each file still to read, hashed here as the engine asks for
    more; files already read and copies are counted off the progress bar instead."""
    seen: set[str] = set()
    for file, path in files:
        if stopper.signal:
            return
        try:
            sha256 = hash_file(path) if path.stat().st_size <= settings.max_file_bytes else None
        except OSError:
            sha256 = None  # read_file says why (not found, a folder, unreadable)
        if sha256 in previous.done or sha256 in seen:
            if sha256 in seen:
                tally.copies += 1
            else:
                tally.skipped += 1
            bar.total -= 1
            bar.refresh()
            continue
        if sha256:
            seen.add(sha256)
        yield str(path.absolute()), file, sha256


def run(paths: list[str], out: str | os.PathLike, *, engine: LocalEngine | RayEngine | None = None, request: Request = Request(),
        settings: Settings | None = None) -> int:
    """Read every file under ``paths`` into ``out``; progress and a summary on standard error.

    Returns the exit status: 0 when every file was read, 1 when some could not be, 128 + the
    signal's number when a signal stopped the run. Raises ``BatchError`` when it cannot start.
    """
    settings = settings or Settings.from_env()
    settings = replace(settings, cache_dir=settings.cache_dir.absolute())  # the same cache from any worker's directory
    try:
        _check_question(request.describe)
    except ReaderError as error:
        raise BatchError(error.message) from None
    missing = [given for given in paths if not Path(given).exists()]
    if missing:
        raise BatchError(f"not found: {', '.join(missing)}")
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    output = open_output(out)
    engine = engine or LocalEngine()
    tally = Tally()
    leave_out = {out.resolve(), output_journal(out).resolve()}
    with _only_writer(out), _Stopper() as stopper, engine:
        previous = output.resume()
        if previous.done or previous.retried or previous.cut:
            print(previous.describe(out), file=sys.stderr)
        files = collect(paths, leave_out)
        bar = tqdm(total=len(files), unit="file", desc=f"Reading ({engine.name})", file=sys.stderr, dynamic_ncols=True,
                   mininterval=0.1 if sys.stderr.isatty() else 10)  # a log file gets a line every 10 s, not every 0.1 s
        tally.started = time.monotonic()
        try:
            with closing(engine.read(_tasks(files, previous, tally, settings, bar, stopper), request, settings)) as results:
                for (_, file, sha256), records in results:
                    if records is None:
                        continue
                    if isinstance(records, BaseException):
                        records = failure_records(file, sha256, None, f"the worker reading {Path(file).name} stopped: {type(records).__name__}")
                    output.append(records)
                    reason = tally.count(records)
                    if reason:
                        tqdm.write(f"failed: {file}: {reason}", file=sys.stderr)
                    bar.set_postfix_str(f"{tally.pages:,} pages, {tally.pages / tally.seconds:.1f} pages/s", refresh=False)
                    bar.update(1)
        except KeyboardInterrupt:
            stopper.signal = stopper.signal or signal.SIGINT
        finally:
            bar.close()
            output.close()
    print(tally.summary(out, bool(stopper.signal)), file=sys.stderr)
    if stopper.signal:
        return 128 + stopper.signal
    return 1 if tally.failed else 0
