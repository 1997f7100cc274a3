"""Headings centred over groups of columns, and row labels wrapped in the first column, on Wikipedia's
list of U.S. states and territories by area as the generated tuning set prints it (``bench.make_tuning``):
"Total area", "Land area" and "Water" over their units. The group's names stood over one unit each
("Total area sq mi", "Water km²"), or were read as a heading over the table; "District of" / "Columbia"
made two rows, and "territory", the last label's second line, was left under the table. And a table of two
rows, a header over one row of figures (a steel's composition), was read as lines of text. In a sheet's print
the headings, set left in their cells, stand in the gaps between the figures, set right: "Rank sq mi km²"
was one cell over "5 301,368.57 780,541". A typewriter's label, its leader's two dots and the amount after them
were one cell; a note running on across a gutter was two."""

from __future__ import annotations

import pytest

from readers import Services, read_file
from testkit import make_settings
from testkit.validation import TUNING

PRINTED = TUNING / "printed"
GROUPS = "|  | Total area |  |  | Land area |  |  |  | Water |  |  |"


@pytest.fixture(scope="module")
def services(tmp_path_factory) -> Services:
    return Services(make_settings(tmp_path_factory.mktemp("groups")))


def text(name: str, number: int, services: Services) -> str:
    return read_file(PRINTED / name, number, number, services=services).pages[0].text


def test_group_names_under_a_header_rule_stand_over_their_first_column_each(services):
    found = text("061-chromium-wikipedia_states.pdf", 1, services)
    assert f"{GROUPS}\n|---|---|---|---|---|---|---|---|---|---|---|\n| State/territory | Rank | sq mi | km² |" in found
    assert "| District of Columbia |  | 68.34 | 177 |  | 61.05 | 158 | 89.33% | 7.29 | 19 | 10.67% |" in found
    assert "| Northern Mariana Islands |  | 1,975.57 |" in found
    assert "| All U.S. territory | Total | 3,805,943.26 | 9,857,348 |" in found, "the last label's second line"
    assert "\nterritory" not in found


@pytest.mark.parametrize("name", ["062-chromium-wikipedia_states.pdf", "063-word-wikipedia_states.pdf"])
def test_group_names_over_a_table_are_its_header_not_a_heading(name, services):
    found = text(name, 1, services)
    assert "Total area Land area Water" not in found
    assert "|  | Total area |  |  | Land area |  |  |  | Water |" in found


def test_labels_wrapped_over_three_lines_in_a_table_without_rules_are_one_label(services):
    found = text("062-chromium-wikipedia_states.pdf", 1, services)
    assert "| East North Central | 5a | 301,368.57 | 780,541 | 6 |" in found
    assert "| West South Central |" in found
    assert "| Central |" not in found


@pytest.mark.parametrize("name", ["044-word-example-steelJIS-datasheet.pdf", "045-word-example-steelJIS-datasheet.pdf"])
def test_a_header_over_one_row_of_figures_is_a_table(name, services):
    """Word's print without rules, and the monospaced one with leaders: "C  Si  Mn …" over "0.39 - 0.46 …"."""
    reading = read_file(PRINTED / name, services=services)
    found = reading.pages[0].text
    assert "| C | Si | Mn | P | S | Cr | Mo |\n|---|---|---|---|---|---|---|\n| 0.39 - 0.46" in found
    assert "| 0.2 - 0.35 | 0.65 - 1.1 | max 0.025 | max 0.025 | 0.75 - 1.2 | 0.15 - 0.25 |" in found
    assert not reading.pages[0].unsure_tables, "a range is one value, no figures run together"


def test_a_typewriter_s_label_and_its_short_leader_stand_apart_from_the_amount_after_it(services):
    """Netflix's revenues typed in a monospaced font, one row under its header: "Revenues .." then the amount a
    space after the leader's two dots, which no long leader on the page marked as one; the label, the dots and
    "$ 11,079,166" were one cell, and the header a column short."""
    table = read_file(PRINTED / "203-word-nflx-10-q-2025-07-18.pdf", 1, 1, services=services).pages[0].tables[0]
    assert table.startswith("|  | Three Months Ended |  | Change |  |  |\n")
    assert table.endswith("| Revenues | $ 11,079,166 | $ 9,559,310 | $ 1,519,856 | 16 | % |")


def test_a_note_running_on_across_a_column_s_edge_is_one_cell(services):
    """Netflix's revenues by region printed by Word: "(in thousands, except percentages)", one phrase set from the
    gutter after the labels over the amounts, was cut in two cells at the gutter between them; it is one cell, over
    the first column of figures."""
    table = read_file(PRINTED / "203-word-nflx-10-q-2025-07-18.pdf", 1, 1, services=services).pages[0].tables[1]
    assert "\n|  | (in thousands, except percentages) |  |  |  |  |\n" in table


def test_headings_set_left_in_a_sheet_s_cells_head_the_figures_set_right_after_them(services):
    """Each heading starts just after the figures of the column before it; "% land", over no figures, is a
    column of its own, empty, and so is "% water" past the last figures."""
    found = text("068-sheet-wikipedia_states.pdf", 1, services)
    header = "| Division | Rank | sq mi | km² | Rank | sq mi | km² | % land | Rank | sq mi | km² | % water |"
    assert f"{GROUPS}  |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n{header}" in found
    assert (
        "| East North Central | 5 | 301,368.57 | 780,541 | 6 | 242,902.44 | 629,114 |  | 2 | 58,466.13 | 151,427 |  |"
        in found
    )
