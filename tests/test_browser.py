"""The page in a real browser: Debian's Chromium driven by Playwright, against ``python app.py``.

Screenshots go to the artifacts folder (``ARTIFACTS``, made when the first is taken) for a person to look at.
"""

from __future__ import annotations

import io
import math
import re
import shutil
import time
import zipfile
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageFilter
from playwright.sync_api import Locator, Page, expect, sync_playwright

from testkit import ROOT, fixtures
from testkit.server import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, UPLOAD
from tests.loopback import Site
from tests.model_output import assert_has_lines
from tests.test_ui_server import GENERIC_ANSWER, MAX_FILE_MB, PIE_ANSWER, SECRET_KEY, UNANSWERABLE, running_app

pytestmark = pytest.mark.browser

ASSETS = ROOT / "assets"
# How long a browser test waits for what a person would see next (a page loaded, a file read, a tab's content):
# generous for a machine under load (issue 52). Every assertion and action waits up to it for its event, not
# Playwright's defaults (5 s for an assertion, 30 s for an action), which a busy machine outlasts.
WAIT_MS = 60_000
expect.set_options(timeout=WAIT_MS)


@pytest.fixture(scope="module")
def browser_context():
    """One browser and one context: each test gets a fresh page (a fresh app session), the
    context's HTTP cache saves loading the app's scripts again for each."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: install the chromium package (packages.txt)")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        context = chromium.new_context(viewport={"width": 1400, "height": 1000})
        context.set_default_timeout(WAIT_MS)
        yield context
        chromium.close()


@pytest.fixture
def page(browser_context) -> Page:
    tab = browser_context.new_page()
    tab.goto(running_app().url)
    tab.wait_for_selector(UPLOAD, state="attached")
    yield tab
    tab.close()


def read_all(page: Page, status: str) -> None:
    """Wait until the status says ``status`` ("2 of 2 files read") and every card is drawn from its
    finished reading, no "Reading…" line left: the status and the cards are drawn by two events, and
    a table opened between them is drawn again, closed."""
    expect(page.locator("#status")).to_contain_text(status, timeout=WAIT_MS)
    expect(page.locator(".rl-progress")).to_have_count(0, timeout=WAIT_MS)


def open_accordion(accordion: Locator, label: str, inside: Locator) -> None:
    """Open ``accordion`` by clicking its ``label`` until ``inside`` shows. An event still on its way on a
    loaded machine (issue 52) may draw the pages once more after they look finished, and an accordion
    drawn again is drawn closed: it is opened again, for up to WAIT_MS."""
    deadline = time.monotonic() + WAIT_MS / 1000
    while True:
        if not inside.is_visible():
            accordion.get_by_text(label).click()
        try:
            expect(inside).to_be_visible(timeout=WAIT_MS / 6)
            return
        except AssertionError:
            if time.monotonic() > deadline:
                raise


def shoot(page: Page, name: str) -> None:
    """A screenshot for the record. On a machine loaded 15 times over its cores, Chromium waited for its
    fonts past WAIT_MS: a screenshot is given three times that."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True, timeout=3 * WAIT_MS)


def fresh_copy(tmp_path: Path, source: Path, tag: str) -> Path:
    """A copy with a byte after the end, so the app has not seen (or cached) it before."""
    target = tmp_path / source.name
    target.write_bytes(source.read_bytes() + f"\n% {tag}\n".encode())
    return target


def page_images(page: Page, name: str):
    return page.locator(f"img[src*='{Path(name).stem}']")


def test_upload_a_pdf_and_see_its_pages_and_text(page, tmp_path):
    pdf = fresh_copy(tmp_path, ASSETS / "chart-report.pdf", "upload")
    page.set_input_files(UPLOAD, str(pdf))
    expect(page_images(page, pdf.name)).to_have_count(4, timeout=WAIT_MS)
    expect(page.locator(".prose.rl-page-text").first.locator("h1")).to_have_text(
        "Quarterly Sales Report 2024", timeout=WAIT_MS
    )  # the text rendered from its Markdown
    expect(page.get_by_text(GENERIC_ANSWER).first).to_be_visible()
    expect(page.get_by_text("test-vision").first).to_be_visible()
    # page 3's table, rendered from Markdown
    expect(page.locator(".rl-rendered table").filter(has_text="Region")).to_be_visible()
    expect(page.locator("#status")).to_contain_text("1 of 1 files read")
    page.get_by_role("tab", name="Export").click()
    link = page.locator("#report a[href$='readlens-report.zip']")
    with page.expect_download() as download:
        link.click()
    report = zipfile.ZipFile(download.value.path()).read("report.md").decode()
    assert f"*(Source: {pdf.name}, p. 4)*" in report and report.count("](images/") == 4
    shoot(page, "01-pdf-pages")
    assert SECRET_KEY not in page.content()


