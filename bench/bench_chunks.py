"""Chunks (issue 21): ReadLens's ``Reading.chunks`` side by side with docling's HybridChunker and
LangChain's RecursiveCharacterTextSplitter on the same documents, at 512 tokens: chunks per second,
chunks over the limit, table rows cut, chunks without a page, and parts of tables without their header.

The same text for all three: each document is read once by ReadLens. docling gets its pages'
headings, paragraphs, tables and visual descriptions as a DoclingDocument, each item with its page
(what docling's own converters hand its chunker); LangChain gets the text-only payload,
``as_text()`` (how a generic splitter is used on ReadLens's Markdown: it keeps no page). All three
count o200k_base tokens. A chunk holds a row when it has the row's cells in order, each close after
the one before (in whatever form the chunker writes a table: docling writes "row, column = value"),
and a row is cut when no chunk holds it; a part of a table
is without its header when a chunk holds rows of the table but not its header's cells. The time is
the chunking alone (best of 5), not the reading.

The peers are never the project's dependencies: they run in their scratch virtualenv outside the
repo (``bench.scratch.CHUNKERS``, ``readlens-bench-chunk-peers`` in the system's temp dir), in
``bench/chunk_peers.py``. If that fails, it says so and ReadLens is measured alone.

Target (issue 21): zero chunks over the limit, rows cut and chunks without a page; faster than docling.
"""

from __future__ import annotations

import json
import re
import tempfile
import time
from pathlib import Path

from bench import report
from bench.scratch import CHUNKERS
from readers import Services, read_file
from readers.markup.blocks import BlockKind
from readers.payload.tokens import text_tokens
from readers.render.libreoffice import soffice
from testkit import CORPUS, ROOT, fixtures, make_settings

MAX_TOKENS = 512
REPEATS = 5


def _filled(cells: list[str]) -> list[str]:
    return [cell for cell in cells if cell]


def page_items(page) -> tuple[list[dict], list[tuple[list[str], list[list[str]]]]]:
    """A page's blocks as docling items (headings, paragraphs, tables; a chart's title and notes as
    paragraphs), and its tables as (header's cells, each row's cells), empty cells left out."""
    items, tables = [], []
    for block in page.blocks:
        if block.kind == BlockKind.FURNITURE:
            continue
        if block.kind == BlockKind.HEADING:
            items.append({"kind": "heading", "level": block.level, "text": block.title})
            continue
        lines = [line for line in block.text.split("\n") if line.strip()]
        if block.kind == BlockKind.CHART:
            items.append({"kind": "text", "text": lines[0]})  # its title line
        if block.kind != BlockKind.CHART and len(block.rows) < 2:  # a paragraph, or a table of a header alone
            items.append({"kind": "text", "text": block.text})
        if len(block.rows) < 2:
            continue
        table = block.grid()
        items.append({"kind": "table", "rows": table})
        items += [{"kind": "text", "text": line} for line in lines[len(table) + 2 :]]  # a chart's notes
        tables.append((_filled(table[0]), [_filled(row) for row in table[1:] if len(_filled(row)) >= 2]))
    return items, tables


def documents(folder: Path, services: Services) -> list:
    paths = [
        fixtures.report_pdf(folder / "report.pdf"),
        ROOT / "assets" / "chart-report.pdf",
        CORPUS / "pdfplumber" / "nics-background-checks-2015-11.pdf",
        CORPUS / "markitdown" / "test.pdf",
    ]
    if soffice():
        paths.insert(1, fixtures.report_docx(folder / "report.docx"))
    return [read_file(path, services=services) for path in paths]


def described(reading) -> tuple[dict, list]:
    """What the peers get of a reading, and its tables."""
    pages, tables = [], []
    for page in reading.pages:
        items, found = page_items(page)
        if page.description:
            items.append({"kind": "text", "text": page.description.strip()})
        pages.append({"number": page.number, "items": items})
        tables += found
    return {"name": reading.name, "pages": pages, "text": reading.as_text()}, tables


def _word(cell: str) -> re.Pattern:
    return re.compile(rf"(?<!\w){re.escape(cell)}(?!\w)")


