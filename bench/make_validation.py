"""Make the printed part of the tables' validation set (``tests/corpus/table-validation/printed/``):
real tables from the structured sources in ``sources/`` (``bench.validation_sources``), printed by
Chromium and LibreOffice in several layouts (``bench.validation_print``), each PDF with its truth
beside it (``testkit.validation`` gives the form). The source is the truth: a table's cells are the
source's text, and the truth says on which page each table (or each page's piece of it) is printed.

Each source table is printed three times, in turn: by Chromium in one layout, by LibreOffice (as a
Word document) in another, and typed in a monospaced font, as a sheet of a workbook, or by Chromium
in a third layout. A long table is cut into even slices of ``SLICE`` body rows at most, and its first ``LONG``
rows are printed once more whole, breaking across pages with the header repeated. Some tables have
footnote marks on their figures, some documents set paragraphs of the source's text around their
tables. Nothing is random: the same sources make the same tables and the same truth.

The PDFs are committed with their truth, so that the set does not drift with a Chromium or
LibreOffice version; run this again only to change the set (and say so: it is never tuned on).

python -m bench.make_validation
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
from dataclasses import dataclass
from itertools import cycle
from pathlib import Path

from bench.validation_print import Placed, html_document, typeable, word_document, workbook
from bench.validation_sources import (
    Table,
    cals_tables,
    csv_table,
    html_tables,
    jats_tables,
    prose,
    right_to_left,
    sheet_table,
)
from readers.render.browser import print_page
from readers.render.libreoffice import convert_to_pdf
from testkit.validation import RTL_LETTERS, VALIDATION, compact, page_texts

LATIN = re.compile(r"[A-Za-z]")
SLICE = 25  # body rows at most in a table printed on its own: it fits a page
LONG = 80  # body rows of a long table printed whole, across two pages or more
SLICES = 3  # slices at most of one source table
LAYOUTS = ("ruled", "header rule", "no rules", "zebra")
SHEET_LAYOUTS = ("no rules", "ruled", "header rule")
FONTS = ("Liberation Serif", "Liberation Sans", "DejaVu Sans", "Carlito", "Caladea")
SIZES = (10, 9, 11)
PER_DOCUMENT = (2, 1, 3)  # tables in a document, in turn
LANDSCAPE_CHARACTERS = 120  # a table whose longest cells add up to more is printed on a landscape page
LANDSCAPE_CELL = 30  # characters a long cell counts for in that sum: it wraps in a column about this wide
PLOT = 1200  # characters at most in a film's plot printed in a table: a row taller than a page is parted
OFFICE_TIMEOUT = 120  # seconds for LibreOffice to print one document
COUNTRY_TABLES = (  # columns of the country codes: two tables of ten columns or more, one right to left
    (
        ["CLDR display name", "ISO3166-1-Alpha-2", "ISO3166-1-Alpha-3", "ISO3166-1-numeric", "M49", "FIFA", "IOC"]
        + ["Dial", "TLD", "ISO4217-currency_alphabetic_code", "Capital", "Continent"],
        False,
    ),
    (
        ["official_name_en", "official_name_fr", "official_name_es", "Region Name", "Sub-region Name"]
        + ["ISO4217-currency_name", "ISO4217-currency_numeric_code", "ISO4217-currency_minor_unit", "Languages"]
        + ["Geoname ID"],
        False,
    ),
    (["UNTERM Arabic Short", "UNTERM Arabic Formal", "official_name_ar", "ISO3166-1-Alpha-3", "Dial"], True),
)
TEN_K = "sources/unstructured/example-10k.html.gz"
PATENT = "sources/docling/ipa20110039701.xml.gz"
NESTLE = "sources/unstructured/2023-half-year-analyses-by-segment.xlsx.gz"


def sources() -> list[Table]:
    """Every source table, in a fixed order."""
    ten_k = "Galaxy Gaming, Inc., annual report on Form 10-K for 2021"
    tables = [t for t in html_tables(TEN_K, ten_k) if t.height >= 3 and any(map(t.numeric, t.cells))]
    tables += html_tables("sources/unstructured/example_full_doc.html.gz", "Quarterly report on Form 10-Q, June 2023")
    wiki = "//table[contains(@class, 'wikitable') or contains(@class, 'infobox')]"
    tables += html_tables("sources/markitdown/test_wikipedia.html.gz", "Microsoft (Wikipedia)", wiki)
    for article in ("elife-56337.nxml.gz", "pntd.0008301.nxml.gz", "pone.0234687.nxml.gz"):
        tables += jats_tables(f"sources/docling/{article}", article.split(".")[0])
    patent = cals_tables(PATENT, "US patent application 2011/0039701")
    tables += [table for table in patent if table.header]
    tables += cals_tables("sources/docling/tables_ipa20180000016.xml.gz", "US patent application 2018/0000016")
    nestle = "Nestlé half-year report 2023, analyses by segment"
    for sheet, rows, header in (
        ("OS-Rev.and results 30 06 2023", (6, 18), 2),
        ("OS-Rev.and results 30 06 2023", (21, 33), 2),
        ("OS-Other information 30 06 2023", (6, 18), 2),
        ("Prod.Rev.and results 30 06 2023", (6, 17), 2),
        ("Prod.Rev.and results 30 06 2023", (20, 31), 2),
        ("Prod.-Other inform. 30 06 23", (6, 17), 2),
        ("Reconciliation 30 06 2023", (5, 13), 1),
    ):
        tables.append(sheet_table(NESTLE, sheet, rows, header, nestle))
    scores = "Scores (markitdown test workbook)"
    tables.append(sheet_table("sources/markitdown/test.xlsx.gz", "Sheet1", (1, 24), 1, scores))
    movies = "sources/unstructured/wiki_movie_plots_small.csv.gz"
    films = "Films of 1901-1903 (Wikipedia movie plots)"
    tables.append(csv_table(movies, ["Release Year", "Title", "Origin/Ethnicity", "Director", "Cast", "Genre"], films))
    tables.append(csv_table(movies, ["Title", "Plot"], films, PLOT))
    tables += right_to_left("sources/unstructured/UDHR_first_article_all.txt.gz", 4)
    countries = "Country and currency codes (datasets/country-codes)"
    for columns, rtl in COUNTRY_TABLES:
        tables.append(csv_table("sources/country-codes/country-codes.csv.gz", columns, countries, rtl=rtl))
    return tables


def paragraphs() -> dict[str, list[str]]:
    """Paragraphs of each source's own text, set around its tables (the sources without paragraphs have none)."""
    return {
        TEN_K: prose(TEN_K),
        "sources/unstructured/example_full_doc.html.gz": prose("sources/unstructured/example_full_doc.html.gz"),
        "sources/markitdown/test_wikipedia.html.gz": prose("sources/markitdown/test_wikipedia.html.gz"),
        **{
            f"sources/docling/{name}": prose(f"sources/docling/{name}", "//body//p")
            for name in ("elife-56337.nxml.gz", "pntd.0008301.nxml.gz", "pone.0234687.nxml.gz")
        },
    }


