"""Each page's blocks (headings, paragraphs, tables, charts: ``readers.payload.blocks``) with where
they stand on the page (``readers.render.regions``): the ``blocks`` of the JSON answer, and what the
app lights on a page's render when its text is pointed at.

A reading has them when its pages come from a PDF (``Reading.pdf``: a PDF file, or the print made of
a document); pages read without one (a text file, an image, an e-book, a file inside an archive)
have none, and neither has a block whose text the page does not show (OCR's text of a scan). A chart
rebuilt from a drawing stands where its figure does.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..render.regions import block_boxes
from .blocks import parse


@dataclass(frozen=True)
class PlacedBlock:
    """A block of a page's text and its box: ``kind`` is "heading", "text", "table" or "chart";
    ``start`` and ``end`` are its characters in the page's ``text``; ``box`` is (left, top, right,
    bottom) as fractions of the page's width and height from its top-left corner, as a figure's."""

    kind: str
    start: int
    end: int
    box: tuple[float, float, float, float]


def placed_blocks(reading) -> list[list[PlacedBlock]]:
    """For each of ``reading``'s pages, its blocks that were found on the page, in reading order."""
    if reading.pdf is None:
        return [[] for _ in reading.pages]
    parsed = [
        parse(page.text, 0, len(page.text), markdown=True) if page.section is None and page.line is None else []
        for page in reading.pages
    ]
    boxes = block_boxes(
        reading.pdf.path,
        [
            (page.number, [page.text[block.start : block.end] for block in blocks])
            for page, blocks in zip(reading.pages, parsed)
        ],
    )
    placed = []
    for page, blocks, found in zip(reading.pages, parsed, boxes):
        charts = [figure.box for figure in page.figures if figure.chart]
        if len(charts) == sum(block.kind == "chart" for block in blocks):  # a chart rebuilt is its figure's box
            found = [charts.pop(0) if block.kind == "chart" else box for block, box in zip(blocks, found)]
        placed.append(
            [PlacedBlock(block.kind, block.start, block.end, box) for block, box in zip(blocks, found) if box]
        )
    return placed
