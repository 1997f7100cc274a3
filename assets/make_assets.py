"""Make the app's example files: a 4-page report PDF with charts, a short deck, a workbook, a web
page, a diagram, a recording.

Run once with ``.venv/bin/python assets/make_assets.py`` (needs LibreOffice and espeak-ng, both in
packages.txt); the small outputs are committed so the app never builds them at run time.
"""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

import openpyxl
from openpyxl.chart import BarChart, PieChart, Reference
from PIL import Image, ImageDraw, ImageFont
from pptx import Presentation
from pptx.chart.data import CategoryChartData
from pptx.enum.chart import XL_CHART_TYPE, XL_LEGEND_POSITION
from pptx.util import Inches, Pt

HERE = Path(__file__).resolve().parent
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
QUARTERS = ("Q1", "Q2", "Q3", "Q4")
SALES = {"North": (120, 135, 150, 170), "South": (90, 95, 110, 125)}
SHARES = {"Enterprise": 0.45, "Small business": 0.35, "Consumer": 0.20}
RECORDING = "Read Lens turns every page into text, tables and pictures. Sales went up in every quarter."


def _text(slide, text: str, left, top, width, height, size: int, bold: bool = False) -> None:
    frame = slide.shapes.add_textbox(left, top, width, height).text_frame
    frame.word_wrap = True
    for index, line in enumerate(text.split("\n")):
        paragraph = frame.paragraphs[0] if index == 0 else frame.add_paragraph()
        paragraph.text = line
        paragraph.font.size, paragraph.font.bold = Pt(size), bold


def _bar_chart(slide, left, top, width, height) -> None:
    data = CategoryChartData()
    data.categories = QUARTERS
    for region, values in SALES.items():
        data.add_series(region, values)
    chart = slide.shapes.add_chart(XL_CHART_TYPE.COLUMN_CLUSTERED, left, top, width, height, data).chart
    chart.has_legend, chart.legend.position, chart.legend.include_in_layout = True, XL_LEGEND_POSITION.BOTTOM, False
    chart.plots[0].has_data_labels = True


def _pie_chart(slide, left, top, width, height) -> None:
    data = CategoryChartData()
    data.categories = list(SHARES)
    data.add_series("Share of revenue", list(SHARES.values()))
    chart = slide.shapes.add_chart(XL_CHART_TYPE.PIE, left, top, width, height, data).chart
    chart.has_legend, chart.legend.position = True, XL_LEGEND_POSITION.RIGHT
    chart.plots[0].has_data_labels = True
    chart.plots[0].data_labels.number_format, chart.plots[0].data_labels.number_format_is_linked = "0%", False


def _table(slide, rows: list[list[str]], left, top, width, height) -> None:
    table = slide.shapes.add_table(len(rows), len(rows[0]), left, top, width, height).table
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            table.cell(r, c).text = value


def report_pptx(path: Path) -> None:
    """Four portrait pages laid out like a report; LibreOffice turns them into the example PDF."""
    deck = Presentation()
    deck.slide_width, deck.slide_height = Inches(8.5), Inches(11)
    blank = deck.slide_layouts[6]
    margin, width = Inches(0.8), Inches(6.9)
    pages = [
        (
            "Quarterly Sales Report 2024",
            "Sales grew in every quarter of 2024. The North region led growth, "
            "rising from 120 to 170 units; the South region rose from 90 "
            "to 125 units.\nThe chart below shows units sold per quarter.",
        ),
        (
            "Revenue by segment",
            "Enterprise customers bring the largest share of revenue, followed by small businesses and consumers.",
        ),
        ("Units sold per region", "The table lists the units sold in each quarter."),
        (
            "Conclusions",
            "Growth was steady in both regions.\nThe North region should keep its larger sales team.\n"
            "The consumer segment is the smallest and the one with the most room to grow.",
        ),
    ]
    for number, (title, body) in enumerate(pages, 1):
        slide = deck.slides.add_slide(blank)
        _text(slide, title, margin, Inches(0.7), width, Inches(0.8), 28, bold=True)
        _text(slide, body, margin, Inches(1.6), width, Inches(1.6), 14)
        if number == 1:
            _bar_chart(slide, margin, Inches(3.4), width, Inches(4.8))
        elif number == 2:
            _pie_chart(slide, margin, Inches(3.0), width, Inches(4.8))
        elif number == 3:
            rows = [["Region", *QUARTERS]] + [[region, *map(str, values)] for region, values in SALES.items()]
            _table(slide, rows, margin, Inches(2.6), width, Inches(1.2))
        _text(slide, f"Page {number} of 4", margin, Inches(10.2), width, Inches(0.4), 10)
    deck.save(path)


