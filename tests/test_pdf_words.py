"""Words as the author typed them: hyphenation at line ends mended by the pages' own words and a
word list, ligatures expanded, soft hyphens and odd spaces made plain; lines in order on a small
page scanned askew; and, on real files, words as printed (``make bench words`` checks every page
against pdftotext): spaces drawn over other text, lines close together, a poor OCR layer, glyphs
no font maps."""

from __future__ import annotations

import pypdfium2 as pdfium

from readers import read_file
from readers.pdf.pdfium_text import pdfium_page
from readers.pdf.spelling import joined_words, word_list
from testkit import CORPUS
from testkit.fixtures import old_pages, typed_words


def test_words_read_as_the_author_typed_them(tmp_path, services):
    reading = read_file(typed_words.typeset_pdf(tmp_path / "typeset.pdf"), services=services)
    first, second = reading.pages
    assert first.text == "\n\n".join(typed_words.TYPED)
    assert second.text == typed_words.SECOND_PAGE
    for text in (first.text, reading.as_text()):
        assert not set(text) & set("\ufb00\ufb01\ufb02\ufb03\ufb04\u00ad\u00a0\u2009"), (
            "no ligature glyph, soft hyphen or odd space"
        )


def test_a_word_broken_at_a_line_end_is_mended_by_the_pages_read(tmp_path, services):
    """Read alone, page 1 has no "co-operation" of its own: the word list's "cooperation" joins it."""
    page = read_file(typed_words.typeset_pdf(tmp_path / "typeset.pdf"), 1, 1, services=services).pages[0]
    assert "a long cooperation\nthat made the work possible." in page.text
    assert "It is a well-known\nresult that the data-driven\n" in page.text, "hyphens that are the author's stay"


def test_the_word_list_comes_with_the_bundled_transcription_model():
    words = word_list()
    assert (
        len(words) > 15000 and {"responsibility", "cooperation", "known", "well"} <= words and "wellknown" not in words
    )


def test_a_small_page_scanned_askew_reads_line_by_line_in_order(tmp_path, services):
    """Lines that fall 2.5° across a pocket book's page run 12 points down, more than the space
    between two lines: read level, their words were shuffled with the next line's."""
    reading = read_file(old_pages.askew_pdf(tmp_path / "askew.pdf"), services=services)
    assert [page.text for page in reading.pages] == [
        "\n".join(old_pages.page_lines(page.number)) for page in reading.pages
    ]


def test_a_report_s_dates_are_read_as_printed(services):
    """Each date is drawn, then a run of spaces as padding that reaches over the next field: the
    spaces once parted every digit ("0 3 / 2 5 / 2 0 16")."""
    page = read_file(CORPUS / "pdfplumber" / "ca-warn-report.pdf", 1, 1, services=services).pages[0]
    assert "| 06/22/2015 | 03/25/2016 | 07/01/2015 | Maxim Integrated Product | San Jose | 150 |" in page.text
    assert "0 3 / 2 5" not in page.text and "2 0 15" not in page.text


def test_two_lines_set_close_are_never_read_letter_by_letter(services):
    """A form's small print, two lines 8 points apart beside boxes whose tops stand between them: the
    lines were read as one, letter by letter ("efafectiUve.Sly.")."""
    text = read_file(CORPUS / "pdfminer" / "f1040nr.pdf", 4, 4, services=services).pages[0].text
    assert "exchanges that are effectively" in text and "connected with a U.S." in text
    assert "efafecti" not in text


def test_two_lines_beside_a_page_number_set_across_both_are_two_lines(services):
    """The ECB working paper's footer: "Working Paper Series No 1299" over "Febuary 2011", the page number
    set large beside them, level with the first's top and the second's baseline; they were one line
    read letter by letter ("SeFreiebsu aNroy 21021919"), every word of both lost."""
    text = read_file(CORPUS / "icdar2013-eu/eu-026.pdf", 1, 1, services=services).pages[0].text
    assert text.endswith("Working Paper Series No 1299\nFebuary 2011 13")


def test_text_drawn_mirrored_reads_as_written(services):
    """pdfplumber's issue-848 pages, the same plot summary drawn mirrored left to right (page 2) and top
    to bottom (page 4): each line was read letter by letter down the page ("henwdh hReda t")."""
    path = CORPUS / "pdfplumber/issue-848.pdf"
    mirrored, flipped = (read_file(path, number, number, services=services).pages[0].text for number in (2, 4))
    assert mirrored.startswith("The movie opens with a news report advertising the way of life in this future")
    assert "the next day and admonishes them harshly about striking." in flipped
    assert "henwdh" not in flipped


def test_a_letter_of_the_symbol_font_is_its_greek_letter(services):
    """A chi-square test's χ, set in the Symbol font (not embedded, its encoding its own): pdfminer reads
    it as "c", pdfium as it is printed."""
    text = read_file(CORPUS / "icdar2013-eu/eu-020.pdf", 2, 2, services=services).pages[0].text
    assert "χ2 = 5.281, v = 3, p = 0.152" in text


