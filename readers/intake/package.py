"""Zip packages — Word, PowerPoint and Excel files (OOXML) and EPUB — checked before any parser sees them.

A package that inflates past ``MAX_INFLATED_BYTES`` is refused (a zip bomb). The libraries that
read packages refuse the whole file when one part is damaged — a zip entry that fails its checksum
or cannot be inflated, or XML that is not well-formed, in a chart, a header, a slide — so such a
package is read from a repaired copy instead: each damaged part replaced by what can still be read
of it (its bytes as far as they inflate, checksum or not; of XML, the elements lxml's recovering
parser finds in them; a part with nothing left is left out, with the relationships to it), with a
warning naming the parts. The package's own structure, its content types and relationships, counts
as damaged too when an entry lacks an attribute the libraries require; its repair leaves that
entry out. The copy and the list of what was repaired are kept in the cache by content hash, so a
file is checked once.

Only the XML the libraries parse strictly is checked (OOXML's parts and relationships, EPUB's
package and navigation files); an EPUB's chapters are read by a lenient HTML parser anyway.
"""

from __future__ import annotations

import io
import lzma
import posixpath
import struct
import zipfile
import zlib
from collections.abc import Set as AbstractSet
from dataclasses import replace
from pathlib import Path
from urllib.parse import unquote

from lxml import etree

from ..errors import ReaderError
from ..notices import Code, Notice
from ..storage.files import PACKAGE, REPAIRED, SHALLOW, SHALLOW_COPY, WITHOUT
from .names import label
from .strict import is_strict, transitional
from .xml import MAX_DEPTH, decoded, shallow

MAX_INFLATED_BYTES = 500 * 1024 * 1024  # a package, or all the members of an archive or e-mail (readers.intake.members)
XML_PARTS = (".xml", ".rels", ".opf", ".ncx")
CHUNK = 1 << 16
MB = 1024 * 1024  # bytes in a megabyte, as the limits are told
ZIP_LOCAL_HEADER = 30  # bytes: a ZIP local file header's fixed part, before the name (APPNOTE.TXT 4.3.7)
ZIP_NAME_LENGTHS = slice(26, 30)  # in it: the file name's and the extra field's lengths
SAFE = {
    "huge_tree": True,
    "resolve_entities": False,
    "no_network": True,
}  # a large part still parses; no entity is expanded, nothing fetched
PARSER = etree.XMLParser(**SAFE)
RECOVERING = etree.XMLParser(recover=True, **SAFE)
# What opening a damaged zip or reading its entries raises: a bad header, directory or checksum
# (BadZipFile, ValueError), a broken deflate, bzip2 or LZMA stream (zlib.error, OSError, LZMAError,
# EOFError), a version or method zipfile does not know (NotImplementedError), an "encrypted" flag
# set by the damage (RuntimeError: password required).
DAMAGED_ZIP = (
    zipfile.BadZipFile,
    ValueError,
    zlib.error,
    OSError,
    lzma.LZMAError,
    EOFError,
    NotImplementedError,
    RuntimeError,
)
SHOWN_PARTS = 5
# The package's own structure, which the libraries need whole: for the content types and each
# relationships part, its root and the attributes each entry must have.
STRUCTURE = {
    "types": (
        "{http://schemas.openxmlformats.org/package/2006/content-types}",
        "Types",
        {"Default": ("Extension", "ContentType"), "Override": ("PartName", "ContentType")},
    ),
    "rels": (
        "{http://schemas.openxmlformats.org/package/2006/relationships}",
        "Relationships",
        {"Relationship": ("Id", "Type", "Target")},
    ),
}


class _Nothing:
    """A parser target that builds nothing: parsing with it only checks that XML is well-formed."""

    def close(self) -> None:
        return None


def _is_xml(name: str) -> bool:
    return name.lower().endswith(XML_PARTS)


def _structure(name: str):
    if name == "[Content_Types].xml":
        return STRUCTURE["types"]
    return STRUCTURE["rels"] if name.lower().endswith(".rels") else None


