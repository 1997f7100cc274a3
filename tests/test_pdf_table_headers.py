"""A header's lines kept as the source set them, from the generated tuning set (``bench.make_tuning``): Netflix's
statements, whose headers stack "Three Months Ended" and "Change", the dates under them and the note "(in
thousands, except percentages)" over one or two rows of figures, and a fund list whose long names wrap.

Each was read wrong: the note joined to the date over it as that cell's next line ("June 30,2025 (in thousands,
except percentages)"), "Change" stacked into the cell under it, a date's month read as a row apart from its day,
a typewriter header cut from its two rows at the typed rule under it (the rows left as text), dates set left over
amounts set right heading columns of their own, and a fund's name whose wrapped line held "3X" left as rows."""

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
