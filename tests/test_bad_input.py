"""Bad input: every case gets a ReaderError code and a sentence a person understands."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import openpyxl
import pytest
from msoffcrypto.format.ooxml import OOXMLFile

from readers import ReaderError, read_file
from readers.render.libreoffice import soffice
from readers.services import Services
from testkit import CORPUS, ROOT, fixtures, make_settings
from tests.conftest import BOUNDED_SECONDS


def refused(path, code: str, services: Services, **kwargs) -> ReaderError:
    with pytest.raises(ReaderError) as caught:
        read_file(path, services=services, **kwargs)
    error = caught.value
    assert error.code == code, error.message
    assert len(error.message) > 20 and "Traceback" not in error.message and error.message.rstrip(")").endswith(".")
    return error


def test_missing_file(services, tmp_path):
    error = refused(tmp_path / "nowhere.pdf", "FILE_NOT_FOUND", services)
    assert "nowhere.pdf" in error.message


@pytest.mark.parametrize("path", ["x" * 300 + ".pdf", "in\0side.pdf"])
def test_a_path_the_system_refuses_is_not_found(services, tmp_path, path):
    refused(path, "FILE_NOT_FOUND", services)
    refused(path, "FILE_NOT_FOUND", services, workspace=tmp_path)


def test_empty_file(services, tmp_path):
    (tmp_path / "empty.pdf").touch()
    assert "empty" in refused(tmp_path / "empty.pdf", "EMPTY_FILE", services).message


def test_truncated_pdf(services, tmp_path):
    data = (CORPUS / "markitdown/test.pdf").read_bytes()
    (tmp_path / "cut.pdf").write_bytes(data[: len(data) // 3])
    refused(tmp_path / "cut.pdf", "CORRUPT_FILE", services)


@pytest.mark.parametrize("name", ["program.pdf", "program.docx"])
def test_executable_with_a_document_name(services, tmp_path, name):
    shutil.copy(sys.executable if Path(sys.executable).stat().st_size < 30_000_000 else "/bin/ls", tmp_path / name)
    message = refused(tmp_path / name, "UNSUPPORTED_FORMAT", services).message
    assert message.startswith(f"{name} is not a {Path(name).suffix[1:].upper()} inside: its content is no format")
    assert "another kind of file renamed" in message


@pytest.mark.parametrize("name", ["noise.pdf", "noise.docx", "noise.png"])
def test_random_bytes_with_a_document_name(services, tmp_path, name):
    (tmp_path / name).write_bytes(os.urandom(4096))
    refused(tmp_path / name, "UNSUPPORTED_FORMAT", services)


def test_truncated_docx(services, tmp_path):
    data = (CORPUS / "markitdown/test.docx").read_bytes()
    (tmp_path / "cut.docx").write_bytes(data[: len(data) // 2])
    refused(tmp_path / "cut.docx", "CORRUPT_FILE", services)


def test_truncated_png(services, tmp_path):
    data = (CORPUS / "python-docx/images/300-dpi.png").read_bytes()
    (tmp_path / "cut.png").write_bytes(data[: len(data) // 2])
    refused(tmp_path / "cut.png", "CORRUPT_FILE", services)


def test_password_protected_docx(services, tmp_path):
    encrypted = io.BytesIO()
    with open(CORPUS / "markitdown/test.docx", "rb") as plain:
        OOXMLFile(plain).encrypt("secret", encrypted)
    (tmp_path / "locked.docx").write_bytes(encrypted.getvalue())
    assert "password" in refused(tmp_path / "locked.docx", "ENCRYPTED_FILE", services).message


def test_file_over_the_size_limit_is_refused_before_parsing(tmp_path):
    services = Services(make_settings(tmp_path / "cache", max_file_mb=0.05))
    error = refused(CORPUS / "markitdown/test.pdf", "FILE_TOO_LARGE", services)
    assert "MAX_FILE_MB" in error.message
    assert not services.store.root.exists()  # nothing was parsed or cached


def test_decompression_bomb_image(services, tmp_path):
    bomb = fixtures.huge_png_header(tmp_path / "bomb.png")
    assert "megapixels" in refused(bomb, "FILE_TOO_LARGE", services).message


def test_office_zip_bomb(services, tmp_path):
    bomb = fixtures.zip_bomb_docx(tmp_path / "bomb.docx")
    assert bomb.stat().st_size < 5 * 1024 * 1024
    assert "500 MB" in refused(bomb, "FILE_TOO_LARGE", services).message


@pytest.mark.parametrize("pages", [(2, 2), (0, 1), (1, 9), (3, 2)])
def test_page_range_outside_the_document(services, pages):
    refused(CORPUS / "markitdown/test.pdf", "PAGE_OUT_OF_RANGE", services, page_start=pages[0], page_end=pages[1])


def test_question_too_long(services):
    error = refused(CORPUS / "markitdown/test.pdf", "INVALID_QUERY", services, describe="why? " * 401)
    assert "2,000" in error.message


def test_workspace_confinement(services, tmp_path):
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    shutil.copy(CORPUS / "python-docx/images/python.bmp", workspace / "inside.bmp")
    (workspace / "link.pdf").symlink_to(CORPUS / "markitdown/test.pdf")
    assert read_file("inside.bmp", workspace=workspace, services=services).kind == "image"
    for outside in ["../secret.txt", "/etc/passwd", "link.pdf", str(CORPUS / "markitdown/test.pdf")]:
        error = refused(outside, "PATH_OUTSIDE_WORKSPACE", services, workspace=workspace)
        assert "/etc" not in error.message or outside == "/etc/passwd"


def test_without_libreoffice_the_text_is_still_read(tmp_path, monkeypatch):
    from readers.render import libreoffice as office

    monkeypatch.setattr(office, "soffice", lambda: None)
    services = Services(make_settings(tmp_path / "cache"))
    reading = read_file(CORPUS / "docling/word_sample.docx", services=services)
    assert reading.page_count == 1 and reading.pages[0].image is None
    assert (
        "# Swimming in the lake" in reading.pages[0].text and "| Leaves | Ash, Elm, Maple | 50 |" in reading.as_text()
    )
    assert any("LibreOffice is not installed" in w for w in reading.warnings)
    deck = read_file(CORPUS / "docling/powerpoint_sample.pptx", services=services)
    assert deck.page_count == 3 and "Second slide title" in deck.as_text()


def test_cli_prints_one_line_with_the_code(tmp_path):
    (tmp_path / "empty.pdf").touch()
    result = subprocess.run(
        [sys.executable, "-m", "readers", str(tmp_path / "empty.pdf")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "READLENS_CACHE_DIR": str(tmp_path / "cache")},
    )
    assert result.returncode == 2
    assert result.stderr.strip().startswith("error: EMPTY_FILE: ") and len(result.stderr.strip().splitlines()) == 1
    assert result.stdout == ""


@pytest.mark.parametrize("start", ["2", 2.5])
def test_page_numbers_must_be_whole_numbers(services, start):
    refused(CORPUS / "markitdown/test.pdf", "PAGE_OUT_OF_RANGE", services, page_start=start)


def test_a_question_must_be_text(services):
    refused(CORPUS / "markitdown/test.pdf", "INVALID_QUERY", services, describe=123)


@pytest.mark.parametrize(
    "data",
    [
        b"\xef\xbb\xbfcaf\xe9 cr\xe8me br\xfbl\xe9e, na\xefve fa\xe7ade\n" * 5,
        b'{"cells": [{"cell_type": "code", "source": "x = 1"}], "metadata": []}',
        b'{"cells": [{"cell_type": "code", "source": [1, {"a": 2}]}], "metadata": {"kernelspec": {"language": 7}}}',
    ],
)
def test_odd_text_is_still_read(services, tmp_path, data):
    (tmp_path / "odd.ipynb").write_bytes(data)
    reading = read_file(tmp_path / "odd.ipynb", services=services)
    assert reading.kind == "text" and reading.pages[0].text.strip()


def test_a_lone_surrogate_in_a_notebook_is_a_replacement_character(services, tmp_path):
    (tmp_path / "escaped.ipynb").write_bytes(
        rb'{"cells": [{"cell_type": "markdown", "source": ["Half a pair: \ud800 here"]}], "metadata": {}}'
    )
    reading = read_file(tmp_path / "escaped.ipynb", services=services)
    assert reading.pages[0].text == "Half a pair: \ufffd here"
    assert reading.as_text().encode("utf-8") and reading.tokens() > 0


def test_bad_settings_are_one_line_on_the_command_line(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "readers", str(CORPUS / "markitdown/test.pdf")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "VISION_PROVIDER": "gpt", "READLENS_CACHE_DIR": str(tmp_path)},
    )
    assert result.returncode == 2
    assert result.stderr.strip() == "error: settings: VISION_PROVIDER must be one of auto, openai, ocr, none, not 'gpt'"
    with pytest.raises(ValueError, match="MAX_PAGES must be more than 0"):
        make_settings(tmp_path, max_pages=0)


def test_truncated_xlsx(services, tmp_path):
    data = fixtures.workbook(tmp_path / "book.xlsx").read_bytes()
    (tmp_path / "cut.xlsx").write_bytes(data[: len(data) // 2])
    refused(tmp_path / "cut.xlsx", "CORRUPT_FILE", services)


def test_xlsx_with_a_broken_sheet_keeps_the_others(services, tmp_path):
    source = zipfile.ZipFile(fixtures.workbook(tmp_path / "book.xlsx"))
    with zipfile.ZipFile(tmp_path / "broken.xlsx", "w") as broken:
        for info in source.infolist():
            broken.writestr(
                info,
                b"<worksheet><sheetData><row" if info.filename == "xl/worksheets/sheet1.xml" else source.read(info),
            )
    reading = read_file(tmp_path / "broken.xlsx", services=services)
    assert reading.page_count == 3 and "| Servers | 4000 |" in reading.as_text()
    assert any("damaged in 1 part (xl/worksheets/sheet1.xml)" in warning for warning in reading.warnings)


def test_password_protected_xlsx(services, tmp_path):
    encrypted = io.BytesIO()
    with open(fixtures.workbook(tmp_path / "book.xlsx"), "rb") as plain:
        OOXMLFile(plain).encrypt("secret", encrypted)
    (tmp_path / "locked.xlsx").write_bytes(encrypted.getvalue())
    assert "Excel" in refused(tmp_path / "locked.xlsx", "ENCRYPTED_FILE", services).message


@pytest.mark.skipif(soffice() is None, reason="needs LibreOffice (make setup installs it)")
def test_damaged_legacy_word_file(services, tmp_path):
    data = (CORPUS / "docling/formats/legacy_sample.doc").read_bytes()
    (tmp_path / "cut.doc").write_bytes(data[:4096] + os.urandom(8192))
    refused(tmp_path / "cut.doc", "CORRUPT_FILE", services)


@pytest.mark.parametrize(
    "name, data, code",
    [
        ("cut.zip", lambda: (CORPUS / "docling/formats/epub_purvis_poetry.epub").read_bytes()[:5000], "CORRUPT_FILE"),
        ("nothing.zip", lambda: b"PK\x05\x06" + bytes(18), "EMPTY_FILE"),
        ("cut.epub", lambda: (CORPUS / "docling/formats/epub_purvis_poetry.epub").read_bytes()[:5000], "CORRUPT_FILE"),
        ("cut.msg", lambda: (CORPUS / "docling/formats/msg_simple.msg").read_bytes()[:3000], "CORRUPT_FILE"),
        ("feed.xml", lambda: b'<?xml version="1.0"?><rss version="2.0"><channel><item><broken', "CORRUPT_FILE"),
    ],
)
def test_damaged_containers_and_feeds(services, tmp_path, name, data, code):
    (tmp_path / name).write_bytes(data())
    refused(tmp_path / name, code, services)


def test_unsupported_format_says_what_is_supported(services, tmp_path):
    (tmp_path / "tool.exe").write_bytes(b"MZ" + os.urandom(4094))
    message = refused(tmp_path / "tool.exe", "UNSUPPORTED_FORMAT", services).message
    for name in ("XLSX", "ODS", "CSV", "HTML", "RSS", "EPUB", "EML", "MSG", "ZIP", "DOC", "RTF", "PPT"):
        assert name in message


def test_an_office_package_of_another_kind_is_not_read_as_an_archive(services, tmp_path):
    binary = fixtures.archive(
        tmp_path / "book.xlsb", {"[Content_Types].xml": b"<Types/>", "xl/workbook.bin": b"\x83\x01\x00"}
    )
    assert "XLSB" in refused(binary, "UNSUPPORTED_FORMAT", services).message


def test_an_unexpected_exception_is_logged_and_becomes_a_reader_error(services, tmp_path, monkeypatch, caplog):
    from readers.formats import csv as csv_reader

    def broken(job):
        raise KeyError("sk-not-for-people")

    monkeypatch.setattr(csv_reader, "read", broken)
    (tmp_path / "table.csv").write_text("a,b\n1,2\n")
    error = refused(tmp_path / "table.csv", "CORRUPT_FILE", services)
    assert "KeyError" not in error.message and "sk-not-for-people" not in error.message
    assert isinstance(error.__cause__, KeyError)
    assert "KeyError: 'sk-not-for-people'" in caplog.text  # the traceback is for whoever runs the server
    reading = read_file(
        fixtures.archive(tmp_path / "bundle.zip", {"table.csv": b"a,b\n1,2\n", "notes.md": b"# Notes\n"}),
        services=services,
    )
    assert (
        "table.csv could not be read" in reading.pages[0].error and "# Notes" in reading.pages[1].text
    )  # the member costs only itself


def test_a_damaged_picture_costs_only_the_picture(services, tmp_path):
    deck = fixtures.slide_deck(tmp_path / "deck.pptx")
    picture = next(name for name in zipfile.ZipFile(deck).namelist() if name.startswith("ppt/media/"))
    reading = read_file(fixtures.damaged_part(deck, tmp_path / "bad.pptx", picture), services=services, images=True)
    text = reading.as_text()
    assert reading.page_count == 4 and all(page.image for page in reading.pages)
    assert "# Launch plan" in text and "Monthly active users" in text and "[Picture: The Python logo]" in text
    assert any(f"damaged in 1 part ({picture})" in warning for warning in reading.warnings)


def test_a_cut_off_slide_costs_only_what_was_cut(services, tmp_path):
    deck = fixtures.slide_deck(tmp_path / "deck.pptx")
    slide = zipfile.ZipFile(deck).read("ppt/slides/slide2.xml")
    cut = fixtures.damaged_part(deck, tmp_path / "cut.pptx", "ppt/slides/slide2.xml", slide[: slide.index(b"Servers")])
    reading = read_file(cut, services=services)
    assert reading.page_count == 4 and "# Budget" in reading.pages[1].text and "Servers" not in reading.as_text()
    assert "# Launch plan" in reading.pages[0].text and "Monthly active users" in reading.pages[2].text
    assert any("(ppt/slides/slide2.xml)" in warning for warning in reading.warnings)


@pytest.mark.parametrize("part", ["word/styles.xml", "docProps/core.xml"])
def test_a_damaged_part_of_a_word_document_keeps_its_text(services, tmp_path, part):
    document = fixtures.damaged_part(fixtures.word_document(tmp_path / "report.docx"), tmp_path / "bad.docx", part)
    reading = read_file(document, services=services)
    assert "Revenue grew in every region" in reading.as_text() and "hiring plans" in reading.as_text()
    assert any(f"({part})" in warning for warning in reading.warnings)


@pytest.mark.parametrize(
    "name, make, part, where",
    [  # the entities go in ``part`` of a package, or in the file itself
        ("bomb.docx", fixtures.word_document, "word/document.xml", b"<w:t>"),
        ("bomb.pptx", fixtures.slide_deck, "ppt/slides/slide2.xml", b"<a:t>"),
        ("bomb.xlsx", fixtures.workbook, "xl/worksheets/sheet2.xml", b"<sheetData>"),
        ("bomb.epub", fixtures.ebook, "OEBPS/chapter-2.xhtml", b"<p>"),
        ("bomb.xml", fixtures.rss_feed, None, b"<title>"),
    ],
)
def test_xml_entities_are_never_expanded(services, tmp_path, name, make, part, where):
    source = make(tmp_path / f"source{Path(name).suffix}")
    bomb = tmp_path / name
    if part is None:
        bomb.write_bytes(fixtures.entity_bomb(source.read_bytes(), where))
    else:
        fixtures.damaged_part(source, bomb, part, fixtures.entity_bomb(zipfile.ZipFile(source).read(part), where))
    reading = read_file(bomb, services=services)  # read, as far as the entities, in seconds and in bounded memory
    assert "lollol" not in reading.as_text() and reading.page_count >= 1


def test_a_damaged_chart_costs_a_workbook_only_its_charts(tmp_path, monkeypatch):
    from readers.render import libreoffice as office

    monkeypatch.setattr(
        office, "soffice", lambda: None
    )  # LibreOffice would recalculate the workbook, and mend the chart as it goes
    book = fixtures.workbook(tmp_path / "book.xlsx")
    chart = zipfile.ZipFile(book).read("xl/charts/chart1.xml")
    damaged = fixtures.damaged_part(
        book,
        tmp_path / "chart.xlsx",
        "xl/charts/chart1.xml",
        chart.replace(b'orientation val="minMax"', b'orientation val="upside"', 1),
    )
    reading = read_file(damaged, services=Services(make_settings(tmp_path / "cache")))
    assert (
        reading.page_count == 3
        and "| North | 1,200.50 | 1300 | 25% | 2024-03-31 |" in reading.as_text()
        and "Chart" not in reading.as_text()
    )
    assert (
        "The charts and pictures of chart.xlsx are damaged and were left out; its sheets are read." in reading.warnings
    )


def test_a_chart_openpyxl_cannot_read_is_named_in_a_warning_not_printed(tmp_path, monkeypatch, recwarn):
    """openpyxl skips a chart it cannot parse and says so with a Python warning, which a library must
    not print: the reading's warnings name it instead."""
    from readers.render import libreoffice as office

    monkeypatch.setattr(office, "soffice", lambda: None)  # LibreOffice would recalculate, and mend the chart
    book = fixtures.workbook(tmp_path / "book.xlsx")
    chart = zipfile.ZipFile(book).read("xl/charts/chart1.xml")
    damaged = fixtures.damaged_part(
        book, tmp_path / "chart.xlsx", "xl/charts/chart1.xml", chart.replace(b'<idx val="0"/>', b'<idx val="x"/>', 1)
    )
    reading = read_file(damaged, services=Services(make_settings(tmp_path / "cache")))
    assert "| North | 1,200.50 | 1300 | 25% | 2024-03-31 |" in reading.as_text() and "Chart" not in reading.as_text()
    assert (
        "Part of chart.xlsx could not be read: Unable to read chart rId1 from "
        "xl/drawings/drawing1.xml expected <class 'int'>" in reading.warnings
    )
    assert not [str(warning.message) for warning in recwarn]


