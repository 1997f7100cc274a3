"""Local OCR (rapidocr 3, PP-OCRv6 models inside its wheel): the default describer with nothing configured."""

import io
import re
from concurrent.futures import ThreadPoolExecutor

import pytest
from PIL import Image, ImageDraw, ImageFont

from readers import Services, read_file
from readers.describe import ocr
from readers.describe.ocr import read_text
from readers.markup.tables import table_rows
from testkit import CORPUS, fixtures, make_settings
from tests.model_output import assert_lines, assert_says

SCANNED = CORPUS / "docling" / "ocr_test.pdf"
SENTENCE = "Docling bundles PDF document conversion to JSON and Markdown in an easy self contained package"
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def poster(lines: list[tuple[int, int, str]], size=(560, 400)) -> bytes:
    """A PNG with each ``(x, y, text)`` drawn in 36 pt DejaVu Sans."""
    return drawn(size, [(x, y, 36, text) for x, y, text in lines])


def drawn(size: tuple[int, int], lines: list[tuple[int, int, int, str]], angle: int = 0, font: str = FONT) -> bytes:
    """A white PNG of ``size`` with each ``(x, y, points, text)`` drawn in ``font`` (DejaVu Sans), turned
    ``angle`` degrees counterclockwise."""
    image = Image.new("RGB", size, "white")
    draw = ImageDraw.Draw(image)
    for x, y, points, text in lines:
        draw.text((x, y), text, fill="black", font=ImageFont.truetype(font, points))
    buffer = io.BytesIO()
    image.rotate(angle, expand=True).save(buffer, format="PNG")
    return buffer.getvalue()


@pytest.fixture(scope="module")
def ocr_services(tmp_path_factory) -> Services:
    """Nothing configured: ``auto`` falls back to local OCR."""
    return Services(make_settings(tmp_path_factory.mktemp("ocr"), vision_provider="auto"))


@pytest.fixture(scope="module")
def scanned(ocr_services):
    return read_file(SCANNED, services=ocr_services)


def test_text_comes_out_in_reading_order():
    image = poster([(40, 60, "Quarterly revenue 2024"), (40, 220, "North"), (380, 220, "South")])
    assert_lines(read_text(image), ["Quarterly revenue 2024", "North South"])


@pytest.mark.parametrize("angle", [90, 180, 270])
def test_a_turned_picture_is_read_the_right_way_up(angle):
    lines = [(40, 60, 36, "Quarterly revenue 2024"), (40, 220, 36, "North"), (380, 220, 36, "South")]
    assert_lines(read_text(drawn((560, 400), lines, angle)), ["Quarterly revenue 2024", "North South"])


def test_print_of_any_size_is_found_on_a_large_picture():
    """Detection runs at the scale the print needs: letters 300 px high are shrunk (at full size
    the detector splits them), and small print in a corner of a blank page is found, at full size."""
    assert_lines(read_text(drawn((3000, 2000), [(150, 600, 300, "BIG SALE")])), ["BIG SALE"])
    corner = drawn((2480, 3500), [(1800, 3300, 20, "Page 7 of 12"), (1800, 3340, 20, "Printed 2024-05-01")])
    assert_lines(read_text(corner), ["Page 7 of 12", "Printed 2024-05-01"])


def test_spaces_after_punctuation_and_digits_are_kept(tmp_path, ocr_services):
    """The recogniser leaves out some spaces after a colon or a number in small print; the line's ink
    puts them back, after a note's mark too. On an invoice printed at 72 dpi and on a real paper's page
    scanned at 100 dpi; never
    inside a number, which a CJK font sets as wide as a space (a scanned Chinese customs page)."""
    invoice = ["Date: 12.03.2024", "Subtotal: 83.61 EUR", "TOTAL DUE: 99.50 EUR", "Questions? Call +49 30 1234-567."]
    serif = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"
    text = read_text(drawn((595, 842), [(60, 80 + 16 * row, 10, line) for row, line in enumerate(invoice)], font=serif))
    for spaced in (r"Date\W* 12", r"Subtotal\W* 83", r"DUE\W* 99", r"49 30 1234"):  # a space, whatever the punctuation
        assert re.search(spaced, text), f"no space in {spaced!r}:\n{text}"
    paper = fixtures.turned_scan_pdf(tmp_path / "paper-100dpi.pdf", CORPUS / "docling" / "2305.03393v1-pg9.pdf", 0, 100)
    text = read_file(paper, services=ocr_services).pages[0].text  # a scanned page's text is its OCR
    assert_says(text, "PubTables-1M (about 1M samples)")
    assert_says(text, "TableFormer 9 architecture")  # a note's mark, set small and high, then its word
    customs = read_file(CORPUS / "pdfplumber" / "issue-203-decimalize.pdf", services=ocr_services).pages[0].text
    assert re.search(r"\d\.\d", customs) and not re.search(r"\d[.,:] \d", customs), customs  # no number split


