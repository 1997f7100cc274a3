"""Structure a model can follow, in Word documents and PowerPoint decks: each piece in place, once,
and on the page a person sees it on."""

from __future__ import annotations

import pytest

from readers import read_file
from readers.markup.markdown import counter
from readers.render.libreoffice import soffice
from readers.render.placement import letters
from readers.services import Services
from readers.storage.files import OFFICE_PDF
from testkit import CORPUS, fixtures, make_settings

needs_office = pytest.mark.skipif(soffice() is None, reason="needs LibreOffice (make setup installs it)")


@pytest.fixture(scope="module")
def services(tmp_path_factory) -> Services:
    return Services(make_settings(tmp_path_factory.mktemp("cache")))


@pytest.fixture(scope="module")
def structured(tmp_path_factory):
    return fixtures.structured_word_document(tmp_path_factory.mktemp("docx") / "structured.docx")


def test_word_lists_keep_their_nesting_and_numbers(structured, services):
    text = read_file(structured, 1, 1, services=services).pages[0].text
    assert (
        "1. Grow sales\n   a) Open two offices\n      i. Berlin\n      ii. Lisbon\n   b) Hire a team\n2. Cut costs"
        in text
    )
    assert "- Currency\n   - Euro exposure\n- Supply" in text


def test_word_table_words_appear_once_and_merged_cells_in_every_cell_they_span(structured, services):
    text = read_file(structured, services=services).as_text()
    assert text.count("South and West") == 2 and text.count("First half") == 2 and text.count("1,300") == 1
    assert (
        "| Region | First half | First half |\n|---|---|---|\n| North | 1,200 | 1,300 "
        "|\n| South and West | 950 | 990 |\n| South and West | 700 | 720 |"
    ) in text


def test_word_headers_and_footers_are_each_pages_furniture_and_notes_once(structured, services):
    reading = read_file(structured, services=services)
    text = reading.as_text()
    assert reading.page_count == 7
    assert "ACME Corp" not in text and "Quarterly report, page" not in text  # round the text, not in it
    assert [page.furniture for page in reading.pages] == [["ACME Corp — Confidential", "Quarterly report, page"]] * 7
    first = reading.pages[0].text
    assert first.startswith("# Quarterly report")
    assert first.index("[^2]: Rounded") > first.index("| South and West")  # footnotes at the foot of their page
    assert reading.pages[-1].text == "[^e1]: Figures are unaudited."


def test_word_tracked_changes_read_as_accepted_with_a_warning(structured, services):
    reading = read_file(structured, services=services)
    text = reading.as_text()
    assert "Hiring resumes in April for engineering. Moved sentence here." in text and "next year" not in text
    assert text.count("Moved sentence here.") == 1
    assert any("tracked changes" in warning and "accepted" in warning for warning in reading.warnings)


@needs_office
def test_word_blocks_stand_on_the_page_the_render_shows(structured, services):
    """Every "Outlook paragraph N" is on the page whose rendered text holds it: the render is the truth."""
    import pypdfium2 as pdfium

    reading = read_file(structured, services=services)
    pdf = pdfium.PdfDocument(str(services.store.path(reading.sha256, OFFICE_PDF)))
    rendered = [letters(page.get_textpage().get_text_range()) for page in pdf]
    checked = 0
    for page in reading.pages:
        for line in page.text.splitlines():
            if line.startswith("Outlook paragraph "):
                marker = letters(line.split(":")[0] + ":the team")
                assert marker in rendered[page.number - 1], f"{line[:22]} is not on page {page.number}"
                checked += 1
    assert checked == 40


def test_word_structure_without_libreoffice_is_one_page(structured, tmp_path, monkeypatch):
    from readers.render import libreoffice as office

    monkeypatch.setattr(office, "soffice", lambda: None)
    reading = read_file(structured, services=Services(make_settings(tmp_path / "cache")))
    text = reading.pages[0].text
    assert reading.page_count == 1 and reading.pages[0].image is None
    assert text.startswith("# Quarterly report")
    assert reading.pages[0].furniture == ["ACME Corp — Confidential", "Quarterly report, page"]
    assert (
        "   a) Open two offices" in text
        and "[^e1]: Figures are unaudited." in text
        and "[Picture: The Python logo]" in text
    )


