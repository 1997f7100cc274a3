"""Real PDFs read right: each mended defect held to the hand-written checks of the real pages that
showed it (``tests/corpus/page-checks.json``, written from each page's render; ``testkit.page_checks``
scores them). ``make bench pages`` scores every check, beside markitdown."""

from __future__ import annotations

import pytest

from readers import Services, read_file
from testkit import CORPUS, make_settings
from testkit.page_checks import described, entries, evaluate, split_pages
from tests.model_output import assert_says

PAGES = {(entry.file, entry.page): entry for entry in entries()}


@pytest.fixture(scope="module")
def services(tmp_path_factory) -> Services:
    """As a new user reads: local OCR describes figures and scans."""
    return Services(make_settings(tmp_path_factory.mktemp("real-pdfs"), vision_provider="ocr"))


def failing(file: str, page: int, services: Services, kinds: tuple[str, ...] = ()) -> list[str]:
    """The checks of ``file``'s page ``page`` (of ``kinds``, or all) that ReadLens fails, read as the
    checks say: the page alone, or with the pages before it."""
    entry = PAGES[(file, page)]
    first = page if entry.alone else 1
    text = split_pages(read_file(CORPUS / file, first, page, services=services).as_text()).get(page)
    return [
        f"{described(check)}: {why}".rstrip(": ")
        for check in entry.checks
        if (not kinds or check["kind"] in kinds) and not (result := evaluate(check, text))[0]
        for why in [result[1]]
    ]


@pytest.mark.parametrize(
    "file, page",
    [
        ("olmocr/ff4f7dad78081cff727d19ab51c181d4a661_pg1.pdf", 1),  # a repository's cover: its service line, a stamp
        ("olmocr/ffaac214730d2b8c2ec842e3618ccb9c4259_pg1.pdf", 1),  # another's "Download date"
        ("olmocr/ff0f0b22c55d8b90dd77d153f48e144fc9db_pg2.pdf", 1),  # a journal's footer with its page number
        ("olmocr/multi_column_miss.pdf", 1),  # a download stamp, a running head, the journal's address
        ("olmocr/edgar.pdf", 1),  # a browser's print: its date and title, the address and 1/34
        ("pdfplumber/scotus-transcript-p1.pdf", 1),  # a transcript's head and foot, its line numbers kept
        ("docling/redp5110_sampled.pdf", 8),  # a book's running foot beside its page number
        ("docling/redp5110_sampled.pdf", 10),
        ("docling/2305.03393v1-pg9.pdf", 1),  # a paper's running head
        ("unstructured/layout-parser-paper-fast.pdf", 1),  # arXiv's stamp, turned up the margin
        ("olmocr/ff3d6e051903fe5ca9bc172ece14964c5632_pg1.pdf", 1),  # a download stamp, turned
        ("camelot/campaign_donors.pdf", 1),  # "ANEXO I-A-1 Página 12 de 14"
    ],
)
def test_a_page_read_alone_keeps_its_furniture_apart(file, page, services):
    assert failing(file, page, services, ("absent",)) == []


def test_content_at_the_edge_stays(services):
    """What stands at an edge and is no furniture: a transcript's first line beside its line number,
    a table's header at the top of a page, a manual cover's part number, a footnote's last line."""
    assert failing("pdfplumber/scotus-transcript-p1.pdf", 1, services, ("present",)) == []
    assert failing("olmocr/fff590bed29a2854ac1f874dad5752ede1aa_pg1.pdf", 1, services, ("present",)) == []
    olmo = read_file(CORPUS / "olmocr/olmo2-pg4.pdf", services=services).pages[0]
    assert olmo.furniture == ["4"] and "| Source | Type | Tokens | Words | Bytes | Docs |" in olmo.text
    korean = read_file(CORPUS / "docling/normal_4pages.pdf", 3, 3, services=services).pages[0]
    assert korean.furniture == [] and korean.text.endswith("지도록 순보험료를 계산하는 것을 의미함")


def test_text_as_typed_accents_composed_and_no_space_before_a_full_stop(services):
    """TeX draws "Ján Mináč" as "Ja´n Mina´cˇ" (an accent glyph over each letter), and the caption's
    bold label and its regular text stand on one baseline at different heights ("OLMo 2.")."""
    assert failing("olmocr/math_2503_04086.pdf", 1, services) == []
    assert failing("olmocr/olmo2-pg4.pdf", 1, services, ("present", "absent", "order")) == []


