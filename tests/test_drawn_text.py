"""Words drawn as outlines (``readers.pdf.drawn_text``): a figure of kind ``drawn text``, read by OCR
into the page's visual block; a row of equal shapes is no word."""

from readers import Services, read_file
from testkit import make_settings
from testkit.fixtures import drawn_words
from tests.model_output import assert_has_lines


def test_words_drawn_as_outlines_are_a_figure_read_by_ocr(tmp_path):
    services = Services(make_settings(tmp_path / "cache", vision_provider="ocr"))
    reading = read_file(drawn_words.drawn_text_pdf(tmp_path / "poster.pdf"), services=services)
    page = reading.pages[0]
    assert page.text == f"{drawn_words.ABOVE}\n\n{drawn_words.BELOW}"  # the text layer has no trace of them
    [figure] = [figure for figure in page.figures if figure.kind == "drawn text"]
    assert not figure.has_text and 0.3 < figure.box[1] < figure.box[3] < 0.55
    assert page.description.startswith("Figure 1 (drawn text, middle of the page), text found in it by OCR:\n")
    assert_has_lines(page.description, [drawn_words.TITLE, drawn_words.SLOGAN])
    assert len(page.figures) == 1, "ten equal dots in a row are not drawn text"
