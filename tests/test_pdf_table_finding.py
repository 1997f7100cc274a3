"""Tables in real PDFs found and built cell by cell (issue 40): each failure class on the real file
that showed it, most of them from the ICDAR 2013 competition's EU half (``tests/corpus/icdar2013-eu``,
whose ``-str.xml`` ground truth ``make bench icdar`` scores every cell of), and the measure itself.

The competition's US half is held out: nothing here reads it."""

from __future__ import annotations

from collections import Counter

import pytest

from readers import Services, read_file
from testkit import CORPUS, make_settings
from testkit.icdar_metric import markdown_tables, normalised, relations, row_grid, score, truth_tables

ICDAR = CORPUS / "icdar2013-eu"


@pytest.fixture(scope="module")
def services(tmp_path_factory) -> Services:
    return Services(make_settings(tmp_path_factory.mktemp("tables"), vision_provider="none"))


def page_text(name: str, number: int, services: Services) -> str:
    return read_file(ICDAR / f"{name}.pdf", number, number, services=services).pages[0].text


def f1(name: str, services: Services) -> float:
    """The document's F1 by the competition's measure, as ``make bench icdar`` scores it."""
    text = read_file(ICDAR / f"{name}.pdf", services=services, multimodal=False).as_text()
    found = relations([row_grid(table) for table in markdown_tables(text, charts=False)])
    return score(found, relations(truth_tables(ICDAR / f"{name}-str.xml"))).f1


def test_the_measure_relates_each_cell_to_its_next_neighbours_right_and_below():
    grid = row_grid([["Region", "Sales", "", "Staff"], ["", "2023", "2022", ""], ["North", "410", "-", "12"]])
    assert relations([grid]) == Counter(
        {
            ("region", "sales", "right"): 1,
            ("sales", "staff", "right"): 1,
            ("2023", "2022", "right"): 1,
            ("north", "410", "right"): 1,
            ("410", "12", "right"): 1,
            ("region", "north", "below"): 1,
            ("sales", "2023", "below"): 1,
            ("2023", "410", "below"): 1,
            ("staff", "12", "below"): 1,
        }
    ), "empty cells ('-' has no letter or digit) are stepped over; a spanning cell counts at its start"
    assert normalised("**Ammonia (NH3)**<br>kg/year") == "ammonianh3kgyear"
    truth = relations(truth_tables(ICDAR / "eu-008-str.xml"))
    assert score(truth, truth).f1 == 1.0 and sum(truth.values()) == 97


def test_an_unruled_table_with_rows_far_apart_is_a_table_with_its_header_in_it(services):
    """Salmonella cases by country: rows a line apart, a bold header row, no rules. They were lines of
    text, the header a ``###`` heading."""
    text = page_text("eu-016", 3, services)
    assert "| Country | domestic (%) | Imported (%) | Unknown (%) | Total (n) |\n|---|---|---|---|---|" in text
    assert "| Austria | 86.2 | 13.8 | 0 | 3,375 |" in text and "| EU Total | 65.1 | 7.9 | 27.0 | 151,292 |" in text
    assert "### Country" not in text


def test_a_survey_table_under_its_caption_keeps_every_column_and_its_wrapped_header(services):
    text = page_text("eu-026", 4, services)
    assert "| I/we kept the assets | 344 | 75.2 | 12196 | 17.4% |" in text
    assert "Fraction of\nWealth Lost" in text or "Fraction of Wealth Lost" in text, "a header of two lines, one cell"
    after = page_text("eu-026", 5, services)
    assert "| no. of correct answers | Freq. | Percent | Cum. |" in after, "each column its own cell"


def test_a_table_ruled_only_round_its_columns_has_a_row_per_country(services):
    text = page_text("eu-008", 1, services)
    assert "| Bulgaria | 2.3 | 3.2 | 5.5 |" in text
    assert "| Technical Assistance |  | 0.87 |  |" in text, "a record may leave a cell empty"


def test_rows_ruled_only_above_and_below_are_parted_under_the_ruled_header(services):
    """Thirteen columns: the body's values all landed in each row's first cell."""
    text = page_text("eu-018", 1, services)
    assert "| Austria | Single | 25g | 109 | 0.9 | 93 | 1.1 | 89 | 1.1 | - | - | - | - |" in text
    assert "| Country | Sample unit | Sample size | 2007 |  | 2006 |" in text, "a year over its two columns, once"


def test_a_span_is_written_once_and_the_columns_it_joins_are_one(services):
    """The amounts span three ruled strips under "Signed TA (EURm)": they were written three times."""
    text = page_text("eu-010", 1, services)
    assert "| Algeria | 6.19 |" in text and "6.19 | 6.19" not in text


def test_labels_left_of_a_tables_first_vertical_rule_are_its_first_column(services):
    text = page_text("eu-013", 3, services)
    assert "| General upper secondary education | 15 455 | 13 951 | 12 068 |" in text


def test_a_forms_grid_of_number_boxes_loses_none_of_its_words(services):
    """A form's rules closed at their ends made one grid of the whole of f1040nr's Schedule A whose
    cells held 11% of its words; the others were lost. Now such a grid is no table, and every line is read."""
    text = read_file(CORPUS / "pdfminer/f1040nr.pdf", 3, 3, services=services).pages[0].text
    for words in ("Total Gifts", "Gifts by cash or check", "Casualty or theft loss(es)", "Tax preparation fees"):
        assert words in text


def test_a_forms_lines_at_one_pitch_stay_rows_of_their_own(services):
    """Schedule A's lines stand at one pitch, each filling as many cells as the line above: read as a
    cell's wrapped lines, "Taxes 3", "Total Gifts", "to U.S." and "Charities 4" made one cell, and so did
    lines 12 and 13."""
    text = read_file(CORPUS / "pdfminer/f1040nr.pdf", 3, 3, services=services).pages[0].text
    assert "| Taxes 3 | Add lines 1 and 2 | 3 |\n| Total Gifts | Caution: If you made a gift" in text
    assert "|  | 12 | Add lines 9 through 11 12 |  |" in text
    assert "|  | 13 | Enter the amount from Form 1040NR, line 36 13 |  |" in text


def test_a_table_drawn_with_shaded_rows_is_read(services):
    """Its shaded header and total are filled rectangles among its rules: a drawing, once left as lines."""
    text = page_text("eu-019", 3, services)
    assert "| Country | domestic (%) | Imported (%) | Unknown (%) | Total (n) |" in text
    assert "| EU Total | 46.3 | 11.6 | 42.2 | 441 |" in text


@pytest.mark.parametrize("name", ["eu-008", "eu-013", "eu-016", "eu-018", "eu-019", "eu-026"])
def test_documents_whose_tables_were_lost_read_as_their_ground_truth(name, services):
    """Each had an F1 of 0.11 or less before (0 for four of them: every table missed)."""
    assert f1(name, services) >= 0.95


@pytest.mark.parametrize("name", ["eu-001", "eu-020", "eu-021", "eu-025"])
def test_documents_whose_cells_shade_each_line_read_as_their_ground_truth(name, services):
    """Their headers shade each line of a cell on its own inside the cell's shade: each line was a row
    (F1 0.92 to 0.98 before)."""
    assert f1(name, services) >= 0.99
