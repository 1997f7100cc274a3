"""What each new format promises beyond its text: sheet images, recalculated formulas, cut sheets,
web pages printed with nothing fetched, sections of containers and their limits."""

from __future__ import annotations

import datetime
import http.server
import io
import os
import re
import shutil
import tempfile
import threading
import zipfile

import openpyxl
import pytest
from PIL import Image

from readers import ReaderError, read_file
from readers.intake.members import MAX_MEMBERS
from readers.markup.html import decode_html, html_markdown
from readers.markup.markdown import markdown_blocks
from readers.markup.text import PAGE_CHARS
from readers.office import sheets
from readers.office.numbers import display
from readers.render.placement import blocks_on_pages
from readers.services import Services
from readers.storage.files import PRINTED
from testkit import CORPUS, fixtures, make_settings

needs_libreoffice = pytest.mark.skipif(
    shutil.which("soffice") is None, reason="needs LibreOffice (make setup installs it)"
)
needs_chromium = pytest.mark.skipif(shutil.which("chromium") is None, reason="needs Chromium (make setup installs it)")


def refused(path, code: str, services: Services) -> ReaderError:
    with pytest.raises(ReaderError) as caught:
        read_file(path, services=services)
    assert caught.value.code == code, caught.value.message
    return caught.value


@pytest.mark.parametrize(
    "value, code, shown",
    [
        (1234.5, "#,##0.00", "1,234.50"),
        (0.256, "0.0%", "25.6%"),
        (-1234.5, "#,##0.00;(#,##0.00)", "(1,234.50)"),
        (1234.5, '"$"#,##0.00', "$1,234.50"),
        (1234.5, "[$€-407] #,##0.00", "€ 1,234.50"),
        (0.000123, "0.00E+00", "1.23E-04"),
        (0, "0.00E+00", "0.00E+00"),
        (1.5, "0.##", "1.5"),
        (12, "00000", "00012"),
        (1, r"\1\.0#", "1.01"),  # the whole part's digits take its rightmost placeholders; a 0 left over shows
        (0.5, "#.00", ".50"),
        (2.5, "0", "3"),  # half away from zero, as Excel rounds
        (0.125, "#,##0.00", "0.13"),
        (0, '#,##0;-#,##0;"-"', "-"),
        (3, '0 "kg"', "3 kg"),
        (-5, "[Red]0", "-5"),
        (67.85587922123, "General", "67.85587922"),
        (42.0, "General", "42"),
        (True, "General", "TRUE"),
        ("text", "@", "text"),
        (datetime.datetime(2024, 3, 31, 14, 5), "d/m/yy h:mm AM/PM", "31/3/24 2:05 PM"),
        (datetime.date(2024, 3, 31), "mmm d, yyyy", "Mar 31, 2024"),
        (datetime.time(14, 5, 9), "hh:mm:ss", "14:05:09"),
        (45382, "yyyy-mm-dd", "2024-03-31"),
    ],
)
def test_cells_show_what_a_person_sees(value, code, shown):
    assert display(value, code) == shown


@needs_libreoffice
def test_each_sheet_with_content_has_its_calc_image(tmp_path):
    services = Services(make_settings(tmp_path / "cache"))
    reading = read_file(fixtures.workbook(tmp_path / "book.xlsx"), services=services, multimodal=True)
    revenue, costs, empty = reading.pages
    assert (
        revenue.image and costs.image and empty.image is None
    )  # the hidden sheet is drawn too; the empty one has nothing to draw
    with Image.open(io.BytesIO(revenue.image)) as image:
        assert image.format == "PNG" and image.width > image.height > 100  # the table and the chart beside it
    assert [part["type"] for part in reading.as_messages("openai")] == [
        "text",
        "image_url",
        "text",
        "image_url",
        "text",
    ]
    assert any("LibreOffice calculated them" in warning for warning in reading.warnings)


