"""Figures: found on every page, read by local OCR with nothing configured, cached, and contained
when they fail. (Vision-model call counts are in test_vision.py.)"""

from __future__ import annotations

import os
import subprocess
import sys

import pdfplumber
import pytest

from readers import ReadOptions, Services, read_file
from readers.notices import Code
from readers.pdf.figures import OCR_MAX_SIDE, find_figures
from readers.pdf.pages import is_table
from readers.storage.descriptions import DescriptionCache
from testkit import CORPUS, ROOT, fixtures, make_settings
from tests.model_output import assert_has_lines, assert_lines, assert_recall, assert_says, words


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("figures")


@pytest.fixture(scope="module")
def figures_pdf(folder):
    return fixtures.figures_pdf(folder / "figures.pdf")


@pytest.fixture(scope="module")
def ocr(folder) -> Services:
    """Nothing configured: ``auto`` falls back to local OCR."""
    return Services(make_settings(folder / "cache", vision_provider="auto"))


@pytest.fixture(scope="module")
def read_with_ocr(figures_pdf, ocr):
    return read_file(figures_pdf, services=ocr)


def test_each_kind_of_figure_is_found_with_its_box_and_caption(figures_pdf):
    with pdfplumber.open(figures_pdf) as pdf:
        found = [find_figures(page, []) for page in pdf.pages]
    assert [[figure["kind"] for figure in page] for page in found] == [
        ["picture"],
        ["drawing"],
        [],
        ["picture"],
        ["scan"],
        [],
    ]
    picture = found[0][0]
    left, top, right, bottom = picture["box"]
    assert (left, right) == pytest.approx((108 / 612, 504 / 612), abs=0.002)  # where the fixture put it
    assert (top, bottom) == pytest.approx(((792 - 576) / 792, (792 - 330) / 792), abs=0.002)
    assert picture["caption"] == fixtures.CAPTION and not picture["has_text"]
    assert found[1][0]["has_text"], "the chart's labels are real text"
    scan = found[4][0]  # one picture and nothing else: read as that picture, where the fixture put it
    shown = (612 - 72) * 500 / 1700
    assert scan["box"] == pytest.approx([36 / 612, (300 - shown) / 792, 576 / 612, 300 / 792], abs=0.002)


def test_a_blank_page_is_no_scan_and_a_damaged_image_size_costs_nothing(tmp_path, ocr):
    from reportlab.lib.pagesizes import letter
    from reportlab.pdfgen import canvas

    from readers.notices import Described

    path = tmp_path / "blank.pdf"
    pdf = canvas.Canvas(str(path), pagesize=letter)
    pdf.drawString(72, 700, "A page with a picture whose width is a name.")
    pdf.drawImage(str(CORPUS / "python-docx/images/python-icon.jpeg"), 72, 300, 300, 300)
    pdf.showPage()
    pdf.showPage()  # blank
    pdf.save()
    data = path.read_bytes()
    assert data.count(b"/Width 204") == 1
    path.write_bytes(data.replace(b"/Width 204", b"/Width /Fo"))  # same length: the offsets hold
    reading = read_file(path, services=ocr)
    assert "A page with a picture whose width is a name." in reading.pages[0].text and reading.pages[0].error is None
    assert [figure.kind for figure in reading.pages[0].figures] == ["picture"]
    blank = reading.pages[1]
    assert blank.figures == [] and blank.description is None and blank.described == Described.TEXT_ONLY
    assert not any("Page 2" in warning for warning in reading.warnings) and reading.usage.calls_saved == 1


def test_tables_rules_and_prose_are_not_figures():
    for name in (
        "markitdown/test.pdf",
        "pdfplumber/issue-140-example.pdf",
        "pdfplumber/nics-background-checks-2015-11.pdf",
    ):
        with pdfplumber.open(CORPUS / name) as pdf:
            page = pdf.pages[0]
            tables = [table.bbox for table in page.find_tables() if is_table(table.extract())]
            assert find_figures(page, tables) == [], name


def test_with_nothing_configured_a_text_only_model_gets_the_text_in_each_figure(read_with_ocr):
    pages = read_with_ocr.pages
    tree = pages[0].description
    assert tree.startswith(
        f'Figure 1 (picture, middle of the page; caption: "{fixtures.CAPTION}"), text found in it by OCR:\n'
    )
    assert_lines(tree.split(":\n", 1)[1], fixtures.DECISION_TREE)  # the figure's lines stay lines
    assert pages[1].description == (
        "Figure 1 (drawing, middle of the page): a chart (bar, 1 series); its data is in the page's text, as a table."
    )
    assert "| Q2 | 340 |\n| Q3 | 910 |\n| Q4 | 650 |" in pages[1].text  # Q1 sits on the axis' low end: no bar is drawn
    assert words(fixtures.ROTATED_LABEL) in [words(line) for line in pages[3].description.splitlines()], pages[
        3
    ].description
    assert pages[4].description == "A scanned page with no text layer: its text above was read by local OCR."
    assert_lines(pages[4].text, fixtures.SCANNED_LINES)  # a scanned page's text is its OCR
    for page in (pages[2], pages[5]):  # text only, and a logo below the size floor
        assert page.description is None and page.description_source == "none: text only"
    assert all(page.description_source == "ocr" for page in pages if page.description)
    usage = read_with_ocr.usage
    assert (usage.calls, usage.calls_saved, usage.cache_hits) == (3, 2, 0), (
        "three figures OCRed, the drawing's labels are text"
    )
    text = read_with_ocr.as_text()
    assert "[PAGE 1 - VISUAL CONTENT]\nFigure 1 (picture" in text and "[PAGE 3 - VISUAL CONTENT]" not in text


