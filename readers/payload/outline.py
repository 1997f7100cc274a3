"""A reading's outline, without its text: each page's tokens in both modes, its tables and figures,
and the tree of its headings with their pages (its heading blocks) — what an agent needs to choose
what to read.

``readings`` are ``readers.models.Reading`` objects (this module does not import the model), the
same pages read twice: for a text-only model and for a multimodal one.
"""

from __future__ import annotations

from collections.abc import Callable

from ..markup.blocks import Block, BlockKind
from .budget import default_count, page_tokens


def heading_tree(found: list[tuple[int, int, str]]) -> list[dict]:
    """``found`` (page, level, title), in order, as a tree: each heading holds the lower ones after it."""
    roots: list[dict] = []
    stack: list[tuple[int, dict]] = []
    for page, level, title in found:
        node = {"title": title, "page": page}
        while stack and stack[-1][0] >= level:
            stack.pop()
        (stack[-1][1].setdefault("children", []) if stack else roots).append(node)
        stack.append((level, node))
    return roots


def table_summary(table: Block) -> str:
    """A table as its header row and its size: ``Part | Stock | Bin (4 rows)``."""
    header, *rows = table.grid()
    return f"{' | '.join(header)} ({len(rows)} {'row' if len(rows) == 1 else 'rows'})"


def figure_summary(figure) -> dict:
    return {
        key: value
        for key, value in (("kind", figure.kind), ("caption", figure.caption), ("chart", figure.chart))
        if value
    }


def outline_pages(
    text_only, multimodal, count: Callable = default_count
) -> tuple[list[dict], list[tuple[int, int, str]]]:
    """Each page of the two readings of the same pages as a row of the outline, and its headings
    as (page, level, title)."""
    rows, found = [], []
    for page, text_tokens, image_tokens in zip(
        text_only.pages, page_tokens(text_only, count), page_tokens(multimodal, count)
    ):
        row = {"number": page.number, "text_only": text_tokens, "multimodal": image_tokens}
        if page.section:
            row["section"] = page.section
        if page.line is not None:
            row["line"] = page.line
        if tables := [block for block in page.blocks if block.kind == BlockKind.TABLE and block.rows]:
            row["tables"] = [table_summary(table) for table in tables]
        if page.figures:
            row["figures"] = [figure_summary(figure) for figure in page.figures]
        if page.error:
            row["error"] = page.error
        rows.append(row)
        found += [(page.number, block.level, block.title) for block in page.blocks if block.kind == BlockKind.HEADING]
    return rows, found
