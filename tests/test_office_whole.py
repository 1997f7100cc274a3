"""Word, PowerPoint and Excel files read whole (issue 31), each defect on docling's real test file
(``tests/corpus/docling/formats``; docling's ground truth says what the file holds)."""

from __future__ import annotations

import io
import re
import struct
import zipfile

import pytest
from PIL import Image

from readers import ReaderError, Services, read_file
from readers.intake.strict import transitional
from readers.office.metafiles import emf_bitmap
from testkit import CORPUS, fixtures, make_settings
from tests.model_output import assert_says

FORMATS = CORPUS / "docling/formats"


def test_strict_ooxml_reads_like_transitional(shared_services):
    reading = read_file(FORMATS / "Strict.docx", services=shared_services)
    assert reading.kind == "docx"
    assert [page.text for page in reading.pages] == ["Some text"]
    assert not reading.warnings  # renamed, not repaired: nothing is damaged


def test_strict_document_properties_get_their_hyphenated_transitional_names():
    with zipfile.ZipFile(FORMATS / "Strict.docx") as package:
        relationships = transitional(package.read("_rels/.rels"))
    assert b"purl.oclc.org" not in relationships
    assert b"/officeDocument/2006/relationships/extended-properties" in relationships
    assert b"/officeDocument/2006/relationships/officeDocument" in relationships


def test_word_first_page_header_and_footer_on_the_first_page_only(shared_services):
    reading = read_file(FORMATS / "docx_page_header_footer_first_page.docx", services=shared_services)
    assert [page.furniture for page in reading.pages] == [
        ["FIRST PAGE HEADER (page 1 only)", "FIRST PAGE FOOTER (page 1 only)"],
        ["REGULAR HEADER (page 2 onward)", "REGULAR FOOTER (page 2 onward)"],
    ]
    assert "HEADER" not in reading.as_text() and "FOOTER" not in reading.as_text()
    assert reading.pages[1].text == "## Page 2\n\nThis is body text on page 2."


def test_word_furniture_follows_sections_first_pages_and_even_pages():
    """A section starting a page brings its first-page lines there; one starting within a page
    (a continuous break) has its lines from the next page on; even pages use the even ones."""
    from readers.office.word.blocks import Block, Margins
    from readers.office.word.pages import furniture

    one = Margins({"default": "One", "even": "One even", "first": "One title"}, {}, True)
    two = Margins({"default": "Two", "even": "Two even", "first": "Two title"}, {"default": "Foot"}, False)
    on_page = {1: [Block("a", margins=one)], 2: [Block("b")], 3: [Block("c"), Block("d", margins=two)], 4: []}
    assert furniture(on_page, 4, even_and_odd=True) == {1: ["One title"], 2: ["One even"], 3: ["One"], 4: ["Two even"]}
    assert furniture(on_page, 4, even_and_odd=False)[4] == ["Two", "Foot"]


def test_word_equations_are_latex_inline_and_displayed(shared_services):
    text = read_file(FORMATS / "equations.docx", services=shared_services).as_text()
    assert "this is an inline equation: $A=\\pi r^{2}$." in text
    assert "- Second item with equations: $E=mc^{2}$ and $F=ma$ are physics formulas." in text
    assert "\n$$\\left(1+x\\right)^{n}=1+\\frac{nx}{1!}+\\frac{n\\left(n-1\\right)x^{2}}{2!}+\\ldots$$\n" in text
    assert "\n$$\\bigcup_{n=1}^{m} \\left(X_{n}\\cap Y_{n}\\right)$$\n" in text
    assert "$$\\oint\\frac{dy}{dx}$$" in text and "\\underbrace{S\\cdot T\\cdot G\\cdot(x+y+z)}" in text


def test_word_equation_in_a_table_cell_stays_inline(shared_services):
    text = read_file(FORMATS / "table_with_equations.docx", services=shared_services).as_text()
    assert "| The next cell has another equation | $x=\\frac{-b\\pm\\sqrt{b^{2}-4ac}}{2a}$ |" in text


