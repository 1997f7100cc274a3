"""Fixtures made by the tests themselves: small real files of every kind the readers accept."""

from __future__ import annotations

import datetime
import email
import email.policy
import io
import json
import mimetypes
import shutil
import struct
import subprocess
import tempfile
import wave
import zipfile
import zlib
from email.message import EmailMessage
from pathlib import Path

import docx
import openpyxl
import pypdfium2 as pdfium
from ebooklib import epub
from faster_whisper import decode_audio
from openpyxl.chart import BarChart, Reference
from PIL import Image, ImageDraw, ImageFont
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


def log_line(number: int) -> str:
    """Line ``number`` of ``numbered_log``: it names its own number, so a page's numbers can be checked against its text."""
    return f"2026-03-01T12:{number % 60:02d}:07Z INFO worker-{number % 7} line {number}: served /api/items/{number * 37 % 1000} in {number % 997} ms"


def numbered_log(target: Path, lines: int, newline: str = "\n", final_newline: bool = True, long_lines: dict[int, str] | None = None) -> Path:
    """A log of ``lines`` lines (``log_line``), ending lines with ``newline``; ``long_lines`` puts
    other text on some line numbers (a line longer than a page, say)."""
    text = newline.join((long_lines or {}).get(number, log_line(number)) for number in range(1, lines + 1))
    target.write_bytes((text + (newline if final_newline else "")).encode("utf-8"))
    return target


FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
DECISION_TREE = ["Is the file encrypted?", "Ask for the password", "Read every page"]
ROTATED_LABEL = "Quarterly Sales"
SCANNED_LINES = ["Invoice 4711 from Northwind Traders", "Total due: 99.50 EUR by 30 June"]
CAPTION = "Figure 3.1: The complete decision process."


def text_picture(lines: list[str], size=(900, 560), rotated: str | None = None, font_size: int = 34) -> Image.Image:
    """A white picture with each line of ``lines`` in a box, like a small flowchart; ``rotated``
    adds a label turned 90 degrees at its left edge."""

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


def framed_columns_pdf(target: Path) -> Path:
    """Page 1 of ``structure_pdf`` twice: inside a frame with two rules, then over a picture that
    fills the page (a backdrop, or a scan with a text layer)."""
    from reportlab.lib.pagesizes import letter
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen import canvas

    width, height = letter
    backdrop = Image.effect_noise((306, 396), 24).convert("RGB")
    pdf = canvas.Canvas(str(target), pagesize=letter)
    for framed in (True, False):
        if framed:
            pdf.rect(50, 200, width - 100, height - 230)  # round the text, under 80% of the page: not a backdrop
            pdf.line(50, height - 90, width - 50, height - 90)
            pdf.line(50, 230, width - 50, 230)
        else:
            pdf.drawImage(ImageReader(backdrop), 0, 0, width, height)
        pdf.setFont("Helvetica-Bold", 20)
        pdf.drawString(72, height - 72, "Installing the wall bracket")
        _wrapped(pdf, LEFT_COLUMN, 72, height - 110, 220)
        _wrapped(pdf, RIGHT_COLUMN, 320, height - 110, 220)
        pdf.showPage()
    pdf.save()
    return target


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


def stalling_pdf(target: Path, operations: int = 2_000_000) -> Path:
    """A one-page PDF of a few kilobytes whose content stream inflates to ``operations`` tiny
    filled rectangles: built to keep a parser busy for minutes."""
    stream = zlib.compress(b"0 0 1 1 re f\n" * operations, 9)
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
               b"<< /Length %d /Filter /FlateDecode >>\nstream\n%s\nendstream" % (len(stream), stream)]
    pdf, offsets = bytearray(b"%PDF-1.4\n"), []
    for number, body in enumerate(objects, 1):
        offsets.append(len(pdf))
        pdf += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(pdf)
    pdf += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1) + b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    pdf += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    target.write_bytes(bytes(pdf))
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


W_NS = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'


def _word_part(document, name: str, content_type: str, reltype: str, xml: str) -> str:
    """Add a part (footnotes, a chart, ...) python-docx cannot create; returns its relationship id."""
    from docx.opc.packuri import PackURI
    from docx.opc.part import Part

    part = Part(PackURI(f"/word/{name}"), content_type, xml.encode(), document.part.package)
    return document.part.relate_to(part, reltype)


def _notes_xml(kind: str, notes: dict[int, str]) -> str:
    separators = "".join(f'<w:{kind} w:type="{t}" w:id="{i}"><w:p><w:r><w:separator/></w:r></w:p></w:{kind}>' for i, t in ((-1, "separator"), (0, "continuationSeparator")))
    mark = "footnoteRef" if kind == "footnote" else "endnoteRef"
    body = "".join(f'<w:{kind} w:id="{i}"><w:p><w:r><w:{mark}/></w:r><w:r><w:t xml:space="preserve"> {text}</w:t></w:r></w:p></w:{kind}>' for i, text in notes.items())
    return f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:{kind}s {W_NS}>{separators}{body}</w:{kind}s>'


def _runs(xml: str):
    """Elements from a fragment of runs written with the w: prefix."""
    from docx.oxml import parse_xml

    wrapper = parse_xml(f'<w:p {W_NS} xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" '
                        f'xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office">{xml}</w:p>')
    return list(wrapper)


def _numbering(document) -> tuple[str, str]:
    """Two list definitions: multi-level numbers (1. / a) / i.) and bullets; returns their numIds."""
    numbering = document.part.numbering_part.element
    levels = [("decimal", "%1."), ("lowerLetter", "%2)"), ("lowerRoman", "%3.")]
    numbered = "".join(f'<w:lvl w:ilvl="{i}"><w:start w:val="1"/><w:numFmt w:val="{fmt}"/><w:lvlText w:val="{text}"/>'
                       f'<w:pPr><w:ind w:left="{720 * (i + 1)}" w:hanging="360"/></w:pPr></w:lvl>' for i, (fmt, text) in enumerate(levels))
    bullets = "".join(f'<w:lvl w:ilvl="{i}"><w:start w:val="1"/><w:numFmt w:val="bullet"/><w:lvlText w:val="•"/>'
                      f'<w:pPr><w:ind w:left="{720 * (i + 1)}" w:hanging="360"/></w:pPr></w:lvl>' for i in range(3))
    from docx.oxml import parse_xml

    first_num = numbering.find(f"{{{numbering.nsmap['w']}}}num")
    for abstract_id, body in (("90", numbered), ("91", bullets)):
        abstract = parse_xml(f'<w:abstractNum {W_NS} w:abstractNumId="{abstract_id}"><w:multiLevelType w:val="multilevel"/>{body}</w:abstractNum>')
        (first_num.addprevious(abstract) if first_num is not None else numbering.append(abstract))
    for num_id, abstract_id in (("90", "90"), ("91", "91")):
        numbering.append(parse_xml(f'<w:num {W_NS} w:numId="{num_id}"><w:abstractNumId w:val="{abstract_id}"/></w:num>'))
    return "90", "91"


