"""A deck's and a workbook's figures come from the file itself (``readers.office.shapes``,
``readers.office.sheet_figures``): their boxes are where LibreOffice draws them, and OCR reads the
embedded picture, with no LibreOffice in a text-only read."""

from __future__ import annotations

import io
import zipfile

import docx
import openpyxl
import pdfplumber
import pytest
from openpyxl.drawing.image import Image as SheetImage
from openpyxl.drawing.spreadsheet_drawing import AnchorMarker, OneCellAnchor
from openpyxl.drawing.xdr import XDRPositiveSize2D
from PIL import Image, ImageDraw, ImageFont
from pptx import Presentation
from pptx.util import Inches

from readers import read_file
from readers.describe import ocr
from readers.pdf.figures import find_figures
from readers.render import libreoffice as office
from readers.services import Services
from testkit import CORPUS, make_settings
from tests.model_output import assert_says

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def label(text: str) -> bytes:
    image = Image.new("RGB", (480, 160), "white")
    ImageDraw.Draw(image).text((30, 50), text, fill="black", font=ImageFont.truetype(FONT, 48))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


def drawn_picture(pdf, number: int) -> tuple[float, float, float, float]:
    """Where LibreOffice drew the page's one picture, as fractions of the page (left, top, right, bottom)."""
    with pdfplumber.open(pdf) as document:
        page = document.pages[number - 1]
        picture = max(page.images, key=lambda found: (found["x1"] - found["x0"]) * (found["bottom"] - found["top"]))
        return (
            picture["x0"] / page.width,
            picture["top"] / page.height,
            picture["x1"] / page.width,
            picture["bottom"] / page.height,
        )


@pytest.fixture
def services(tmp_path):
    office.shutdown()
    yield Services(make_settings(tmp_path / "cache", vision_provider="ocr"))
    office.shutdown()


def test_a_grouped_picture_on_a_slide_is_placed_and_read_from_the_deck(tmp_path, services):
    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[6])
    slide.shapes.add_textbox(Inches(0.5), Inches(0.3), Inches(4), Inches(0.6)).text_frame.text = "Shipping notes"
    group = slide.shapes.add_group_shape()
    group.shapes.add_picture(io.BytesIO(label("ORDER 4711")), Inches(4), Inches(4), Inches(4.5), Inches(1.5))
    group.shapes.add_textbox(Inches(4), Inches(5.6), Inches(3), Inches(0.5)).text_frame.text = "caption"
    deck.save(tmp_path / "grouped.pptx")
    reading = read_file(tmp_path / "grouped.pptx", services=services)
    assert office.running_pid() is None and reading.pages[0].image is None
    [figure] = reading.pages[0].figures
    assert figure.kind == "picture"
    assert_says(reading.pages[0].description, "ORDER 4711")
    drawn = read_file(tmp_path / "grouped.pptx", services=services, images=True)
    assert drawn.pages[0].figures == reading.pages[0].figures
    assert all(abs(ours - theirs) < 0.02 for ours, theirs in zip(figure.box, drawn_picture(drawn.pdf.path, 1))), (
        figure.box,
        drawn_picture(drawn.pdf.path, 1),
    )


def test_a_picture_on_a_sheet_is_placed_and_read_from_the_workbook(tmp_path, services):
    book = openpyxl.Workbook()
    sheet = book.active
    for row in range(1, 16):
        sheet.append([f"Item {row}", row * 10, row * 3.5])
    sheet.column_dimensions["A"].width = 20
    sheet.add_image(SheetImage(io.BytesIO(label("PAID 2024"))), "E3")
    book.save(tmp_path / "ledger.xlsx")
    reading = read_file(tmp_path / "ledger.xlsx", services=services)
    assert office.running_pid() is None and reading.pages[0].image is None
    [figure] = reading.pages[0].figures
    assert figure.kind == "picture"
    assert_says(reading.pages[0].description, "PAID 2024")
    assert "| Item 15 | 150 | 52.5 |" in reading.as_text()
    drawn = read_file(tmp_path / "ledger.xlsx", services=services, images=True)
    assert drawn.pages[0].image is not None
    assert all(abs(ours - theirs) < 0.02 for ours, theirs in zip(figure.box, drawn_picture(drawn.pdf.path, 1))), (
        figure.box,
        drawn_picture(drawn.pdf.path, 1),
    )


def drawn_charts(pdf, number: int) -> list[tuple[float, float, float, float]]:
    """Where LibreOffice drew the page's charts: the drawings ``find_figures`` finds on it, top to bottom."""
    with pdfplumber.open(pdf) as document:
        return [
            tuple(found["box"]) for found in find_figures(document.pages[number - 1], []) if found["kind"] == "drawing"
        ]