def test_word_equations_group_a_fraction_base_and_stand_apart_in_one_paragraph(shared_services):
    fraction = read_file(FORMATS / "omml_frac_superscript.docx", services=shared_services).as_text()
    assert fraction.endswith("\n\n$${\\frac{(x-c)}{v}}^{2}$$")
    three = read_file(FORMATS / "omml_multi_equation_paragraph.docx", services=shared_services).as_text()
    assert three.endswith("\n\n$$a=b$$\n\n$$c=d$$\n\n$$e=f$$")


def test_word_one_cell_table_is_a_box_its_content_stands_as_it_is(shared_services):
    text = read_file(FORMATS / "tablecell.docx", services=shared_services).as_text()
    assert "[PAGE 1]\n- Hello world1\n- Hello2\n\nSome text before\n\n" in text
    assert "\n\n| Tab1 | Tab2 | Tab3 |\n|---|---|---|\n| A | B | C |\n| D | E | F |\n\nSome text after" in text


def test_word_nested_tables_follow_their_table_marked_in_their_cells(shared_services):
    text = read_file(FORMATS / "docx_rich_cells.docx", services=shared_services).as_text()
    row = "| [table 1, below] | Rich cell<br>A nested table<br>[table 2, below] |"
    one = "Table 1, in the table above:\n\n| A | B | C |\n|---|---|---|\n| *Cell 1* | Cell 2 | **Cell 3** |"
    two = "Table 2, in the table above:\n\n| A | B | C |\n|---|---|---|\n| Cell 1 | ***Cell 2*** | Cell 3 |"
    assert f"{row}\n\n{one}\n\n{two}\n\nAfter table" in text


def test_word_bold_italic_raised_and_lowered_runs_keep_their_look(shared_services):
    pages = read_file(FORMATS / "unit_test_formatting.docx", services=shared_services).pages
    assert pages[0].text.startswith("*italic*\n\n**bold**\n\nunderline\n\n")
    assert "\n\n[***italic and bold hyperlink***](https://github.com/DS4SD/docling)\n\n" in pages[0].text
    assert "- Some *italic* **bold** underline\n   - Nested *italic* **bold**" in pages[0].text
    rich = read_file(FORMATS / "docx_rich_cells.docx", services=shared_services).as_text()
    formatted = "This is simple text with **bold**, strikethrough and *italic* formatting"
    assert f"| {formatted} with x<sup>2</sup> and H<sub>2</sub>O |" in rich


def test_emphasis_joins_runs_alike_and_keeps_spaces_outside_its_marks():
    from readers.office.word.inline import EMPHASIS, EMPHASIS_END, emphasised

    def run(kind, words):
        return f"{EMPHASIS}{kind}{words}{EMPHASIS_END}"

    markdown = "Say " + run("b", "very ") + run("b", "loud") + " " + run("b", "words") + ", " + run("i", " soft ") + "!"
    assert emphasised(markdown) == "Say **very loud words**,  *soft* !"
    assert emphasised(markdown, shown=False) == "Say very loud words,  soft !"


def test_sheet_comments_are_read_notes_and_threads_with_their_authors(shared_services):
    text = read_file(FORMATS / "xlsx_comments.xlsx", services=shared_services).pages[0].text
    comments = [
        ("John Reviewer", 'A1 ("Python is great")', "Why Python specifically?"),
        ("Jane Editor", 'B2 ("Machine learning libraries")', "Which libraries are you referring to?"),
        ("Jane Smith (JS)", 'F7 ("80")', "Minimum number of saltwater ducks"),
        ("Jane Smith (JS)", 'G12 ("310")', "Maximum number of ducks"),
    ]
    lines = [f"> **Comment** by {author} on {cell}: {words}" for author, cell, words in comments]
    lines.insert(3, "> **Reply** by Marcus Sterling (MS): I never thought it would be so low")
    assert text.endswith("\n\n".join(lines))
    assert "Threaded comment" not in text and "tc={" not in text


