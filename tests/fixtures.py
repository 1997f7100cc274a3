"""Fixtures made by the tests themselves: small real files of every kind the readers accept."""

from __future__ import annotations

import io
import json
import struct
import zipfile
import zlib
from pathlib import Path

import docx
import pypdfium2 as pdfium
from PIL import Image, ImageDraw
from pptx import Presentation
from pptx.chart.data import CategoryChartData
from pptx.enum.chart import XL_CHART_TYPE
from pptx.util import Inches

from tests.conftest import CORPUS


CORPUS_PAGES = [(CORPUS / name, 0) for name in ("markitdown/test.pdf", "pdfplumber/issue-140-example.pdf", "pdfplumber/nics-background-checks-2015-11.pdf")]


def multi_page_pdf(target: Path, pages: int, sources: list[tuple[Path, int]] = CORPUS_PAGES) -> Path:
    """A ``pages``-page PDF made of the ``(file, 0-based page)`` pages in ``sources``, repeated in
    turn; by default real corpus pages (prose, a ruled table, a wide table)."""
    documents = {path: pdfium.PdfDocument(str(path)) for path, _ in sources}
    merged = pdfium.PdfDocument.new()
    for index in range(pages):
        path, page = sources[index % len(sources)]
        merged.import_pages(documents[path], [page])
    merged.save(str(target))
    return target


def tiff_frames(target: Path, frames: int = 3) -> Path:
    images = []
    for number in range(1, frames + 1):
        image = Image.new("RGB", (320, 200), "white")
        ImageDraw.Draw(image).text((20, 80), f"Frame {number}", fill="black")
        images.append(image)
    images[0].save(target, save_all=True, append_images=images[1:])
    return target


def animated_gif(target: Path, frames: int = 4) -> Path:
    images = [Image.new("RGB", (64, 64), (60 * index, 255 - 60 * index, 0)) for index in range(frames)]
    images[0].save(target, save_all=True, append_images=images[1:], duration=100, loop=0)
    return target


def jpeg_with_exif(target: Path) -> Path:
    image = Image.new("RGB", (400, 300), (30, 120, 200))
    exif = Image.Exif()
    exif[0x010F] = "Canon"  # Make
    exif[0x0110] = "EOS 5D"  # Model
    exif[0x013B] = "Ada Lovelace"  # Artist
    exif[0x010E] = "A blue test card"  # ImageDescription
    image.save(target, exif=exif)
    return target


def huge_png_header(target: Path, width: int = 20_000, height: int = 20_000) -> Path:
    """A PNG whose header claims ``width`` x ``height`` pixels: a decompression bomb's shape."""
    buffer = io.BytesIO()
    Image.new("L", (8, 8)).save(buffer, format="PNG")
    data = bytearray(buffer.getvalue())
    ihdr = struct.pack(">II", width, height) + bytes(data[24:29])
    data[16:29] = ihdr
    data[29:33] = struct.pack(">I", zlib.crc32(b"IHDR" + ihdr) & 0xFFFFFFFF)
    target.write_bytes(bytes(data))
    return target


def zip_bomb_docx(target: Path, unpacked_mb: int = 520) -> Path:
    """A DOCX-shaped zip whose one part inflates past 500 MB (it is about 0.5 MB packed)."""
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        archive.writestr("word/document.xml", "<w:document/>")
        chunk = b"\0" * (1 << 20)
        with archive.open("word/media/padding.bin", "w", force_zip64=True) as part:
            for _ in range(unpacked_mb):
                part.write(chunk)
    return target


def word_document(target: Path) -> Path:
    document = docx.Document()
    document.add_heading("Quarterly review", level=1)
    document.add_paragraph("Revenue grew in every region this quarter.")
    table = document.add_table(rows=3, cols=2)
    for row, values in zip(table.rows, [("Region", "Revenue"), ("North", "1,200"), ("South", "950")]):
        for cell, value in zip(row.cells, values):
            cell.text = value
    document.add_page_break()
    document.add_heading("Outlook", level=1)
    document.add_paragraph("Second page: hiring plans for next year.")
    document.save(target)
    return target


