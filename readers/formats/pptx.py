"""PowerPoint decks: text from python-pptx in reading order, renders from LibreOffice's PDF.

Per slide: the title first, then shapes top-to-bottom, left-to-right (groups flattened), tables
and charts as Markdown tables, picture alt text, and the speaker notes, labelled.
"""

from __future__ import annotations

from pptx import Presentation
from pptx.enum.shapes import MSO_SHAPE_TYPE
from pptx.exc import PackageNotFoundError
from pptx.shapes.picture import Picture

from ..errors import ReaderError
from ..models import Page
from ..office import check_package, office_pdf
from .pdf import read_pdf_pages
from ..tables import markdown_table


def _reading_order(shapes) -> list:
    flat = []
    for shape in shapes:
        if shape.shape_type == MSO_SHAPE_TYPE.GROUP:
            flat.extend(_reading_order(shape.shapes))
        else:
            flat.append(shape)
    return sorted(flat, key=lambda s: ((s.top or 0), (s.left or 0)))


def _chart_text(chart) -> list[str]:
    parts = []
    if chart.has_title and chart.chart_title.has_text_frame:
        parts.append(f"Chart: {chart.chart_title.text_frame.text.strip()}")
    else:
        parts.append("Chart")
    plot = chart.plots[0] if len(chart.plots) else None
    if plot is not None:
        categories = [str(c) for c in plot.categories]
        series = list(plot.series)
        header = ["Category", *[s.name or f"Series {i + 1}" for i, s in enumerate(series)]]
        rows = [[category, *[_number(s.values, i) for s in series]] for i, category in enumerate(categories)]
        parts.append(markdown_table([header, *rows]))
    return parts


def _number(values, index: int) -> str:
    if index >= len(values) or values[index] is None:
        return ""
    value = values[index]
    return f"{value:g}" if isinstance(value, float) else str(value)


def _alt_text(shape) -> str:
    properties = shape._element.xpath("./*[1]/p:cNvPr")  # nvPicPr/cNvPr holds the alt text
    return (properties[0].get("descr") or properties[0].get("title") or "").strip() if properties else ""


def slide_parts(slide) -> tuple[str, list[str]]:
    """(text, tables) of one slide as a text-only model should receive them."""
    lines: list[str] = []
    tables: list[str] = []
    title = slide.shapes.title
    if title is not None and title.has_text_frame and title.text_frame.text.strip():
        lines.append(f"# {title.text_frame.text.strip()}")
    for shape in _reading_order(slide.shapes):
        if title is not None and shape.shape_id == title.shape_id:
            continue
        if shape.has_text_frame and shape.text_frame.text.strip():
            lines.append(shape.text_frame.text.strip())
        if getattr(shape, "has_table", False) and shape.has_table:
            tables.append(markdown_table([[cell.text for cell in row.cells] for row in shape.table.rows]))
        if getattr(shape, "has_chart", False) and shape.has_chart:
            chart_title, *chart_table = _chart_text(shape.chart)
            lines.append(chart_title)
            tables.extend(chart_table)
        if isinstance(shape, Picture):
            alt = _alt_text(shape)
            lines.append(f"[Picture: {alt}]" if alt else "[Picture]")
    if slide.has_notes_slide:
        notes = slide.notes_slide.notes_text_frame.text.strip() if slide.notes_slide.notes_text_frame else ""
        if notes:
            lines.append(f"Speaker notes:\n{notes}")
    return "\n".join(lines), [t for t in tables if t]


def read(job):
    check_package(job)
    try:
        deck = Presentation(job.path)
    except (PackageNotFoundError, KeyError, ValueError, SyntaxError) as error:
        raise ReaderError("CORRUPT_FILE", f"{job.name} is damaged and cannot be opened as a PowerPoint deck ({type(error).__name__}). Save it again from PowerPoint.") from None
    slides = list(deck.slides)
    pdf = office_pdf(job)
    if pdf is not None:
        count, pages = read_pdf_pages(job, pdf, job.sha256, text_from_pdf=False)
    else:
        count, pages = len(slides), [Page(number=n) for n in job.select(len(slides))]
    for page in pages:
        page.text, page.tables = slide_parts(slides[page.number - 1]) if page.number <= len(slides) else ("", [])
    return job.reading(count, pages)
