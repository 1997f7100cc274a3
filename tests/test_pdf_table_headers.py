"""A header's lines kept as the source set them, from the generated tuning set (``bench.make_tuning``): Netflix's
statements, whose headers stack "Three Months Ended" and "Change", the dates under them and the note "(in
thousands, except percentages)" over one or two rows of figures, and a fund list whose long names wrap.

Each was read wrong: the note joined to the date over it as that cell's next line ("June 30,2025 (in thousands,
except percentages)"), "Change" stacked into the cell under it, a date's month read as a row apart from its day,
a typewriter header cut from its two rows at the typed rule under it (the rows left as text), dates set left over
amounts set right heading columns of their own, a fund's name whose wrapped line held "3X" left as rows, a
heading ending a fraction of a point past its figures and one heading over an exhibit list's last columns read as
headings over the table, outside it, a unit's note run on over the gap after its column joining two columns, and
headings set left over a unit set left and a figure set right read as a line over the table."""

from __future__ import annotations

import pytest

from readers import Services, read_file
from testkit import make_settings
from testkit.validation import TUNING

PRINTED = TUNING / "printed"
NOTE = "|  | (in thousands, except percentages) |"


@pytest.fixture(scope="module")
def services(tmp_path_factory) -> Services:
    return Services(make_settings(tmp_path_factory.mktemp("headers")))


def tables(name: str, services: Services, number: int = 1) -> list[str]:
    return read_file(PRINTED / name, number, number, services=services).pages[0].tables


@pytest.mark.parametrize(
    "name",
    [
        "204-word-nflx-10-q-2025-07-18.pdf",  # a rule under the header
        "205-word-nflx-10-q-2025-07-18.pdf",  # typed in a monospaced font, a rule of hyphens under the header
    ],
)
def test_the_note_under_the_dates_is_a_row_of_its_own(name, services):
    first = tables(name, services)[0]
    assert first.startswith("|  | Three Months Ended |  |  |  | Change |  |  |\n|---|")
    assert "|  | June 30,2025 |  | June 30,2024 |  | Q2'25 vs. Q2'24 |  |  |\n" + NOTE in first
    assert "| As a percentage of revenues |" in first


def test_a_heading_beside_a_group_s_heading_stays_on_its_line(services):
    """ "Change" was stacked with "Q2'25 vs. Q2'24" under it, the note with the first date."""
    (table,) = tables("202-word-nflx-10-q-2025-07-18.pdf", services)
    assert table == (
        "|  | Three Months Ended |  | Change |  |  |\n|---|---|---|---|---|---|\n"
        "|  | June 30,2025 | June 30,2024 | Q2'25 vs. Q2'24 |  |  |\n"
        f"{NOTE}  |  |  |  |\n"
        "| Revenues | $ 11,079,166 | $ 9,559,310 | $ 1,519,856 | 16 | % |"
    )


def test_a_date_whose_month_stands_over_it_is_one_heading(services):
    """Under a header of a few lines, a label wrapped under its row of figures counts for no row: the two rows
    were too few, and the header's lines were read as headings over the whole body."""
    table = tables("189-chromium-nflx-10-q-2025-07-18.pdf", services)[1]
    assert "|  | June 30,2025 | December 31,2024 | June 30, 2025 vs. December 31, 2024 |  |  |" in table
    assert "| Cash, cash equivalents, restricted cash and short-term investments | $ 8,393,688a |" in table


def test_dates_set_left_over_amounts_set_right_head_them_over_two_rows(services):
    table = tables("201-word-nflx-10-q-2025-07-18.pdf", services)[1]
    assert table.startswith("|  | June 30,2025 | December 31,2024 |\n|---|---|---|\n|  | (in thousands) |  |\n")
    assert table.endswith("| United States | $ 2,853,087 | $ 2,769,828 |\n| International | 1,065,822 | 926,238 |")


def test_a_name_wrapped_with_a_digit_in_it_stays_one_cell(services):
    (table,) = tables("233-word-fund_data.pdf", services, 4)
    name = "Direxion Daily MSCI Emerging Markets Bull 3X Shares"
    assert f"| 0001424958 | S000022789 | {name} | C000065917 | {name} | EDC |" in table
    assert len(table.splitlines()) == 3


def test_a_heading_ending_a_point_past_its_figures_heads_their_column(services):
    """ "Mean difference" ends a fraction of a point past the figures set right under it: it was read as a heading
    over the table, outside it, and the table was said to be unsure."""
    page = read_file(PRINTED / "137-chromium-1472-6831-8-11.pdf", services=services).pages[0]
    table = page.tables[2]
    assert table.startswith("|  | ICC | Mean difference | Limits of agreement |\n|---|---|---|---|\n")
    assert "| Total OHIP-NL | 0.90 | -5.6 | -37.9 to 26.7 |" in table
    assert "# Mean difference" not in page.text and 2 not in page.unsure_tables


def test_one_heading_over_the_last_columns_heads_them_and_a_row_of_two_cells_keeps_the_table(services):
    """Apple's exhibit list: "Incorporated by Reference", one heading over Form, Exhibit and Filing Date, was read
    as a heading over the table; and the row "4.1**  Description of Securities of the Registrant.", its last
    cells empty, kept the table's first gutter only, so the rows after it (descriptions wrapped over six lines)
    made a second table."""
    (table,) = tables("161-chromium-aapl-10-k-2024-11-01.pdf", services, 2)
    rows = table.splitlines()
    assert rows[0] == "|  |  | Incorporated by Reference |  |  |"
    assert rows[2] == "| Exhibit Number | Exhibit Description | Form | Exhibit | Filing Date/Period End Date |"
    assert rows[5] == "| 4.1** | Description of Securities of the Registrant. |  |  |  |"
    assert rows[7].startswith("| 4.3 | Officer’s Certificate of the Registrant, dated as of May 3, 2013,")
    assert rows[8].startswith("| 4.4 | Officer’s Certificate of the Registrant, dated as of May 6, 2014,")
    assert rows[8].endswith("| 8-K | 4.1 | 5/6/14 |")


def test_a_unit_s_note_running_on_past_its_column_parts_no_columns(services):
    """ "(in thousands)", set in the first column of figures and running on over the gap after it, made Revenues
    and Cost of Revenues one column ("$ 33,301 $ 73")."""
    table = tables("179-chromium-nflx-10-q-2025-07-18.pdf", services, 2)[0]
    assert "|  | Revenues | Cost of Revenues | Interest and other income (expense) |" in table
    assert "\n|  | (in thousands) |  |  |  |  |\n" in table
    assert "| Amount of gains (losses) reclassified from AOCI | $ 33,301 | $ 73 | $ — | $ (7,652) | $ 25,722 |" in table


def test_headings_set_left_over_words_and_figures_parted_under_them_head_one_column_each(services):
    """A steel's datasheet printed by Word: each heading set left in its cell, a unit set left and a figure set right
    under it ("N/mm 2" and "890" under "Yield point or Proof stress"), no row filling both. The unit and the figure
    made two columns, the six headings crossed the nine, and the header was read as a line of text over the table."""
    table = tables("046-word-example-steelJIS-datasheet.pdf", services)[0]
    header = "| Assortment | Yield point or Proof stress | Tensile strength | Elongation | Reduction of area |"
    assert table.startswith(f"{header} Charpy impact strength |\n|---|---|---|---|---|---|\n")
    assert "| - | N/mm 2 | N/mm 2% |  | % | J/cm 2 |\n| Bars | 890 | 1000 | 12 | 40 |  |" in table