def test_without_libreoffice_formulas_are_shown_and_said(tmp_path, monkeypatch):
    from readers.render import libreoffice as office

    monkeypatch.setattr(office, "soffice", lambda: None)
    reading = read_file(fixtures.workbook(tmp_path / "book.xlsx"), services=Services(make_settings(tmp_path / "cache")))
    assert "| Total | =SUM(B3:B4) | =SUM(C3:C4) | =D3+D4 |" in reading.as_text()
    assert any("formulas are shown instead" in warning and "LibreOffice" in warning for warning in reading.warnings)
    assert all(page.image is None for page in reading.pages)


def test_a_long_sheet_is_cut_and_says_so(tmp_path):
    reading = read_file(
        fixtures.long_workbook(tmp_path / "long.xlsx", rows=2500), services=Services(make_settings(tmp_path / "cache"))
    )
    assert reading.pages[0].text.startswith("# Log\n(rows 1–500 of 2,500 shown)\n\n| Row | Value |")
    assert reading.pages[0].tables[0].count("\n") == 500  # header, rule and 499 rows
    assert "long.xlsx, sheet 1: rows 1–500 of 2,500 shown." in reading.warnings


def test_a_wide_sheet_is_cut_and_says_so(tmp_path):
    book = openpyxl.Workbook()
    for row in range(1, 4):
        book.active.cell(row, 1, f"row {row}")
    book.active["XFD1"] = "far away"  # a stray cell would make every row 16,384 cells wide
    book.save(tmp_path / "wide.xlsx")
    reading = read_file(tmp_path / "wide.xlsx", services=Services(make_settings(tmp_path / "cache")))
    assert reading.pages[0].text.startswith("# Sheet\n(columns A–GR of A–XFD shown)\n\n| row 1 |")
    assert "row 3" in reading.as_text() and "far away" not in reading.as_text()
    assert "wide.xlsx, sheet 1: columns A–GR of A–XFD shown." in reading.warnings


def test_a_date_openpyxl_cannot_hold_is_shown_as_an_error_and_said_so_not_printed(tmp_path, recwarn):
    book = openpyxl.Workbook()
    book.active["A1"], book.active["B1"] = "When", 1e9
    book.active["B1"].number_format = "yyyy-mm-dd"  # a billion days: past Excel's last date
    book.save(tmp_path / "date.xlsx")
    reading = read_file(tmp_path / "date.xlsx", services=Services(make_settings(tmp_path / "cache")))
    assert reading.pages[0].text == "# Sheet\n\n| When | #VALUE! |\n|---|---|"
    assert reading.warnings == [
        "Part of date.xlsx could not be read: Cell B1 is marked as a date but the serial value 1000000000 is "
        "outside the limits for dates. The cell will be treated as an error."
    ]
    assert not [str(warning.message) for warning in recwarn]  # openpyxl's own warning, given twice, is not printed


def test_a_chart_pointing_far_past_its_data_adds_no_rows(tmp_path, monkeypatch):
    from openpyxl.chart import BarChart, Reference

    from readers.render import libreoffice as office

    monkeypatch.setattr(office, "soffice", lambda: None)
    book = openpyxl.Workbook()
    book.active.title = "Summary"
    data = book.create_sheet("Data")
    for row in range(1, 6):
        data.append([f"Q{row}", row * 10])
    chart = BarChart()
    chart.title = "Quarters"
    chart.add_data(Reference(data, min_col=2, max_col=2, min_row=1, max_row=20000))
    book.active.add_chart(chart, "A1")
    book.save(tmp_path / "far.xlsx")
    reading = read_file(tmp_path / "far.xlsx", services=Services(make_settings(tmp_path / "cache")))
    assert not any("shown" in warning for warning in reading.warnings)  # Data keeps its 5 rows, not 20,000
    chart = next(block for block in reading.pages[0].blocks if block.kind == "chart")
    assert "| Q5 | 50 |" in reading.pages[1].tables[0] and chart.text.endswith("| 5 | 50 |")
    assert [cell.text for cell in chart.rows[-1]] == ["5", "50"]