def _named_part(entry, source: str) -> str | None:
    """The part a content type (PartName) or a relationship (Target, relative to ``source``'s
    folder) names; None for a default content type or an external target (a web link)."""
    name = entry.get("PartName") or entry.get("Target")
    if name is None or entry.get("TargetMode") == "External":
        return None
    return unquote(name[1:] if name.startswith("/") else posixpath.normpath(posixpath.join(source, name)))


def _whole_entries(root, structure, name: str, parts: set[str]) -> list:
    """The entries of a content types or relationships part that are whole: every attribute the
    libraries require, and the part they name in the package."""
    namespace, _, entries = structure
    source = posixpath.dirname(posixpath.dirname(name))  # word/_rels/document.xml.rels relates word/document.xml
    whole = []
    for entry in root.iter(*(namespace + tag for tag in entries)) if root is not None else ():
        if all(entry.get(key) for key in entries[entry.tag.removeprefix(namespace)]) and _named_part(entry, source) in (
            None,
            *parts,
        ):
            whole.append(entry)
    return whole


def _is_whole(root, structure, name: str, parts: set[str]) -> bool:
    namespace, root_name, _ = structure
    return root.tag == namespace + root_name and _whole_entries(root, structure, name, parts) == [
        child for child in root if isinstance(child.tag, str)
    ]


def _rebuilt(root, structure, name: str, parts: set[str]) -> bytes:
    """A content types or relationships part of its whole entries only."""
    namespace, root_name, _ = structure
    rebuilt = etree.Element(namespace + root_name, nsmap={None: namespace.strip("{}")})
    rebuilt.extend(_whole_entries(root, structure, name, parts))
    return etree.tostring(rebuilt, xml_declaration=True, encoding="UTF-8", standalone=True)


def _damaged(archive: zipfile.ZipFile, info: zipfile.ZipInfo, parts: set[str]) -> bool:
    """Whether the part fails to inflate or its checksum, or, for XML, is not well-formed; the
    content types and relationships must also be whole."""
    structure = _structure(info.filename)
    if structure is not None:
        try:
            return not _is_whole(etree.fromstring(archive.read(info), PARSER), structure, info.filename, parts)
        except (*DAMAGED_ZIP, etree.XMLSyntaxError):
            return True
    checker = etree.XMLParser(target=_Nothing(), **SAFE) if _is_xml(info.filename) else None
    try:
        with archive.open(info) as part:
            while chunk := part.read(CHUNK):
                if checker is not None:
                    checker.feed(chunk)
        if checker is not None:
            checker.close()
    except (*DAMAGED_ZIP, etree.XMLSyntaxError):
        return True
    return False


def _inflated(path, info: zipfile.ZipInfo) -> bytes:
    """What can be inflated of a damaged entry, checksum or not: from its local header on, the
    stored bytes, or the deflated ones up to where the stream breaks (at most its declared size)."""
    with open(path, "rb") as handle:
        handle.seek(info.header_offset)
        header = handle.read(ZIP_LOCAL_HEADER)
        if (
            len(header) < ZIP_LOCAL_HEADER
            or header[:4] != b"PK\x03\x04"
            or info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED)
        ):
            return b""
        name_length, extra_length = struct.unpack("<HH", header[ZIP_NAME_LENGTHS])
        handle.seek(info.header_offset + ZIP_LOCAL_HEADER + name_length + extra_length)
        raw = handle.read(info.compress_size)
    if info.compress_type == zipfile.ZIP_STORED:
        return raw[: info.file_size]
    inflater, data = zlib.decompressobj(-zlib.MAX_WBITS), bytearray()
    try:
        for start in range(0, len(raw), CHUNK):
            data += inflater.decompress(raw[start : start + CHUNK], info.file_size + 1 - len(data))
            if len(data) > info.file_size or inflater.eof:
                break
    except zlib.error:
        pass
    return bytes(data[: info.file_size])


