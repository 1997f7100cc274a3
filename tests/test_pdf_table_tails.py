"""A table's rows at a page's edge and in narrow cells, on prints of the generated tuning set's rounds
(``tests/corpus/table-tuning``, ``bench.make_tuning``: real sources printed by Chromium, Word and a spreadsheet).

Each was read wrong: a sheet's last row at the page's foot, its last cell the mark "x", taken whole for the page's
number in Roman figures and set apart as furniture; a table's last row shaded alone on the page it runs on to,
one ruled row with no header, read as lines of text; the one row framed by a header rule at a page's top, its
currency wrapped ("CFA Franc" / "BCEAO"), read as a header over two rows, its true header a heading; rows shaded in
turn beside a column of sentences taken for text set in columns, the table cut in two; and codes broken where a
narrow ruled cell's room ran out ("000142495" / "8"), which split every row in two as if its lines were records."""

from __future__ import annotations

import pytest

from readers import Services, read_file
from testkit import make_settings
from testkit.validation import TUNING


@pytest.fixture(scope="module")
def services(tmp_path_factory) -> Services:
    return Services(make_settings(tmp_path_factory.mktemp("tails")))


def page(name: str, number: int, services: Services):
    return read_file(TUNING / name, number, number, services=services).pages[0]


def test_a_sheet_s_last_row_ending_in_a_mark_is_no_page_number(services):
    found = page("printed/019-sheet-UNSD-en.pdf", 1, services)
    assert found.tables[0].endswith(
        "| Ghana | 288 | GH | GHA |  |  |  |\n"
        "| 002 | Africa | 202 | Sub-Saharan Africa | 011 | Western Africa | Guinea | 324 | GN | GIN | x |  |  |"
    )
    assert not any("Guinea" in line for line in found.furniture)


def test_a_last_row_shaded_alone_on_the_next_page_is_a_table_s_row(services):
    found = page("third/168-word-aapl-10-k-2024-11-01.pdf", 2, services)
    assert found.tables == [
        "| 4.9 | Officer’s Certificate of the Registrant, dated as of September 17, 2015, including forms of global"
        " notes representing the 1.375% Notes due 2024 and 2.000% Notes due 2027. | 8-K | 4.1 | 9/17/15 |\n"
        "|---|---|---|---|---|"
    ]
    assert "Officer’s Certificate of the Registrant, dated\nas of September 17" not in found.text


def test_one_wrapped_row_framed_by_a_header_rule_keeps_its_header(services):
    found = page("third/245-chromium-codes-all.pdf", 2, services)
    assert found.tables == [
        "| Entity | Currency | AlphabeticCode | NumericCode | MinorUnit | WithdrawalDate |\n"
        "|---|---|---|---|---|---|\n"
        "| BENIN | CFA Franc BCEAO | XOF | 952 | 0 |  |"
    ]
    assert "# Entity" not in found.text


def test_rows_shaded_in_turn_beside_a_column_of_sentences_are_one_table(services):
    found = page("third/220-chromium-exhibits.pdf", 2, services)
    (table,) = found.tables
    assert table.startswith(
        "| Exhibit No. | Description | Form Types Involved |\n|---|---|---|\n"
        "| 19 | Report Furnished to Security Holders | Often part of 10-Q or similar reports |\n"
    )
    assert table.endswith("| 104-106 | Reserved/Static Pool PDF | N/A or specific to asset-backed securities |")
    assert "# Form Types Involved" not in found.text


def test_codes_broken_in_a_narrow_ruled_cell_are_whole_and_the_row_one(services):
    (table,) = page("second/232-word-fund_data.pdf", 2, services).tables
    assert (
        "| 0001424958 | S000022780 | Direxion Daily Energy Bear 2X Shares | C000065908 | Direxion Daily Energy Bear 2X"
        " Shares | ERY | 0001193125-22-133910 | 497 | Fund Prospectus | 2022-04-29 |\n| 0001424958 | S000022791 |"
    ) in table
    customers = page("printed/022-word-csv-comma.pdf", 1, services).tables[0]
    assert "| 1 | DD37Cf93aecA6Dc | Sheryl | Baxter |" in customers
    assert "| 5 | 053d585Ab6b3159 | Joanna | Bender |" in customers
