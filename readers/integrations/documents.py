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
    blocks     its blocks that stand on its print, as the JSON answer gives them (``page_blocks``)
    image      in multimodal mode, the page's render as base64 PNG

A chunk's piece (mode ``chunk``) is a chunk of ``Reading.chunks(max_tokens, overlap)``: its text,
with ``pages`` (in place of ``page``), ``headings``, ``citation`` and ``tokens`` the chunk's own, and
as ``blocks`` those of its pages that it holds text of (its ``boxes``), each with its ``page``.
"""

from __future__ import annotations

import base64
import os
from collections.abc import Iterable
from dataclasses import asdict, dataclass, replace

from ..batch.outputs import collect
from ..batch.records import Request, read_collected
from ..markup.blocks import BlockKind
from ..models import Reading
from ..options import ReadOptions
from ..payload.budget import page_tokens
from ..payload.chunks import Chunk, check_sizes
from ..payload.citations import page_source, source
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
    """Each page's blocks that stand on its print, in reading order, as the JSON answer gives them
    (``readers.markup.blocks.Block``: kind, text, box, level, rows, apart); box (left, top, right, bottom) as
    fractions of the page from its top-left corner. Pages read without a print (a text file, an image,
    a file inside an archive, a scan's OCR text) have none. The one place the integrations take blocks from."""
    return [[asdict(block) for block in page.blocks if block.box] for page in reading.pages]


def page_headings(reading: Reading) -> list[list[str]]:
    """For each page, the heading path its content starts under (the headings above its first block
    that is not one), outermost first, as a chunk's ``headings``; a file inside a container starts afresh."""
    paths: list[list[str]] = []
    path: list[tuple[int, str]] = []
    section = None
    for page in reading.pages:
        if page.section != section:
            path, section = [], page.section
        start = None
        for block in page.blocks:
            if block.kind == BlockKind.HEADING:
                path = [(level, title) for level, title in path if level < block.level] + [(block.level, block.title)]
            elif block.kind != BlockKind.FURNITURE and start is None:
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
                "blocks": _held(chunk, blocks),
            },
        )
        for chunk in reading.chunks(request.chunk_tokens, request.overlap_tokens)
    ]


def _held(chunk: Chunk, blocks: dict[int, list[dict]]) -> list[dict]:
    """The placed blocks of a chunk's pages that it holds text of (its ``boxes``: a heading is in its
    context, not its content), each with its ``page``."""
    held = {(box.page, tuple(box.box)) for box in chunk.boxes}
    return [
        {"page": number, **block}
        for number in chunk.pages
        for block in blocks[number]
        if (number, tuple(block["box"])) in held
    ]
