"""Statements whose periods are grouped over their dates, from Netflix's quarterly filing as the generated tuning
set prints it (``bench.make_tuning``): "Three Months Ended" over two dates, "(in thousands, except percentages)"
under them over all the amounts, and often two rows of figures only (an amount, and its share of revenues).

Each was read in pieces or as text: the rows under a shaded header grid left as lines (only one edge row was
taken, and none whose cells held "$" apart from its amount); a header's lines crossing every gutter of the
rows under them, so that a table of six columns came out in two; a body of two rows too few for a table
alone, its header's lines read as a heading; an exhibit index cut in two where its rows leave the last columns
empty; and a cell boxed apart by its row's shading lost from the page."""

from __future__ import annotations

import pytest

from readers import Services, read_file
from readers.pdf.unsure import FIGURE
from testkit import make_settings
from testkit.validation import TUNING

PRINTED = TUNING / "printed"


@pytest.fixture(scope="module")
def services(tmp_path_factory) -> Services:
    return Services(make_settings(tmp_path_factory.mktemp("periods")))


def page(name: str, services: Services, number: int = 1):
    return read_file(PRINTED / name, number, number, services=services).pages[0]


def test_the_rows_under_a_shaded_header_are_its_rows_after_a_note_over_them(services):
    """Two rows under a shaded header and "(in thousands)": they were lines of text under the table."""
    (table,) = page("180-chromium-nflx-10-q-2025-07-18.pdf", services).tables
    assert "|  | June 30,2025 | December 31,2024 |\n|  | (in thousands) |  |\n" in table
    assert table.endswith("| United States | $ 2,853,087 | $ 2,769,828 |\n| International | 1,065,822 | 926,238 |")


def test_a_shaded_header_spans_the_cells_its_shaded_row_draws(services):
    """The shaded header's cells span the shaded row's under it: its four columns held "$ 151,168 3 %" in one cell,
    the change and its percentage one figure."""
    (table,) = page("184-chromium-nflx-10-q-2025-07-18.pdf", services).tables
    assert table.startswith("|  | Three Months Ended |  |  |  | Change |  |  |\n")
    assert "|  | June 30,2025 |  | June 30,2024 |  | Q2'25 vs. Q2'24 |  |  |\n" in table
    assert "|  | (in thousands, except percentages) |  |  |  |  |  |  |" in table
    assert "| Cost of revenues | $ | 5,325,311 | $ | 5,174,143 | $ 151,168 | 3 | % |" in table
    assert "| As a percentage of revenues | 48 | % | 54 | % |  |  |  |" in table


def test_a_section_s_label_alone_under_a_shaded_header_is_a_row_of_it(services):
    """The labels of sections ("Gains (losses) on derivatives in cash flow hedging relationship", wrapped over two
    lines, then "Foreign exchange contracts") ended the rows taken under the header: the rows after them were a
    table of twelve columns without it."""
    (table,) = page("178-chromium-nflx-10-q-2025-07-18.pdf", services).tables
    assert "| Gains (losses) on derivatives in cash flow hedging relationship |  |  |  |  |  |  |\n" in table
    assert "| Amount of gains (losses) reclassified from AOCI | 127,411 | (1,995) | — | 22,060 | 267 | — |\n" in table
    assert table.endswith("| Foreign exchange contracts | — | — | (70,971) | — | — | 14,063* |")
    assert len(table.splitlines()) == 5 + 11  # three rows of headings, the note and the separator; eleven rows


def test_a_row_whose_cells_are_shaded_one_by_one_is_no_drawing(services):
    """Word shades a row cell by cell: six rectangles side by side were a drawing, the words on them and around
    them its labels, and the table under the header lost its rows down to the next shaded one."""
    table = page("200-word-nflx-10-q-2025-07-18.pdf", services, 2).tables[0]
    assert (
        "|  | (in thousands) |  |  |  |  |\n| Gains (losses) on derivatives in cash flow hedging relationship |"
        in table
    )
    assert table.endswith("| Total | $ 33,301 | $ 73 | $ — | $ (7,652) | $ 25,722 |")


def test_a_header_s_lines_over_every_gutter_leave_the_columns_to_the_rows_under_them(services):
    """The note "(in thousands, except percentages)" and the dates crossed every gutter: six columns were two, the
    amounts of a row in one cell."""
    found = page("182-chromium-nflx-10-q-2025-07-18.pdf", services)
    assert len(found.tables) == 2
    assert "| United States and Canada (UCAN) | $ 4,929,003a | $ 4,295,560 | $ 633,443 | 15 | % |" in found.tables[1]
    assert "| Total Revenues | $ 11,079,166 | $ 9,559,310 | $ 1,519,856 | 16 | % |" in found.tables[1]


@pytest.mark.parametrize(
    "name, row",
    [
        ("186-chromium-nflx-10-q-2025-07-18.pdf", "| Technology and development | $ | 824,683 | $ | 711,254 |"),
        ("204-word-nflx-10-q-2025-07-18.pdf", "| Cost of revenues | $ | 5,325,311 | $ | 5,174,143 | $ 151,168 |"),
    ],
)
def test_two_rows_of_figures_under_a_header_of_grouped_periods_are_a_table(name, row, services):
    """Typed with dot leaders, or without rules: two rows are too few for a table alone, and their header's
    lines crossed their gutters; the whole was read as lines of text."""
    tables = page(name, services).tables
    assert len(tables) == 2
    assert all(table.startswith("|  | Three Months Ended |  |  |  | Change |") for table in tables)
    assert row in tables[0]
    assert "| As a percentage of revenues" in tables[1]


def test_rows_that_leave_the_last_columns_empty_go_on_with_the_table(services):
    """An exhibit index whose later exhibits have no filing to refer to was read as two tables."""
    (table,) = page("163-chromium-aapl-10-k-2024-11-01.pdf", services).tables
    assert "| 10.16* | Apple Inc. Executive Cash Incentive Plan. | 8-K | 10.1 | 8/19/22 |" in table
    assert "| 19.1** | Insider Trading Policy |  |  |  |" in table
    assert table.endswith("| 97.1*, ** | Rule 10D-1 Recovery Policy |  |  |  |")


def test_a_cell_boxed_apart_by_its_row_s_shading_is_never_lost(services):
    """A long label in a shaded row was read as a box of its own; the table built over it kept none of it. A zebra's
    stripes are no side boxes: the label is its row's."""
    text = page("178-chromium-nflx-10-q-2025-07-18.pdf", services).text
    label = "Amount excluded from assessment of effectiveness and recognized in earnings based on amortization approach"
    assert f"| {label} | — | — | (29,371) | — | — | — |" in text


@pytest.mark.parametrize("cell", ["(12) %", "12 %", "(12%)", "$ 8,393,688", "(1,192,655)"])
def test_a_share_with_its_percent_sign_set_apart_is_a_figure(cell):
    assert FIGURE.fullmatch(cell)
