"""Hostile input read within bounds of time and memory, measured in a process of its own: what
would be cut or refused says so, and the rest of the file is still read."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import zipfile

import pytest

from readers import ReaderError, read_file
from testkit import ROOT, fixtures
from tests.conftest import BOUNDED_SECONDS

# Peak memory a reading may add to its process, well above what the bounded readers need (tens of
# MB) and far below what the faults took (gigabytes).
MEMORY_MB = 400
# The child is held to this much address space, so that a fault fails the test and spares the
# machine; its math libraries run one thread, so that what it reserves is the same on any machine.
ADDRESS_SPACE = 4 << 30
ONE_THREAD = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}

READ = """
import json, resource, sys
resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))
from readers import ReaderError, Services, read_file
from testkit import make_settings
from pathlib import Path
services = Services(make_settings(Path(sys.argv[2])))
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
try:
    reading = read_file(sys.argv[1], services=services)
    result = {{"pages": [page.text for page in reading.pages], "warnings": reading.warnings}}
except ReaderError as error:
    result = {{"code": error.code, "message": error.message}}
result["grew_mb"] = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) // 1024
print(json.dumps(result))
"""


def read_measured(path, tmp_path) -> dict:
    """``path`` read in a process of its own: its pages' text and warnings (or its error's code and
    message) and how many MB its peak memory grew while reading."""
    done = subprocess.run(
        [sys.executable, "-c", READ.format(limit=ADDRESS_SPACE), str(path), str(tmp_path / "cache")],
        cwd=ROOT,
        env={**os.environ, **ONE_THREAD},
        capture_output=True,
        text=True,
        timeout=BOUNDED_SECONDS,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.splitlines()[-1])


def test_email_headers_are_cut_before_they_are_parsed(tmp_path):
    """A Subject of 50,000 encoded words (700 KB) once passed 8 GB; a To line of 200,000 addresses
    (4.8 MB) did not finish in 300 s."""
    result = read_measured(fixtures.header_bomb_mail(tmp_path / "bomb.eml"), tmp_path)
    assert result["grew_mb"] < MEMORY_MB, result["grew_mb"]
    text = result["pages"][0]
    to, subject = text.split("\n")[1], text.split("\n")[3]
    assert to.startswith("To: user0@example.org, user1@example.org, user2@example.org") and to.endswith("@example.org")
    assert subject.startswith("Subject: cafécafé") and len(subject) < 16_384
    assert text.endswith("The body is still read.")
    assert result["warnings"] == [
        "bomb.eml: its To header has 4,688,888 characters; only its first 16,384 characters were read "
        "(the rest of the e-mail is read as usual).",
        "bomb.eml: its Subject header has 1,099,999 characters; only its first 16,384 characters were read "
        "(the rest of the e-mail is read as usual).",
    ]


def test_an_email_header_nested_past_the_parser_shows_as_written(tmp_path, services):
    """Comments in 5,000 parentheses made the whole e-mail refused; only that header is lost."""
    path = tmp_path / "parens.eml"
    path.write_text(f"From: a@example.org\nTo: {'(' * 5000}b@example.org\nSubject: Parens\n\nStill read.\n")
    text = read_file(path, services=services).pages[0].text
    assert text.startswith("From: a@example.org\nTo: ((((") and text.endswith("Subject: Parens\n\nStill read.")


def test_a_zip_member_past_the_file_limit_is_refused_before_it_is_inflated(tmp_path, services, monkeypatch):
    """A 100 MB member of a 100 KB archive was inflated to disk, and only then refused by its size."""
    path = fixtures.zip_bomb(tmp_path / "bomb.zip", unpacked_mb=100)
    with zipfile.ZipFile(path, "a") as bundle:
        bundle.writestr("notes.txt", "The small member is read.")
    real_open, inflated = zipfile.ZipFile.open, []

    def recording(self, name, *args, **kwargs):
        inflated.append(getattr(name, "filename", name))
        return real_open(self, name, *args, **kwargs)

    monkeypatch.setattr(zipfile.ZipFile, "open", recording)
    pages = read_file(path, services=services).pages
    assert [page.section for page in pages] == ["zeros.txt", "notes.txt"] and "zeros.txt" not in inflated
    assert pages[0].error == "zeros.txt inflates to 100.0 MB inside bomb.zip; the limit is 25 MB (MAX_FILE_MB)."
    assert pages[1].text == "The small member is read."


def test_a_large_image_is_scaled_down_with_one_decoded_copy(tmp_path):
    """A 99-megapixel PNG of 385 KB took 1.28 GB: copied whole to be turned upright, and again to
    be scaled. Now its decoded pixels (4 bytes each) and little beside them."""
    result = read_measured(fixtures.pixel_bomb_png(tmp_path / "poster.png"), tmp_path)
    decoded_mb = 9950 * 9950 * 4 >> 20
    assert result["pages"] == ["ImageSize: 9950x9950\nFormat: PNG"] and result["warnings"] == []
    assert result["grew_mb"] < decoded_mb + 100, (result["grew_mb"], decoded_mb)


SUBSET = """<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE html [
  <!ENTITY pond "the village pond">
  <!ELEMENT note ANY>
]>
<html xmlns="http://www.w3.org/1999/xhtml"><head><title>Spring</title></head>
<body><h1>Spring</h1><p>Ducklings hatch in April on &pond;.</p></body></html>"""


def test_a_doctypes_internal_subset_is_no_text(tmp_path, services):
    """lxml's HTML parser ended the DOCTYPE at its first ">": "]>" and the title became text."""
    page = tmp_path / "spring.xhtml"
    page.write_text(SUBSET, encoding="utf-8")
    assert read_file(page, services=services).pages[0].text == "# Spring\n\nDucklings hatch in April on &pond;."
    source = fixtures.catalogued_ebook(tmp_path / "pond.epub")
    book = fixtures.damaged_part(source, tmp_path / "subset.epub", "OEBPS/spring.xhtml", SUBSET.encode())
    text = read_file(book, services=services).as_text()
    assert "# Spring\n\nDucklings hatch in April on &pond;." in text and "]>" not in text