def test_slide_boxes_side_by_side_read_left_to_right(shared_services):
    """powerpoint_sample slide 3: five text boxes in a row, the rightmost starting as high as the
    first; it is read last, not second."""
    text = read_file(CORPUS / "docling/powerpoint_sample.pptx", 3, 3, services=shared_services).pages[0].text
    firsts = ["1. List item4", "- I1", "Some info:", "Maybe a list?", "- l1"]
    assert [text.index(first) for first in firsts] == sorted(text.index(first) for first in firsts)


def test_slide_table_merged_cells_repeated_in_every_cell_they_span(shared_services):
    text = read_file(CORPUS / "docling/powerpoint_sample.pptx", 1, 1, services=shared_services).pages[0].text
    assert "|  | Class1 | Class1 | Class1 | Class2 | Class2 | Class2 |" in text
    assert "| R3 | False |  |  |  | False |  |\n| R3 |  | True |  | True |  |  |\n| R4 |" in text
    assert text.count("| R4 |") == 3


def test_word_table_borders_are_no_drawing(shared_services):
    """A document that draws no shape, chart or diagram has no vector drawing on its pages: the
    render's rules round tablecell.docx's tables are borders, not a figure to describe."""
    reading = read_file(FORMATS / "tablecell.docx", services=shared_services)
    assert reading.pages[0].figures == [] and "VISUAL CONTENT" not in reading.as_text()


def test_word_merged_cells_fill_every_cell_they_span(shared_services):
    text = read_file(FORMATS / "word_tables.docx", services=shared_services).as_text()
    assert "| Cell 1.0 | Merged Cell 1.1 1.2 | Merged Cell 1.1 1.2 | Cell 1.3 |" in text
    assert (
        "| Cell 1.0 | Merged Cell 1.1 2.1 | Cell 1.2 |\n| Cell 2.0 | Merged Cell 1.1 2.1 | Cell 2.2 |\n"
        "| Cell 3.0 | Merged Cell 3.1 4.1 | Cell 3.2 |\n| Cell 4.0 | Merged Cell 3.1 4.1 | Cell 4.2 |"
    ) in text
    down = "| Cell 4.0 | Merged Cell 3.1 4.1 | Cell 4.2 |  | Merged Cell 4.4 5.4 |\n|  |  |  |  | Merged Cell 4.4 5.4 |"
    assert down in text


def test_sheet_tables_side_by_side_are_two_tables(shared_services):
    """xlsx_01 sheet 2: a table in A–D and one in G–I (rows 4–8), two empty columns apart."""
    page = read_file(FORMATS / "xlsx_01.xlsx", 2, 2, services=shared_services).pages[0]
    left = "| col-1 | col-2 | col-3 | col-4 |\n|---|---|---|---|\n| 1 | 2 | 3 | 4 |"
    right = "| col-1 | col-2 | col-3 |\n|---|---|---|\n| 1 | 2 | 3 |\n| 2 | 4 | 6 |\n| 3 | 6 | 9 |\n| 4 | 8 | 12 |"
    assert page.tables[0].startswith(left) and page.tables[0].endswith("| 8 | 16 | 24 | 32 |")
    assert page.tables[1] == right


def test_sheet_tables_touching_at_a_corner_one_empty_column_apart_are_two_tables(shared_services):
    """xlsx_01 sheet 3: a table in A1:C7 and another in E7:G13; column D is empty and they share
    only row 7, so they are two tables, not one seven columns wide."""
    page = read_file(FORMATS / "xlsx_01.xlsx", 3, 3, services=shared_services).pages[0]
    assert [table.splitlines()[0] for table in page.tables] == [
        "| first | header | header |",
        "| first (f) | header (f) | header (f) |",
    ]
    assert page.tables[0].endswith("| 10 | 9 | 9 |") and page.tables[1].endswith("| 10 | 9 | 9 |")


