"""PDF pages as a model should read them: columns in order, headings, lists, links, tables in
place, text on its side read once, glyphs without a map left out with a warning; side boxes and
sidebars whole, frames of text read down each one, a paragraph set large kept body text."""

from __future__ import annotations

import pytest

from readers import Services, read_file
from readers.markup.tables import table_rows
from readers.render.libreoffice import soffice
from testkit import CORPUS, fixtures, make_settings
from testkit.fixtures import writer_pages

needs_office = pytest.mark.skipif(soffice() is None, reason="needs LibreOffice (make setup installs it)")


def squeeze(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture(scope="module")
def structure(tmp_path_factory):
    return fixtures.structure_pdf(tmp_path_factory.mktemp("layout") / "structure.pdf")


@pytest.fixture(scope="module")
def pages(structure, tmp_path_factory):
    return read_file(structure, services=Services(make_settings(tmp_path_factory.mktemp("layout-cache")))).pages


def test_two_columns_are_read_down_one_after_the_other(pages):
    text = pages[0].text
    flat = squeeze(text)
    assert text.startswith("# Installing the wall bracket\n\n")
    assert squeeze(fixtures.LEFT_COLUMN) in flat and squeeze(fixtures.RIGHT_COLUMN) in flat, (
        "each column reads as one run"
    )
    assert flat.index("Tighten the bolts or screws.") < flat.index("Made of anodized aluminum alloy")
    assert "Bracket manual" not in text and pages[0].furniture == ["Bracket manual, page 1"], (
        "the footer, with its page number, is furniture even on a page read alone"
    )


def test_columns_in_a_frame_or_over_a_picture_still_read_as_columns(tmp_path):
    """Prose inside a figure's box is the page's text, not the figure's labels."""
    reading = read_file(
        fixtures.framed_columns_pdf(tmp_path / "framed.pdf"), services=Services(make_settings(tmp_path / "cache"))
    )
    for page in reading.pages:
        flat = squeeze(page.text)
        assert page.text.startswith("# Installing the wall bracket\n\n"), page.number
        assert squeeze(fixtures.LEFT_COLUMN) in flat and squeeze(fixtures.RIGHT_COLUMN) in flat, page.number
    assert [figure.kind for page in reading.pages for figure in page.figures] == [
        "drawing",
        "picture",
    ]  # the frame counts as a drawing


def test_three_columns_with_a_running_header_and_a_page_number(pages):
    text = pages[1].text
    flat = squeeze(text)
    assert text.startswith("### Part 1\n\n"), "the running header, in small type at the top, is furniture"
    positions = [flat.index(squeeze(column)) for column in fixtures.THREE_COLUMNS]
    assert positions == sorted(positions)
    assert "### Part 1" in text and flat.index("Part 2") > positions[0]
    assert text.endswith("work is done.") and pages[1].furniture == ["Field Handbook - Chapter 2", "2"], (
        "its page number, in small type at the foot, is furniture"
    )


def test_headings_lists_links_and_a_table_without_rules(pages):
    text = pages[2].text
    assert text.startswith("# Product guide\n\n## Getting started\n\n### What is in the box\n\n")
    assert "- one wall bracket\n- four anchors\n- twelve screws" in text
    assert "1. Drill the holes.\n2. Push in the anchors.\n3. Screw on the bracket." in text
    assert f"Before you start, read [{fixtures.LINK[0]}]({fixtures.LINK[1]})" in text
    assert "| Item | Quantity | Price |\n|---|---|---|\n| Anchor set | 4 | 3.20 |" in text, (
        "each cell keeps its own words"
    )
    assert "Order number: 4711\nDelivery date: 2 March 2025" in text, "a form's labels and values stay on their lines"


def test_a_stamp_turned_on_its_side_in_the_margin_is_furniture(pages):
    text = pages[3].text
    assert fixtures.SIDEBAR not in text and pages[3].furniture == [fixtures.SIDEBAR]
    assert squeeze(fixtures.LEFT_COLUMN + " " + fixtures.RIGHT_COLUMN) in squeeze(text)


def test_a_single_column_page_stays_as_it_is(services):
    text = read_file(CORPUS / "markitdown/test.pdf", services=services).pages[0].text
    assert text.startswith(
        "# 1 Introduction\n\nLarge language models (LLMs) are becoming "
        "a crucial building block in developing powerful agents\n"
        "that utilize LLMs for reasoning"
    )
    assert "|" not in text


def test_glyphs_are_mapped_through_pdfium_or_left_out_with_a_warning(pages, tmp_path, services):
    assert "- one wall bracket" in pages[2].text, "pdfminer reads the bullet as (cid:127); pdfium knows it"
    reading = read_file(fixtures.unmapped_glyphs_pdf(tmp_path / "unmapped.pdf"), services=services)
    assert reading.pages[0].text == "Glyphs without a map: Zrich"
    assert "(cid:" not in reading.as_text()
    assert reading.warnings == [
        "Page 1 of unmapped.pdf: 1 character could not be read and was "
        "left out (the font has no map from its glyphs to text)."
    ]


def test_heading_levels_follow_the_sizes_of_the_pages_read(structure, services):
    alone = read_file(structure, 3, 3, services=services).pages[0].text
    assert alone.startswith("# Product guide\n\n## Getting started\n\n### What is in the box")
    everything = read_file(structure, services=services).pages
    assert everything[0].text.startswith("# Installing the wall bracket"), "20 and 22 pt titles are one level"
    assert "### Part 1" in everything[1].text


def test_a_table_in_tight_type_keeps_its_words_and_its_rows(tmp_path, services):
    """Words a fraction of a point apart, in letters drawn closer than their widths: each gap is
    weighed against the line's letter spacing, and a table ruled only round its columns is split
    at its baselines (pdfplumber alone gives "CITIBANK-TRAVELCBACARD", and one row for the body)."""
    reading = read_file(fixtures.tight_table_pdf(tmp_path / "tight.pdf"), services=services)
    assert [len(page.tables) for page in reading.pages] == [1, 1], (
        "page 1's table is found by its cells, page 2's by its rules"
    )
    for page in reading.pages:
        assert page.text.startswith(fixtures.TIGHT_TITLE + "\n\n"), "the prose in the same type keeps its spaces"
        assert page.tables[0] in page.text
        rows = table_rows(page.tables[0])
        assert rows == fixtures.TIGHT_TABLE, page.number
        assert max(len(cell.split()) for row in rows for cell in row) <= 12, "no cell holds a column's worth of rows"


def test_running_headers_and_footers_are_left_out_of_the_text_and_kept_apart(tmp_path, services):
    path = fixtures.running_report_pdf(tmp_path / "report.pdf")
    reading = read_file(path, services=services)
    pages = reading.pages
    for page, body, balance in zip(pages, fixtures.REPORT_BODY, fixtures.BALANCES):
        assert page.furniture == [fixtures.RUNNING_HEADER, f"Page {page.number} of 4"], (
            "the header and footer are kept, apart"
        )
        assert page.text.startswith(f"# Part {page.number}\n\n"), page.text
        assert "of 4" not in page.text, "the page's label gives its number"
        assert page.text.count(fixtures.RUNNING_HEADER) == (page.number == 3), "quoted in page 3's body, it stays there"
        assert all(line in page.text for line in body)
        assert page.text.endswith(f"Balance carried forward: {balance}"), (
            "a last line whose number does not count the pages is data"
        )
    assert sum(page.text.count(fixtures.REPEATED_BODY_LINE) for page in pages) == 2
    assert "of 4" not in reading.as_text() and reading.as_text().count(fixtures.RUNNING_HEADER) == 1, (
        "a model never receives the furniture"
    )
    alone = read_file(path, 2, 2, services=services).pages[0]
    assert alone.text.startswith("# Part 2\n\n"), "a page read alone tells its running header by its type and place"
    assert alone.text.endswith("\n\nBalance carried forward: 980.10"), "a last line with an amount is data"
    assert alone.furniture == [fixtures.RUNNING_HEADER, "Page 2 of 4"]


@needs_office
def test_a_writer_page_of_two_frames_is_read_down_each_frame(tmp_path, services):
    """Prose in one frame, a numbered list in the other, lines on the same baselines: the list's
    numbers made a third column and the page a table, read across both frames line by line."""
    source = writer_pages.two_frames_fodt(tmp_path / "frames.fodt")
    text = read_file(fixtures.libreoffice_copy(source, tmp_path / "frames.pdf", "pdf"), services=services).pages[0].text
    flat = squeeze(text)
    assert "|" not in text
    assert all(squeeze(line) in flat for line in writer_pages.RIVER), text
    walk = "\n".join(f"{number}. {item}" for number, item in enumerate(writer_pages.WALK, 1))
    assert walk in text and flat.index(writer_pages.RIVER[-1][-20:]) < flat.index("1. Walk"), text


@needs_office
def test_a_boxed_glossary_is_read_whole_after_the_paragraph_it_stands_beside(tmp_path, services):
    """A textbook's glossary box, the body text wrapped round it: its lines were spliced into the
    body's line by line ("condizionamenti esterni ... Persona: essere umano")."""
    source = writer_pages.glossary_fodt(tmp_path / "glossary.fodt")
    text = (
        read_file(fixtures.libreoffice_copy(source, tmp_path / "glossary.pdf", "pdf"), services=services).pages[0].text
    )
    paragraphs = text.split("\n\n")
    assert paragraphs[0] == "# La persona e i suoi condizionamenti"
    assert squeeze(paragraphs[1]) == f"{writer_pages.BODY} {writer_pages.BODY}", "the paragraph beside the box, whole"
    glossary = [f"{term}: {meaning}" for term, meaning in writer_pages.GLOSSARY]
    assert squeeze(paragraphs[2]) == squeeze(" ".join(["Glossario", *glossary])), "then the box, whole"
    assert squeeze(paragraphs[3]) == writer_pages.BODY


def test_a_report_s_sidebar_and_columns_are_read_whole_and_in_order(services):
    """A real report page pdfminer cannot parse (read by pdfium): a sidebar of section names beside
    two columns, whose lines share baselines. It was read as one table, lines across every column."""
    reading = read_file(CORPUS / "unstructured" / "pdf-bad-color-space.pdf", services=services)
    text = squeeze(reading.pages[0].text)
    assert "|" not in text
    order = [
        "We aim to achieve net-zero emissions across all of our operations and value chain by 2030",
        "### Our ambition ### Our approach ### Measuring our carbon footprint ### Reducing carbon emissions",
        "The United Nations Intergovernmental Panel on Climate Change is unequivocal",
        "to limit temperature rise to 1.5°C.",
        "At Google, we’re working to accelerate the transition to a carbon-free future.",
        "That’s why, in 2020, we set a goal to",
        "operate our data centers and office campuses on 24/7 carbon-free energy",
    ]
    assert all(part in text for part in order), text
    assert [text.index(part) for part in order] == sorted(text.index(part) for part in order), text
    assert any("was read by pdfium" in warning for warning in reading.warnings)


def test_a_paragraph_set_large_is_never_a_heading(services):
    """Page 2 of a register, its footnotes outnumbering its body: the body's size stood above the
    page's most common one, and its paragraphs became headings of 200 words."""
    text = read_file(CORPUS / "pdfplumber" / "federal-register-2020-17221.pdf", 2, 2, services=services).pages[0].text
    assert text.startswith("Hatta International Airport in Jakarta,\nIndonesia, resulting in 189 fatalities."), text
    assert all(len(line.split()) <= 16 for line in text.splitlines() if line.startswith("#")), text


def test_columns_under_a_table_across_the_page_are_read_one_after_the_other(services):
    """Pages 5 and 6 of a register: three columns of text with a table across the page under or over them. The
    page's footer stands further left than the columns, so a margin ran past the table and the columns as one
    band that shared no gutter: every line was read across the three columns ("this proposed AD. 13132. This
    proposed AD would not Model 737–8 and 737–9 airplanes,"). The table's title, ruled in under the running head's
    rule, was its first row."""
    path = CORPUS / "pdfplumber" / "federal-register-2020-17221.pdf"
    pages = read_file(path, 5, 6, services=services).pages
    assert pages[0].text.startswith("- Boeing Special Attention Service\nBulletin 737–00–1028, dated July 20,\n2020,")
    text = pages[1].text
    first = "The FAA has received no definitive\ndata that would enable the agency to\nprovide cost estimates for the\n"
    assert text.startswith("ESTIMATED COSTS—Continued\n\n| Action | Labor cost |"), text  # its title, no row
    assert text.index("| Action | Labor cost |") < text.index(first), text
    parts = ["specified in\nthis proposed AD.", "Regulatory Findings\nThe FAA has determined", "(c) Applicability"]
    assert [text.index(part) for part in parts] == sorted(text.index(part) for part in parts), text


def _paragraphs(text: str) -> list[str]:
    return [paragraph for paragraph in text.split("\n\n") if paragraph.strip()]


def test_paragraphs_follow_the_page_s_own_line_pitch(services):
    """A 1.5-spaced report page (eu-004 p. 5) leaves three quarters of a line between the lines of a
    paragraph: a fixed gap made each line a paragraph (28 of them) and left the lines of a bullet
    outside its item. A paragraph is now the page's own: a bullet's lines stay in its item."""
    text = read_file(CORPUS / "icdar2013-eu" / "eu-004.pdf", 5, 5, services=services).pages[0].text
    paragraphs = _paragraphs(text)
    assert len(paragraphs) == 9, text
    assert paragraphs[0] == (
        "- Retail sales in aggregate grew only very sluggishly in real terms during the first part of the 1990s\n"
        "(column 1 of table 6.4). Amongst the member states shown, only Ireland achieved double figure\n"
        "growth between 1990 and 1994 (equivalent to an average annual growth rate of 2.9%), and annual\n"
        "average rates of between 1.5% and 2% were the norm."
    ), "a bullet's four lines are its item"
    assert paragraphs[-1].startswith("35. These include the fact that some estimates"), "the footnote apart"
    assert "like-for-like\nbasis." in text, "a word broken inside a paragraph is mended"


def test_a_paper_set_wide_keeps_its_paragraphs_and_footnotes_apart(services):
    """A working paper whose lines stand 0.6 of a line apart (eu-026) was read a line a paragraph;
    its paragraphs are the ones its short last lines end, its footnotes (set smaller, as close) apart."""
    text = read_file(CORPUS / "icdar2013-eu" / "eu-026.pdf", 2, 2, services=services).pages[0].text
    assert "the deviation in more details below.\n\n14Estimated on the basis of Deutsche Bundesbank" in text
    assert "In order to evaluate how well households estimate their losses we simulate financial\nlosses" in text
    survey = read_file(CORPUS / "icdar2013-eu" / "eu-027.pdf", 4, 4, services=services).pages[0].text
    assert "1. “A bat and a ball cost 110 cents in total. The bat costs 100 cents more than the\nball." in survey, (
        survey
    )


def test_single_spaced_pages_keep_their_paragraph_breaks(services):
    """Where the page's lines are set close, a gap of 0.6 of a line still parts paragraphs: a list
    whose items stand 0.7 of a line apart, an article's front matter of short lines between close ones."""
    manual = read_file(CORPUS / "docling" / "redp5110_sampled.pdf", 13, 13, services=services).pages[0].text
    assert "- Human Resources can see the unmasked TAX_ID of the employees.\n\n- Employees can see" in manual
    paper = CORPUS / "olmocr" / "ff0f0b22c55d8b90dd77d153f48e144fc9db_pg2.pdf"
    front = read_file(paper, services=services).pages[0].text
    assert "\n\nEditor: Brian Bird, Centers for Disease Control and Prevention" in front
    assert "\n\nReceived August 10, 2013; Accepted February 3, 2014; Published March 20, 2014\n\n" in front