def _recovered(data: bytes):
    """The elements a recovering parser finds in damaged XML, or None."""
    try:
        return etree.fromstring(data, RECOVERING)
    except etree.XMLSyntaxError:  # nothing left that parses
        return None


def _salvaged_xml(data: bytes) -> bytes | None:
    """The elements a recovering parser finds in damaged XML, written out again; None when
    nothing is left that a strict parser reads (a root whose namespace declaration was cut off)."""
    root = _recovered(data)
    if root is None:
        return None
    salvaged = etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)
    try:
        etree.fromstring(salvaged, PARSER)
    except etree.XMLSyntaxError:
        return None
    return salvaged


def _repair(
    archive: zipfile.ZipFile, damaged: set[str], dropped: AbstractSet[str] = frozenset(), strict: bool = False
) -> bytes:
    """The package again, each damaged part replaced by what can be read of it: its inflated
    bytes, and of XML the elements a recovering parser finds in them. An XML part with nothing
    left is left out, as are the ``dropped`` parts; the content types and relationships keep
    their whole entries only (none to a part left out). A ``strict`` package's XML parts say
    the Transitional names (``readers.intake.strict``)."""
    salvaged: dict[str, bytes | None] = {}
    for name in damaged:
        inflated = _inflated(archive.filename, archive.getinfo(name))
        salvaged[name] = _salvaged_xml(inflated) if _is_xml(name) and _structure(name) is None else inflated
    parts = set(archive.namelist()) - dropped - {name for name, data in salvaged.items() if data is None}
    output = io.BytesIO()
    with zipfile.ZipFile(output, "w") as repaired:
        for info in archive.infolist():
            if info.filename not in parts:
                continue
            kept = salvaged.get(info.filename)  # None for a part not damaged (the damaged lost are not in parts)
            data = kept if kept is not None else archive.read(info)
            if strict and _is_xml(info.filename):
                data = transitional(data)
            structure = _structure(info.filename)
            if structure is not None:
                data = _rebuilt(_recovered(data), structure, info.filename, parts)
            entry = zipfile.ZipInfo(info.filename)  # a fresh entry: the damage may have set flags or an impossible date
            entry.compress_type = (
                zipfile.ZIP_STORED if info.compress_type == zipfile.ZIP_STORED else zipfile.ZIP_DEFLATED
            )
            repaired.writestr(entry, data)
    return output.getvalue()


def readable_package(job, notices: list[Notice]):
    """The path to read the job's package from: the file itself, or a copy of it repaired (with a
    notice naming the damaged parts) or, for Strict OOXML, given Transitional names. Raises
    ``CORRUPT_FILE`` when it is no zip that can be opened, ``FILE_TOO_LARGE`` when it inflates past
    ``MAX_INFLATED_BYTES``."""
    store = job.services.store
    checked = store.get_json(job.sha256, PACKAGE)
    if checked is None:
        try:
            with zipfile.ZipFile(job.path) as archive:
                infos = archive.infolist()
                unpacked = sum(info.file_size for info in infos)
                if unpacked > MAX_INFLATED_BYTES:
                    raise ReaderError(
                        "FILE_TOO_LARGE",
                        f"{job.name} unpacks to {unpacked / MB:,.0f} MB "
                        f"(the limit is {MAX_INFLATED_BYTES // MB} MB); "
                        "it may be a zip bomb, or too large to read.",
                    )
                parts = {info.filename for info in infos}
                damaged = sorted({info.filename for info in infos if _damaged(archive, info, parts)})
                root = "_rels/.rels"
                strict = root in parts and root not in damaged and is_strict(archive.read(root))
                if damaged or strict:
                    store.put_bytes(job.sha256, REPAIRED, _repair(archive, set(damaged), strict=strict), job.kind)
        except DAMAGED_ZIP as error:
            raise ReaderError(
                "CORRUPT_FILE",
                f"{job.name} is damaged: its zip structure cannot be read ({error}). Save or export it again.",
            ) from None
        checked = {"damaged": damaged, "strict": strict}
        store.put_json(job.sha256, PACKAGE, checked)
    damaged = checked["damaged"]
    if not damaged:
        return store.path(job.sha256, REPAIRED, job.kind) if checked["strict"] else job.path
    shown = ", ".join(label(name) for name in damaged[:SHOWN_PARTS]) + (
        f" and {len(damaged) - SHOWN_PARTS} more" if len(damaged) > SHOWN_PARTS else ""
    )
    notices.append(
        Notice(
            Code.DAMAGED,
            f"{job.name} is damaged in {len(damaged)} {'part' if len(damaged) == 1 else 'parts'} "
            f"({shown}): what could still be "
            f"read of {'it' if len(damaged) == 1 else 'them'} is shown, and the rest of the file is read as usual.",
        )
    )
    return store.path(job.sha256, REPAIRED, job.kind)