def test_threads_share_one_engine():
    image = poster([(30, 30, "INVOICE")], size=(240, 160))
    with ThreadPoolExecutor(2) as pool:
        first, second = pool.map(read_text, [image] * 2)
    assert first == second
    assert_lines(first, ["INVOICE"])


def test_a_scanned_page_becomes_readable(scanned):
    """A scan has no text layer: its OCR is the page's text, and its description says so without repeating it."""
    page = scanned.pages[0]
    assert_says(page.text, SENTENCE)
    assert page.description == "A scanned page with no text layer: its text above was read by local OCR."
    assert page.description_source == "ocr" and page.error is None
    assert scanned.usage.calls == 1 and scanned.usage.cache_hits == 0
    assert_says(scanned.as_text(), SENTENCE)
    assert scanned.as_text().count("Docling bundles") == 1, "the words are in the page's text once"


def test_a_scanned_page_s_table_is_a_table(tmp_path, ocr_services):
    """A scan of a real claim page: where OCR's boxes line up as a table, the page's text has it as
    one, and so do its tables, as a text layer's would."""
    scan = fixtures.turned_scan_pdf(tmp_path / "claim.pdf", CORPUS / "pdfplumber" / "issue-140-example.pdf", 0, 150)
    page = read_file(scan, services=ocr_services).pages[0]
    assert page.tables and all(table in page.text for table in page.tables)
    assert any(
        sum("CENTRAL KMA" in " ".join(row) and len(row) >= 4 for row in table_rows(table)) >= 4 for table in page.tables
    ), page.text


def test_a_second_read_is_cached(scanned, ocr_services):
    again = read_file(SCANNED, services=ocr_services)
    assert again.pages[0].description == scanned.pages[0].description and again.pages[0].text == scanned.pages[0].text
    assert again.pages[0].description_source == "ocr (cached)"
    assert again.usage.calls == 0 and again.usage.cache_hits == 1


def test_a_question_gets_the_text_and_one_warning_on_how_to_get_answers(scanned, ocr_services):
    reading = read_file(SCANNED, describe="What is the title?", services=ocr_services)
    assert reading.pages[0].description == scanned.pages[0].description and reading.as_text() == scanned.as_text()
    (hint,) = set(reading.warnings) - set(scanned.warnings)
    assert 'cannot answer questions such as "What is the title?"' in hint
    assert "VISION_BASE_URL" in hint and "VISION_MODEL" in hint


def test_a_page_with_a_text_layer_is_not_ocred(ocr_services):
    reading = read_file(CORPUS / "markitdown" / "test.pdf", services=ocr_services)
    assert reading.pages[0].description is None and reading.pages[0].error is None
    assert reading.usage.calls == 0


def test_an_image_file_is_ocred(ocr_services, tmp_path):
    sign = tmp_path / "sign.png"
    sign.write_bytes(poster([(40, 100, "CLOSED")]))
    reading = read_file(sign, services=ocr_services)
    description = reading.pages[0].description
    assert description.startswith("Text found by OCR:\n")
    assert_lines(description.removeprefix("Text found by OCR:\n"), ["CLOSED"])
    assert f"[IMAGE: sign.png - VISUAL CONTENT]\n{description}" in reading.as_text()


def test_an_image_without_text_says_so(ocr_services, tmp_path):
    blank = tmp_path / "blank.png"
    blank.write_bytes(poster([]))
    assert read_file(blank, services=ocr_services).pages[0].description == "Local OCR found no text."


def test_a_page_of_large_print_is_measured_at_a_first_look(ocr_services, monkeypatch):
    """A scanned notice (Chinese, 300 dpi, large print) is found and measured at a first look at most
    QUICK_SIDE long, and its boxes serve: no look at PROBE_SIDE, no second detection; the small print
    of a page of A4 at 300 dpi is looked at again. Each line is recognised on its own (batch 1)."""
    looks = []
    detect = ocr._Engine.detect

    def spy(self, picture, scale):
        looks.append(round(max(picture.shape[:2]) * scale))
        return detect(self, picture, scale)

    monkeypatch.setattr(ocr._Engine, "detect", spy)
    notice = read_file(
        CORPUS / "pdfplumber" / "issue-203-decimalize.pdf",
        services=Services(make_settings(ocr_services.settings.cache_dir / "notice", vision_provider="ocr")),
    )
    assert len(looks) == 3 and max(looks) <= ocr.QUICK_SIDE, looks
    assert_says(notice.pages[0].text, "行政处罚决定书")
    assert_says(notice.pages[0].text, "哈尔滨电气国际工程有限责任公司")
    assert ocr._engine.recogniser.rec_batch_num == 1
    looks.clear()
    small = [(200, y, 24, f"Clause {y // 500}: the tenant pays the rent monthly") for y in range(200, 3400, 500)]
    assert_lines(read_text(drawn((2480, 3500), small)), [text for *_, text in small])
    assert looks[:2] == [ocr.QUICK_SIDE, ocr.PROBE_SIDE], looks