def short_deck(path: Path) -> None:
    deck = Presentation()
    title = deck.slides.add_slide(deck.slide_layouts[0])
    title.shapes.title.text = "ReadLens"
    title.placeholders[1].text = "See every file the way your model will"
    chart = deck.slides.add_slide(deck.slide_layouts[5])
    chart.shapes.title.text = "Units sold per quarter"
    _bar_chart(chart, Inches(1), Inches(1.6), Inches(8), Inches(5.4))
    table = deck.slides.add_slide(deck.slide_layouts[5])
    table.shapes.title.text = "Revenue share by segment"
    _table(
        table,
        [["Segment", "Share"]] + [[name, f"{share:.0%}"] for name, share in SHARES.items()],
        Inches(2),
        Inches(2),
        Inches(6),
        Inches(2),
    )
    table.notes_slide.notes_text_frame.text = "Enterprise is the largest segment."
    deck.save(path)


def diagram(path: Path) -> None:
    """A small flowchart: the facts are in the picture only, which is what descriptions are for."""
    image = Image.new("RGB", (900, 360), "white")
    draw = ImageDraw.Draw(image)
    font = ImageFont.truetype(FONT, 26)
    steps = ["Upload", "Detect type", "Read pages", "Describe"]
    for index, step in enumerate(steps):
        left = 30 + index * 220
        draw.rounded_rectangle((left, 130, left + 180, 230), radius=18, fill="#e0e7ff", outline="#4338ca", width=4)
        draw.text((left + 90, 180), step, font=font, fill="#1e1b4b", anchor="mm")
        if index < len(steps) - 1:
            draw.line((left + 180, 180, left + 220, 180), fill="#4338ca", width=5)
            draw.polygon([(left + 220, 180), (left + 206, 170), (left + 206, 190)], fill="#4338ca")
    draw.text((450, 60), "How ReadLens reads a file", font=ImageFont.truetype(FONT, 32), fill="black", anchor="mm")
    image.save(path, optimize=True)


def workbook(path: Path, work: Path) -> None:
    """Sales by quarter with totals (formulas), a merged title and a chart; segment shares with a
    pie chart; a hidden sheet of assumptions. Saved through LibreOffice so the formulas' results
    are stored, as Excel stores them."""
    book = openpyxl.Workbook()
    sales = book.active
    sales.title = "Sales"
    sales.append(["Quarterly sales 2024 (k€)"])
    sales.merge_cells("A1:F1")
    sales.append(["Region", *QUARTERS, "Total"])
    for row, (region, values) in enumerate(SALES.items(), 3):
        sales.append([region, *values, f"=SUM(B{row}:E{row})"])
    sales.append(["All regions", *[f"=SUM({c}3:{c}4)" for c in "BCDEF"]])
    for row in sales.iter_rows(min_row=3, min_col=2):
        for cell in row:
            cell.number_format = "#,##0"
    chart = BarChart()
    chart.title = "Sales by quarter"
    chart.add_data(Reference(sales, min_col=1, max_col=5, min_row=3, max_row=4), from_rows=True, titles_from_data=True)
    chart.set_categories(Reference(sales, min_col=2, max_col=5, min_row=2))
    sales.add_chart(chart, "A8")
    shares = book.create_sheet("Shares")
    shares.append(["Segment", "Share"])
    for name, share in SHARES.items():
        shares.append([name, share])
        shares.cell(shares.max_row, 2).number_format = "0%"
    pie = PieChart()
    pie.title = "Revenue by segment"
    pie.add_data(Reference(shares, min_col=2, min_row=1, max_row=4), titles_from_data=True)
    pie.set_categories(Reference(shares, min_col=1, min_row=2, max_row=4))
    shares.add_chart(pie, "D2")
    assumptions = book.create_sheet("Assumptions")
    assumptions.append(["Growth per quarter", 0.08])
    assumptions.sheet_state = "hidden"
    source = work / "sales.xlsx"
    book.save(source)
    subprocess.run(
        [
            "soffice",
            f"-env:UserInstallation=file://{work}/profile",
            "--headless",
            "--convert-to",
            "xlsx:Calc MS Excel 2007 XML",
            "--outdir",
            str(path.parent),
            str(source),
        ],
        check=True,
        capture_output=True,
        timeout=180,
    )


