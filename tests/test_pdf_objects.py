"""A page's characters as readers.pdf.objects builds them are pdfplumber's, key for key and value for value."""

import pdfplumber
import pytest

from readers.pdf.objects import PlumberPage
from testkit import CORPUS

# a MediaBox not at the origin and CMYK (a tax form), Separation and CalRGB colour spaces, a page
# turned 90 degrees, prose, Korean text in ICC colours, and a page whose text is an OCR layer
PAGES = [
    ("pdfminer/f1040nr.pdf", 1),
    ("olmocr/multi_column_miss.pdf", 1),
    ("pdfplumber/issue-140-example.pdf", 1),
    ("markitdown/test.pdf", 1),
    ("unstructured/korean-text-with-tables.pdf", 1),
    ("unstructured/pdf-with-ocr-text.pdf", 1),
]


@pytest.mark.parametrize(("name", "number"), PAGES)
def test_chars_are_pdfplumbers(name, number):
    with open(CORPUS / name, "rb") as stream:
        pdf = pdfplumber.PDF(stream, stream_is_external=True)
        page = pdf.pages[number - 1].page_obj
        theirs = pdfplumber.page.Page(pdf, page, page_number=number)
        ours = PlumberPage(pdf, page, page_number=number)
        assert len(ours.chars) > 300
        # repr: the same types too (an int stays an int), and the keys in the same order
        assert [repr(list(char.items())) for char in ours.chars] == [repr(list(char.items())) for char in theirs.chars]
        assert ours.rects == theirs.rects and ours.lines == theirs.lines and ours.curves == theirs.curves