def test_a_long_csv_is_cut_and_says_so(tmp_path):
    reading = read_file(
        fixtures.big_csv(tmp_path / "big.csv", rows=3000), services=Services(make_settings(tmp_path / "cache"))
    )
    assert "big.csv: rows 1–500 of 3,000 shown." in reading.warnings
    assert reading.pages[0].tables[0].count("\n") == 500


def test_the_sheet_extraction_is_cached_by_content(tmp_path, monkeypatch):
    services = Services(make_settings(tmp_path / "cache"))
    path = fixtures.long_workbook(tmp_path / "long.xlsx")
    first = read_file(path, services=services)
    renamed = tmp_path / "renamed.xlsx"
    shutil.copy(path, renamed)
    monkeypatch.setattr(sheets, "_extract", lambda job: pytest.fail("the workbook was parsed again"))
    again = read_file(renamed, services=services)
    assert again.as_text() == first.as_text()
    assert "renamed.xlsx, sheet 1: rows 1–500 of 1,200 shown." in again.warnings  # warnings name the file read now


class _Tracker(http.server.BaseHTTPRequestHandler):
    hits: list[str] = []

    def do_GET(self):  # noqa: N802 - the name http.server calls
        self.hits.append(self.path)
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"body { background: red }")

    def log_message(self, *args):
        pass


@needs_chromium
def test_a_web_page_is_printed_without_fetching_anything(tmp_path):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Tracker)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    tracker = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        page = fixtures.web_page(tmp_path / "page.html", tracker=tracker)
        reading = read_file(page, services=Services(make_settings(tmp_path / "cache")), multimodal=True)
        assert reading.pages[0].image.startswith(b"\x89PNG")
        assert "# Ducks of Europe" in reading.pages[0].text and not reading.warnings
        import urllib.request

        urllib.request.urlopen(f"{tracker}/control").read()  # the tracker itself answers when asked
    finally:
        server.shutdown()
    assert _Tracker.hits == ["/control"], "the page fetched something while it was read"


@needs_chromium
def test_a_long_page_spreads_its_markdown_over_the_printed_pages(shared_services):
    reading = read_file(CORPUS / "docling/formats/wiki_duck.html", services=shared_services, multimodal=True)
    assert reading.page_count > 5 and all(page.image for page in reading.pages)
    etymology = next(page.number for page in reading.pages if "## Etymology" in page.text)
    see_also = next(page.number for page in reading.pages if "## See also" in page.text)
    assert 1 < etymology < see_also
    assert (
        sum(bool(page.text) for page in reading.pages) > 5
    )  # the article's text is on the pages that print it, not all on the first
    assert reading.warnings == []  # the text comes from the HTML: glyphs of the print that map to nothing are no loss
    menus = [page.number for page in reading.pages if page.empty]  # the contents box, the 136 languages
    assert len(menus) >= 3 and not EMPTY_PAGE.search(reading.as_text())
    assert all(f"[PAGE {number}]" not in reading.as_text() for number in menus)  # no page of the payload
    printed = [block for page in reading.pages for block in page.blocks if block.kind not in ("figure", "furniture")]
    assert sum(bool(block.box) for block in printed) > 0.9 * len(printed)  # its text found on the print, boxed there
    assert all(0 <= block.box[0] < block.box[2] <= 1 for block in printed if block.box)
    text_only = read_file(CORPUS / "docling/formats/wiki_duck.html", services=shared_services)
    shown = read_file(CORPUS / "docling/formats/wiki_duck.html", services=shared_services, images=True)
    assert [page.text for page in shown.pages] == [page.text for page in text_only.pages]  # the app's are the API's
    assert text_only.pdf is None and len(text_only.pages) != len(reading.pages)  # a text-only model's: not printed


EMPTY_PAGE = re.compile(r"\[PAGE \d+\](?=\n\n\[|\Z)")  # a page label with nothing under it


