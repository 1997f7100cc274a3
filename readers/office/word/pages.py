"""Word's pages: each block placed on the page where LibreOffice's PDF of the document shows it.

The blocks are looked for in the render's text (``readers.render.placement``), so page numbers
match what a person sees in Word; a paragraph or table that runs over a page break is cut where
the page breaks (a table's parts after the first repeat its heading rows, as Word does). Each page
is its blocks then its footnotes; its headers and footers, those of the section it is in (the
first-page ones on a section's first page), are its furniture. Without LibreOffice the same blocks
are one page. A document too long to lay out (``MAX_LAID_OUT_PAGES``) is not given to LibreOffice:
its Markdown is paged at its blocks, as a web page's is without images.
"""

from __future__ import annotations

import re
from dataclasses import replace

from ...markup.blocks import Block as PageBlock
from ...markup.blocks import BlockKind, Box, Cell
from ...markup.markdown import block_pages
from ...markup.tables import markdown_table
from ...markup.text import PAGE_CHARS
from ...models import Extraction, Page
from ...notices import Code, Notice
from ...pdf.pages import read_pdf_pages
from ...render.libreoffice import office_pdf
from ...render.placement import Passage, boxes_on, letters, place_blocks, rendered_pages
from ...storage.files import LETTERS, OFFICE_PDF
from .blocks import Block, Parsed

# The pages past which a document is not laid out, estimated from its sections (each starts a page,
# and LibreOffice's memory grows with their number: 30,000 took 5.7 GB), its blocks (some 40 a page)
# and its characters (some 3,000 a page). LibreOffice lays out some 20 pages a second on a busy
# machine: 3,000 sections took 23 s, 50,000 paragraphs 79 s.
MAX_LAID_OUT_PAGES = 2_000
BLOCKS_A_PAGE, CHARACTERS_A_PAGE = 40, 3_000