def test_a_second_read_runs_no_ocr(read_with_ocr, figures_pdf, ocr, folder):
    renamed = folder / "renamed.pdf"
    renamed.write_bytes(figures_pdf.read_bytes())
    again = read_file(renamed, services=ocr)
    assert (again.usage.calls, again.usage.cache_hits) == (0, 3)
    assert [page.description for page in again.pages] == [page.description for page in read_with_ocr.pages]
    assert again.pages[0].description_source == "ocr (cached)"


def test_public_mode_does_not_count_ocr_against_a_visitors_limit(read_with_ocr, figures_pdf, folder):
    """The limit is on calls to a vision API: local OCR costs nobody anything."""
    public = Services(
        make_settings(folder / "cache", vision_provider="ocr", public=True, vision_calls_per_minute=1),
        cache=DescriptionCache(folder / "public-descriptions"),
    )  # the renders are cached, the OCR runs again
    reading = read_file(figures_pdf, options=ReadOptions(visitor="203.0.113.9"), services=public)
    assert reading.usage.calls == 3 and not any(page.error for page in reading.pages)
    assert [page.description for page in reading.pages] == [page.description for page in read_with_ocr.pages]


def test_a_figure_that_fails_is_named_on_its_page_and_nothing_else_is_lost(figures_pdf, folder):
    """The file disappears after its pages are read (an upload cleaned away mid-read): the
    figures cannot be rendered for OCR. Page 1's figure was read before and comes from the cache."""
    services = Services(make_settings(folder / "failing-cache", vision_provider="ocr"))
    doomed = folder / "doomed.pdf"
    doomed.write_bytes(figures_pdf.read_bytes())
    read_file(doomed, 1, 1, services=services)

    def vanish(stage, done, total):
        if stage == "rendered" and done == total:
            doomed.unlink(missing_ok=True)

    reading = read_file(doomed, services=services, progress=vanish)
    first, _, _, turned, scan, _ = reading.pages
    assert first.error is None
    assert_lines(first.description.split(":\n", 1)[1], fixtures.DECISION_TREE)
    for page in (turned, scan):
        assert (
            page.error.startswith("Local OCR could not read figure 1 (")
            and "The page's text and its other figures are kept." in page.error
        )
        assert page.image, "the page keeps its render"
    assert "Regional figures" in turned.text and "local OCR could not read it." in turned.description
    assert any(
        warning.startswith("Page 4 of doomed.pdf: Local OCR could not read figure 1") for warning in reading.warnings
    )
    doomed.write_bytes(figures_pdf.read_bytes())
    again = read_file(doomed, services=services)
    assert again.pages[3].error is None, "a failure is never cached"
    assert_says(again.pages[3].description, fixtures.ROTATED_LABEL)


def test_pictures_in_word_files_and_slides_are_read(folder, ocr):
    made = fixtures.office_with_pictures(folder)
    for kind, path in made.items():
        reading = read_file(path, services=ocr)
        (page,) = reading.pages
        assert [figure.kind for figure in page.figures] == ["picture"], kind
        assert_has_lines(page.description, fixtures.PICTURE_LINES)
    assert "Figure 1: The board's decisions." in read_file(made["docx"], services=ocr).pages[0].description


def test_a_huge_embedded_picture_is_scaled_down_not_refused(folder, ocr):
    pdf = fixtures.huge_picture_pdf(folder / "huge.pdf")
    reading = read_file(pdf, services=ocr)
    (picture,) = reading.pages[0].figures
    assert_lines(reading.pages[0].description.split(":\n", 1)[1], fixtures.PICTURE_LINES)
    with pdfplumber.open(pdf) as document:
        (found,) = find_figures(document.pages[0], [])
    assert found["dpi"] * 4 <= OCR_MAX_SIDE, "rendered within the OCR size, not at the picture's own 1750 dpi"


def test_ocr_word_recall_on_scans_of_text_pages(folder, ocr):
    """Scans made from pages that have a text layer, upright and turned (sideways, upside down):
    OCR must find at least 95% of their words."""
    for name, dpi, angle in (
        ("markitdown/test.pdf", 150, 0),
        ("pdfplumber/issue-140-example.pdf", 100, 90),
        ("pdfplumber/issue-140-example.pdf", 100, 180),
    ):
        scan = fixtures.turned_scan_pdf(folder / f"scan-{dpi}-{angle}.pdf", CORPUS / name, angle, dpi)
        truth = read_file(CORPUS / name, services=Services(make_settings(folder / "text"))).pages[0].text
        assert_recall(read_file(scan, services=ocr).pages[0].text, truth, 0.95)


def test_ocr_reads_with_no_network_at_all(tmp_path):
    """In an empty network namespace (no interface, not even loopback) OCR still reads: its
    models come from the installed package, never from a download."""
    picture = tmp_path / "sign.png"
    fixtures.text_picture(["INVOICE 4711"], size=(600, 120)).save(picture)
    code = f"from readers.describe.ocr import read_text; print(read_text(open({str(picture)!r}, 'rb').read()))"
    result = subprocess.run(
        ["unshare", "--net", sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "HOME": str(tmp_path)},
    )
    assert result.returncode == 0, result.stderr
    assert_lines(result.stdout, ["INVOICE 4711"])


def test_a_question_to_ocr_says_how_to_get_answers(figures_pdf, ocr):
    reading = read_file(figures_pdf, 6, 6, describe="What does the chart show?", services=ocr)
    assert reading.as_text() == read_file(figures_pdf, 6, 6, services=ocr).as_text()
    assert [(notice.code, "cannot answer questions such as" in notice.text) for notice in reading.notices] == [
        (Code.PART_OF_FILE, False),  # page 6 of a longer file
        (Code.NOT_ANSWERED, True),
    ]
    assert 'questions such as "What does the chart show?"' in reading.notices[1].text
