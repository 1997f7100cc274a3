"""Strict OOXML read as Transitional: the same parts under other names.

A Word, PowerPoint or Excel file saved as "Strict Open XML" names its XML namespaces and
relationship types ``http://purl.oclc.org/ooxml/<area>/<name>`` where the Transitional files
every library reads say ``http://schemas.openxmlformats.org/<area>/2006/<name>`` (ISO/IEC 29500-1
and -4, annex on namespaces); python-docx, python-pptx and openpyxl know only the latter and refuse
a Strict file as having no main part. ``readers.intake.package`` reads such a package from a copy
whose XML parts say the Transitional names (``transitional``), which the libraries read as usual.
"""

from __future__ import annotations

import re

STRICT = b"http://purl.oclc.org/ooxml/"
_NAME = re.compile(rb"http://purl\.oclc\.org/ooxml/(\w+)/(\w+)")
# the names that differ by more than the year: document properties are hyphenated in Transitional
_TRANSITIONAL = b"http://schemas.openxmlformats.org/officeDocument/2006/"
_RENAMED = {
    STRICT + b"officeDocument/relationships/extendedProperties": _TRANSITIONAL + b"relationships/extended-properties",
    STRICT + b"officeDocument/relationships/customProperties": _TRANSITIONAL + b"relationships/custom-properties",
    STRICT + b"officeDocument/extendedProperties": _TRANSITIONAL + b"extended-properties",
    STRICT + b"officeDocument/customProperties": _TRANSITIONAL + b"custom-properties",
}


def is_strict(root_relationships: bytes) -> bool:
    """Whether a package whose ``_rels/.rels`` holds these bytes is Strict OOXML."""
    return STRICT in root_relationships


def transitional(xml: bytes) -> bytes:
    """An XML part with its Strict namespaces and relationship types given their Transitional names."""
    if STRICT not in xml:
        return xml
    for strict, renamed in _RENAMED.items():
        xml = xml.replace(strict, renamed)
    return _NAME.sub(lambda match: b"http://schemas.openxmlformats.org/%s/2006/%s" % match.groups(), xml)
