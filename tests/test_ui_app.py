"""The app as a new user meets it (issue 32): ``python app.py`` with nothing configured (local OCR,
local Whisper), in Debian's Chromium at a desktop's 1440×1000 and a phone's 390×844, and through
``gradio_client``. The tests assert what a person sees.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from gradio_client import Client, handle_file
from playwright.sync_api import Page, expect

from testkit import CORPUS
from testkit.fixtures.audio import KUBERNETES, said
from testkit.server import UPLOAD
from tests.test_browser import ASSETS, WAIT_MS, open_accordion, shoot

pytestmark = pytest.mark.browser

PIE_QUESTION = "What are the exact percentages in the pie chart?"
PHONE = {"width": 390, "height": 844}
# Every visible element whose right edge passes the viewport's (a page a phone must scroll sideways),
# and the page's own width when wider. Gradio's tab bar measures its tabs in a visually hidden copy, which
# a person never sees; what is inside a box that scrolls sideways itself (a wide table) is in view by scrolling it.
TOO_WIDE = """width => {
  const scrolls = element => ['auto', 'scroll'].includes(getComputedStyle(element).overflowX);
  const inScroller = element => { for (let node = element.parentElement; node; node = node.parentElement)
    if (scrolls(node) && node !== document.documentElement && node !== document.body) return true; return false; };
  const wide = [...document.querySelectorAll('body *')]
    .filter(element => element.checkVisibility() && !element.closest('.visually-hidden') && !inScroller(element))
    .filter(element => element.getBoundingClientRect().right > width + 1)
    .map(element => `${element.tagName}.${element.className}`.slice(0, 80));
  const page = document.documentElement.scrollWidth;
  return page > width ? [...wide, `page ${page} px`] : wide;
}"""


def open_app(chromium, url: str, viewport: dict | None = None) -> Page:
    page = chromium.new_page(viewport=viewport or {"width": 1440, "height": 1000})
    page.set_default_timeout(WAIT_MS)
    page.goto(url)
    page.wait_for_selector(UPLOAD, state="attached")
    return page


def open_tab(page: Page, name: str) -> None:
    """Click a tab, from the "More tabs" menu where a phone's width hides it there."""
    tab = page.get_by_role("tab", name=name)
    if not tab.is_visible():
        page.get_by_label("More tabs").click()
        tab = page.locator(".overflow-dropdown button", has_text=name)
    tab.click()


def read_through_api(url: str, path, describe: str = "") -> dict:
    return Client(url, verbose=False).predict(file=handle_file(str(path)), describe=describe, api_name="/read_file")


def test_an_unanswerable_question_leaves_the_api_payload_as_it_was_and_says_so_once(ocr_app):
    plain = read_through_api(ocr_app, ASSETS / "chart-report.pdf")
    asked = read_through_api(ocr_app, ASSETS / "chart-report.pdf", PIE_QUESTION)
    assert asked["text"] == plain["text"] and asked["tokens"] == plain["tokens"]
    assert "VISION_BASE_URL" not in asked["text"] and "Query:" not in asked["text"]
    hints = [warning for warning in asked["warnings"] if "cannot answer questions" in warning]
    assert len(hints) == 1 and PIE_QUESTION in hints[0] and "VISION_BASE_URL" in hints[0]
    assert [page["description"] for page in asked["pages"]] == [page["description"] for page in plain["pages"]]
    client = Client(ocr_app, verbose=False)
    pie = client.predict(
        file=handle_file(str(ASSETS / "chart-report.pdf")), page=2, question=PIE_QUESTION, api_name="/describe"
    )
    assert pie.startswith(plain["pages"][1]["description"]) and pie.endswith(
        hints[0]
    )  # what OCR read, and why no answer