def test_the_chunks_tab_shows_each_chunk_and_outlines_a_figure_chunk_on_its_page(page, tmp_path):
    pdf = fresh_copy(tmp_path, ASSETS / "chart-report.pdf", "chunks")
    page.set_input_files(UPLOAD, str(pdf))
    expect(page.locator("#status")).to_contain_text("1 of 1 files read", timeout=WAIT_MS)
    page.get_by_role("tab", name="Chunks").click()
    expect(page.locator("#chunk-summary")).to_contain_text(
        re.compile(r"\d+ chunks · largest \d+ tokens"), timeout=WAIT_MS
    )
    expect(page.locator("#chunk-cards")).to_contain_text("Chunk 1")
    expect(page.locator("#chunk-cards")).to_contain_text("figure")
    page.locator("#chunk-choice input").click()
    page.get_by_role("option", name=re.compile(r"\(figure\)")).first.click()
    expect(page.locator("#chunk-render img")).to_have_attribute("src", re.compile("chunk-"), timeout=WAIT_MS)
    shoot(page, "10-chunks")


def test_a_workbook_and_a_web_page_show_their_sheets_and_pages(page, tmp_path):
    web_page = tmp_path / "web-page.html"
    web_page.write_text((ASSETS / "web-page.html").read_text() + "<!-- browser test -->")
    page.set_input_files(UPLOAD, [str(ASSETS / "sales.xlsx"), str(web_page)])
    expect(page.locator("#status")).to_contain_text("2 of 2 files read", timeout=WAIT_MS)
    expect(page_images(page, "sales.xlsx")).to_have_count(3)
    # the app's vision model is sent whole pages, so the web page is read on the one page Chromium prints of it
    expect(page_images(page, web_page.name)).to_have_count(1)
    expect(page.get_by_text("Sheet 2 — text")).to_be_visible()
    expect(page.locator(".prose.rl-page-text").nth(1).locator("h1")).to_have_text("Shares")
    expect(
        page.locator(".rl-rendered table").filter(has_text="Small business").first
    ).to_be_visible()  # the sheet's table, rendered from Markdown
    expect(page.locator(".prose.rl-page-text").last.locator("h1")).to_contain_text("Quarterly update")
    page.get_by_role("tab", name="Model payload").click()
    expect(page.locator("#payload-text")).to_contain_text("[SHEET 1 - VISUAL CONTENT]", timeout=WAIT_MS)
    shoot(page, "03-workbook-and-web-page")


# Where a page's render sits, what paints over it (its label, its buttons) and what may clip it.
RENDER_GEOMETRY = """img => {
  const rect = element => { const r = element.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const clips = [];
  for (let node = img.parentElement; node && node !== document.body; node = node.parentElement)
    if (getComputedStyle(node).overflow !== 'visible') clips.push(rect(node));
  const overlays = [...img.closest('.block').querySelectorAll('[data-testid=block-label], .icon-button-wrapper')]
    .filter(element => element.checkVisibility()).map(element => [element.innerText, rect(element)]);
  const style = getComputedStyle(img);
  return {natural: [img.naturalWidth, img.naturalHeight], box: rect(img), fit: style.objectFit,
          position: style.objectPosition, clips, overlays};
}"""
TILE, TILE_DIFFERENCE = (
    16,
    20,
)  # blurred 16-px tiles: resampling differs by under 8, a label or a button over the render by 50 or more


def shown_area(geometry: dict) -> tuple[float, float, float, float]:
    """The part of the img box the render is drawn in; it must be the whole render, undistorted."""
    (width, height), (left, top, right, bottom) = geometry["natural"], geometry["box"]
    if geometry["fit"] not in (
        "contain",
        "scale-down",
    ):  # fill, cover or none show it whole only at its own aspect ratio
        assert abs((right - left) / (bottom - top) - width / height) < 0.01, (
            f"the render is cropped or stretched: {geometry}"
        )
        return left, top, right, bottom
    assert geometry["position"] == "50% 50%", geometry
    scale = min((right - left) / width, (bottom - top) / height, 1 if geometry["fit"] == "scale-down" else float("inf"))
    x, y = left + (right - left - width * scale) / 2, top + (bottom - top - height * scale) / 2
    return x, y, x + width * scale, y + height * scale


