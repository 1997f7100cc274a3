"""The reading's export forms (issue 52): the payload as plain text and with citations, on real files, from Python
and the command line (``readers.payload.plain``, ``Reading.as_text(plain=, citations=)``, ``--format plain``)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections import Counter

import pytest

from readers import ReadOptions, Services, read_file
from readers.payload.plain import unmarked
from testkit import CORPUS, ROOT, make_settings

ASSETS = ROOT / "assets"
WORD = re.compile(r"[^\W_]+")  # letters and digits: "top\_p" and "top_p" are the same two words
IMAGE = re.compile(r"!\[[^\]\n]*\]\(([^)\s]*)\)")
MARKS = re.compile(r"^(#{1,6} |\|)|\*\*\w|\]\(")  # a heading's marks, a table's pipe, strong text, a link's
REAL = [
    CORPUS / "markitdown/test.docx",
    CORPUS / "markitdown/test.pptx",
    CORPUS / "markitdown/test_blog.html",
    CORPUS / "markitdown/test_outlook_msg.msg",
    CORPUS / "pdfplumber/ca-warn-report.pdf",
    ASSETS / "sales.xlsx",
    ASSETS / "chart-report.pdf",
]


@pytest.fixture(scope="module")
def services(tmp_path_factory) -> Services:
    return Services(make_settings(tmp_path_factory.mktemp("export-forms") / "cache"))


@pytest.mark.parametrize("path", REAL, ids=lambda path: path.name)
def test_plain_text_keeps_every_word_and_drops_the_marks(services, path):
    reading = read_file(path, services=services)
    markdown, plain = reading.as_text(), reading.as_text(plain=True)
    words = lambda text: Counter(WORD.findall(text))
    assert words(markdown) - words(" ".join(IMAGE.findall(markdown))) == words(plain)  # only a picture's address
    assert [line for line in plain.split("\n") if MARKS.search(line)] == []
    assert re.findall(r"^\[.+\]$", markdown, re.M) == re.findall(r"^\[.+\]$", plain, re.M)  # [PAGE 3], as they were


def test_a_table_stands_in_columns_and_a_link_keeps_its_address():
    assert unmarked("| Region | Q1 |\n|---|---|\n| **North** | 120 |\n| South-east | 9 \\| 10 |") == (
        "Region      Q1\nNorth       120\nSouth-east  9 | 10"
    )
    assert unmarked("See [the guide](https://example.com/a) and `code`; 2 * 3 * 4 stays, as does snake_case.") == (
        "See the guide (https://example.com/a) and code; 2 * 3 * 4 stays, as does snake_case."
    )
    assert unmarked("```\n# not a heading, *kept*\n```\n## Heading") == "# not a heading, *kept*\nHeading"


def test_a_text_files_lines_stay_as_they_are(services, tmp_path):
    source = tmp_path / "tools.py"
    source.write_text((ROOT / "testkit/__init__.py").read_text())
    reading = read_file(source, services=services)
    assert reading.as_text(plain=True) == reading.as_text()  # "# a comment" and "**kwargs" are code here
    assert f"*(Source: tools.py, lines 1–{reading.pages[0].text.count(chr(10)) + 1})*" in reading.as_text(
        citations=True
    )


def test_citations_follow_each_pages_text_and_its_visual_content(services):
    reading = read_file(ASSETS / "chart-report.pdf", services=services)
    for plain, mark in ((False, "*"), (True, "")):
        pages = re.split(r"\n\n(?=\[PAGE \d\]\n)", reading.as_text(plain=plain, citations=True))
        assert len(pages) == 4
        for number, text in enumerate(pages, 1):
            cite = f"{mark}(Source: chart-report.pdf, p. {number}){mark}"
            visual = f"[PAGE {number} - VISUAL CONTENT]"
            parts = text.split(f"\n\n{visual}\n")
            assert parts[0].endswith(f"\n\n{cite}")  # the page's text, then its citation
            assert len(parts) == 1 or parts[1].endswith(f"\n\n{cite}")  # its visual content, then its own
        assert ("*(Source: " in pages[0]) is not plain


def test_the_command_line_prints_plain_text_with_citations(tmp_path):
    env = {**os.environ, "READLENS_CACHE_DIR": str(tmp_path / "cache"), "VISION_PROVIDER": "none"}
    run = lambda *args: subprocess.run(
        [sys.executable, "-m", "readers", str(ASSETS / "chart-report.pdf"), "--pages", "3", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    printed = run("--format", "plain", "--citations")
    assert printed.returncode == 0, printed.stderr
    assert printed.stdout == (
        "[PAGE 3]\nUnits sold per region\n\nThe table lists the units sold in each quarter.\n\n"
        "Region  Q1   Q2   Q3   Q4\nNorth   120  135  150  170\nSouth   90   95   110  125\n\n"
        "(Source: chart-report.pdf, p. 3)\n"
    )
    markdown = run("--citations")
    assert markdown.returncode == 0 and markdown.stdout.endswith(
        "| South | 90 | 95 | 110 | 125 |\n\n*(Source: chart-report.pdf, p. 3)*\n"
    )
    refused = run("--format", "json", "--citations")
    assert refused.returncode == 2 and "--citations goes with --format text or plain" in refused.stderr


def test_a_recordings_transcript_is_cited_as_the_whole_recording(services):
    reading = read_file(CORPUS / "markitdown/test.wav", options=ReadOptions(), services=services)
    assert reading.as_text(plain=True, citations=True).endswith("\n\n(Source: test.wav, 0:00–0:06)")