def test_sheet_with_a_spacer_column_stays_one_table_its_labels_and_numbering_in_place(shared_services):
    """xlsx_07: columns B and D are empty spacers; each item's number, label, unit and value stay
    in one row. The numbers show as Excel shows them in the format \\1\\.0# ("1.01"), and the section
    label above the table is read before it."""
    text = read_file(FORMATS / "xlsx_07_gap_tolerance_.xlsx", services=shared_services).pages[0].text
    assert "| 1.01 |  | Rated system voltage |  | kV | : | 130 (131 Um, 132 AC, 133 BIL) |  |" in text
    assert "| 1.14 |  | Arc testing |  | Yes/no | : | Yes | Note 2 |" in text
    assert text.index("Functional requirements") < text.index("Power system") < text.index("| 1.01 |")


def test_sheet_labels_set_diagonally_are_lines_and_comments_follow_the_tables(shared_services):
    """xlsx_comments: A1 and B2 hold a label each (two lines, not one run together); the comments
    come after the table they are on, each naming its cell."""
    text = read_file(FORMATS / "xlsx_comments.xlsx", services=shared_services).pages[0].text
    assert text.startswith("# Sheet1\n\nPython is great\n\nMachine learning libraries\n\n| Year |")
    assert text.index("| 2024 | 180 | 130 | 310 |") < text.index("> **Comment** by John Reviewer on A1")


def test_word_document_without_a_body_is_corrupt(tmp_path, services):
    """A damaged main part whose w:body is gone (found by tests/fuzz.py) is refused, not a TypeError."""
    damaged = tmp_path / "bodiless.docx"
    with zipfile.ZipFile(FORMATS / "unit_test_formatting.docx") as source, zipfile.ZipFile(damaged, "w") as target:
        for info in source.infolist():
            data = source.read(info)
            if info.filename == "word/document.xml":
                data = re.sub(rb"<w:body>.*</w:body>", b"", data, flags=re.S)
            target.writestr(info, data)
    with pytest.raises(ReaderError) as error:
        read_file(damaged, services=services)
    assert error.value.code == "CORRUPT_FILE" and "no document left in it" in error.value.message


def test_word_pictures_in_a_group_each_read_apart_from_the_words(shared_services):
    text = read_file(FORMATS / "docx_grouped_images.docx", services=shared_services).pages[0].text
    assert (
        "[Picture: A cartoon duck holding a paper] [Picture: Docling] "
        "There are 2 pictures grouped together\n\n[Picture: Docling Java] [Picture: Docling] There are 2" in text
    )


def test_strict_workbook_reads_like_transitional(shared_services):
    """A Strict OOXML workbook from another project's tests: its cells and its comment."""
    page = read_file(CORPUS / "excel-streaming-reader/numbers.strict.xlsx", 1, 1, services=shared_services).pages[0]
    assert '> **Comment** by Person1 on B1 ("Irish"): Gaeilge' in page.text
    assert "| 3 | trí | तीन (tīn) |" in page.tables[0]


def test_deck_whose_slide_lost_its_content_type_is_corrupt(tmp_path, services):
    """A slide part the content types no longer name (a truncated [Content_Types].xml, found by
    tests/fuzz.py) is no slide to python-pptx: the deck is refused with a sentence, not an AttributeError."""
    damaged = tmp_path / "untyped.pptx"
    with zipfile.ZipFile(CORPUS / "python-pptx/tbl-cell.pptx") as source, zipfile.ZipFile(damaged, "w") as target:
        for info in source.infolist():
            data = source.read(info)
            if info.filename == "[Content_Types].xml":
                data = re.sub(rb'<Override PartName="/ppt/slides/slide1.xml"[^>]*/>', b"", data)
            target.writestr(info, data)
    with pytest.raises(ReaderError) as error:
        read_file(damaged, services=services)
    assert error.value.code == "CORRUPT_FILE"
    assert "cannot be opened as a PowerPoint deck (AttributeError)" in error.value.message