def _estimated_pages(parsed: Parsed) -> int:
    characters = sum(len(block.plain) for block in parsed.blocks)
    return max(parsed.sections, len(parsed.blocks) // BLOCKS_A_PAGE, characters // CHARACTERS_A_PAGE)


def page_blocks(blocks: list[tuple[Block, Box | None]]) -> list[PageBlock]:
    """The blocks of one page, each with its box on the print, then their footnotes."""
    shown = [
        PageBlock(block.kind, block.markdown, box, block.level, tuple(block.cells))
        for block, box in blocks
        if block.markdown
    ]
    return shown + [PageBlock(BlockKind.PARAGRAPH, line) for block, _ in blocks for line in block.bottom]


def furniture(on_page: dict[int, list[Block]], count: int, even_and_odd: bool) -> dict[int, list[str]]:
    """Each page's header and footer: those of the section the page starts in, the first-page
    ones on the page a section starts on. A section that starts within a page (a continuous
    break) has its headers from the next page on."""
    out, current, starting = {}, None, None
    for number in range(1, count + 1):
        first = False
        for index, block in enumerate(on_page.get(number, [])):
            if block.margins is not None and index == 0:
                current, first = block.margins, True
            elif block.margins is not None:
                starting = block.margins
        out[number] = current.lines(first, even_and_odd and number % 2 == 0) if current is not None else []
        if starting is not None:
            current, starting = starting, None
    return out


def _within(cells: list[tuple[Cell, ...]]) -> list[tuple[Cell, ...]]:
    """A table's part's cells, no cell spanning rows past the part's last."""
    return [
        tuple(replace(cell, row_span=min(cell.row_span, len(cells) - index)) for cell in row)
        for index, row in enumerate(cells)
    ]


def _split_table(block: Block, page: int, breaks: list[tuple[int, int]]) -> list[tuple[Block, int]]:
    """A table that runs over page breaks, cut between rows; each part after the first starts
    with the heading rows Word repeats on every page."""
    heading = list(zip(block.rows, block.cells))[: block.heading_rows]
    parts: list[tuple[list, int]] = []
    current: list = []
    counted, cuts = 0, list(breaks)
    for row, cells, count in zip(block.rows, block.cells, block.row_letters):
        while cuts and counted >= cuts[0][0]:
            if len(current) > len(heading) or (current and not heading):
                parts.append((current, page))
                current = list(heading)
            page = cuts.pop(0)[1]
        current.append((row, cells))
        counted += count
    parts.append((current, page))
    out = []
    for index, (rows, number) in enumerate(parts):
        table = markdown_table([row for row, _ in rows])
        part = _within([cells for _, cells in rows])
        out.append(
            (
                replace(block, markdown=table, cells=part)
                if index == 0
                else Block(table, kind=BlockKind.TABLE, cells=part),
                number,
            )
        )
    return out


def split_over_pages(block: Block, page: int, breaks: list[tuple[int, int]]) -> list[tuple[Block, int]]:
    """A paragraph or table that runs over page breaks, cut where the pages break: a paragraph
    between words, a table between rows.

    Only a paragraph whose Markdown holds no more letters than it shows (no link target, no note
    mark) is cut; anything else stays whole on the page where it starts.
    """
    if breaks and block.rows:
        return _split_table(block, page, breaks)
    if not breaks or block.kind != BlockKind.PARAGRAPH or letters(block.markdown) != letters(block.plain):
        return [(block, page)]
    pieces, words, counted = [], [], 0
    cuts = list(breaks)
    for word in re.findall(r"\S+\s*", block.markdown):
        words.append(word)
        counted += len(letters(word))
        if cuts and counted >= cuts[0][0]:
            pieces.append(("".join(words).strip(), page))
            words, page = [], cuts.pop(0)[1]
    pieces.append(("".join(words).strip(), page))
    return [
        (replace(block, markdown=text) if index == 0 else Block(text), number)
        for index, (text, number) in enumerate(pieces)
        if text
    ]


def _rendered(job, pdf) -> list[Passage]:
    """What each page of LibreOffice's PDF shows, kept in the cache beside that PDF."""
    store = job.services.store
    cached = store.get_json(job.sha256, LETTERS, OFFICE_PDF.name())
    if cached is None:
        cached = [[page.text, page.pictures] for page in rendered_pages(pdf)]
        store.put_json(job.sha256, LETTERS, cached, OFFICE_PDF.name())
    return [Passage(text, pictures) for text, pictures in cached]


def document_pages(job, parsed: Parsed, notices: list[Notice]) -> Extraction:
    """LibreOffice's pages with the blocks placed on them, or, without LibreOffice, all the blocks on
    one page; what is said of them follows ``notices``."""
    blocks = parsed.blocks
    if (estimated := _estimated_pages(parsed)) > MAX_LAID_OUT_PAGES:
        notices.append(
            Notice(
                Code.NO_IMAGES,
                f"{job.name} is too long to lay out (some {estimated:,} pages; at most {MAX_LAID_OUT_PAGES:,} "
                f"are): it has no page images, and its pages are its text cut at block boundaries (about "
                f"{PAGE_CHARS:,} characters each), not Word's pages.",
            )
        )
        paged = block_pages(page_blocks([(block, None) for block in blocks]), PAGE_CHARS)
        pages = [Page(number=n, blocks=paged[n - 1]) for n in job.select(len(paged), notices)]
        return Extraction(len(paged), pages, notices=notices)
    pdf = office_pdf(job, notices)
    if pdf is None:
        shown = furniture({1: blocks}, 1, parsed.even_and_odd)[1]
        whole = page_blocks([(block, None) for block in blocks]) + _furniture(shown)
        pages = [Page(number=n, blocks=whole) for n in job.select(1, notices)]
        return Extraction(1, pages, notices=notices)
    extraction = read_pdf_pages(job, pdf, job.sha256, text_from_pdf=False, render=job.options.images)
    extraction.notices[:0] = notices
    count, pages = extraction.page_count, extraction.pages
    if not parsed.drawn:  # vector drawings on its pages are its tables' borders and rules, no figures
        extraction.figures = {
            number: [found_figure for found_figure in found if found_figure.figure.kind != "drawing"]
            for number, found in extraction.figures.items()
        }
        for page in pages:
            page.figures = [figure for figure in page.figures if figure.kind != "drawing"]
    placed = place_blocks(
        [Passage(block.plain, block.pictures, block.repeated) for block in blocks],
        _rendered(job, pdf),
        parsed.edges,
        parsed.notes,
        parsed.margin_pictures,
    )
    if placed.unmatched > max(3, placed.matchable // 5):
        extraction.notices.append(
            Notice(
                Code.NOT_PLACED,
                f"{placed.unmatched} of {placed.matchable} passages of {job.name} "
                "were not found in LibreOffice's rendering; they are put on "
                "the page of the passage before them, so their page numbers may be off.",
            )
        )
    on_page: dict[int, list[tuple[Block, Box | None]]] = {}
    for block, start, breaks, boxes in zip(blocks, placed.pages, placed.breaks, boxes_on(pdf, placed)):
        for piece, number in split_over_pages(block, start, breaks):
            on_page.setdefault(number, []).append((piece, boxes.get(number)))
    margins = furniture(
        {number: [block for block, _ in placed] for number, placed in on_page.items()}, count, parsed.even_and_odd
    )
    for page in pages:
        if page.error is None:
            page.blocks = page_blocks(on_page.get(page.number, [])) + _furniture(margins[page.number])
    return extraction


def _furniture(lines: list[str]) -> list[PageBlock]:
    return [PageBlock(BlockKind.FURNITURE, line) for line in lines]