def test_a_multipart_nested_in_another_is_opened_not_read_as_an_empty_file(tmp_path, services):
    """A multipart inside a multipart was taken for an attachment: an empty "attachment-1" page."""
    deep = read_file(fixtures.nested_mail(tmp_path / "deep.eml", 200), services=services)
    assert [page.text for page in deep.pages] == ["From: a@example.org\nTo: b@example.org\nSubject: Deep\n\nHello."]
    assert deep.warnings == []
    path = tmp_path / "nested.eml"
    path.write_text(
        "From: a@example.org\nTo: b@example.org\nSubject: Figures\nMIME-Version: 1.0\n"
        'Content-Type: multipart/mixed; boundary="outer"\n\n--outer\n'
        'Content-Type: multipart/mixed; boundary="inner"\n\n--inner\n'
        "Content-Type: text/plain\n\nThe figures are attached.\n--inner\n"
        "Content-Type: text/plain\n\nA second note, not the body.\n--inner\n"
        'Content-Type: text/csv\nContent-Disposition: attachment; filename="figures.csv"\n\nyear,count\n2024,7\n'
        "--inner--\n--outer--\n"
    )
    pages = read_file(path, services=services).pages
    assert pages[0].text.endswith("Attachments: attachment-1.txt, figures.csv\n\nThe figures are attached.")
    assert [(page.section, page.text or page.tables[0]) for page in pages[1:]] == [
        ("attachment-1.txt", "A second note, not the body."),
        ("figures.csv", "| year | count |\n|---|---|\n| 2024 | 7 |"),
    ]


def test_an_emails_parts_are_bounded_before_it_is_parsed(tmp_path, services):
    """Parts whose Content-Type holds 180 parameters took 0.13 s each (200 parts: 27 s) before the
    e-mail was refused for its number of attachments: the parser's time grows with the square of
    the parameters, and it asks for each part's Content-Type some ten times."""
    parameters = "; ".join(f"p{n}=v{n}" for n in range(180))
    parts = "".join(f"--b\nContent-Type: text/plain; {parameters}\n\nPart {n}.\n" for n in range(40))
    path = tmp_path / "parts.eml"
    path.write_text(
        "From: a@example.org\nTo: b@example.org\nSubject: Parts\nMIME-Version: 1.0\n"
        f'Content-Type: multipart/mixed; boundary="b"\n\n{parts}--b--\n'
    )
    started = time.monotonic()
    reading = read_file(path, services=services)
    assert reading.pages[0].text.endswith("Part 0.") and reading.pages[-1].text == "Part 39."
    assert reading.warnings == [
        "parts.eml: 40 of its Content-Type headers were cut, to their first 2,048 characters and 40 parameters "
        "(the rest of the e-mail is read as usual)."
    ]
    many = tmp_path / "many.eml"
    many.write_text(path.read_text().replace("--b--\n", parts * 12 + "--b--\n"))
    error = pytest.raises(ReaderError, read_file, many, services=services).value
    assert (error.code, error.message) == (
        "FILE_TOO_LARGE",
        "many.eml has 521 parts; at most 500 are read from one e-mail. It may have been built to stall mail readers.",
    )
    assert time.monotonic() - started < BOUNDED_SECONDS