def test_word_and_slide_pictures_marked_in_the_text_are_not_named_again(tmp_path):
    """Word and PowerPoint mark each picture where it stands (``[Picture: alt text]``): a picture OCR finds
    no text in, or a drawing whose labels the text holds, gets no VISUAL CONTENT line of its own; a
    picture with words in it still gives them."""
    ocr = Services(make_settings(tmp_path, vision_provider="ocr"))
    emf = read_file(FORMATS / "test_emf_docx.docx", services=ocr)
    assert len(emf.pages[0].figures) == 3 and emf.pages[0].text.count("[Picture") == 3
    assert "VISUAL CONTENT" not in emf.as_text() and "no text found" not in emf.as_text()
    drawings = read_file(FORMATS / "drawingml.docx", services=ocr)
    visual = drawings.pages[0].description
    assert visual.startswith("Figure 3 (picture, bottom of the page), text found in it by OCR:\n")
    assert_says(visual, "Torque", "Speed Curve") and "page's text" not in visual
    deck = read_file(FORMATS / "powerpoint_with_image.pptx", services=ocr)  # its second picture is linked to a file
    assert deck.pages[0].figures and "[Picture: A cartoon duck holding a paper — linked to file:, not loaded]" in (
        deck.as_text()
    )
    assert "VISUAL CONTENT" not in deck.as_text()


def test_word_check_boxes_are_ticked_or_not_and_lead_tasks(shared_services):
    """docx_checkboxes.docx: content-control check boxes, in table cells and leading paragraphs."""
    text = read_file(FORMATS / "docx_checkboxes.docx", services=shared_services).pages[0].text
    assert "| Choose as many as you like:<br>- [x] Orange juice<br>- [ ] Tea<br>- [x] Coffee<br>" in text
    assert "- [x] Design\n- [x] Implementation\n- [ ] Documentation of the task" in text
    assert "☒" not in text and "☐" not in text


def test_workbook_pictures_in_emf_are_figures_where_they_stand_and_read(tmp_path, recwarn):
    """xlsx_emf: a picture on each sheet, two EMFs (each one bitmap, as Office saves a pasted picture)
    and a WebP. openpyxl drops the EMF ones and prints a warning; each is its sheet's figure, OCR reads
    the bitmap each EMF is, and nothing is printed."""
    ocr = Services(make_settings(tmp_path, vision_provider="ocr"))
    reading = read_file(FORMATS / "xlsx_emf.xlsx", services=ocr)
    assert [[figure.kind for figure in page.figures] for page in reading.pages] == [["picture"]] * 3
    sizes = [Image.open(io.BytesIO(reading._found[number][0].image)).size for number in (1, 2, 3)]
    assert sizes == [(1024, 1024), (997, 1024), (400, 400)]
    places = [page.description.split(")")[0] for page in reading.pages]  # sheet 3's picture is on the left half
    assert places == ["Figure 1 (picture, middle of the page"] * 2 + ["Figure 1 (picture, middle left of the page"]
    assert not reading.warnings and not [str(warning.message) for warning in recwarn]


def _wider_frame(emf: bytes) -> bytes:
    """The EMF with the frame its header gives made twice as wide, so that its bitmap covers half of it."""
    left, top, right, bottom = struct.unpack_from("<4i", emf, 8)
    return emf[:8] + struct.pack("<4i", left, top, right + (right - left + 1), bottom) + emf[24:]