def test_a_cut_off_tiff_keeps_its_whole_frames(services, tmp_path):
    data = fixtures.tiff_frames(tmp_path / "frames.tiff").read_bytes()
    (tmp_path / "cut.tiff").write_bytes(data[: len(data) * 3 // 4])
    reading = read_file(tmp_path / "cut.tiff", services=services)
    assert reading.page_count == 3 and reading.pages[0].image and reading.pages[1].image
    assert reading.pages[2].image is None and "damaged" in reading.pages[2].error
    assert any(warning.startswith("Frame 3 of cut.tiff is damaged") for warning in reading.warnings)


def test_a_cut_off_gif_shows_the_frames_before_the_damage(services, tmp_path):
    data = fixtures.animated_gif(tmp_path / "moving.gif").read_bytes()
    (tmp_path / "cut.gif").write_bytes(data[: len(data) // 2])
    reading = read_file(tmp_path / "cut.gif", services=services)
    assert reading.page_count == 1 and reading.pages[0].image and "Frames: 2" in reading.pages[0].text
    assert "cut.gif is damaged after its frame 2; the frames before the damage are read." in reading.warnings


def test_a_table_cell_spanning_two_billion_columns_spans_63(services, tmp_path):
    document = fixtures.word_document(tmp_path / "report.docx")
    xml = zipfile.ZipFile(document).read("word/document.xml")
    hostile = fixtures.damaged_part(
        document,
        tmp_path / "span.docx",
        "word/document.xml",
        xml.replace(b"<w:tcW ", b'<w:gridSpan w:val="2147483647"/><w:tcW ', 1),
    )
    reading = read_file(hostile, services=services)  # not 16 GB of empty cells
    heading = next(line for line in reading.as_text().splitlines() if line.startswith("| Region"))
    assert heading.count("|") == 63 + 2 and "Revenue grew in every region" in reading.as_text()


def test_a_workbook_merging_millions_of_cells_is_refused_before_loading(services, tmp_path):
    book = openpyxl.Workbook()
    book.active["A1"] = "Title"
    book.active.merge_cells("A1:B2")
    book.save(tmp_path / "small.xlsx")
    sheet = zipfile.ZipFile(tmp_path / "small.xlsx").read("xl/worksheets/sheet1.xml")
    hostile = fixtures.damaged_part(
        tmp_path / "small.xlsx",
        tmp_path / "merged.xlsx",
        "xl/worksheets/sheet1.xml",
        sheet.replace(b'ref="A1:B2"', b'ref="A1:XFD1048576"'),
    )
    assert "merges 17,179,869,184 cells" in refused(hostile, "FILE_TOO_LARGE", services).message


def test_an_email_nested_thousands_of_levels_deep_is_refused(services, tmp_path):
    error = refused(fixtures.nested_mail(tmp_path / "deep.eml", 3000), "FILE_TOO_LARGE", services)
    assert error.message.startswith("deep.eml has 3,001 parts; at most 500 are read from one e-mail.")


def test_a_csv_built_to_stall_delimiter_guessing_is_read_at_once(services, tmp_path):
    # csv.Sniffer's regular expressions took over 100 s on this 64 KB of quotes and line breaks.
    path = tmp_path / "quotes.csv"
    path.write_text("name,note\n" + '"\n' * 32000)
    started = time.monotonic()
    reading = read_file(path, services=services)
    assert (
        reading.pages[0].tables[0].startswith("| name | note |\n|---|---|")
        and time.monotonic() - started < BOUNDED_SECONDS
    )


@pytest.mark.parametrize(
    "charset, body, shown",
    [
        ('charset="utf-7"', b"Sum +2AA- done", "Sum \ufffd done"),
        ("charset*=utf-8''a%00b", b"Plain words", "Plain words"),
    ],
)
def test_an_email_part_in_an_odd_declared_charset_is_read(services, tmp_path, charset, body, shown):
    """A charset that makes a lone surrogate, or whose name holds a NUL, costs nothing: the part
    is read (U+FFFD for the half character), and so is the rest of the message."""
    path = tmp_path / "odd.eml"
    path.write_bytes(
        b"From: a@example.org\nTo: b@example.org\nSubject: Odd charset\nMIME-Version: 1.0\n"
        b"Content-Type: text/plain; " + charset.encode() + b"\n\n" + body + b"\n"
    )
    text = read_file(path, services=services).as_text()
    assert "Subject: Odd charset" in text and shown in text
    text.encode("utf-8")  # no lone surrogate reaches the model


def test_a_web_page_with_a_comma_on_every_line_is_read_as_a_web_page(services, tmp_path):
    path = tmp_path / "list.html"
    path.write_text(
        "<p>Mallard, teal, wigeon</p>\n<p>Swan, goose, eider</p>\n<p>Coot, moorhen, grebe</p>\n"
    )  # libmagic: text/csv
    reading = read_file(path, services=services)
    assert reading.kind == "html" and "Mallard, teal, wigeon" in reading.as_text() and "<p>" not in reading.as_text()


def test_a_tiff_frame_past_the_pixel_limit_costs_that_frame_only(services, tmp_path):
    from PIL import Image

    from readers.formats.image import MAX_MEGAPIXELS

    path = tmp_path / "frames.tif"
    first = Image.new("RGB", (200, 100), "white")
    huge = Image.new("1", (10_001, MAX_MEGAPIXELS * 100), 1)  # just past the limit, a few KB compressed
    first.save(path, save_all=True, append_images=[huge], compression="tiff_deflate")
    reading = read_file(path, services=services)
    assert reading.page_count == 2 and reading.pages[0].image and reading.pages[1].image is None
    assert reading.pages[1].error == f"This frame is larger than {MAX_MEGAPIXELS} megapixels and was not read."
