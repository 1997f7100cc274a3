"""Web pages (HTML, XHTML): the main content as Markdown, on the pages the browser prints.

readability-lxml finds the page's main content (leaving out navigation, sidebars, scripts,
styles and cookie banners) and markdownify writes it as Markdown: headings, lists, tables, links
with their targets. The page is printed to PDF by headless Chromium (Debian's, through
Playwright) with JavaScript off and every request refused, so nothing is fetched while reading a
file; the printed pages are the reading's pages, each with its image and the Markdown of the
content printed on it. Without Chromium the Markdown is one page, with a warning.

``html_markdown`` is the one HTML-to-Markdown step: feeds, EPUB chapters and e-mail bodies use it too.
"""

from __future__ import annotations

import re
import shutil

import lxml.html
import pypdfium2 as pdfium
from lxml.etree import ParserError
from markdownify import markdownify
from readability import Document
from readability.readability import Unparseable

from ..models import Page
from ..store import write_atomic
from .pdf import PDFIUM_LOCK, read_pdf_pages
from .text import decode

MIN_TEXT_LENGTH = 5  # readability drops blocks shorter than this: its default (25) drops small data tables
PRINT_TIMEOUT_MS = 60_000
PRINTED_NAME = "printed.pdf"
NOT_CONTENT = "//script|//style|//noscript|//template|//head"


def decode_html(data: bytes, name: str) -> str:
    """The page's text in the charset its <meta> declares, else as detected."""
    declared = re.search(rb"""<meta[^>]+charset\s*=\s*["']?([\w.:-]+)""", data[:4096], re.I)
    return decode(data, name, declared.group(1).decode("ascii") if declared else None)


def html_markdown(html: str, main_content: bool = False) -> str:
    """Markdown of ``html``: with ``main_content``, only what readability finds is the page's
    content, under the page's title; otherwise everything but scripts and styles."""
    html = re.sub(r"^\s*<\?xml[^>]*\?>", "", html)  # XHTML's declaration: lxml refuses it in a decoded string
    title = ""
    if main_content:
        try:
            document = Document(html, min_text_length=MIN_TEXT_LENGTH)
            html, title = document.summary(html_partial=True), document.short_title()
        except (Unparseable, ParserError, ValueError):  # nothing readability can score: keep the whole page
            pass
    try:
        tree = lxml.html.fromstring(html)
    except (ParserError, ValueError):
        return ""
    for element in tree.xpath(NOT_CONTENT):
        element.drop_tree()
    for link in tree.iter("a"):
        link.attrib.pop("title", None)  # a link's tooltip repeats its text at the cost of tokens
    for image in tree.iter("img"):
        if image.get("src", "").startswith("data:"):
            image.set("src", "")  # inline image data is pixels, not text
    markdown = markdownify(lxml.html.tostring(tree, encoding="unicode"), heading_style="ATX", bullets="-", table_infer_header=True)
    markdown = re.sub(r"\n{3,}", "\n\n", re.sub(r"[ \t]+\n", "\n", markdown)).strip()  # <br> leaves two trailing spaces
    if title and not re.search(r"^# ", markdown, re.M):
        markdown = f"# {title}\n\n{markdown}"
    return markdown


def _squash(text: str) -> str:
    return re.sub(r"\W+", "", text).lower()


def place_blocks(markdown: str, printed: list[str]) -> list[list[str]]:
    """Markdown blocks on the printed pages where their text starts (in order, never backwards);
    a block whose text is not found stays on the page of the block before it."""
    pages: list[list[str]] = [[] for _ in printed] or [[]]
    squashed = [_squash(text) for text in printed]
    current = 0
    for block in filter(None, (b.strip() for b in re.split(r"\n\s*\n", markdown))):
        plain = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", block)  # a link's text is printed, its target is not
        key = _squash(plain)[:24]
        if key:
            current = next((n for n in range(current, len(squashed)) if key in squashed[n]), current)
        pages[current].append(block)
    return pages


def chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


def print_page(html: str, target) -> None:
    """Print ``html`` to the PDF ``target`` with headless Chromium, JavaScript off, nothing fetched."""
    from playwright.sync_api import sync_playwright  # only when a page is printed: it starts a driver process

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium(), args=["--no-sandbox"], timeout=PRINT_TIMEOUT_MS)
        try:
            context = browser.new_context(java_script_enabled=False, offline=True)
            context.route("**/*", lambda route: route.abort())  # stylesheets, images, frames: nothing remote or local is loaded
            page = context.new_page()
            page.set_default_timeout(PRINT_TIMEOUT_MS)
            page.set_content(html, wait_until="load")
            data = page.pdf(format="A4", print_background=True)
        finally:
            browser.close()
    write_atomic(target, data)


def _printed(job, html: str):
    """The cached PDF Chromium printed of the page, or None with a warning on the job."""
    target = job.services.store.path(job.sha256, PRINTED_NAME)
    if target.is_file():
        return target
    if chromium() is None:
        job.warnings.append(f"Chromium is not installed, so {job.name} has no page images and its text is one page. Install it (make setup does).")
        return None
    try:
        print_page(html, target)
    except Exception as error:  # noqa: BLE001 - Playwright raises its own Error and TimeoutError; the text is still read
        job.warnings.append(f"Chromium could not print {job.name} ({type(error).__name__}), so it has no page images; its text is still read.")
        return None
    return target


def read(job):
    html = decode_html(job.path.read_bytes(), job.name)
    markdown = html_markdown(html, main_content=True)
    pdf = _printed(job, html)
    if pdf is None:
        return job.reading(1, [Page(number=n, text=markdown) for n in job.select(1)])
    with PDFIUM_LOCK:
        document = pdfium.PdfDocument(str(pdf))
        try:
            printed = [document[index].get_textpage().get_text_range() for index in range(len(document))]
        finally:
            document.close()
    blocks = place_blocks(markdown, printed)
    count, pages = read_pdf_pages(job, pdf, job.sha256, text_from_pdf=False)
    for page in pages:
        page.text, page.tables = "\n\n".join(blocks[page.number - 1]), []
    return job.reading(count, pages)
