"""Test vectors: (file, kind, must_include, must_not_include, pages) through every route —
``read_file`` and the command line — over the shared corpus and fixtures we generate."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image

from readers import read_file
from readers.services import Services
from tests import fixtures
from tests.conftest import CORPUS, ROOT, make_settings

EXPECTED = {entry["file"]: entry for entry in json.loads((CORPUS / "expected.json").read_text())}


def plain(strings: list[str]) -> list[str]:
    """expected.json strings as a plain reader (not markitdown's Markdown) should find them."""
    found = []
    for value in strings:
        if value.startswith("data:image"):
            continue
        image = re.fullmatch(r"!\[(.*)\]\(.*\)", value)
        found.append(image.group(1) if image else value.lstrip("# "))
    return found


@dataclass
class Vector:
    file: str
    kind: str
    must_include: list[str]
    must_not_include: list[str] = field(default_factory=list)
    pages: tuple[int | None, int | None] = (None, None)
    page_count: int | None = None
    needs: str | None = None  # a program the vector needs (skipped, with the reason, without it)

    @property
    def id(self) -> str:
        return self.file


def corpus(file: str, kind: str, extra: list[str] = (), exclude: list[str] = (), unseen: list[str] = (), **kw) -> Vector:
    """A corpus file's vector from expected.json, plus ``extra`` and ``exclude``; ``unseen`` drops
    expected strings that are no content a person sees (an ODP slide's internal name)."""
    entry = EXPECTED[file]
    include = [value for value in plain(entry.get("must_include", [])) if value not in unseen]
    return Vector(str(CORPUS / file), kind, include + list(extra), list(exclude) + entry.get("must_not_include", []), **kw)


CORPUS_VECTORS = [
    corpus("markitdown/test.pdf", "pdf", exclude=["Largelanguagemodels"], page_count=1),
    corpus("markitdown/test.docx", "docx", extra=["# Abstract", "## d666f1f7-46cb-42bd-9a39-9a39cf2a509f",
                                                  "| 13 | 14 | 49e168b7-d2ae-407f-a055-2167576f39a1 | 15 | 16 | 17 |"],
           exclude=["49e168b7- d2ae"], page_count=3),
    corpus("markitdown/test.pptx", "pptx", page_count=6),
    corpus("markitdown/test.jpg", "image", page_count=1),
    corpus("pdfplumber/nics-background-checks-2015-11.pdf", "pdf"),
    corpus("pdfplumber/issue-140-example.pdf", "pdf"),
    corpus("python-pptx/tbl-cell.pptx", "pptx", page_count=3),
    corpus("docling/word_sample.docx", "docx", extra=["| Leaves | Ash, Elm, Maple | 50 |", "# Let’s swim!", "## Let’s eat", "- Paddle about",
                                                      "2. Don’t forget to drink water", "[Picture: A cartoon duck holding a paper"],
           exclude=["Leaves Ash, Elm, Maple 50", "SEQ Figure"], page_count=2),
    corpus("docling/powerpoint_sample.pptx", "pptx", extra=["Speaker notes:\nSome notes on the second slide.", "1. List item4", "- And baz things",
                                                           "| | A merged with B | | C | A | B | C |"], page_count=3),
    corpus("docling/formats/powerpoint_comments.pptx", "pptx", extra=["> **Comment** by John Reviewer: This is a sample reviewer comment",
                                                                     "> **Reply** by Jane Smith: This is a sample response",
                                                                     "[Python library](https://pypi.org/project/docling)"], page_count=3),
    corpus("docling/formats/powerpoint_malformed_pictures.pptx", "pptx", extra=["[SLIDE 2]\nSlide With Dangling Rel\n\n[Picture: _good_picture.png — its image is missing from the file]",
                                                                               "[SLIDE 3]\nSlide With Wrong Content Type\n\n[Picture: _good_picture.png]"], page_count=3),
    corpus("docling/formats/powerpoint_unrecognized_shape.pptx", "pptx", extra=["# Next Steps", "- Enterprise segment led growth at 24%."], page_count=3),
    corpus("docling/formats/csv-semicolon.csv", "csv", extra=["| Index | Customer Id | First Name |", "| Dominguez;Mcmillan and Donovan |"]),
    corpus("docling/formats/csv-comma-in-cell.csv", "csv", extra=["| a | , | c | d |"]),
    corpus("docling/formats/legacy_sample.doc", "docx", extra=["| Leaves | Ash, Elm, Maple | 50 |"], exclude=["WordDocument"], needs="soffice"),
    corpus("docling/formats/legacy_sample.ppt", "pptx", extra=["[SLIDE 2]", "# Second slide title"], page_count=3, needs="soffice"),
    corpus("docling/formats/text_document_01.odt", "docx", needs="soffice"),
    corpus("docling/formats/odf_presentation_01.odp", "pptx", unseen=["Slide3"], extra=["[SLIDE 3]", "List item4"], page_count=3, needs="soffice"),
    corpus("docling/formats/odf_table_with_title_01.ods", "xlsx", extra=["[SHEET 1]\n# Sheet1", "| Year | Freshwater Ducks |", "| 2024 | 180 |"],
           page_count=1, needs="soffice"),
    corpus("docling/formats/eml_simple.eml", "email", extra=["From: Alice Example <alice@example.com>", "Subject: Simple Email"], page_count=1),
    corpus("docling/formats/eml_with_attachment.eml", "email", extra=["Attachments: test.txt", "[FILE: test.txt]\n\n[PAGE 2]\nThis is a test attachment file."],
           page_count=2),
    corpus("docling/formats/msg_simple.msg", "email", extra=["From: Alice Example <alice@example.com>", "To: Bob Example <bob@example.com>"], page_count=1),
    corpus("docling/formats/msg_with_attachment.msg", "email", extra=["[FILE: test.txt]", "This is a test attachment file.", "[FILE: report.pdf]",
                                                                     "(not read: report.pdf is damaged"], page_count=3),
    corpus("docling/formats/epub_purvis_poetry.epub", "epub", extra=["[PAGE 1]\n# Poetry\n\nBy Sarah Louisa Forten Purvis", "## The Grave of the Slave"],
           page_count=5),
    corpus("docling/formats/wiki_duck.html", "html", extra=["## Etymology", "[waterfowl](/wiki/Waterfowl)"],
           exclude=["Jump to content", "Create account", "Personal tools", "move to sidebar"]),
    corpus("docling/formats/example_01.html", "html", extra=["# Introduction", "- First item in unordered list", "42. First item in ordered list with start",
                                                             "![Example image](example_image_01.png)"], page_count=1),
    corpus("docling/formats/table_01.html", "html", extra=["# Header", "| A | B |", "| 1... | 2... |"], page_count=1),
    corpus("docling/formats/hyperlink_01.html", "html", extra=["# Something", "[This page](#)"], page_count=1),
    Vector(str(CORPUS / "python-docx/images/python.bmp"), "image", ["ImageSize: 211x71", "Format: BMP"]),
    Vector(str(CORPUS / "python-docx/images/python-icon.jpeg"), "image", ["ImageSize: 204x204"]),
    Vector(str(CORPUS / "python-docx/images/72-dpi.tiff"), "image", ["ImageSize: 48x48", "Format: TIFF"]),
    Vector(str(CORPUS / "python-docx/images/300-dpi.png"), "image", ["ImageSize: 860x579"]),
    Vector(str(CORPUS / "docling/webp-test.webp"), "image", ["ImageSize: 2000x2829", "Format: WEBP"]),
    Vector(str(CORPUS / "markitdown/test.pptx"), "pptx", ["[SLIDE 3]", "1b92870d-e3b5-4e65-8153-919f4ff45592"], ["[SLIDE 1]", "[SLIDE 4]"], pages=(3, 3)),
]


@pytest.fixture(scope="session")
def generated(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("generated")
    made = {
        "deck.pptx": fixtures.slide_deck(folder / "deck.pptx"),
        "review.docx": fixtures.word_document(folder / "review.docx"),
        "structured.docx": fixtures.structured_word_document(folder / "structured.docx"),
        "structured.pptx": fixtures.structured_deck(folder / "structured.pptx"),
        "frames.tiff": fixtures.tiff_frames(folder / "frames.tiff"),
        "animated.gif": fixtures.animated_gif(folder / "animated.gif"),
        "camera.jpg": fixtures.jpeg_with_exif(folder / "camera.jpg"),
        "eight.pdf": fixtures.multi_page_pdf(folder / "eight.pdf", 8),
        "workbook.xlsx": fixtures.workbook(folder / "workbook.xlsx"),
        "long.xlsx": fixtures.long_workbook(folder / "long.xlsx"),
        "big.csv": fixtures.big_csv(folder / "big.csv"),
        "page.html": fixtures.web_page(folder / "page.html"),
        "strict.xhtml": fixtures.xhtml_page(folder / "strict.xhtml"),
        "news.xml": fixtures.rss_feed(folder / "news.xml"),
        "releases.xml": fixtures.atom_feed(folder / "releases.xml"),
        "pond.epub": fixtures.ebook(folder / "pond.epub"),
        "catalogued.epub": fixtures.catalogued_ebook(folder / "catalogued.epub"),
        "names-only.msg": fixtures.outlook_mail(folder / "names-only.msg"),
        **fixtures.text_files(folder / "text"),
    }
    (folder / "minutes.rtf").write_bytes(fixtures.RTF)
    made["minutes.rtf"] = folder / "minutes.rtf"
    (folder / "prices.csv").write_bytes("商品,価格,在庫\nりんご,120,35\nみかん,80,120\n".encode("shift_jis"))
    made["prices.csv"] = folder / "prices.csv"
    (folder / "table.tsv").write_text("name\tcity\nZoë\tKöln\n", encoding="utf-8")
    made["table.tsv"] = folder / "table.tsv"
    if shutil.which("soffice"):
        for name, convert_to in [("workbook.xls", "xls:MS Excel 97"), ("workbook.ods", "ods"), ("workbook.xlsm", "xlsm:Calc MS Excel 2007 VBA XML")]:
            made[name] = fixtures.libreoffice_copy(made["workbook.xlsx"], folder / name, convert_to)
    pdf = (CORPUS / "markitdown/test.pdf").read_bytes()
    made["report.eml"] = fixtures.mail(folder / "report.eml", {"counts.csv": b"species,count\nmallard,12\nteal,4\n", "paper.pdf": pdf})
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w") as bundle:
        bundle.writestr("deep/table.csv", "a,b\n1,2\n")
    made["bundle.zip"] = fixtures.archive(folder / "bundle.zip", {
        "docs/report.pdf": pdf, "sheets/sales.xlsx": made["workbook.xlsx"].read_bytes(), "notes/readme.md": b"# Read me\nNaive notes.\n",
        "mail/report.eml": made["report.eml"].read_bytes(), "inner.zip": inner.getvalue(),
        "broken.docx": (CORPUS / "markitdown/test.docx").read_bytes()[:3000], "../../escape.txt": b"Names are never paths.\n"})
    png_named_pdf = folder / "picture.pdf"
    png_named_pdf.write_bytes((CORPUS / "python-docx/images/300-dpi.png").read_bytes())
    made["picture.pdf"] = png_named_pdf
    return made


WORKBOOK = ["[SHEET 1]\n# Revenue", "Revenue by region\n\n| Region | Q1 | Q2 | Share | Closed |", "| North | 1,200.50 | 1300 | 25% | 2024-03-31 |",
            "| Total | 2,150.50 | 2310 | 100% |", "[SHEET 2]\n# Costs\n(hidden sheet)", "| Servers | 4000 |", "[SHEET 3]\n# Empty\n(empty sheet)"]
GENERATED_VECTORS = [
    Vector("deck.pptx", "pptx", ["[SLIDE 1]\n# Launch plan", "Ship the beta in March", "Speaker notes:\nMention the waiting list.",
                                 "| Item | Cost |", "| Servers | 4,000 |", "Chart: Monthly active users", "| Q3 | 910 |", "[Picture: The Python logo]"], page_count=4),
    Vector("review.docx", "docx", ["[PAGE 1]", "Quarterly review", "| Region | Revenue |", "| North | 1,200 |", "[PAGE 2]", "hiring plans"], page_count=2),
    Vector("structured.docx", "docx", ["[PAGE 1]\nHeader: ACME Corp — Confidential", "# Quarterly report", "# Summary", "## Plans", "### Regional detail",
                                       "## Ausblick nach Regionen", "[the full report](https://example.com/report)", "[the data](https://example.com/data)",
                                       "region[^1] and costs fell[^2]", "[^1]: Source: the finance team's ledger.", "[^e1]: Figures are unaudited.",
                                       '> **Comment** by Ada Lovelace on "the new budget": Which meeting was this?', "> **Reply** by Grace Hopper: The March board meeting.", "Hiring resumes in April for engineering.",
                                       "Boxed quote: growth is steady.", "| Region | First half | |", "| South and West | 950 | 990 |",
                                       "[PAGE 2]\n[Picture: The Python logo]\n\nFigure 1: The logo of the language", "[PAGE 3]\n# Outlook",
                                       "Footer: Quarterly report, page", "Chart: Share of costs (pie chart)", "| Salaries | 0.62 |",
                                       "Diagram: Steps\n- Plan\n   - Research"],
           ["HIDDEN-NOTE-TO-SELF", "next year", "SEQ Figure", "HYPERLINK", "fldChar"], page_count=7),
    Vector("structured.pptx", "pptx", ["[SLIDE 1]\n# Agenda", "[pricing page](https://example.com/pricing)", "a) Hire", "c) Ship",
                                       "| Item | Cost | |", "| Servers | 4,000 | 5,000 |", "Chart: Revenue by region (3-D bar chart)",
                                       "| Category | 2025 | 2026 |", "| West | 700 | 720 |", "Sales team in Lisbon", "Support team in Berlin",
                                       "Diagram: Process diagram", "Chart: Cash bridge (waterfall chart)", "| Costs | -25 |"],
           ["could not be read", "not available in your version"], page_count=5),
    Vector("frames.tiff", "image", ["[IMAGE: frames.tiff - FRAME 2]", "Frames: 3"], page_count=3),
    Vector("animated.gif", "image", ["[IMAGE: animated.gif]", "Frames: 4", "Format: GIF"], page_count=1),
    Vector("camera.jpg", "image", ["Make: Canon", "Model: EOS 5D", "Author: Ada Lovelace", "Description: A blue test card"]),
    Vector("eight.pdf", "pdf", ["[PAGE 6]", "NICS Firearm Background Checks", "[PAGE 7]", "Large language models"], ["[PAGE 5]", "[PAGE 8]"], pages=(6, 7), page_count=8),
    Vector("picture.pdf", "image", ["[IMAGE: picture.pdf]", "Format: PNG"]),
    Vector("notes.md", "text", ["A naïve plan, Grüße."]),
    Vector("legacy.txt", "text", ["Grüße aus Köln"]),
    Vector("table.csv", "csv", ["| name | city |", "| Zoë | Grüße |"]),
    Vector("prices.csv", "csv", ["| 商品 | 価格 | 在庫 |", "| りんご | 120 | 35 |"]),
    Vector("table.tsv", "csv", ["| name | city |", "| Zoë | Köln |"]),
    Vector("big.csv", "csv", ["(rows 1–500 of 1,500 shown)", "| id | name | amount |", "| 499 | item 499 | 748.5 |"], ["item 500"]),
    Vector("workbook.xlsx", "xlsx", WORKBOOK + ["[Source](https://example.org/revenue)", "Chart: Revenue by quarter (column chart)\n\n| Category | Q1 | Q2 |",
                                                "| South | 950.00 | 1010 |"], ["=SUM", "=D3"], page_count=3, needs="soffice"),
    Vector("workbook.xls", "xlsx", WORKBOOK, ["=SUM"], page_count=3, needs="soffice"),
    Vector("workbook.ods", "xlsx", WORKBOOK, ["=SUM"], page_count=3, needs="soffice"),
    Vector("workbook.xlsm", "xlsx", WORKBOOK + ["Chart: Revenue by quarter (column chart)"], page_count=3, needs="soffice"),
    Vector("workbook.xlsx", "xlsx", ["[SHEET 2]\n# Costs"], ["[SHEET 1]", "[SHEET 3]"], pages=(2, 2), page_count=3),
    Vector("long.xlsx", "xlsx", ["(rows 1–500 of 1,200 shown)", "| 499 | value 499 |"], ["value 500"], page_count=1),
    Vector("page.html", "html", ["# Ducks of Europe", "[mallard species page](https://example.org/mallard)", "| Country | Pairs |",
                                 "| Germany | 320,000 |", "1. Lake Constance in winter", "cannot fly at all"],
           ["Accept all cookies", "Log in", "Privacy policy", "Popular", "fetch(", "tracker", "<script", "<p>"]),
    Vector("strict.xhtml", "html", ["# Strict page", "[its links](https://example.org/x)"], ["<?xml", "<p>"]),
    Vector("news.xml", "feed", ["# Bird news", "## Mallards return\nDate: Mon, 02 Mar 2026 10:00:00 GMT\nLink: https://example.org/mallards",
                                "The first **mallards** are back, see [the map](https://example.org/map).", "## Geese leave"], ["alert(1)", "<p>"]),
    Vector("releases.xml", "feed", ["# Release notes", "## Version 2.0", "- Spreadsheets\n- Web pages"], ["<ul>"]),
    Vector("pond.epub", "epub", ["[PAGE 1]\n# The Duck Pond\n\nBy Ada Drake, Bea Mallard\n\nLanguage: en\nIdentifier: readlens-test-book\n\n# Spring", "[PAGE 2]\n# Summer",
                                 "[PAGE 3]\n# Winter\n\nThe pond freezes.\n\n- Winter list item"], ["<h1>", "<?xml"], page_count=3),
    Vector("catalogued.epub", "epub", ["[PAGE 1]\n# A Year on the Pond\n\nBy Ada Drake\n\nPublisher: Pond Press\nPublished: 2024-05-01\nLanguage: en-GB\n"
                                        "Identifier: urn:isbn:9780000000002\nSubjects: Ponds; Ducks--Europe\n\nDescription: A **naturalist's diary** of one village pond, "
                                        "from the first ice to the last heron.\n\nWith counts of every duck.\n\n# Spring",
                                        "The café by the pond sells crème brûlée.", "The heron’s “last stand” – a quiet one."], ["\ufffd", "<p>", "<b>"], page_count=3),
    Vector("minutes.rtf", "docx", ["Pond minutes", "The ducks voted for a bigger pond."], ["\\rtf1", "fonttbl"], page_count=1, needs="soffice"),
    Vector("report.eml", "email", ["From: Ada Drake <ada@example.org>", "To: Bea Mallard <bea@example.org>", "Cc: pond@example.org",
                                   "Subject: Pond report and counts", "Attachments: counts.csv, paper.pdf",
                                   "The **counts** are attached; see [the pond page](https://example.org/pond).",
                                   "[FILE: counts.csv]\n\n[PAGE 2]\n| species | count |", "[FILE: paper.pdf]\n\n[PAGE 3]", "Large language models"],
           ["track()", "JVBERi0"], page_count=3),
    Vector("names-only.msg", "email", ["To: Alice Smith <alice@example.org>; Bob Jones <bob@example.org>\nCc: Carol White <carol@example.org>",
                                      "The café by the pond – “open” again."], ["\ufffd"], page_count=1),
    Vector("bundle.zip", "zip", ["[FILE: docs/report.pdf]\n\n[PAGE 1]", "Large language models", "[FILE: sheets/sales.xlsx]\n\n[PAGE 2]\n# Revenue",
                                 "[PAGE 4]\n# Empty\n(empty sheet)", "[FILE: notes/readme.md]\n\n[PAGE 5]\n# Read me", "[FILE: mail/report.eml]\n\n[PAGE 6]\nFrom: Ada",
                                 "[FILE: mail/report.eml/counts.csv]\n\n[PAGE 7]", "[FILE: mail/report.eml/paper.pdf]",
                                 "[FILE: inner.zip/deep/table.csv]\n\n[PAGE 9]\n| a | b |", "[FILE: broken.docx]\n\n[PAGE 10]\n(not read: broken.docx",
                                 "[FILE: ../../escape.txt]\n\n[PAGE 11]\nNames are never paths."], page_count=11, needs="soffice"),
    Vector("bundle.zip", "zip", ["[FILE: mail/report.eml/paper.pdf]\n\n[PAGE 8]"], ["[PAGE 7]", "[PAGE 9]"], pages=(8, 8), page_count=11),
    Vector("script.py", "text", ["return 'Grüße'"]),
    Vector("analysis.ipynb", "text", ["# Analysis", "```python\nprint('naïve')\n```"], ['"cell_type"']),
]


def resolve(vector: Vector, generated: dict[str, Path]) -> Path:
    return generated.get(vector.file) or Path(vector.file)


def squeeze(text: str) -> str:
    return " ".join(text.split())


def unmarked(text: str) -> str:
    """The text without Markdown's inline marks (links' targets, emphasis): other projects' expected
    strings are plain text, and a Markdown reader keeps them with their links and bold."""
    return re.sub(r"\*\*?|(?<!\w)_|\\(?=\W)", "", re.sub(r"!?\[([^\]]*)\]\((?:[^()]|\([^()]*\))*\)", r"\1", text))


def check_text(text: str, vector: Vector) -> None:
    """Line breaks are layout (a PDF wraps a title), so inclusion ignores how whitespace runs."""
    for needle in vector.must_include:
        assert squeeze(needle) in squeeze(text) or squeeze(needle) in squeeze(unmarked(text)), f"{needle!r} missing from {vector.file}"
    for needle in vector.must_not_include:
        assert needle not in text and (needle != needle.lower() or needle not in text.lower()), f"{needle!r} found in {vector.file}"


ALL = CORPUS_VECTORS + GENERATED_VECTORS


def skip_without(vector: Vector) -> None:
    if vector.needs and shutil.which(vector.needs) is None:
        pytest.skip(f"needs {vector.needs} (make setup installs it)")


@pytest.mark.parametrize("vector", ALL, ids=[v.id.rsplit("/", 2)[-1] + (f"@{v.pages}" if v.pages != (None, None) else "") for v in ALL])
def test_read_file(vector, generated, shared_services):
    skip_without(vector)
    reading = read_file(resolve(vector, generated), *vector.pages, services=shared_services)
    assert reading.kind == vector.kind
    if vector.page_count is not None:
        assert reading.page_count == vector.page_count
    check_text(reading.as_text(), vector)
    assert [p.number for p in reading.pages] == sorted(p.number for p in reading.pages)


# The command line is a thin layer over read_file: one vector of each kind, and every page range.
CLI = [vector for index, vector in enumerate(ALL) if vector.pages != (None, None) or vector.kind not in {v.kind for v in ALL[:index]}]


@pytest.mark.parametrize("vector", CLI, ids=[v.id.rsplit("/", 2)[-1] + (f"@{v.pages}" if v.pages != (None, None) else "") for v in CLI])
def test_cli(vector, generated, shared_services):
    skip_without(vector)
    start, end = vector.pages
    command = [sys.executable, "-m", "readers", str(resolve(vector, generated)), "--format", "json"]
    if start:
        command += ["--pages", f"{start}-{end}"]
    env = {**os.environ, "READLENS_CACHE_DIR": str(shared_services.settings.cache_dir), "VISION_PROVIDER": "none"}
    result = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["kind"] == vector.kind
    check_text(data["text"], vector)


def test_detection_trusts_bytes_not_names(generated, shared_services):
    reading = read_file(generated["picture.pdf"], services=shared_services)
    assert (reading.kind, reading.mime) == ("image", "image/png")


def test_renders_are_real_pngs_of_the_page_size(shared_services):
    reading = read_file(CORPUS / "markitdown/test.pdf", services=shared_services)
    image = Image.open(io.BytesIO(reading.pages[0].image))
    width, height = pdfium.PdfDocument(str(CORPUS / "markitdown/test.pdf"))[0].get_size()  # points
    assert image.format == "PNG"
    assert abs(image.width - width * 150 / 72) <= 1 and abs(image.height - height * 150 / 72) <= 1
    assert image.size[0] in (1275, 1276)  # US Letter is 8.5 in wide


@pytest.mark.parametrize("file", ["markitdown/test.pptx", "markitdown/test.docx"])
def test_office_pages_are_rendered(file, shared_services):
    reading = read_file(CORPUS / file, services=shared_services, images=True)
    for page in reading.pages:
        image = Image.open(io.BytesIO(page.image))
        assert image.format == "PNG" and min(image.size) > 500
    if reading.kind == "pptx":  # 16:9 or 4:3 slides are wider than tall
        assert all(Image.open(io.BytesIO(p.image)).width > Image.open(io.BytesIO(p.image)).height for p in reading.pages)


def test_model_image_is_capped_but_not_upscaled(shared_services, tmp_path):
    wide = tmp_path / "wide.png"
    Image.new("RGB", (5000, 1000), "white").save(wide)
    reading = read_file(wide, services=shared_services)
    assert Image.open(io.BytesIO(reading.pages[0].image)).size == (2048, 410)
    small = Services(make_settings(tmp_path / "c", max_image_side=800))
    assert Image.open(io.BytesIO(read_file(wide, services=small).pages[0].image)).size == (800, 160)


def test_messages_carry_every_page_image_in_multimodal_mode(generated, shared_services):
    reading = read_file(generated["eight.pdf"], 2, 4, multimodal=True, services=shared_services)
    openai = reading.as_messages("openai")
    anthropic = reading.as_messages("anthropic")
    assert [p["type"] for p in openai] == ["text", "image_url"] * 3
    assert all(p["image_url"]["url"].startswith("data:image/png;base64,iVBORw0KGgo") for p in openai if p["type"] == "image_url")
    assert [p["type"] for p in anthropic] == ["text", "image"] * 3
    assert anthropic[1]["source"]["media_type"] == "image/png" and anthropic[1]["source"]["type"] == "base64"
    assert openai[0]["text"].startswith("[PAGE 2]")
    text_only = read_file(generated["eight.pdf"], 2, 4, multimodal=False, services=shared_services)
    assert text_only.as_messages("openai") == [{"type": "text", "text": text_only.as_text()}]


def test_as_text_format(generated, shared_services):
    reading = read_file(generated["deck.pptx"], 2, 2, services=shared_services)
    reading.pages[0].description = "A table of costs."
    assert reading.as_text() == "[SLIDE 2]\n# Budget\n\n| Item | Cost |\n|---|---|\n| Servers | 4,000 |\n\n[SLIDE 2 - VISUAL CONTENT]\nA table of costs."
    reading.question = "What does it cost?"
    assert '[SLIDE 2 - VISUAL CONTENT (Query: "What does it cost?")]' in reading.as_text()


def test_max_pages_reads_up_to_the_limit_with_a_warning(generated, tmp_path):
    services = Services(make_settings(tmp_path / "cache", max_pages=3))
    reading = read_file(generated["eight.pdf"], services=services)
    assert [p.number for p in reading.pages] == [1, 2, 3]
    assert reading.page_count == 8
    assert any("MAX_PAGES" in w for w in reading.warnings)


def test_second_read_is_served_from_the_disk_cache(generated, tmp_path):
    services = Services(make_settings(tmp_path / "cache"))
    first = read_file(generated["eight.pdf"], 1, 3, services=services)
    marked = 0
    for entry in services.store.folder(first.sha256).glob("*.json"):  # mark what the cache holds
        data = json.loads(entry.read_text())
        if isinstance(data, dict) and "text" in data:
            entry.write_text(json.dumps({**data, "text": "SERVED FROM CACHE"}))
            marked += 1
    assert marked == 3
    again = read_file(generated["eight.pdf"], 1, 3, services=services)
    assert [p.text for p in again.pages] == ["SERVED FROM CACHE"] * 3
    assert [p.image for p in again.pages] == [p.image for p in first.pages]


def test_cache_is_keyed_by_content_not_name(generated, tmp_path):
    services = Services(make_settings(tmp_path / "cache"))
    renamed = tmp_path / "renamed.docx"
    renamed.write_bytes(generated["review.docx"].read_bytes())
    read_file(generated["review.docx"], services=services)
    entries = {p.name for p in services.store.root.iterdir()}
    read_file(renamed, services=services)
    assert {p.name for p in services.store.root.iterdir()} == entries


def test_a_slide_without_text_is_not_called_a_scan(shared_services, tmp_path):
    from pptx import Presentation
    from pptx.util import Inches

    deck = Presentation()
    deck.slides.add_slide(deck.slide_layouts[6]).shapes.add_picture(str(CORPUS / "python-docx/images/python.bmp"), Inches(1), Inches(1))
    deck.save(tmp_path / "picture-only.pptx")
    reading = read_file(tmp_path / "picture-only.pptx", services=shared_services, images=True)
    assert reading.pages[0].image is not None and reading.pages[0].text.startswith("[Picture")
    assert not any("text layer" in warning for warning in reading.warnings)


def test_an_explicit_range_is_also_capped_by_max_pages(generated, tmp_path):
    services = Services(make_settings(tmp_path / "cache", max_pages=3))
    reading = read_file(generated["eight.pdf"], 2, 8, services=services)
    assert [p.number for p in reading.pages] == [2, 3, 4]
    assert any("read pages 2-4 of 2-8 (MAX_PAGES is 3)" in w for w in reading.warnings)


def test_services_do_not_measure_the_cache_to_hand_it_out(tmp_path):
    class Unmeasurable(dict):
        def __len__(self):
            raise AssertionError("counting the cache reads every shard")

    cache = Unmeasurable()
    services = Services(make_settings(tmp_path), cache=cache)
    assert services.cache is cache
