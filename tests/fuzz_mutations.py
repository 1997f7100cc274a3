"""The fuzzer's mutations (tests/fuzz.py): each takes the bytes and a Random, and returns the damaged
bytes and what was done."""

from __future__ import annotations

import io
import random
import zipfile

from lxml import etree

XML_MEMBER = (".xml", ".rels", ".xhtml", ".html", ".opf", ".ncx")
HOSTILE_VALUES = (
    "",
    "-1",
    "0",
    "1",
    "2147483648",
    "99999999999999999999",
    "1e400",
    "NaN",
    "x",
    "rId999",
    "#",
    "../../../etc/passwd",
    "\u202e\u0000",
    "%1%2%3%9",
)


def _span(data: bytes, rng: random.Random) -> tuple[int, int]:
    """A range of ``data``: short ranges often, long ones now and then."""
    length = min(len(data), rng.choice((1, 2, 4, 16, 64, 512, 4096)))
    start = rng.randrange(len(data) - length + 1)
    return start, start + length


def truncate(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    end = rng.randrange(1, len(data))
    return data[:end], f"truncated to {end:,} of {len(data):,} bytes"


def flip(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    damaged = bytearray(data)
    count = rng.choice((1, 2, 4, 8, 32))
    for _ in range(count):
        position = rng.randrange(len(damaged))
        damaged[position] = rng.randrange(256) if rng.random() < 0.5 else damaged[position] ^ (1 << rng.randrange(8))
    return bytes(damaged), f"{count} bytes flipped"


def zero(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    start, end = _span(data, rng)
    return data[:start] + bytes(end - start) + data[end:], f"bytes {start:,}-{end:,} zeroed"


def splice(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    start, end = _span(data, rng)
    at = rng.randrange(len(data) - (end - start) + 1)
    return data[:at] + data[start:end] + data[at + end - start :], f"bytes {start:,}-{end:,} copied over {at:,}"


def duplicate(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    start, end = _span(data, rng)
    at = rng.randrange(len(data) + 1)
    return data[:at] + data[start:end] + data[at:], f"bytes {start:,}-{end:,} inserted again at {at:,}"


BYTE_MUTATIONS = (truncate, flip, zero, splice, duplicate)


def _xml(data: bytes):
    return etree.fromstring(data, etree.XMLParser(resolve_entities=False, no_network=True))


def _xml_bytes(root) -> bytes:
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)


def xml_attribute(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    """An attribute of an element given a hostile value, or removed."""
    root = _xml(data)
    elements = [element for element in root.iter() if isinstance(element.tag, str) and element.attrib]
    if not elements:
        return flip(data, rng)
    element = rng.choice(elements)
    key = rng.choice(sorted(element.attrib))
    name = f"{etree.QName(element).localname}@{etree.QName(key).localname}"
    if rng.random() < 0.25:
        del element.attrib[key]
        return _xml_bytes(root), f"{name} removed"
    value = rng.choice(HOSTILE_VALUES)
    element.set(key, value)
    return _xml_bytes(root), f"{name} set to {value!r}"


def xml_element(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    """An element removed, emptied or repeated."""
    root = _xml(data)
    elements = [element for element in root.iter() if isinstance(element.tag, str) and element.getparent() is not None]
    if not elements:
        return flip(data, rng)
    element = rng.choice(elements)
    name = etree.QName(element).localname
    action = rng.choice(("removed", "emptied", "repeated"))
    if action == "removed":
        element.getparent().remove(element)
    elif action == "emptied":
        element.clear()
    else:
        element.addnext(etree.fromstring(etree.tostring(element)))
    return _xml_bytes(root), f"<{name}> {action}"


def member(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    """One member of a zip damaged (an XML one in most cases), the zip written again around it."""
    with zipfile.ZipFile(io.BytesIO(data)) as source:
        infos = [info for info in source.infolist() if not info.is_dir() and info.file_size]
        xml = [info for info in infos if info.filename.lower().endswith(XML_MEMBER)]
        chosen = rng.choice(xml if xml and rng.random() < 0.8 else infos)
        content = source.read(chosen)
        mutations = BYTE_MUTATIONS + ((xml_attribute, xml_element) * 2 if chosen in xml else ())
        try:
            damaged, what = rng.choice(mutations)(content, rng)
        except etree.XMLSyntaxError:  # the member is not well-formed XML to begin with
            damaged, what = flip(content, rng)
        output = io.BytesIO()
        with zipfile.ZipFile(output, "w") as target:
            for info in source.infolist():
                target.writestr(info, damaged if info is chosen else source.read(info))
    return output.getvalue(), f"member {chosen.filename}: {what}"


def mutate(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    if data.startswith(b"PK\x03\x04") and rng.random() < 0.6:
        try:
            return member(data, rng)
        except (zipfile.BadZipFile, ValueError, IndexError):  # a zip with no member to damage
            pass
    return rng.choice(BYTE_MUTATIONS)(data, rng)