def _list_paragraph(document, text: str, num_id: str, level: int):
    from docx.oxml import parse_xml

    paragraph = document.add_paragraph(text)
    paragraph._p.insert(0, parse_xml(f'<w:pPr {W_NS}><w:numPr><w:ilvl w:val="{level}"/><w:numId w:val="{num_id}"/></w:numPr></w:pPr>'))
    return paragraph


def _word_text_box(text: str) -> str:
    """A floating DrawingML text box, with the VML copy Word writes for older readers."""
    return ('<mc:AlternateContent xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"><mc:Choice Requires="wps">'
            '<w:drawing><wp:anchor xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" '
            'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" '
            'distT="0" distB="0" distL="114300" distR="114300" simplePos="0" relativeHeight="2" behindDoc="0" locked="0" layoutInCell="1" allowOverlap="1">'
            '<wp:simplePos x="0" y="0"/><wp:positionH relativeFrom="column"><wp:posOffset>3600000</wp:posOffset></wp:positionH>'
            '<wp:positionV relativeFrom="paragraph"><wp:posOffset>0</wp:posOffset></wp:positionV><wp:extent cx="1800000" cy="540000"/>'
            '<wp:effectExtent l="0" t="0" r="0" b="0"/><wp:wrapSquare wrapText="bothSides"/><wp:docPr id="77" name="Sidebar"/><wp:cNvGraphicFramePr/>'
            '<a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:wsp><wps:cNvSpPr txBox="1"/>'
            '<wps:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="1800000" cy="540000"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></wps:spPr>'
            f'<wps:txbx><w:txbxContent><w:p><w:r><w:t>{text}</w:t></w:r></w:p></w:txbxContent></wps:txbx><wps:bodyPr/></wps:wsp>'
            '</a:graphicData></a:graphic></wp:anchor></w:drawing></mc:Choice><mc:Fallback><w:pict><v:shape id="sidebar" type="#_x0000_t202" '
            'style="position:absolute;margin-left:283pt;width:142pt;height:43pt"><v:textbox><w:txbxContent><w:p><w:r>'
            f'<w:t>{text}</w:t></w:r></w:p></w:txbxContent></v:textbox></v:shape></w:pict></mc:Fallback></mc:AlternateContent>')


def structured_word_document(target: Path) -> Path:
    """A Word document with every structure the DOCX reader keeps, over several pages.

    Headings (built-in 1-3, Title, and a custom style that is a heading only by its outline
    level), nested numbered and bulleted lists, a hyperlink and a HYPERLINK field, footnotes and
    an endnote, a comment and its reply, text boxes (VML, and DrawingML with its VML fallback), a header and a
    footer with a page number, tracked changes (an insertion, a deletion, a move), a table with merged cells, a picture with alt text, a SEQ field
    caption, hidden text, page breaks, and at the end a pie chart and a SmartArt.
    """
    from docx.enum.style import WD_STYLE_TYPE
    from docx.opc.constants import RELATIONSHIP_TYPE as RT
    from docx.oxml import parse_xml
    from docx.oxml.ns import qn

    document = docx.Document()
    section = document.sections[0]
    section.header.paragraphs[0].text = "ACME Corp — Confidential"
    footer = section.footer.paragraphs[0]
    footer.text = "Quarterly report, page "
    for element in _runs('<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> PAGE </w:instrText></w:r>'
                         '<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>1</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>'):
        footer._p.append(element)
    custom = document.styles.add_style("Kapitel", WD_STYLE_TYPE.PARAGRAPH)
    custom.base_style = document.styles["Normal"]
    custom.element.get_or_add_pPr().append(parse_xml(f'<w:outlineLvl {W_NS} w:val="1"/>'))
    numbered, bullets = _numbering(document)
    rel = document.part.relate_to("https://example.com/report", RT.HYPERLINK, is_external=True)
    _word_part(document, "footnotes.xml", "application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml", RT.FOOTNOTES,
               _notes_xml("footnote", {1: "Source: the finance team's ledger.", 2: "Rounded to the nearest thousand."}))
    _word_part(document, "endnotes.xml", "application/vnd.openxmlformats-officedocument.wordprocessingml.endnotes+xml", RT.ENDNOTES,
               _notes_xml("endnote", {1: "Figures are unaudited."}))

    document.add_heading("Quarterly report", level=0)
    document.add_heading("Summary", level=1)
    paragraph = document.add_paragraph("Revenue grew in every region")
    for element in _runs('<w:r><w:footnoteReference w:id="1"/></w:r><w:r><w:t xml:space="preserve"> and costs fell</w:t></w:r>'
                         '<w:r><w:footnoteReference w:id="2"/></w:r><w:r><w:t xml:space="preserve">. See </w:t></w:r>'
                         f'<w:hyperlink r:id="{rel}"><w:r><w:t>the full report</w:t></w:r></w:hyperlink><w:r><w:t xml:space="preserve"> or </w:t></w:r>'
                         '<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> HYPERLINK "https://example.com/data" </w:instrText></w:r>'
                         '<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>the data</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>'
                         '<w:r><w:t>.</w:t></w:r><w:r><w:rPr><w:vanish/></w:rPr><w:t>HIDDEN-NOTE-TO-SELF</w:t></w:r>'
                         '<w:r><w:endnoteReference w:id="1"/></w:r>'):
        paragraph._p.append(element)
    commented = document.add_paragraph("The board approved ")
    run = commented.add_run("the new budget")
    commented.add_run(" in March.")
    question = document.add_comment(run, text="Which meeting was this?", author="Ada Lovelace", initials="AL")
    answer = document.add_comment(run, text="The March board meeting.", author="Grace Hopper", initials="GH")
    for comment, para_id in ((question, "1A2B3C4D"), (answer, "5E6F7A8B")):
        comment._comment_elm.findall(qn("w:p"))[-1].set(qn("w14:paraId"), para_id)
    _word_part(document, "commentsExtended.xml", "application/vnd.openxmlformats-officedocument.wordprocessingml.commentsExtended+xml",
               "http://schemas.microsoft.com/office/2011/relationships/commentsExtended",
               '<w15:commentsEx xmlns:w15="http://schemas.microsoft.com/office/word/2012/wordml"><w15:commentEx w15:paraId="1A2B3C4D" w15:done="0"/>'
               '<w15:commentEx w15:paraId="5E6F7A8B" w15:paraIdParent="1A2B3C4D" w15:done="0"/></w15:commentsEx>')
    changed = document.add_paragraph("Hiring resumes ")
    for element in _runs('<w:ins w:id="101" w:author="Grace Hopper" w:date="2026-01-01T00:00:00Z"><w:r><w:t xml:space="preserve">in April </w:t></w:r></w:ins>'
                         '<w:del w:id="102" w:author="Grace Hopper" w:date="2026-01-01T00:00:00Z"><w:r><w:delText xml:space="preserve">next year </w:delText></w:r></w:del>'
                         '<w:r><w:t xml:space="preserve">for engineering. </w:t></w:r>'
                         '<w:moveTo w:id="103" w:author="Grace Hopper" w:date="2026-01-01T00:00:00Z"><w:r><w:t>Moved sentence here.</w:t></w:r></w:moveTo>'):
        changed._p.append(element)
    for element in _runs('<w:moveFrom w:id="104" w:author="Grace Hopper" w:date="2026-01-01T00:00:00Z"><w:r><w:t xml:space="preserve">Moved sentence here. </w:t></w:r></w:moveFrom>'):
        commented._p.insert(1, element)
    boxed = document.add_paragraph("The text box beside this paragraph holds a quote.")
    for element in _runs('<w:r><w:pict><v:shape id="box1" type="#_x0000_t202" style="position:absolute;margin-left:300pt;margin-top:0;width:150pt;height:60pt;z-index:1">'
                         '<v:textbox><w:txbxContent><w:p><w:r><w:t>Boxed quote: growth is steady.</w:t></w:r></w:p></w:txbxContent></v:textbox></v:shape></w:pict></w:r>'):
        boxed._p.append(element)

    document.add_heading("Plans", level=2)
    for text, level in [("Grow sales", 0), ("Open two offices", 1), ("Berlin", 2), ("Lisbon", 2), ("Hire a team", 1), ("Cut costs", 0)]:
        _list_paragraph(document, text, numbered, level)
    risks = document.add_paragraph("Risks to watch:")
    for element in _runs(f'<w:r>{_word_text_box("Sidebar: two new offices open in spring.")}</w:r>'):
        risks._p.append(element)
    for text, level in [("Currency", 0), ("Euro exposure", 1), ("Supply", 0)]:
        _list_paragraph(document, text, bullets, level)
    document.add_paragraph("Ausblick nach Regionen", style="Kapitel")
    document.add_heading("Regional detail", level=3)

    table = document.add_table(rows=4, cols=3)
    table.style = "Table Grid"
    values = [("Region", "Q1", "Q2"), ("North", "1,200", "1,300"), ("South", "950", "990"), ("West", "700", "720")]
    for row, row_values in zip(table.rows, values):
        for cell, value in zip(row.cells, row_values):
            cell.text = value
    merged = table.cell(0, 1).merge(table.cell(0, 2))
    merged.text = "First half"
    side = table.cell(2, 0).merge(table.cell(3, 0))
    side.text = "South and West"

    document.add_picture(str(CORPUS / "python-docx/images/python-icon.jpeg"))
    picture = document.inline_shapes[-1]._inline
    picture.docPr.set("descr", "The Python logo")
    caption = document.add_paragraph("Figure ", style="Caption")
    for element in _runs('<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> SEQ Figure \\* ARABIC </w:instrText></w:r>'
                         '<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>1</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>'
                         '<w:r><w:t>: The logo of the language</w:t></w:r>'):
        caption._p.append(element)
    document.add_page_break()
    document.add_heading("Outlook", level=1)
    for number in range(1, 41):
        document.add_paragraph(f"Outlook paragraph {number}: the team expects steady demand in every market it serves, "
                               "with new products arriving through the year and prices holding firm.")
    document.add_heading("Closing", level=1)
    document.add_paragraph("Last words of the report.")
    _word_chart_and_smartart(document)
    document.save(target)
    return target


