"""The description cache: TinyDB JSON, content-addressed, safe for threads and processes.

TinyDB's default storage re-reads and rewrites one JSON file on every operation, so each call
costs time in proportion to the whole cache. Here the entries are spread over 4096 TinyDB files
(shards) by the first three hex digits of a hash of the key, so an operation reads and writes
about 1/4096 of the cache, and the key's hash gives the TinyDB document id, so a lookup is
direct instead of a scan. Every operation holds its shard's ``flock`` (threads and processes
alike), and every write replaces the shard file atomically, so a writer killed mid-write leaves
the previous file intact. A shard that cannot be parsed anyway is moved aside with a warning and
started afresh.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tinydb import TinyDB, where
from tinydb.storages import Storage
from tinydb.table import Document, Table

from .files import write_atomic

SHARD_DIGITS = 3  # hex digits of the key's hash naming its shard: 4096 shards
DOC_ID_DIGITS = 15  # hex digits after them giving its TinyDB document id: 60 bits

log = logging.getLogger(__name__)


def cache_key(sha256: str, *parts) -> str:
    """The key of one cached result of the file with content hash ``sha256``.

    ``parts`` are whatever else decides the result (page, question, provider, model, prompt
    version); they must be JSON values. The key starts with ``sha256`` so a file's entries can
    be cleared; never pass a file's name or path.
    """
    digest = hashlib.sha256(json.dumps([sha256, *parts]).encode("utf-8")).hexdigest()
    return f"{sha256}/{digest}"


class _AtomicJSONStorage(Storage):
    """One shard file: read whole, written whole through ``write_atomic``."""

    def __init__(self, path: Path):
        self.path = path

    def read(self) -> dict | None:
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return None
        try:
            tables = json.loads(data)
            if not isinstance(tables, dict):
                raise ValueError("not a TinyDB document")
        except ValueError as error:
            aside = self.path.with_name(f"{self.path.name}.corrupt-{time.time_ns()}")
            self.path.replace(aside)
            log.warning(
                "The description cache file %s could not be read (%s); moved it to %s and started it afresh.",
                self.path,
                error,
                aside.name,
            )
            return None
        return tables

    def write(self, data: dict) -> None:
        write_atomic(self.path, json.dumps(data, ensure_ascii=False).encode("utf-8"))


class DescriptionCache:
    """Cached descriptions (and transcripts), ``get(key)`` / ``put(key, value)``, keys from ``cache_key``."""

    def __init__(self, directory: str | Path):
        self.root = Path(directory) / "descriptions"

    def _shard(self, key: str) -> tuple[str, int]:
        digest = hashlib.sha256(key.encode("utf-8")).hexdigest()
        return digest[:SHARD_DIGITS], int(digest[SHARD_DIGITS : SHARD_DIGITS + DOC_ID_DIGITS], 16)

    @contextmanager
    def _table(self, shard: str) -> Iterator[Table]:
        self.root.mkdir(parents=True, exist_ok=True)
        # Each open() is its own flock holder, so this excludes other threads as well as processes.
        with open(self.root / f"{shard}.lock", "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            yield TinyDB(self.root / f"{shard}.json", storage=_AtomicJSONStorage).table("entries")

    def get(self, key: str) -> str | None:
        shard, doc_id = self._shard(key)
        with self._table(shard) as table:
            entry = table.get(doc_id=doc_id)
        return entry["value"] if entry is not None and entry["key"] == key else None

    def put(self, key: str, value: str) -> None:
        shard, doc_id = self._shard(key)
        with self._table(shard) as table:
            if table.contains(doc_id=doc_id):
                table.update({"key": key, "value": value}, doc_ids=[doc_id])
            else:
                table.insert(Document({"key": key, "value": value}, doc_id=doc_id))

    def _shards(self) -> list[str]:
        return sorted(path.stem for path in self.root.glob("*.json"))

    def clear(self, sha256: str | None = None) -> None:
        """Remove the entries of the file with content hash ``sha256``, or every entry."""
        of_file = where("key").test(lambda key: str(key).startswith(f"{sha256}/"))
        for shard in self._shards():
            with self._table(shard) as table:
                if sha256 is None:
                    (self.root / f"{shard}.json").unlink(missing_ok=True)
                elif table.contains(of_file):
                    table.remove(of_file)

    def __len__(self) -> int:
        count = 0
        for shard in self._shards():
            with self._table(shard) as table:
                count += len(table)
        return count

    def size_bytes(self) -> int:
        return sum(path.stat().st_size for path in self.root.glob("*.json"))
