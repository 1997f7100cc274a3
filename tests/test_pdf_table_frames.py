"""Tables ruled only across (``readers.pdf.framed``), from the generated tuning set (``bench.make_tuning``).

Word's and Chromium's "header rule" prints rule a table over its header, under it and under its last row, as a
booktabs table is, and draw no rule between its columns: pdfplumber finds no grid in it. Apple's exhibit list,
two rows of long descriptions under a header of five headings, was read as lines of text; Netflix's
reclassifications, whose labels wrap over four lines beside no figures before two rows of figures, lost those
rows to text. The three rules frame each: every line between the first two is the header, every line between
the last two a row's. A table ruled under each row, or two framed tables one under the other with their
captions between, keep their rows as they were."""

from __future__ import annotations

import math

import pytest

from readers import Services, read_file
from readers.pdf.aligned import aligned_tables
from testkit import make_settings
from testkit.validation import TUNING

PRINTED = TUNING / "printed"


@pytest.fixture(scope="module")
def services(tmp_path_factory) -> Services:
    return Services(make_settings(tmp_path_factory.mktemp("frames")))


def tables(name: str, services: Services, number: int = 1) -> list[str]:
    return read_file(PRINTED / name, number, number, services=services).pages[0].tables


def test_a_framed_header_heads_rows_of_long_descriptions(services):
    (table,) = tables("168-word-aapl-10-k-2024-11-01.pdf", services)
    assert table.startswith(
        "|  |  | Incorporated by Reference |  |  |\n"
        "|---|---|---|---|---|\n"
        "| Exhibit Number | Exhibit Description | Form | Exhibit | Filing Date/Period End Date |\n"
        "| 101** | Inline XBRL Document Set for the consolidated financial statements and accompanying notes"
    )
    assert (
        "| 104** | Inline XBRL for the cover page of this Annual Report on Form 10-K, included in the Exhibit" in table
    )


def test_labels_wrapped_beside_no_figures_stay_rows_of_the_frame(services):
    first, second = tables("179-chromium-nflx-10-q-2025-07-18.pdf", services, 2)
    rows = first.splitlines()
    gains = next(n for n, row in enumerate(rows) if row.startswith("| Gains (losses) on derivatives in cash flow"))
    assert rows[gains + 1].startswith("| Foreign exchange contracts |")
    assert rows[gains + 2].startswith("| Amount of gains (losses) reclassified from AOCI | $ 33,301")
    assert rows[gains + 2].endswith("| $ (7,652) | $ 25,722 |") and rows[gains + 3].startswith("| Total | $ 33,301")
    assert "June 30, 2024" in first  # a heading over the columns, in the header
    assert second.startswith("|  | Three Months Ended |  |  |  | Six Months Ended |")  # the next table, unframed


def test_a_table_ruled_under_each_row_has_no_frame(services):
    """Chromium's ruled print of UNSD's regions, a rule under each row and none between the columns."""
    (table,) = tables("005-chromium-UNSD-en.pdf", services)
    assert (
        "| 002a | Africa | 202 | Sub-Saharan Africa | 011 | Western Africa | Guinea-Bissau | 624 | GW | GNB |" in table
    )
    assert len(table.splitlines()) == 2 + 8 and table.endswith("| Senegal | 686 | SN | SEN | x |  |  |")


def test_one_heading_centred_over_the_columns_heads_them_all(services):
    """Netflix's offsetting of derivatives: "As of June 30, 2025" centred over the six columns of figures was read
    as a title over the table, out of it."""
    first, _ = tables("177-chromium-nflx-10-q-2025-07-18.pdf", services)
    assert first.startswith("|  | As of June 30, 2025 |  |  |  |  |  |\n|---|")
    assert "| Derivative assets | $ 347,022 | $ — | $ 347,022 | $ (340,280) | $ — | $ 6,742 |" in first


def test_a_framed_pair_of_rows_reads_the_lines_over_its_header_rule_as_text():
    """A frame whose rows are two (a header line's row over one row of figures, ``_pair``) with a line over its
    header rule that is no row (one phrase): the table was read from the two rows and the line was lost, in no
    cell and not in the text (17 words of one validation print, counted by ``make bench words``; the page was not
    opened). No public file in the corpus has the shape, so the page's words are set here."""

    def words(top: float, *cells: tuple[float, str]) -> list[dict]:
        return [
            {"text": text, "x0": x0, "x1": x0 + 5.5 * len(text), "top": top, "bottom": top + 10.0, "size": 10.0}
            for x0, text in cells
        ]

    title = words(100, (200, "Codes"), (230, "and"), (252, "rates"))
    rows = words(130, (60, "Algeria"), (200, "012"), (300, "2.38"), (400, "44.9"))
    rows += words(150, (60, "Egypt"), (200, "818"), (300, "1.00"), (400, "109.3"))
    frame = (55.0, 450.0, -math.inf, 95.0, 120.0, 165.0, math.inf)  # rules over, under the header, under the rows
    rest, _, tables, _ = aligned_tables(title + rows, 8.0, [frame], [])
    assert tables == ["| Algeria | 012 | 2.38 | 44.9 |\n|---|---|---|---|\n| Egypt | 818 | 1.00 | 109.3 |"]
    assert [item["text"] for item in rest] == ["Codes", "and", "rates"]