def slide_deck(target: Path) -> Path:
    """Four slides: title + bullets with notes, a table, a chart with values, a picture with alt text."""
    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[1])
    slide.shapes.title.text = "Launch plan"
    slide.placeholders[1].text = "Ship the beta in March"
    slide.notes_slide.notes_text_frame.text = "Mention the waiting list."
    slide = deck.slides.add_slide(deck.slide_layouts[5])
    slide.shapes.title.text = "Budget"
    table = slide.shapes.add_table(2, 2, Inches(1), Inches(2), Inches(6), Inches(1)).table
    for (row, col), value in zip([(0, 0), (0, 1), (1, 0), (1, 1)], ["Item", "Cost", "Servers", "4,000"]):
        table.cell(row, col).text = value
    slide = deck.slides.add_slide(deck.slide_layouts[5])
    slide.shapes.title.text = "Growth"
    data = CategoryChartData()
    data.categories = ["Q1", "Q2", "Q3"]
    data.add_series("Users", (120, 340, 910))
    chart = slide.shapes.add_chart(XL_CHART_TYPE.COLUMN_CLUSTERED, Inches(1), Inches(2), Inches(6), Inches(4), data).chart
    chart.has_title = True
    chart.chart_title.text_frame.text = "Monthly active users"
    slide = deck.slides.add_slide(deck.slide_layouts[5])
    slide.shapes.title.text = "Team"
    picture = slide.shapes.add_picture(str(CORPUS / "python-docx/images/python-icon.jpeg"), Inches(1), Inches(2))
    picture._element.nvPicPr.cNvPr.set("descr", "The Python logo")
    deck.save(target)
    return target


def text_files(folder: Path) -> dict[str, Path]:
    """Text in several encodings and shapes; each contains the word 'naïve' or 'Grüße'."""
    folder.mkdir(parents=True, exist_ok=True)
    files = {
        "notes.md": ("# Notes\n\nA naïve plan, Grüße.\n").encode("utf-8"),
        "legacy.txt": ("Ein naïver Plan. Grüße aus Köln, schöne Straße, größere Übung.\n" * 3).encode("cp1252"),
        "table.csv": ("name,city\nZoë,Grüße\n").encode("utf-16"),
        "script.py": b"def greet():\n    return 'Gr\xc3\xbc\xc3\x9fe'\n",
        "analysis.ipynb": json.dumps({"cells": [{"cell_type": "markdown", "source": ["# Analysis\n", "Gr\u00fc\u00dfe"]},
                                                {"cell_type": "code", "source": ["print('na\u00efve')"]}],
                                      "metadata": {"kernelspec": {"language": "python"}}, "nbformat": 4, "nbformat_minor": 5}).encode(),
    }
    for name, data in files.items():
        (folder / name).write_bytes(data)
    return {name: folder / name for name in files}


FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
DECISION_TREE = ["Is the file encrypted?", "Ask for the password", "Read every page"]
ROTATED_LABEL = "Quarterly Sales"
SCANNED_LINES = ["Invoice 4711 from Northwind Traders", "Total due: 99.50 EUR by 30 June"]
CAPTION = "Figure 3.1: The complete decision process."


