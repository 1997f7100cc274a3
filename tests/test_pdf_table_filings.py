"""A quarterly filing's statements (Apple's Form 10-Q for March 2025 and Netflix's for June 2025, in the generated
tuning set ``tests/corpus/table-tuning``, printed by Chromium and LibreOffice: ``bench.make_tuning``; and
Apple's 10-K's exhibit index): periods grouped over dates set on two lines, labels wrapped over lines, amounts
whose currency sign wraps apart, headings centred or set left in their cells over figures set right, dates
wrapped under their month, a note of units under the dates, headings set apart over shaded rows, a column set
close after wrapped cells, and tables one under the other with only a caption between them; and the corpus's
form and Korean report, whose lines stay text."""

from __future__ import annotations

import pytest

from readers import Services, read_file
from testkit import CORPUS, make_settings
from testkit.validation import TUNING

PRINTED = TUNING / "printed"
DATES = "|  | March 29,2025 | March 30,2024 | March 29,2025 | March 30,2024 |"


@pytest.fixture(scope="module")
def services(tmp_path_factory) -> Services:
    return Services(make_settings(tmp_path_factory.mktemp("filings")))


def page(name: str, number: int, services: Services):
    return read_file(PRINTED / name, number, number, services=services).pages[0]


def test_a_caption_between_two_tables_parts_them(services):
    """Two statements one under the other, only "Table 168. …" between them: the caption was a lone line
    inside one run, and the two tables' columns were one table's, "$ 8,550 $ 7,903" in one cell. The first
    sets its shares' percent signs in columns of their own, as its source does."""
    tables = page("110-word-aapl-20250329.pdf", 1, services).tables
    assert len(tables) == 2
    assert "| Research and development | $ 8,550 |  | $ 7,903 |  | $ 16,818 |  | $ 15,599 |  |" in tables[0]
    assert "| Percentage of total net sales | 9 | % | 9 | % | 8 | % | 7 | % |" in tables[0]
    assert "|  | March 29,2025 |  | March 30,2024 |  | March 29,2025 |  | March 30,2024 |  |" in tables[0]
    assert "| Provision for income taxes | $ 4,530 | $ 4,422 | $ 10,784 | $ 10,829 |" in tables[1]
    assert DATES in tables[1]


def test_long_headings_over_figures_are_a_header_not_a_column_of_text(services):
    """A share repurchase table with five headings wrapped over three lines and one figure under the last: its
    column's lines were taken for text beside a narrow column, and the table was read in three pieces. The
    headings' first line, one of them long enough to cross a gutter of the rows under it, was then read as a
    title over the table: it is the header's first line."""
    found = page("093-chromium-aapl-20250329.pdf", 1, services)
    table = found.tables[0]
    assert "| Total | 108,120 |  |  | $ 40,779 |" in table
    assert table.startswith("| Periods | Total Numberof Shares Purchased | Average PricePaid Per Share | Total Number")
    assert "| Total Number of SharesPurchased as Part of PubliclyAnnounced Plans or Programs |" in table
    assert "| Open market and privately negotiated purchases | 36,809 | $ 235.43 | 36,809 |  |" in table


def test_a_ruled_header_s_dates_on_two_lines_are_one_heading(services):
    """A ruled statement's header: "March" over "29,2025" in each cell was read as two records."""
    tables = page("086-chromium-aapl-20250329.pdf", 1, services).tables
    assert any(DATES in table for table in tables)
    assert not any("|  | March | March | March | March |" in table for table in tables)


def test_an_unruled_statement_keeps_its_wrapped_labels_and_dated_header(services):
    """Labels wrapped over two and three lines, and section names, stopped the table (more lone lines than a
    table holds), and the dates under "March" were the body's first row."""
    table = page("077-chromium-aapl-20250329.pdf", 3, services).tables[0]
    assert DATES in table
    assert "| Change in foreign currency translation, net of tax | 90 | (322) | (535) | (14) |" in table
    assert "| Change in unrealized gains/losses on derivative instruments, net of tax: |  |  |  |  |" in table
    assert "| Total comprehensive income | $ 25,206 | $ 24,054 | $ 61,919 | $ 60,044 |" in table


def test_an_amount_wrapped_under_its_currency_sign_is_one_cell(services):
    """ "$" at a row's end and "16,818" under it, the label wrapped beside them: one row, not two."""
    tables = page("092-chromium-aapl-20250329.pdf", 1, services).tables
    assert any(
        "| Research and development | $ 8,550 |  | $ 7,903 |  | $ 16,818 |  | $ 15,599 |  |" in t for t in tables
    )


def test_headings_set_left_over_figures_set_right_head_their_own_columns(services):
    """Each "March" starts in the gutter before its column's figures and overlaps them by a point: it
    spanned both columns, and "Change" stood over the wrong ones."""
    tables = page("089-chromium-aapl-20250329.pdf", 1, services).tables
    header = "|  | March 29,2025 | March 30,2024 | Change |  | March 29,2025 | March 30,2024 | Change |  |"
    assert any(header in table for table in tables)


def test_a_section_s_name_wrapped_over_two_lines_is_one_cell(services):
    """ "February 2, 2025 to March 1," alone on its line runs on into "2025:" under it: one cell, not two rows."""
    tables = page("111-word-aapl-20250329.pdf", 1, services).tables
    assert any("| February 2, 2025 to March 1, 2025: |  |  |  |  |" in table for table in tables)


