"""Batch records: what a collection's reading writes for each page of each file (``FIELDS``), and the read of one file into them."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..core import read_file
from ..errors import ReaderError
from ..models import Reading
from ..payload.serialize import as_json
from ..services import shared_services
from ..settings import Settings

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