def boxed_picture_document(target: Path) -> Path:
    """Text boxes as Word nests them: a DrawingML box (with its VML copy) holding a picture with
    alt text and a text box of its own, and an old-style VML box holding another."""
    from docx.oxml.ns import qn

    document = docx.Document()
    document.add_picture(str(CORPUS / "python-docx/images/python-icon.jpeg"))
    document.inline_shapes[-1]._inline.docPr.set("descr", "The logo in the box")
    holder = document.paragraphs[-1]._p
    holder.getparent().remove(holder)
    anchor = document.add_paragraph("The box beside this paragraph holds a picture.")
    anchor._p.extend(_runs(f'<w:r>{_word_text_box("Box title")}</w:r>'))
    box = anchor._p.find(f".//{{http://schemas.openxmlformats.org/markup-compatibility/2006}}Choice//{qn('w:txbxContent')}")
    box.extend(_runs(f'<w:p/><w:p><w:r>{_word_text_box("Inner box words")}</w:r></w:p>'))
    box[-2].extend(holder.findall(qn("w:r")))
    old = document.add_paragraph("An old-style box follows.")
    old._p.extend(_runs('<w:r><w:pict><v:shape id="outer" type="#_x0000_t202" style="position:absolute;width:150pt;height:60pt"><v:textbox><w:txbxContent>'
                        '<w:p><w:r><w:t>Old box title</w:t></w:r></w:p><w:p><w:r><w:pict><v:shape id="inner" type="#_x0000_t202" style="width:100pt;height:30pt">'
                        '<v:textbox><w:txbxContent><w:p><w:r><w:t>Old inner words</w:t></w:r></w:p></w:txbxContent></v:textbox></v:shape></w:pict></w:r></w:p>'
                        '</w:txbxContent></v:textbox></v:shape></w:pict></w:r>'))
    document.save(target)
    return target


def odd_parts_document(target: Path) -> Path:
    """Parts that each hold their own story: a footer whose PAGE field never ends (a truncated
    part), a footnote whose link is a relationship of the footnotes part (the document has one
    with the same id going elsewhere), and a list whose override names a level past Word's nine."""
    from docx.opc.constants import RELATIONSHIP_TYPE as RT
    from docx.opc.packuri import PackURI
    from docx.opc.part import Part
    from docx.oxml import parse_xml

    document = docx.Document()
    document.sections[0].footer.paragraphs[0]._p.extend(_runs(
        '<w:r><w:t xml:space="preserve">Page </w:t></w:r><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> PAGE </w:instrText></w:r>'))
    notes = Part(PackURI("/word/footnotes.xml"), "application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml", b"", document.part.package)
    document.part.relate_to(notes, RT.FOOTNOTES)
    document_link = document.part.relate_to("https://example.com/report", RT.HYPERLINK, is_external=True)
    while len(notes.rels) < int(document_link[3:]) - 1:  # the footnotes part's link takes the same id
        notes.relate_to(f"https://example.com/unused/{len(notes.rels)}", RT.HYPERLINK, is_external=True)
    note_link = notes.relate_to("https://policy.example.org/rounding", RT.HYPERLINK, is_external=True)
    assert note_link == document_link
    paragraph = document.add_paragraph("Revenue rose")
    paragraph._p.extend(_runs('<w:r><w:footnoteReference w:id="1"/></w:r>'))
    notes._blob = (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:footnotes {W_NS} '
                   'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><w:footnote w:id="1"><w:p>'
                   f'<w:hyperlink r:id="{note_link}"><w:r><w:t>Rounded per policy.</w:t></w:r></w:hyperlink></w:p></w:footnote></w:footnotes>').encode()
    numbered, _ = _numbering(document)
    document.part.numbering_part.element.append(parse_xml(
        f'<w:num {W_NS} w:numId="92"><w:abstractNumId w:val="90"/><w:lvlOverride w:ilvl="12"><w:startOverride w:val="5"/></w:lvlOverride></w:num>'))
    for text in ("First step", "Second step"):
        _list_paragraph(document, text, "92", 0)
    document.save(target)
    return target


