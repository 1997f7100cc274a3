"""Tables of the generated tuning set (``tests/corpus/table-tuning``, real sources printed by Chromium and
LibreOffice: ``bench.make_tuning``) that were cut into pieces: rows shaded in turn (zebra stripes),
whose stripes' edges ruled each stripe a table of its own, or a drawing; a header ruled above and
below over a body left unruled, which was a table of its own over the rows read as text, its headings
wrapped over lines made rows of their own; a ten-column table's rows, whose wrapped cells stopped the
table or made rows of their own; a table laid out from the right, whose columns were read from its left;
a spreadsheet's print, whose columns stand a space apart; a dash for no amount centred in a column of
amounts, read as a column of its own; a shaded header over rows aligned in more columns than it has; a Wikipedia
infobox, whose sections' names run across its two columns, and whose bare figures are set right under values set
left; a list of films, each one's plot beside its title and its year, under a shaded header; and a spreadsheet's
print of a filing's statement, its columns of amounts set edge to edge and its sections' labels alone over its
first row."""

from __future__ import annotations

import pytest

from readers import Services, read_file
from testkit import make_settings
from testkit.validation import TUNING

PRINTED = TUNING / "printed"


@pytest.fixture(scope="module")
def services(tmp_path_factory) -> Services:
    return Services(make_settings(tmp_path_factory.mktemp("stripes")))


def page(name: str, number: int, services: Services):
    return read_file(PRINTED / name, number, number, services=services).pages[0]


@pytest.mark.parametrize(
    "name, rows",
    [
        # LibreOffice shades each cell of every other row, each shade drawn twice: each stripe was a drawing
        (
            "017-word-UNSD-en.pdf",
            ["| Guinea-Bissau | GNB | x |  | x |", "| Liberia | LBR | x |  |  |", "| Togo | TGO | x |"],
        ),
        # Chromium shades them once: two rows between two stripes' edges were a table, 14 on the page
        (
            "003-chromium-UNSD-en.pdf",
            ["| Algeria | DZA |  |  |  |", "| Madagascar | MDG | x |  |  |", "| Uganda | UGA |"],
        ),
    ],
)
def test_a_table_shaded_in_stripes_is_one_table(name, rows, services):
    tables = page(name, 1, services).tables
    assert len(tables) == 1 and all(row in tables[0] for row in rows)


def test_a_header_ruled_alone_heads_the_rows_under_it(services):
    """A ten-column table's header ruled above and below (shaded), its headings wrapped over five lines,
    over rows left unruled whose cells wrap onto two or three lines: the header was a table of five
    rows, the rows under it text; each heading's lines are one heading, and each cell's lines one cell
    of its row, a line that ends in a hyphen run on into the next ("Sub-" / "region")."""
    tables = page("005-chromium-UNSD-en.pdf", 1, services).tables
    assert len(tables) == 1
    assert tables[0].startswith("| Region Code | Region Name | Sub-region Code | Sub-region Name | Intermediate Region")
    liberia = "| 002 | Africa | 202b | Sub-Saharan Africa | 011 | Western Africa | Liberia | 430 | LR | LBR | x |  |  |"
    assert liberia in tables[0] and "| Guinea-Bissau | 624 |" in tables[0]


def test_a_dash_for_no_amount_stays_in_its_column_and_the_shaded_header_heads_the_rows(services):
    """Netflix's balance sheet printed by Word: "—" centred in a column of amounts set right made a column of its
    own, so the body had a column more than its shaded header, which stayed a table of its own over it."""
    (table,) = page("192-word-nflx-10-q-2025-07-18.pdf", 2, services).tables
    assert table.startswith(
        "|  | As of |  |\n|---|---|---|\n|  | June 30,2025 | December 31,2024 |\n"
        "| Deferred revenue | 1,728,361 | 1,520,813 |\n| Short-term debt | — | 1,784,453 |\n"
    )
    row = "| Time Deposits(1) | 550,830 | — |  | — |  | 550,830 | 337,715 |  | 213,115 | — | — |"
    assert any(row in table for table in page("194-word-nflx-10-q-2025-07-18.pdf", 1, services).tables)