def test_a_box_drawn_for_each_letter_a_font_lacks_reads_as_the_page_s_actual_text(services):
    """A workbook's print: LibreOffice draws each Devanagari letter its font lacks as one box, the letter given
    as the page's actual text. pdfminer, which reads no actual text, read every box as one letter ("शशशशश
    (śūnya)"); pdfium reads the letters."""
    workbook = CORPUS / "excel-streaming-reader" / "numbers.strict.xlsx"
    printed = read_file(workbook, services=services, images=True).pdf
    assert printed is not None
    text = read_file(printed.path, services=services).pages[0].text
    assert "| 0 | náid | शून्य (" in text and "| 10 | deich | दस (das) |" in text  # "(śūnya)" runs off the page


def test_a_poor_ocr_layer_keeps_its_words_whole(services):
    """A typewritten memo's OCR layer spreads each word's letters over the word's box, with spaces
    drawn over them: words came apart ("A l e t t er", "t h e ir"), where pdftotext keeps them."""
    text = read_file(CORPUS / "unstructured" / "pdf-with-ocr-text.pdf", services=services).pages[0].text
    assert "(a) A letter from the" in text and "enclosing their check and executed contracts" in text
    assert "l e t t" not in text and "t h e ir" not in text


def test_glyphs_without_a_map_never_reach_the_text_even_in_a_table(services):
    """A ruled table's cells once kept pdfminer's glyph names ("Usage setting: (cid:2) ALLOWED"),
    and a page whose MediaBox does not start at 0 asked pdfium for the wrong places (a form's arrows
    came back as stray letters): they are left out, and counted."""
    redbook = read_file(CORPUS / "docling" / "redp5110_sampled.pdf", 8, 8, services=services)
    assert "| USAGE | VARCHAR(7) | Usage setting: ALLOWED: The user profile is allowed" in redbook.pages[0].text
    form = read_file(CORPUS / "pdfminer" / "f1040nr.pdf", 2, 2, services=services)
    cells = [cell.strip() for line in form.pages[0].text.splitlines() for cell in line.split("|")]
    assert "signature" in cells and "address, and ZIP code" in cells, "no stray letter after the arrows' place"
    for reading in (redbook, form):
        assert "(cid:" not in reading.as_text()
    assert any("14 characters could not be read and were left out" in warning for warning in form.warnings)


def test_only_the_words_on_the_page_are_read(services):
    """An annual report's spread, printed as two pages that each hold the whole spread's text: each
    page once read the other half too, off the page (its table of contents at x 902 of 595)."""
    first, second = read_file(CORPUS / "unstructured" / "reliance.pdf", 2, 3, services=services).pages
    assert "Table of Contents" not in first.text and "India’s largest company" in first.text
    assert "Reliance Industries Limited (RIL)\nis a Fortune 500 company" not in second.text


def test_a_soft_hyphen_the_page_draws_is_a_hyphen_but_where_it_breaks_a_word(services):
    """Some PDFs encode each dash as a soft hyphen (U+00AD) and draw it: a part number read
    "SS254103M", a number range "112 months". One that ends a word at a line's end still breaks that
    word: an OCR layer's "for‐" over "tress" is "fortress"."""
    assert "SS-2541-03-M" in read_file(CORPUS / "pdfjs" / "issue9084.pdf", services=services).pages[0].text
    dated = read_file(CORPUS / "pdfjs" / "issue7855.pdf", services=services).pages[0].text
    assert "- Berlin, den 28.11.2016 -" in dated, "a dash at a line's end after no letter is a dash"
    scan = read_file(CORPUS / "olmocr" / "horribleocr.pdf", services=services).pages[0].text
    assert {"fortress", "putting"} <= set(scan.split()) and "\u00ad" not in scan


def test_pdfium_reads_a_drawn_soft_hyphen_and_a_broken_word_as_pdfminer_does():
    """A page pdfminer cannot parse is read from pdfium's characters, which mark a hyphen that breaks
    a word at a line's end with U+0002: that control character once reached the text ("for\\x02")."""
    with pdfium.PdfDocument(CORPUS / "pdfjs" / "issue9084.pdf") as document:
        assert "SS-2541-03-M" in pdfium_page(document, 1, None, ValueError("unparsed"))["text"]
    with pdfium.PdfDocument(CORPUS / "olmocr" / "horribleocr.pdf") as document:
        text = pdfium_page(document, 1, None, ValueError("unparsed"))["text"]
    assert "\x02" not in text and "for-\ntress" in text
    assert "fortress" in joined_words([text])[0].split()


def test_a_table_row_of_three_short_figures_keeps_them_apart(services):
    """A row of a sheet's print, "5", "1" and "-3" in three cells and no space drawn between them: the
    gaps between the figures made the spread of the line's letter gaps, which let no gap part two words,
    and the row read "51-3"."""
    page = read_file(CORPUS / "table-tuning/printed/024-chromium-xlsx_01.pdf", services=services).pages[0]
    assert "| 5 | 1 | -3 |\n| 6 | 0 | -6 |" in page.text and "51-3" not in page.text
