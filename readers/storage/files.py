"""Content-addressed disk cache for renders, extracted pages, prints and copies: the one door every
cached file goes through.

Everything lives under ``<cache_dir>/files/<sha256>/``, keyed by the file's content hash, an
``Entry`` (what kind of file it is, with the version of what makes it, from ``readers.versions``)
and a part (the page, the dpi) — never by the file's name or path. ``ENTRIES`` lists every kind of
file kept. Writes are atomic (temp file + rename), so a crashed writer never leaves a half-written
entry behind.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from .. import versions


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


@dataclass(frozen=True)
class Entry:
    """A kind of file the store keeps of a file, and the version of what makes it: raise the version
    and every such file made before is made anew. A part (a page, a dpi, an extension) names one of
    several: ``page.v18.0001.json``."""

    kind: str
    version: int
    suffix: str = ""

    def name(self, part: str = "") -> str:
        return f"{self.kind}.v{self.version}{'.' + part if part else ''}{self.suffix}"


PDF_META = Entry("pdf", versions.EXTRACTION_VERSION, ".json")  # a PDF's page count
PAGE = Entry("page", versions.EXTRACTION_VERSION, ".json")  # a PDF page's text, tables and figures
RENDER = Entry("render", versions.RENDER_VERSION, ".png")  # a PDF page's render at a dpi
OFFICE_PDF = Entry("office", versions.OFFICE_VERSION, ".pdf")  # LibreOffice's PDF of an Office file
CONVERTED = Entry("converted", versions.OFFICE_VERSION)  # LibreOffice's OOXML copy of a legacy or ODF file
RECALCULATED = Entry("recalculated", versions.OFFICE_VERSION)  # a workbook LibreOffice recalculated
LETTERS = Entry("letters", versions.LETTERS_VERSION, ".json")  # the letters of a Word document's print
PRINTED = Entry("printed", versions.PRINT_VERSION, ".pdf")  # Chromium's PDF of a web page
IMAGE = Entry("image", versions.IMAGE_VERSION, ".png")  # an image file's frame for the model
TEXT = Entry("text", versions.TEXT_VERSION, ".txt")  # a text file decoded, a notebook's text
TEXT_PAGES = Entry("text-pages", versions.TEXT_VERSION, ".json")  # and its pages
WORKBOOK = Entry("workbook", versions.WORKBOOK_VERSION, ".json")  # a workbook's sheets, tables, figures
BOUNDS = Entry("bounds", versions.WORKBOOK_VERSION, ".json")  # what of a workbook was cut to its bounds
BOUNDED = Entry("bounded", versions.WORKBOOK_VERSION)  # and the copy cut so
WITHOUT_MISSING = Entry("without-missing-images", versions.WORKBOOK_VERSION)  # a workbook's copy for openpyxl
PACKAGE = Entry("package", versions.PACKAGE_VERSION, ".json")  # an Office or EPUB package's check
REPAIRED = Entry("repaired", versions.PACKAGE_VERSION)  # and its repaired (or Transitional) copy
WITHOUT = Entry("without", versions.PACKAGE_VERSION)  # a package's copy without a folder
SHALLOW = Entry("shallow", versions.PACKAGE_VERSION, ".json")  # what of a package was cut for depth
SHALLOW_COPY = Entry("shallow", versions.PACKAGE_VERSION)  # and the copy cut so
LINKS = Entry("links", versions.LINKS_VERSION, ".json")  # what a document links outside itself
UNLINKED = Entry("unlinked", versions.LINKS_VERSION)  # and its copy without it
DOCUMENT = Entry("document", versions.DOCUMENT_VERSION, ".pdf")  # the pages read, as a PDF of their own
DOWNLOAD = Entry("download", versions.FETCH_VERSION)  # a file fetched by its URL, filed by its own hash
ENTRIES = (
    PDF_META, PAGE, RENDER, OFFICE_PDF, CONVERTED, RECALCULATED, LETTERS, PRINTED, IMAGE, TEXT, TEXT_PAGES, WORKBOOK,
    BOUNDS, BOUNDED, WITHOUT_MISSING, PACKAGE, REPAIRED, WITHOUT, SHALLOW, SHALLOW_COPY, LINKS, UNLINKED, DOCUMENT,
    DOWNLOAD,
)  # fmt: skip


class Store:
    def __init__(self, cache_dir: Path):
        self.root = Path(cache_dir) / "files"

    def folder(self, sha256: str) -> Path:
        return self.root / sha256

    def path(self, sha256: str, entry: Entry, part: str = "") -> Path:
        return self.folder(sha256) / entry.name(part)

    def holds(self, sha256: str, path: Path) -> bool:
        """Whether ``path`` is a file the store made of the file with content hash ``sha256`` (a print,
        a copy), rather than a file of the user's."""
        return path.parent == self.folder(sha256)

    def get_bytes(self, sha256: str, entry: Entry, part: str = "") -> bytes | None:
        try:
            return self.path(sha256, entry, part).read_bytes()
        except FileNotFoundError:
            return None

    def put_bytes(self, sha256: str, entry: Entry, data: bytes, part: str = "") -> None:
        write_atomic(self.path(sha256, entry, part), data)

    def get_json(self, sha256: str, entry: Entry, part: str = ""):
        data = self.get_bytes(sha256, entry, part)
        if data is None:
            return None
        try:
            return json.loads(data)
        except ValueError:
            return None

    def put_json(self, sha256: str, entry: Entry, value, part: str = "") -> None:
        self.put_bytes(sha256, entry, json.dumps(value, ensure_ascii=False).encode("utf-8"), part)

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
