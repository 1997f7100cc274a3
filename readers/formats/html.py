"""Web pages (HTML, XHTML): the page less its chrome as Markdown, on the pages the browser prints.

The page less its chrome (navigation, banners, sidebars) as Markdown (``readers.markup.html``);
the page printed to PDF by headless Chromium (``readers.render.browser``), nothing fetched; the
printed pages are the reading's pages, each with its image and the Markdown blocks placed on it
(``readers.render.placement``, as Word's are). A printed page that shows none of the main content
(only navigation, a sidebar, a list of languages) says so in one line, so its block is never empty
and the page numbers stay the print's, the same as its image's. Without Chromium the Markdown is
one page, with a warning.
"""

from __future__ import annotations

from ..markup.html import decode_html, html_markdown
from ..models import Page
from ..pdf.pages import read_pdf_pages
from ..render import browser
from ..render.placement import markdown_on_pages, rendered_pages

PRINTED_NAME = "printed.pdf"
NO_MAIN_CONTENT = "(no main content on this printed page: what it prints, such as navigation or a sidebar, is left out)"


def _printed(job, html: str):
    """The cached PDF Chromium printed of the page, or None with a warning on the job."""
    target = job.services.store.path(job.sha256, PRINTED_NAME)
    if target.is_file():
        return target
    if browser.chromium() is None:
        job.warnings.append(
            f"Chromium is not installed, so {job.name} has no page images "
            "and its text is one page. Install it (make setup does)."
        )
        return None
    try:
        browser.print_page(html, target)
    except Exception as error:  # noqa: BLE001 - Playwright raises its own Error and TimeoutError; the text is still read
        job.warnings.append(
            f"Chromium could not print {job.name} ({type(error).__name__}), "
            "so it has no page images; its text is still read."
        )
        return None
    return target


def read(job):
    html = decode_html(job.path.read_bytes(), job.name)
    markdown = html_markdown(html, main_content=True)
    pdf = _printed(job, html)
    if pdf is None:
        return job.reading(1, [Page(number=n, text=markdown) for n in job.select(1)])
    blocks = markdown_on_pages(markdown, rendered_pages(pdf))
    count, pages, found_figures = read_pdf_pages(job, pdf, job.sha256, text_from_pdf=False, render=job.options.images)
    for page in pages:
        page.text, page.tables = "\n\n".join(blocks[page.number - 1]) or NO_MAIN_CONTENT, []
    return job.reading(count, pages, pdf, found_figures)
