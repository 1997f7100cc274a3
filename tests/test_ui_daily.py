"""The app as a person uses it every day (issue 52): ``python app.py`` with nothing configured but the loopback
web servers it may fetch from (``URL_ALLOW``) and a short ``URL_TIMEOUT``, in Debian's Chromium at 1440×1000 and
390×844 (and the widths between); each test asserts what a person sees, the screenshots go to the artifacts
folder."""

from __future__ import annotations

import json
import re
import threading
from pathlib import Path

import pytest
from playwright.sync_api import expect

from testkit import CORPUS
from testkit.server import ARTIFACTS, launch_app, stop
from tests.loopback import Site
from tests.test_browser import ASSETS, UPLOAD, WAIT_MS, shoot
from tests.test_ui_app import PHONE, TOO_WIDE, open_app, open_tab
from tests.test_ui_files import DESKTOP, VIEWPORTS, tag

pytestmark = pytest.mark.browser

WARN, BOOK, REPORT = (
    CORPUS / "pdfplumber/ca-warn-report.pdf",  # 16 pages
    CORPUS / "pdfplumber/federal-register-2020-17221.pdf",  # 15 pages of text
    ASSETS / "chart-report.pdf",
)
# s: the app's wait for a server's answer: the loopback servers answer well within it on a busy machine, and the
# silent one below never does
URL_TIMEOUT = 5
# Each page box: its placeholder's width set in the box's font, and the width its text has inside the box.
PLACEHOLDERS = """rows => rows.flatMap(row => [...row.querySelectorAll('input[placeholder]')].map(input => {
  const probe = document.createElement('span'), style = getComputedStyle(input);
  probe.style.cssText = `position: absolute; visibility: hidden; white-space: nowrap; font: ${style.font}`;
  probe.textContent = input.placeholder;
  document.body.appendChild(probe);
  const text = probe.getBoundingClientRect().width;
  probe.remove();
  const inner = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return {placeholder: input.placeholder, text, inner};
}))"""
# Each line a search result shows, as "page 3 12": the page's link before it and its number.
SHOWN_LINES = """results => { const shown = []; let page = null;
  results.querySelectorAll('a, pre').forEach(node => node.tagName === 'A' ? page = node.textContent
    : node.textContent.trim().split('\\n').forEach(line => shown.push(`${page} ${line.match(/^\\d+/)[0]}`)));
  return shown; }"""
# Each file line's buttons: their text and where they stand.
BUTTONS = """rows => rows.map(row => [...row.querySelectorAll('button')].map(button => {
  const box = button.getBoundingClientRect();
  return {text: button.textContent.trim(), top: box.top, bottom: box.bottom, left: box.left, right: box.right};
}))"""


@pytest.fixture(scope="module")
def daily_app(tmp_path_factory):
    """The app with nothing configured, allowed to fetch from the tests' loopback servers, waiting URL_TIMEOUT."""
    url, process = launch_app(
        {
            "READLENS_CACHE_DIR": str(tmp_path_factory.mktemp("daily-app") / "cache"),
            "URL_ALLOW": "127.0.0.1",
            "URL_TIMEOUT": str(URL_TIMEOUT),
        },
        ARTIFACTS / "app-daily.log",
    )
    yield url
    stop(process)


def read_in(chromium, url: str, viewport: dict, *files):
    """The app at ``viewport`` with ``files`` uploaded in multimodal mode (nothing to describe: no OCR), once all
    are read (long files on a busy machine: the wait is for that event, however long it takes within minutes)."""
    page = open_app(chromium, url, viewport)
    page.get_by_label("Multimodal model").check()
    page.set_input_files(UPLOAD, [str(path) for path in files])
    expect(page.locator("#status")).to_contain_text(f"{len(files)} of {len(files)} files read", timeout=4 * WAIT_MS)
    return page