def _three_d_bar_chart(slide) -> None:
    """A clustered column chart turned into a 3-D bar chart, a plot type python-pptx refuses."""
    from pptx.oxml.ns import qn

    data = CategoryChartData()
    data.categories = ["North", "South", "West"]
    data.add_series("2025", (1200, 950, 700))
    data.add_series("2026", (1300, 990, 720))
    frame = slide.shapes.add_chart(XL_CHART_TYPE.BAR_CLUSTERED, Inches(1), Inches(1.5), Inches(8), Inches(5), data)
    frame.chart.has_title = True
    frame.chart.chart_title.text_frame.text = "Revenue by region"
    space = frame.chart_part._element
    plot = space.find(".//" + qn("c:barChart"))
    plot.tag = qn("c:bar3DChart")
    for unsupported in plot.findall(qn("c:overlap")):
        plot.remove(unsupported)
    chart = space.find(qn("c:chart"))
    view = chart.makeelement(qn("c:view3D"), {})
    for name, value in (("c:rotX", "15"), ("c:rotY", "20"), ("c:rAngAx", "1")):
        view.append(view.makeelement(qn(name), {"val": value}))
    chart.insert(chart.index(chart.find(qn("c:plotArea"))), view)


SMARTART_DATA_TYPE = "application/vnd.openxmlformats-officedocument.drawingml.diagramData+xml"
SMARTART_DATA_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/diagramData"
DRAWING_NS = ('xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
              'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" '
              'xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram" '
              'xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart"')


def _smartart_data() -> bytes:
    """A SmartArt data part holding a small hierarchy: Plan > Research, Draft; Ship."""
    points = [("0", "doc", ""), ("1", "node", "Plan"), ("2", "node", "Research"), ("3", "node", "Draft"), ("4", "node", "Ship")]
    links = [("0", "1", 0), ("1", "2", 0), ("1", "3", 1), ("0", "4", 1)]
    pts = "".join(f'<dgm:pt modelId="{{0000000{i}-0000-0000-0000-000000000000}}"{"" if kind == "node" else f" type={chr(34)}{kind}{chr(34)}"}>'
                  f'<dgm:prSet/><dgm:spPr/><dgm:t><a:bodyPr/><a:p>{f"<a:r><a:t>{text}</a:t></a:r>" if text else ""}</a:p></dgm:t></dgm:pt>'
                  for i, kind, text in points)
    cxns = "".join(f'<dgm:cxn modelId="{{1000000{n}-0000-0000-0000-000000000000}}" srcId="{{0000000{src}-0000-0000-0000-000000000000}}" '
                   f'destId="{{0000000{dst}-0000-0000-0000-000000000000}}" srcOrd="{order}" destOrd="0"/>' for n, (src, dst, order) in enumerate(links))
    return (f'<dgm:dataModel {DRAWING_NS}><dgm:ptLst>{pts}</dgm:ptLst><dgm:cxnLst>{cxns}</dgm:cxnLst><dgm:bg/><dgm:whole/></dgm:dataModel>').encode()


def _smartart(slide) -> None:
    from pptx.opc.package import Part
    from pptx.opc.packuri import PackURI
    from pptx.oxml import parse_xml

    part = Part(PackURI("/ppt/diagrams/data1.xml"), SMARTART_DATA_TYPE, slide.part.package, _smartart_data())
    rel_id = slide.part.relate_to(part, SMARTART_DATA_REL)
    frame = parse_xml(
        f'<p:graphicFrame xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" {DRAWING_NS}>'
        '<p:nvGraphicFramePr><p:cNvPr id="40" name="Process diagram"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr>'
        '<p:xfrm><a:off x="914400" y="1828800"/><a:ext cx="6400800" cy="3200400"/></p:xfrm>'
        '<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/diagram">'
        f'<dgm:relIds r:dm="{rel_id}" r:lo="" r:qs="" r:cs=""/></a:graphicData></a:graphic></p:graphicFrame>')
    slide.shapes._spTree.append(frame)


def _word_drawing(document, shape_id: int, name: str, graphic: str) -> None:
    """A paragraph holding one inline drawing (a chart, a SmartArt) described by ``graphic``."""
    paragraph = document.add_paragraph()
    for element in _runs(f'<w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" {DRAWING_NS}>'
                         f'<wp:extent cx="4572000" cy="2286000"/><wp:docPr id="{shape_id}" name="{name}" descr="{name}"/>'
                         f'<a:graphic>{graphic}</a:graphic></wp:inline></w:drawing></w:r>'):
        paragraph._p.append(element)


def _word_chart_and_smartart(document) -> None:
    """A pie chart (its part written by python-pptx's chart writer) and a SmartArt, inline in Word."""
    from docx.opc.constants import RELATIONSHIP_TYPE as RT
    from pptx.chart.xmlwriter import ChartXmlWriter

    data = CategoryChartData()
    data.categories = ["Salaries", "Rent", "Travel"]
    data.add_series("Share of costs", (0.62, 0.25, 0.13))
    rel_id = _word_part(document, "charts/chart1.xml", "application/vnd.openxmlformats-officedocument.drawingml.chart+xml", RT.CHART,
                        ChartXmlWriter(XL_CHART_TYPE.PIE, data).xml)
    _word_drawing(document, 501, "Cost chart", f'<a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart r:id="{rel_id}"/></a:graphicData>')
    rel_id = _word_part(document, "diagrams/data1.xml", SMARTART_DATA_TYPE, SMARTART_DATA_REL, _smartart_data().decode())
    _word_drawing(document, 502, "Steps", '<a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/diagram">'
                                     f'<dgm:relIds r:dm="{rel_id}" r:lo="" r:qs="" r:cs=""/></a:graphicData>')