@needs_chromium
def test_a_printed_page_with_none_of_the_main_content_is_no_page_of_the_payload(tmp_path, shared_services):
    reading = read_file(fixtures.long_web_page(tmp_path / "almanac.html"), services=shared_services, multimodal=True)
    text = reading.as_text()
    assert not EMPTY_PAGE.search(text)
    sidebar = [page.number for page in reading.pages if page.empty]
    assert len(sidebar) >= 2 and sidebar == list(
        range(2, reading.page_count)
    )  # the sidebar's pages, between the article's halves
    assert "[PAGE 1]" in text and f"[PAGE {reading.page_count}]" in text
    assert all(f"[PAGE {number}]" not in text for number in sidebar)
    assert (
        reading.pages[0].text.startswith("# Pond almanac\n\nSpring note 1:")
        and "Autumn note 6:" in reading.pages[-1].text
    )
    assert "Pond number" not in text and all(
        page.image for page in reading.pages
    )  # the sidebar is in the images, not the text


def test_markdown_blocks_go_to_the_page_that_prints_them_with_their_boxes_there(tmp_path):
    from reportlab.pdfgen import canvas

    printed = [
        [(72, 750, "Menu"), (72, 700, "Title"), (72, 650, "First paragraph about ducks.")],
        [(72, 700, "A"), (144, 700, "B"), (72, 680, "1"), (144, 680, "2")],
        [(72, 700, "Last words here."), (72, 40, "Footer")],
    ]
    pdf = canvas.Canvas(str(tmp_path / "printed.pdf"), pagesize=(612, 792))
    for page in printed:
        for x, y, text in page:
            pdf.drawString(x, y, text)
        pdf.showPage()
    pdf.save()
    markdown = (
        "# Title\n\nFirst paragraph about [ducks](https://x).\n\n| A | B "
        "|\n|---|---|\n| 1 | 2 |\n\nUnprinted note\n\nLast words here."
    )
    pages = blocks_on_pages(markdown_blocks(markdown), tmp_path / "printed.pdf")
    assert [[block.text for block in page] for page in pages] == [
        ["# Title", "First paragraph about [ducks](https://x)."],
        ["| A | B |\n|---|---|\n| 1 | 2 |", "Unprinted note"],
        ["Last words here."],
    ]
    title, paragraph = pages[0]
    assert title.box[1] < paragraph.box[1] and 90 / 792 < paragraph.box[1] < paragraph.box[3] < 150 / 792
    assert pages[1][0].box[0] < 73 / 612 and pages[1][0].box[2] > 144 / 612  # the table's cells, both columns
    assert pages[1][1].box is None  # a block the print does not show has no box


def test_without_chromium_a_web_page_read_for_its_images_is_its_text_with_a_warning(tmp_path, monkeypatch):
    from readers.render import browser

    monkeypatch.setattr(browser, "chromium", lambda: None)
    services = Services(make_settings(tmp_path / "cache"))
    reading = read_file(fixtures.web_page(tmp_path / "page.html"), services=services, multimodal=True)
    assert reading.page_count == 1 and reading.pages[0].image is None and "| Germany | 320,000 |" in reading.as_text()
    assert any("Chromium is not installed" in warning for warning in reading.warnings)


def test_a_web_page_read_as_text_only_is_not_printed_but_paged_at_its_blocks(tmp_path):
    """Text only, the blocks are the reading: no print (which costs 20 times the reading), pages of whole
    blocks, a heading on the page of what it heads, and one line that says so; page images asked for (the
    app's) change none of it."""
    services = Services(make_settings(tmp_path / "cache"))
    reading = read_file(CORPUS / "docling/formats/wiki_duck.html", services=services, images=True)
    assert not services.store.path(reading.sha256, PRINTED).exists() and reading.pdf is None
    texts = [page.text for page in reading.pages]
    assert reading.page_count == len(texts) > 5
    held = [[block for block in page.blocks if block.kind != "heading"] for page in reading.pages]
    assert all(len(text) <= PAGE_CHARS or len(blocks) == 1 for text, blocks in zip(texts, held)), [
        len(text) for text in texts
    ]  # a page within the budget, or one block (under its headings) longer than a page
    assert not any(page.blocks[-1].kind == "heading" for page in reading.pages[:-1])  # none at a page's foot
    source = CORPUS / "docling/formats/wiki_duck.html"
    whole = html_markdown(decode_html(source.read_bytes(), source.name, []), main_content=True)
    assert " ".join(texts).split() == whole.split()  # every word, in order, none cut in two
    assert [warning for warning in reading.warnings if "without printing it" in warning] == [
        reading.warnings[0]
    ] and "(multimodal)" in reading.warnings[0]
    printed = read_file(CORPUS / "docling/formats/wiki_duck.html", services=services, multimodal=True)
    assert printed.pdf is not None and not any("without printing it" in warning for warning in printed.warnings)