@VIEWPORTS
def test_a_web_address_not_read_has_its_cards_reason_and_is_never_a_link(chromium, daily_app, viewport):
    """A refused link-local address, a server that does not answer in time and an HTTP 404: the status line and
    the file list say why in a few words from each error's code, as the cards say it in full; none is a link."""
    hush = threading.Event()  # the silent server answers only once the test is over
    with Site({"/silent": lambda handler: hush.wait()}) as site:
        refused, silent, missing = "http://169.254.169.254/latest/meta-data", site.url("/silent"), site.url("/gone.pdf")
        page = open_app(chromium, daily_app, viewport)
        page.get_by_label("Or web addresses").fill(f"{refused} {silent} {missing}")
        page.get_by_label("Or web addresses").press("Enter")
        status = page.locator("#status")
        expect(status).to_contain_text(  # each read in turn, while its server is there
            f"0 of 3 files read · ⚠️ not read: {refused} (address refused), {silent} (could not be fetched), "
            f"{missing} (not found at that address)",
            timeout=WAIT_MS,
        )
    hush.set()
    rows = page.locator("#file-list .rl-file-row")
    expect(rows).to_have_text(
        [
            f"{refused} · not read — address refused",
            f"{silent} · not read — could not be fetched",
            f"{missing} · not read — not found at that address",
        ]
    )
    cards = page.locator(".rl-file")
    expect(cards.nth(0)).to_contain_text(f"{refused} is refused: 169.254.169.254 is a link-local address")
    expect(cards.nth(1)).to_contain_text("the server did not answer in time (URL_TIMEOUT)")
    expect(cards.nth(2)).to_contain_text(f"{missing} was not found on its server (HTTP 404)")
    expect(page.get_by_text("an unexpected error")).to_have_count(0)
    expect(status.locator("a")).to_have_count(0)  # names, not links
    expect(page.locator("a[href*='169.254'], a[href*='/silent'], a[href*='/gone.pdf']")).to_have_count(0)
    expect(page.locator(".rl-file h3").first).to_have_text(refused)  # the card names it as text too
    assert page.evaluate(TOO_WIDE, viewport["width"]) == []
    shoot(page, f"52-01-address-reasons-{tag(viewport)}")
    page.close()


def assert_file_lines_fit(page, width: int) -> None:
    """At this width: each page box shows its placeholder whole, each line's buttons stand on one line in order
    (Remove never on a line of its own), and nothing is wider than the screen."""
    rows = page.locator("#file-list .rl-file-row")
    boxes = rows.evaluate_all(PLACEHOLDERS)
    assert len(boxes) == 4  # Read pages and Go to page, for each long file
    cut = [box for box in boxes if box["text"] > box["inner"] + 0.5]
    assert not cut, (width, cut)  # "Read pages 1–16" whole, not "Read pages 1–1"
    for buttons in rows.evaluate_all(BUTTONS):
        assert [button["text"] for button in buttons] == ["Markdown", "JSON", "Remove"]
        assert max(button["top"] for button in buttons) - min(button["top"] for button in buttons) < 2, (width, buttons)
        assert all(left["right"] <= right["left"] for left, right in zip(buttons, buttons[1:])), (width, buttons)
    assert page.evaluate(TOO_WIDE, width) == [], width


@VIEWPORTS
def test_the_file_list_lays_out_at_every_width(chromium, daily_app, viewport):
    page = read_in(chromium, daily_app, viewport, WARN, BOOK, ASSETS / "diagram.png")
    rows = page.locator("#file-list .rl-file-row")
    expect(rows.nth(0)).to_contain_text("ca-warn-report.pdf · 16 pages")
    expect(rows.nth(0).get_by_placeholder("Read pages 1–16")).to_be_visible()
    expect(rows.nth(1).get_by_placeholder("Go to page 1–15")).to_be_visible()
    assert_file_lines_fit(page, viewport["width"])
    shoot(page, f"52-03-file-list-{tag(viewport)}")
    widths = [390, 480, 640] if viewport is PHONE else [641, 800, 1024, 1280, 1366, 1600, 1920]
    for width in widths:
        page.set_viewport_size({"width": width, "height": viewport["height"]})
        page.wait_for_function(f"window.innerWidth === {width}")
        assert_file_lines_fit(page, width)
    if viewport is DESKTOP:  # on a wide screen a long file's boxes and buttons share its name's line
        page.set_viewport_size({"width": 1920, "height": 1080})
        page.wait_for_function("window.innerWidth === 1920")
        name, tools = rows.nth(0).locator(".block.rl-name"), rows.nth(0).locator(".rl-file-tools")
        assert tools.bounding_box()["y"] < name.bounding_box()["y"] + name.bounding_box()["height"]
    page.close()


