"""Headings and labels wrapped over lines, section rows and notes kept in their tables, from the generated tuning set
(``bench.make_tuning``: filings and a list of failed banks printed by Chromium, Word and a spreadsheet) and the corpus.

Each was read wrong: a section's heading under a row of figures ("Derivatives not designated as hedging
instruments:") joined to that row's label, a note of the units under headings stacked into the heading over it,
headings longer than prose over their columns left out of the header, a row under a table's last shaded row left as
text and cut in two, a title centred over a table of contents read into the cell above it, the table's last two
rows at the page's foot taken for its running foot (and a sheet's last row, its mark "x" taken for the page's
number), a heading set left in a wide gutter taken for one centred over two columns, a note "(in thousands)"
parting a column of dashes from its amounts, a section's label after a blank line ending the table, a long label's
wrapped lines left as text, a note's mark "(1)" taken for a figure ending the header, headings stacked over the row
of dates set under it, a date's year wrapped under its day left a row, a header over one row filling its first
cells read as lines of text, a total whose amounts wrap under their dollar signs split in two rows as if its lines
were records, a date wrapped under its month ("March" / "29,2025") read as a row of figures under the header, a
note of the units starting in the gutter after the labels set in the labels' column, a number broken after a hyphen
in a cell ("202-" / "027-5") read as two words, a word too wide for its ruled cell broken where its room ran out
("Subscripti" / "on") read as two, names wrapped beside one-line codes in a ruled row split as two records, and the
last page of a table of films, no plot on it holding a figure, read as paragraphs."""

from __future__ import annotations

import pytest

from readers import Services, read_file
from testkit import CORPUS, make_settings
from testkit.validation import TUNING

PRINTED = TUNING / "printed"
SECOND = TUNING / "second"  # the second round's prints kept (bench.make_tuning.LATER_ROUNDS)


@pytest.fixture(scope="module")
def services(tmp_path_factory) -> Services:
    return Services(make_settings(tmp_path_factory.mktemp("wraps")))


def tables(name: str, services: Services, number: int = 1) -> list[str]:
    return read_file(PRINTED / name, number, number, services=services).pages[0].tables


def test_grouped_headings_a_units_note_and_sections_keep_their_rows(services):
    """A sheet's print: two levels of headings, the longest over their columns, "(in thousands)" under them, and a
    section's heading closer under a row of figures than the rows stand."""
    (table,) = tables("213-sheet-nflx-10-q-2025-07-18.pdf", services)
    assert table.startswith(
        "|  | Derivative Assets |  | Derivative Liabilities |  |\n|---|---|---|---|---|\n"
        "|  | Other current assets | Other non-current assets | Accrued expenses and other liabilities |"
        " Other non-current liabilities |\n|  |  |  | (in thousands) |  |\n"
    )
    assert (
        "| Foreign exchange contracts | $ 310,320 | $ 25,566 | $ 591,529 | $ 467,961 |\n"
        "| Derivatives not designated as hedging instruments: |  |  |  |  |\n"
    ) in table


def test_a_units_note_under_dates_under_a_typed_rule_is_a_row(services):
    (table,) = tables("181-chromium-nflx-10-q-2025-07-18.pdf", services)
    assert "|  | June 30,2025 | December 31,2024 |\n|  | (in thousands) |  |\n| United States |" in table


def test_the_row_under_the_last_shaded_row_is_the_table_s(services):
    """Its label and one amount wrap ("Derivative" / "liabilities", "(36,190" / ")"): it was left as text in two."""
    table = tables("198-word-nflx-10-q-2025-07-18.pdf", services)[0]
    assert table.endswith("| Derivative liabilities | 1,069,131 | — | 1,069,131 | (340,280) | (36,190 ) | 692,661 |")


def test_a_title_centred_over_a_table_of_contents_and_its_last_rows_at_the_foot_stay_rows(services):
    (table,) = tables("113-sheet-aapl-20250329.pdf", services, 2)
    part = "| Item 4. | Controls and Procedures | 18 |\n| Part II |  |  |\n| Item 1. | Legal Proceedings | 19 |"
    assert part in table
    assert table.endswith("| Item 5. | Other Information | 22 |\n| Item 6. | Exhibits | 22 |")


def test_a_sheet_s_last_row_at_the_foot_ending_in_a_mark_stays_a_row(services):
    """The row's last cell holds "x" (a least developed country), read as the page's number in Roman figures: the
    whole row went to the page's furniture, out of the table."""
    page = read_file(PRINTED / "019-sheet-UNSD-en.pdf", 1, 1, services=services).pages[0]
    assert page.tables[0].endswith(
        "| Ghana | 288 | GH | GHA |  |  |  |\n"
        "| 002 | Africa | 202 | Sub-Saharan Africa | 011 | Western Africa | Guinea | 324 | GN | GIN | x |  |  |"
    )
    assert not any("Guinea" in line for line in page.furniture)


