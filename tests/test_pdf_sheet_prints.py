"""Spreadsheets printed by LibreOffice, from the generated tuning set (``bench.make_tuning``).

A sheet's print right-aligns a column of numbers against the next column's words, a cell's padding apart (a fifth
of an em, narrower than a word space: ``readers.pdf.seams``). The exhibit list of EDGAR's reference data was read
as two columns of text ("1 Underwriting Agreement" one line, the forms after all the descriptions), Apple's
exhibit index with each exhibit's number and filing date in one cell ("10.1 8/19/22"), and its forms, set
left a few points after the descriptions' longest lines, inside them. A typewriter's columns are a whole
character apart, as its words are: they stay as they were. A section's label alone under a sheet's header
("Numerator:") is the first row, not a line over the table.

A sheet's rows as tall as their longest cell stand far apart where a short cell fills one line of a row of many
(``readers.pdf.bands``): Wikipedia's films featuring time loops were read as a column of titles, one of years and
one of descriptions, each row's cells as lines of text apart."""

from __future__ import annotations

import pytest

from readers import Services, read_file
from testkit import make_settings
from testkit.validation import TUNING

PRINTED = TUNING / "printed"


@pytest.fixture(scope="module")
def services(tmp_path_factory) -> Services:
    return Services(make_settings(tmp_path_factory.mktemp("seams")))


def tables(name: str, services: Services, number: int = 1) -> list[str]:
    return read_file(PRINTED / name, number, number, services=services).pages[0].tables


def test_numbers_set_against_the_descriptions_are_a_column(services):
    (table,) = tables("220-sheet-exhibits.pdf", services)
    assert table.startswith(
        "| Exhibit No. | Description | Form Types Involved |\n|---|---|---|\n"
        "| 1 | Underwriting Agreement | S-1, S-3, F-1, F-3, S-8, S-11, etc. |\n"
    )
    assert "| 18 | Letter re Change in Accounting Principles | Used when significant changes in accounting" in table
    assert len(table.splitlines()) == 2 + 18


def test_an_exhibit_s_number_and_its_filing_date_are_two_cells(services):
    (table,) = tables("171-sheet-aapl-10-k-2024-11-01.pdf", services)
    for number, date in [("10.3", "3/4/22"), ("10.1", "8/19/22"), ("10.2", "12/31/22")]:
        assert f"| {number} | {date} |" in table
    assert "| 10.19*, ** | Form of Restricted Stock Unit Award Agreement under 2022" in table


def test_a_left_aligned_column_set_close_after_wrapped_descriptions_is_a_column(services):
    """Apple's exhibit list as a sheet: each form ("8-K", "S-3") starts its column a few points after the
    description beside it where a line of the description ends late ("… dated as of February" 8-K), narrower than
    a gutter: the forms were read into the descriptions, "Exhibit Description Form" one heading."""
    table = tables("170-sheet-aapl-10-k-2024-11-01.pdf", services)[0]
    assert table.startswith(
        "| Exhibit Number | Exhibit Description | Form | Exhibit | Filing Date/Period End Date |\n"
        "|---|---|---|---|---|\n"
        "| 3.1 | Restated Articles of Incorporation of the Registrant filed on August 3, 2020. | 8-K | 3.1 | 8/7/20 |\n"
    )
    assert "| 4.2 | Indenture, dated as of April 29, 2013, between the Registrant and The Bank of New York" in table
    assert "N.A., as Trustee. | S-3 | 4.1 | 4/29/13 |" in table


def test_a_section_s_label_under_the_header_is_a_row_and_the_dates_over_it_the_header_s(services):
    """Apple's earnings per share as a sheet: "Numerator:" alone under the dates, over the first row of figures,
    took the header's lines over it to be read as text before the table."""
    table = tables("117-sheet-aapl-20250329.pdf", services)[0]
    assert table.startswith(
        "|  | Three Months Ended |  | Six Months Ended |  |\n|---|---|---|---|---|\n"
        "|  | March 29,2025 | March 30,2024 | March 29,2025 | March 30,2024 |\n| Numerator: |  |  |  |  |\n"
        "| Net income | $ 24,780 | $ 23,636 | $ 61,110 | $ 57,552 |\n| Denominator: |  |  |  |  |\n"
    )


def test_a_typewriter_s_figure_and_unit_stay_one_cell(services):
    """The typed columns line up as a seam's would, but a whole character apart: "1.580 ppm ZnSO4" is one cell."""
    (table,) = tables("128-chromium-pa20010031492.pdf", services)
    assert "| Lag Phase | 1.445 ppm ZnSO4 | 1.580 ppm ZnSO4 |" in table


def test_a_sheet_s_tall_rows_are_one_table(services):
    (table,) = tables("240-sheet-wikipedia-4.pdf", services, 2)
    assert table.startswith("| Film | Year | Description |\n|---|---|---|\n| Source Code | 2011 | U.S. Army Aviation")
    assert "| Puella Magi Madoka Magica: The Movie | 2012 | Homura Akemi has the ability to travel 30 days" in table
    assert (
        "| Before I Fall | 2017 | A popular high school senior finds herself reliving the same day over and over. |"
        in (table)
    )


def test_a_header_of_more_headings_than_the_rows_have_cells_heads_them(services):
    """Apple's quarterly exhibit list as a sheet: five headings ("Filing Date/Period End Date" the longest) over
    rows that fill two cells, each under a heading. The header was left over the table as a line of text."""
    (table,) = tables("122-sheet-aapl-20250329.pdf", services)
    assert table.startswith("| ExhibitNumber | Exhibit Description")
    assert "| Filing Date/Period End Date |\n|---|" in table
    assert "| 31.1* | Rule 13a-14(a) / 15d-14(a) Certification of Chief Executive Officer. |" in table
    assert "| 104* | Inline XBRL for the cover page of this Quarterly Report on Form 10-Q, included in" in table
