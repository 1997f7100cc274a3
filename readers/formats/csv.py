"""CSV and TSV files: one page holding the table, its encoding detected and its delimiter sniffed.

A table longer than ``MAX_TABLE_ROWS`` rows is cut, and the page and a warning say so.
"""

from __future__ import annotations

import csv
import io

from ..errors import ReaderError
from ..markup.blocks import paragraphs
from ..markup.tables import MAX_SHEET_ROWS, table_block
from ..markup.text import decode
from ..models import Extraction, Page
from ..notices import Code, Notice

MAX_TABLE_ROWS = MAX_SHEET_ROWS  # the same cut as a spreadsheet's sheet
DELIMITERS = ",;\t|"
SNIFF_CHARS = 64 * 1024
SNIFF_LINES = 50


def _dialect(text: str, tab_separated: bool) -> type[csv.Dialect]:
    """The delimiter that splits most of the first lines into the same number of cells (more
    than one), the widest such split on a tie; a file none of them splits is read as its type
    says. Linear in the sample: csv.Sniffer's regular expressions backtrack for minutes on some
    64 KB samples (a line of quotes and commas)."""
    lines = text[:SNIFF_CHARS].splitlines()[:SNIFF_LINES]
    if len(text) > SNIFF_CHARS and len(lines) > 1:
        lines.pop()  # cut mid-line
    best, best_score = None, (0, 0)
    for delimiter in DELIMITERS:
        widths = [len(row) for row in csv.reader(lines, delimiter=delimiter) if row]
        width = max(set(widths), key=widths.count, default=1)
        if width > 1 and (score := (widths.count(width), width)) > best_score:
            best, best_score = delimiter, score
    if best is None:
        return csv.excel_tab if tab_separated else csv.excel
    return type("Sniffed", (csv.excel,), {"delimiter": best})


def read(job):
    notices: list[Notice] = []
    text = decode(job.path.read_bytes(), job.name, notices)
    rows = csv.reader(io.StringIO(text, newline=""), _dialect(text, job.mime == "text/tab-separated-values"))
    shown, total = [], 0
    try:
        for row in rows:
            if any(cell.strip() for cell in row):
                total += 1
                if total <= MAX_TABLE_ROWS:
                    shown.append(row)
    except csv.Error as error:
        raise ReaderError(
            "CORRUPT_FILE", f"{job.name} cannot be read as a table ({error}). Check that it is a CSV or TSV file."
        ) from None
    note = ""
    if total > MAX_TABLE_ROWS:
        note = f"(rows 1–{MAX_TABLE_ROWS:,} of {total:,} shown)"
        notices.append(Notice(Code.CUT, f"{job.name}: rows 1–{MAX_TABLE_ROWS:,} of {total:,} shown."))
    blocks = paragraphs(note) + [table for table in [table_block(shown)] if table]
    pages = [Page(number=n, blocks=blocks) for n in job.select(1, notices)]
    return job.reading(Extraction(1, pages, notices=notices))
