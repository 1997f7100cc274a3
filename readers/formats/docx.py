"""Word documents: pages are the pages of LibreOffice's PDF, so numbers match what Word shows.

Without LibreOffice the text is still read with python-docx (paragraphs and tables in document
order) as one page, with a warning saying why there are no renders.
"""

from __future__ import annotations

import docx
from docx.opc.exceptions import PackageNotFoundError
from docx.table import Table
from docx.text.paragraph import Paragraph

from ..errors import ReaderError
from ..models import Page
from ..office import check_package, office_pdf
from .pdf import read_pdf_pages
from ..tables import markdown_table


def document_parts(document) -> tuple[str, list[str]]:
    """(text, tables) of the whole document; headings become Markdown headings."""
    lines, tables = [], []
    for block in document.iter_inner_content():
        if isinstance(block, Paragraph):
            text = block.text.strip()
            style = (block.style.name if block.style is not None else "") or ""
            if text and style.startswith("Heading") and style[-1:].isdigit():
                text = "#" * int(style[-1]) + " " + text
            elif text and style == "Title":
                text = "# " + text
            if text:
                lines.append(text)
        elif isinstance(block, Table):
            tables.append(markdown_table([[cell.text for cell in row.cells] for row in block.rows]))
    return "\n".join(lines), [t for t in tables if t]


def _squash(text: str) -> str:
    return "".join(text.split())


def _place_tables(document, pages: list[Page]) -> None:
    """Put each Word table, as Word structured it, on the rendered page where it starts.

    Tables without ruling lines are invisible to PDF table detection, and merged cells are
    clearer in the document than in the drawing, so the document's tables replace the PDF's.
    """
    squashed = {page.number: _squash(page.text + "".join(page.tables)) for page in pages}
    placed = {page.number: [] for page in pages}
    for table in document.tables:
        cells = [_squash(cell.text) for row in table.rows for cell in row.cells]
        first = next((cell for cell in cells if cell), None)
        number = next((n for n, text in squashed.items() if first and first in text), None)
        if number is not None:
            placed[number].append(markdown_table([[cell.text for cell in row.cells] for row in table.rows]))
    for page in pages:
        page.tables = [t for t in placed[page.number] if t] or page.tables


def read(job):
    check_package(job)
    try:
        document = docx.Document(str(job.path))
    except (PackageNotFoundError, KeyError, ValueError, SyntaxError) as error:
        raise ReaderError("CORRUPT_FILE", f"{job.name} is damaged and cannot be opened as a Word document ({type(error).__name__}). Save it again from Word.") from None
    pdf = office_pdf(job)
    if pdf is not None:
        count, pages = read_pdf_pages(job, pdf, job.sha256)
        _place_tables(document, pages)
        return job.reading(count, pages)
    text, tables = document_parts(document)
    return job.reading(1, [Page(number=n, text=text, tables=tables) for n in job.select(1)])