def _waterfall_chart(slide) -> None:
    """A waterfall chart: an Office 2016 chart part (cx:), in the mc:AlternateContent PowerPoint
    writes around it, which python-pptx does not see as a shape at all."""
    from pptx.opc.package import Part
    from pptx.opc.packuri import PackURI
    from pptx.oxml import parse_xml

    cx = 'xmlns:cx="http://schemas.microsoft.com/office/drawing/2014/chartex"'
    steps = [("Start", 100), ("Sales", 40), ("Costs", -25), ("End", 115)]
    labels = "".join(f'<cx:pt idx="{i}">{name}</cx:pt>' for i, (name, _) in enumerate(steps))
    values = "".join(f'<cx:pt idx="{i}">{value}</cx:pt>' for i, (_, value) in enumerate(steps))
    xml = (f'<cx:chartSpace {cx} {DRAWING_NS}><cx:chartData><cx:data id="0">'
           f'<cx:strDim type="cat"><cx:f>Sheet1!$A$2:$A$5</cx:f><cx:lvl ptCount="4">{labels}</cx:lvl></cx:strDim>'
           f'<cx:numDim type="val"><cx:f>Sheet1!$B$2:$B$5</cx:f><cx:lvl ptCount="4" formatCode="General">{values}</cx:lvl></cx:numDim>'
           '</cx:data></cx:chartData><cx:chart><cx:title pos="t" align="ctr" overlay="0"><cx:tx><cx:txData><cx:v>Cash bridge</cx:v></cx:txData></cx:tx></cx:title>'
           '<cx:plotArea><cx:plotAreaRegion><cx:series layoutId="waterfall" uniqueId="{00000001-0000-0000-0000-000000000000}">'
           '<cx:tx><cx:txData><cx:f>Sheet1!$B$1</cx:f><cx:v>Cash</cx:v></cx:txData></cx:tx><cx:dataId val="0"/></cx:series>'
           '</cx:plotAreaRegion></cx:plotArea></cx:chart></cx:chartSpace>')
    part = Part(PackURI("/ppt/charts/chartEx1.xml"), "application/vnd.ms-office.chartex+xml", slide.part.package, xml.encode())
    rel_id = slide.part.relate_to(part, "http://schemas.microsoft.com/office/2014/relationships/chartEx")
    slide.shapes._spTree.append(parse_xml(
        f'<mc:AlternateContent xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" '
        f'xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" {DRAWING_NS}>'
        f'<mc:Choice xmlns:cx1="http://schemas.microsoft.com/office/drawing/2015/9/8/chartex" Requires="cx1"><p:graphicFrame>'
        '<p:nvGraphicFramePr><p:cNvPr id="60" name="Waterfall 1"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr>'
        '<p:xfrm><a:off x="914400" y="4800000"/><a:ext cx="6400800" cy="1600000"/></p:xfrm>'
        f'<a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/drawing/2014/chartex"><cx:chart {cx} r:id="{rel_id}"/>'
        '</a:graphicData></a:graphic></p:graphicFrame></mc:Choice><mc:Fallback><p:sp><p:nvSpPr><p:cNvPr id="61" name="Waterfall fallback"/>'
        '<p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/><a:p><a:r><a:t>This chart is not available in your version of PowerPoint</a:t></a:r></a:p>'
        '</p:txBody></p:sp></mc:Fallback></mc:AlternateContent>'))


def _modern_comment(deck, slide) -> None:
    """A threaded comment as PowerPoint 365 writes it (p188:cm with a reply; authors in authors.xml)."""
    from pptx.opc.package import Part
    from pptx.opc.packuri import PackURI

    p188 = 'xmlns:p188="http://schemas.microsoft.com/office/powerpoint/2018/8/main"'
    authors = (f'<p188:authorLst {p188}><p188:author id="{{A0000000-0000-0000-0000-000000000001}}" name="Ada Lovelace" initials="AL" userId="ada" providerId="None"/>'
               '<p188:author id="{A0000000-0000-0000-0000-000000000002}" name="Grace Hopper" initials="GH" userId="grace" providerId="None"/></p188:authorLst>')
    body = '<p188:txBody><a:bodyPr/><a:lstStyle/><a:p><a:r><a:t>{}</a:t></a:r></a:p></p188:txBody>'
    comments = (f'<p188:cmLst {p188} {DRAWING_NS}><p188:cm id="{{C0000000-0000-0000-0000-000000000001}}" authorId="{{A0000000-0000-0000-0000-000000000001}}" created="2026-01-01T00:00:00.000">'
                '<p188:replyLst><p188:reply id="{C0000000-0000-0000-0000-000000000002}" authorId="{A0000000-0000-0000-0000-000000000002}" created="2026-01-02T00:00:00.000">'
                f'{body.format("Both teams start in May.")}</p188:reply></p188:replyLst>{body.format("Are both teams hired yet?")}</p188:cm></p188:cmLst>')
    deck.part.relate_to(Part(PackURI("/ppt/authors.xml"), "application/vnd.ms-powerpoint.authors+xml", deck.part.package, authors.encode()),
                        "http://schemas.microsoft.com/office/2018/10/relationships/authors")
    slide.part.relate_to(Part(PackURI("/ppt/comments/modernComment_1.xml"), "application/vnd.ms-powerpoint.comments+xml", deck.part.package, comments.encode()),
                         "http://schemas.microsoft.com/office/2018/10/relationships/comments")


def structured_deck(target: Path) -> Path:
    """A deck with what the PPTX reader must keep: nested bullets, a numbered list, a link, merged
    table cells, a 3-D bar chart and a waterfall chart, grouped shapes (one group inside another)
    with a threaded comment, and SmartArt."""
    from pptx.oxml.ns import qn

    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[1])
    slide.shapes.title.text = "Agenda"
    body = slide.placeholders[1].text_frame
    body.text = "Results"
    for text, level in [("Revenue", 1), ("By region", 2), ("Costs", 1), ("Plans", 0)]:
        paragraph = body.add_paragraph()
        paragraph.text, paragraph.level = text, level
    box = slide.shapes.add_textbox(Inches(6), Inches(5), Inches(3), Inches(1.5)).text_frame
    for index, text in enumerate(["Hire", "Train", "Ship"]):
        paragraph = box.paragraphs[0] if index == 0 else box.add_paragraph()
        paragraph.text = text
        paragraph._p.get_or_add_pPr().append(paragraph._p.makeelement(qn("a:buAutoNum"), {"type": "alphaLcParenR"}))
    run = box.add_paragraph().add_run()
    run.text = "pricing page"
    run.hyperlink.address = "https://example.com/pricing"

    slide = deck.slides.add_slide(deck.slide_layouts[5])
    slide.shapes.title.text = "Budget"
    table = slide.shapes.add_table(3, 3, Inches(1), Inches(2), Inches(8), Inches(1.5)).table
    for (row, col), value in {(0, 0): "Item", (0, 1): "Cost", (1, 0): "Servers", (1, 1): "4,000", (1, 2): "5,000", (2, 1): "900", (2, 2): "950"}.items():
        table.cell(row, col).text = value
    table.cell(0, 1).merge(table.cell(0, 2))
    table.cell(1, 0).merge(table.cell(2, 0))

    slide = deck.slides.add_slide(deck.slide_layouts[5])
    slide.shapes.title.text = "Growth"
    _three_d_bar_chart(slide)
    _waterfall_chart(slide)

    slide = deck.slides.add_slide(deck.slide_layouts[5])
    slide.shapes.title.text = "Teams"
    outer = slide.shapes.add_group_shape()
    outer.shapes.add_textbox(Inches(1), Inches(2), Inches(3), Inches(1)).text_frame.text = "Sales team in Lisbon"
    inner = outer.shapes.add_group_shape()
    inner.shapes.add_textbox(Inches(5), Inches(2), Inches(3), Inches(1)).text_frame.text = "Support team in Berlin"
    _modern_comment(deck, slide)

    slide = deck.slides.add_slide(deck.slide_layouts[5])
    slide.shapes.title.text = "Process"
    _smartart(slide)
    deck.save(target)
    return target


BOILERPLATE = ("The committee reviewed the quarterly figures and agreed that the regional offices should keep their current "
               "budgets, while the central team prepares a revised forecast for the board before the next meeting.")