def test_an_unanswerable_question_is_said_once_beside_the_question(chromium, ocr_app):
    page = open_app(chromium, ocr_app)
    page.set_input_files(UPLOAD, str(ASSETS / "chart-report.pdf"))
    expect(page.locator("#status")).to_contain_text("1 of 1 files read", timeout=WAIT_MS)
    page.get_by_role("tab", name="Model payload").click()
    text_only = page.locator("#estimates tr", has_text="Text-only")
    expect(text_only).to_contain_text(re.compile(r"\d{3}"), timeout=WAIT_MS)  # the text-only payload's size
    row = text_only.inner_text()
    page.get_by_label("Describe").fill(PIE_QUESTION)
    page.get_by_label("Describe").press("Enter")
    note = page.locator("#question-note")
    expect(note).to_be_visible(timeout=WAIT_MS)
    expect(note).to_contain_text("cannot answer questions")
    expect(note).to_contain_text(PIE_QUESTION)
    expect(page.locator("#status")).to_contain_text("1 of 1 files read", timeout=WAIT_MS)
    expect(note.get_by_text("VISION_BASE_URL")).to_have_count(1)  # beside the question, once
    expect(page.locator(".rl-file").get_by_text("VISION_BASE_URL")).to_have_count(0)  # in no page and no card
    expect(text_only).to_have_text(row)  # the same size, characters and tokens, no answer added
    shoot(page, "32-01-unanswerable-question")
    page.get_by_label("Describe").fill("")
    page.get_by_label("Describe").press("Enter")
    expect(note).to_be_hidden(timeout=WAIT_MS)
    page.close()


def test_errors_read_as_the_api_words_them_and_the_formats_are_listed_once(chromium, ocr_app, tmp_path):
    empty, misnamed, unknown = tmp_path / "empty.docx", tmp_path / "notes.docx", tmp_path / "data.bin"
    empty.write_bytes(b"")
    misnamed.write_text("Meeting notes\n\nThis is plain text, not a Word document.\n")
    unknown.write_bytes(bytes(range(256)) * 8)
    client = Client(ocr_app, verbose=False)
    with pytest.raises(Exception, match=r"empty\.docx is empty \(0 bytes\)"):
        client.predict(file=handle_file(str(empty)), api_name="/read_file")
    warned = client.predict(file=handle_file(str(misnamed)), api_name="/read_file")
    naming = "notes.docx is named as a .docx file, but its content is text/plain: it was read as text."
    assert warned["kind"] == "text" and any(warning.startswith(naming) for warning in warned["warnings"])
    page = open_app(chromium, ocr_app)
    page.set_input_files(UPLOAD, [str(empty), str(misnamed), str(unknown)])
    expect(page.locator("#status")).to_contain_text("1 of 3 files read", timeout=WAIT_MS)
    expect(page.get_by_text("empty.docx is empty (0 bytes). Upload the file again")).to_be_visible()
    expect(page.get_by_text(naming)).to_be_visible()
    refusal = re.compile(r"data\.bin is of type \S+, which ReadLens cannot read \(see Formats ReadLens reads")
    expect(page.get_by_text(refusal)).to_be_visible()
    expect(page.get_by_text("inode/x-empty")).to_have_count(0)
    formats = page.locator("#formats")
    expect(page.get_by_text("PDF; Word (DOCX")).to_have_count(0)  # in no card, and collapsed
    formats.get_by_text("Formats ReadLens reads").click()
    expect(formats.get_by_text("PDF; Word (DOCX")).to_be_visible()
    expect(page.get_by_text("PDF; Word (DOCX")).to_have_count(1)
    shoot(page, "32-02-errors")
    page.close()


def test_the_page_names_its_back_ends_and_the_limits_in_force(chromium, ocr_app):
    page = open_app(chromium, ocr_app, PHONE)
    backends = page.locator("#backends")
    expect(backends).to_contain_text("Descriptions: local OCR (rapidocr)")
    expect(backends).to_contain_text("Audio: whisper:tiny.en (local)")
    page.locator("#settings").get_by_text("Settings in force").click()
    limits = page.locator("#settings table")
    expect(limits.locator("tr", has_text="Size of a file")).to_contain_text("25 MB")
    expect(limits.locator("tr", has_text="Size of a file")).to_contain_text("MAX_FILE_MB")
    expect(limits.locator("tr", has_text="Pages read at once")).to_contain_text("50")
    assert page.evaluate(TOO_WIDE, PHONE["width"]) == []
    shoot(page, "32-03-settings-phone")
    page.close()


