"""Tables in PDFs against a hand-made truth: ruled, without rules and with a header stacked over
three rows, spanning cells, turned 90° on the page, and continued onto the next page."""

from __future__ import annotations

import pytest

from readers import read_file
from readers.markup.tables import table_rows as rows
from readers.pdf.colheads import spanned
from readers.pdf.unruled import unruled_table
from readers.storage.files import PAGE, RENDER
from testkit.fixtures import tables


@pytest.fixture(scope="module")
def sheet_pdf(tmp_path_factory):
    return tables.tables_pdf(tmp_path_factory.mktemp("tables") / "tables.pdf")


@pytest.fixture
def sheet(sheet_pdf, services):
    return read_file(sheet_pdf, services=services)


@pytest.fixture(scope="module")
def invoices(tmp_path_factory):
    return tables.continued_pdf(tmp_path_factory.mktemp("continued") / "invoices.pdf")


@pytest.mark.parametrize(
    "number, truth",
    [
        (1, tables.RULED),
        (2, tables.STATEMENT),
        (3, tables.SPANNING),
        (4, tables.TURNED),
        (5, tables.RULED),
        (6, tables.PAPER),
    ],
    ids=[
        "ruled",
        "unruled, header over three rows",
        "spanning cells",
        "turned 90 degrees",
        "ruled and turned the other way",
        "unruled, headings over two columns each",
    ],
)
def test_each_tables_cells_are_its_truth(sheet, number, truth):
    page = sheet.pages[number - 1]
    assert [rows(table) for table in page.tables] == [truth]
    assert page.tables[0] in page.text, "the table stands in the page's text where it is"


def test_a_stacked_header_stays_in_the_table_its_spanning_heading_written_once(sheet):
    text = sheet.pages[1].text
    assert text.startswith(
        f"# {tables.STATEMENT_TITLE}\n\n(in thousands of dollars)\n\n{tables.STATEMENT_NOTE}\n\n"
        "|  | Year Ended December 31, |  |\n|---|---|---|\n|  | 2023 | 2022 |"
    ), "a line over one column that spans none is read before the table, not as a header"
    assert "Year Ended\n" not in text and "2023 2022" not in text
    assert text.endswith("| Net income | $ 702 | $ 615 |\n\nThe notes are an integral part of these statements.")


def test_a_turned_table_is_read_upright_under_its_title(sheet):
    text = sheet.pages[3].text
    assert text.startswith(f"## {tables.TURNED_TITLE}\n\n| Batch | Samples | Passed | Failed | Yield |")
    assert "Batch Samples Passed" not in text, "no longer read line by line in its turned direction"


def test_no_table_is_called_continued_when_the_page_before_ends_in_prose(sheet):
    assert not any("continued" in page.text for page in sheet.pages)


def test_a_table_continued_without_its_header_gets_it_and_says_so(invoices, services):
    first, second = read_file(invoices, 1, 2, services=services).pages
    assert first.text.startswith(tables.CONTINUED_INTRO) and "continued" not in first.text
    assert second.text.startswith(
        "*(continued from page 1)*\n\n| Invoice | Customer | Amount |\n|---|---|---|\n| INV-034 | Birch & Co |"
    )
    assert rows(first.tables[0])[0] == rows(second.tables[0])[0] == tables.CONTINUED_HEADER
    found = rows(first.tables[0])[1:] + rows(second.tables[0])[1:]
    assert found == tables.CONTINUED_ROWS, "every invoice once, none taken for a header"


def test_a_table_whose_header_is_printed_again_is_said_to_continue_with_one_header(invoices, services):
    third, fourth = read_file(invoices, 3, 4, services=services).pages
    assert fourth.text.startswith(
        "*(continued from page 3)*\n\n| Invoice | Customer | Amount |\n|---|---|---|\n| INV-034 |"
    )
    assert fourth.text.count("| Invoice | Customer | Amount |") == 1
    assert rows(third.tables[0])[1:] + rows(fourth.tables[0])[1:] == tables.CONTINUED_ROWS


def test_a_range_inside_a_continued_table_reads_back_to_where_the_table_starts(invoices, services):
    """A range that starts inside a table reads the pages before it (their text, never rendered, cached)
    back to the page the table starts on and no farther: its first page carries the table's header and
    says where it is continued from, as a read of both pages does."""
    fourth = read_file(invoices, 4, 4, services=services)
    assert fourth.pages[0].text.startswith("*(continued from page 3)*\n\n| Invoice | Customer | Amount |\n|---|")
    store, dpi = services.store, services.settings.render_dpi
    assert [store.path(fourth.sha256, PAGE, f"{n:04d}").exists() for n in (1, 2, 3)] == [False, False, True], (
        "page 3, where the second table starts, is read; nothing before it"
    )
    second = read_file(invoices, 2, 2, services=services).pages[0]
    assert second.text.startswith("*(continued from page 1)*\n\n| Invoice | Customer | Amount |\n|---|")
    assert store.path(fourth.sha256, PAGE, "0001").exists()
    assert not store.path(fourth.sha256, RENDER, f"0001-{dpi}dpi").exists(), "a page read back is not rendered"
    assert store.path(fourth.sha256, RENDER, f"0002-{dpi}dpi").exists()
    assert second.text == read_file(invoices, 1, 2, services=services).pages[1].text


def test_a_continued_table_is_chunked_with_its_header(invoices, services):
    reading = read_file(invoices, 1, 2, services=services)
    chunk = next(chunk for chunk in reading.chunks(max_tokens=256) if "INV-058" in chunk.text)
    assert chunk.text.startswith("| Invoice | Customer | Amount |\n|---|---|---|\n") and chunk.pages == [2]


def test_only_words_centred_between_two_columns_span_them():
    """A cell centred on the space between two columns spans both; a word that only reaches into
    that space (a marker set wide of its column) narrows it and stays in its own column."""

    def word(text, x0, x1, row):
        return {"text": text, "x0": x0, "x1": x1, "top": row * 12.0, "bottom": row * 12.0 + 8}

    rows = [
        [word(label, 10, 60, row), word(left, 300, 320, row), word(right, 400, 420, row)]
        for row, (label, left, right) in enumerate(
            [("Part", "2023", "2022"), ("Seals", "10", "12"), ("Pumps", "3", "4"), ("Valves", "7", "9")]
        )
    ]
    rows.append([word("Gaskets", 10, 60, 4), word("not", 333, 350, 4), word("reported", 352, 387, 4)])
    rows.append([word("Hoses", 10, 50, 5), word("x", 390, 398, 5), word("5", 410, 420, 5)])
    before, cells = unruled_table([], rows, 9.0)
    assert not before and cells == [
        ["Part", "2023", "2022"],
        ["Seals", "10", "12"],
        ["Pumps", "3", "4"],
        ["Valves", "7", "9"],
        ["Gaskets", "not reported", ""],
        ["Hoses", "", "x 5"],
    ]


def test_a_heading_over_a_column_empty_under_it_heads_that_column():
    """A Word-printed filing's header: "2021" stands over a column no body row fills, clear of the
    gutters on both sides. It spanned no column and the page failed (IndexError); it heads its own."""
    empty = (float("inf"), float("-inf"))
    extents = [(46.0, 230.0), empty, (392.0, 450.0), (490.0, 539.0)]
    gutters = [(230.0, 357.0), (382.0, 392.0), (450.0, 490.0)]
    heading = [{"text": "2021", "x0": 357.0, "x1": 382.0, "top": 0.0, "bottom": 8.0}]
    assert spanned(heading, extents, gutters) == [1]
