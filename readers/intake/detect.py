"""Decide what a file is from its bytes (libmagic, then what a zip or OLE container holds, then an
XML file's root element), never from its name alone.

The extension is only a hint: it words an error when the bytes are damaged, and it tells apart
plain-text files that have no magic of their own (a CSV, an HTML fragment, an e-mail). Everyone
else trusts ``detect()``.

A kind names the reader; ``readers.kinds`` lists each kind's MIME types (aliases included) and
names, and the supported list an unsupported file's error gives.
"""

from __future__ import annotations

import re
import zipfile
from dataclasses import dataclass
from pathlib import Path

import magic
import msoffcrypto
import olefile

from ..errors import ReaderError
from ..kinds import (
    KIND_BY_MIME,
    KIND_BY_SUFFIX,
    MIME_BY_OLE_STREAM,
    MIME_BY_TEXT_SUFFIX,
    MIME_BY_XML_ROOT,
    MIME_BY_ZIP_PART,
    MSG_MIME,
    OOXML_MIMES,
    SHOWN_MIME,
    SUPPORTED,
    XLSM_MIME,
    XLSX_MIME,
    kind_of,
)
from .package import DAMAGED_ZIP

# An OLE file's storages and streams, counted before olefile opens it: olefile checks each stream
# against all those before it (an Outlook message of 12,000 recipients, 108,000 entries, ran for
# minutes); an honest Office file or message has a few hundred, one with 100 attachments some 2,000.
MAX_OLE_ENTRIES = 10_000
OLE_HEADER, OLE_ENTRY = 512, 128  # bytes (MS-CFB 2.2, 2.6)
# What libmagic calls an OLE compound file whose streams it did not read (or an encrypted OOXML package)
OLE_MIMES = ("application/x-ole-storage", "application/CDFV2", "application/vnd.ms-office", "application/encrypted")
PDF_HEADER_WITHIN = 1024  # bytes: PDF readers look this far for "%PDF-" (PDF Reference 1.7, appendix H, note 13)
FORMATS_LISTED = ". Supported: "  # where an unsupported file's sentence ends and the list begins


@dataclass(frozen=True)
class Detected:
    kind: str  # the reader: a name in readers.kinds.KINDS ("pdf", "docx", "audio", ...)
    mime: str


def _unsupported(name: str, what: str) -> ReaderError:
    return ReaderError(
        "UNSUPPORTED_FORMAT", f"{name} is {what}, which ReadLens cannot read{FORMATS_LISTED}{SUPPORTED}."
    )


def _encrypted(name: str) -> ReaderError:
    return ReaderError(
        "ENCRYPTED_FILE",
        f"{name} is a password-protected Office document. Remove the password in Word, Excel or "
        "PowerPoint, save, and upload it again.",
    )


def _content_types(archive: zipfile.ZipFile) -> bytes:
    """An OOXML package's list of content types; a damaged one reads as empty (the package check repairs it)."""
    try:
        return archive.read("[Content_Types].xml")
    except (KeyError, *DAMAGED_ZIP):
        return b""


def _zip_mime(path: Path, name: str) -> str | None:
    """An OOXML package is a zip; what it holds says which one (None: some other zip)."""
    try:
        with zipfile.ZipFile(path) as archive:
            names = set(archive.namelist())
            for part, mime in MIME_BY_ZIP_PART.items():
                if part in names:
                    if mime == XLSX_MIME and b"macroEnabled" in _content_types(archive):
                        return XLSM_MIME
                    return mime
            if "[Content_Types].xml" in names and any(
                part.startswith(("xl/", "word/", "ppt/", "visio/")) for part in names
            ):
                raise _unsupported(
                    name,
                    "an Office file of a kind ReadLens cannot read (such as "
                    "XLSB or Visio); save it as XLSX, DOCX or PPTX",
                )
    except DAMAGED_ZIP:
        if kind_of(KIND_BY_SUFFIX.get(path.suffix.lower(), "")).package:
            raise ReaderError(
                "CORRUPT_FILE",
                f"{name} looks like an Office file but its zip structure is "
                "damaged or truncated. Save or export it again.",
            ) from None
    return None


def _ole_entries(data: bytes) -> int:
    """How many storages and streams an OLE compound file holds, counted from its 128-byte directory
    entries as they stand in its sectors (MS-CFB 2.6: a name of 2 to 64 bytes ending in a NUL, the
    type 1 or 2, the colour 0 or 1), without following its tables."""
    count = 0
    for at in range(OLE_HEADER, len(data) - OLE_ENTRY + 1, OLE_ENTRY):
        length = data[at + 64] | data[at + 65] << 8
        if data[at + 66] in (1, 2) and data[at + 67] < 2 and 2 <= length <= 64 and not length % 2:
            count += data[at + length - 2 : at + length] == b"\0\0"
    return count


