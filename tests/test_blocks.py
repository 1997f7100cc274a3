"""The page as its blocks (issue 51): a block's cells keep their spans, a page's text is its blocks
joined, a Markdown file's blocks are its lines as they are (a code block open across a page break stays
code), a PDF's blocks stand where the layout put their lines, and what is made from the blocks (chunk
cards, the report's citations) says the right thing."""

from __future__ import annotations

import shutil

from readers import Block, BlockKind, Cell, Page, read_file
from readers.markup.markdown import markdown_blocks
from readers.markup.tables import table_block
from readers.pdf.placed import placed_blocks
from readers.services import Services
from testkit import CORPUS, ROOT, make_settings
from testkit.block_boxes import TEXT_KINDS, block_score, grid_matches, grids, page_words
from ui.chunks import card
from ui.handlers import Entry
from ui.report import report_markdown

CITE = "*(Source: "


def test_a_table_block_keeps_its_spans_and_writes_a_spanning_cells_words_where_it_covers():
    table = table_block([[Cell("Region", row_span=2), Cell("Sales", column_span=2)], ["2025", "2026"], ["North", 1, 2]])
    assert table.text == (
        "| Region | Sales | Sales |\n|---|---|---|\n| Region | 2025 | 2026 |\n| North | 1 | 2 |"
    )  # each row and column reads whole
    assert table.grid() == [["Region", "Sales", "Sales"], ["Region", "2025", "2026"], ["North", "1", "2"]]
    assert [[(cell.text, cell.row_span, cell.column_span) for cell in row] for row in table.rows[:2]] == [
        [("Region", 2, 1), ("Sales", 1, 2)],
        [("2025", 1, 1), ("2026", 1, 1)],
    ]
    assert (
        Block.of(
            {
                "kind": "table",
                "text": table.text,
                "box": None,
                "level": 0,
                "rows": [
                    [{"text": cell.text, "row_span": cell.row_span, "column_span": cell.column_span} for cell in row]
                    for row in table.rows
                ],
            }
        )
        == table
    )  # its JSON reads back as the block


def test_a_cells_line_that_ends_in_a_hyphen_runs_on_and_other_line_breaks_are_spaces():
    rows = [
        ["Sub-\nregion", "ISO-\nalpha2 Code", "State/\nterritory"],
        ["Sub-\nSaharan\nAfrica", "1990-\n2000", "A -\nB"],
    ]
    assert table_block(rows).text == (
        "| Sub-region | ISO-alpha2 Code | State/territory |\n|---|---|---|\n| Sub-Saharan Africa | 1990-2000 | A - B |"
    )


def test_a_pages_text_is_its_blocks_joined_and_its_furniture_apart():
    page = Page(
        number=3,
        blocks=[
            Block(BlockKind.FURNITURE, "ACME annual report"),
            Block(BlockKind.HEADING, "## Results", (0.1, 0.1, 0.5, 0.12), level=2),
            Block(BlockKind.PARAGRAPH, "Sales rose."),
            Block(BlockKind.LIST_ITEM, "- North"),
            Block(BlockKind.LIST_ITEM, "   - Lisbon", level=1),
            Block(BlockKind.TABLE, "| A |\n|---|\n| 1 |", rows=((Cell("A"),), (Cell("1"),))),
            Block(BlockKind.FURNITURE, "Page 3 of 12"),
        ],
    )
    assert page.text == "## Results\n\nSales rose.\n\n- North\n   - Lisbon\n\n| A |\n|---|\n| 1 |"
    assert page.furniture == ["ACME annual report", "Page 3 of 12"] and page.tables == ["| A |\n|---|\n| 1 |"]
    spans = page.spans()
    assert spans[0] is None and page.text[spans[4][0] : spans[4][1]] == "   - Lisbon"
    assert not page.empty and Page(number=4, blocks=[Block(BlockKind.FURNITURE, "Page 4")]).empty


def test_markdown_blocks_are_the_kinds_its_source_says():
    blocks = markdown_blocks("# T\n\ntext\n\n- a\n   - b\n\n```py\nx\n\ny\n```\n\n$$x^2$$\n\n![a chart](c.png)")
    assert [(block.kind, block.level) for block in blocks] == [
        ("heading", 1),
        ("paragraph", 0),
        ("list_item", 0),
        ("list_item", 1),
        ("code", 0),
        ("formula", 0),
        ("figure", 0),
    ]


def test_a_block_keeps_whether_it_stands_a_blank_line_apart_from_the_one_before():
    """A list set a line apart (a PDF's items set 0.7 of a line apart, a loose list) keeps its blank lines;
    a list under the line that leads into it stays under it; "2023." where a sentence's line begins
    starts no list inside a paragraph (CommonMark): the page's text is its source's."""
    text = "Rules:\n- HR sees the TAX_ID.\n\n- Employees see their own.\n- and only theirs.\n\nIn June\n2023. It ended."
    blocks = markdown_blocks(text)
    assert [(block.kind, block.apart) for block in blocks] == [
        ("paragraph", None),  # the first: nothing before it
        ("list_item", False),
        ("list_item", True),
        ("list_item", False),
        ("paragraph", True),
    ]
    assert Page(number=1, blocks=blocks).text == text
    item = Block(BlockKind.LIST_ITEM, "- a", apart=True)
    assert Block.of({"kind": "list_item", "text": "- a", "apart": True}) == item  # its JSON reads back