def test_word_text_boxes_once_after_their_anchor(structured, services):
    text = read_file(structured, 1, 1, services=services).pages[0].text
    assert (
        "Risks to watch:\n\nSidebar: two new offices open in spring.\n\n- Currency" in text
    )  # DrawingML, not its VML copy too
    assert (
        text.count("Sidebar") == 1
        and "The text box beside this paragraph holds a quote.\n\nBoxed quote: growth is steady." in text
    )


def test_word_picture_in_a_text_box_once_with_its_alt_text(tmp_path, monkeypatch):
    """A text box's pictures and nested boxes are the box's: read once, in the box, not again
    on the anchor paragraph (without the picture's alt text) nor counted twice for placement."""
    import docx

    from readers.office.word.walker import document_blocks
    from readers.render import libreoffice as office

    monkeypatch.setattr(office, "soffice", lambda: None)
    path = fixtures.boxed_picture_document(tmp_path / "boxed.docx")
    text = read_file(path, services=Services(make_settings(tmp_path / "cache"))).pages[0].text
    assert text == (
        "The box beside this paragraph holds a picture.\n\nBox title\n\n[Picture: "
        "The logo in the box]\n\nInner box words\n\n"
        "An old-style box follows.\n\nOld box title\n\nOld inner words"
    )
    assert sum(block.pictures for block in document_blocks(docx.Document(str(path))).blocks) == 1


def test_word_field_results_not_codes(services):
    text = read_file(CORPUS / "docling/word_sample.docx", services=services).as_text()
    assert "Figure 1: This is a cute duckling" in text and "SEQ" not in text and "ARABIC" not in text


@pytest.fixture(scope="module")
def deck(tmp_path_factory):
    return fixtures.structured_deck(tmp_path_factory.mktemp("pptx") / "structured.pptx")


def test_word_parts_are_read_each_as_its_own_story(tmp_path, monkeypatch):
    """A footer's unended field does not hide the body; a footnote's link is looked up in the
    footnotes part; a list override past Word's nine levels costs nothing."""
    from readers.render import libreoffice as office

    monkeypatch.setattr(office, "soffice", lambda: None)
    reading = read_file(
        fixtures.odd_parts_document(tmp_path / "odd.docx"), services=Services(make_settings(tmp_path / "cache"))
    )
    assert reading.pages[0].text == (
        "Revenue rose[^1]\n\n1. First step\n2. Second step\n\n"
        "[^1]: [Rounded per policy.](https://policy.example.org/rounding)"
    )
    assert reading.pages[0].furniture == ["Page"]


ADA = '> **Comment** by Ada Lovelace on "in March": Which meeting was this?'
GRACE = '> **Comment** by Grace Hopper on "in April": Only for engineering.'
ALAN = '> **Comment** by Alan Turing on "in spring": Berlin first.'


def test_word_comments_without_paragraph_ids_each_stand_alone(tmp_path, services):
    """LibreOffice and Word before 2013 write no w14:paraId and no commentsExtended: no comment is
    a reply, so none is hidden under another."""
    text = read_file(fixtures.commented_document(tmp_path / "plain.docx"), services=services).pages[0].text
    assert text == (
        f"The budget was approved in March.\n\n{ADA}\n\nHiring resumes "
        f"in April.\n\n{GRACE}\n\nOffices open in spring.\n\n{ALAN}"
    )


@needs_office
def test_word_comments_survive_a_real_libreoffice_save(tmp_path, services):
    saved = fixtures.libreoffice_copy(
        fixtures.commented_document(tmp_path / "word.docx"), tmp_path / "libreoffice.docx", "docx:MS Word 2007 XML"
    )
    text = read_file(saved, services=services).pages[0].text
    assert all(comment in text for comment in (ADA, GRACE, ALAN)), text


