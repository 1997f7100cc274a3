"""Tables of prose: an annual report's exhibit index (Apple's Form 10-K for 2024, in the generated tuning set
``tests/corpus/table-tuning``, printed by Chromium and LibreOffice: ``bench.make_tuning``), whose descriptions
wrap over up to twelve lines in their cells, whose later rows fill only their number and description, and
whose numbers wrap with their descriptions ("10.19*," / "**")."""

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


def test_rows_of_a_number_and_a_description_only_stay_in_the_table(services):
    """Exhibits filed with the report fill no form, exhibit or date: their rows were a second table of two
    columns, each number and description wrapped onto a line of its own as a row ("**" / "effective as of …")."""
    rows = table("163-chromium-aapl-10-k-2024-11-01.pdf", 1, services)
    assert rows[2].startswith("| 10.15* | Form of Performance Award Agreement") and rows[2].endswith("| 3/4/22 |")
    restricted = "Form of Restricted Stock Unit Award Agreement under 2022 Employee Stock Plan effective as of"
    assert f"| 10.19*, ** | {restricted} September 29, 2024. |  |  |  |" in rows
    assert rows[-1] == "| 97.1*, ** | Rule 10D-1 Recovery Policy |  |  |  |"


@pytest.mark.parametrize(
    "name",
    [
        "168-word-aapl-10-k-2024-11-01.pdf",  # two rows of prose under a header: lines of text
        "164-chromium-aapl-10-k-2024-11-01.pdf",  # the second row, under a shaded first, was text
    ],
)
def test_two_rows_of_prose_are_a_table(name, services):
    rows = table(name, 1, services)
    assert any(row.startswith("| 101** | Inline XBRL Document Set for the consolidated financial") for row in rows)
    cover = "| 104** | Inline XBRL for the cover page of this Annual Report on Form 10-K, included in the Exhibit 101"
    assert rows[-1] == f"{cover} Inline XBRL Document Set. |  |  |  |"