def test_a_markdown_files_blocks_are_its_lines_and_a_code_block_open_over_a_page_break_stays_code(tmp_path):
    lines = ["# Notes", "", *[f"Line {n} of the notes, written out at some length." for n in range(70)], "", "```"]
    lines += [f"print({n})  # code that runs on past the page's end, with a # that is no heading" for n in range(60)]
    lines += ["```", "", "## After", "", "The end."]
    (tmp_path / "notes.md").write_text("\n".join(lines) + "\n")
    reading = read_file(tmp_path / "notes.md", services=Services(make_settings(tmp_path / "cache")))
    assert len(reading.pages) > 1
    assert "\n".join(page.text for page in reading.pages) == "\n".join(lines)  # the lines exactly, none lost
    second = reading.pages[1]
    assert second.blocks[0].kind == "code" and not any(block.kind == "heading" for block in second.blocks[:1])
    headings = [block.title for page in reading.pages for block in page.blocks if block.kind == "heading"]
    assert headings == ["Notes", "After"]  # a code line's "#" is no heading, on any page


def test_a_chunk_card_says_the_page_whatever_the_files_name(tmp_path, shared_services):
    named = tmp_path / "Smith, J. report.pdf"
    shutil.copyfile(ROOT / "assets" / "chart-report.pdf", named)
    reading = read_file(named, services=shared_services)
    chunk = next(chunk for chunk in reading.chunks(512) if chunk.pages == [2])
    assert chunk.citation == "Smith, J. report.pdf, p. 2" and chunk.where == "p. 2"
    assert " · p. 2 · " in card(chunk, "0:1")


def test_the_report_cites_each_piece_once(shared_services):
    reading = read_file(ROOT / "assets" / "chart-report.pdf", services=shared_services)
    markdown = report_markdown([Entry("chart-report.pdf", reading=reading, done=True)])[0]
    pieces = markdown.split("\n\n")
    assert not [
        (before, after)
        for before, after in zip(pieces, pieces[1:])
        if before.startswith(CITE) and after.startswith(CITE)
    ]  # never twice in a row
    for page in reading.pages:
        for block in page.blocks:
            if block.kind in ("table", "chart"):
                after = markdown[markdown.index(block.text) + len(block.text) :]
                assert after.lstrip("\n").startswith(CITE), block.text  # each table and chart cited right after it


def test_a_pdf_blocks_box_is_the_lines_the_layout_made_it_of():
    """``readers.pdf.placed``: a heading levelled anew, a paragraph over two lines (a word broken at
    the first's end) and a table continued from another page (its last row not on this page) take the
    boxes of their own lines; furniture too; a block none of whose lines the layout placed has none."""
    placed = [
        ("# Title", (0.1, 0.1, 0.5, 0.15), False),
        ("First line of a para-", (0.1, 0.2, 0.9, 0.22), False),
        ("graph that goes on", (0.1, 0.22, 0.6, 0.24), False),
        ("| Region | Units |\n|---|---|\n| North | 120 |", (0.1, 0.5, 0.9, 0.7), False),
        ("Page 3 of 9", (0.4, 0.95, 0.6, 0.97), False),
    ]
    blocks = [
        Block(BlockKind.HEADING, "## Title", level=2),
        Block(BlockKind.PARAGRAPH, "First line of a paragraph that goes on"),
        Block(BlockKind.TABLE, "| Region | Units |\n|---|---|\n| North | 120 |\n| South | 95 |"),
        Block(BlockKind.FURNITURE, "Page 3 of 9"),
        Block(BlockKind.PARAGRAPH, "Said nowhere on the page"),
    ]
    assert [block.box for block in placed_blocks(blocks, placed)] == [
        (0.1, 0.1, 0.5, 0.15),
        (0.1, 0.2, 0.9, 0.24),
        (0.1, 0.5, 0.9, 0.7),
        (0.4, 0.95, 0.6, 0.97),
        None,
    ]


def test_a_chart_the_pdf_layout_rebuilt_is_one_chart_block():
    """The heading, table and notes a rebuilt chart's Markdown parts into are one chart block, where
    its drawing stands, with its table's rows: no table of the page's."""
    chart = "Chart: Units (bar chart)\n\n|  | North |\n|---|---|\n| Q1 | 120 |\n\n*values as printed*"
    blocks = placed_blocks(
        markdown_blocks(f"Sales rose.\n\n{chart}"),
        [("Sales rose.", (0.1, 0.1, 0.5, 0.12), False), (chart, (0.1, 0.2, 0.9, 0.6), True)],
    )
    assert [(block.kind, block.box) for block in blocks] == [
        (BlockKind.PARAGRAPH, (0.1, 0.1, 0.5, 0.12)),
        (BlockKind.CHART, (0.1, 0.2, 0.9, 0.6)),
    ]
    assert blocks[1].text == chart and blocks[1].grid() == [["", "North"], ["Q1", "120"]]
    assert Page(1, blocks=blocks).tables == [] and Page(1, blocks=blocks).text == f"Sales rose.\n\n{chart}"


def test_a_pdf_pages_blocks_hold_their_own_words_and_a_ruled_table_its_grid(shared_services):
    """Issue 51's measure (``testkit.block_boxes``) on ca-warn-report.pdf's first page: each text or
    heading block's box holds all its words and no others', and each ruled table's box is its drawn grid."""
    path = CORPUS / "pdfplumber" / "ca-warn-report.pdf"
    page = read_file(path, services=shared_services).pages[0]
    words = page_words(path, 1)
    scores = [block_score(block, words) for block in page.blocks if block.kind in TEXT_KINDS]
    assert len(scores) == 3 and all(score.precision == score.recall == 1.0 for score in scores)
    tables = [block for block in page.blocks if block.kind == BlockKind.TABLE]
    assert tables and min(grid_matches(tables, grids(path, 1)[0])) >= 0.9