def holds(text: str, row: list[str], header: list[str]) -> bool:
    """Whether ``text`` has the row's cells in order, each within reach of the one before: a
    separator, or (docling's form) the row's first cell and a column's name, so that the same
    numbers scattered over another table or the prose do not count."""
    reach = len(row[0]) + max(map(len, header), default=0) + 12
    for first in _word(row[0]).finditer(text):
        position = first.end()
        for cell in row[1:]:
            found = _word(cell).search(text, position, position + reach + len(cell))
            if not found:
                break
            position = found.end()
        else:
            return True
    return False


def scored(chunks: list[dict], tables: list, seconds: float, pages_known: bool) -> dict:
    texts = [chunk["text"] for chunk in chunks]
    counts = [text_tokens(text) for text in texts]
    holds_rows = [
        [[holds(text, row, header) for row in rows] for header, rows in tables] for text in texts
    ]  # chunk, table, row
    cut = sum(
        not any(held[table][index] for held in holds_rows)
        for table, (_, rows) in enumerate(tables)
        for index in range(len(rows))
    )
    headless = sum(
        any(held[table]) and not all(cell in text for cell in header)
        for text, held in zip(texts, holds_rows)
        for table, (header, _) in enumerate(tables)
    )
    return {
        "chunks": len(chunks),
        "largest": max(counts, default=0),
        "over": sum(count > MAX_TOKENS for count in counts),
        "cut": cut,
        "headless": headless,
        "pageless": sum(not chunk["pages"] for chunk in chunks) if pages_known else len(chunks),
        "seconds": seconds,
    }


def ours(reading) -> tuple[list[dict], float]:
    best = float("inf")
    for _ in range(REPEATS):
        start = time.perf_counter()
        chunks = reading.chunks(MAX_TOKENS)
        best = min(best, time.perf_counter() - start)
    return [{"text": chunk.text, "pages": chunk.pages} for chunk in chunks], best


def row(tool: str, name: str, score: dict, rows: int) -> list:
    rate = score["chunks"] / score["seconds"] if score["seconds"] else 0
    return [
        tool,
        name,
        score["chunks"],
        f"{score['largest']:,}",
        score["over"],
        f"{score['cut']} of {rows}",
        score["headless"],
        score["pageless"],
        f"{score['seconds'] * 1000:.1f} ms",
        f"{rate:,.0f}",
    ]


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="readlens-bench-") as folder:
        readings = documents(Path(folder), Services(make_settings(Path(folder) / "cache", vision_provider="ocr")))
        given = [described(reading) for reading in readings]
        source = Path(folder) / "documents.json"
        source.write_text(json.dumps([document for document, _ in given]), encoding="utf-8")
        peers = CHUNKERS.run("chunk_peers.py", source, MAX_TOKENS)
    table = [
        [
            "chunker",
            "document",
            "chunks",
            "largest (tokens)",
            f"over {MAX_TOKENS}",
            "table rows cut",
            "table parts without header",
            "without a page",
            "time",
            "chunks/s",
        ]
    ]
    totals: dict[str, dict] = {}
    for index, (reading, (_, tables)) in enumerate(zip(readings, given)):
        rows = sum(len(table_rows) for _, table_rows in tables)
        chunks, seconds = ours(reading)
        results = {"ReadLens": scored(chunks, tables, seconds, True)}
        if peers:
            results["docling HybridChunker"] = scored(
                peers[index]["docling"]["chunks"], tables, peers[index]["docling"]["seconds"], True
            )
            results["LangChain Recursive…Splitter"] = scored(
                peers[index]["langchain"]["chunks"], tables, peers[index]["langchain"]["seconds"], False
            )
        for tool, score in results.items():
            table.append(row(tool, reading.name, score, rows))
            total = totals.setdefault(
                tool,
                {
                    "chunks": 0,
                    "largest": 0,
                    "over": 0,
                    "cut": 0,
                    "headless": 0,
                    "pageless": 0,
                    "seconds": 0.0,
                    "rows": 0,
                },
            )
            for key in ("chunks", "over", "cut", "headless", "pageless", "seconds"):
                total[key] += score[key]
            total["largest"], total["rows"] = max(total["largest"], score["largest"]), total["rows"] + rows
    for tool, total in totals.items():
        table.append(row(f"**{tool}**", "all", total, total["rows"]))
    report.table(table)
    print(f"{MAX_TOKENS} tokens a chunk, o200k_base for all; time: the chunking alone, best of {REPEATS}")
