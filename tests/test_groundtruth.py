"""The scoring ``bench_formats`` uses: Markdown written two ways scores as the same text, and a table row
counts as matched only when its cells are the same, whole or as a slice of a wider row in the same columns."""

from __future__ import annotations

from testkit import CORPUS
from testkit.groundtruth import score, table_rows, without_page_headers, words

DOCLING_PROSE = "## Strong\n\nThis is **strong emphasis** (strong) .\n\n- [a link](https://example.com)\n"
READLENS_PROSE = "[PAGE 1]\n# Strong\n\nThis is *strong emphasis* (strong).\n\n* a link\n"
DOCLING_TABLE = "| Year | Total | Total |\n|---|---|---|\n| 2024 | 12 | 12 |\n"
READLENS_TABLE = "| Year | Total | |\n| - | - | - |\n| 2024 | 12 | |\n"


def test_markup_and_page_headers_do_not_count():
    assert words(without_page_headers(READLENS_PROSE)) == words(DOCLING_PROSE)
    assert words(DOCLING_PROSE) == ["strong", "this", "is", "strong", "emphasis", "strong", "a", "link"]
    assert score(DOCLING_PROSE, without_page_headers(READLENS_PROSE))["similarity"] == 1.0


def test_a_merged_cell_repeated_or_left_empty_matches_and_a_changed_cell_does_not():
    assert table_rows(DOCLING_TABLE) == [["year", "total", "total"], ["2024", "12", "12"]]
    assert table_rows(READLENS_TABLE) == [["year", "total"], ["2024", "12"]]
    assert score(DOCLING_TABLE, READLENS_TABLE)["rows"] == 2
    assert score(DOCLING_TABLE, READLENS_TABLE.replace("| 12 |", "| 13 |"))["rows"] == 1


def test_every_ground_truth_has_its_source_in_the_corpus():
    truths = sorted((CORPUS / "docling" / "groundtruth").glob("*.md"))
    assert len(truths) == 84
    for truth in truths:
        name = truth.name.removesuffix(".md")
        assert (CORPUS / "docling" / "formats" / name).is_file() or (CORPUS / "docling" / name).is_file(), name


def test_a_table_cut_at_empty_columns_matches_the_whole_tables_columns_and_a_stray_value_does_not():
    """docling cuts xlsx_07's sheet at its empty columns; a piece whose rows stand cell for cell in the same
    columns of one of the tool's rows is matched as a slice, a cell that only turns up elsewhere is not."""
    whole = "| 1.1 |  | Voltage | kV | 130 |\n|---|---|---|---|---|\n| 1.2 |  | Frequency | Hz | 50 |\n"
    pieces = "| Voltage | kV |\n| - | - |\n| Frequency | Hz |\n\n| 130 |\n| - |\n| 50 |\n"
    scores = score(pieces, whole)
    assert (scores["rows"], scores["whole_rows"], scores["truth_rows"]) == (4, 0, 4)
    assert score("| kV | Voltage |\n| - | - |\n", whole)["rows"] == 0  # the same cells in other columns' order
    assert score("| 50 | 130 |\n| - | - |\n", whole)["rows"] == 0  # cells from two rows