def text_picture(lines: list[str], size=(900, 560), rotated: str | None = None, font_size: int = 34) -> Image.Image:
    """A white picture with each line of ``lines`` in a box, like a small flowchart; ``rotated``
    adds a label turned 90 degrees at its left edge."""
    from PIL import ImageFont

    image = Image.new("RGB", size, "white")
    draw = ImageDraw.Draw(image)
    font = ImageFont.truetype(FONT, font_size)
    step = (size[1] - 40) // max(1, len(lines))
    for index, line in enumerate(lines):
        top = 20 + index * step
        draw.rectangle((110, top, size[0] - 40, top + step - 30), outline="navy", width=max(4, font_size // 10))
        draw.text((110 + font_size // 2, top + (step - 30) // 2), line, fill="black", font=font, anchor="lm")
    if rotated:
        label = Image.new("RGB", (size[1] - 40, 60), "white")
        ImageDraw.Draw(label).text((10, 8), rotated, fill="black", font=font)
        image.paste(label.rotate(90, expand=True), (20, 20))
    return image


def _png(image: Image.Image, target: Path) -> Path:
    image.save(target)
    return target


def figures_pdf(target: Path) -> Path:
    """Six pages, one kind of figure each, with known text:

    1. prose, a flowchart picture in the middle and its caption below;
    2. prose and a vector bar chart whose labels are real text;
    3. prose and a small logo in the header, below the size floor;
    4. prose and a picture with a label turned 90 degrees;
    5. a scan: a picture of text and no text layer at all;
    6. prose only.
    """
    from reportlab.graphics import renderPDF
    from reportlab.graphics.charts.barcharts import VerticalBarChart
    from reportlab.graphics.shapes import Drawing
    from reportlab.lib.pagesizes import letter
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen import canvas

    folder = target.parent
    pictures = {
        "tree": _png(text_picture(DECISION_TREE), folder / "tree.png"),
        "logo": _png(text_picture(["ACME"], size=(240, 80), font_size=30), folder / "logo.png"),
        "rotated": _png(text_picture(["North 120", "South 95"], rotated=ROTATED_LABEL), folder / "rotated.png"),
        "scan": _png(text_picture(SCANNED_LINES, size=(1700, 500), font_size=44), folder / "scan.png"),
    }
    width, height = letter
    pdf = canvas.Canvas(str(target), pagesize=letter)

    def prose(title: str, top: float = height - 72) -> None:
        pdf.setFont("Helvetica-Bold", 16)
        pdf.drawString(72, top, title)
        pdf.setFont("Helvetica", 11)
        for index, line in enumerate(["This page belongs to the figure finding fixture of ReadLens.",
                                      "Its text layer holds these sentences and nothing more."]):
            pdf.drawString(72, top - 24 - 15 * index, line)

    prose("Decision process")
    pdf.drawImage(ImageReader(str(pictures["tree"])), 108, 330, width=396, height=246)
    pdf.setFont("Helvetica", 10)
    pdf.drawString(108, 312, CAPTION)
    pdf.showPage()

    prose("Sales by quarter")
    chart = VerticalBarChart()
    chart.x, chart.y, chart.width, chart.height = 50, 40, 300, 180
    chart.data = [(120, 340, 910, 650)]
    chart.categoryAxis.categoryNames = ["Q1", "Q2", "Q3", "Q4"]
    drawing = Drawing(400, 250)
    drawing.add(chart)
    renderPDF.draw(drawing, pdf, 100, 350)
    pdf.showPage()

    pdf.drawImage(ImageReader(str(pictures["logo"])), width - 72 - 60, height - 50, width=60, height=20)
    prose("A page with a logo", top=height - 90)
    pdf.showPage()

    prose("Regional figures")
    pdf.drawImage(ImageReader(str(pictures["rotated"])), 108, 330, width=396, height=246)
    pdf.showPage()

    pdf.drawImage(ImageReader(str(pictures["scan"])), 36, height - 300, width=width - 72, height=(width - 72) * 500 / 1700)
    pdf.showPage()

    prose("Plain text")
    pdf.showPage()
    pdf.save()
    return target


PICTURE_LINES = ["Hire two engineers", "Open the Lisbon office"]


def office_with_pictures(folder: Path) -> dict[str, Path]:
    """A Word file and a deck, each with a picture whose text exists nowhere else, beside real text."""
    picture = _png(text_picture(PICTURE_LINES, size=(900, 380)), folder / "plan.png")
    document = docx.Document()
    document.add_heading("Plans for next year", level=1)
    document.add_paragraph("The picture below lists the two decisions the board took.")
    document.add_picture(str(picture), width=Inches(4.5))
    document.add_paragraph("Figure 1: The board's decisions.")
    document.save(folder / "plans.docx")
    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[5])
    slide.shapes.title.text = "Plans for next year"
    slide.shapes.add_picture(str(picture), Inches(1.5), Inches(2.5), width=Inches(7))
    deck.save(folder / "plans.pptx")
    return {"docx": folder / "plans.docx", "pptx": folder / "plans.pptx"}


def huge_picture_pdf(target: Path, pixels: int = 7000) -> Path:
    """A page of text with a ``pixels``-square picture of known text placed 4 inches wide: an
    embedded image far finer than any OCR needs (about 1750 dpi)."""
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen import canvas

    picture = _png(text_picture(PICTURE_LINES, size=(pixels, pixels), font_size=pixels // 20), target.with_suffix(".png"))
    pdf = canvas.Canvas(str(target))
    pdf.drawString(72, 780, "A page with a very large picture.")
    pdf.drawImage(ImageReader(str(picture)), 100, 400, width=288, height=288)
    pdf.showPage()
    pdf.save()
    return target


def turned_scan_pdf(target: Path, source: Path, angle: int, dpi: int = 150) -> Path:
    """Page 1 of ``source`` rendered at ``dpi``, turned ``angle`` degrees, as a PDF of that picture
    alone: a page fed to the scanner sideways or upside down."""
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen import canvas

    picture = pdfium.PdfDocument(str(source))[0].render(scale=dpi / 72).to_pil().rotate(angle, expand=True)
    png = _png(picture, target.with_suffix(".png"))
    width, height = picture.width * 72 / dpi, picture.height * 72 / dpi
    pdf = canvas.Canvas(str(target), pagesize=(width, height))
    pdf.drawImage(ImageReader(str(png)), 0, 0, width=width, height=height)
    pdf.showPage()
    pdf.save()
    return target


LEFT_COLUMN = ("Mount the bracket on the wall with the four anchors supplied in the kit. Drill each hole eight "
               "millimetres deep and clean out the dust before you push the anchors in. Tighten the bolts or screws.")
RIGHT_COLUMN = ("Made of anodized aluminum alloy, the bracket holds up to forty kilograms. Check the level before "
                "the last turn of each screw, and keep the spare parts in the bag for later repairs.")
THREE_COLUMNS = [("Column one opens the chapter on field repairs and the tools you carry. " * 3).strip(),
                 ("Column two explains how to test a joint before you load it with weight. " * 3).strip(),
                 ("Column three closes with the checklist you sign when the work is done. " * 3).strip()]
LINK = ("the installation guide", "https://example.com/guide")
UNRULED = [["Item", "Quantity", "Price"], ["Anchor set", "4", "3.20"], ["Wall bracket", "1", "18.90"], ["Spare screws", "12", "2.40"]]
SIDEBAR = "arXiv:2308.08155v2 [cs.AI] 3 Oct 2023"


def _wrapped(pdf, text: str, left: float, top: float, width: float, size: float = 10, font: str = "Helvetica") -> float:
    """Draw ``text`` wrapped to ``width`` from ``top`` down; return where the next line would start."""
    from reportlab.lib.utils import simpleSplit

    pdf.setFont(font, size)
    for line in simpleSplit(text, font, size, width):
        pdf.drawString(left, top, line)
        top -= size * 1.25
    return top


def structure_pdf(target: Path) -> Path:
    """Four pages of layout a reader must follow:

    1. a title over two columns, each a paragraph, and a footer;
    2. a running header, three columns with a bold subheading, a page number;
    3. heading levels, a bulleted and a numbered list, a link, a table without rules, a form;
    4. body text with a sidebar turned on its side.
    """
    from reportlab.lib.pagesizes import letter
    from reportlab.pdfgen import canvas

    width, height = letter
    pdf = canvas.Canvas(str(target), pagesize=letter)
    pdf.setFont("Helvetica-Bold", 20)
    pdf.drawString(72, height - 72, "Installing the wall bracket")
    _wrapped(pdf, LEFT_COLUMN, 72, height - 110, 220)
    _wrapped(pdf, RIGHT_COLUMN, 320, height - 110, 220)
    pdf.setFont("Helvetica", 8)
    pdf.drawString(72, 40, "Bracket manual, page 1")
    pdf.showPage()

    pdf.setFont("Helvetica", 8)
    pdf.drawString(72, height - 40, "Field Handbook - Chapter 2")
    for index, text in enumerate(THREE_COLUMNS):
        left = 72 + index * 160
        pdf.setFont("Helvetica-Bold", 10)
        pdf.drawString(left, height - 90, f"Part {index + 1}")
        _wrapped(pdf, text, left, height - 110, 140)
    pdf.setFont("Helvetica", 8)
    pdf.drawString(width / 2, 40, "2")
    pdf.showPage()

    top = height - 72
    for size, font, text in ((22, "Helvetica-Bold", "Product guide"), (15, "Helvetica-Bold", "Getting started"), (10, "Helvetica-Bold", "What is in the box")):
        pdf.setFont(font, size)
        pdf.drawString(72, top, text)
        top -= size * 2
    _wrapped(pdf, "Everything you need comes in one box:", 72, top, 450)
    top -= 18
    for item in ("one wall bracket", "four anchors", "twelve screws"):
        pdf.drawString(80, top, f"\u2022 {item}")
        top -= 14
    top -= 6
    for number, step in enumerate(("Drill the holes.", "Push in the anchors.", "Screw on the bracket."), 1):
        pdf.drawString(80, top, f"{number}. {step}")
        top -= 14
    top -= 10
    pdf.drawString(72, top, "Before you start, read")
    start = 72 + pdf.stringWidth("Before you start, read ", "Helvetica", 10)
    pdf.drawString(start, top, LINK[0])
    pdf.linkURL(LINK[1], (start, top - 2, start + pdf.stringWidth(LINK[0], "Helvetica", 10), top + 10))
    top -= 30
    for row in UNRULED:
        for column, cell in enumerate(row):
            pdf.drawString(90 + column * 130, top, cell)
        top -= 14
    top -= 20
    for label, value in (("Order number:", "4711"), ("Delivery date:", "2 March 2025")):
        pdf.drawString(72, top, label)
        pdf.drawString(200, top, value)
        top -= 14
    pdf.showPage()

    _wrapped(pdf, LEFT_COLUMN + " " + RIGHT_COLUMN, 100, height - 90, 420)
    pdf.saveState()
    pdf.translate(40, 250)
    pdf.rotate(90)
    pdf.setFont("Times-Roman", 14)
    pdf.drawString(0, 0, SIDEBAR)
    pdf.restoreState()
    pdf.showPage()
    pdf.save()
    return target


def unmapped_glyphs_pdf(target: Path) -> Path:
    """A line set in an embedded font whose map from glyphs to text is gone, so its "ü" maps to
    nothing: reportlab writes ASCII as itself and the rest only through /ToUnicode, renamed here
    (same length, so the file's offsets hold)."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(TTFont("DejaVu", FONT))
    pdf = canvas.Canvas(str(target))
    pdf.setFont("DejaVu", 12)
    pdf.drawString(72, 700, "Glyphs without a map: Zürich")
    pdf.showPage()
    pdf.save()
    target.write_bytes(target.read_bytes().replace(b"/ToUnicode", b"/ToUnicodX"))
    return target
