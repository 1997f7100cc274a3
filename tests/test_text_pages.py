"""Long text files in pages of about 4,000 characters cut at line boundaries, each line numbered as in the file."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from readers import ReaderError, read_file
from readers.formats import text as text_reader
from readers.markup.text import PAGE_CHARS
from readers.services import Services
from testkit import ROOT, fixtures, make_settings

NUMBERED = re.compile(r"^ *(\d+)→(.*)$")


def unlimited(tmp_path) -> Services:
    return Services(make_settings(tmp_path / "cache", max_pages=10_000))


def numbered_lines(text: str) -> list[tuple[int, str]]:
    """``(number, line)`` of each numbered line of ``as_text(line_numbers=True)``; headers are left out."""
    return [(int(match.group(1)), match.group(2)) for match in map(NUMBERED.match, text.split("\n")) if match]


def test_pages_hold_whole_lines_and_number_them_as_in_the_file(tmp_path):
    path = fixtures.numbered_log(tmp_path / "app.log", 3000)
    reading = read_file(path, services=unlimited(tmp_path))
    lines = path.read_text().split("\n")[:-1]
    assert reading.kind == "text" and reading.page_count == len(reading.pages) > 40
    for page in reading.pages:
        page_lines = page.text.split("\n")
        assert len(page.text) <= PAGE_CHARS
        assert (
            page_lines == lines[page.line - 1 : page.line - 1 + len(page_lines)]
        )  # whole lines: the first and the last
    ends = [page.line + page.text.count("\n") for page in reading.pages]
    assert [page.line for page in reading.pages[1:]] == [end + 1 for end in ends[:-1]] and ends[-1] == 3000
    assert numbered_lines(reading.as_text(line_numbers=True)) == list(enumerate(lines, 1))


def test_a_page_range_reads_those_pages_with_their_numbers_in_the_file(tmp_path):
    path = fixtures.numbered_log(tmp_path / "app.log", 3000)
    whole = read_file(path, services=unlimited(tmp_path))
    reading = read_file(path, 20, 21, services=unlimited(tmp_path))
    assert reading.page_count == whole.page_count and [p.number for p in reading.pages] == [20, 21]
    assert [(p.line, p.text) for p in reading.pages] == [(p.line, p.text) for p in whole.pages[19:21]]
    text = reading.as_text(line_numbers=True)
    first = whole.pages[19].line
    assert text.startswith(f"[PAGE 20]\n{first:>6}→{fixtures.log_line(first)}\n")
    assert f"\n\n[PAGE 21]\n{whole.pages[20].line:>6}→{fixtures.log_line(whole.pages[20].line)}" in text
    assert all(f"line {number}:" in line for number, line in numbered_lines(text))
    with pytest.raises(ReaderError) as caught:
        read_file(path, whole.page_count + 1, None, services=unlimited(tmp_path))
    assert caught.value.code == "PAGE_OUT_OF_RANGE"


def test_a_line_longer_than_a_page_is_cut_at_the_page_size_and_says_so(tmp_path):
    long = "".join(f"{index:05d}," for index in range(1800))  # 10,800 characters: two whole pages and a piece
    path = fixtures.numbered_log(tmp_path / "data.log", 10, long_lines={4: long})
    reading = read_file(path, services=unlimited(tmp_path))
    first, *pieces, last = reading.pages
    assert [p.line for p in reading.pages] == [1, 4, 4, 4]
    assert first.text == "\n".join(fixtures.log_line(n) for n in range(1, 4))
    assert pieces[0].text == f"{long[:PAGE_CHARS]} [line 4 continues on the next page]"
    assert pieces[1].text == (
        f"[line 4 continued from the previous page] {long[PAGE_CHARS : 2 * PAGE_CHARS]} "
        "[line 4 continues on the next page]"
    )
    assert last.text.startswith(
        f"[line 4 continued from the previous page] {long[2 * PAGE_CHARS :]}\n{fixtures.log_line(5)}"
    )
    numbered = numbered_lines(reading.as_text(line_numbers=True))
    assert [number for number, _ in numbered] == [1, 2, 3, 4, 4, 4, 5, 6, 7, 8, 9, 10]
    pieces_of_four = [
        re.sub(r"^\[line 4 continued from the previous page\] | \[line 4 continues on the next page\]$", "", line)
        for number, line in numbered
        if number == 4
    ]
    assert "".join(pieces_of_four) == long  # nothing lost at the cuts


@pytest.mark.parametrize("newline, final_newline", [("\r\n", True), ("\n", False), ("\r\n", False)])
def test_crlf_and_a_missing_final_newline_number_the_same_lines(tmp_path, newline, final_newline):
    plain = read_file(fixtures.numbered_log(tmp_path / "plain.log", 500), services=unlimited(tmp_path))
    other = read_file(
        fixtures.numbered_log(tmp_path / "other.log", 500, newline, final_newline), services=unlimited(tmp_path)
    )
    assert [(p.number, p.line, p.text) for p in other.pages] == [(p.number, p.line, p.text) for p in plain.pages]
    assert "\r" not in other.as_text()
    assert numbered_lines(other.as_text(line_numbers=True))[-1] == (500, fixtures.log_line(500))


def test_indentation_and_blank_lines_at_a_page_start_are_kept(tmp_path):
    body = "".join(f"def f{n}():\n\n    return {'x' * 60}\n" for n in range(200))
    (tmp_path / "code.py").write_text(body)
    reading = read_file(tmp_path / "code.py", services=unlimited(tmp_path))
    starts = [page for page in reading.pages if page.text.startswith(("\n", " "))]
    assert starts, "the fixture should put a blank or indented line first on some page"
    assert all(f"[PAGE {page.number}]\n{page.text}" in reading.as_text() for page in starts)  # not stripped
    assert numbered_lines(reading.as_text(line_numbers=True)) == list(enumerate(body.split("\n")[:-1], 1))


def test_a_small_file_is_one_page_as_before(tmp_path):
    (tmp_path / "notes.md").write_text("# Notes\n\nA naïve plan.\n")
    reading = read_file(tmp_path / "notes.md", services=unlimited(tmp_path))
    assert reading.page_count == 1 and reading.as_text() == "[PAGE 1]\n# Notes\n\nA naïve plan."
    assert reading.as_text(line_numbers=True) == "[PAGE 1]\n     1→# Notes\n     2→\n     3→A naïve plan."


def test_a_notebook_is_paged_and_numbered_as_its_cells_are_shown(tmp_path):
    cells = [
        {"cell_type": "markdown", "source": [f"## Step {n}\n", "Some words."]}
        if n % 2
        else {"cell_type": "code", "source": [f"x{n} = {n}\n", f"print(x{n})"]}
        for n in range(400)
    ]
    path = tmp_path / "analysis.ipynb"
    path.write_text(
        json.dumps(
            {"cells": cells, "metadata": {"kernelspec": {"language": "python"}}, "nbformat": 4, "nbformat_minor": 5}
        )
    )
    reading = read_file(path, services=unlimited(tmp_path))
    shown = text_reader.notebook_text(path.read_text()).split("\n")
    assert reading.page_count > 1 and '"cell_type"' not in reading.as_text()
    assert numbered_lines(reading.as_text(line_numbers=True)) == list(enumerate(shown, 1))


def test_later_reads_take_only_their_pages_from_the_cache(tmp_path, monkeypatch):
    path = fixtures.numbered_log(tmp_path / "app.log", 3000)
    services = unlimited(tmp_path)
    first = read_file(path, 30, 30, services=services)

    def no_decoding(*args):
        raise AssertionError("a cached file is not decoded again")

    monkeypatch.setattr(text_reader, "decode", no_decoding)
    again = read_file(path, 30, 30, services=services)
    assert (again.page_count, again.pages[0].text) == (first.page_count, first.pages[0].text)


def test_a_long_log_is_read_up_to_max_pages_with_a_warning(tmp_path):
    path = fixtures.numbered_log(tmp_path / "app.log", 3000)
    reading = read_file(path, services=Services(make_settings(tmp_path / "cache", max_pages=5)))
    assert [p.number for p in reading.pages] == [1, 2, 3, 4, 5] and reading.page_count > 5
    assert any("MAX_PAGES is 5" in warning for warning in reading.warnings)


def command_line(*arguments, cache) -> subprocess.CompletedProcess:
    env = {**os.environ, "READLENS_CACHE_DIR": str(cache), "VISION_PROVIDER": "none"}
    return subprocess.run(
        [sys.executable, "-m", "readers", *map(str, arguments)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_command_line_numbers_the_lines_of_the_pages_asked_for(tmp_path):
    path = fixtures.numbered_log(tmp_path / "app.log", 3000)
    whole = read_file(path, services=unlimited(tmp_path))
    result = command_line(path, "--pages", "3-4", "--line-numbers", cache=tmp_path / "cli")
    assert result.returncode == 0, result.stderr
    assert result.stdout == read_file(path, 3, 4, services=unlimited(tmp_path)).as_text(line_numbers=True) + "\n"
    assert result.stdout.startswith(f"[PAGE 3]\n{whole.pages[2].line:>6}→{fixtures.log_line(whole.pages[2].line)}\n")
    refused = command_line(path, "--line-numbers", "--format", "json", cache=tmp_path / "cli")
    assert refused.returncode == 2 and "--line-numbers goes with --format text" in refused.stderr


def test_utf8_with_a_few_bad_bytes_stays_utf8_and_says_how_many_were_replaced(tmp_path):
    """A stray byte pair in a long UTF-8 log once made the whole file read as ISO-8859-10 ("cafÃĐ")."""
    lines = [f"2024-01-01 12:00:{n % 60:02d} café served to order {n}" for n in range(20_000)]
    data = "\n".join(lines).encode("utf-8")
    middle = data.index(b"\n", len(data) // 2)
    path = tmp_path / "orders.log"
    path.write_bytes(data[:middle] + b"\xff\xfe" + data[middle:])
    reading = read_file(path, services=unlimited(tmp_path))
    text = "\n".join(page.text for page in reading.pages)
    assert text.count("café") == 20_000 and "Ã" not in text and text.count("\ufffd") == 2
    assert reading.warnings == ["orders.log is UTF-8 text but for 2 bytes not valid in it, each replaced by \ufffd."]
    renamed = tmp_path / "copy.log"  # the same bytes again: the cached text, and the warning with this name
    renamed.write_bytes(path.read_bytes())
    assert read_file(renamed, 1, 1, services=unlimited(tmp_path)).warnings == [
        reading.warnings[0].replace("orders.log", "copy.log"),
        "copy.log has 234 pages; page 1 was read, not the others.",
    ]


def test_a_legacy_charset_is_still_detected(tmp_path):
    path = tmp_path / "menu.txt"
    path.write_bytes("\n".join(f"Le café numéro {n} est fermé le lundi." for n in range(200)).encode("latin-1"))
    reading = read_file(path, services=unlimited(tmp_path))
    assert "Le café numéro 7 est fermé le lundi." in reading.pages[0].text and reading.warnings == []