def _ole_mime(path: Path, name: str) -> str:
    """An OLE compound file (legacy Office, Outlook, or an encrypted OOXML package): its streams say
    which. One of more than ``MAX_OLE_ENTRIES`` storages and streams is refused before it is opened."""
    if (entries := _ole_entries(path.read_bytes())) > MAX_OLE_ENTRIES:
        raise ReaderError(
            "TOO_COMPLEX",
            f"{name} holds {entries:,} streams and storages; Office and Outlook files of more than "
            f"{MAX_OLE_ENTRIES:,} are refused, since opening one takes minutes. It may have been built to stall "
            "readers.",
        )
    try:
        with olefile.OleFileIO(str(path)) as ole:
            streams = {entry[0].lower() for entry in ole.listdir(streams=True, storages=True)}
    except OSError:
        raise ReaderError(
            "CORRUPT_FILE",
            f"{name} is a damaged Office or Outlook file: its internal structure cannot be read. Save it again.",
        ) from None
    if "encryptedpackage" in streams:
        raise _encrypted(name)
    mime = next((mime for stream, mime in MIME_BY_OLE_STREAM.items() if stream in streams), None)
    if mime is None:
        raise _unsupported(name, "an OLE compound file that is not a Word, Excel, PowerPoint or Outlook file")
    if mime != MSG_MIME:
        try:
            with open(path, "rb") as handle:
                locked = msoffcrypto.OfficeFile(handle).is_encrypted()
        # msoffcrypto raises its own types on files it cannot parse; LibreOffice will say more.
        except Exception:  # noqa: BLE001
            locked = False
        if locked:
            raise _encrypted(name)
    return mime


def _xml_root_mime(path: Path) -> str | None:
    """The MIME type an XML file's root element names, skipping the declaration, comments and DOCTYPE."""
    with open(path, "rb") as handle:
        head = handle.read(8192)
    head = re.sub(rb"<\?.*?\?>|<!--.*?-->|<!DOCTYPE[^>]*>", b"", head, flags=re.S)
    root = re.search(rb"<([A-Za-z_][\w:.-]*)", head)
    return MIME_BY_XML_ROOT.get(root.group(1).decode("ascii").lower()) if root else None


def detect(path: Path, name: str) -> Detected:
    """Return the kind and MIME type of ``path`` from its content, or raise ``ReaderError``
    (whose message calls the file ``name``)."""
    mime = magic.from_file(str(path), mime=True)
    if mime in ("application/zip", "application/octet-stream", "application/x-zip-compressed", *OOXML_MIMES):
        with open(path, "rb") as handle:
            head = handle.read(PDF_HEADER_WITHIN)
        if head.startswith(b"PK\x03\x04"):
            mime = _zip_mime(path, name) or ("application/zip" if mime == "application/octet-stream" else mime)
        elif mime == "application/octet-stream" and b"%PDF-" in head:
            mime = "application/pdf"  # a PDF after a few lines of junk (a printer's banner), as PDF readers accept it
    if mime in OLE_MIMES or mime in MIME_BY_OLE_STREAM.values() or mime.startswith("application/CDFV2"):
        mime = _ole_mime(path, name)
    elif mime in ("text/xml", "application/xml"):
        mime = _xml_root_mime(path) or mime
    elif mime == "text/plain":
        mime = MIME_BY_TEXT_SUFFIX.get(path.suffix.lower(), mime)
    elif mime == "text/csv" and path.suffix.lower() not in ("", ".csv", ".tsv", ".tab"):
        mime = MIME_BY_TEXT_SUFFIX.get(
            path.suffix.lower(), "text/plain"
        )  # libmagic calls any text with a comma on every line CSV; the name's type wins
    kind = KIND_BY_MIME.get(mime)
    if kind is None and mime.startswith("text/"):
        kind = "text"
    if kind is None and (mime == "application/octet-stream" or Path(name).suffix.lower() in KIND_BY_SUFFIX):
        # bytes libmagic knows no type for, or a type other than the name promises: said as a person would
        suffix, looks = Path(name).suffix, "" if mime == "application/octet-stream" else f" (it looks like {mime})"
        said = (
            f"is not a {suffix[1:].upper()} inside: its content is no format ReadLens reads{looks}"
            if suffix.lower() in KIND_BY_SUFFIX
            else "is no format ReadLens reads: its content matches none it knows"
        )
        raise ReaderError(
            "UNSUPPORTED_FORMAT",
            f"{name} {said}. It may be damaged, or another kind of file renamed{FORMATS_LISTED}{SUPPORTED}.",
        )
    if kind is None:
        raise _unsupported(name, f"of type {mime}")
    return Detected(kind, SHOWN_MIME.get(mime, mime))


def misnamed(name: str, detected: Detected) -> str | None:
    """A warning when ``name``'s extension promises another kind of file than its content is, naming both."""
    suffix = Path(name).suffix.lower()
    promised = KIND_BY_SUFFIX.get(suffix)
    if promised is None or promised == detected.kind or kind_of(promised).plain and kind_of(detected.kind).plain:
        return None
    return (
        f"{name} is named as a {suffix} file, but its content is {detected.mime}: it was read as "
        f"{detected.kind}. Rename it to match, or check that it is the file you meant."
    )
