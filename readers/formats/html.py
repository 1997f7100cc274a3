"""Web pages (HTML, XHTML): the page less its chrome, as blocks, paged as a long text is, or on the pages the
browser prints when the answer is read from page images.

The page less its chrome (navigation, banners, sidebars) as Markdown blocks (``readers.markup.html``).
Read for a text-only model (no question, no vision model that looks at whole pages) the page is not
printed: its blocks are cut into pages of about ``PAGE_CHARS`` characters
(``readers.markup.markdown.block_pages``), which costs a fraction of printing, and the reading says so in
one line; the app, the API, the command line and batch give those pages alike, images or not. Read for a
model that sees the pages, it is printed to PDF by headless Chromium (``readers.render.browser``), nothing
fetched: the printed pages are the reading's pages, each with the blocks placed on it and their boxes there
(``readers.render.placement``, as Word's are), and its image when images are asked for. A printed page
that shows none of the main content (only navigation, a sidebar, a list of languages) has no blocks, so
it is no page of the payload; the page numbers stay the print's, the same as its image's. Without
Chromium the blocks are paged as for a text-only model, with a warning.
"""

from __future__ import annotations

from ..errors import ReaderError
from ..markup.blocks import Block, BlockKind
from ..markup.html import decode_html, html_blocks, page_title
from ..markup.markdown import block_pages
from ..markup.text import PAGE_CHARS
from ..models import Extraction, Page
from ..notices import Code, Notice
from ..pdf.pages import read_pdf_pages
from ..render import browser
from ..render.placement import blocks_on_pages
from ..render.sandbox import NOT_RUN, engine_allowed
from ..storage.files import PRINTED


def _printed(job, html: str, notices: list[Notice]):
    """The cached PDF Chromium printed of the page, or None with a notice."""
    target = job.services.store.path(job.sha256, PRINTED)
    if target.is_file():
        return target
    if browser.chromium() is None:
        notices.append(
            Notice(
                Code.NO_IMAGES,
                f"Chromium is not installed, so {job.name} has no page images and its pages are its text cut at "
                f"block boundaries (about {PAGE_CHARS:,} characters each), not the pages a browser prints. "
                "Install it (make setup does).",
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
                f"Chromium could not print {job.name} ({type(error).__name__}), so it has no page images and its "
                f"pages are its text cut at block boundaries (about {PAGE_CHARS:,} characters each).",
            )
        )
        return None
    return target


def read(job):
    notices: list[Notice] = []
    html = decode_html(job.path.read_bytes(), job.name, notices)
    blocks = html_blocks(html, main_content=True, notices=notices, name=job.name)
    if not job.pictured:
        notices.append(
            Notice(
                Code.TEXT_PAGES,
                f"{job.name} was read without printing it: its pages are its text cut at block boundaries "
                f"(about {PAGE_CHARS:,} characters each), not the pages a browser prints. Ask for the pages a "
                "model sees (multimodal) to read it on its printed pages.",
            )
        )
    pdf = _printed(job, html, notices) if job.pictured else None
    if pdf is None:
        paged = block_pages(blocks, PAGE_CHARS)
        extraction = Extraction(
            len(paged), [Page(number=n, blocks=paged[n - 1]) for n in job.select(len(paged), notices)]
        )
    else:
        placed = blocks_on_pages(blocks, pdf)
        extraction = read_pdf_pages(job, pdf, job.sha256, text_from_pdf=False, render=job.options.images)
        for page in extraction.pages:
            page.blocks = placed[page.number - 1]
            if not page.blocks:  # what it prints is chrome: no picture of it is described either
                page.figures, extraction.figures[page.number] = [], []
    pages = extraction.pages
    title = page_title(html)
    if title and pages and pages[0].number == 1:  # the name a browser shows in its tab and prints at the top
        pages[0].blocks.insert(0, Block(BlockKind.FURNITURE, title))
    extraction.notices[:0] = notices
    return job.reading(extraction)