@pytest.mark.parametrize("viewport", [None, PHONE], ids=["desktop", "phone"])
def test_before_an_upload_each_tab_says_what_will_appear_and_offers_the_examples(chromium, ocr_app, viewport):
    page = open_app(chromium, ocr_app, viewport)
    expect(page.locator("#pages-empty")).to_contain_text("Each page will appear here")
    expect(page.locator("#pages-examples").get_by_role("button", name="Try chart-report.pdf")).to_be_visible()
    width = (viewport or {"width": 1440})["width"]
    assert page.evaluate(TOO_WIDE, width) == []
    tag = "phone" if viewport else "desktop"
    shoot(page, f"32-04-empty-pages-{tag}")
    open_tab(page, "Model payload")
    expect(page.locator("#estimates")).to_contain_text("What the model receives will appear here")
    expect(page.locator("#payload-examples").get_by_role("button", name="Try sales.xlsx")).to_be_visible()
    open_tab(page, "Chunks")
    expect(page.locator("#chunk-summary")).to_contain_text("No chunks yet.")
    offered = page.locator("#chunks-examples")
    offered.get_by_role("button", name="Try chart-report.pdf").click()
    expect(page.locator("#status")).to_contain_text("1 of 1 files read", timeout=WAIT_MS)
    expect(page.locator("#chunk-cards")).to_contain_text("Chunk 1")
    expect(offered).to_be_hidden()
    assert page.evaluate(TOO_WIDE, width) == []
    shoot(page, f"32-04-example-chunks-{tag}")
    page.close()


def test_chunk_cards_wrap_and_the_token_table_keeps_its_words_on_a_phone(chromium, ocr_app, tmp_path):
    notes = tmp_path / "long-lines.txt"
    notes.write_text("# Notes\n\n" + " ".join(f"word{number}" for number in range(300)) + "\n")
    page = open_app(chromium, ocr_app, PHONE)
    page.set_input_files(UPLOAD, [str(ASSETS / "chart-report.pdf"), str(notes)])
    expect(page.locator("#status")).to_contain_text("2 of 2 files read", timeout=WAIT_MS)
    open_tab(page, "Chunks")
    cards = page.locator("#chunk-cards pre")
    expect(page.locator("#chunk-cards")).to_contain_text("word299")
    cut = cards.evaluate_all("blocks => blocks.filter(block => block.scrollWidth > block.clientWidth + 1).length")
    assert cut == 0  # every line wraps inside its card
    assert page.evaluate(TOO_WIDE, PHONE["width"]) == []
    shoot(page, "32-07-chunks-phone")
    open_tab(page, "Model payload")
    cells = page.locator("#estimates td")
    expect(cells.first).to_be_visible(timeout=WAIT_MS)
    line = cells.first.evaluate("cell => parseFloat(getComputedStyle(cell).lineHeight) || 24")
    heights = cells.evaluate_all("cells => cells.map(cell => cell.getBoundingClientRect().height)")
    assert max(heights) < 2 * line + 24  # one line of text a cell, padding aside: no word broken a letter a line
    assert page.evaluate(TOO_WIDE, PHONE["width"]) == []
    shoot(page, "32-07-tokens-phone")
    page.close()