def test_headings_set_left_in_a_wide_gutter_head_the_column_after_it(services):
    table = tables("104-word-aapl-20250329.pdf", services)[1]
    assert table.startswith(
        "|  | Number ofRSUs(in thousands) | Weighted-AverageGrant-Date FairValue Per RSU |\n|---|---|---|\n"
        "| Balance as of September 28, 2024 | 163,326 | $ 158.73 |\n"
    )


def test_a_units_note_parts_no_column_of_dashes_from_its_amounts(services):
    (table,) = tables("199-word-nflx-10-q-2025-07-18.pdf", services)
    assert "|  | Revenues | Cost of Revenues | Interest and other income (expense) | Revenues |" in table
    assert "| Amount of gains (losses) reclassified from AOCI | 127,411 | (1,995) | — | 22,060 | 267 | — |" in table


def test_a_section_s_label_after_a_blank_line_goes_on_with_the_table(services):
    (table,) = tables("215-sheet-nflx-10-q-2025-07-18.pdf", services)
    assert "| Gains (losses) on derivatives in fair value hedging relationship |" in table
    assert "| Gains (losses) on derivatives not designated as hedging instruments |" in table


def test_a_long_label_s_wrapped_lines_are_its_cell(services):
    table = tables("211-sheet-nflx-10-q-2025-07-18.pdf", services)[0]
    assert table.endswith(
        "| Common stock, $0.001 par value; 4,990,000,000 shares authorized at June 30, 2025 and December 31, 2024;"
        " 424,926,346 and 427,757,100 issued and outstanding at June 30, 2025 and December 31, 2024, respectively"
        " | 6,932,828 | 6,252,126 |"
    )


def test_a_note_s_mark_after_a_heading_ends_no_header(services):
    table = tables("111-word-aapl-20250329.pdf", services)[1]
    assert table.startswith(
        "| Periods | Total Numberof Shares Purchased | Average PricePaid Per Share | Total Number of SharesPurchased as"
        " Part of PubliclyAnnounced Plans or Programs | Approximate Dollar Value ofShares That May Yet Be"
        " PurchasedUnder the Plans or Programs (1) |\n|---|"
    )


def test_headings_stacked_over_a_row_of_dates_come_first(services):
    (table,) = tables("216-sheet-nflx-10-q-2025-07-18.pdf", services, 2)
    assert table.startswith(
        "|  |  | As of |  | Change |\n|---|---|---|---|---|\n"
        "|  | June 30,2025 | December 31,2024 | June 30, 2025 vs. December 31, 2024 |  |\n"
    )


def test_a_date_s_year_wrapped_under_its_day_goes_with_the_row(services):
    """A bank's name and a date wrapped at once ("… d/b/a Bank" / "of Kenosha", "May 31," / "2013")."""
    (table,) = tables("073-chromium-banklist.pdf", services)
    row = "| Banks of Wisconsin d/b/a Bank of Kenosha | Kenosha | WI | 35386 | North Shore Bank, FSB | May 31, 2013 |"
    assert f"{row} May 31, 2013 |" in table


@pytest.mark.parametrize(
    "name", ["043-chromium-example-steelJIS-datasheet.pdf", "047-word-example-steelJIS-datasheet.pdf"]
)
def test_a_header_over_one_row_of_its_first_cells_is_a_table(name, services):
    """A steel's hardness: five headings over a grade and its one range, typed with leaders in the second print."""
    assert tables(name, services)[-1] == (
        "| - | BrinellHBW / HB | Rockwell CHRC | Rockwell B HRBS / HRB | VickersHV |\n|---|---|---|---|---|\n"
        "| SNB22-3 | 293-375 |  |  |  |"
    )


def test_a_form_s_numbered_lines_at_the_top_of_a_page_are_its_text(services):
    """Lines 36 to 40 of a tax form's second page, each ending in its number, were taken for running heads."""
    text = read_file(CORPUS / "pdfminer/f1040nr.pdf", 2, 2, services=services).pages[0].text
    assert text.startswith("36 Amount from line 35 (adjusted gross income) 36\n37 Itemized deductions from page 3")


def test_a_cell_s_line_centred_by_chance_stays_in_its_cell(services):
    text = read_file(CORPUS / "olmocr/edgar.pdf", services=services).as_text()
    assert "| Spouses | Æthelflæd Wulfthryth Ælfthryth |" in text


def test_amounts_wrapped_under_their_dollar_signs_beside_a_one_line_label_are_one_row(services):
    """A ruled total whose narrow cells wrap "$" over "376": the lines line up across cells, but the label's one
    line stands at their top, so they are one row's, not two records'."""
    (table,) = tables("099-word-aapl-20250329.pdf", services, 2)
    assert table.endswith("| Total | $ 137,088 | $ 376 | $ (4,542) | $ 132,922 | $ 28,162 | $ 20,336 | $ 84,424 |")


