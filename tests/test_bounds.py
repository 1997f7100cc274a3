"""Issue 45's hostile inputs, scaled down so the suite stays fast (``make bench hostile`` reads them
at full size): each is read or refused, what is cut or flattened says so, one bad part costs only
itself, Strict OOXML's text comes back as written, and a special file is named as what it is."""

from __future__ import annotations

import os
import resource
import zipfile
from pathlib import Path

import pytest

from readers import ReaderError, Services, read_file
from readers import core as core_module
from readers.errors import described, last_resort
from readers.formats import email as email_module
from readers.intake import detect
from readers.markup import html as html_module
from readers.markup.markdown import HEADING_LINE, block_pages, markdown_blocks
from readers.markup.text import PAGE_CHARS
from readers.office import sheet_bounds
from readers.office.drawings import ocr_image
from readers.office.word import pages as word_pages
from readers.office.word import walker
from readers.render import libreoffice
from testkit import CORPUS, make_settings
from testkit.fixtures import hostile

STRICT = CORPUS / "docling/formats/Strict.docx"
STRICT_NAME = "http://purl.oclc.org/ooxml/wordprocessingml/main"


def text_of(reading) -> str:
    return "\n\n".join(page.text for page in reading.pages)


def test_a_page_of_headings_only_is_paged_with_every_heading(tmp_path, services):
    reading = read_file(hostile.headings_page(tmp_path / "headings.html", 60_000), services=services)
    assert reading.page_count > 1 and all(len(page.text) <= 2 * PAGE_CHARS for page in reading.pages)
    headings = [line for page in reading.pages for line in page.text.split("\n\n") if HEADING_LINE.match(line)]
    assert len(headings) == 60_000 // len("<h2>Section heading of a page</h2>\n")