def test_a_shaded_header_heads_a_body_of_more_columns_under_it(services):
    """A shaded header over rows aligned in more columns than it has, each under one of its headings: a journal's
    seroprevalences set in two halves of their column (figures set right, those with a footnote mark left) and
    Netflix's change in revenue, an amount beside its percentage and a "%" under "Change". The header stayed a
    table of its own over the rows."""
    (table,) = page("150-word-pntd.pdf", 1, services).tables
    assert table.startswith(
        "| District | Goats |  |  | Sheep |  |  |  |\n|---|---|---|---|---|---|---|---|\n"
        "|  | n | Seroprevalence (%) | 95% C.I. | n | Seroprevalence (%) |  | 95% C.I. |\n"
        "| Maganja da Costa | 92 | 39.1c | 29.7, 49.5 | 11 |  | 54.6b | 25.6, 80.7 |\n"
    )
    assert "| Mopeia | 53 | 50.9cd | 37.6, 64.1 | 60 |  | 93.3c | 83.4, 97.5 |" in table
    regions = page("203-word-nflx-10-q-2025-07-18.pdf", 1, services).tables[1]
    assert regions.startswith(
        "|  | Three Months Ended |  | Change |  |  |\n|---|---|---|---|---|---|\n"
        "|  | June 30,2025 | June 30,2024 | Q2'25 vs. Q2'24 |  |  |\n"
    )
    assert "| Total Revenues | $ 11,079,166 | $ 9,559,310 | $ 1,519,856 | 16 | % |" in regions


def test_a_table_runs_to_the_end_of_its_zebra_stripes(services):
    """Apple's balance sheet printed by Word, its rows shaded in turn to the page's foot: the last two, a section's
    label alone in each ("LIABILITIES AND SHAREHOLDERS' EQUITY:", "Current liabilities:"), were read as text under
    the table."""
    (table,) = page("165-word-aapl-10-k-2024-11-01.pdf", 1, services).tables
    assert table.endswith(
        "| Total assets | $ 364,980 | $ 352,583 |\n| LIABILITIES AND SHAREHOLDERS’ EQUITY: |  |  |\n"
        "| Current liabilities: |  |  |"
    )


def test_a_cell_wrapped_over_four_lines_keeps_its_row_in_the_table(services):
    """ "British Indian Ocean Territory" wraps over four lines beside "Sub-Saharan Africa" over three: the
    lines past the second ended the table, and the rest of the page's rows were a second table."""
    tables = page("002-chromium-UNSD-en.pdf", 1, services).tables
    territory = (
        "| 002 | Africa | 202 | Sub-Saharan Africa | 014 | Eastern Africa | British Indian Ocean Territory | 086 |"
    )
    assert len(tables) == 1 and territory in tables[0]
    assert (
        tables[0]
        .rstrip()
        .endswith(
            "| 002 | Africa | 202 | Sub-Saharan Africa | 014 | Eastern Africa | Burundi | 108 | BI | BDI | x | x |  |"
        )
    )


def test_a_column_of_cells_wrapped_over_four_lines_keeps_every_row_in_the_table(services):
    """Every row's "Latin America and the Caribbean" wraps over four lines, one word or two a line, under
    its first line's word alone: the third such line ended the table, and most rows were read as text."""
    tables = page("002-chromium-UNSD-en.pdf", 7, services).tables
    assert len(tables) == 1
    rows = [row for row in tables[0].splitlines() if row.startswith("| 019 | Americas |")]
    assert len(rows) == 8 and all("| 419 | Latin America and the Caribbean | 029 | Caribbean |" in row for row in rows)
    assert "| Bonaire, Sint Eustatius and Saba | 535 | BQ | BES |" in tables[0]


@pytest.mark.parametrize("name", ["052-chromium-UNSD-ar.pdf", "057-word-UNSD-ar.pdf"])
def test_a_table_in_arabic_is_read_from_its_right(name, services):
    """A table laid out from the right (ruled by Chromium, unruled by LibreOffice): its first column is
    the one at the right, and each cell's words are read from the right, as the page reads them."""
    number = 2 if name.startswith("052") else 1
    table = page(name, number, services).tables[0]
    assert table.startswith("| Country or Area | Region")
    assert "| مصر | أفريقيا | أفريقيا الشمالية | 818 | EGY |" in table
    assert "| 086 | IOT |" in table and "| أفريقيا جنوب الصحراء الكبرى | 086 | IOT |" in table


