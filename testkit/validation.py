"""The tables' validation set, ``tests/corpus/table-validation/``: PDFs whose every table is known
cell by cell, scored by ``make bench icdar`` and never tuned on (docs/development.md).

Each PDF has its truth beside it, ``<name>.json``::

    {"part": "printed", "renderer": "chromium", "sources": ["sources/unstructured/example-10k.html.gz"],
     "tables": [{"page": 2, "styles": ["ruled", "grouped header"], "source": "... table 12, rows 1-20",
                 "rows": [["", {"text": "Year ended December 31,", "colspan": 2}, null],
                          ["", "2021", "2020"], ["Revenue", "$ 19,971", "$ 10,183"]]}]}

- ``part`` is where the file comes from: ``printed`` (made by ``bench.make_validation`` from a real
  structured source, the source is the truth) or ``tabula-py`` (a real PDF with tabula-py's
  published expectations, corrected where they are its own quirk: SOURCES.md says where).
- ``renderer`` printed it: ``chromium``, ``libreoffice`` (a Word document or a workbook), or none.
- Each table is one piece of a page: a table that breaks across pages is one entry a page, each
  with the rows printed on it (the header again where it is repeated), ``page`` counted from 1.
- ``rows`` is the table's grid as printed, every row as long as the table is wide. A cell is its
  text; a cell spanning more than one row or column is ``{"text", "colspan", "rowspan"}`` at its
  first row and column (a span of 1 left out), and every other position it covers is ``null``.
  ``""`` is an empty cell. This is the grid ``testkit.icdar_metric`` scores (``grid``): a spanning
  cell counted once, at its first row and column, as in the ICDAR 2013 ground truth.
- ``styles`` names how it is printed (the bench's aggregates are by these): one layout of
  ``LAYOUTS`` and any of ``FEATURES``.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import pypdfium2

from testkit import CORPUS
from testkit.icdar_metric import Grid, normalised

VALIDATION = CORPUS / "table-validation"
TUNING = CORPUS / "table-tuning"  # printed as the validation set is, from other sources: tuned on (bench.make_tuning)
RTL_LETTERS = re.compile(r"[\u0590-\u08ff\U0001e900-\U0001e95f]")  # Hebrew, Arabic, Syriac, Thaana, N'Ko, Adlam
PARTS = ("printed", "tabula-py")
RENDERERS = ("chromium", "libreoffice")
LAYOUTS = ("ruled", "header rule", "no rules", "zebra", "monospaced")
FEATURES = (
    "grouped header",
    "10+ columns",
    "right-to-left",
    "breaks across pages",
    "footnote marks",
    "among paragraphs",
    "dot leaders",
    "spreadsheet",
)

Cell = str | dict | None


@dataclass(frozen=True)
class TruthTable:
    """One table (or one page's piece of it) of a validation PDF."""

    pdf: Path
    part: str
    renderer: str | None
    page: int
    styles: tuple[str, ...]
    source: str
    rows: list[list[Cell]]

    @property
    def grid(self) -> Grid:
        return grid(self.rows)


def grid(rows: list[list[Cell]]) -> Grid:
    """A truth table's grid: each non-empty cell's normalised text at its first row and column."""
    found: Grid = {}
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            text = normalised(cell["text"] if isinstance(cell, dict) else cell or "")
            if text:
                found[r, c] = text
    return found


def source_file(origin: str) -> Path:
    """A structured source's file: a validation source's ``origin`` is relative to the validation set's
    folder, a tuning source's (``table-tuning/sources/...``) to the corpus's."""
    return CORPUS / origin if origin.startswith(f"{TUNING.name}/") else VALIDATION / origin


def compact(text: str) -> str:
    """Text as pdfium reads it off a page, to find it there: without white space and without the
    characters that draw nothing (joiners, marks of direction); pdfium's mark for a hyphen that ends
    a line (U+FFFE) read as the hyphen."""
    text = "".join(char for char in text if unicodedata.category(char) != "Cf")
    return "".join(text.replace("\ufffe", "-").split())


def page_texts(pdf: Path) -> list[str]:
    """Each page's text as pdfium reads it, without white space."""
    document = pypdfium2.PdfDocument(pdf)
    try:
        return [compact(page.get_textpage().get_text_range()) for page in document]
    finally:
        document.close()


def truth_files(folder: Path = VALIDATION) -> list[Path]:
    """Every truth file of a set (the validation set unless ``folder`` names another), in name order."""
    return sorted(path for path in folder.rglob("*.json"))


def tables(truth: Path) -> list[TruthTable]:
    """The tables one truth file gives, for the PDF beside it."""
    data = json.loads(truth.read_text(encoding="utf-8"))
    pdf = truth.with_suffix(".pdf")
    part, renderer = data["part"], data.get("renderer")
    return [
        TruthTable(pdf, part, renderer, table["page"], tuple(table["styles"]), table["source"], table["rows"])
        for table in data["tables"]
    ]


def validation_tables(folder: Path = VALIDATION) -> dict[Path, list[TruthTable]]:
    """Each PDF of a set (the validation set unless ``folder`` names another) and its tables."""
    found: dict[Path, list[TruthTable]] = {}
    for truth in truth_files(folder):
        for table in tables(truth):
            found.setdefault(table.pdf, []).append(table)
    return found