def test_archive_pages_carry_their_member_and_are_numbered_across_the_archive(tmp_path):
    bundle = fixtures.archive(
        tmp_path / "bundle.zip", {"a.md": b"# A\n", "sub/b.csv": b"x,y\n1,2\n", "c.txt": b"C text\n"}
    )
    reading = read_file(bundle, services=Services(make_settings(tmp_path / "cache")))
    assert [(page.number, page.section) for page in reading.pages] == [(1, "a.md"), (2, "sub/b.csv"), (3, "c.txt")]
    assert reading.as_text() == (
        "[FILE: a.md]\n\n[PAGE 1]\n# A\n\n[FILE: sub/b.csv]\n\n[PAGE 2]\n| "
        "x | y |\n|---|---|\n| 1 | 2 |\n\n[FILE: c.txt]\n\n[PAGE 3]\nC text"
    )
    reading.multimodal = True
    assert reading.as_messages()[1]["text"].startswith("[FILE: sub/b.csv]\n\n[PAGE 2]")


def test_member_names_are_never_paths_on_disk(tmp_path, monkeypatch):
    work = tmp_path / "tmp"
    work.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(work))
    names = {
        "../escape.txt": b"up one\n",
        "/etc/absolute.txt": b"absolute\n",
        "../../deeper/escape2.txt": b"up two\n",
        "ok.txt": b"fine\n",
    }
    reading = read_file(
        fixtures.archive(tmp_path / "evil.zip", names), services=Services(make_settings(tmp_path / "cache"))
    )
    assert [page.section for page in reading.pages] == list(names)
    assert "up one" in reading.as_text() and "absolute" in reading.as_text()
    assert os.listdir(work) == []  # the private folder the members were read in is gone
    written = {path.name for path in tmp_path.parent.parent.rglob("*")} | set(os.listdir("/etc"))
    assert not written & {"escape.txt", "absolute.txt", "escape2.txt", "deeper"}


def test_a_failed_member_is_reported_on_its_own_and_the_others_are_read(tmp_path):
    bundle = fixtures.archive(
        tmp_path / "mixed.zip",
        {
            "good.txt": b"fine\n",
            "secret.txt": b"hidden\n",
            "cut.docx": (CORPUS / "markitdown/test.docx").read_bytes()[:2000],
            "empty.txt": b"",
            "last.md": b"# Still read\n",
        },
    )
    fixtures.mark_encrypted(bundle, "secret.txt")
    reading = read_file(bundle, services=Services(make_settings(tmp_path / "cache")))
    pages = {page.section: page for page in reading.pages}
    assert pages["good.txt"].text.strip() == "fine" and "# Still read" in pages["last.md"].text
    assert "secret.txt is encrypted inside mixed.zip" in pages["secret.txt"].error
    assert "cut.docx" in pages["cut.docx"].error and "damaged" in pages["cut.docx"].error
    assert "empty.txt is empty" in pages["empty.txt"].error
    assert len(reading.warnings) == 3


def test_an_archive_over_the_member_limit_is_refused_before_inflating(tmp_path, services):
    bundle = fixtures.archive(tmp_path / "many.zip", {f"file-{index}.txt": b"x" for index in range(MAX_MEMBERS + 1)})
    assert f"holds {MAX_MEMBERS + 1} files" in refused(bundle, "FILE_TOO_LARGE", services).message