def test_an_arabic_table_s_last_piece_under_a_latin_header_is_read_from_its_right(services):
    """The page a long Arabic table ends on holds its header, repeated in Latin letters, and one row: the
    body's letters, not the header's, say which way it reads, and the header's lines join under it."""
    table = page("053-chromium-UNSD-ar.pdf", 2, services).tables[0]
    assert table.startswith("| Country or Area | Region Name | Sub-region Name | M49 Code | ISO-alpha3 Code |")
    assert "| جنوب السودان | أفريقيا |" in table and "| 728 | SSD |" in table


def test_an_arabic_table_without_rules_keeps_its_wrapped_cells_in_their_rows(services):
    """Found by its alignment as a Latin table is: a line read from the right was no row, and the table's
    rows came from the page's bands, where "الكبرى", the last line of a wrapped cell, was left under it."""
    found = page("054-chromium-UNSD-ar.pdf", 3, services)
    assert "| غينيا | أفريقيا | أفريقيا جنوب الصحراء الكبرى | 324 | GIN |" in found.tables[0]
    assert "\nالكبرى\n" not in found.text


def test_a_spreadsheet_s_columns_a_space_apart_are_columns(services):
    """LibreOffice prints a sheet's cells edge to edge: a code set right in its cell stands a space from
    the name set left in the next ("002 Africa"), which was one cell under "Region Code Region Name";
    each heading's left edge, where every row's word starts, parts them, and a heading set left over
    codes set right ("Intermediate Region Code" over "014") heads its own column, not an empty one."""
    table = page("019-sheet-UNSD-en.pdf", 1, services).tables[0]
    assert table.startswith(
        "| Region Code | Region Name | Sub-region Code | Sub-region Name | Intermediate Region Code |"
    )
    assert (
        "| 002 | Africa | 202 | Sub-Saharan Africa | 014 | Eastern Africa | Uganda | 800 | UG | UGA | x | x |  |"
        in table
    )


def test_a_ruled_sheet_whose_merged_cells_leave_its_side_unruled_is_a_table(services):
    """LibreOffice draws no rule at a merged cell's outer side: the grid was open beside the header
    ("header" over two columns) and the last row ("9" over two), lost those cells' words, and was
    read as a chart's axes and labels. The side is closed beside those rows."""
    found = page("029-sheet-xlsx_01.pdf", 1, services)
    assert len(found.tables) == 1 and "Axis ticks" not in found.text
    rows = ["| first | header |  |", "|  | second | third |", "| 3 | 4 | 5 |", "|  | 6 | 7 |", "| 8 | 9 |  |"]
    assert all(row in found.tables[0] for row in rows)


def test_a_heading_broken_mid_word_in_a_narrow_column_is_one_heading(services):
    """Word breaks a heading too long for its column mid-word ("Regi" / "on" / "Code", "ISO-alpha" /
    "3" / "Code"): the header was four rows, one of them starting with the figure "3". Lines at the
    header's own pitch, closer than the gap over the first row of figures, are its headings' lines."""
    tables = page("012-word-UNSD-en.pdf", 5, services).tables
    assert len(tables) == 1
    header, rule, haiti = tables[0].splitlines()
    assert header.startswith("| Regi on Code | Region Name | Sub-regio n Code |") and "| ISO-alpha 3 Code |" in header
    assert haiti.startswith("| 019 | Americas | 419 | Latin America and the Caribbean | 029 | Caribbean | Haiti |")


def test_cells_wrapped_in_a_table_without_rules_stay_in_their_row(services):
    """Chromium wraps a phone number, a company and a country over two lines in a ten-column table
    without rules: each second line was a row of its own (or, under the last row, loose text). A line
    closer under a row than the rows stand apart, its first cell empty, is its cells' next line."""
    table = page("021-chromium-csv-comma.pdf", 1, services).tables[0]
    assert "| Antigua and Barbuda | +1-539-402-0259 | (496)978-3969x58947 | 2020-03-25 |" in table
    assert "| Martin, Lang and Andrade | West Priscilla | Slovakia (Slovak Republic) |" in table
    assert len(table.splitlines()) == 7


def test_a_wrapped_cell_keeps_its_row_when_the_next_row_leaves_a_last_column_empty(services):
    """Each row's "Latin / America / and the / Caribbean" wraps over four lines; the row after
    Grenada's leaves its last column empty (Guadeloupe is no small island state): the table ended
    there. The lines under one cell are its lines when the next row keeps the gutters either side."""
    tables = page("002-chromium-UNSD-en.pdf", 8, services).tables
    assert len(tables) == 1
    assert "| Guadeloupe | 312 | GP | GLP |  |  |  |" in tables[0] and "| Puerto Rico | 630 | PR | PRI |" in tables[0]


