"""Batch outputs: JSON Lines or Parquet, written by one process, and resumed: what a stopped run
already wrote is scanned, kept or dropped. An output holds page records or chunk records
(``--chunks``), never both."""

from __future__ import annotations

import fcntl
import itertools
import json
import os
from collections.abc import Iterable, Iterator
from collections.abc import Set as AbstractSet
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from ..intake.fetch import is_url
from ..storage.files import atomic_file
from .records import CHUNK_FIELDS, FIELDS, INSTALL_HINT, BatchError


def counted(number: int, singular: str, plural: str | None = None) -> str:
    return f"{number:,} {singular if number == 1 else plural or singular + 's'}"


@dataclass
class Previous:
    """What earlier runs left in the output."""

    done: set[str] = field(default_factory=set)  # content hashes (URLs, for those) of the files read without an error
    pages: int = 0
    retried: int = 0  # files whose records carry an error: dropped, to be read again
    cut: int = 0  # files whose records a stopped run did not finish writing: dropped

    def add(self, other: Previous) -> None:
        self.done |= other.done
        self.pages += other.pages
        self.retried += other.retried
        self.cut += other.cut

    def describe(self, out: Path) -> str:
        parts = [
            f"{counted(len(self.done), 'file')} ({counted(self.pages, 'page')}) "
            f"already read into {out.name} are skipped"
        ]
        if self.retried:
            parts.append(
                f"{self.retried:,} with errors are read again" if self.retried > 1 else "1 with an error is read again"
            )
        if self.cut:
            parts.append(
                f"{self.cut:,} cut short by a stopped run are read again"
                if self.cut > 1
                else "1 cut short by a stopped run is read again"
            )
        return "Resuming: " + "; ".join(parts) + "."


def _check(record, where: str, chunked: bool) -> dict:
    if not isinstance(record, dict) or not {"file", "sha256", "pages_read", "error"} <= record.keys():
        raise BatchError(f"{where} is not a ReadLens batch record, so the output is not one; choose another --out.")
    if ("chunk_count" in record) != chunked:
        raise BatchError(
            f"{where} is a {'page' if chunked else 'chunk'} record: the output "
            f"was written {'without' if chunked else 'with'} "
            f"--chunks, and one output holds one kind of record; choose another --out."
        )
    return record


def _sift(pairs: Iterable[tuple[dict, object]], previous: Previous) -> set:
    """The payloads (line or row numbers) of the records to drop, files cut short and files
    whose records carry an error (to be read again); what is kept is counted in ``previous``.

    A file's records are consecutive and each says how many there are (``chunk_count`` or ``pages_read``, or 1).
    """
    dropped: set = set()
    group: list[tuple[dict, object]] = []

    def close(complete: bool) -> None:
        failed = any(record["error"] for record, _ in group)
        if complete and not failed:
            first = group[0][0]
            previous.done.add(first["file"] if is_url(first["file"]) else first["sha256"])  # a URL: not fetched again
            previous.pages += group[0][0]["pages_read"]
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
        first = group[0][0]
        if len(group) >= ((first["chunk_count"] if "chunk_count" in first else first["pages_read"]) or 1):
            close(complete=True)
    if group:
        close(complete=False)
    return dropped


class JsonlOutput:
    """Records appended to a JSON Lines file, each file's records in one write."""

    def __init__(self, path: Path, chunked: bool = False):
        self.path, self.chunked = path, chunked
        self.partial: int | None = None  # the number of a last line cut short, found by _records
        self._handle: BinaryIO | None = None

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
                raise BatchError(
                    f"{self.path} line {number} is not JSON, so the file is "
                    "not a ReadLens batch output; choose another --out."
                ) from None
            yield _check(record, f"{self.path} line {number}", self.chunked), number

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
        self._handle.write(
            b"".join(json.dumps(record, ensure_ascii=False).encode("utf-8") + b"\n" for record in records)
        )
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


