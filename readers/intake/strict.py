"""Strict OOXML read as Transitional: the same parts under other names.

A Word, PowerPoint or Excel file saved as "Strict Open XML" names its XML namespaces and
relationship types ``http://purl.oclc.org/ooxml/<area>/<name>`` where the Transitional files
every library reads say ``http://schemas.openxmlformats.org/<area>/2006/<name>`` (ISO/IEC 29500-1
and -4, annex on namespaces); python-docx, python-pptx and openpyxl know only the latter and refuse
a Strict file as having no main part. ``readers.intake.package`` reads such a package from a copy
whose XML parts say the Transitional names (``transitional``), which the libraries read as usual.

Only names are renamed, in the markup (``readers.intake.xml``): a namespace declaration, a
relationship's type, and the kind of graphic a drawing holds (``graphicData``'s ``uri``). The
document's text and every other attribute (a link's target) stay as written, a Strict name quoted
in them too; a part in UTF-16 stays in UTF-16.
"""

from __future__ import annotations

import re

from .xml import TAG, decoded, local

STRICT = "http://purl.oclc.org/ooxml/"
_NAME = re.compile(r"http://purl\.oclc\.org/ooxml/(\w+)/(\w+)")
# the names that differ by more than the year: document properties are hyphenated in Transitional
_TRANSITIONAL = "http://schemas.openxmlformats.org/officeDocument/2006/"
_RENAMED = {
    STRICT + "officeDocument/relationships/extendedProperties": _TRANSITIONAL + "relationships/extended-properties",
    STRICT + "officeDocument/relationships/customProperties": _TRANSITIONAL + "relationships/custom-properties",
    STRICT + "officeDocument/extendedProperties": _TRANSITIONAL + "extended-properties",
    STRICT + "officeDocument/customProperties": _TRANSITIONAL + "custom-properties",
}
ATTRIBUTE = re.compile(r"""([^\s=<]+)(\s*=\s*)(["'])(.*?)\3""", re.S)
NAMES = {"Relationship": "Type", "graphicData": "uri"}  # the attributes, of these elements, that hold a name


def is_strict(root_relationships: bytes) -> bool:
    """Whether a package whose ``_rels/.rels`` holds these bytes is Strict OOXML."""
    return STRICT in decoded(root_relationships)[0]


def _renamed(value: str) -> str:
    if value in _RENAMED:
        return _RENAMED[value]
    return _NAME.sub(r"http://schemas.openxmlformats.org/\1/2006/\2", value)


def _tag(match: re.Match) -> str:
    """A start tag with the Strict names in it renamed; any other markup as it is."""
    if match.group(2) is None:
        return match.group()
    named = NAMES.get(local(match.group(2)))

    def attribute(found: re.Match) -> str:
        name, equals, quote, value = found.groups()
        if name == "xmlns" or name.startswith("xmlns:") or name == named:
            value = _renamed(value)
        return f"{name}{equals}{quote}{value}{quote}"

    return ATTRIBUTE.sub(attribute, match.group())


def transitional(xml: bytes) -> bytes:
    """An XML part with its Strict names given their Transitional ones, in its own encoding."""
    text, encoding = decoded(xml)
    if STRICT not in text:
        return xml
    return TAG.sub(_tag, text).encode(encoding)