def test_rows_under_a_header_wrapped_at_a_closer_pitch_stay_one_table(services):
    """Word sets a header's wrapped lines closer than the rows under it: the rows' spacing was learned
    from the header's lines, and the table ended at the second row ("Liberia"), its first row's
    wrapped "Africa / Africa" starting a table of its own. A gap between groups forgets it."""
    tables = page("012-word-UNSD-en.pdf", 2, services).tables
    assert len(tables) == 1
    first = "| 002 | Africa | 202 | Sub-Saharan Africa | 011 | Western Africa | Guinea-Bissau | 624 | GW | GNB |"
    assert first in tables[0] and "| Liberia | 430 | LR | LBR | x |" in tables[0]


def test_a_ruled_row_whose_cells_wrap_beside_a_one_line_index_is_one_row(services):
    """Word wraps five of a customer's ten cells onto a second line, all on one baseline, beside the index "5" on
    one line: the row was read as two records, the second with no index."""
    [table] = page("022-word-csv-comma.pdf", 1, services).tables
    assert "| 5 | 053d585Ab6b3159 | Joanna | Bender | Martin, Lang and Andrade | West Priscilla |" in table
    assert table.rstrip().endswith(
        "| Slovakia (Slovak Republic) | 001-234-203-0635x76146 | 001-199-446-3860x3486 | 2021-04-17 |"
    )


def test_an_infoboxs_sections_run_across_its_columns(services):
    """ "Stages of independence from the United Kingdom" runs across the gutter between labels and values: it
    parted no gutter, and the infobox was read as lines of text."""
    tables = page("272-word-wikipedia-2.pdf", 2, services).tables
    assert tables and tables[0].startswith("| Capital | Wellington 41°17′S 174°27′E / 41.283°S 174.450°E |")
    for row in ("| Stages of independence from the United Kingdom |  |", "| • Dominion | 26 September 1907 |"):
        assert row in tables[0]


def test_bare_figures_set_right_stay_in_the_column_of_values(services):
    """LibreOffice sets a value that is a figure alone right, the others left: "4,699,755" stood in a third
    column, empty but for the bare figures."""
    tables = page("272-word-wikipedia-2.pdf", 3, services).tables
    assert tables and "| • 2018 census | 4,699,755 |" in tables[0] and "| • Per capita | $40,266 |" in tables[0]
    assert all(line.count("|") == 3 for line in tables[0].splitlines())


def test_a_plot_beside_its_title_and_year_is_a_table_under_its_header(services):
    """The plots' long lines beside titles and years read as text set in columns, and the header shaded over
    them was read again over the rows found under it."""
    reading = read_file(PRINTED / "237-word-wikipedia-4.pdf", services=services)
    first = reading.pages[3].tables[0]
    assert first.startswith("| Film | Year | Description |\n|---|---|---|\n| Source Code | 2011 | U.S. Army")
    assert "| The Road | 2011 | A group of teens" in first
    assert all(table.count("| Film | Year | Description |") == 1 for p in reading.pages for table in p.tables)


def test_a_sheets_amounts_set_edge_to_edge_and_its_sections_labels(services):
    """A currency sign and its amount, or a dash for none, a padding's width after the amount before: the two
    columns were one ("$ 160,544 $ (1,709,112)"); and "Cash flow hedges:" over "Foreign exchange contracts" over
    the first row parted the header from the rows."""
    tables = page("214-sheet-nflx-10-q-2025-07-18.pdf", 1, services).tables
    assert len(tables) == 1 and tables[0].startswith("|  | Three Months Ended |  | Six Months Ended |  |")
    for row in (
        "| Cash flow hedges: |  |  |  |  |\n| Foreign exchange contracts |  |  |  |  |",
        "| Amount included in the assessment of effectiveness | $ (1,222,145) | $ 160,544 | $ (1,709,112) |"
        " $ 389,688 |",
        "| Amount excluded from the assessment of effectiveness | (18,099) | — | (36,130) | — |",
        "| Total | $ (1,333,644) | $ 157,144 | $ (1,883,242) | $ 386,288 |",
    ):
        assert row in tables[0]