def test_a_line_of_headings_over_the_body_s_gutters_is_a_header_row(services):
    """ "March  March  Change" set left in their cells cross the body's gutters: the line was read as a title. It is
    the first line of the dates' row under it ("March" over "29,2025", closer than the rows stand), under the
    periods centred over their groups of columns, which were a heading over the table."""
    lines = page("107-word-aapl-20250329.pdf", 1, services).tables[0].splitlines()
    assert lines[0] == "|  | Three Months Ended |  |  |  | Six Months Ended |  |  |  |"
    assert lines[2] == "|  | March 29,2025 | March 30,2024 | Change |  | March 29,2025 | March 30,2024 | Change |  |"
    assert lines[3] == "| Americas | $ 40,315 | $ 37,273 | 8 | % | $ 92,963 | $ 87,703 | 6 | % |"


def test_a_repeated_header_wrapped_over_seven_lines_stays_the_table_s(services):
    """Word breaks the repeated header's headings over seven lines, closer than the rows stand: its last three
    lines were a table of their own, and the header the first line of figures' pitch cut off."""
    table = page("012-word-UNSD-en.pdf", 3, services).tables[0]
    assert table.startswith("| Regi on Code | Region Name | Sub-regio n Code |")
    assert (
        "| 002 | Africa | 202 | Sub-Saharan Africa | 011 | Western Africa | Togo | 768 | TG | TGO | x |  |  |" in table
    )


def test_a_label_wrapped_before_its_year_is_one_cell(services):
    """ "Balance as of September 28," and "2024" under it: the year was a row of its own (a figure)."""
    tables = page("104-word-aapl-20250329.pdf", 1, services).tables
    assert any("| Balance as of September 28, 2024 | 163,326 |" in table for table in tables)


def test_the_last_row_s_label_wrapped_onto_a_year_stays_in_it(services):
    """A zebra's header lines stand closer than its rows: the last label's "2025" was measured against them
    and read under the table."""
    found = page("086-chromium-aapl-20250329.pdf", 1, services)
    assert any("| Balance as of March 29, 2025 | 183,346 |" in table for table in found.tables)
    assert "\n2025\n" not in found.text


def test_a_leader_s_last_dots_are_no_words_of_the_cell(services):
    """A label that nearly fills its column leaves two dots of its leader: no cell keeps them."""
    table = page("104-word-aapl-20250329.pdf", 1, services).tables[0]
    assert "| Total property, plant and equipment, net | $ 46,876 | $ 45,680 |" in table
    text = read_file(CORPUS / "pdfplumber/federal-register-2020-17221.pdf", services=services).as_text()
    assert "| FCC OPS installation and verification | 1 work-hour × $85 per hour = $85 |" in text


@pytest.mark.parametrize(
    "path, words",
    [
        # a form's filing status boxes, each a line: no table of them
        ("pdfminer/f1040nr.pdf", "3 Married resident of Canada or Mexico, or a married U.S. national"),
        # a Korean report's two columns of prose: no table of their lines
        ("docling/normal_4pages.pdf", "격성, 우연성, 외래성”을 충족하는 사고를 상해로 정의함"),
    ],
)
def test_lines_of_text_are_no_table(path, words, services):
    reading = read_file(CORPUS / path, services=services)
    assert any(words in line and not line.startswith("|") for line in reading.as_text().splitlines())


def test_a_date_wrapped_under_its_month_in_a_ruled_header_is_one_heading(services):
    """Netflix's regions: "June" over "30,2025" in a header ruled above and below, "Q2'25 vs. Q2'24" beside
    them over no cell of the line under: the dates' second lines were a row of their own."""
    tables = page("182-chromium-nflx-10-q-2025-07-18.pdf", 1, services).tables
    assert "|  | June 30,2025 | June 30,2024 | Q2'25 vs. Q2'24 |  |  |" in tables[1]
    assert "30,2025 |" not in tables[1].replace("June 30,2025 |", "")


def test_a_note_of_units_under_the_dates_is_a_row_of_its_own(services):
    """ "(in thousands)" alone under "June 30,2025" was taken for the date's next line."""
    [table] = page("194-word-nflx-10-q-2025-07-18.pdf", 2, services).tables
    assert table.startswith("|  | June 30,2025 | December 31,2024 |\n|---|---|---|\n|  | (in thousands) |  |\n")


def test_a_sections_label_wrapped_over_two_lines_is_one_row_under_the_header_set_apart(services):
    """The share repurchases' first period, "December 29, 2024 to February" over "1, 2025:", over its row of
    figures: only the second line was the table's. Their headings, wrapped over four lines and set without shade
    over rows shaded in turn, were a table of their own over the rows."""
    tables = page("111-word-aapl-20250329.pdf", 1, services).tables
    [table] = [table for table in tables if "| Periods |" in table]
    assert table.startswith("| Periods | Total Numberof Shares Purchased | Average PricePaid Per Share |")
    assert "|\n| December 29, 2024 to February 1, 2025: |  |  |  |  |\n| Open market" in table


def test_a_column_set_close_after_wrapped_cells_stands_apart_from_them(services):
    """An exhibit index printed from a sheet: "8-K" a cell's padding after "… dated as of August 4," and less
    after a wrapped line's "due": the gutter opened from the first lines only, and each form was read into the
    description."""
    table = page("170-sheet-aapl-10-k-2024-11-01.pdf", 2, services).tables[0]
    assert "| 4.11 | Supplement No. 1 to the Officer’s Certificate of the Registrant, dated as of March 24" in table
    assert "March 24, 2016. | 8-K | 4.1 | 3/24/16 |" in table
    assert "dated as of August 4, 2016, including" in table and "8-K 2016" not in table
