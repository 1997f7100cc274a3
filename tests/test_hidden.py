"""Only what a page shows is read, and the app fetches nothing a document links to: a picture cropped
in PowerPoint, Excel or Word, or half covered by a shape drawn over it, reaches OCR as it shows; a
web page's remote picture is a placeholder naming its address in the app, whose pages allow nothing
from another origin (``ui.server.CONTENT_SECURITY_POLICY``)."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import expect, sync_playwright

from readers import Services, read_file
from readers.render import libreoffice
from testkit import make_settings
from testkit.fixtures import stalls
from testkit.server import CHROMIUM, CHROMIUM_ARGS, UPLOAD
from tests.loopback import Site
from tests.model_output import assert_says
from tests.test_ui_server import running_app
from ui.pages import unfetched
from ui.server import CONTENT_SECURITY_POLICY

WAIT_MS = 60_000
PIXEL = (
    b"GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;"
)


@pytest.fixture
def ocr(tmp_path) -> Services:
    return Services(make_settings(tmp_path / "cache", vision_provider="ocr"))


def read_text(path, services: Services) -> str:
    reading = read_file(path, services=services)
    return "\n".join(page.description or "" for page in reading.pages)


@pytest.mark.parametrize(
    "make",
    [
        stalls.cropped_picture_deck,
        stalls.covered_picture_deck,
        stalls.cropped_picture_workbook,
        stalls.covered_picture_workbook,
    ],
    ids=["slide cropped", "slide covered", "sheet cropped", "sheet covered"],
)
def test_a_pictures_hidden_part_does_not_reach_ocr(tmp_path, ocr, make):
    text = read_text(make(tmp_path / f"hidden.{'pptx' if 'deck' in make.__name__ else 'xlsx'}"), ocr)
    assert_says(text, stalls.SHOWN)
    assert "CHARLIE" not in text.upper() and "DELTA" not in text.upper()


@pytest.mark.skipif(libreoffice.soffice() is None, reason="LibreOffice is not installed")
@pytest.mark.parametrize(
    "make", [stalls.cropped_picture_document, stalls.covered_picture_document], ids=["cropped", "covered"]
)
def test_a_word_picture_is_read_as_its_page_shows_it(tmp_path, ocr, make):
    text = read_text(make(tmp_path / "hidden.docx"), ocr)
    assert_says(text, stalls.SHOWN)
    assert "CHARLIE" not in text.upper() and "DELTA" not in text.upper()


def test_the_app_shows_a_pictures_address_in_place_of_the_picture():
    shown = unfetched('Text ![pixel](http://t.example/p.gif?id=1) and <img alt="A &amp; B" src="/b.png"> ![](data:,x)')
    assert shown == (
        "Text [Picture: pixel — `http://t.example/p.gif?id=1`, not loaded] and [Picture: A & B — `/b.png`, not loaded]"
        " [Picture]"
    )


@pytest.mark.browser
def test_the_app_requests_nothing_a_document_links_to(tmp_path):
    app = running_app()
    assert httpx.get(app.url, timeout=30).headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    with Site({"/pixel.gif": (200, {"Content-Type": "image/gif"}, PIXEL)}) as tracker, sync_playwright() as playwright:
        page_file = stalls.remote_image_page(tmp_path / "tracked.html", tracker.url("/pixel.gif"))
        markdown = tmp_path / "notes.md"
        markdown.write_text(f"# Notes\n\nBeside a picture.\n\n![pixel]({tracker.url('/pixel.gif?md')})\n")
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            tab = browser.new_page()
            tab.goto(app.url)
            tab.wait_for_selector(UPLOAD, state="attached")
            tab.set_input_files(UPLOAD, [str(page_file), str(markdown)])
            expect(tab.locator("#status")).to_contain_text("2 of 2 files read", timeout=WAIT_MS)
            expect(tab.get_by_text("not loaded").first).to_be_visible(timeout=WAIT_MS)
            tab.wait_for_timeout(1_000)  # time for any request the page would make
        finally:
            browser.close()
    assert sum(tracker.hits.values()) == 0, tracker.hits