def with_parts(archive: zipfile.ZipFile, parts: dict[str, bytes]) -> bytes:
    """A copy of the package ``archive`` with ``parts`` (name: bytes) in place of its own."""
    output = io.BytesIO()
    with zipfile.ZipFile(output, "w", zipfile.ZIP_DEFLATED) as copy:
        for info in archive.infolist():
            copy.writestr(info, parts.get(info.filename) or archive.read(info))
    return output.getvalue()


def without(job, folder: str) -> Path:
    """A copy of the job's package without the parts in ``folder`` (such as ``xl/drawings/``) and
    the relationships to them, made once per content hash: for a library that refuses the whole
    file for a damaged chart."""
    part = f"{folder.strip('/').replace('/', '-')}.{job.kind}"
    target = job.services.store.path(job.sha256, WITHOUT, part)
    if not target.is_file():
        with zipfile.ZipFile(job.path) as archive:
            job.services.store.put_bytes(
                job.sha256,
                WITHOUT,
                _repair(archive, set(), {name for name in archive.namelist() if name.startswith(folder)}),
                part,
            )
    return target


def shallow_package(job, notices: list[Notice]) -> Path | None:
    """A copy of the package the job reads whose XML parts are cut where they nest past what the
    libraries parse (``readers.intake.xml.shallow``: an equation or a table nested too deep costs
    only itself), made once per content hash, with a warning naming what was cut; None when no part
    nests that deep (the library refused the file for something else)."""
    store = job.services.store
    cut = store.get_json(job.sha256, SHALLOW)
    if cut is None:
        cut, parts = {}, {}
        with zipfile.ZipFile(job.path) as archive:
            for info in archive.infolist():
                if _is_xml(info.filename):
                    text, encoding = decoded(archive.read(info))
                    text, what = shallow(text)
                    if what:
                        parts[info.filename], cut[info.filename] = text.encode(encoding), what
            if parts:
                store.put_bytes(job.sha256, SHALLOW_COPY, with_parts(archive, parts), job.kind)
        store.put_json(job.sha256, SHALLOW, cut)
    if not cut:
        return None
    for part, what in cut.items():
        counted = {kind: what.count(kind) for kind in dict.fromkeys(what)}
        named = ", ".join(f"{count} {kind.split()[-1]}{'s' if count > 1 else ''}" for kind, count in counted.items())
        notices.append(
            Notice(
                Code.SIMPLIFIED,
                f"{job.name} nests content deeper than can be read ({MAX_DEPTH} levels) in {label(part)}; left "
                f"out there, each with all it holds: {named}. The rest of the file is read as usual.",
            )
        )
    return store.path(job.sha256, SHALLOW_COPY, job.kind)


def open_cut_if_deep(job, open_package, notices: list[Notice]):
    """``open_package(path)`` of the job's package, and the job to read from then on: the job itself,
    or, when a part nests past what the library's parser takes (it raises an XML syntax error), one
    reading the copy ``shallow_package`` cuts."""
    try:
        return open_package(job.path), job
    except SyntaxError:  # lxml's XMLSyntaxError is one
        shallow = shallow_package(job, notices)
        if shallow is None:
            raise
        return open_package(shallow), replace(job, path=shallow)
