"""Batch records: what a collection's reading writes for each page of each file (``FIELDS``), or
for each chunk (``CHUNK_FIELDS``, with ``--chunks``), and the read of one file into them."""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from pathlib import Path

from ..core import read_file
from ..errors import ReaderError
from ..intake.fetch import is_url
from ..models import Reading
from ..options import ReadOptions
from ..payload.serialize import as_json, notices_json
from ..services import Services, shared_services
from ..settings import Settings
from ..storage.files import file_sha256

FIELDS = (
    "file",
    "sha256",
    "kind",
    "mime",
    "page",
    "page_count",
    "pages_read",
    "section",
    "line",
    "text",
    "tables",
    "furniture",
    "blocks",
    "image",
    "description",
    "description_source",
    "error",
    "transcript",
    "warnings",
    "notices",
)
# A chunk's fields (readers.payload.chunks.Chunk) after the file's, its number and kind renamed so they
# are not taken for a page's or the file's; chunk_count says how many records the file has.
CHUNK_FIELDS = (
    "file",
    "sha256",
    "kind",
    "mime",
    "page_count",
    "pages_read",
    "chunk",
    "chunk_count",
    "chunk_kind",
    "text",
    "tokens",
    "pages",
    "headings",
    "section",
    "citation",
    "where",
    "lines",
    "start",
    "end",
    "caption",
    "boxes",
    "context",
    "overlap",
    "error",
    "warnings",
    "notices",
)
INSTALL_HINT = (
    "the app does not install it; run `make setup-batch`, `pip install -r requirements-batch.txt` "
    "or, for the installed package, `pip install 'readlens[batch]'`"
)
FAILURES_LISTED = 20


class BatchError(Exception):
    """The run cannot start or go on (an output that is not ours, Ray missing); said for a person."""


@dataclass(frozen=True)
class Request:
    """What to read from every file (``options``) and what to write of it: a record per page, or with
    ``chunk_tokens`` one per chunk of at most that many tokens, repeating up to ``overlap_tokens``."""

    options: ReadOptions = ReadOptions()
    chunk_tokens: int = 0
    overlap_tokens: int = 0


def checked(paths: list[str], request: Request, settings: Settings) -> Settings:
    """The settings a run's workers read with (the cache folder made absolute, the same from any
    worker's directory), once the request and the paths are found fit; else ``BatchError``."""
    try:
        request.options.checked(settings)  # a question, hotwords or pages no file could be read with
        if request.chunk_tokens:
            from ..payload.chunks import check_sizes  # loads the tokenizer: only for a run of chunks

            check_sizes(request.chunk_tokens, request.overlap_tokens)
    except ReaderError as error:
        raise BatchError(error.message) from None
    missing = [given for given in paths if not is_url(given) and not Path(given).exists()]
    if missing:
        raise BatchError(f"not found: {', '.join(missing)}")
    return replace(settings, cache_dir=settings.cache_dir.absolute())


def content_hash(path: Path, settings: Settings) -> str | None:
    """The file's SHA-256, or None when it is too large to read or cannot be read (``read_file`` says why:
    not found, a folder, unreadable)."""
    try:
        return file_sha256(path) if path.stat().st_size <= settings.max_file_bytes else None
    except OSError:
        return None


def _record(file: str, sha256: str | None, **values) -> dict:
    return {
        **dict.fromkeys(FIELDS),
        "file": file,
        "sha256": sha256,
        "pages_read": 0,
        "tables": [],
        "furniture": [],
        "blocks": [],
        "warnings": [],
        "notices": [],
        **values,
    }


def _chunk_record(file: str, sha256: str | None, **values) -> dict:
    return {
        **dict.fromkeys(CHUNK_FIELDS),
        "file": file,
        "sha256": sha256,
        "pages_read": 0,
        "chunk_count": 0,
        "pages": [],
        "headings": [],
        "boxes": [],
        "warnings": [],
        "notices": [],
        **values,
    }


def failure_records(file: str, sha256: str | None, code: str | None, message: str, chunked: bool = False) -> list[dict]:
    """The one record of a file that could not be read (of the chunk records' fields when ``chunked``)."""
    return [(_chunk_record if chunked else _record)(file, sha256, error={"code": code, "message": message})]