def parquet_schema(pa, chunked: bool = False):
    segment = pa.struct([("start", pa.float64()), ("end", pa.float64()), ("text", pa.string())])
    transcript = pa.struct(
        [
            ("text", pa.string()),
            ("language", pa.string()),
            ("duration", pa.float64()),
            ("segments", pa.list_(segment)),
            ("source", pa.string()),
        ]
    )
    cell = pa.struct([("text", pa.string()), ("row_span", pa.int64()), ("column_span", pa.int64())])
    block = pa.struct(
        [
            ("kind", pa.string()),
            ("text", pa.string()),
            ("box", pa.list_(pa.float64())),
            ("level", pa.int64()),
            ("rows", pa.list_(pa.list_(cell))),
            ("apart", pa.bool_()),
        ]
    )
    types = {
        "page": pa.int64(),
        "page_count": pa.int64(),
        "pages_read": pa.int64(),
        "line": pa.int64(),
        "tables": pa.list_(pa.string()),
        "furniture": pa.list_(pa.string()),
        "blocks": pa.list_(block),
        "error": pa.struct([("code", pa.string()), ("message", pa.string())]),
        "transcript": transcript,
        "warnings": pa.list_(pa.string()),
        "notices": pa.list_(pa.struct([("code", pa.string()), ("text", pa.string()), ("page", pa.int64())])),
    }
    if chunked:
        box = pa.struct([("page", pa.int64()), ("box", pa.list_(pa.float64()))])
        types |= {
            "chunk": pa.int64(),
            "chunk_count": pa.int64(),
            "tokens": pa.int64(),
            "pages": pa.list_(pa.int64()),
            "headings": pa.list_(pa.string()),
            "lines": pa.list_(pa.int64()),
            "start": pa.float64(),
            "end": pa.float64(),
            "boxes": pa.list_(box),
        }
    return pa.schema([(name, types.get(name, pa.string())) for name in (CHUNK_FIELDS if chunked else FIELDS)])


class ParquetOutput:
    """Records in a Parquet file: journalled to ``<out>.partial.jsonl`` during the run, and
    written into the Parquet file (with the rows it kept) once, at the end."""

    CHUNK = 256  # records per row batch

    def __init__(self, path: Path, chunked: bool = False):
        self.pa, self.pq = _parquet()
        self.path, self.chunked = path, chunked
        self.journal = JsonlOutput(output_journal(path), chunked)
        self._dropped: set[int] = set()

    def resume(self) -> Previous:
        previous = Previous()
        if self.path.exists():
            try:
                columns = ["file", "sha256", "pages_read", "error", *(["chunk_count"] if self.chunked else [])]
                rows = self.pq.read_table(self.path, columns=columns).to_pylist()
            except (self.pa.ArrowException, KeyError):
                raise BatchError(
                    f"{self.path} is not a ReadLens batch output in Parquet{' of chunks' if self.chunked else ''}; "
                    "choose another --out."
                ) from None
            self._dropped = _sift(((row, index) for index, row in enumerate(rows)), previous)
        previous.add(self.journal.resume())
        return previous

    def append(self, records: list[dict]) -> None:
        self.journal.append(records)

    def close(self) -> None:
        """Write the kept rows and the journal's records into the Parquet file, and remove the journal."""
        self.journal.close()
        schema = parquet_schema(self.pa, self.chunked)
        with atomic_file(self.path) as handle, self.pq.ParquetWriter(handle, schema) as writer:
            if self.path.exists():
                offset = 0
                for batch in self.pq.ParquetFile(self.path).iter_batches(batch_size=self.CHUNK):
                    keep = [offset + index not in self._dropped for index in range(batch.num_rows)]
                    kept = batch.filter(self.pa.array(keep))
                    if kept.schema != schema:  # rows written before a field was added: theirs is null
                        kept = self.pa.RecordBatch.from_pylist(kept.to_pylist(), schema=schema)
                    writer.write_batch(kept)
                    offset += batch.num_rows
            records = self.journal.records()
            while chunk := list(itertools.islice(records, self.CHUNK)):
                writer.write_batch(self.pa.RecordBatch.from_pylist(chunk, schema=schema))
        self.journal.path.unlink()
        self._dropped = set()


def output_journal(path: Path) -> Path:
    """Where a Parquet output's records wait for the end of the run."""
    return path.with_name(path.name + ".partial.jsonl")


def open_output(path: Path, chunked: bool = False) -> JsonlOutput | ParquetOutput:
    """The output at ``path``, of chunk records when ``chunked``, else of page records."""
    return (ParquetOutput if path.suffix.lower() == ".parquet" else JsonlOutput)(path, chunked)


@contextmanager
def only_writer(out: Path):
    """Hold ``.<out>.lock`` for the run, so two runs never write one output."""
    lock = out.with_name(f".{out.name}.lock")
    with open(lock, "w") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise BatchError(
                f"another batch is writing {out}; wait for it to finish, or choose another --out."
            ) from None
        try:
            yield lock
        finally:
            lock.unlink(missing_ok=True)


def collect(paths: Iterable[str], leave_out: AbstractSet[Path] = frozenset()) -> list[str]:
    """Each file to read, as given or walked: folders are walked recursively in name order, leaving
    out names that start with a dot and the paths in ``leave_out`` (the output's own files). Paths
    are kept as strings, a tenth of a ``Path``'s memory: a collection of a million is held whole."""
    files = []
    for given in paths:
        root = Path(given)
        if not root.is_dir():
            files.append(given)
            continue
        for folder, folders, names in os.walk(root):
            folders[:] = sorted(name for name in folders if not name.startswith("."))
            for name in sorted(names):
                path = Path(folder, name)
                if not name.startswith(".") and path.is_file() and path.resolve() not in leave_out:
                    files.append(os.path.normpath(path))
    return files