def test_records_beside_labels_centred_over_them_stay_apart(services):
    """A paper's results: "6" and "6" centred beside the two records "OTSL" and "HTML" of one ruled row."""
    text = read_file(CORPUS / "docling/2305.03393v1-pg9.pdf", services=services).as_text()
    assert "| 6 | 6 | OTSL | 0.965 | 0.934 | 0.955 | 0.88 | 2.73 |\n|  |  | HTML | 0.969 |" in text


@pytest.mark.parametrize(
    ("pdf", "number"),
    [(PRINTED / "080-chromium-aapl-20250329.pdf", 3), (PRINTED / "097-word-aapl-20250329.pdf", 1)]
    + [(SECOND / "090-chromium-aapl-20250329.pdf", 1)],
)
def test_a_date_wrapped_under_its_month_is_one_heading(pdf, number, services):
    """In each column "March" over "29,2025": the day and year are a figure, but they end the heading's date."""
    found = read_file(pdf, number, number, services=services).pages[0].tables
    table = next(table for table in found if "March" in table)
    assert "|  | March 29,2025 | March 30,2024 |" in table
    assert "|  | March |" not in table


def test_a_units_note_starting_past_the_labels_stands_over_the_figures(services):
    """The note "(in thousands, except percentages)" starts in the gutter after the labels, over the figures (Word's
    print of the same table: ``test_pdf_table_groups``)."""
    second = tables("189-chromium-nflx-10-q-2025-07-18.pdf", services)[1]
    assert "\n|  | (in thousands, except percentages) |  |  |  |  |\n" in second


def test_a_number_broken_after_its_hyphen_in_a_cell_reads_whole(services):
    """A substance's EC number and a chemical name broken across a cell's lines after a hyphen ("202-" /
    "027-5"): one word, as printed, not two."""
    text = read_file(CORPUS / "olmocr/lots_of_sci_tables.pdf", services=services).as_text()
    assert "(EC No. 202-027-5) or Michler's base" in text
    assert "4-(1,1,1,2,3,3,3-heptafluoropropan-2-yl)morpholine" in text


def test_a_word_too_wide_for_its_ruled_cell_reads_whole(services):
    """Word's print of narrow columns breaks a word where its cell's room runs out ("Subscripti" / "on", "R" /
    "a" / "n" / "k"); the pieces are one word again. Two English words wrapped to fill a cell stay two
    ("inhabitants" / "per outlet"), and a long table's header read whole on one page and broken on the next is
    the same header: the table runs on."""
    customers = read_file(PRINTED / "022-word-csv-comma.pdf", services=services).as_text()
    assert "| Subscription Date |\n" in customers
    assert "| 3 | 6F94879bDAfE5a6 | Roy | Berry |" in customers
    states = read_file(PRINTED / "064-word-wikipedia_states.pdf", services=services).as_text()
    assert "| State/territory | Rank | sq mi | km² | Rank | sq mi | km² | % land |" in states
    retail = read_file(CORPUS / "icdar2013-eu/eu-004.pdf", services=services).as_text()
    assert "| Number of retail outlets (000) | inhabitants per outlet | Retail sales (Ecu bn) |" in retail
    codes = read_file(PRINTED / "011-word-UNSD-en.pdf", 3, 3, services=services).pages[0].text
    assert codes.startswith("*(continued from page 2)*\n\n| Region Code | Region Name |")


def test_names_wrapped_beside_one_line_codes_in_a_ruled_table_are_one_row(services):
    """A fund's name wrapped in its ruled cell beside its one-line codes ("DIREXION DAILY JUNIOR" / "GOLD MINERS
    INDEX BEAR 2X SHARES"), ten columns, the date wrapped in the last: one row, not two records."""
    (table,) = read_file(SECOND / "235-chromium-fund_data.pdf", 1, 1, services=services).pages[0].tables
    assert (
        "| 0001424958 | S000034517 | DIREXION DAILY JUNIOR GOLD MINERS INDEX BEAR 2X SHARES | C000106085 |"
        " DIREXION DAILY JUNIOR GOLD MINERS INDEX BEAR 2X SHARES | JDST | 0001193125-22-073453 | 497 |"
        " Fund Prospectus | 2022-03-11 |\n| 0001424958 | S000038649 |"
    ) in table


def test_films_and_their_plots_under_a_year_heading_are_a_table(services):
    """The last page of a table of films: no plot on it holds a figure, and the years' column has its heading
    "Year" over them; it was read as paragraphs."""
    (table,) = read_file(SECOND / "240-word-wikipedia-4.pdf", 9, 9, services=services).pages[0].tables
    assert table.startswith("| Film | Year | Description |\n|---|---|---|\n| Christmas...Again?! | 2021 | A holiday")