def test_a_zip_bomb_is_refused_before_inflating(tmp_path, services, monkeypatch):
    bomb = fixtures.zip_bomb(tmp_path / "bomb.zip")
    assert bomb.stat().st_size < 5 * 1024 * 1024
    opened, open_member = [], zipfile.ZipFile.open
    monkeypatch.setattr(
        zipfile.ZipFile,
        "open",
        lambda archive, member, *args, **kwargs: opened.append(member) or open_member(archive, member, *args, **kwargs),
    )
    assert "500 MB" in refused(bomb, "FILE_TOO_LARGE", services).message
    assert opened == [], "no member is inflated"


def test_three_levels_of_nesting_are_read_and_a_fourth_is_refused_alone(tmp_path, services):
    three = read_file(fixtures.nested_archive(tmp_path / "three.zip", 3, {"deep.txt": b"bottom\n"}), services=services)
    assert three.pages[0].section == "level-2.zip/level-3.zip/deep.txt" and "bottom" in three.pages[0].text
    four = read_file(fixtures.nested_archive(tmp_path / "four.zip", 4, {"deep.txt": b"bottom\n"}), services=services)
    assert four.page_count == 1 and four.pages[0].section == "level-2.zip/level-3.zip/level-4.zip"
    assert "at most 3 levels are read" in four.pages[0].error and "bottom" not in four.as_text()


def test_nested_archives_share_the_member_limit(tmp_path, services):
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w") as bundle:
        for index in range(60):
            bundle.writestr(f"inner-{index}.txt", "x")
    outer = fixtures.archive(
        tmp_path / "outer.zip", {**{f"outer-{index}.txt": b"y" for index in range(45)}, "inner.zip": inner.getvalue()}
    )
    reading = read_file(outer, services=services)
    assert reading.page_count == 46
    assert "inner.zip holds 60 files" in reading.pages[-1].error and "54 left" in reading.pages[-1].error


def test_an_email_reads_its_attachments_within_the_same_limits(tmp_path, services):
    message = fixtures.mail(tmp_path / "many.eml", {f"note-{index}.txt": b"n" for index in range(MAX_MEMBERS + 1)})
    assert f"holds {MAX_MEMBERS + 1} files" in refused(message, "FILE_TOO_LARGE", services).message
    forwarded = fixtures.mail(
        tmp_path / "forward.eml", {"original.eml": (CORPUS / "docling/formats/eml_simple.eml").read_bytes()}
    )
    reading = read_file(forwarded, services=services)
    assert [page.section for page in reading.pages] == [None, "original.eml"]
    assert "This is a simple email body." in reading.pages[1].text


def test_an_ebook_chapter_its_file_lacks_costs_only_itself_and_an_html_chapter_is_read(tmp_path, services):
    """The spine of fixtures.ebook names chapter 2, which this copy lacks, and chapter 3 listed as
    text/html (as older books list XHTML): the book is read, chapter 2 named in a warning."""
    source = fixtures.ebook(tmp_path / "pond.epub")
    copy = tmp_path / "gaps.epub"
    with zipfile.ZipFile(source) as book, zipfile.ZipFile(copy, "w") as out:
        for info in book.infolist():
            data = book.read(info).replace(
                b'href="chapter-3.xhtml" media-type="application/xhtml+xml"',
                b'href="chapter-3.xhtml" media-type="text/html"',
            )
            if info.filename != "OEBPS/chapter-2.xhtml":
                out.writestr(info, data)
    reading = read_file(copy, services=services)
    assert reading.page_count == 2 and "# The Duck Pond" in reading.pages[0].text
    assert "# Spring" in reading.pages[0].text and reading.pages[1].text.startswith("# Winter")
    assert reading.warnings == ["gaps.epub lacks files its reading order lists, left out: chapter-2.xhtml."]
