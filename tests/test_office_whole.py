"""Word, PowerPoint and Excel files read whole (issue 31), each defect on docling's real test file
(``tests/corpus/docling/formats``; docling's ground truth says what the file holds)."""

from __future__ import annotations

import zipfile

from readers import read_file
from readers.intake.strict import transitional
from tests.conftest import CORPUS

FORMATS = CORPUS / "docling/formats"


def test_strict_ooxml_reads_like_transitional(shared_services):
    reading = read_file(FORMATS / "Strict.docx", services=shared_services)
    assert reading.kind == "docx"
    assert [page.text for page in reading.pages] == ["Some text"]
    assert not reading.warnings  # renamed, not repaired: nothing is damaged


def test_strict_document_properties_get_their_hyphenated_transitional_names():
    with zipfile.ZipFile(FORMATS / "Strict.docx") as package:
        relationships = transitional(package.read("_rels/.rels"))
    assert b"purl.oclc.org" not in relationships
    assert b"/officeDocument/2006/relationships/extended-properties" in relationships
    assert b"/officeDocument/2006/relationships/officeDocument" in relationships