def test_an_emf_is_read_only_when_it_is_one_bitmap_over_its_frame():
    """``emf_bitmap``: the bitmap of xlsx_emf's first EMF as a BMP; nothing from an EMF cut short, or
    one whose bitmap covers less than its frame (the frame of the real one made twice as wide)."""
    emf = zipfile.ZipFile(FORMATS / "xlsx_emf.xlsx").read("xl/media/image1.emf")
    assert Image.open(io.BytesIO(emf_bitmap(emf))).size == (1024, 1024)
    assert emf_bitmap(emf[: len(emf) // 2]) is None
    assert emf_bitmap(_wider_frame(emf)) is None


def test_a_sheet_picture_that_cannot_be_read_is_still_its_figure_and_said_so(tmp_path):
    """xlsx_emf with its first EMF drawing more than its bitmap (its frame made twice as wide): the
    picture is still sheet 1's figure, and OCR says it could not read it, and why."""
    wider = _wider_frame(zipfile.ZipFile(FORMATS / "xlsx_emf.xlsx").read("xl/media/image1.emf"))
    book = fixtures.damaged_part(FORMATS / "xlsx_emf.xlsx", tmp_path / "wide.xlsx", "xl/media/image1.emf", wider)
    reading = read_file(book, 1, 1, services=Services(make_settings(tmp_path / "cache", vision_provider="ocr")))
    assert reading.pages[0].description == "Figure 1 (picture, middle of the page): local OCR could not read it."
    assert reading.warnings == [
        "wide.xlsx has 3 sheets; sheet 1 was read, not the others.",
        "Page 1 of wide.xlsx: Local OCR could not read figure 1 (RENDER_FAILED: its image (emf) cannot be read "
        "here (OSError)). The page's text and its other figures are kept.",
    ]


def _without_part(source, target, name: str):
    """The zip package ``source`` again as ``target``, without its part ``name`` (every other copied as is)."""
    with zipfile.ZipFile(source) as package, zipfile.ZipFile(target, "w") as copy:
        for info in package.infolist():
            if info.filename != name:
                copy.writestr(info, package.read(info))
    return target


def test_a_sheet_picture_whose_image_is_missing_costs_only_itself(tmp_path):
    """xlsx_emf without sheet 1's EMF: its picture is still sheet 1's figure, that says its image is
    missing; sheets 2 and 3 keep theirs, read as ever (openpyxl refuses the whole workbook for the
    picture, which once cost every sheet its pictures)."""
    book = _without_part(FORMATS / "xlsx_emf.xlsx", tmp_path / "missing.xlsx", "xl/media/image1.emf")
    reading = read_file(book, services=Services(make_settings(tmp_path / "cache", vision_provider="ocr")))
    assert [[figure.kind for figure in page.figures] for page in reading.pages] == [["picture"]] * 3
    assert [Image.open(io.BytesIO(reading._found[number][0].image)).size for number in (2, 3)] == [
        (997, 1024),
        (400, 400),
    ]
    assert reading.pages[0].description == "Figure 1 (picture, middle of the page): local OCR could not read it."
    assert reading.warnings == [
        "missing.xlsx is damaged in 1 part (xl/drawings/_rels/drawing1.xml.rels): what could still be read of it "
        "is shown, and the rest of the file is read as usual.",
        "Page 1 of missing.xlsx: Local OCR could not read figure 1 (RENDER_FAILED: its image is missing from the "
        "file). The page's text and its other figures are kept.",
    ]


def test_a_sheet_picture_whose_image_is_missing_leaves_the_charts(tmp_path, shared_services):
    """xlsx_01 without sheet 3's picture: sheet 2's two charts are its figures and its tables, as in
    the whole workbook, and sheet 3's picture is its figure still."""
    book = _without_part(FORMATS / "xlsx_01.xlsx", tmp_path / "missing.xlsx", "xl/media/image1.png")
    reading = read_file(book, services=Services(make_settings(tmp_path / "cache", vision_provider="ocr")))
    whole = read_file(FORMATS / "xlsx_01.xlsx", services=shared_services)
    assert reading.pages[1].text == whole.pages[1].text and "line, 1 series" in reading.pages[1].description
    assert [(f.kind, f.box) for f in reading.pages[1].figures] == [(f.kind, f.box) for f in whole.pages[1].figures]
    assert [(f.kind, f.box) for f in reading.pages[2].figures] == [(f.kind, f.box) for f in whole.pages[2].figures]
    assert reading._found[3][0].unreadable == "its image is missing from the file"
    assert not any("were left out" in warning for warning in reading.warnings)