def test_each_page_shows_its_text_rendered_or_raw_its_tables_once_and_its_tokens(chromium, ocr_app):
    client = Client(ocr_app, verbose=False)
    reading = client.predict(file=handle_file(str(ASSETS / "chart-report.pdf")), api_name="/read_file")
    page = open_app(chromium, ocr_app)
    page.set_input_files(UPLOAD, str(ASSETS / "chart-report.pdf"))
    expect(page.locator("#status")).to_contain_text("1 of 1 files read", timeout=WAIT_MS)
    texts = page.locator(".prose.rl-rendered")
    expect(texts).to_have_count(4)
    expect(texts.first.locator("h1")).to_have_text("Quarterly Sales Report 2024")  # rendered: a heading, no "#"
    expect(page.get_by_text("Page 3 — text, rendered (the model receives it raw)")).to_be_visible()
    rendered = page.locator(".rl-rendered table")
    expect(rendered.filter(has_text="Region")).to_have_count(1)  # page 3's table, rendered once in its text
    expect(rendered.filter(has_text="Consumer")).to_have_count(1)  # the pie chart's data, rendered
    opened = page.locator(".rl-table").filter(has_text="Table 1: 2 rows × 5 columns")  # its cells, full width
    expect(opened).to_have_count(1)
    open_accordion(opened, "Table 1: 2 rows × 5 columns", opened.get_by_role("button", name="Download CSV"))
    tokens = page.locator(".prose.rl-tokens")
    expect(tokens).to_have_count(4)
    for shown, answered in zip(tokens.all(), reading["pages"]):
        expect(shown).to_contain_text(f"Tokens of this page: {answered['tokens']:,} text-only")
        expect(shown).to_contain_text("multimodal (OpenAI, with its image)")
    shoot(page, "32-05-rendered")
    page.get_by_label("Raw — exactly what the model receives").check()
    raw = page.locator(".rl-raw textarea")
    expect(raw).to_have_count(4, timeout=WAIT_MS)
    expect(raw.first).to_have_value(re.compile(r"^# Quarterly Sales Report 2024"))
    expect(raw.nth(2)).to_have_value(re.compile(r"\| Region \| Q1"))
    expect(page.locator("table").filter(has_text="Region")).to_have_count(0)  # raw: the table as the model gets it
    expect(page.locator(".rl-table")).to_have_count(0)
    shoot(page, "32-05-raw")
    page.close()


@pytest.mark.parametrize("viewport", [None, PHONE], ids=["desktop", "phone"])
def test_the_file_list_jumps_to_a_page_of_a_long_document_and_removes_a_file(chromium, ocr_app, viewport):
    long = CORPUS / "pdfplumber" / "ca-warn-report.pdf"  # 16 pages
    page = open_app(chromium, ocr_app, viewport)
    page.set_input_files(UPLOAD, [str(ASSETS / "chart-report.pdf"), str(long)])
    expect(page.locator("#status")).to_contain_text("2 of 2 files read", timeout=WAIT_MS)
    listed = page.locator("#file-list .rl-file-row")
    expect(listed).to_have_count(2)
    expect(listed.first).to_contain_text("chart-report.pdf · 4 pages")
    expect(listed.last).to_contain_text("ca-warn-report.pdf · 16 pages")
    lines = page.locator("#file-list .rl-name a").evaluate_all("links => links.map(l => l.getClientRects().length)")
    assert lines == [1, 1]  # each name on one line, never squeezed a letter a line beside its buttons
    target = page.locator("#rl-file-1-page-12")
    expect(target).not_to_be_in_viewport()
    box = listed.last.get_by_label("Go to page")
    expect(box).to_have_value("")  # empty until typed in, not "0"
    expect(box).to_have_attribute("placeholder", "Go to page 1–16")
    box.fill("12")
    box.press("Enter")
    expect(target).to_be_in_viewport(timeout=WAIT_MS)
    expect(target).to_contain_text("Page 12")
    width = (viewport or {"width": 1440})["width"]
    assert page.evaluate(TOO_WIDE, width) == []
    shoot(page, f"32-06-page-12-{'phone' if viewport else 'desktop'}")
    listed.first.get_by_role("button", name="Remove").click()
    expect(page.locator("#status")).to_contain_text("1 of 1 files read", timeout=WAIT_MS)
    expect(listed).to_have_count(1)
    expect(page.locator(".rl-file h3", has_text="chart-report.pdf")).to_have_count(0)
    expect(page.locator(".rl-file h3", has_text="ca-warn-report.pdf")).to_have_count(1)
    page.close()


