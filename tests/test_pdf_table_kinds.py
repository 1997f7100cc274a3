"""Tables of the kinds that were read wrong on documents no one here tuned for (issue 49), each on a real
public file of that kind: grouped column headings (the FBI's NICS checks), a typewriter table under
rules typed as hyphens (San Jose police), a wide table set in Courier in groups of five rows (a USGS
water-data report), a cost table with leaders (the Federal Register), a ruled table whose grid drew no
cell round some of its words (the OLMo 2 paper); every word of each page kept, and the tables the
reader is unsure of said."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from readers import Services, read_file
from readers.notices import Code
from readers.pdf.unsure import doubts, parted
from testkit import CORPUS, make_settings
from testkit.validation import TUNING
from testkit.word_diff import compare, readlens_words, witness_words

NICS = CORPUS / "pdfplumber/nics-background-checks-2015-11.pdf"
SAN_JOSE = CORPUS / "pdfplumber/san-jose-pd-firearm-sample.pdf"
USGS = CORPUS / "pdfbox/PDFBOX-4417-054080.pdf"
REGISTER = CORPUS / "pdfplumber/federal-register-2020-17221.pdf"
OLMO = CORPUS / "olmocr/olmo2-pg4.pdf"


@pytest.fixture(scope="module")
def services(tmp_path_factory) -> Services:
    return Services(make_settings(tmp_path_factory.mktemp("kinds")))


def page(path, number: int, services: Services):
    return read_file(path, number, number, services=services).pages[0]


def test_grouped_headings_keep_a_column_each_and_the_first_and_last_columns(services):
    """Pre-Pawn, Redemption, … each stand over Handgun, Long Gun and *Other in one ruled cell: each heading
    gets its own column, the group's name over its first; the states and the totals are there."""
    table = page(NICS, 1, services).tables[0]
    header = (
        "| State / Territory | Permit | Handgun | Long Gun | *Other | **Multiple | Admin | Pre-Pawn Handgun |"
        " Long Gun | *Other | Redemption Handgun | Long Gun | *Other |"
    )
    assert header in table
    assert "| Alabama | 18,870 | 23,022 | 22,650 | 859 | 1,178 | 0 | 14 | 15 | 0 | 2,179 | 2,307 | 11 |" in table
    assert table.split("\n")[3].endswith("| 3 | 2 | 0 | 71,137 |"), "the row's total, last"


def test_a_typewriter_table_under_rules_typed_as_hyphens_is_a_table_without_them(services):
    text = page(SAN_JOSE, 1, services).text
    assert "| TYPE | ITEM | MAKE | MODEL | CALIBRE | STATUS | FLAGS |\n|---|---|---|---|---|---|---|" in text
    assert "| SERIAL NUMBER | REPORT/TAG NUMBER | CASE/FILE NUMBER | STORAGE LOCATION |" in text
    assert "| PISTOL | REVOLVER | UNKWN/UNPUBLSHD MAKE | UNKNOWN | 38 | FOUND | _d__ |" in text
    assert "----" not in text, "the typed rules are the table's, no row of it"


def test_a_wide_typewriter_table_in_groups_of_rows_is_one_table(services):
    """Thirty-one days in groups of five, a blank line between, then the totals: one table of thirteen
    columns under its header, not seven tables each with a day for its header; its title stays text."""
    read = page(USGS, 1, services)
    daily = [table for table in read.tables if "| DAY |" in table]
    assert len(daily) == 1
    lines = daily[0].split("\n")
    assert lines[:2] == [
        "| DAY | OCT | NOV | DEC | JAN | FEB | MAR | APR | MAY | JUN | JUL | AUG | SEP |",
        "|---" * 13 + "|",
    ]
    assert "| 6 | e1340 | 3070 | 6100 | 7180 | 4040 | 3470 | 2460 | 2780 | 1800 | e1170 | 3480 | 6650 |" in lines
    assert "| 31 | 2630 | --- | 6930 | 1660 | --- | 3220 | --- | 1590 | --- | 6210 | 5680 | --- |" in lines
    assert (
        "| TOTAL | 100032 | 145160 | 198080 | 149840 | 167510 | 117600 | 82280 | 75600 | 94240 | 115750 |" in daily[0]
    )
    assert "DAILY MEAN VALUES\n\n| DAY |" in read.text


def test_leaders_are_a_table_s_rules_and_its_header_ruled_apart_stays_over_it(services):
    """The Federal Register's cost table: its header ruled above and below, its body not, every cell
    ended by a leader's dots; the first row's description wraps under itself."""
    text = page(REGISTER, 5, services).text
    assert "| Action | Labor cost | Parts cost | Cost per product | Cost on U.S. operators |\n|---|" in text
    assert "| AFM revisions | 1 work-hour × $85 per hour = $85 | $0 | $85 | $6,205. |" in text
    assert "| MDS installation and verification, INOP marker removal. |" in text
    continued = page(REGISTER, 6, services).tables[0]
    assert (
        "| Stabilizer wiring change | Up to 79 work-hours × $85 per hour = Up to $6,715. | Up to $3,790 |" in continued
    )
    assert "...." not in text + continued


def test_a_ruled_table_holds_the_words_its_grid_drew_no_cell_round(services):
    """Lines indented under a source's name fell between pdfplumber's cells: they were lost."""
    table = page(OLMO, 1, services).tables[0]
    assert "| StarCoder filtered version from OLMoE Mix | Code | 83.0B |" in table
    assert "| peS2o from Dolma 1.7 | Academic papers | 58.6B |" in table


