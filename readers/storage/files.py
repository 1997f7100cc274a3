"""Content-addressed disk cache for renders, extracted pages and converted PDFs.

Everything lives under ``<cache_dir>/files/<sha256>/`` and is keyed by the file's content hash,
the page and the dpi — never by name or path. Writes are atomic (temp file + rename), so a
crashed writer never leaves a half-written entry behind.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def atomic_file(target: Path):
    """A file to write that replaces ``target`` only when the writing finished, so readers see
    either the old file or the whole new one."""
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            yield handle
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def file_sha256(path: Path) -> str:
    """The SHA-256 of a file's bytes, the key everything cached of it is filed under."""
    with open(path, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def write_atomic(target: Path, data: bytes) -> None:
    """Write ``data`` to ``target`` atomically (``atomic_file``), making its folder if needed."""
    target.parent.mkdir(parents=True, exist_ok=True)
    with atomic_file(target) as handle:
        handle.write(data)


class Store:
    def __init__(self, cache_dir: Path):
        self.root = Path(cache_dir) / "files"

    def folder(self, sha256: str) -> Path:
        return self.root / sha256

    def path(self, sha256: str, name: str) -> Path:
        return self.folder(sha256) / name

    def get_bytes(self, sha256: str, name: str) -> bytes | None:
        try:
            return self.path(sha256, name).read_bytes()
        except FileNotFoundError:
            return None

    def put_bytes(self, sha256: str, name: str, data: bytes) -> None:
        write_atomic(self.path(sha256, name), data)

    def get_json(self, sha256: str, name: str):
        data = self.get_bytes(sha256, name)
        if data is None:
            return None
        try:
            return json.loads(data)
        except ValueError:
            return None

    def put_json(self, sha256: str, name: str, value) -> None:
        self.put_bytes(sha256, name, json.dumps(value, ensure_ascii=False).encode("utf-8"))

    def clear(self, sha256: str | None = None) -> None:
        """Remove the entries of one file, or of every file."""
        shutil.rmtree(self.folder(sha256) if sha256 else self.root, ignore_errors=True)

    def size_bytes(self) -> int:
        total = 0
        for path in self.root.rglob("*"):
            try:
                total += path.stat().st_size if path.is_file() else 0
            except FileNotFoundError:  # renamed or cleared while we counted
                pass
        return total