def test_word_comment_threads_follow_only_real_paragraph_ids(tmp_path, services):
    """A reply to a reply joins its thread; a parent no comment has, or a loop, leaves a plain comment."""
    reply = "> **Reply** by {}: {}"
    threaded = (
        read_file(
            fixtures.commented_document(tmp_path / "threads.docx", {1: "00000000", 2: "00000001"}), services=services
        )
        .pages[0]
        .text
    )
    assert threaded == (
        f"The budget was approved in March.\n\n{ADA}\n\n{reply.format('Grace Hopper', 'Only for engineering.')}\n\n"
        f"{reply.format('Alan Turing', 'Berlin first.')}\n\nHiring resumes in April.\n\nOffices open in spring."
    )
    orphans = (
        read_file(
            fixtures.commented_document(tmp_path / "orphans.docx", {0: "0000000F", 1: "00000002", 2: "00000001"}),
            services=services,
        )
        .pages[0]
        .text
    )
    assert orphans == (
        f"The budget was approved in March.\n\n{ADA}\n\nHiring resumes "
        f"in April.\n\n{GRACE}\n\nOffices open in spring.\n\n{ALAN}"
    )


def test_deck_lists_keep_levels_bullets_and_numbers(deck, services):
    text = read_file(deck, 1, 1, services=services).pages[0].text
    assert text.startswith(
        "# Agenda\n\n- Results\n   - Revenue\n      - By region\n   - Costs\n- Plans\n\na) Hire\nb) Train\nc) Ship"
    )  # each item a block, the shape's box its box; a list in the next shape stands apart from the one before


def test_deck_chart_python_pptx_refuses_is_read_from_its_xml(deck, services):
    from pptx import Presentation

    chart = next(shape for shape in Presentation(deck).slides[2].shapes if shape.has_chart).chart
    with pytest.raises(ValueError, match="unsupported plot type"):
        chart.plots[0]
    text = read_file(deck, 3, 3, services=services).pages[0].text
    assert (
        "Chart: Revenue by region (3-D bar chart)\n\n|  | 2025 | 2026 |\n|---|---|---|\n| North | 1200 | 1300 |" in text
    )


def test_deck_smartart_groups_and_merged_cells(deck, services):
    reading = read_file(deck, services=services)
    assert "Diagram: Process diagram\n- Plan\n   - Research\n   - Draft\n- Ship" in reading.pages[4].text
    assert reading.pages[3].text == (
        "# Teams\n\nSales team in Lisbon\n\nSupport team in Berlin\n\n"
        "> **Comment** by Ada Lovelace: Are both teams hired yet?\n\n> "
        "**Reply** by Grace Hopper: Both teams start in May."
    )
    merged = "| Item | Cost | Cost |\n|---|---|---|\n| Servers | 4,000 | 5,000 |\n| Servers | 900 | 950 |"
    assert merged in reading.pages[1].text
    assert reading.pages[1].tables == [merged] and reading.pages[1].text.count(merged) == 1  # in the text, once
    cells = next(block for block in reading.pages[1].blocks if block.kind == "table").rows
    assert [(cell.text, cell.row_span) for cell in [row[0] for row in cells]] == [
        ("Item", 1),
        ("Servers", 2),
        ("900", 1),
    ]


def test_deck_slide_whose_layout_is_damaged_is_still_read_and_list_levels_are_bounded(tmp_path, monkeypatch):
    """The package check leaves a damaged layout out; its slide is read without it. A paragraph
    level of 99,999 is PowerPoint's deepest, not a 300 KB indent."""
    import zipfile

    from pptx import Presentation

    from readers.render import libreoffice as office

    monkeypatch.setattr(office, "soffice", lambda: None)
    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[1])
    slide.shapes.title.text = "Plan"
    body = slide.placeholders[1].text_frame
    body.text = "Hire"
    body.add_paragraph().text = "Deep item"
    body.paragraphs[1]._p.get_or_add_pPr().set("lvl", "99999")
    whole = tmp_path / "whole.pptx"
    deck.save(whole)
    damaged = tmp_path / "damaged.pptx"
    with zipfile.ZipFile(whole) as source, zipfile.ZipFile(damaged, "w") as target:
        for item in source.infolist():
            data = source.read(item)
            target.writestr(item, data[:100] if item.filename == "ppt/slideLayouts/slideLayout2.xml" else data)
    reading = read_file(damaged, services=Services(make_settings(tmp_path / "cache")))
    text = reading.pages[0].text
    assert text.startswith("# Plan\n\nHire") and "Deep item" in text and len(text) < 200
    assert any("slideLayout2.xml" in warning for warning in reading.warnings)