def test_shaded_cells_rule_no_row_apart(services):
    """An EU survey's tables shade their two-row headers: the shading drew a rule under the first row,
    so "At least every" and "week" stood in two rows and "Psychosomatic Symptoms" over both."""
    text = page(CORPUS / "icdar2013-eu/eu-025.pdf", 2, services).text
    assert "| Psychosomatic Symptoms | How often do you have these symptoms |  |  |" in text
    assert "|  | At least every week | About every month | Rarely/Never |" in text


def test_a_word_the_grid_cuts_stays_whole_in_the_cell_it_starts_in(services):
    """LibreOffice's slide table: "With footnote" runs on across its cells' rules; it was read as "W",
    "ith footno" and "t●e", three cells."""
    text = page(CORPUS / "docling/odf_presentation_01.odp.pdf", 1, services).text
    assert "With | footnote |" in text and "ith footno" not in text


@pytest.mark.skipif(not shutil.which("pdftotext"), reason="poppler's pdftotext is not installed")
@pytest.mark.parametrize("path, number", [(NICS, 1), (SAN_JOSE, 1), (USGS, 1), (USGS, 2), (REGISTER, 5), (REGISTER, 6)])
def test_every_word_of_a_table_s_page_is_read(services, path, number):
    """Against pdftotext's words (``make bench words`` does it for the whole corpus): none lost. (The OLMo
    page's one difference is pdftotext's: a footnote's mark it sets apart on a line of its own.)"""
    witness = subprocess.run(
        ["pdftotext", "-f", str(number), "-l", str(number), "-enc", "UTF-8", str(path), "-"],
        capture_output=True,
        check=True,
    ).stdout.decode()
    read = page(path, number, services)
    lost = compare(witness_words(witness), readlens_words(read.text, read.furniture)).examples.get("lost", [])
    assert lost == [] or path == SAN_JOSE and lost == ["-------------------SERIAL"], lost  # pdftotext's, run on


def test_a_table_the_reader_is_unsure_of_is_said_with_its_page(services):
    """The USGS summary's value and date columns run together where a date stands close ("29.67 Sep
    11"): that table is flagged; the daily table, read right, is not."""
    reading = read_file(USGS, services=services)
    assert [found.unsure_tables for found in reading.pages] == [[], [0]]
    unsure = [notice for notice in reading.notices if notice.code == Code.TABLE_UNSURE]
    assert len(unsure) == 1 and unsure[0].text.startswith("Page 2 of PDFBOX-4417-054080.pdf: table 1 may be read")
    assert not read_file(NICS, services=services).pages[0].unsure_tables


def test_why_a_table_may_be_wrong_is_read_from_its_cells():
    right = "| Country | 1996 | 1993 |\n|---|---|---|\n| Austria | 59 | 54 |\n| Italy | n.a. | 11 |\n| UK | 56 | 50 |"
    assert doubts(right) == []
    # two columns read as one: "800 880" alone could be 800,880 grouped by a space ("33 003"), its heading not
    merged = "| Response | 1.0 1.1 |\n|---|---|\n| 0.99 | 800 880 |\n| 0.95 | 760 836 |\n| 0.90 | 720 792 |"
    assert doubts(merged) == ["figures run together in a cell"]
    mixed = "| Greece | Spain |\n|---|---|\n| 1000 | |\n| Ireland | Italy |\n| 800 | |\n| Portugal | UK |"
    assert "a column mixes words and figures" in doubts(mixed)
    assert doubts(right, beside=True) == ["words placed beside it"]
    ranges = "| C | Si | Mn | P |\n|---|---|---|---|\n| 0.39 - 0.46 .. | 0.2 - 0.35 | 12–15 | max 0.025 |"
    assert doubts(ranges) == [], "a range is one value"
    # a sheet's columns of amounts set edge to edge, read as one: two amounts with their signs, or in brackets
    signed = "| Item | 2025 |\n|---|---|\n| Hedges | $ 160,544 $ (1,709,112) |\n| Debt | 12 |\n| Total | 14 |"
    assert doubts(signed) == ["figures run together in a cell"]
    assert doubts(signed.replace("$ 160,544 $ (1,709,112)", "(3,400) (138,000)")) == ["figures run together in a cell"]
    shares = "| Group | n (%) |\n|---|---|\n| Men | 63 (18.5%) |\n| Women | 50.8 (15.9) |\n| All | $ 8,550 |"
    assert doubts(shares) == [], "a value and its share, or its deviation, is one value"


def test_two_tables_of_as_many_columns_with_a_few_lines_between_may_be_one(services):
    """A sheet's list of films whose rows were parted at a row taller than the others: two tables one under the
    other, nothing between them; a caption or a heading between two tables parts them."""
    reading = read_file(TUNING / "printed/241-sheet-wikipedia-4.pdf", services=services)
    assert reading.pages[0].unsure_tables == [0, 1]
    assert all("read in pieces" in str(notice) for notice in reading.notices if notice.code == Code.TABLE_UNSURE)
    table = "| A | B |\n|---|---|\n| 1 | 2 |"
    assert parted(f"{table}\n\nrow 3 as text\n\n{table}", [table, table]) == {0, 1}
    assert parted(f"{table}\n\nTable 2. Costs\n\n{table}", [table, table]) == set()
    assert (
        parted(f"{table}\n\n{table.replace('| B ', '| B | C ')}", [table, table.replace("| B ", "| B | C ")]) == set()
    )