@dataclass(frozen=True)
class Printing:
    """A table to print: by which renderer (``chromium``, ``word`` or ``sheet``), in which layout."""

    table: Table
    renderer: str
    layout: str
    marks: bool = False
    long: bool = False


def printings(tables: list[Table], shift: int = 0) -> list[Printing]:
    """Three printings of each table (slices of a long one), and a long table once whole; ``shift``
    turns the layouts' round (another set's style seed)."""
    made = []
    index = shift
    for table in tables:
        body = table.height - table.header
        size = -(-body // -(-body // SLICE))  # slices as even as they come, none over SLICE rows
        pieces = [table.slice(start, start + size) for start in range(0, body, size)][:SLICES]
        pieces = pieces if body > SLICE else [table]
        if body > 2 * SLICE and not table.rtl:
            renderer = "chromium" if index % 2 else "word"
            made.append(Printing(table.slice(0, LONG), renderer, LAYOUTS[index % 4], long=True))
        for piece in pieces:
            marks = sum(map(piece.numeric, piece.cells)) >= 6 and index % 3 == 0 and not piece.rtl
            made.append(Printing(piece, "chromium", LAYOUTS[index % 4], marks=marks))
            made.append(Printing(piece, "word", LAYOUTS[(index + 2) % 4]))
            if typeable(piece):
                made.append(Printing(piece, "chromium" if index % 2 else "word", "monospaced"))
            elif not piece.rtl and all("\n" not in cell.text for cell in piece.cells):
                made.append(Printing(piece, "sheet", SHEET_LAYOUTS[index % 3]))
            else:
                made.append(Printing(piece, "chromium", LAYOUTS[(index + 1) % 4]))
            index += 1
    return made


def documents(made: list[Printing]) -> list[list[Printing]]:
    """The printings grouped into documents: a source's printings by one renderer, ``PER_DOCUMENT`` a
    document in turn; a long table alone."""
    groups: dict[tuple[str, str], list[Printing]] = {}
    for printing in made:
        groups.setdefault((printing.renderer, printing.table.origin), []).append(printing)
    found = []
    sizes = cycle(PER_DOCUMENT)
    for group in groups.values():
        found += [[p] for p in group if p.long]
        document: list[Printing] = []
        size = next(sizes)
        for printing in (p for p in group if not p.long):
            if len(document) == size or any(p.table == printing.table for p in document):
                found.append(document)
                document, size = [], next(sizes)
            document.append(printing)
        found += [document] if document else []
    return found


def landscape(table: Table) -> bool:
    """A table too wide for a portrait page: its columns' longest cells (a long one counted as
    ``LANDSCAPE_CELL`` characters, as it wraps) add up to more than ``LANDSCAPE_CHARACTERS``."""
    longest = [0] * table.width
    for cell in table.cells:
        if cell.colspan == 1:
            longest[cell.col] = max(longest[cell.col], min(len(cell.text), LANDSCAPE_CELL))
    return sum(longest) > LANDSCAPE_CHARACTERS


def row_pages(table: Table, caption: str, pages: list[str], start: int, sheet: bool) -> list[int]:
    """The page (counted from 0) each row of a printed table is on: its caption's page, then for each
    body row the first page from the last row's on that holds the text of every cell of the row (or,
    failing that, its runs of letters and digits, or of Latin letters, of digits and of other letters
    apart: a letter drawn in a fallback font is read apart, "λ" after "cI857S"). In a right-to-left table
    pdfium reads the lines in visual order, a cell's lines among the others', and a number's parts in
    either order: there each word in Latin letters is looked for, without its punctuation. A sheet prints
    on one page (``SinglePageSheets``)."""
    number = compact(" ".join(caption.split()[:2]))  # "Table12.": no other caption holds it
    page = next(p for p in range(start, len(pages)) if number in pages[p])
    if table.rtl:  # the words of the cells in the Latin script, without the punctuation bidi moves
        pages = [re.sub(r"\W", "", text) for text in pages]
    found = []
    for r, row in enumerate(table.rows()):
        texts = [cell.text for cell in row if cell is not None]
        if table.rtl:
            texts = [re.sub(r"\W", "", word) for text in texts if not RTL_LETTERS.search(text) for word in text.split()]
            texts = [text for text in texts if LATIN.search(text)]
        texts = [compact(text) for text in texts]
        if r >= table.header and not sheet:
            page = next(
                p
                for pattern in (None, r"\w+", r"[a-zA-Z]+|\d+|[^\W\da-zA-Z_]+")
                for p in range(page, len(pages))
                if all(run in pages[p] for text in texts for run in (re.findall(pattern, text) if pattern else [text]))
            )
        found.append(page)
    return found


def styles(printing: Printing, placed: Table, pieces: int, among: bool) -> list[str]:
    """The printed table's layout and features (``testkit.validation.LAYOUTS``, ``FEATURES``)."""
    header = [cell for cell in placed.cells if cell.row < placed.header]
    features = {
        "grouped header": any(cell.colspan > 1 for cell in header) and placed.header > 1,
        "10+ columns": placed.width >= 10,
        "right-to-left": placed.rtl,
        "breaks across pages": pieces > 1,
        "footnote marks": printing.marks,
        "among paragraphs": among,
        "dot leaders": printing.layout == "monospaced",
        "spreadsheet": printing.renderer == "sheet",
    }
    return [printing.layout, *(name for name, present in features.items() if present)]


def truth_rows(table: Table) -> list[list]:
    """A printed table's grid in the truth file's form (``testkit.validation``)."""
    rows = []
    for row in table.rows():
        cells = []
        for cell in row:
            if cell is None:
                cells.append(None)
            elif cell.rowspan > 1 or cell.colspan > 1:
                spans = {"colspan": cell.colspan} if cell.colspan > 1 else {}
                cells.append({"text": cell.text, **spans, **({"rowspan": cell.rowspan} if cell.rowspan > 1 else {})})
            else:
                cells.append(cell.text)
        rows.append(cells)
    return rows


def make(
    document: list[Printing], number: int, first: int, texts: dict[str, list[str]], work: Path, folder: Path
) -> dict:
    """Print one document (its tables numbered from ``first``) into ``folder``'s ``printed/`` and give its truth."""
    origin = document[0].table.origin
    renderer = document[0].renderer
    placed = [
        Placed(p.table, p.layout, f"Table {first + n}. {p.table.title}", p.marks, p.long)
        for n, p in enumerate(document)
    ]
    pool = texts.get(origin, [])
    with_prose = renderer != "sheet" and number % 2 == 0 and bool(pool)
    parts: list[Placed | str] = []
    for n, table in enumerate(placed):
        if with_prose:
            parts.append(pool[(number * 3 + n) % len(pool)])
        parts.append(table)
    if with_prose:
        parts.append(pool[(number * 3 + len(placed)) % len(pool)])
    wide = any(landscape(p.table) for p in document)
    font, size = FONTS[number % len(FONTS)], SIZES[number % len(SIZES)]
    name = f"{number:03d}-{renderer}-{Path(origin).name.split('.')[0]}"
    printed_folder = folder / "printed"
    pdf = printed_folder / f"{name}.pdf"
    if renderer == "chromium":
        print_page(html_document(parts, font, size, wide), pdf)
    else:
        source = work / f"{name}.{'docx' if renderer == 'word' else 'xlsx'}"
        if renderer == "word":
            word_document(parts, font, size, wide, source)
        else:
            workbook(placed, source)
        convert_to_pdf(source, source.suffix[1:], pdf, OFFICE_TIMEOUT, work / "profiles", source.name)
    pages = page_texts(pdf)
    tables, start = [], 0
    for printing, table in zip(document, placed):
        printed = table.printed()
        where = row_pages(printed, table.caption, pages, start, renderer == "sheet")
        body = where[printed.header :]
        splits = [0] + [i for i in range(1, len(body)) if body[i] != body[i - 1]] + [len(body)]
        if len(splits) > 2 and printing.layout == "monospaced":
            raise ValueError(f"{table.caption} breaks across pages, and a typed table repeats no header")
        for a, b in zip(splits, splits[1:]):
            piece = printed.slice(a, b) if len(splits) > 2 else printed
            tables.append(
                {
                    "page": body[a] + 1 if body else where[0] + 1,
                    "styles": styles(printing, printed, len(splits) - 1, with_prose),
                    "source": f"{printing.table.origin}, {printing.table.where}",
                    "rows": truth_rows(piece),
                }
            )
        start = where[-1]
    truth = {
        "part": "printed",
        "renderer": "chromium" if renderer == "chromium" else "libreoffice",
        "sources": sorted({p.table.origin for p in document}),
        "tables": tables,
    }
    (printed_folder / f"{name}.json").write_text(
        json.dumps(truth, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )
    return {"file": f"printed/{name}.pdf", "tables": tables}


def list_printed(made: list[dict], folder: Path) -> None:
    """Write the printed PDFs into the set's SOURCES.md, between its two marks."""
    sources = folder / "SOURCES.md"
    text = sources.read_text(encoding="utf-8")
    start, end = "<!-- printed: written by python -m bench.make_validation -->\n", "<!-- end of printed -->"
    rows = ["| PDF | truth | tables | from |", "|---|---|---|---|"]
    for entry in made:
        names = sorted({table["source"].split(",")[0] for table in entry["tables"]})
        truth = entry["file"].removesuffix(".pdf") + ".json"
        rows.append(f"| `{entry['file']}` | `{truth}` | {len(entry['tables'])} | {', '.join(names)} |")
    before, rest = text.split(start)
    sources.write_text(before + start + "\n".join(rows) + "\n" + end + rest.split(end)[1], encoding="utf-8")


def build(tables: list[Table], texts: dict[str, list[str]], folder: Path, shift: int = 0) -> None:
    """Print ``tables`` (among ``texts``, by source) into ``folder``'s ``printed/`` with their truth, and
    list them in its SOURCES.md; ``shift`` turns the layouts', fonts' and sizes' rounds."""
    made = printings(tables, shift)
    printed = folder / "printed"
    shutil.rmtree(printed, ignore_errors=True)
    printed.mkdir(parents=True)
    count, written = 0, []
    with tempfile.TemporaryDirectory(prefix="readlens-printed-") as work:
        for number, document in enumerate(documents(made), 1 + shift):
            written.append(make(document, number, count + 1, texts, Path(work), folder))
            count += len(document)
            print(f"{written[-1]['file']}: {len(written[-1]['tables'])} tables", flush=True)
    list_printed(written, folder)
    pieces = sum(len(entry["tables"]) for entry in written)
    print(f"{len(tables)} source tables, {len(made)} printed ({pieces} tables or pages' pieces) in {len(written)} PDFs")


def main() -> None:
    build(sources(), paragraphs(), VALIDATION)


if __name__ == "__main__":
    main()