def test_hotwords_beside_the_controls_steer_a_recording_s_transcript(chromium, ocr_app, tmp_path):
    recording = said(tmp_path / "standup.wav", KUBERNETES)
    page = open_app(chromium, ocr_app, PHONE)
    page.set_input_files(UPLOAD, str(recording))
    transcript = page.locator("table").filter(has_text="Time")
    expect(transcript).to_contain_text("0:00 →", timeout=WAIT_MS)
    expect(transcript).not_to_contain_text("Kubernetes")  # tiny.en mishears the name
    page.get_by_label("Hotwords (audio)").fill("Kubernetes")
    page.get_by_label("Hotwords (audio)").press("Enter")
    expect(transcript).to_contain_text("Kubernetes", timeout=WAIT_MS)
    assert page.evaluate(TOO_WIDE, PHONE["width"]) == []
    shoot(page, "32-08-hotwords-phone")
    page.close()


def test_each_file_downloads_as_markdown_and_json_and_a_search_finds_its_pages(chromium, ocr_app):
    page = open_app(chromium, ocr_app)
    page.set_input_files(UPLOAD, [str(ASSETS / "chart-report.pdf"), str(ASSETS / "sales.xlsx")])
    expect(page.locator("#status")).to_contain_text("2 of 2 files read", timeout=WAIT_MS)
    report = page.locator("#file-list .rl-file-row").first
    with page.expect_download() as download:
        report.get_by_role("button", name="JSON").click()
    answer = json.loads(Path(download.value.path()).read_text())
    assert download.value.suggested_filename == "chart-report.json"
    api = Client(ocr_app, verbose=False).predict(
        file=handle_file(str(ASSETS / "chart-report.pdf")), api_name="/read_file"
    )
    assert answer["text"] == api["text"] and [p["tokens"] for p in answer["pages"]] == [
        p["tokens"] for p in api["pages"]
    ]
    with page.expect_download() as download:
        report.get_by_role("button", name="Markdown").click()
    markdown = Path(download.value.path()).read_text()
    assert download.value.suggested_filename == "chart-report.md"
    assert markdown.startswith("[PAGE 1]\n# Quarterly Sales Report 2024\n")  # what the model receives, the Export's
    assert "*(Source: chart-report.pdf, p. 3)*" in markdown and "sales.xlsx" not in markdown  # cited, the one file
    search = page.get_by_label("Search the files read")
    search.fill("Enterprise")
    search.press("Enter")
    results = page.locator("#search-results")
    expect(results).to_contain_text("chart-report.pdf — 2 matching lines in pages 1-4", timeout=WAIT_MS)
    expect(results).to_contain_text("sales.xlsx —")
    results.get_by_role("link", name="page 2").first.click()
    expect(page.locator("#rl-file-0-page-2")).to_be_in_viewport()
    page.get_by_label("Regular expression").check()
    search.fill("Q[")
    search.press("Enter")
    expect(results).to_contain_text("⚠️", timeout=WAIT_MS)
    shoot(page, "32-09-downloads-and-search")
    page.close()


def test_a_web_page_s_bars_sidebar_footer_and_cookie_banner_are_not_drawings(chromium, ocr_app, tmp_path):
    web_page = tmp_path / "web-page.html"
    web_page.write_text((ASSETS / "web-page.html").read_text() + "<!-- issue 32 -->")  # read afresh
    page = open_app(chromium, ocr_app)
    page.get_by_label("Multimodal model").check()  # a web page is printed for a model that sees its pages
    page.set_input_files(UPLOAD, str(web_page))
    expect(page.locator("#status")).to_contain_text("1 of 1 files read", timeout=WAIT_MS)
    expect(page.get_by_text("Page 1", exact=True)).to_be_visible()  # the plain render, nothing outlined
    expect(page.get_by_text("figures outlined")).to_have_count(0)  # no figure: nothing a vision model is asked
    open_tab(page, "Model payload")
    expect(page.locator("#estimates")).to_contain_text("0 calls made")
    shoot(page, "32-10-web-page")
    page.close()


