"""The copied corpus is complete and unchanged: every file expected.json and page-checks.json list is
here with its hash, and named in SOURCES.md."""

import hashlib
import json

import pytest

from testkit import CORPUS

ENTRIES = json.loads((CORPUS / "expected.json").read_text())


@pytest.mark.parametrize("entry", ENTRIES, ids=[entry["file"] for entry in ENTRIES])
def test_corpus_file_is_the_original(entry):
    assert hashlib.sha256((CORPUS / entry["file"]).read_bytes()).hexdigest() == entry["sha256"]
    assert entry["file"] in (CORPUS / "SOURCES.md").read_text()


PAGE_SOURCES = json.loads((CORPUS / "page-checks.json").read_text())["sources"]


@pytest.mark.parametrize("file", sorted(PAGE_SOURCES))
def test_a_page_checks_file_is_the_original(file):
    assert hashlib.sha256((CORPUS / file).read_bytes()).hexdigest() == PAGE_SOURCES[file]["sha256"]
    assert f"`{file}`" in (CORPUS / "SOURCES.md").read_text()


ICDAR = CORPUS / "icdar2013-eu"


def test_the_icdar_files_are_the_originals():
    sums = dict(reversed(line.split("  ")) for line in (ICDAR / "SHA256SUMS").read_text().splitlines())
    assert sorted(sums) == sorted(path.name for path in ICDAR.iterdir() if path.name != "SHA256SUMS")
    for name, digest in sums.items():
        assert hashlib.sha256((ICDAR / name).read_bytes()).hexdigest() == digest, name
    assert "`icdar2013-eu/`" in (CORPUS / "SOURCES.md").read_text()