def test_deck_a_broken_shape_costs_only_that_shape(services, tmp_path):
    """A chart whose part is gone is named with a note; the slide's other shapes still read."""
    from pptx import Presentation

    source = fixtures.structured_deck(tmp_path / "deck.pptx")
    deck = Presentation(source)
    slide = deck.slides[2]
    frame = next(shape for shape in slide.shapes if shape.has_chart)
    reference = frame._element.find(".//{http://schemas.openxmlformats.org/drawingml/2006/chart}chart")
    reference.set("{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id", "rId999")
    deck.save(tmp_path / "broken.pptx")
    text = read_file(tmp_path / "broken.pptx", 3, 3, services=services).pages[0].text
    assert text.startswith("# Growth\n\n[Chart “Chart ") and "its data could not be read" in text


def test_deck_corpus_shapes_python_pptx_cannot_type_still_read(services):
    reading = read_file(CORPUS / "docling/formats/powerpoint_unrecognized_shape.pptx", services=services)
    assert (
        "Text in an unrecognized shape" in reading.pages[1].text
        and "Monthly active users: 4.2M" in reading.pages[1].text
    )
    sample = read_file(CORPUS / "docling/powerpoint_sample.pptx", services=services).as_text()
    assert sample.count("A merged with B") == 2 and sample.count("Class1") == 3  # in every cell they span


@needs_office
def test_word_placement_on_a_document_made_to_mislead_it(tmp_path):
    """Repeated sentences, headers with the body's words, footnotes, text boxes, tracked deletions,
    recomputed fields and tables over page breaks: each block still lands where the render shows it
    (the markers that say where are hidden from the placement, as in bench_placement)."""
    from testkit.placement import measure

    starts, ends = measure(fixtures.placement_document(tmp_path / "placement.docx", 160), tmp_path)
    for row in (starts, ends):
        right, checked = map(int, row[3].split(" ")[0].split("/"))
        assert checked >= 40 and right >= checked - 2, row


@needs_office
def test_word_paragraph_over_a_page_break_is_cut_where_the_page_breaks(services):
    reading = read_file(CORPUS / "markitdown/test.docx", services=services)
    first, second = reading.pages[0].text, reading.pages[1].text
    assert first.endswith(
        "There are at least three reasons confirming its general feasibility and utility thanks to recent"
    )
    assert second.startswith("advances in LLMs: First, because chat optimized LLMs")
    assert reading.as_text().count("advances in LLMs: First") == 1


def _replace_part(source, target, name: str, data: bytes):
    import zipfile

    with zipfile.ZipFile(source) as old, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as new:
        for item in old.infolist():
            new.writestr(item, data if item.filename == name else old.read(item.filename))
    return target


def test_a_damaged_part_costs_only_what_it_holds(structured, deck, services, tmp_path):
    document = _replace_part(structured, tmp_path / "notes-broken.docx", "word/footnotes.xml", b"<w:footnotes><broken")
    reading = read_file(document, services=services)
    assert "Revenue grew in every region[^1]" in reading.as_text() and "[^1]:" not in reading.as_text()
    assert any("footnotes.xml" in warning and "damaged" in warning for warning in reading.warnings)
    slides = _replace_part(
        CORPUS / "docling/formats/powerpoint_comments.pptx",
        tmp_path / "comments-broken.pptx",
        "ppt/comments/comment1.xml",
        b"<p:cmLst",
    )
    reading = read_file(slides, 1, 1, services=services)
    assert reading.pages[0].text.startswith("# Test Slide With Comments\n\nDocling converts")
    assert any(
        "comment1.xml" in warning and "damaged" in warning for warning in reading.warnings
    )  # cut before its namespace: nothing of it is left


def test_deck_video_is_named_as_a_video(tmp_path, monkeypatch):
    from pptx import Presentation
    from pptx.util import Inches

    from readers.render import libreoffice as office

    monkeypatch.setattr(office, "soffice", lambda: None)  # the words are the deck's: no render needed
    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[6])
    movie = slide.shapes.add_movie(
        str(CORPUS / "faster-whisper/jfk.flac"),
        Inches(1),
        Inches(1),
        Inches(4),
        Inches(3),
        mime_type="video/mp4",
        poster_frame_image=str(CORPUS / "python-docx/images/python-icon.jpeg"),
    )
    movie._element.nvPicPr.cNvPr.set("descr", "Launch video")
    deck.save(tmp_path / "video.pptx")
    text = read_file(tmp_path / "video.pptx", services=Services(make_settings(tmp_path / "cache"))).pages[0].text
    assert text == "[Video: Launch video]"


