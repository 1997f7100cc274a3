"""Tables of prose: an annual report's exhibit index (Apple's Form 10-K for 2024, in the generated tuning set
``tests/corpus/table-tuning``, printed by Chromium and LibreOffice: ``bench.make_tuning``), whose descriptions
wrap over up to twelve lines in their cells, and whose last row under a shaded one fills only its number and
description; and a cell of prose spanning the columns after it."""

from __future__ import annotations

import pytest

from readers import Services, read_file
from testkit import make_settings
from testkit.validation import TUNING

PRINTED = TUNING / "printed"


@pytest.fixture(scope="module")
def services(tmp_path_factory) -> Services:
    return Services(make_settings(tmp_path_factory.mktemp("prose")))


def table(name: str, number: int, services: Services) -> list[str]:
    [found] = read_file(PRINTED / name, number, number, services=services).pages[0].tables
    return found.splitlines()


def test_a_description_wrapped_over_twelve_lines_is_one_cell(services):
    """Word sets the description column narrow: a row's description takes twelve lines, and all but its first
    three were text under a table of one row."""
    rows = table("167-word-aapl-10-k-2024-11-01.pdf", 1, services)
    row = next(row for row in rows if row.startswith("| 4.10 | Officer’s Certificate of the Registrant"))
    assert row.endswith("4.500% Notes due 2036 and 4.650% Notes due 2046. | 8-K | 4.1 | 2/23/16 |")
    assert rows[-1].startswith("| 4.13 |") and rows[-1].endswith("| 8-K | 4.1 | 2/9/17 |")


def test_a_row_of_prose_under_a_shaded_one_is_the_table_s(services):
    """The index's last two rows under its header, the first shaded, the second under it filling only its
    number and description (two of five columns): the second was text."""
    rows = table("164-chromium-aapl-10-k-2024-11-01.pdf", 1, services)
    assert any(row.startswith("| 101** | Inline XBRL Document Set for the consolidated financial") for row in rows)
    cover = "| 104** | Inline XBRL for the cover page of this Annual Report on Form 10-K, included in the Exhibit 101"
    assert rows[-1] == f"{cover} Inline XBRL Document Set. |  |  |  |"


def test_a_number_and_its_description_wrapped_together_are_one_row(services):
    """ "10.21*," over "**" beside a description over two lines, closer than the rows stand: the second line was a
    row of its own ("| ** | effective as of September 29, 2024. |")."""
    tables = read_file(PRINTED / "163-chromium-aapl-10-k-2024-11-01.pdf", 1, 1, services=services).pages[0].tables
    rows = [row for found in tables for row in found.splitlines()]
    plan = "Award Agreement under 2022 Employee Stock Plan effective as of September 29, 2024. |  |  |  |"
    assert f"| 10.20*, ** | Form of Performance {plan}" in rows, "a sentence's end: 'September 29, 2024.'"
    assert f"| 10.21*, ** | Form of CEO Restricted Stock Unit {plan}" in rows
    assert f"| 10.22*, ** | Form of CEO Performance {plan}" in rows


def test_a_description_at_the_foot_of_a_page_stays_in_its_row(services):
    """Wikipedia's list of films featuring time loops, printed by LibreOffice over zebra stripes: the last film's
    description, in the last stripe at the page's foot, was read as a side box (a shaded box of text) and the rest
    of its lines as text under the table; its row was left empty."""
    found = read_file(PRINTED / "237-word-wikipedia-4.pdf", 4, 4, services=services).pages[0]
    last = found.tables[-1].splitlines()[-1]
    assert last == (
        "| El Ascensor | 2014 | On their fifth wedding anniversary, Sitio and Ana start arguing inside an elevator"
        " that keeps opening in their same floor. Emotionally and physically trapped, the two will have to work"
        " together to find a way out. |"
    )


def test_a_year_set_against_its_description_in_a_sheet_s_print_is_a_column(services):
    """A sheet's print sets the year right in its cell, a space from the description set left in the next: the
    description's next lines hold no year, so the column's edge under "Description" was found on too few rows.
    The rows after a row standing six lines under the one before are a table of their own (they were text)."""
    first, rest = read_file(PRINTED / "241-sheet-wikipedia-4.pdf", 1, 1, services=services).pages[0].tables
    assert rest.startswith("| Volition | 2019 | A man afflicted with clairvoyance tries to change his fate")
    rows = first.splitlines()
    assert rows[0] == "| Film | Year | Description |"
    assert rows[2] == "| The Endless | 2017 | Two brothers return to a cult that is stuck in a time loop. |"
    assert rows[8].startswith("| Game Over | 2019 | Swapna, a wheelchair user, is defending her home from a")


def test_a_cell_of_prose_spanning_columns_keeps_the_column_after_it(services):
    """unstructured's table of merged cells: a row's long text, set on its column's left edge, runs on over the
    last column. It crossed the gutter before "Cell 3", "Cell 8" and "Cell 12", and the two columns were one
    ("Cell 2 Cell 3")."""
    found = read_file(PRINTED / "037-chromium-three_tables.pdf", 1, 1, services=services).pages[0].tables
    rows = next(table for table in found if "Merged" in table).splitlines()
    assert rows[0] == "| Merged | Cell 2 | Cell 3 |"
    assert rows[4].startswith("| Cell 9 | A cell with a lot of text. Lorem ipsum dolor sit amet,")
    assert rows[-1] == "| Cell 10 | Cell 11 | Cell 12 |"


def test_a_description_run_on_into_the_next_column_is_no_spanning_cell(services):
    """EDGAR's exhibit list printed as a sheet: a long description ends a cell's padding short of the forms'
    column, its words and the next cell's one run. It holds a word where the forms' column starts in the other
    rows: two cells, not one spanning both."""
    found = read_file(PRINTED / "221-sheet-exhibits.pdf", 1, 1, services=services).pages[0].tables
    assert (
        "| 22 | Published Report Regarding Matters Submitted to Vote of Security Holders | As applicable to the"
        in (found[0])
    )
