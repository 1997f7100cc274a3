"""Tables ruled in pieces, read as one table (``readers.pdf.headed``), on prints of the generated tuning set
(``tests/corpus/table-tuning``: real sources printed by Chromium and LibreOffice, ``bench.make_tuning``):
a header ruled or shaded alone over rows left unruled; two rows shaded in turn, too few for zebra
stripes, each stripe's edges a grid of its own; the row under the last stripe and the header over the
first, ruled by none; a grouped header's names over the columns they span; a column set in two halves,
one under one heading; and, on the ICDAR 2013 EU half, a source line under a figure's grid, which stays text."""

from __future__ import annotations

import pytest

from readers import Services, read_file
from testkit import CORPUS, make_settings
from testkit.validation import TUNING

PRINTED = TUNING / "printed"


@pytest.fixture(scope="module")
def services(tmp_path_factory) -> Services:
    return Services(make_settings(tmp_path_factory.mktemp("pieces")))


def tables(name: str, number: int, services: Services) -> list[str]:
    return read_file(PRINTED / name, number, number, services=services).pages[0].tables


def test_a_grouped_header_ruled_alone_heads_the_rows_under_it(services):
    """A web page's table printed with its two header rows shaded and its rows in stripes of their own: the
    header was one table, the body found by alignment another."""
    [table] = tables("059-chromium-wikipedia_states.pdf", 1, services)
    lines = table.splitlines()
    assert lines[0] == "|  | Total area |  |  | Land area |  |  |  | Water |  |  |"
    names = "| State/territory | Rank | sq mi | km² | Rank | sq mi | km² | % land | sq mi | km² | % water |"
    assert lines[2] == names
    assert lines[3].startswith("| Alaska | 1 | 665,384.04 | 1,723,337 |")


def test_a_lone_header_row_s_wrapped_headings_are_one_row(services):
    """A ten-column header shaded as one row over zebra rows: "ISO-alpha" over "2 Code" held a figure, so its
    lines were read as two records, and the header was a table of its own."""
    [table] = tables("011-word-UNSD-en.pdf", 1, services)
    header, _, first = table.splitlines()[:3]
    assert "| M49 Code | ISO-alpha 2 Code | ISO-alpha3 Code |" in header
    assert first == "| 002 | Africa | 015 | Northern Africa |  |  | Algeria | 012 | DZ | DZA |  |  |  |"


@pytest.mark.parametrize(
    "name, number, first, last",
    [
        # a header shaded over two stripes: a heading, two tables of two rows and a line of text
        ("129-word-pa20010031492.pdf", 1, "|  | SENSITIVITY-EC50 VALUES |  |", "| Stationary phase | 0.426 ppm"),
        # four regions in two stripes under a two-row header: three tables
        ("062-chromium-wikipedia_states.pdf", 1, "| Region | Rank | sq mi |", "| West | 1 | 1,873,251.63 |"),
        # a header shaded alone, four rows in two stripes and a last row: the header a heading, the last row text
        ("037-chromium-three_tables.pdf", 1, "| Chapter | Title | Page |", "| 5 | Conclusion | 40 |"),
        # a header unshaded over two stripes: a heading over the rows
        ("102-word-aapl-20250329.pdf", 1, "|  | March 29,2025 | September 28,2024 |", "| Total inventories |"),
    ],
)
def test_two_rows_shaded_in_turn_are_one_table_with_the_rows_round_them(name, number, first, last, services):
    lines = next(table for table in tables(name, number, services) if last in table).splitlines()
    assert any(line.startswith(first) for line in lines[:3]) and lines[-1].startswith(last)


def test_a_grouped_header_s_names_stand_over_their_columns(services):
    """Periods grouped over dates, each group's name a shaded cell over two columns: the names were a grid
    of three columns over one of five, and read as a heading."""
    table = next(table for table in tables("107-word-aapl-20250329.pdf", 1, services) if "Total gross margin" in table)
    assert table.splitlines()[:3] == [
        "|  | Three Months Ended |  | Six Months Ended |  |",
        "|---|---|---|---|---|",
        "|  | March 29,2025 | March 30,2024 | March 29,2025 | March 30,2024 |",
    ]


def test_the_row_under_the_last_stripe_of_a_table_from_the_right_wraps_and_reads_from_the_right(services):
    """An Arabic table's last row, under its last stripe, with its region's name wrapped onto a second line."""
    [table] = tables("056-chromium-UNSD-ar.pdf", 3, services)
    haiti = "| هايتي | الأمريكتان | أمريكا اللاتينية ومنطقة البحر الكاريبي | 332 | HTI |"
    assert table.splitlines()[-1] == haiti


def test_a_source_line_under_a_grid_stays_text(services):
    """A figure drawn as a grid of boxes, its source under it filling one of its two columns: no row."""
    found = read_file(CORPUS / "icdar2013-eu/eu-014.pdf", services=services)
    text = "\n\n".join(page.text for page in found.pages)
    assert "\n\nSource: Finnish National Board of Education, 2006 (12).\n" in text
    assert not any("Source: Finnish" in table for page in found.pages for table in page.tables)


def test_a_column_set_in_two_halves_is_one_column(services):
    """An article's table whose seroprevalences with a footnote mark are set left in their cells and those
    without set right: no row fills both halves, and the column was read as two."""
    lines = next(table for table in tables("146-chromium-pntd.pdf", 1, services) if "Mopeia" in table).splitlines()
    assert lines[2] == "|  | n | Seroprevalence (%) | 95% C.I. | n | Seroprevalence (%) | 95% C.I. |"
    assert "| Mopeia district | 383 | 13.1 | [10.0,16.8] | 290 | 22.8 | [18.3,27.9] |" in lines
    assert "| Bras | 29 | 6.9ab | [1.7,23.9] | – | – | – |" in lines