def test_word_numbers_as_word_shows_them(tmp_path, monkeypatch):
    """Numbered headings (1, 1.1), a list restarted by its own numbering instance, roman and
    zero-padded formats, and a paragraph whose numbering is switched off (numId 0)."""
    import docx
    from docx.oxml import parse_xml

    from readers.render import libreoffice as office

    monkeypatch.setattr(office, "soffice", lambda: None)
    document = docx.Document()
    numbering = document.part.numbering_part.element
    w = fixtures.W_NS
    levels = (("decimal", "%1"), ("decimal", "%1.%2"), ("upperRoman", "%3."), ("decimalZero", "(%4)"))
    numbering.insert(
        0,
        parse_xml(
            f'<w:abstractNum {w} w:abstractNumId="80">'
            + "".join(
                f'<w:lvl w:ilvl="{i}"><w:start w:val="1"/><w:numFmt w:val="{fmt}"/><w:lvlText w:val="{text}"/></w:lvl>'
                for i, (fmt, text) in enumerate(levels)
            )
            + "</w:abstractNum>"
        ),
    )
    numbering.append(parse_xml(f'<w:num {w} w:numId="80"><w:abstractNumId w:val="80"/></w:num>'))
    numbering.append(
        parse_xml(
            f'<w:num {w} w:numId="81"><w:abstractNumId w:val="80"/><w:lvlOverride '
            'w:ilvl="2"><w:startOverride w:val="1"/></w:lvlOverride></w:num>'
        )
    )

    def numbered(text: str, num_id: str, level: int, style: str | None = None):
        paragraph = document.add_paragraph(text, style=style)
        paragraph._p.get_or_add_pPr().append(
            parse_xml(f'<w:numPr {w}><w:ilvl w:val="{level}"/><w:numId w:val="{num_id}"/></w:numPr>')
        )

    numbered("Introduction", "80", 0, "Heading 1")
    numbered("Scope", "80", 1, "Heading 2")
    numbered("First point", "80", 2)
    numbered("Second point", "80", 2)
    numbered("Detail", "80", 3)
    numbered("Again from one", "81", 2)
    numbered("Not numbered", "0", 0)
    numbered("Method", "80", 0, "Heading 1")
    document.save(tmp_path / "numbers.docx")
    text = read_file(tmp_path / "numbers.docx", services=Services(make_settings(tmp_path / "cache"))).pages[0].text
    assert text == (
        "# 1 Introduction\n\n## 1.1 Scope\n\n      I. First point\n      II. Second point\n         (01) Detail\n"
        "      I. Again from one\n\nNot numbered\n\n# 2 Method"
    )


def test_word_table_over_page_breaks_is_cut_between_rows_with_its_heading_row_again():
    from readers.markup.blocks import BlockKind, Cell
    from readers.office.word.blocks import Block
    from readers.office.word.pages import split_over_pages

    rows = [["Region", "Sales"], ["North", "12"], ["South", "34"], ["West", "56"]]
    table = Block(
        "(whole table)",
        "RegionSalesNorth12South34West56",
        BlockKind.TABLE,
        rows=rows,
        cells=[tuple(Cell(text) for text in row) for row in rows],
        row_letters=[11, 7, 7, 6],
        heading_rows=1,
        repeated="RegionSales",
    )
    pieces = split_over_pages(table, 3, [(18, 4), (25, 5)])  # North's row ends page 3, South's page 4
    assert [(block.markdown, page) for block, page in pieces] == [
        ("| Region | Sales |\n|---|---|\n| North | 12 |", 3),
        ("| Region | Sales |\n|---|---|\n| South | 34 |", 4),
        ("| Region | Sales |\n|---|---|\n| West | 56 |", 5),
    ]
    assert [[cell.text for cell in row] for row in pieces[1][0].cells] == [["Region", "Sales"], ["South", "34"]]


def test_list_numbers_past_what_office_counts_are_written_in_digits():
    assert counter(4, "lowerRoman") == "iv" and counter(28, "upperLetter") == "BB"
    assert counter(2_000_000_000, "upperRoman") == "2000000000"  # not two million M's
    assert counter(10**20, "lowerLetter") == str(10**20)
