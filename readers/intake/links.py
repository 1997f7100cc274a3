"""What a document links outside itself — pictures, texts, templates, objects at a file path or an
address — which nothing loads: an engine that did would hand the server's own files, or an internal
service's answer, to whoever uploaded the document (``readers.render.sandbox`` holds the engines).

``outside_links(job)`` lists them, each as what it is and where it points (``where``: its scheme
and host, never a local path), once per content hash; the reading's warning counts them.
``unlinked(job)`` is the copy of the job's file LibreOffice converts, without them:

- an Office Open XML package (DOCX, PPTX, XLSX) loses every relationship that points outside it
  but a hyperlink's, every picture's ``r:link`` (a picture stored in the file as well is shown from
  the file), every address a VML shape names, and the instructions of the fields that include
  or link a file (``INCLUDEPICTURE``, ``INCLUDETEXT``, ``LINK``, ``DDE``, ...), whose results as
  last saved stay;
- an OpenDocument file (ODT, ODS, ODP) loses every ``xlink:href`` that names something outside its
  package (a picture, a linked section or sheet, an object, a background) but a hyperlink's;
- an RTF file loses the same fields' instructions and its attached template.

Legacy binary files (DOC, XLS, PPT) are not rewritten: LibreOffice's own settings and its walls
keep their links unloaded.
"""

from __future__ import annotations

import re
import zipfile
from dataclasses import asdict, dataclass
from pathlib import Path
from urllib.parse import urlsplit

from lxml import etree

from ..kinds import SOURCE_EXTENSION, kind_of
from ..storage.files import LINKS, UNLINKED
from .package import DAMAGED_ZIP, MAX_INFLATED_BYTES, PARSER, with_parts

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
OFFICE = "{urn:schemas-microsoft-com:office:office}"
VML = "urn:schemas-microsoft-com:vml"
XLINK = "{http://www.w3.org/1999/xlink}href"
HYPERLINKS = {
    "{urn:oasis:names:tc:opendocument:xmlns:text:1.0}a",
    "{urn:oasis:names:tc:opendocument:xmlns:drawing:1.0}a",
}
# Fields that bring in a file or another program's data (ECMA-376 part 1, 17.16.5).
INCLUDING = {"INCLUDEPICTURE", "INCLUDETEXT", "INCLUDE", "LINK", "DDE", "DDEAUTO", "IMPORT", "DATABASE", "RD"}
VML_ADDRESSES = ("src", f"{OFFICE}href", f"{OFFICE}althref")
# What each kind of external relationship links, as the warning says it; a template (styles, which
# a reading never shows) is taken out without a word: most Word files name their author's own.
WHAT = {
    "image": "picture",
    "oleObject": "object",
    "package": "object",
    "subDocument": "document",
    "attachedTemplate": None,
}
SHOWN = 5  # kinds of link a warning names
PLURALS = {"chart's data": "charts' data"}
LINKED = "linked to {where}, not loaded"  # a linked picture, where it stands
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")
DRIVE = re.compile(r"^[A-Za-z]:[\\/]")  # a Windows path, C:\ or C:/, which is no scheme
RTF_FIELD = re.compile(rb"\\\*\s*\\fldinst\b")
RTF_TEMPLATE = re.compile(rb"\{\\\*\s*\\template\b")
RTF_HEX = re.compile(rb"\\'([0-9a-fA-F]{2})")
RTF_CONTROL = re.compile(rb"\\[a-zA-Z]+-?\d* ?|[{}\\]")


@dataclass(frozen=True)
class Link:
    """One thing a document links outside itself: ``what`` it is (picture, field, template,
    object, section ...) and ``where`` it points, as its scheme and host."""

    what: str
    where: str


def where(target: str) -> str:
    """Where a link points, said without its path: ``http://example.com``, ``file://server`` for a
    shared folder, ``file:`` for a file on this computer, and for a relative path "a file beside it"."""
    target = target.strip()
    if target.startswith("\\\\"):  # a Windows share: \\server\folder\file
        return f"file://{target[2:].split(chr(92), 1)[0]}"
    if target.startswith("/") or DRIVE.match(target):
        return "file:"
    if not SCHEME.match(target):
        return "a file beside it"
    parts = urlsplit(target)
    host = parts.hostname or ""
    port = f":{parts.port}" if _port(parts) else ""
    return f"{parts.scheme.lower()}://{host}{port}" if host else f"{parts.scheme.lower()}:"


def _port(parts) -> int | None:
    try:
        return parts.port
    except ValueError:  # a port that is no number
        return None


