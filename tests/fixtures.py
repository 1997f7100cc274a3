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
import zipfile
import zlib
from email.message import EmailMessage
from pathlib import Path

import docx
import openpyxl
import pypdfium2 as pdfium
from ebooklib import epub
from openpyxl.chart import BarChart, Reference
from PIL import Image, ImageDraw
from pptx import Presentation
from pptx.chart.data import CategoryChartData
from pptx.enum.chart import XL_CHART_TYPE
from pptx.util import Inches

from tests.conftest import CORPUS


def multi_page_pdf(target: Path, pages: int) -> Path:
    """A ``pages``-page PDF made of real corpus pages (prose, a ruled table, a scan), repeated."""
    sources = [pdfium.PdfDocument(str(CORPUS / name)) for name in ("markitdown/test.pdf", "pdfplumber/issue-140-example.pdf", "pdfplumber/nics-background-checks-2015-11.pdf")]
    merged = pdfium.PdfDocument.new()
    for index in range(pages):
        merged.import_pages(sources[index % len(sources)], [0])
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


def archive(target: Path, members: dict[str, bytes], compression: int = zipfile.ZIP_DEFLATED) -> Path:
    with zipfile.ZipFile(target, "w", compression) as bundle:
        for name, data in members.items():
            bundle.writestr(name, data)
    return target


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