def test_glyphs_struck_twice_read_once_and_a_large_title_on_its_own_line(services):
    """A Redbook fakes bold by drawing each glyph twice a hair apart ("EENNFFOORRCCEEDD"); its
    cover sets "Redpaper" large just under an author's name, whose line it must not swallow."""
    pages = read_file(CORPUS / "docling/redp5110_sampled.pdf", 1, 11, services=services).pages
    assert "ENFORCED FOR ALL ACCESS" in pages[9].text and "Signed on as ALICE" in pages[10].text
    assert "Kent Milligan" in pages[0].text.splitlines()


def test_headings_from_real_evidence(services):
    """A numbered section title stays whole ("1 Introduction", "2.1.1 Pretraining data" in bold at
    the body's size); an OCR layer, whose line sizes wander with the scan, makes no headings."""
    for file in ("unstructured/fr_olap.pdf", "unstructured/layout-parser-paper-fast.pdf"):
        assert failing(file, 1, services, ("order",)) == []
    for file in ("olmocr/small_page_size.pdf", "olmocr/horribleocr.pdf"):
        text = read_file(CORPUS / file, services=services).pages[0].text
        assert [line for line in text.split("\n") if line.startswith("#")] == [], file


@pytest.mark.parametrize(
    "file", ["docling/right_to_left_01.pdf", "olmocr/ff3d6e051903fe5ca9bc172ece14964c5632_pg1.pdf"]
)
def test_arabic_and_persian_read_in_the_order_they_are_read(file, services):
    """PDFs draw right-to-left text as it is seen, in presentation forms: it comes out as it is read,
    in its letters, a run of Latin inside it ("R و Python") in its own order."""
    assert failing(file, 1, services, ("present", "order")) == []


def test_blocks_side_by_side_in_two_sizes_are_no_table(services):
    """A Persian journal's first page sets its box of small print (its society, its indexes, its issue) beside
    its authors' names in larger type: read from the right as a Latin page is, the two were one table."""
    text = read_file(CORPUS / "olmocr/ff3d6e051903fe5ca9bc172ece14964c5632_pg1.pdf", services=services).pages[0].text
    assert "|" not in text and "جعفر مهراد" in text


def test_statements_tables_without_rules_split_into_rows_and_columns(services):
    """A ledger boxed as one cell under a ruled header (the Senate's expenditures) is split at its
    baselines and under the header's columns; a surname that runs on into the next column keeps the
    columns of the other rows (campaign donors); a title over the table is read before it (health)."""
    for file in ("pdfplumber/senate-expenditures.pdf", "camelot/campaign_donors.pdf"):
        assert failing(file, 1, services) == [], file
    health = read_file(CORPUS / "camelot/health.pdf", services=services).pages[0]
    rows = [[cell.strip() for cell in line.strip("|").split("|")] for line in health.text.splitlines()]
    assert ["Gujarat", "26,328,400", "6,922,900", "12,664,000", "42,000", "45,957,300", "455,860", "46,413,160"] in rows
    assert health.text.startswith("# Table: 5 Public Health Outlay 2012-13 (Budget Estimates)")


def test_a_table_is_never_made_of_prose(services):
    """A Redbook's back cover boxes its prose in a grid, and a syntax diagram boxes its notes: both
    are read as text, no table row longer than a sentence or two; a ballot's grid of candidate lists,
    long cells of short lines, stays a table."""
    assert failing("docling/redp5110_sampled.pdf", 18, services) == []
    for page in read_file(CORPUS / "docling/redp5110_sampled.pdf", services=services).pages:
        longest = max((len(row.split()) for table in page.tables for row in table.splitlines()), default=0)
        assert longest <= 60, f"page {page.number}: a table row of {longest} words"
    assert failing("pdfplumber/la-precinct-bulletin-2014-p1.pdf", 1, services) == []
    assert read_file(CORPUS / "pdfplumber/la-precinct-bulletin-2014-p1.pdf", services=services).pages[0].tables


def test_titles_drawn_as_outlines_are_read_by_ocr(services):
    """An annual report's cover draws its logo's slogan as outlines, set in small print under a rule;
    local OCR reads it into the visual block. Its title, set in a font that declares a deep descent,
    stays a line of its own, not mixed with the lines under it."""
    page = read_file(CORPUS / "unstructured/reliance.pdf", 1, 1, services=services).pages[0]
    assert "# We Care" in page.text.splitlines()
    assert failing("unstructured/reliance.pdf", 1, services, ("order",)) == []
    assert [figure.kind for figure in page.figures].count("drawn text") == 2  # the logo; the cover's icons
    assert_says(page.description, "Reliance", "Industries Limited", "Growth is Life")