def _outside(href: str) -> bool:
    """Whether an OpenDocument ``xlink:href`` names something outside the package: a scheme, an
    absolute path, or a way up out of it."""
    href = href.strip()
    return bool(SCHEME.match(href)) or href.startswith(("/", "\\")) or ".." in re.split(r"[\\/]", href)


def _instruction_fields(root, links: list[Link]) -> bool:
    """Blank the instructions of the fields that include or link a file (see ``INCLUDING``);
    whether any was. A field's instruction may run over several runs, and fields nest."""
    changed, open_fields = False, list[list | None]()
    for element in root.iter(f"{W}fldChar", f"{W}instrText", f"{W}fldSimple"):
        if element.tag == f"{W}fldSimple":
            if _including(element.get(f"{W}instr", ""), links):
                element.set(f"{W}instr", "")
                changed = True
            continue
        if element.tag == f"{W}instrText":
            if open_fields and open_fields[-1] is not None:
                open_fields[-1].append(element)
            continue
        kind = element.get(f"{W}fldCharType")
        if kind == "begin":
            open_fields.append([])
        elif kind in ("separate", "end") and open_fields:
            parts = open_fields[-1]
            if parts is not None and _including("".join(part.text or "" for part in parts), links):
                for part in parts:
                    part.text = ""
                changed = True
            if kind == "end":
                open_fields.pop()
            else:
                open_fields[-1] = None  # its result: instruction text no more
    return changed


def _including(instruction: str, links: list[Link]) -> bool:
    words = instruction.split(None, 1)
    if not words or words[0].upper() not in INCLUDING:
        return False
    target = re.match(r'\s*"([^"]*)"|\s*(\S+)', words[1] if len(words) > 1 else "")
    links.append(Link("field", where(next(filter(None, target.groups()), "")) if target else "a file beside it"))
    return True


def _ooxml_part(name: str, data: bytes, links: list[Link]) -> bytes | None:
    """The part without what it links outside the package (see the module's docstring); None if unchanged."""
    if name.endswith(".rels"):
        if b"External" not in data:
            return None
        root = etree.fromstring(data, PARSER)
        outside = [
            entry
            for entry in root
            if entry.get("TargetMode") == "External" and not entry.get("Type", "").endswith("/hyperlink")
        ]
        for entry in outside:
            kind = entry.get("Type", "").rsplit("/", 1)[-1]
            what = "chart's data" if "/charts/" in name else WHAT.get(kind, kind or "part")
            if what:
                links.append(Link(what, where(entry.get("Target", ""))))
            root.remove(entry)
    elif name.endswith(".xml") and (b':link="' in data or b"instr" in data or VML.encode() in data):
        root = etree.fromstring(data, PARSER)
        linked = [element for element in root.iter() if f"{R}link" in element.attrib]
        for element in linked:
            del element.attrib[f"{R}link"]
        shapes = [
            (element, attribute)
            for element in root.iter(f"{{{VML}}}imagedata", f"{{{VML}}}fill", f"{{{VML}}}image")
            for attribute in VML_ADDRESSES
            if element.get(attribute)
        ]
        for element, attribute in shapes:
            links.append(Link("picture", where(element.attrib.pop(attribute))))
        if not (_instruction_fields(root, links) or linked or shapes):
            return None
    else:
        return None
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)


def _odf_part(name: str, data: bytes, links: list[Link]) -> bytes | None:
    if not name.endswith(".xml") or b"href" not in data:
        return None
    root = etree.fromstring(data, PARSER)
    outside = [
        element
        for element in root.iter()
        if element.tag not in HYPERLINKS and _outside(element.get(XLINK) or "") and isinstance(element.tag, str)
    ]
    for element in outside:
        what = etree.QName(element).localname.removesuffix("-source")
        links.append(Link({"image": "picture", "fill-image": "picture"}.get(what, what), where(element.get(XLINK))))
        del element.attrib[XLINK]
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8") if outside else None


def _group_end(data: bytes, start: int) -> int:
    """Where the RTF group that opens at ``start`` (a ``{``) closes, just past its ``}``."""
    depth, index = 0, start
    while index < len(data):
        char = data[index]
        if char == 0x5C:  # a backslash escapes the next character
            index += 2
            continue
        depth += {0x7B: 1, 0x7D: -1}.get(char, 0)
        index += 1
        if depth == 0:
            return index
    return len(data)


