"""The vectors of the files we generate (``testkit.fixtures``): what each must and must not give."""

from __future__ import annotations

import io
import shutil
import zipfile
from pathlib import Path

from testkit import CORPUS, fixtures
from tests.vectors import Vector


def generate(folder: Path) -> dict[str, Path]:
    """The generated files the vectors name, made in ``folder``."""
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
        for name, convert_to in [
            ("workbook.xls", "xls:MS Excel 97"),
            ("workbook.ods", "ods"),
            ("workbook.xlsm", "xlsm:Calc MS Excel 2007 VBA XML"),
        ]:
            made[name] = fixtures.libreoffice_copy(made["workbook.xlsx"], folder / name, convert_to)
    pdf = (CORPUS / "markitdown/test.pdf").read_bytes()
    made["report.eml"] = fixtures.mail(
        folder / "report.eml", {"counts.csv": b"species,count\nmallard,12\nteal,4\n", "paper.pdf": pdf}
    )
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w") as bundle:
        bundle.writestr("deep/table.csv", "a,b\n1,2\n")
    made["bundle.zip"] = fixtures.archive(
        folder / "bundle.zip",
        {
            "docs/report.pdf": pdf,
            "sheets/sales.xlsx": made["workbook.xlsx"].read_bytes(),
            "notes/readme.md": b"# Read me\nNaive notes.\n",
            "mail/report.eml": made["report.eml"].read_bytes(),
            "inner.zip": inner.getvalue(),
            "broken.docx": (CORPUS / "markitdown/test.docx").read_bytes()[:3000],
            "../../escape.txt": b"Names are never paths.\n",
        },
    )
    png_named_pdf = folder / "picture.pdf"
    png_named_pdf.write_bytes((CORPUS / "python-docx/images/300-dpi.png").read_bytes())
    made["picture.pdf"] = png_named_pdf
    return made