@VIEWPORTS
def test_a_search_shows_matches_on_neighbouring_lines_once(chromium, daily_app, viewport):
    page = read_in(chromium, daily_app, viewport, WARN)
    search = page.get_by_label("Search the files read")
    search.fill("Inc")
    search.press("Enter")
    results = page.locator("#search-results")
    expect(results).to_contain_text("ca-warn-report.pdf —", timeout=WAIT_MS)
    expect(results).to_contain_text(re.compile(r"page \d+, lines \d+, \d+"))  # neighbours, in one context
    shown = results.evaluate(SHOWN_LINES)
    assert shown and len(shown) == len(set(shown)), [line for line in shown if shown.count(line) > 1][:5]
    assert page.evaluate(TOO_WIDE, viewport["width"]) == []
    shoot(page, f"52-05-search-{tag(viewport)}")
    page.close()


FIRST_SCREENS = pytest.mark.parametrize(
    "viewport", [{"width": 1366, "height": 768}, DESKTOP, PHONE], ids=["1366x768", "desktop", "phone"]
)


@FIRST_SCREENS
def test_the_first_screen_shows_what_to_do(chromium, daily_app, viewport):
    page = open_app(chromium, daily_app, viewport)
    hint, examples = page.locator("#pages-empty"), page.locator("#pages-examples")
    expect(hint).to_contain_text("Each page will appear here")
    expect(examples.get_by_role("button", name="Try chart-report.pdf")).to_be_visible()
    for shown in (page.locator("#uploads"), page.get_by_label("Or web addresses")):
        expect(shown).to_be_in_viewport(ratio=1)
    expect(page.get_by_label("Search the files read")).to_be_hidden()  # nothing to search yet
    if viewport is PHONE:  # a phone's first screen is the upload; the hint and examples follow the controls
        assert hint.bounding_box()["y"] > page.locator("#hotwords").bounding_box()["y"]
    else:  # the hint and the examples without scrolling, under the upload and the controls
        for shown in (hint, examples.get_by_role("button", name="Try recording.wav")):
            expect(shown).to_be_in_viewport(ratio=1)
    assert page.evaluate("window.scrollY") == 0 and page.evaluate(TOO_WIDE, viewport["width"]) == []
    page.screenshot(path=str(ARTIFACTS / f"52-06-first-screen-{viewport['width']}x{viewport['height']}.png"))
    page.close()


@VIEWPORTS
def test_the_payload_view_names_each_image_rule_beside_its_tokens(chromium, daily_app, viewport):
    page = open_app(chromium, daily_app, viewport)
    page.get_by_label("Multimodal model").check()
    page.set_input_files(UPLOAD, str(REPORT))
    expect(page.locator("#status")).to_contain_text("1 of 1 files read", timeout=WAIT_MS)
    open_tab(page, "Model payload")
    table = page.locator("#estimates table")
    expect(table).to_be_visible(timeout=WAIT_MS)
    headers = table.locator("th").all_inner_texts()
    assert headers[3:5] == ["Image tokens", "Image rule"]  # the rule beside the figure
    rules = {  # four letter pages at 150 dpi (1275 × 1650 px)
        "Multimodal (OpenAI)": (4 * (85 + 170 * 4), "GPT-4o/4.1, high detail: 85 + 170 a 512 px tile"),
        "Multimodal (Anthropic)": (4 * 34 * 44, "Claude: a token a 28 px patch, within 1568 px and 1,568 tokens"),
        "Multimodal (Gemini)": (4 * 1120, "Gemini 3: 1,120 an image"),
        "PDF document (Gemini)": (4 * 560, "Gemini 3: 560 a PDF page"),
    }
    for mode, (tokens, rule) in rules.items():
        cells = table.locator("tr", has_text=mode).locator("td").all_inner_texts()
        assert abs(int(cells[3].replace(",", "")) - tokens) <= 4 * 34 and cells[4] == rule, (mode, cells)
    expect(page.locator("#estimates")).to_contain_text("Claude Opus 4.7 and later take 2576 px")
    if viewport is DESKTOP:  # the rules wrap in their column: the whole table in view, nothing to scroll
        assert table.evaluate("table => table.scrollWidth <= table.clientWidth")
    assert page.evaluate(TOO_WIDE, viewport["width"]) == []  # the table scrolls in its own box on a phone
    shoot(page, f"52-07-image-rules-{tag(viewport)}")
    page.close()


