"""Web pages (HTML, XHTML): the page less its chrome as Markdown, paged as a long text is, or on
the pages the browser prints when page images are wanted.

The page less its chrome (navigation, banners, sidebars) as Markdown (``readers.markup.html``).
Read without page images (text only, no question, no vision model that looks at whole pages) the
page is not printed: its Markdown is cut into pages at block boundaries
(``readers.markup.markdown.markdown_pages``), which costs a fraction of printing, and the reading
says so in one line. With page images the page is printed to PDF by headless Chromium
(``readers.render.browser``), nothing fetched; the printed pages are the reading's pages, each with
its image and the Markdown blocks placed on it (``readers.render.placement``, as Word's are). A
printed page that shows none of the main content (only navigation, a sidebar, a list of languages)
says so in one line, so its block is never empty and the page numbers stay the print's, the same
as its image's. Without Chromium the Markdown is paged as without images, with a warning.
"""

from __future__ import annotations

from ..errors import ReaderError
from ..markup.html import decode_html, html_markdown, page_title
from ..markup.markdown import markdown_pages
from ..markup.text import PAGE_CHARS
from ..models import Extraction, Page
from ..notices import Code, Notice
from ..pdf.pages import read_pdf_pages
from ..render import browser
from ..render.placement import markdown_on_pages, rendered_pages
from ..render.sandbox import NOT_RUN, engine_allowed
from ..storage.files import PRINTED

NO_MAIN_CONTENT = "(no main content on this printed page: what it prints, such as navigation or a sidebar, is left out)"


def _printed(job, html: str, notices: list[Notice]):
    """The cached PDF Chromium printed of the page, or None with a notice."""
    target = job.services.store.path(job.sha256, PRINTED)
    if target.is_file():
        return target
    if browser.chromium() is None:
        notices.append(
            Notice(
                Code.NO_IMAGES,
                f"Chromium is not installed, so {job.name} has no page images "
                "and its text is paged at its blocks. Install it (make setup does).",
            )
        )
        return None
    if not engine_allowed(job, "Chromium", notices):
        notices.append(Notice(Code.NO_IMAGES, f"{job.name} has no page images: {NOT_RUN.format(engine='Chromium')}"))
        return None
    try:
        browser.print_page(html, target)
    except ReaderError:  # the reading's time is spent (TOO_COMPLEX): the file is refused
        raise
    # Playwright raises its own Error and TimeoutError; the text is still read.
    except Exception as error:  # noqa: BLE001
        notices.append(
            Notice(
                Code.NO_IMAGES,
                f"Chromium could not print {job.name} ({type(error).__name__}), "
                "so it has no page images; its text is still read.",
            )
        )
        return None
    return target


def read(job):
    notices: list[Notice] = []
    html = decode_html(job.path.read_bytes(), job.name, notices)
    markdown = html_markdown(html, main_content=True, notices=notices, name=job.name)
    if not job.options.images:
        notices.append(
            Notice(
                Code.TEXT_PAGES,
                f"{job.name} was read without printing it: its pages are its text cut at block boundaries "
                f"(about {PAGE_CHARS:,} characters each), not the pages a browser prints. Ask for page images "
                "to read it on its printed pages.",
            )
        )
    pdf = _printed(job, html, notices) if job.options.images else None
    if pdf is None:
        texts = markdown_pages(markdown, PAGE_CHARS)
        extraction = Extraction(
            len(texts), [Page(number=n, text=texts[n - 1]) for n in job.select(len(texts), notices)]
        )
    else:
        blocks = markdown_on_pages(markdown, rendered_pages(pdf))
        extraction = read_pdf_pages(job, pdf, job.sha256, text_from_pdf=False, render=job.options.images)
        for page in extraction.pages:
            page.text, page.tables = "\n\n".join(blocks[page.number - 1]) or NO_MAIN_CONTENT, []
    pages = extraction.pages
    title = page_title(html)
    if title and pages and pages[0].number == 1:  # the name a browser shows in its tab and prints at the top
        pages[0].furniture = [title, *pages[0].furniture]
    extraction.notices[:0] = notices
    return job.reading(extraction)
