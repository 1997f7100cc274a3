"""The copied corpus is complete and unchanged: every file expected.json lists is here with its hash."""

import hashlib
import json

import pytest

from tests.conftest import CORPUS

ENTRIES = json.loads((CORPUS / "expected.json").read_text())


@pytest.mark.parametrize("entry", ENTRIES, ids=[entry["file"] for entry in ENTRIES])
def test_corpus_file_is_the_original(entry):
    assert hashlib.sha256((CORPUS / entry["file"]).read_bytes()).hexdigest() == entry["sha256"]
    assert entry["file"] in (CORPUS / "SOURCES.md").read_text()