def listed(*names: str) -> list[re.Pattern]:
    """A download list's rows as a person reads them: each file's name (its ending set apart), then its size and
    the download mark."""
    return [
        re.compile(rf"^\s*{re.escape(Path(name).stem)}\s*{re.escape(Path(name).suffix)}[\d.]+\s+K?B\s+⇣")
        for name in names
    ]


def downloaded(page, link) -> str:
    """The text of the file ``link`` downloads."""
    with page.expect_download() as download:
        link.click()
    return Path(download.value.path()).read_text()


@VIEWPORTS
def test_the_reading_downloads_as_markdown_json_or_plain_text_for_all_files_and_each(chromium, daily_app, viewport):
    page = read_in(chromium, daily_app, viewport, REPORT, ASSETS / "sales.xlsx")
    open_tab(page, "Export")
    rows, links, citations = page.locator("#readings tr"), page.locator("#readings a"), page.get_by_label("Citations")
    expect(rows).to_have_text(listed("all-files.md", "chart-report.md", "sales.md"))  # Markdown, cited, at first
    expect(citations).to_be_checked()
    together = downloaded(page, links.nth(0))
    assert together.startswith("[FILE: chart-report.pdf]\n\n[PAGE 1]\n# Quarterly Sales Report 2024\n")
    assert "\n\n*(Source: chart-report.pdf, p. 3)*\n\n[PAGE 4]\n" in together
    assert "\n\n[FILE: sales.xlsx]\n\n[SHEET 1]\n" in together and "*(Source: sales.xlsx, sheet 2)*" in together
    report = downloaded(page, links.nth(1))
    assert report.startswith("[PAGE 1]\n") and "sales.xlsx" not in report and report in together
    shown = links.nth(0).get_attribute("href")  # the next has the same name, in a folder named by its content
    citations.uncheck()
    expect(links.nth(0)).not_to_have_attribute("href", shown)
    uncited = downloaded(page, links.nth(0))
    assert "(Source: " not in uncited and uncited.count("[PAGE ") == 4
    page.get_by_label("Plain text").check()
    expect(rows).to_have_text(listed("all-files.txt", "chart-report.txt", "sales.txt"))
    plain = downloaded(page, links.nth(1))
    assert "\nRegion  Q1   Q2   Q3   Q4\nNorth   120  135  150  170\nSouth   90   95   110  125\n" in plain
    assert "\nQuarterly Sales Report 2024\n" in plain and "|" not in plain and "(Source: " not in plain
    shown = links.nth(1).get_attribute("href")
    citations.check()
    expect(links.nth(1)).not_to_have_attribute("href", shown)
    assert "\n\n(Source: chart-report.pdf, p. 3)\n\n" in downloaded(page, links.nth(1))
    page.get_by_label("JSON").check()
    expect(rows).to_have_text(listed("all-files.json", "chart-report.json", "sales.json"))
    expect(citations).to_be_disabled()  # the API's answer is as it is
    answer = json.loads(downloaded(page, links.nth(0)))
    assert [file["name"] for file in answer["files"]] == ["chart-report.pdf", "sales.xlsx"]
    assert answer["text"] == uncited.rstrip("\n") and answer["tokens"]["openai"]["count"] > 0  # what the model gets
    assert page.evaluate(TOO_WIDE, viewport["width"]) == []
    shoot(page, f"52-08-export-{tag(viewport)}")
    page.close()