def assert_render_shown_whole(page: Page, img, name: str) -> None:
    """Nothing of the app's covers or cuts the render: no label or button overlaps the img, no
    ancestor clips it, and a screenshot of where it is drawn is, tile by tile, the render's own PNG."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    img.scroll_into_view_if_needed()
    geometry = img.evaluate(RENDER_GEOMETRY)
    area = shown_area(geometry)
    box = geometry["box"]
    for text, (left, top, right, bottom) in geometry["overlays"]:
        assert right <= box[0] or left >= box[2] or bottom <= box[1] or top >= box[3], (
            f"{text or 'a button'!r} lies over {name}"
        )
    for clip in geometry["clips"]:
        assert (
            clip[0] <= area[0] + 0.5
            and clip[1] <= area[1] + 0.5
            and clip[2] >= area[2] - 0.5
            and clip[3] >= area[3] - 0.5
        ), f"{name} is clipped by a container: {clip} around {area}"
    x0, y0, x1, y1 = (
        math.ceil(area[0]),
        math.ceil(area[1]),
        math.floor(area[2]),
        math.floor(area[3]),
    )  # whole screen pixels
    shot = page.screenshot(
        path=str(ARTIFACTS / f"{name}.png"), clip={"x": x0, "y": y0, "width": x1 - x0, "height": y1 - y0}
    )
    shown = Image.open(io.BytesIO(shot)).convert("L")
    scale = (area[2] - area[0]) / geometry["natural"][0]
    render = (
        Image.open(io.BytesIO(page.request.get(img.get_attribute("src")).body()))
        .convert("L")
        .resize(
            shown.size,
            Image.LANCZOS,
            box=tuple((pixel - origin) / scale for pixel, origin in zip((x0, y0, x1, y1), area[:2] * 2)),
        )
    )
    blur = ImageFilter.GaussianBlur(2)
    tiles = ImageChops.difference(shown.filter(blur), render.filter(blur)).resize(
        (max(1, shown.width // TILE), max(1, shown.height // TILE)), Image.BOX
    )
    assert tiles.getextrema()[1] < TILE_DIFFERENCE, (
        f"what the page shows of {name} is not the render (see {ARTIFACTS / name}.png)"
    )


def test_each_render_is_shown_whole_never_under_its_label_or_cropped(page, tmp_path):
    pdf = fresh_copy(tmp_path, ASSETS / "chart-report.pdf", "renders")
    page.set_input_files(UPLOAD, [str(ASSETS / "sales.xlsx"), str(pdf)])
    expect(page.locator("#status")).to_contain_text("2 of 2 files read", timeout=WAIT_MS)
    renders = page.locator("img[src*='sales-sheet'], img[src*='chart-report-page']")
    expect(renders).to_have_count(7)
    expect(page.get_by_text("Sheet 1 — figures outlined")).to_be_visible()
    for index in range(7):
        render = renders.nth(index)
        expect(render).to_have_js_property("complete", True)
        assert_render_shown_whole(page, render, f"09-render-{Path(render.get_attribute('src')).stem}")
    shoot(page, "09-renders-shown-whole")


def test_multimodal_toggle_puts_the_images_in_the_payload(page, tmp_path):
    pdf = fresh_copy(tmp_path, ASSETS / "chart-report.pdf", "multimodal")
    page.set_input_files(UPLOAD, str(pdf))
    expect(page_images(page, pdf.name)).to_have_count(4, timeout=WAIT_MS)
    page.get_by_role("tab", name="Model payload").click()
    expect(page.locator("#payload-text")).to_contain_text("[PAGE 1 - VISUAL CONTENT]", timeout=WAIT_MS)
    page.get_by_label("Multimodal model").check()
    messages, document = page.locator("#payload-messages"), page.locator("#payload-document")
    expect(messages).to_contain_text("data:image/png;base64,iVBORw0KGgo", timeout=WAIT_MS)
    expect(messages).to_contain_text("characters)")
    expect(page.locator("#estimates")).to_contain_text("Multimodal (OpenAI) (current)")
    expect(page.locator("#payload-text")).to_be_hidden()
    expect(page.locator("#estimates")).to_contain_text(
        "PDF document (Gemini)"
    )  # the third form: the PDF sent as itself, counted for each provider
    expect(document).to_contain_text("data:application/pdf;base64,JVBERi0")
    expect(page.locator("#payload-document-note")).to_contain_text("PDF sent as itself")
    page.locator("#payload-provider").get_by_label("Anthropic").check()  # each form in the provider's words
    expect(messages).to_contain_text('"media_type": "image/png"', timeout=WAIT_MS)
    expect(document).to_contain_text('"type": "document"')
    page.locator("#payload-provider").get_by_label("Gemini").check()
    expect(messages).to_contain_text('"inline_data"', timeout=WAIT_MS)
    expect(document).to_contain_text('"mime_type": "application/pdf"')
    shoot(page, "02-multimodal-payload")
    assert SECRET_KEY not in page.content()


def test_ask_a_question_and_see_the_answer(page, tmp_path):
    pdf = fresh_copy(tmp_path, ASSETS / "chart-report.pdf", "question")
    page.get_by_label("First page").fill("2")
    page.get_by_label("Last page").fill("2")
    page.set_input_files(UPLOAD, str(pdf))
    expect(page_images(page, pdf.name)).to_have_count(1, timeout=WAIT_MS)
    page.get_by_label("Describe").fill("What are the exact percentages in the pie chart?")
    page.get_by_label("Describe").press("Enter")
    expect(page.get_by_text(PIE_ANSWER)).to_be_visible(timeout=WAIT_MS)
    expect(page.locator(".prose.rl-page-text").first).to_contain_text("Revenue by segment")
    shoot(page, "03-question-answered")


def test_a_web_address_is_read_and_named_by_its_url(page):
    """The address box, with a page the test serves on loopback (the app's URL_ALLOW names it)."""
    html = b"<html><head><title>Pond notes</title></head><body><h1>Pond notes</h1><p>The heron came back.</p></body>"
    with Site({"/pond": (200, {"Content-Type": "text/html; charset=utf-8"}, html + b"</html>")}) as site:
        page.get_by_label("Or web addresses").fill(site.url("/pond"))
        page.get_by_label("Or web addresses").press("Enter")
        expect(page.locator("#status")).to_contain_text("1 of 1 files read", timeout=WAIT_MS)
        expect(page.get_by_text(site.url("/pond")).first).to_be_visible()
        expect(page.locator(".prose.rl-page-text").first).to_contain_text("The heron came back.")
        shoot(page, "03a-web-address")


def test_a_failed_description_shows_on_its_page_and_the_page_stays(page, tmp_path):
    pdf = fresh_copy(tmp_path, ASSETS / "chart-report.pdf", "refused")
    page.get_by_label("Last page").fill("2")
    page.set_input_files(UPLOAD, str(pdf))
    expect(page_images(page, pdf.name)).to_have_count(2, timeout=WAIT_MS)
    page.get_by_label("Describe").fill(UNANSWERABLE)
    page.get_by_label("Describe").press("Enter")
    errors = page.get_by_text("This request was refused by the test model")
    expect(errors).to_have_count(2, timeout=WAIT_MS)  # one per page, each on its page
    expect(page_images(page, pdf.name)).to_have_count(2)
    expect(page.locator(".prose.rl-page-text").first).to_contain_text("Quarterly Sales Report 2024")
    shoot(page, "04a-description-failed")
    assert SECRET_KEY not in page.content()


def test_a_broken_file_shows_a_message_and_the_app_stays_usable(page, tmp_path):
    broken = tmp_path / "broken.pdf"
    broken.write_bytes((ASSETS / "chart-report.pdf").read_bytes()[:400])
    picture = tmp_path / "diagram.png"
    shutil.copy(ASSETS / "diagram.png", picture)
    page.set_input_files(UPLOAD, [str(broken), str(picture)])
    expect(page.get_by_text("broken.pdf is damaged")).to_be_visible(timeout=WAIT_MS)
    expect(page_images(page, "diagram")).to_have_count(1, timeout=WAIT_MS)
    expect(page.locator("#status")).to_contain_text("not read: broken.pdf")
    shoot(page, "04-broken-file")
    pdf = fresh_copy(tmp_path, ASSETS / "chart-report.pdf", "after-error")
    page.set_input_files(UPLOAD, str(pdf))
    expect(page_images(page, pdf.name)).to_have_count(4, timeout=WAIT_MS)  # added to the list, read like the others
    expect(page.get_by_text("broken.pdf is damaged")).to_be_visible()
    expect(page_images(page, "diagram")).to_have_count(1)
    expect(page.locator("#status")).to_contain_text("2 of 3 files read")


def test_files_beyond_the_tenth_are_refused_by_name(page, tmp_path):
    pictures = []
    for number in range(11):
        target = tmp_path / f"picture-{number:02d}.png"
        shutil.copy(ASSETS / "diagram.png", target)
        pictures.append(str(target))
    page.set_input_files(UPLOAD, pictures)
    expect(page.get_by_text("picture-10.png was not read: at most 10 files")).to_be_visible(timeout=WAIT_MS)
    expect(page.locator("#status")).to_contain_text("10 of 11 files read", timeout=WAIT_MS)
    shoot(page, "05-eleven-files")


def test_a_file_over_the_size_limit_is_refused_by_name_and_the_rest_read(page, tmp_path):
    big = tmp_path / "huge.pdf"
    big.write_bytes((ASSETS / "chart-report.pdf").read_bytes() + b"0" * (MAX_FILE_MB * 1024 * 1024 + 1))
    page.set_input_files(UPLOAD, [str(big), str(ASSETS / "diagram.png")])
    expect(page.get_by_text(f"huge.pdf is 5.0 MB; the limit is {MAX_FILE_MB} MB (MAX_FILE_MB).")).to_be_visible(
        timeout=WAIT_MS
    )  # the API's sentence
    expect(page_images(page, "diagram")).to_have_count(1, timeout=WAIT_MS)
    shoot(page, "06-too-large")


def test_a_file_over_twice_the_limit_is_not_sent_and_is_refused_by_name(page, tmp_path):
    """The page sends a stand-in for a file over MAX_FILE_MB (ui.browser): Gradio's own limit, twice that,
    refused the whole batch with a toast; now the file is refused alone, by name, and never uploaded."""
    giant = tmp_path / "giant.pdf"
    giant.write_bytes((ASSETS / "chart-report.pdf").read_bytes() + b"0" * (2 * MAX_FILE_MB * 1024 * 1024))
    page.set_input_files(UPLOAD, [str(giant), str(ASSETS / "diagram.png")])
    expect(page.get_by_text(f"giant.pdf is 10.0 MB; the limit is {MAX_FILE_MB} MB (MAX_FILE_MB).")).to_be_visible(
        timeout=WAIT_MS
    )
    expect(page_images(page, "diagram")).to_have_count(1, timeout=WAIT_MS)
    expect(page.get_by_text("maximum allowed size")).to_have_count(0)
    expect(page.locator("#uploads").get_by_text("Error", exact=True)).to_have_count(0)
    uploaded = list(running_app().temp.rglob("giant.pdf"))
    assert uploaded and all(path.stat().st_size < 1024 for path in uploaded)  # the stand-in reached it, not the file
    shoot(page, "06b-over-server-limit")


def test_audio_shows_a_player_and_a_timed_transcript(page):
    page.locator("#pages-examples").get_by_role("button", name="Try recording.wav").click()
    expect(page.locator("audio, [data-testid='waveform-x']").first).to_be_attached(timeout=WAIT_MS)
    expect(page.locator("p", has_text="Language:")).to_contain_text("Language: en", timeout=WAIT_MS)
    expect(page.locator("table").filter(has_text="Time")).to_contain_text("0:00 →")
    shoot(page, "07-audio")


def test_cache_panel_shows_the_size_and_clears(page):
    page.get_by_text("Cache", exact=True).click()
    expect(page.get_by_text("Cache at")).to_contain_text("MB")
    page.get_by_role("button", name="Clear cache").click()
    expect(page.get_by_text("Cache at")).to_contain_text("0.0 MB", timeout=WAIT_MS)


def test_with_nothing_configured_figures_are_outlined_and_their_text_read_line_by_line(
    browser_context, ocr_app, tmp_path
):
    figures = fixtures.figures_pdf(tmp_path / "figures.pdf")
    page = browser_context.new_page()
    page.goto(ocr_app)
    page.set_input_files(UPLOAD, str(figures))
    expect(page_images(page, figures.name)).to_have_count(6, timeout=WAIT_MS)
    expect(page.locator("#status")).to_contain_text("1 of 1 files read", timeout=WAIT_MS)
    expect(page.get_by_text("Page 1 — figures outlined")).to_be_visible()
    expect(page.locator("img[src*='figures-page-2-figures.png']")).to_be_visible()  # the render with its chart outlined
    expect(page.get_by_text("Page 3", exact=True)).to_be_visible()  # no figures: the plain render
    tree = page.locator(".prose.rl-description").filter(has_text=fixtures.DECISION_TREE[0])
    expect(tree).to_contain_text(fixtures.CAPTION)
    assert_has_lines(tree.inner_text(), fixtures.DECISION_TREE)  # each line of the figure stays a line
    expect(page.get_by_text("No figures on this page").first).to_be_visible()
    shoot(page, "08-figures-ocr")
    page.get_by_role("tab", name="Model payload").click()
    expect(page.locator("#estimates")).to_contain_text(
        "3 calls made (vision model or OCR), 2 saved on pages with only text"
    )
    page.close()