def placement_document(target: Path, blocks: int = 160) -> Path:
    """A long Word document made to mislead page placement, each block starting with a marker
    (``ZQ0001``...) that says where it truly is once rendered; long paragraphs also end with one
    (``ZE0001``...), which says where a paragraph that runs over a page break ends.

    Most paragraphs repeat the same long sentence, so text alone is ambiguous; others are too
    short to place ("Yes."), numbered items, paragraphs with a footnote or a tracked deletion or
    soft hyphens,
    captions whose SEQ field result LibreOffice recomputes, text boxes, tables (some long enough
    to run over a page), headings, and every page repeats a header and a footer.
    """
    from docx.opc.constants import RELATIONSHIP_TYPE as RT

    document = docx.Document()
    section = document.sections[0]
    section.header.paragraphs[0].text = "The committee reviewed the quarterly figures"  # the same words as the body
    section.footer.paragraphs[0].text = "Internal use only"
    numbered, _ = _numbering(document)
    noted = [n for n in range(1, blocks + 1) if n % 11 == 3]
    _word_part(document, "footnotes.xml", "application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml", RT.FOOTNOTES,
               _notes_xml("footnote", {index: f"Note {n}: {BOILERPLATE[:60]}" for index, n in enumerate(noted, 1)}))
    for n in range(1, blocks + 1):
        marker = f"ZQ{n:04d}"
        kind = n % 11
        if kind == 0:
            document.add_heading(f"{marker} Part {n // 11}", level=1)
        elif kind == 1:
            document.add_paragraph(f"{marker} Yes.")
        elif kind == 2:
            _list_paragraph(document, f"{marker} {BOILERPLATE[:90]}", numbered, (n // 11) % 2)
        elif kind == 3:
            paragraph = document.add_paragraph(f"{marker} {BOILERPLATE}")
            paragraph._p.append(_runs(f'<w:r><w:footnoteReference w:id="{noted.index(n) + 1}"/></w:r>')[0])
        elif kind == 4:
            paragraph = document.add_paragraph(f"{marker} ")
            for element in _runs('<w:del w:id="1" w:author="A" w:date="2026-01-01T00:00:00Z"><w:r><w:delText xml:space="preserve">Words taken out before the vote. </w:delText></w:r></w:del>'
                                 f'<w:r><w:t>{BOILERPLATE}</w:t></w:r>'):
                paragraph._p.append(element)
        elif kind == 5:
            caption = document.add_paragraph(f"{marker} Figure ", style="Caption")
            for element in _runs('<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> SEQ Figure \\* ARABIC </w:instrText></w:r>'
                                 '<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>1</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>'
                                 f'<w:r><w:t>: {BOILERPLATE[:70]}</w:t></w:r>'):
                caption._p.append(element)
        elif kind == 6:
            rows = 60 if n % 4 == 0 else 3
            table = document.add_table(rows=rows, cols=3)
            table.style = "Table Grid"
            for index, row in enumerate(table.rows):
                for column, cell in enumerate(row.cells):
                    cell.text = f"{marker} Region" if (index, column) == (0, 0) else f"{(index * 37 + column * 11) % 997}"
            if rows > 3:  # long: runs over a page break; its end is marked, and every other one repeats its heading row
                table.cell(rows - 1, 0).text = f"ZE{n:04d} {table.cell(rows - 1, 0).text}"
                if n % 8 == 0:
                    table.rows[0]._tr.get_or_add_trPr().append(_runs('<w:tblHeader/>')[0])
        elif kind == 7:
            paragraph = document.add_paragraph(f"{marker} {BOILERPLATE[:100]}")
            for element in _runs('<w:r><w:pict><v:shape id="b" type="#_x0000_t202" style="position:absolute;margin-left:320pt;width:120pt;height:40pt;z-index:1">'
                                 f'<v:textbox><w:txbxContent><w:p><w:r><w:t>{BOILERPLATE[:50]}</w:t></w:r></w:p></w:txbxContent></v:textbox></v:shape></w:pict></w:r>'):
                paragraph._p.append(element)
        elif kind == 9:  # soft hyphens: lines break inside words, with a hyphen drawn at the end of the line
            hyphenated = " ".join("\u00ad".join(word[i:i + 3] for i in range(0, len(word), 3)) for word in BOILERPLATE.split())
            document.add_paragraph(f"{marker} {hyphenated} {hyphenated} ZE{n:04d}")
        else:
            document.add_paragraph(f"{marker} {BOILERPLATE} {BOILERPLATE} ZE{n:04d}")  # long: often runs over a page break
    document.save(target)
    return target


# --- Spreadsheets, web pages, e-books, e-mail and archives -------------------------------------

def workbook(target: Path) -> Path:
    """Three sheets as openpyxl writes them (formulas without stored results): numbers, dates and
    percentages in their formats, a merged title, a link and a chart; a hidden sheet; an empty one."""
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Revenue"
    sheet.append(["Revenue by region"])
    sheet.merge_cells("A1:E1")
    sheet.append(["Region", "Q1", "Q2", "Share", "Closed"])
    sheet.append(["North", 1200.5, 1300, 0.25, datetime.date(2024, 3, 31)])
    sheet.append(["South", 950, 1010, 0.75, datetime.date(2024, 6, 30)])
    sheet.append(["Total", "=SUM(B3:B4)", "=SUM(C3:C4)", "=D3+D4", None])
    for row in range(3, 6):
        sheet.cell(row, 2).number_format = "#,##0.00"
        sheet.cell(row, 4).number_format = "0%"
        sheet.cell(row, 5).number_format = "yyyy-mm-dd"
    sheet["A7"] = "Source"
    sheet["A7"].hyperlink = "https://example.org/revenue"
    chart = BarChart()
    chart.title = "Revenue by quarter"
    chart.add_data(Reference(sheet, min_col=2, max_col=3, min_row=2, max_row=4), titles_from_data=True)
    chart.set_categories(Reference(sheet, min_col=1, min_row=3, max_row=4))
    sheet.add_chart(chart, "G2")
    hidden = book.create_sheet("Costs")
    hidden.append(["Item", "Cost"])
    hidden.append(["Servers", 4000])
    hidden.sheet_state = "hidden"
    book.create_sheet("Empty")
    book.save(target)
    return target


def long_workbook(target: Path, rows: int = 1200) -> Path:
    book = openpyxl.Workbook()
    book.active.title = "Log"
    book.active.append(["Row", "Value"])
    for number in range(1, rows):
        book.active.append([number, f"value {number}"])
    book.save(target)
    return target


def libreoffice_copy(source: Path, target: Path, convert_to: str) -> Path:
    """``source`` saved by real LibreOffice in another format (``convert_to`` is its filter)."""
    with tempfile.TemporaryDirectory() as work:
        subprocess.run([shutil.which("soffice"), f"-env:UserInstallation=file://{work}/profile", "--headless", "--convert-to", convert_to,
                        "--outdir", work, str(source)], check=True, capture_output=True, timeout=180)
        produced = next(path for path in Path(work).iterdir() if path.is_file())
        shutil.move(produced, target)
    return target


def big_csv(target: Path, rows: int = 1500) -> Path:
    target.write_text("id;name;amount\n" + "".join(f"{n};item {n};{n * 1.5}\n" for n in range(1, rows)), encoding="utf-8")
    return target


def web_page(target: Path, tracker: str = "http://127.0.0.1:9") -> Path:
    """An article among navigation, a sidebar, a cookie banner, scripts and styles; every outside
    resource points at ``tracker`` (a server a test watches), and a frame at a local file."""
    target.write_text(f"""<!DOCTYPE html><html><head><meta charset="utf-8"><title>Duck facts</title>
<link rel="stylesheet" href="{tracker}/style.css"><script src="{tracker}/tracker.js"></script>
<style>.cookie-banner {{position: fixed; bottom: 0}}</style></head><body>
<nav class="menu"><ul><li><a href="/home">Home</a></li><li><a href="/shop">Shop</a></li><li><a href="/login">Log in</a></li></ul></nav>
<div class="cookie-banner" id="cookie-consent">We use cookies. <button>Accept all cookies</button></div>
<main><article><h1>Ducks of Europe</h1>
<p>The mallard is the most common duck in Europe, and it is found on almost every lake and river. See the
<a href="https://example.org/mallard">mallard species page</a> for its range.</p>
<img src="{tracker}/mallard.jpg" alt="A mallard on a lake">
<h2>Counts by country</h2>
<table><tr><th>Country</th><th>Pairs</th></tr><tr><td>Germany</td><td>320,000</td></tr><tr><td>France</td><td>240,000</td></tr></table>
<h2>Where to watch</h2><ol><li>Lake Constance in winter</li><li>The Camargue in spring</li></ol>
<p>Ducks moult all their flight feathers at once, so for a few weeks each summer they cannot fly at all.</p>
<iframe src="file:///etc/passwd"></iframe><iframe src="{tracker}/frame.html"></iframe>
</article><aside class="sidebar"><h3>Popular</h3><ul><li><a href="/geese">Geese</a></li><li><a href="/swans">Swans</a></li></ul></aside></main>
<footer><p>© Bird pages · <a href="/privacy">Privacy policy</a></p></footer>
<script>fetch("{tracker}/beacon");</script></body></html>""", encoding="utf-8")
    return target


def xhtml_page(target: Path) -> Path:
    target.write_text("""<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.1//EN" "http://www.w3.org/TR/xhtml11/DTD/xhtml11.dtd">
<html xmlns="http://www.w3.org/1999/xhtml"><head><title>Strict page</title></head>
<body><h1>Strict page</h1><p>An XHTML document is read as a web page, with <a href="https://example.org/x">its links</a>.</p></body></html>""",
                      encoding="utf-8")
    return target


def rss_feed(target: Path) -> Path:
    target.write_text("""<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Bird news</title>
<link>https://example.org/</link><description>Weekly notes</description>
<item><title>Mallards return</title><link>https://example.org/mallards</link><pubDate>Mon, 02 Mar 2026 10:00:00 GMT</pubDate>
<description>&lt;p&gt;The first &lt;b&gt;mallards&lt;/b&gt; are back, see &lt;a href="https://example.org/map"&gt;the map&lt;/a&gt;.&lt;/p&gt;&lt;script&gt;alert(1)&lt;/script&gt;</description></item>
<item><title>Geese leave</title><link>https://example.org/geese</link><pubDate>Tue, 03 Mar 2026 10:00:00 GMT</pubDate><description>Plain text item.</description></item>
</channel></rss>""", encoding="utf-8")
    return target


def atom_feed(target: Path) -> Path:
    target.write_text("""<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>Release notes</title>
<link href="https://example.org/releases"/><updated>2026-03-01T12:00:00Z</updated><id>urn:uuid:1</id>
<entry><title>Version 2.0</title><link href="https://example.org/releases/2.0"/><id>urn:uuid:2</id><updated>2026-03-01T12:00:00Z</updated>
<content type="html">&lt;ul&gt;&lt;li&gt;Spreadsheets&lt;/li&gt;&lt;li&gt;Web pages&lt;/li&gt;&lt;/ul&gt;</content></entry></feed>""", encoding="utf-8")
    return target


def ebook(target: Path) -> Path:
    """Three chapters whose spine order (2, 3, 1 in the manifest) is the reading order."""
    book = epub.EpubBook()
    book.set_identifier("readlens-test-book")
    book.set_title("The Duck Pond")
    book.set_language("en")
    book.add_author("Ada Drake")
    book.add_author("Bea Mallard")
    chapters = {}
    for number, title, text in [(3, "Winter", "The pond freezes."), (1, "Spring", "Ducklings hatch in April."), (2, "Summer", "Moulting season.")]:
        chapter = epub.EpubHtml(title=title, file_name=f"chapter-{number}.xhtml", lang="en")
        chapter.content = f"<h1>{title}</h1><p>{text}</p><ul><li>{title} list item</li></ul>"
        book.add_item(chapter)
        chapters[number] = chapter
    book.toc = [chapters[1], chapters[2], chapters[3]]
    book.add_item(epub.EpubNcx())
    book.add_item(epub.EpubNav())
    book.spine = [chapters[1], chapters[2], chapters[3]]
    epub.write_epub(str(target), book)
    return target


def mail(target: Path, attachments: dict[str, bytes]) -> Path:
    """An HTML e-mail with a plain-text alternative and ``attachments`` (name: bytes)."""
    message = EmailMessage()
    message["From"] = "Ada Drake <ada@example.org>"
    message["To"] = "Bea Mallard <bea@example.org>"
    message["Cc"] = "pond@example.org"
    message["Date"] = "Mon, 02 Mar 2026 10:00:00 +0000"
    message["Subject"] = "Pond report and counts"
    message.set_content("Hello Bea,\n\nThe counts are attached.\n")
    message.add_alternative("<html><body><p>Hello Bea,</p><p>The <b>counts</b> are attached; see "
                            "<a href='https://example.org/pond'>the pond page</a>.</p><script>track()</script></body></html>", subtype="html")
    for name, data in attachments.items():
        if name.endswith(".eml"):  # a forwarded e-mail is attached as a message, not as bytes
            message.add_attachment(email.message_from_bytes(data, policy=email.policy.default), filename=name)
            continue
        maintype, subtype = (mimetypes.guess_type(name)[0] or "application/octet-stream").split("/")
        message.add_attachment(data, maintype=maintype, subtype=subtype, filename=name)
    target.write_bytes(message.as_bytes())
    return target


def nested_mail(target: Path, depth: int) -> Path:
    """An e-mail whose one text part sits ``depth`` multipart levels deep."""
    opening = "".join(f'Content-Type: multipart/mixed; boundary="level{n}"\n\n--level{n}\n' for n in range(depth))
    closing = "".join(f"--level{n}--\n" for n in reversed(range(depth)))
    target.write_text(f"From: a@example.org\nTo: b@example.org\nSubject: Deep\nMIME-Version: 1.0\n{opening}"
                      f"Content-Type: text/plain\n\nHello.\n{closing}")
    return target


def archive(target: Path, members: dict[str, bytes], compression: int = zipfile.ZIP_DEFLATED) -> Path:
    with zipfile.ZipFile(target, "w", compression) as bundle:
        for name, data in members.items():
            bundle.writestr(name, data)
    return target


def damaged_part(source: Path, target: Path, name: str, data: bytes | None = None) -> Path:
    """The zip package ``source`` again as ``target``, with its part ``name`` damaged: replaced by
    ``data`` (say, cut-off XML) or, without it, stored with one byte changed, so that its checksum fails."""
    with zipfile.ZipFile(source) as package, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as copy:
        for info in package.infolist():
            if info.filename == name:
                copy.writestr(zipfile.ZipInfo(name), package.read(name) if data is None else data,
                              zipfile.ZIP_DEFLATED if data is not None else zipfile.ZIP_STORED)
            else:
                copy.writestr(info, package.read(info))
    if data is None:
        damaged = bytearray(target.read_bytes())
        with zipfile.ZipFile(target) as package:
            info = package.getinfo(name)
        start = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)
        damaged[start + info.compress_size // 2] ^= 0xFF
        target.write_bytes(bytes(damaged))
    return target


LAUGHS = b"".join([b'<!DOCTYPE bomb [<!ENTITY lol "lol">', *(b'<!ENTITY lol%d "%s">' % (n, (b"&lol%d;" % (n - 1) if n > 1 else b"&lol;") * 10)
                                                                 for n in range(1, 10)), b"]>"])


def entity_bomb(xml: bytes, where: bytes) -> bytes:
    """``xml`` with a DTD whose nested entities expand to a billion "lol"s (the "billion laughs"),
    the outermost used right after the first ``where``."""
    declaration, _, rest = xml.partition(b"?>") if xml.startswith(b"<?xml") else (b"", b"", xml)
    return declaration + (b"?>" if declaration else b"") + LAUGHS + rest.replace(where, where + b"&lol9;", 1)


def nested_archive(target: Path, depth: int, innermost: dict[str, bytes]) -> Path:
    """``depth`` archives inside each other; the innermost holds ``innermost``."""
    data = io.BytesIO()
    archive_bytes = innermost
    for level in range(depth, 0, -1):
        data = io.BytesIO()
        with zipfile.ZipFile(data, "w") as bundle:
            for name, content in archive_bytes.items():
                bundle.writestr(name, content)
        archive_bytes = {f"level-{level}.zip": data.getvalue()}
    target.write_bytes(data.getvalue())
    return target


def zip_bomb(target: Path, unpacked_mb: int = 520) -> Path:
    """A zip whose one member inflates past 500 MB (about 0.5 MB packed)."""
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as bundle:
        with bundle.open("zeros.txt", "w", force_zip64=True) as member:
            for _ in range(unpacked_mb):
                member.write(b"\0" * (1 << 20))
    return target


def mark_encrypted(path: Path, name: str) -> Path:
    """Set the "encrypted" flag of member ``name`` in its local header and the central directory,
    as a password-protected archive has it (zipfile cannot write encrypted members)."""
    data = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as bundle:
        offset = bundle.getinfo(name).header_offset
    data[offset + 6] |= 0x1
    central = data.index(b"PK\x01\x02")
    while True:
        length = int.from_bytes(data[central + 28:central + 30], "little")
        if data[central + 46:central + 46 + length] == name.encode():
            data[central + 8] |= 0x1
            break
        extra = int.from_bytes(data[central + 30:central + 32], "little") + int.from_bytes(data[central + 32:central + 34], "little")
        central += 46 + length + extra
    path.write_bytes(bytes(data))
    return path


RTF = rb"{\rtf1\ansi\deff0{\fonttbl{\f0 Times New Roman;}}\f0\fs24 {\b Pond minutes}\par The ducks voted for a bigger pond.\par}"


COLLECTION_KINDS = ("pdf", "image", "text", "audio", "docx", "pdf", "image", "text", "pdf", "pptx",
                    "image", "pdf", "text", "image", "pdf", "image", "pdf", "text", "image", "pdf")
COLLECTION_SUFFIX = {"image": "png", "text": "md", "audio": "wav"}


def _labelled_image(target: Path, number: int) -> Path:
    image = Image.new("RGB", (720, 300), "white")
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=32)
    for line, text in enumerate((f"Order {number:04d}", f"{number * 7 % 97} boxes to Lisbon", "Due on Friday")):
        draw.text((30, 30 + 80 * line), text, fill="black", font=font)
    image.save(target)
    return target


def speech(target: Path, number: int) -> Path:
    """A WAV of the first seconds of jfk.flac; its length makes each file's content its own."""
    samples = decode_audio(str(CORPUS / "faster-whisper/jfk.flac"), sampling_rate=16000)[: 16000 * 6 + number]
    with wave.open(str(target), "wb") as output:
        output.setnchannels(1)
        output.setsampwidth(2)
        output.setframerate(16000)
        output.writeframes((samples * 32767).astype("<i2").tobytes())
    return target


def collection(folder: Path, count: int) -> list[Path]:
    """``count`` files of different content, of every kind in ``COLLECTION_KINDS``' proportions
    (PDFs of 2-4 pages: prose, a picture, a wide table, another picture; images with text,
    Markdown, speech, DOCX, PPTX), every third in a subfolder: a collection for the batch command
    and its benchmark."""
    figures = figures_pdf(Path(tempfile.mkdtemp(prefix="readlens-fixture-")) / "figures.pdf")
    # prose, a picture to describe, a wide table, another picture: pages with figures and pages without
    pages = [CORPUS_PAGES[0], (figures, 0), CORPUS_PAGES[2], (figures, 3)]
    made = []
    for number in range(count):
        kind = COLLECTION_KINDS[number % len(COLLECTION_KINDS)]
        where = folder / "nested" if number % 3 == 2 else folder
        where.mkdir(parents=True, exist_ok=True)
        target = where / f"{number:03d}-{kind}.{COLLECTION_SUFFIX.get(kind, kind)}"
        if kind == "pdf":
            multi_page_pdf(target, number % 3 + 2, pages)
            with open(target, "ab") as handle:  # a comment after %%EOF: the same pages, other bytes
                handle.write(f"%collection file {number}\n".encode())
        elif kind == "image":
            _labelled_image(target, number)
        elif kind == "text":
            target.write_text(f"# Note {number}\n\nShip {number * 3} crates on day {number % 28 + 1}.\n", encoding="utf-8")
        elif kind == "audio":
            speech(target, number)
        elif kind == "docx":
            word_document(target)
            document = docx.Document(target)
            document.add_paragraph(f"Reference {number}.")
            document.save(target)
        else:
            slide_deck(target)
            deck = Presentation(target)
            deck.slides[0].shapes.title.text = f"Launch plan {number}"
            deck.save(target)
        made.append(target)
    return made
