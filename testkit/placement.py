"""Where a Word document's blocks land against where LibreOffice renders them, scored on
``testkit.fixtures.placement_document``: every block starts with a marker (``ZQ0042``), and the
rendered page holding that marker is the block's page. The markers are then taken out of both sides,
so placement works from the document's real words, as it must on any file. ReadLens (a forward-only
cursor, ``readers.render.placement``) is scored beside two simple approaches: pages shared out by
character count, and "the first page that holds the block's first words" (what the DOCX reader did
for tables before). Long paragraphs and long tables also end with a marker (``ZE0042``): one that runs
over a page break must end on the page the render ends it on, which only cutting it there gets right.
``bench_placement`` prints the scores; ``tests/test_structure.py`` holds ReadLens to them."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from time import perf_counter

import docx

from readers.office.word.pages import split_over_pages
from readers.office.word.walker import document_blocks
from readers.render.libreoffice import convert_to_pdf
from readers.render.placement import KEY, Passage, letters, place_blocks, rendered_pages

MARKER = re.compile(r"z[qe]\d{4}", re.IGNORECASE)


def unmarked(block):
    """The block as if its markers were not there (in this fixture a table cell's Markdown is its text)."""
    rows = [[MARKER.sub("", cell) for cell in row] for row in block.rows]
    return replace(
        block,
        markdown=MARKER.sub("", block.markdown),
        plain=MARKER.sub("", block.plain),
        rows=rows,
        row_letters=[len(letters("".join(row))) for row in rows],
        repeated=MARKER.sub("", block.repeated),
    )


def proportional(blocks: list[str], page_count: int) -> list[int]:
    total = sum(len(text) for text in blocks) or 1
    pages, before = [], 0
    for text in blocks:
        pages.append(min(page_count, 1 + before * page_count // total))
        before += len(text)
    return pages


def first_page_holding(blocks: list[str], rendered: list[str]) -> list[int]:
    pages, page = [], 1
    for text in blocks:
        key = letters(text)[:KEY]
        if len(key) >= 6:
            page = next((number for number, page_text in enumerate(rendered, 1) if key in page_text), page)
        pages.append(page)
    return pages


def rendered(path: Path, work: Path) -> tuple:
    """The Word document's blocks as its reader parses them, and its pages as LibreOffice renders them."""
    pdf = work / f"{path.stem}.pdf"
    convert_to_pdf(path, "docx", pdf, 300, work / "profiles", path.name)
    return document_blocks(docx.Document(str(path))), rendered_pages(pdf)


def placed_in(blocks: list, pages: list[Passage], parsed) -> tuple:
    """The blocks placed on the pages, and the seconds the placement took."""
    start = perf_counter()
    placed = place_blocks(
        [Passage(block.plain, block.pictures, block.repeated) for block in blocks],
        pages,
        parsed.edges,
        parsed.notes,
        parsed.margin_pictures,
    )
    return placed, perf_counter() - start


def measure(path: Path, work: Path) -> list:
    """Two rows of the benchmark's table: blocks placed where they start, and where they end, by
    ReadLens and by the two simple approaches, against the markers' pages."""
    parsed, pages = rendered(path, work)
    # the first page showing it: a table's heading row (with its marker) shows again on the next pages
    truth_by_marker = {}
    for number, page in enumerate(pages, 1):
        for marker in MARKER.findall(page.text):
            truth_by_marker.setdefault(marker.lower(), number)
    stripped = [Passage(MARKER.sub("", page.text), page.pictures) for page in pages]
    blocks = [unmarked(block) for block in parsed.blocks]
    texts = [block.plain for block in blocks]
    placed, seconds = placed_in(blocks, stripped, parsed)
    simple = proportional(texts, len(pages))
    first = first_page_holding(texts, [page.text for page in stripped])
    checked = [
        (index, truth_by_marker[found.group(0).lower()])
        for index, block in enumerate(parsed.blocks)
        if (found := re.search(r"ZQ\d{4}", block.markdown)) and found.group(0).lower() in truth_by_marker
    ]
    ends = [
        (index, truth_by_marker[found.group(0).lower()])
        for index, block in enumerate(parsed.blocks)
        if (found := re.search(r"ZE\d{4}", block.markdown)) and found.group(0).lower() in truth_by_marker
    ]
    last_page = {
        index: split_over_pages(block, page, breaks)[-1][1]
        for index, (block, page, breaks) in enumerate(zip(blocks, placed.pages, placed.breaks))
    }

    def score(pages: list[int] | dict[int, int], truths=checked) -> str:
        right = sum(pages[index] == truth for index, truth in truths)
        return f"{right}/{len(truths)} ({100 * right / len(truths):.1f}%)"

    return [
        [
            path.name,
            str(len(pages)),
            f"starts: {len(checked)}",
            score(placed.pages),
            score(simple),
            score(first),
            f"{seconds * 1000:.1f} ms",
        ],
        ["", "", f"ends: {len(ends)}", score(last_page, ends), score(simple, ends), score(first, ends), ""],
    ]
