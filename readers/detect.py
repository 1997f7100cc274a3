"""Decide what a file is from its bytes (libmagic), never from its name alone.

The extension is only a hint, used to word an error when the bytes are damaged. Everyone else
trusts ``detect()``.
"""

from __future__ import annotations

import zipfile
from dataclasses import dataclass
from pathlib import Path

import magic

from .errors import ReaderError

PPTX_MIME = "application/vnd.openxmlformats-officedocument.presentationml.presentation"
DOCX_MIME = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"

# libmagic's MIME types (and the aliases different versions print), normalised to our kinds.
KIND_BY_MIME = {
    "application/pdf": "pdf",
    PPTX_MIME: "pptx",
    DOCX_MIME: "docx",
    "image/png": "image",
    "image/jpeg": "image",
    "image/gif": "image",
    "image/webp": "image",
    "image/bmp": "image",
    "image/x-ms-bmp": "image",
    "image/tiff": "image",
    "audio/x-wav": "audio",
    "audio/wav": "audio",
    "audio/vnd.wave": "audio",
    "audio/flac": "audio",
    "audio/x-flac": "audio",
    "audio/mpeg": "audio",
    "audio/mp4": "audio",
    "audio/x-m4a": "audio",
    "audio/aac": "audio",
    "audio/x-hx-aac-adts": "audio",
    "audio/ogg": "audio",
    "audio/opus": "audio",
    "audio/webm": "audio",
    "video/webm": "audio",
    "video/mp4": "audio",
    "application/json": "text",
    "application/x-ndjson": "text",
    "application/csv": "text",
    "application/javascript": "text",
    "application/xml": "text",
    "image/svg+xml": "text",
}
CANONICAL_MIME = {"audio/x-wav": "audio/wav", "audio/vnd.wave": "audio/wav", "image/x-ms-bmp": "image/bmp", "audio/x-flac": "audio/flac",
                  "video/webm": "audio/webm", "audio/x-m4a": "audio/mp4", "video/mp4": "audio/mp4", "audio/x-hx-aac-adts": "audio/aac"}
OOXML_MAIN_PART = {"ppt/presentation.xml": ("pptx", PPTX_MIME), "word/document.xml": ("docx", DOCX_MIME)}
OFFICE_EXTENSIONS = {".pptx", ".docx", ".doc", ".ppt", ".xlsx", ".xls"}


@dataclass(frozen=True)
class Detected:
    kind: str  # "pdf" | "pptx" | "docx" | "image" | "audio" | "text"
    mime: str


def _unsupported(name: str, what: str) -> ReaderError:
    return ReaderError(
        "UNSUPPORTED_FORMAT",
        f"{name} is {what}, which ReadLens cannot read. Supported: PDF, PPTX, DOCX, images "
        "(PNG, JPEG, GIF, WebP, BMP, TIFF), audio (WAV, MP3, M4A, FLAC, OGG, WebM) and text files.",
    )


def _zip_kind(path: Path, name: str) -> Detected | None:
    """An OOXML package is a zip; what it holds says which one."""
    try:
        with zipfile.ZipFile(path) as archive:
            names = set(archive.namelist())
    except (zipfile.BadZipFile, OSError, ValueError):
        if path.suffix.lower() in OFFICE_EXTENSIONS:
            raise ReaderError("CORRUPT_FILE", f"{name} looks like an Office file but its zip structure is damaged or truncated. Save or export it again.") from None
        return None
    for part, (kind, mime) in OOXML_MAIN_PART.items():
        if part in names:
            return Detected(kind, mime)
    return None


def detect(path: Path, name: str) -> Detected:
    """Return the kind and MIME type of ``path`` from its content, or raise ``ReaderError``
    (whose message calls the file ``name``)."""
    mime = magic.from_file(str(path), mime=True)
    if mime in ("application/zip", "application/octet-stream", "application/x-zip-compressed", PPTX_MIME, DOCX_MIME):
        with open(path, "rb") as handle:
            if handle.read(4) == b"PK\x03\x04":
                found = _zip_kind(path, name)
                if found:
                    return found
    if mime in ("application/x-ole-storage", "application/CDFV2", "application/vnd.ms-office", "application/encrypted") or mime.startswith("application/CDFV2"):
        description = magic.from_file(str(path))
        if "Encrypted" in description:
            raise ReaderError("ENCRYPTED_FILE", f"{name} is a password-protected Office document. Remove the password in Word or PowerPoint, save, and upload it again.")
        raise _unsupported(name, "a legacy Office file (.doc/.ppt/.xls)")
    kind = KIND_BY_MIME.get(mime)
    if kind is None and mime.startswith("text/"):
        kind = "text"
    if kind is None:
        raise _unsupported(name, f"of type {mime}")
    return Detected(kind, CANONICAL_MIME.get(mime, mime))