@pytest.mark.parametrize(
    ("name", "number"),
    [("xlsx_emf.xlsx", 1), ("xlsx_emf.xlsx", 2), ("xlsx_emf.xlsx", 3), ("xlsx_01.xlsx", 3)]
    + [("xlsx_08_one_cell_anchor.xlsx", 1), ("xlsx_01.xlsx", 2)],
)
def test_a_real_sheets_figures_are_boxed_where_libreoffice_draws_them(name, number, shared_services):
    """Each picture's and chart's box on a real workbook's sheet is where its page image shows it: the
    page starts at the first used column (xlsx_emf's column A is empty), and columns are as wide as
    LibreOffice makes them in the font it draws the workbook's with (DejaVu Sans for xlsx_emf's Aptos
    Narrow and xlsx_01's DengXian, Carlito for xlsx_08's Calibri)."""
    reading = read_file(CORPUS / "docling/formats" / name, number, number, services=shared_services, images=True)
    figures = reading.pages[0].figures
    if figures[0].kind == "picture":
        drawn = [drawn_picture(reading.pdf.path, number)]
    else:
        drawn = drawn_charts(reading.pdf.path, number)
    assert len(figures) == len(drawn)
    for figure, box in zip(figures, drawn):
        assert all(abs(ours - theirs) < 0.01 for ours, theirs in zip(figure.box, box)), (figure.box, box)


def test_a_picture_on_a_sheet_laid_out_its_own_way_is_boxed_where_libreoffice_draws_it(tmp_path, shared_services):
    """A sheet whose used cells start at B2, with a default column width of its own, a hidden column,
    a wider one and a taller row: the page starts at B2, and the picture (anchored in E5 and offset
    into it) is boxed where the page image shows it."""
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.sheet_format.defaultColWidth = 15
    sheet.column_dimensions["C"].hidden = True
    sheet.column_dimensions["D"].width = 30
    sheet.row_dimensions[4].height = 40
    sheet["B2"] = "Stamp"
    picture = SheetImage(io.BytesIO(label("PAID 2024")))
    at = AnchorMarker(col=4, colOff=190500, row=4, rowOff=95250)
    picture.anchor = OneCellAnchor(_from=at, ext=XDRPositiveSize2D(1828800, 914400))
    sheet.add_image(picture)
    book.save(tmp_path / "stamped.xlsx")
    reading = read_file(tmp_path / "stamped.xlsx", services=shared_services, images=True)
    [figure] = reading.pages[0].figures
    drawn = drawn_picture(reading.pdf.path, 1)
    assert all(abs(ours - theirs) < 0.01 for ours, theirs in zip(figure.box, drawn)), (figure.box, drawn)


def test_the_same_picture_on_two_slides_and_in_a_second_deck_is_read_once(tmp_path, services):
    """A deck's picture is cached by its own bytes: the screenshot of test.pptx on two slides of
    another deck is read once, and test.pptx read after it OCRs only its other picture."""
    with zipfile.ZipFile(CORPUS / "markitdown" / "test.pptx") as package:
        screenshot = package.read("ppt/media/image1.jpeg")
    deck = Presentation()
    for place in (Inches(1), Inches(3)):
        slide = deck.slides.add_slide(deck.slide_layouts[6])
        slide.shapes.add_picture(io.BytesIO(screenshot), place, Inches(1), Inches(4))
    deck.save(tmp_path / "twice.pptx")
    reading = read_file(tmp_path / "twice.pptx", services=services)
    assert (reading.usage.calls, reading.usage.cache_hits) == (1, 1)
    first, second = (page.description.split(":\n", 1)[1] for page in reading.pages)  # after the picture's place
    assert first == second and "AutoGen: Enabling Next-Gen LLM" in first
    original = read_file(CORPUS / "markitdown" / "test.pptx", services=services)
    assert (original.usage.calls, original.usage.cache_hits) == (1, 1)
    assert any(page.description and "AutoGen: Enabling Next-Gen LLM" in page.description for page in original.pages)


def test_a_word_page_that_is_one_picture_is_read_as_that_picture_once(tmp_path, services, monkeypatch):
    """Page 3 of test.docx holds only a screenshot (1274 x 870 px, shown 2.6 inches wide): it is read
    as that picture, not as a whole page at 300 dpi, and a second document with the same picture
    (test.docx with its first line changed) reads it from the cache."""
    sizes = []
    read_text = ocr.read_text

    def spy(image: bytes) -> str:
        sizes.append(Image.open(io.BytesIO(image)).size)
        return read_text(image)

    monkeypatch.setattr("readers.describe.vision.read_text", spy)
    reading = read_file(CORPUS / "markitdown" / "test.docx", services=services)
    page = reading.pages[2]
    [figure] = page.figures
    assert figure.kind == "scan" and figure.box[2] - figure.box[0] < 0.5, figure.box
    assert sizes == [(772, 527)], "the picture's own box at 300 dpi, not a 2542 x 3289 page"
    assert_says(page.description, "AutoGen: Enabling Next-Gen LLM")
    changed = docx.Document(CORPUS / "markitdown" / "test.docx")
    changed.paragraphs[0].runs[0].text = "Changed title"
    changed.save(tmp_path / "changed.docx")
    again = read_file(tmp_path / "changed.docx", services=services)
    assert "Changed title" in again.pages[0].text
    assert (again.usage.calls, again.usage.cache_hits) == (0, 1)
    assert again.pages[2].description == page.description
