"""Fixtures made by the tests themselves: small real files of every kind the readers accept."""

from __future__ import annotations

import io
import json
import struct
import wave
import zipfile
import zlib
from pathlib import Path

import docx
import pypdfium2 as pdfium
from faster_whisper import decode_audio
from PIL import Image, ImageDraw, ImageFont
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
    (PDFs of 2-4 real pages, images with text, Markdown, speech, DOCX, PPTX), every third in a
    subfolder: a collection for the batch command and its benchmark."""
    made = []
    for number in range(count):
        kind = COLLECTION_KINDS[number % len(COLLECTION_KINDS)]
        where = folder / "nested" if number % 3 == 2 else folder
        where.mkdir(parents=True, exist_ok=True)
        target = where / f"{number:03d}-{kind}.{COLLECTION_SUFFIX.get(kind, kind)}"
        if kind == "pdf":
            multi_page_pdf(target, number % 3 + 2)
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