# The media element a file's player plays: Gradio's waveform player plays one in a shadow root; the plain
# <audio> beside it is hidden and has no source.
PLAYING = """player => {
  const nodes = [player, ...player.querySelectorAll('*')].map(node => node.shadowRoot || node);
  const media = nodes.flatMap(node => [...node.querySelectorAll('audio, video')]).find(media => media.currentSrc);
  return media && media.readyState >= 1 ? {time: media.currentTime, paused: media.paused} : null;
}"""


@pytest.mark.parametrize("viewport", [None, PHONE], ids=["desktop", "phone"])
def test_a_transcript_row_plays_the_recording_from_its_start(chromium, ocr_app, viewport):
    recording = ASSETS / "recording.wav"
    segments = Client(ocr_app, verbose=False).predict(file=handle_file(str(recording)), api_name="/transcribe")[
        "segments"
    ]
    page = open_app(chromium, ocr_app, viewport)
    page.set_input_files(UPLOAD, str(recording))
    rows = page.locator(".rl-transcript tbody tr")
    expect(rows).to_have_count(len(segments), timeout=WAIT_MS)
    expect(page.locator("#file-list")).to_contain_text("recording.wav · a recording of 0:09")  # not "0 pages"
    second = rows.nth(1)
    expect(second.get_by_role("button")).to_have_text(re.compile(r"^0:0\d → 0:0\d$"))
    player = page.locator("#rl-player-0")
    expect(player).to_be_attached()
    page.wait_for_function(f"({PLAYING})(document.getElementById('rl-player-0')) !== null", timeout=WAIT_MS)
    assert player.evaluate(PLAYING) == {"time": 0, "paused": True}
    second.click()
    expect(second).to_have_class(re.compile("rl-playing"))  # the row being spoken is marked
    heard = player.evaluate(PLAYING)
    start = segments[1]["start"]
    assert not heard["paused"] and start - 0.1 <= heard["time"] < start + 1.5, (heard, start)
    expect(rows.first).not_to_have_class(re.compile("rl-playing"))
    width = (viewport or {"width": 1440})["width"]
    assert page.evaluate(TOO_WIDE, width) == []
    shoot(page, f"32-11-transcript-seek-{'phone' if viewport else 'desktop'}")
    page.close()


@pytest.mark.parametrize("viewport", [None, PHONE], ids=["desktop", "phone"])
def test_a_chunk_card_clicked_shows_its_page_beside_it(chromium, ocr_app, viewport):
    page = open_app(chromium, ocr_app, viewport)
    page.set_input_files(UPLOAD, str(ASSETS / "chart-report.pdf"))
    expect(page.locator("#status")).to_contain_text("1 of 1 files read", timeout=WAIT_MS)
    open_tab(page, "Chunks")
    cards = page.locator("#chunk-cards .rl-card")
    figure = cards.filter(has_text="· figure ·").first
    render = page.locator("#chunk-render img")
    expect(render).to_have_count(0)
    figure.click()
    expect(render).to_have_attribute("src", re.compile("chunk-"), timeout=WAIT_MS)  # its box outlined
    expect(render).to_be_in_viewport()  # beside the cards, or on a phone over them
    expect(figure).to_be_in_viewport()  # the page scrolls not away from the card clicked
    expect(page.locator("#chunk-choice input")).to_have_value(re.compile(r"chart-report\.pdf · chunk \d+ \(figure\)"))
    expect(page.locator("#chunk-cards .rl-chosen")).to_have_count(1)
    expect(figure).to_have_class(re.compile("rl-chosen"))
    width = (viewport or {"width": 1440})["width"]
    assert page.evaluate(TOO_WIDE, width) == []
    shoot(page, f"32-12-chunk-card-{'phone' if viewport else 'desktop'}")
    first = cards.first  # a text chunk: its page with its title and paragraph outlined
    first.click()
    expect(render).to_have_attribute("src", re.compile("chunk-"), timeout=WAIT_MS)
    expect(first).to_have_class(re.compile("rl-chosen"))
    expect(figure).not_to_have_class(re.compile("rl-chosen"))
    expect(page.locator("#chunk-choice input")).to_have_value("chart-report.pdf · chunk 1 (text)")
    page.close()