def _rtf(data: bytes, links: list[Link]) -> bytes | None:
    """The RTF without the instructions of its including fields and its attached template; the
    fields are counted in ``links``."""
    cuts: list[tuple[int, int, bytes]] = []
    for found in RTF_FIELD.finditer(data):
        start = data.rfind(b"{", 0, found.start())
        if start < 0 or (cuts and start < cuts[-1][1]):
            continue
        end = _group_end(data, start)
        text = RTF_CONTROL.sub(b" ", RTF_HEX.sub(lambda hex_: bytes([int(hex_[1], 16)]), data[found.end() : end]))
        if _including(text.decode("latin-1"), links):
            cuts.append((start, end, b"{\\*\\fldinst }"))
    for found in RTF_TEMPLATE.finditer(data):  # taken out without a word, as an OOXML template (see WHAT)
        cuts.append((found.start(), _group_end(data, found.start()), b""))
    if not cuts:
        return None
    out, at = [], 0
    for start, end, replacement in sorted(cuts):
        out += [data[at:start], replacement]
        at = max(at, end)
    return b"".join(out) + data[at:]


def _stripped(path: Path, kind: str | None) -> tuple[bytes | None, list[Link]]:
    """``path`` without what it links outside itself (None when it links nothing), and the links;
    ``kind`` as ``_source_kind`` gives it (an OOXML package's when None)."""
    links: list[Link] = []
    if kind == "rtf":
        return _rtf(path.read_bytes(), links), links
    part = _odf_part if kind in ("odt", "ods", "odp") else _ooxml_part
    try:
        with zipfile.ZipFile(path) as archive:
            if sum(info.file_size for info in archive.infolist()) > MAX_INFLATED_BYTES:
                return None, links  # a zip bomb: refused by the package's check, or stopped in LibreOffice's walls
            changed = {}
            for info in archive.infolist():
                try:
                    if (data := part(info.filename, archive.read(info), links)) is not None:
                        changed[info.filename] = data
                except (etree.XMLSyntaxError, *DAMAGED_ZIP):  # a damaged part: LibreOffice and its walls decide
                    continue
            if not changed:
                return None, links
            return with_parts(archive, changed), links
    except DAMAGED_ZIP:  # the package's own check says so in its words
        return None, links


def _source_kind(job) -> str | None:
    """What the job's own file is to this module: ``rtf``, an ODF extension, an OOXML kind, or None."""
    extension = SOURCE_EXTENSION.get(job.mime)
    if extension in ("rtf", "odt", "ods", "odp"):
        return extension
    return job.kind if extension is None and kind_of(job.kind).zip_parts else None  # an OOXML package


def _made(job) -> bool:
    """Whether ``job.path`` is a copy made of the file in the store (repaired, converted by
    LibreOffice), rather than the file as it came."""
    return job.services.store.holds(job.sha256, job.path)


def _copy_part(job) -> str:
    """The part naming the copy of ``job.path`` without its links: a made copy's is its name."""
    return job.path.name if _made(job) else "original"


def outside_links(job) -> list[Link]:
    """What the job's file as it came links outside itself (see the module's docstring), found once per content hash."""
    store = job.services.store
    found = store.get_json(job.sha256, LINKS)
    if found is None:
        kind = _source_kind(job)
        stripped, links = _stripped(job.path, kind) if kind else (None, [])
        if stripped is not None:
            store.put_bytes(job.sha256, UNLINKED, stripped, _copy_part(job))
        found = [asdict(link) for link in links]
        store.put_json(job.sha256, LINKS, found)
    return [Link(**link) for link in found]


def unlinked(job) -> Path:
    """The copy of ``job.path`` LibreOffice converts: without what it links outside itself, or the
    file itself when it links nothing (a copy LibreOffice made of a file without its links, too)."""
    if not outside_links(job):
        return job.path
    copy = job.services.store.path(job.sha256, UNLINKED, _copy_part(job))
    if not copy.is_file():
        stripped, _ = _stripped(job.path, job.kind if _made(job) else _source_kind(job))
        if stripped is None:
            return job.path
        job.services.store.put_bytes(job.sha256, UNLINKED, stripped, _copy_part(job))
    return copy


def links_warning(job) -> str | None:
    """The reading's warning when the job's file links anything outside itself, counted by what
    and where (``SHOWN`` kinds at most); None when it links nothing."""
    counts: dict[tuple[str, str], int] = {}
    for link in outside_links(job):
        counts[(link.what, link.where)] = counts.get((link.what, link.where), 0) + 1
    if not counts:
        return None
    said = [
        f"{count} {what if count == 1 else PLURALS.get(what, what + 's')} linked to {place}"
        for (what, place), count in list(counts.items())[:SHOWN]
    ]
    more = f" and {len(counts) - SHOWN} more kinds" if len(counts) > SHOWN else ""
    return (
        f"{job.name} links content outside itself ({', '.join(said)}{more}): ReadLens never loads a linked "
        "file or address, so of that content only what the file itself holds is shown (a field's or a "
        "chart's values as last saved)."
    )
