"""What both frameworks' documents are made of: the files that a path, a URL, a folder or a list of
them names (a folder walked as ``readers.batch`` walks it: ``readers.batch.outputs.collect``), each
read once (``readers.batch.records.read_collected``), and each page or chunk of a reading as a
``Piece``: its text and its metadata.

A page's piece (mode ``page``) is what a text-only model receives for that page (``[PAGE 3]`` and
its text, then its visual content; ``Reading.as_text`` of the page alone), with:

    source     the path as given or walked (a file in a folder: the folder's path joined to its name), or the URL
    page       its number, 1-based (a recording has no pages: it is one piece, without ``page``)
    kind       the reading's kind: "pdf", "docx", "email", ...
    headings   the heading path its content starts under, outermost first
    citation   where it is, as the export and the chunks say it: "report.pdf, p. 3" (``readers.payload.citations``)
    tokens     the page's tokens as ``/read_file`` counts them (``readers.payload.budget.page_tokens``):
               exactly the text's ``o200k_base`` tokens, and its image's in multimodal mode
    blocks     its blocks, each {"kind", "text", "box"}, where the page has them (``page_blocks``)
    image      in multimodal mode, the page's render as base64 PNG

A chunk's piece (mode ``chunk``) is a chunk of ``Reading.chunks(max_tokens, overlap)``: its text,
with ``pages`` (in place of ``page``), ``headings``, ``citation`` and ``tokens`` the chunk's own, and
as ``blocks`` those of its pages that it holds text of, each with its ``page``.
"""

from __future__ import annotations

import base64
import os
from collections.abc import Iterable
from dataclasses import dataclass, replace

from ..batch.outputs import collect
from ..batch.records import Request, read_collected
from ..models import Reading
from ..options import ReadOptions
from ..payload.blocks import TABLE_RULE, parse
from ..payload.budget import page_tokens
from ..payload.chunks import Chunk, check_sizes, has_headings
from ..payload.citations import page_source, source
from ..payload.placed import placed_blocks
from ..services import Services

MODES = ("page", "chunk")

Given = str | os.PathLike | Iterable[str | os.PathLike]


@dataclass(frozen=True)
class Piece:
    """One document for a framework: its ``text`` and its ``metadata`` (see the module's docstring)."""

    text: str
    metadata: dict


def request(mode: str, max_tokens: int, overlap: int, options: ReadOptions) -> Request:
    """What each file is read with and cut into: a page a piece, or (``chunk``) a chunk a piece.
    Raises ``ValueError`` for another mode and ``ReaderError`` ``INVALID_QUERY`` for chunk sizes
    that cannot work, before any file is read."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(map(repr, MODES))}, not {mode!r}")
    if mode == "chunk":
        check_sizes(max_tokens, overlap)
    return Request(options, max_tokens if mode == "chunk" else 0, overlap if mode == "chunk" else 0)


def sources(given: Given) -> list[str]:
    """Each file ``given`` names: a path or URL as it is, a folder's files walked in name order (names
    starting with a dot left out), for a list each of its items in turn."""
    items = [given] if isinstance(given, str | os.PathLike) else list(given)
    return collect([os.fspath(item) for item in items])


def pieces(file: str, request: Request, services: Services | None) -> list[Piece]:
    """The pieces of one file, read once. Raises ``ReaderError`` when the file is refused."""
    reading = read_collected(file, request.options, services)
    if request.chunk_tokens:
        return _chunk_pieces(reading, file, request)
    return _page_pieces(reading, file)


def page_blocks(reading: Reading) -> list[list[dict]]:
    """Each page's blocks where it stands on the page, in reading order, as {"kind", "text", "box"}:
    "heading", "text", "table" or "chart", its Markdown, and (left, top, right, bottom) as fractions
    of the page from its top-left corner. Pages read without a print (a text file, an image, a file
    inside an archive) have none. The one place the integrations take blocks from."""
    return [
        [{"kind": block.kind, "text": page.text[block.start : block.end], "box": list(block.box)} for block in placed]
        for page, placed in zip(reading.pages, placed_blocks(reading))
    ]


def page_headings(reading: Reading) -> list[list[str]]:
    """For each page, the heading path its content starts under (the headings above its first block
    that is not one), outermost first, as a chunk's ``headings``; a file inside a container starts afresh."""
    paths, path, section = [], [], None
    for page in reading.pages:
        if page.section != section:
            path, section = [], page.section
        start = None
        for block in parse(page.text, 0, len(page.text), has_headings(page, reading.name)):
            if block.kind == "heading":
                path = [(level, title) for level, title in path if level < block.level] + [(block.level, block.title)]
            elif start is None:
                start = [title for _, title in path]
        paths.append(start if start is not None else [title for _, title in path])
    return paths


def _page_pieces(reading: Reading, file: str) -> list[Piece]:
    common = {"source": file, "kind": reading.kind}
    if not reading.pages:  # a recording: its transcript, one piece
        if reading.transcript is None:
            return []
        cited = source(reading.name, reading.kind, reading.page_count)
        whole = {"headings": [], "citation": cited, "tokens": reading.tokens(), "blocks": []}
        return [Piece(reading.as_text(), {**common, **whole})]
    found = []
    for page, headings, tokens, blocks in zip(
        reading.pages, page_headings(reading), page_tokens(reading), page_blocks(reading)
    ):
        metadata = {
            **common,
            "page": page.number,
            "headings": headings,
            "citation": page_source(reading, page),
            "tokens": tokens,
            "blocks": blocks,
        }
        if reading.multimodal and page.image:
            metadata["image"] = base64.b64encode(page.image).decode("ascii")
        found.append(Piece(replace(reading, pages=[page]).as_text(), metadata))
    return found


def _chunk_pieces(reading: Reading, file: str, request: Request) -> list[Piece]:
    blocks = {page.number: placed for page, placed in zip(reading.pages, page_blocks(reading))}
    return [
        Piece(
            chunk.text,
            {
                "source": file,
                "pages": chunk.pages,
                "kind": reading.kind,
                "headings": chunk.headings,
                "citation": chunk.citation,
                "tokens": chunk.tokens,
                "blocks": _held(
                    chunk, [{"page": number, **block} for number in chunk.pages for block in blocks[number]]
                ),
            },
        )
        for chunk in reading.chunks(request.chunk_tokens, request.overlap_tokens)
    ]


def _held(chunk: Chunk, blocks: list[dict]) -> list[dict]:
    """The blocks of a chunk's pages that it holds text of: the one its content starts in, and those
    that start in its content. A chunk's content is cut from its pages' text at blocks, lines,
    sentences or words, so its first line lies in one block; a table's rule line is in every table
    and says nothing."""
    content = chunk.content
    lines = [line.strip() for line in content.split("\n")]
    first = next((line for line in lines if line and not TABLE_RULE.match(line)), "")

    def held(block: dict) -> bool:
        head = block["text"].split("\n", 1)[0].strip()
        return bool(first and first in block["text"]) or bool(head and head in content)

    return [block for block in blocks if held(block)]
