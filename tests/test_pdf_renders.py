"""Page renders as PNGs: the render's own pixels, in one channel when they are all grey."""

import io

import pypdfium2 as pdfium
import pytest
from PIL import Image

from readers.render.pdfium import encode_png, rendered_png
from testkit import CORPUS

RENDERS = [  # (file, what it is, the PNG's mode)
    ("markitdown/test.pdf", "black print on white", "L"),
    ("pdfplumber/nics-background-checks-2015-11.pdf", "a table with coloured cells", "RGB"),
    ("docling/ocr_test.pdf", "a grey scan", "L"),
    ("olmocr/test-graphical-text.pdf", "a page that is a photograph", "RGB"),
]


def decoded(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()  # reads every row: a bad filter byte or checksum raises here
    return image


@pytest.mark.parametrize(("name", "what", "mode"), RENDERS)
def test_a_pages_png_holds_its_render_pixel_for_pixel(name, what, mode):
    page = pdfium.PdfDocument(str(CORPUS / name))[0]
    for bitmap in (
        page.render(scale=150 / 72, rev_byteorder=True),
        page.render(scale=2.7, rev_byteorder=True, crop=(13, 51, 97, 20)),  # a figure's cut, odd sizes
    ):
        image, render = decoded(rendered_png(bitmap)), bitmap.to_pil()
        assert image.format == "PNG" and image.mode == mode, what
        same = image.size == render.size and image.convert("RGB").tobytes() == render.tobytes()
        assert same, what  # not the bytes themselves: pytest would diff megabytes


def test_a_grey_picture_is_stored_in_one_channel_with_the_same_pixels():
    picture = Image.linear_gradient("L").resize((300, 200)).convert("RGB")
    image = decoded(encode_png(picture))
    same = image.convert("RGB").tobytes() == picture.tobytes()
    assert image.mode == "L" and same
    tinted = picture.copy()
    tinted.putpixel((5, 5), (200, 10, 10))
    assert decoded(encode_png(tinted)).mode == "RGB"