def test_one_line_longer_than_a_page_is_cut_into_pages_and_nothing_is_lost(tmp_path, services):
    reading = read_file(hostile.one_line_page(tmp_path / "line.html", 30_000), services=services)
    assert reading.page_count > 5 and all(len(page.text) <= PAGE_CHARS for page in reading.pages)
    assert text_of(reading).split() == ("lorem ipsum dolor sit amet " * (30_000 // 27)).split() + ["Last", "paragraph."]


def markdown_pages(markdown: str) -> list[str]:
    """``markdown`` paged as a long text is (``block_pages``), each page's text its blocks'."""
    return ["\n\n".join(block.text for block in page) for page in block_pages(markdown_blocks(markdown), PAGE_CHARS)]


def test_a_table_or_code_longer_than_a_page_repeats_its_header_or_fence_on_each():
    table = "| A | B |\n|---|---|\n" + "\n".join(f"| a{n} | b{n} |" for n in range(1_000))
    pages = markdown_pages(f"{table}\n\nAfter.")
    assert len(pages) > 3 and all(page.startswith("| A | B |\n|---|---|\n| a") for page in pages)
    assert sum(page.count("| a") for page in pages) == 1_000 and pages[-1].endswith("After.")
    code = "```\n" + "print(1)\n" * 1_000 + "```"
    pages = markdown_pages(code)
    assert len(pages) > 1 and all(page.startswith("```\n") and page.endswith("\n```") for page in pages)


def test_empty_divs_and_breaks_leave_the_text_round_them(tmp_path, services):
    reading = read_file(hostile.empty_divs_page(tmp_path / "divs.html", 60_000), services=services)
    assert text_of(reading) == "Start of the page.\n\nEnd of the page."


def test_a_page_deeper_than_the_parser_follows_is_read_flattened_and_says_so(tmp_path, services, monkeypatch):
    reading = read_file(hostile.deep_page(tmp_path / "deep.html", 3_000), services=services)
    assert text_of(reading) == "First words of the page.\n\nDeep sentence.\n\nAfter."
    assert any("nests its elements deeper than ReadLens follows" in warning for warning in reading.warnings)
    monkeypatch.setattr(html_module, "MAX_ELEMENTS", 1_000)  # flattened, its 5,454 elements are one paragraph
    sup = read_file(hostile.nested_sup_page(tmp_path / "sup.html", 60_000), services=services)
    assert text_of(sup) == "Raisedx text." and not any("elements, more than" in w for w in sup.warnings)


def test_a_page_nested_300_deep_is_read_whole(tmp_path, services):
    reading = read_file(hostile.deep_page(tmp_path / "deep.html"), services=services)
    assert text_of(reading) == "First words of the page.\n\nDeep sentence.\n\nAfter."


def test_an_email_body_nested_deep_keeps_its_instruction(tmp_path, services):
    for depth in (300, 3_000):
        reading = read_file(hostile.deep_body_mail(tmp_path / f"deep-{depth}.eml", depth), services=services)
        assert hostile.WIRE in text_of(reading)


def test_words_parted_by_invisible_hints_stay_words(tmp_path, services):
    reading = read_file(hostile.hinted_page(tmp_path / "hints.html", 50), services=services)
    text = text_of(reading)
    assert "word0" in text and "word49" in text and not set(text) & {"\u00ad", "\u200b", "\u2060", "\ufeff"}


def test_a_page_past_the_elements_converted_is_cut_between_rows_and_says_how_much(tmp_path, services, monkeypatch):
    monkeypatch.setattr(html_module, "MAX_ELEMENTS", 1_000)
    reading = read_file(hostile.table_page(tmp_path / "table.html", 30_000), services=services)
    rows = text_of(reading).splitlines()
    assert rows[-1] == "| " + " | ".join(f"c{n}" for n in range(10)) + " |"  # the last row is whole
    assert len(rows) <= 1_000 // 11 + 2 * len(reading.pages)  # each page after the first repeats the header
    warning = next(w for w in reading.warnings if "more than ReadLens converts" in w)
    assert "1,000th" in warning and "characters of the page after that are left out" in warning


def test_the_time_budget_refuses_a_reading_that_computes_past_it(tmp_path):
    services = Services(make_settings(tmp_path / "cache", read_timeout=0.001))
    with pytest.raises(ReaderError) as caught:
        read_file(hostile.table_page(tmp_path / "table.html", 300_000), services=services)
    assert caught.value.code == "TOO_COMPLEX" and "READ_TIMEOUT" in caught.value.message


def test_memory_that_runs_out_is_too_complex_not_damage():
    with pytest.raises(ReaderError) as caught, last_resort("big.docx"):
        raise MemoryError
    assert caught.value.code == "TOO_COMPLEX"


def test_outlook_recipients_in_thousands_are_bounded(tmp_path, services, monkeypatch):
    to = read_file(hostile.to_line_msg(tmp_path / "to.msg", 3_000), services=services)
    line = to.pages[0].text.split("\n")[1]
    assert line.startswith("To (transport header): User 0 <user0@example.org>; User 1 <user1@example.org>;")
    assert len(line) <= len("To (transport header): ") + 16_384 and line.endswith("@example.org>")
    assert any("its To header has" in warning for warning in to.warnings)
    monkeypatch.setattr(email_module, "MAX_RECIPIENTS", 5)
    many = read_file(hostile.recipients_msg(tmp_path / "many.msg", 10), services=services)
    assert any("10 recipients in its recipient table" in warning for warning in many.warnings)
    monkeypatch.setattr(detect, "MAX_OLE_ENTRIES", 50)
    with pytest.raises(ReaderError) as caught:
        read_file(hostile.recipients_msg(tmp_path / "more.msg", 12), services=services)
    assert caught.value.code == "TOO_COMPLEX" and "streams and storages" in caught.value.message


def test_a_bad_number_format_costs_only_its_cells(tmp_path, services):
    page = read_file(hostile.bad_formats_workbook(tmp_path / "formats.xlsx"), services=services).pages[0]
    assert "| 1 | Label |" in page.text and "| 2 |" in page.text and "| 4.00 |" in page.text
    dates = read_file(hostile.date_format_workbook(tmp_path / "dates.xlsx", 20_000, 2), services=services)
    assert "| 2024-03-01 00:00:00 | Label |" in dates.pages[0].text
    assert any("could not be applied ('m-m-m-m-" in warning for warning in dates.warnings)
    decimals = read_file(hostile.decimal_formats_workbook(tmp_path / "decimals.xlsx", cells=3), services=services)
    assert "| 1.5 | Label |" in decimals.pages[0].text


def test_comments_and_pictures_past_a_pages_worth_are_left_out_and_said(tmp_path, services, monkeypatch):
    monkeypatch.setattr(sheet_bounds, "MAX_SHEET_COMMENTS", 40)
    monkeypatch.setattr(sheet_bounds, "MAX_SHEET_DRAWINGS", 30)
    comments = read_file(hostile.comments_workbook(tmp_path / "comments.xlsx", 100), services=services)
    assert comments.pages[0].text.count("> **Comment**") == 40
    assert any("100 comments on one sheet; its first 40 are shown" in w for w in comments.warnings)
    pictures = read_file(hostile.pictures_workbook(tmp_path / "pictures.xlsx", 50), services=services)
    assert len(pictures.pages[0].figures) == 30
    assert any("50 pictures and charts on one sheet; its first 30 are read" in w for w in pictures.warnings)


def test_a_document_too_long_to_lay_out_is_paged_as_text(tmp_path, services, monkeypatch):
    monkeypatch.setattr(word_pages, "MAX_LAID_OUT_PAGES", 20)
    reading = read_file(hostile.sections_document(tmp_path / "sections.docx", 30), services=services)
    assert reading.pdf is None and text_of(reading).count("Part.") == 30
    assert any("too long to lay out (some 31 pages; at most 20 are)" in w for w in reading.warnings)


def test_a_document_of_more_blocks_than_a_reading_takes_is_read_up_to_them_and_says_so(tmp_path, services, monkeypatch):
    monkeypatch.setattr(walker, "MAX_BLOCKS", 10)
    reading = read_file(hostile.paragraphs_document(tmp_path / "paragraphs.docx", 30), services=services)
    assert text_of(reading).count("Word.") == 10
    assert any("paragraphs and tables past the 10th (of 31) are left out" in w for w in reading.warnings)


def test_a_table_merged_past_its_bound_keeps_its_first_rows_and_the_text_after_it(tmp_path, services, monkeypatch):
    monkeypatch.setattr(walker, "MAX_TABLE_CHARS", 30_000)
    reading = read_file(hostile.merged_cells_document(tmp_path / "merged.docx", 30, 10), services=services)
    assert "After the table." in text_of(reading)
    assert any("a table's rows 1–7 of 30 shown" in w for w in reading.warnings)


def test_tables_and_an_equation_nested_too_deep_cost_only_themselves(tmp_path, services):
    tables = read_file(hostile.nested_tables_document(tmp_path / "tables.docx", 100), services=services)
    text = text_of(tables)
    assert "Before the tables." in text and "After the tables." in text and "Level 40." in text
    assert text.count("in the table above:") < 100  # each nested table once: a table round it passes it on
    assert any("each with all it holds: 1 table." in warning for warning in tables.warnings)
    equation = read_file(hostile.deep_equation_document(tmp_path / "equation.docx", 10_000), services=services)
    assert text_of(equation) == "Before the equation.\n\nAfter."
    assert any("each with all it holds: 1 equation." in warning for warning in equation.warnings)


def test_a_slide_whose_groups_nest_too_deep_keeps_its_other_shapes(tmp_path, services):
    reading = read_file(hostile.nested_groups_deck(tmp_path / "groups.pptx"), services=services)
    assert reading.pages[0].text == "Kept text."
    assert any("each with all it holds: 1 element." in warning for warning in reading.warnings)


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16"])
def test_strict_ooxml_text_comes_back_as_written(tmp_path, services, encoding):
    path = hostile.strict_text_document(tmp_path / f"strict-{encoding}.docx", STRICT, encoding)
    reading = read_file(path, services=services)
    assert text_of(reading) == f"The namespace {STRICT_NAME} stays as written.\n\nSome text"


def test_a_page_and_the_warnings_are_bounded_and_say_so(tmp_path, services, monkeypatch):
    monkeypatch.setattr(core_module, "MAX_PAGE_CHARS", 1_000)
    monkeypatch.setattr(core_module, "MAX_WARNINGS", 3)
    monkeypatch.setattr(email_module, "MAX_RECIPIENTS", 0)
    reading = read_file(hostile.subject_msg(tmp_path / "subject.msg", 5_000), services=services)
    assert len(reading.pages[0].text) < 1_100 and "more characters left out]" in reading.pages[0].text
    assert any("more than a model reads at once: its first 1,000 are shown" in w for w in reading.warnings)
    assert len(reading.warnings) <= 3


def test_special_files_are_named_as_what_they_are(tmp_path, services):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for path, what in ((fifo, "a named pipe"), (Path("/dev/zero"), "a device")):
        with pytest.raises(ReaderError) as caught:
            read_file(path, services=services)
        assert (
            caught.value.code == "UNSUPPORTED_FORMAT"
            and f"is not a regular file (it is {what})" in caught.value.message
        )


def test_libreoffice_runs_under_its_memory_ceiling(tmp_path, services):
    read_file(CORPUS / "markitdown/test.docx", services=services)
    pid = libreoffice.running_pid()
    limits = Path(f"/proc/{pid}/limits").read_text()
    soft = next(line.split()[3] for line in limits.splitlines() if line.startswith("Max address space"))
    assert int(soft) == libreoffice.OFFICE_MEMORY
    assert resource.getrlimit(resource.RLIMIT_AS)[0] != libreoffice.OFFICE_MEMORY  # the reader's own is untouched


def test_an_error_naming_an_object_names_the_data_instead():
    assert described(OSError("cannot identify image file <_io.BytesIO object at 0x7f3a2b1c0d90>")) == (
        "OSError: cannot identify image file the data"
    )


def test_a_picture_past_pillows_warning_is_drawn_small_without_the_warning(tmp_path, recwarn):
    picture = hostile.bitmap_bomb(tmp_path / "poster.bmp")
    result = ocr_image(picture.read_bytes(), "image/bmp")
    assert not any("DecompressionBomb" in type(warning.message).__name__ for warning in recwarn)
    assert isinstance(result, str) or len(result) < 1 << 20


def test_a_strict_package_renames_names_only(tmp_path):
    from readers.intake.strict import transitional

    part = (
        '<w:document xmlns:w="http://purl.oclc.org/ooxml/wordprocessingml/main"><w:body><w:p><w:r>'
        f'<w:t a="{STRICT_NAME}">{STRICT_NAME}</w:t></w:r></w:p></w:body></w:document>'
    )
    renamed = transitional(part.encode("utf-16")).decode("utf-16")
    assert 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"' in renamed
    assert renamed.count(STRICT_NAME) == 2  # the text and an attribute's value, as written
    with zipfile.ZipFile(STRICT) as package:
        assert b"officeDocument/2006/relationships/officeDocument" in transitional(package.read("_rels/.rels"))
