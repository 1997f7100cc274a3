"""Words as the author typed them: hyphenation at line ends mended by the pages' own words and a
word list, ligatures expanded, soft hyphens and odd spaces made plain; and lines in order on a
small page scanned askew."""

from __future__ import annotations

from readers import read_file
from readers.pdf.spelling import word_list
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