def page_records(reading: Reading, file: str) -> list[dict]:
    """The records of one reading: one per page, or one for audio (and for a file without pages)."""
    data = as_json(reading, images=reading.multimodal)
    common = {
        "kind": data["kind"],
        "mime": data["mime"],
        "page_count": data["page_count"],
        "pages_read": len(data["pages"]),
    }
    if not data["pages"]:
        transcript = data["transcript"]
        return [
            _record(
                file,
                data["sha256"],
                **common,
                text=transcript["text"] if transcript else "",
                transcript=transcript,
                warnings=data["warnings"],
                notices=data["notices"],
            )
        ]
    return [
        _record(
            file,
            data["sha256"],
            **common,
            page=page["number"],
            section=page["section"],
            line=page["line"],
            text=page["text"],
            tables=page["tables"],
            furniture=page["furniture"],
            blocks=page["blocks"],
            image=page["image"],
            description=page["description"],
            description_source=page["description_source"],
            error={"code": None, "message": page["error"]} if page["error"] else None,
            warnings=data["warnings"] if index == 0 else [],
            notices=data["notices"] if index == 0 else [],
        )
        for index, page in enumerate(data["pages"])
    ]


def chunk_records(reading: Reading, file: str, max_tokens: int, overlap_tokens: int = 0) -> list[dict]:
    """The records of one reading: one per chunk, or one (``chunk`` null) when it has none. Pages
    that failed on their own (a vision call) are named in the first record's error, so that a run
    again reads the file again, as it does a page record with an error."""
    chunks = reading.chunks(max_tokens, overlap_tokens)
    common = {
        "kind": reading.kind,
        "mime": reading.mime,
        "page_count": reading.page_count,
        "pages_read": len(reading.pages),
        "chunk_count": len(chunks),
    }
    failed = "; ".join(f"{reading.label.lower()} {page.number}: {page.error}" for page in reading.pages if page.error)
    first = {
        "warnings": reading.warnings,
        "notices": notices_json(reading.notices),
        "error": {"code": None, "message": failed} if failed else None,
    }
    if not chunks:
        return [_chunk_record(file, reading.sha256, **common, **first)]
    records = []
    for index, chunk in enumerate(chunks):
        values = asdict(chunk)
        values["chunk"], values["chunk_kind"] = values.pop("number"), values.pop("kind")
        records.append(_chunk_record(file, reading.sha256, **common, **values, **(first if index == 0 else {})))
    return records


def read_collected(path: str, options: ReadOptions, services: Services | None) -> Reading:
    """``read_file`` for one file of a collection: a page range that runs past the file's last page
    reads up to that page, as a collection's files have different lengths. ``services`` None: from
    the environment."""
    try:
        return read_file(path, options=options, services=services)
    except ReaderError as error:
        if error.code != "PAGE_OUT_OF_RANGE" or options.page_end is None:
            raise
        return read_file(path, options=replace(options, page_end=None), services=services)


def read_records(path: str, file: str, sha256: str | None, request: Request, settings: Settings) -> list[dict] | None:
    """The records of one file; runs in an engine's worker (a thread here, or a Ray task).

    A page range that runs past a file's last page reads up to that page (``read_collected``).
    Returns None when the read was interrupted (Ctrl-C reached the worker): the file is left for
    the next run.
    """
    try:
        reading = read_collected(path, request.options, shared_services(settings))
        if request.chunk_tokens:
            return chunk_records(reading, file, request.chunk_tokens, request.overlap_tokens)
    except ReaderError as error:
        return failure_records(file, sha256, error.code, error.message, bool(request.chunk_tokens))
    except KeyboardInterrupt:
        return None
    # A bug costs this file only; its type, never its text (it may hold a key).
    except Exception as error:  # noqa: BLE001
        return failure_records(
            file,
            sha256,
            None,
            f"{Path(file).name} could not be read: unexpected {type(error).__name__}. Report it with the file.",
            bool(request.chunk_tokens),
        )
    return page_records(reading, file)