WORKBOOK = [
    "[SHEET 1]\n# Revenue",
    "Revenue by region\n\n| Region | Q1 | Q2 | Share | Closed |",
    "| North | 1,200.50 | 1300 | 25% | 2024-03-31 |",
    "| Total | 2,150.50 | 2310 | 100% |",
    "[SHEET 2]\n# Costs\n(hidden sheet)",
    "| Servers | 4000 |",
    "[SHEET 3]\n# Empty\n(empty sheet)",
]
GENERATED_VECTORS = [
    Vector(
        "deck.pptx",
        "pptx",
        [
            "[SLIDE 1]\n# Launch plan",
            "Ship the beta in March",
            "Speaker notes:\nMention the waiting list.",
            "| Item | Cost |",
            "| Servers | 4,000 |",
            "Chart: Monthly active users",
            "| Q3 | 910 |",
            "[Picture: The Python logo]",
        ],
        page_count=4,
    ),
    Vector(
        "review.docx",
        "docx",
        ["[PAGE 1]", "Quarterly review", "| Region | Revenue |", "| North | 1,200 |", "[PAGE 2]", "hiring plans"],
        page_count=2,
    ),
    Vector(
        "structured.docx",
        "docx",
        [
            "[PAGE 1]\n# Quarterly report",
            "# Summary",
            "## Plans",
            "### Regional detail",
            "## Ausblick nach Regionen",
            "[the full report](https://example.com/report)",
            "[the data](https://example.com/data)",
            "region[^1] and costs fell[^2]",
            "[^1]: Source: the finance team's ledger.",
            "[^e1]: Figures are unaudited.",
            '> **Comment** by Ada Lovelace on "the new budget": Which meeting was this?',
            "> **Reply** by Grace Hopper: The March board meeting.",
            "Hiring resumes in April for engineering.",
            "Boxed quote: growth is steady.",
            "| Region | First half | First half |",
            "| South and West | 950 | 990 |",
            "[PAGE 2]\n[Picture: The Python logo]\n\nFigure 1: The logo of the language",
            "[PAGE 3]\n# Outlook",
            "Chart: Share of costs (pie chart)",
            "| Salaries | 0.62 |",
            "Diagram: Steps\n- Plan\n   - Research",
        ],
        ["HIDDEN-NOTE-TO-SELF", "next year", "SEQ Figure", "HYPERLINK", "fldChar"],
        page_count=7,
    ),
    Vector(
        "structured.pptx",
        "pptx",
        [
            "[SLIDE 1]\n# Agenda",
            "[pricing page](https://example.com/pricing)",
            "a) Hire",
            "c) Ship",
            "| Item | Cost | Cost |",
            "| Servers | 4,000 | 5,000 |",
            "Chart: Revenue by region (3-D bar chart)",
            "|  | 2025 | 2026 |",
            "| West | 700 | 720 |",
            "Sales team in Lisbon",
            "Support team in Berlin",
            "Diagram: Process diagram",
            "Chart: Cash bridge (waterfall chart)",
            "| Costs | -25 |",
        ],
        ["could not be read", "not available in your version"],
        page_count=5,
    ),
    Vector("frames.tiff", "image", ["[IMAGE: frames.tiff - FRAME 2]", "Frames: 3"], page_count=3),
    Vector("animated.gif", "image", ["[IMAGE: animated.gif]", "Frames: 4", "Format: GIF"], page_count=1),
    Vector(
        "camera.jpg", "image", ["Make: Canon", "Model: EOS 5D", "Author: Ada Lovelace", "Description: A blue test card"]
    ),
    Vector(
        "eight.pdf",
        "pdf",
        ["[PAGE 6]", "NICS Firearm Background Checks", "[PAGE 7]", "Large language models"],
        ["[PAGE 5]", "[PAGE 8]"],
        pages=(6, 7),
        page_count=8,
        notices=("part_of_file",),
    ),
    Vector("picture.pdf", "image", ["[IMAGE: picture.pdf]", "Format: PNG"]),
    Vector("notes.md", "text", ["A naïve plan, Grüße."]),
    Vector("legacy.txt", "text", ["Grüße aus Köln"]),
    Vector("table.csv", "csv", ["| name | city |", "| Zoë | Grüße |"]),
    Vector("prices.csv", "csv", ["| 商品 | 価格 | 在庫 |", "| りんご | 120 | 35 |"]),
    Vector("table.tsv", "csv", ["| name | city |", "| Zoë | Köln |"]),
    Vector(
        "big.csv",
        "csv",
        ["(rows 1–500 of 1,500 shown)", "| id | name | amount |", "| 499 | item 499 | 748.5 |"],
        ["item 500"],
    ),
    Vector(
        "workbook.xlsx",
        "xlsx",
        WORKBOOK
        + [
            "[Source](https://example.org/revenue)",
            "Chart: Revenue by quarter (column chart)\n\n|  | Q1 | Q2 |",
            "| South | 950.00 | 1010 |",
        ],
        ["=SUM", "=D3"],
        page_count=3,
        needs="soffice",
    ),
    Vector("workbook.xls", "xlsx", WORKBOOK, ["=SUM"], page_count=3, needs="soffice"),
    Vector("workbook.ods", "xlsx", WORKBOOK, ["=SUM"], page_count=3, needs="soffice"),
    Vector(
        "workbook.xlsm", "xlsx", WORKBOOK + ["Chart: Revenue by quarter (column chart)"], page_count=3, needs="soffice"
    ),
    Vector(
        "workbook.xlsx",
        "xlsx",
        ["[SHEET 2]\n# Costs"],
        ["[SHEET 1]", "[SHEET 3]"],
        pages=(2, 2),
        page_count=3,
        notices=("part_of_file",),
    ),
    Vector("long.xlsx", "xlsx", ["(rows 1–500 of 1,200 shown)", "| 499 | value 499 |"], ["value 500"], page_count=1),
    Vector(
        "page.html",
        "html",
        [
            "# Ducks of Europe",
            "[mallard species page](https://example.org/mallard)",
            "| Country | Pairs |",
            "| Germany | 320,000 |",
            "1. Lake Constance in winter",
            "cannot fly at all",
        ],
        ["Accept all cookies", "Log in", "Privacy policy", "Popular", "fetch(", "tracker", "<script", "<p>"],
    ),
    Vector("strict.xhtml", "html", ["# Strict page", "[its links](https://example.org/x)"], ["<?xml", "<p>"]),
    Vector(
        "news.xml",
        "feed",
        [
            "# Bird news",
            "## Mallards return\nDate: Mon, 02 Mar 2026 10:00:00 GMT\nLink: https://example.org/mallards",
            "The first **mallards** are back, see [the map](https://example.org/map).",
            "## Geese leave",
        ],
        ["alert(1)", "<p>"],
    ),
    Vector("releases.xml", "feed", ["# Release notes", "## Version 2.0", "- Spreadsheets\n- Web pages"], ["<ul>"]),
    Vector(
        "pond.epub",
        "epub",
        [
            "[PAGE 1]\n# The Duck Pond\n\nBy Ada Drake, Bea Mallard\n\nLanguage: "
            "en\nIdentifier: readlens-test-book\n\n# Spring",
            "[PAGE 2]\n# Summer",
            "[PAGE 3]\n# Winter\n\nThe pond freezes.\n\n- Winter list item",
        ],
        ["<h1>", "<?xml"],
        page_count=3,
    ),
    Vector(
        "catalogued.epub",
        "epub",
        [
            "[PAGE 1]\n# A Year on the Pond\n\nBy Ada Drake\n\nPublisher: "
            "Pond Press\nPublished: 2024-05-01\nLanguage: en-GB\n"
            "Identifier: urn:isbn:9780000000002\nSubjects: Ponds; Ducks--Europe\n\nDescription: "
            "A **naturalist's diary** of one village pond, "
            "from the first ice to the last heron.\n\nWith counts of every duck.\n\n# Spring",
            "The café by the pond sells crème brûlée.",
            "The heron’s “last stand” – a quiet one.",
        ],
        ["\ufffd", "<p>", "<b>"],
        page_count=3,
    ),
    Vector(
        "minutes.rtf",
        "docx",
        ["Pond minutes", "The ducks voted for a bigger pond."],
        ["\\rtf1", "fonttbl"],
        page_count=1,
        needs="soffice",
    ),
    Vector(
        "report.eml",
        "email",
        [
            "From: Ada Drake <ada@example.org>",
            "To: Bea Mallard <bea@example.org>",
            "Cc: pond@example.org",
            "Subject: Pond report and counts",
            "Attachments: counts.csv, paper.pdf",
            "The **counts** are attached; see [the pond page](https://example.org/pond).",
            "[FILE: counts.csv]\n\n[PAGE 2]\n| species | count |",
            "[FILE: paper.pdf]\n\n[PAGE 3]",
            "Large language models",
        ],
        ["track()", "JVBERi0"],
        page_count=3,
    ),
    Vector(
        "names-only.msg",
        "email",
        [
            "To: Alice Smith <alice@example.org>; Bob Jones <bob@example.org>\nCc: Carol White <carol@example.org>",
            "The café by the pond – “open” again.",
        ],
        ["\ufffd"],
        page_count=1,
    ),
    Vector(
        "bundle.zip",
        "zip",
        [
            "[FILE: docs/report.pdf]\n\n[PAGE 1]",
            "Large language models",
            "[FILE: sheets/sales.xlsx]\n\n[PAGE 2]\n# Revenue",
            "[PAGE 4]\n# Empty\n(empty sheet)",
            "[FILE: notes/readme.md]\n\n[PAGE 5]\n# Read me",
            "[FILE: mail/report.eml]\n\n[PAGE 6]\nFrom: Ada",
            "[FILE: mail/report.eml/counts.csv]\n\n[PAGE 7]",
            "[FILE: mail/report.eml/paper.pdf]",
            "[FILE: inner.zip/deep/table.csv]\n\n[PAGE 9]\n| a | b |",
            "[FILE: broken.docx]\n\n[PAGE 10]\n(not read: broken.docx",
            "[FILE: ../../escape.txt]\n\n[PAGE 11]\nNames are never paths.",
        ],
        page_count=11,
        needs="soffice",
    ),
    Vector(
        "bundle.zip",
        "zip",
        ["[FILE: mail/report.eml/paper.pdf]\n\n[PAGE 8]"],
        ["[PAGE 7]", "[PAGE 9]"],
        pages=(8, 8),
        page_count=11,
        notices=("part_of_file",),
    ),
    Vector("script.py", "text", ["return 'Grüße'"]),
    Vector("analysis.ipynb", "text", ["# Analysis", "```python\nprint('naïve')\n```"], ['"cell_type"']),
]