WEB_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Quarterly update — ReadLens Inc.</title>
<style>body{font-family:DejaVu Sans,sans-serif;margin:0;color:#1f2937}
header,footer{background:#312e81;color:white;padding:12px 24px}
nav a{color:white;margin-right:16px} main{display:flex;gap:32px;padding:24px} article{flex:3}
aside{flex:1;background:#eef2ff;padding:12px}
table{border-collapse:collapse} td,th{border:1px solid #9ca3af;padding:4px 12px}
#cookie-consent{position:fixed;bottom:0;width:100%;
background:#111827;color:white;padding:12px}</style>
<script>document.addEventListener("DOMContentLoaded", () => console.log("tracking"));</script></head>
<body><header><nav><a href="/">Home</a><a href="/products">Products</a><a href="/blog">Blog</a>
<a href="/contact">Contact</a></nav></header>
<main><article><h1>Quarterly update: sales up in every region</h1>
<p>Sales grew in <strong>every quarter of 2024</strong>. The North region led, with 170 k€ in the fourth quarter,
and the South region grew fastest in the second half. Read the
<a href="https://example.org/annual-report">full annual report</a>
for the figures behind this summary.</p>
<h2>Sales by region (k€)</h2>
<table><tr><th>Region</th><th>Q1</th><th>Q2</th><th>Q3</th><th>Q4</th></tr>
<tr><td>North</td><td>120</td><td>135</td><td>150</td><td>170</td></tr><tr><td>South</td><td>90</td><td>95</td>
<td>110</td><td>125</td></tr></table>
<h2>What changed</h2>
<ul><li>Enterprise customers are 45% of revenue.</li><li>Small businesses grew to 35%.</li>
<li>Consumers are the remaining 20%.</li></ul>
<h2>Next steps</h2><ol><li>Open two offices in the South.</li><li>Hire a support team for small businesses.</li>
</ol></article>
<aside><h3>Related</h3><ul><li><a href="/blog/q3">Q3 update</a></li><li><a href="/blog/hiring">We are hiring</a>
</li></ul>
<p>Subscribe to our newsletter for monthly updates.</p></aside></main>
<footer><p>© 2024 ReadLens Inc. · <a href="/privacy">Privacy</a> · <a href="/imprint">Imprint</a></p></footer>
<div id="cookie-consent">We use cookies to improve your experience. <button>Accept all</button>
<button>Settings</button></div>
</body></html>
"""


def web_page(path: Path) -> None:
    path.write_text(WEB_PAGE, encoding="utf-8")


def recording(path: Path) -> None:
    # This slower, lower British voice is the one whisper tiny.en transcribes best.
    subprocess.run(["espeak-ng", "-v", "en-gb+m3", "-s", "125", "-g", "3", "-w", str(path), RECORDING], check=True)
    subprocess.run(["sox", str(path), "-r", "16000", "-c", "1", str(path.with_suffix(".tmp.wav"))], check=True)
    path.with_suffix(".tmp.wav").replace(path)


def main() -> None:
    with tempfile.TemporaryDirectory() as work:
        source = Path(work) / "chart-report.pptx"
        report_pptx(source)
        subprocess.run(
            [
                "soffice",
                f"-env:UserInstallation=file://{work}/profile",
                "--headless",
                "--convert-to",
                "pdf",
                "--outdir",
                str(HERE),
                str(source),
            ],
            check=True,
            capture_output=True,
            timeout=180,
        )
        workbook(HERE / "sales.xlsx", Path(work))
    short_deck(HERE / "short-deck.pptx")
    web_page(HERE / "web-page.html")
    diagram(HERE / "diagram.png")
    recording(HERE / "recording.wav")


if __name__ == "__main__":
    main()
