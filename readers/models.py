"""The one model every reader returns: a ``Reading`` of ``Page`` objects (or a ``Transcript``)."""

from __future__ import annotations

import base64
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from .kinds import kind_of
from .markup.blocks import Block, BlockKind, layout
from .notices import Described, Notice

if TYPE_CHECKING:
    from .payload.chunks import Chunk


@dataclass(frozen=True)
class PdfSource:
    """Where a reading's pages come from as a PDF: ``path`` (the file itself, or its rendering in the
    cache) and the cache the cut copies are kept in."""

    path: Path
    cache_dir: Path


WHOLE_PAGE = 0.8  # of the page's area: a figure this large is "whole page", not placed in a third of it
FULL_WIDTH = 0.6  # of the page's width: a figure this wide is in no column, only a row ("top of the page")


@dataclass
class Figure:
    """Something on a page that its text does not carry: a raster ``picture``, a vector ``drawing`` (a
    chart or diagram made of lines and shapes), ``drawn text`` (words drawn as outlines, with no
    characters behind them) or the ``scan`` of a page without a text layer. ``box`` is (left, top,
    right, bottom) as fractions of the page's width and height, measured from its top-left corner;
    ``caption`` is the line beside it that names it; ``has_text`` says the page's text already holds
    the words inside it (a drawing's labels, a text layer over a picture), so OCR would only repeat
    them. ``chart`` says what a drawing rebuilt as a chart is ("bar, 3 series"); its table stands in
    the page's text. ``linked`` says where a picture the file only links points (its scheme and host,
    ``readers.intake.links``): it is never loaded, so it is not read or shown."""

    kind: str
    box: tuple[float, float, float, float]
    caption: str | None = None
    has_text: bool = False
    chart: str | None = None
    linked: str | None = None

    @property
    def place(self) -> str:
        """Where it stands, in words: "top left of the page", "middle of the page", "whole page"."""
        left, top, right, bottom = self.box
        if (right - left) * (bottom - top) > WHOLE_PAGE:
            return "whole page"
        x, y = (left + right) / 2, (top + bottom) / 2
        row = "top" if y < 1 / 3 else "bottom" if y > 2 / 3 else "middle"
        column = "" if right - left > FULL_WIDTH else "left" if x < 1 / 3 else "right" if x > 2 / 3 else ""
        return f"{row} {column} of the page" if column else f"{row} of the page"


@dataclass(frozen=True)
class FoundFigure:
    """A figure as its reader found it, which ``readers.describe`` reads it from: the ``figure`` a page
    shows, and how to see it: ``dpi``, to render it at from the reading's PDF; or the picture's own
    bytes (``image``, a deck's or a sheet's picture), or why they cannot be had (``unreadable``)."""

    figure: Figure
    dpi: int | None = None
    image: bytes | None = None
    unreadable: str | None = None

    @classmethod
    def of(cls, found: dict) -> FoundFigure:
        """From the dict an engine keeps in its cache (JSON: a picture's ``image`` in base64) or makes."""
        image = found.get("image")
        return cls(
            Figure(
                found["kind"],
                tuple(found["box"]),
                found.get("caption"),
                found.get("has_text", False),
                found.get("chart"),
                found.get("linked"),
            ),
            found.get("dpi"),
            base64.b64decode(image) if isinstance(image, str) else image,
            found.get("unreadable"),
        )

    def json(self) -> dict:
        """As JSON values for a cache, which ``of`` reads back: a picture's bytes in base64."""
        image = base64.b64encode(self.image).decode("ascii") if self.image is not None else None
        return {**asdict(self.figure), "dpi": self.dpi, "image": image, "unreadable": self.unreadable}

    @property
    def box(self) -> tuple[float, float, float, float]:
        return self.figure.box

    @property
    def seen(self) -> bool:
        """Whether it is read from its own bytes (or said unreadable) rather than rendered from the PDF."""
        return self.image is not None or self.unreadable is not None


@dataclass
class Page:
    """One page, slide, sheet or image frame; ``number`` is 1-based within the whole document.

    ``blocks`` are the page as its reader laid it out (``Block``), in reading order; its ``text``,
    ``tables`` and ``furniture`` are made from them. ``section`` names the file inside a container
    (a ZIP member, an e-mail attachment) the page comes from, e.g. ``papers/report.pdf``; it is None
    for the container's own pages. ``line`` is, for a page of a text file, the number in the file of
    its first line (its blocks are then runs of whole lines, kept exactly as they are, and the text
    is them one line after another); None for other pages. ``unsure_tables`` are the indices in
    ``tables`` of those a PDF page's reader is unsure of (each with a ``TABLE_UNSURE`` notice saying
    why): ragged rows, a column that mixes words and figures, figures run together, words placed beside it.
    """

    number: int
    blocks: list[Block] = field(default_factory=list)
    image: bytes | None = None
    description: str | None = None
    description_source: str | None = None
    error: str | None = None
    figures: list[Figure] = field(default_factory=list)
    section: str | None = None
    line: int | None = None
    described: Described | None = None
    unsure_tables: list[int] = field(default_factory=list)

    @property
    def text(self) -> str:
        """What a text-only model receives of the page: its blocks' Markdown, furniture left out (a
        text file's lines exactly as they are)."""
        return layout(self.blocks, self.line is not None)[0]

    def spans(self) -> list[tuple[int, int] | None]:
        """Where each block stands in ``text``: (start, end), None for furniture or a block with no text."""
        return layout(self.blocks, self.line is not None)[1]

    @property
    def tables(self) -> list[str]:
        """Its tables as Markdown, where they stand in its text."""
        return [block.text for block in self.blocks if block.kind == BlockKind.TABLE]

    @property
    def furniture(self) -> list[str]:
        """What the page shows round its content and its text leaves out, in the order it stands:
        running headers and footers, page numbers, download stamps, document codes, line numbers
        ("Line numbers 1–52"), or a Word page's header and footer; a text-only model never receives it."""
        return [block.text for block in self.blocks if block.kind == BlockKind.FURNITURE]

    @property
    def empty(self) -> bool:
        """Whether the page has nothing a model receives: no content (only furniture, or nothing), no
        figure, no description and no error. Such a page is no page of the payload."""
        return not (self.text.strip() or self.figures or self.description or self.error)


@dataclass
class Segment:
    start: float
    end: float
    text: str


@dataclass
class Transcript:
    text: str
    language: str | None
    duration: float
    segments: list[Segment] = field(default_factory=list)
    source: str = ""

    @property
    def summary(self) -> str:
        """Its length and language, as every header of a transcript says them: "12.3 s, en"."""
        return f"{self.duration:.1f} s, {self.language or 'unknown language'}"


@dataclass
class Usage:
    """What describing cost: calls made, calls saved (pages with nothing to see beyond their text),
    cache hits, tokens as the server reported them, seconds."""

    calls: int = 0
    calls_saved: int = 0
    cache_hits: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0


@dataclass
class Reading:
    """What ReadLens read from one file: data, and the four forms a model receives it in
    (``as_text``, ``as_messages``, ``tokens``, ``chunks``), made by ``readers.payload``.

    ``notices`` is what the reading tells the person beside its pages (``readers.notices``), and
    ``warnings`` their texts. ``pdf`` says where the pages come from as a PDF — the file itself, or
    the rendering LibreOffice or Chromium made of it, in the cache — for
    ``as_messages(document=True)``; None when they do not (images, audio, text, e-books,
    containers, a document LibreOffice could not render). ``_found`` is describe's own: each page's
    ``FoundFigure``s as its reader found them; a page it does not name is described whole, from
    its image. Neither is part of what a model receives.
    """

    name: str
    kind: str
    mime: str
    sha256: str
    page_count: int
    pages: list[Page] = field(default_factory=list)
    notices: list[Notice] = field(default_factory=list)
    transcript: Transcript | None = None
    usage: Usage = field(default_factory=Usage)
    question: str | None = None
    multimodal: bool = False
    pdf: PdfSource | None = field(default=None, repr=False)
    _found: dict[int, list[FoundFigure]] = field(default_factory=dict, repr=False)

    @property
    def warnings(self) -> list[str]:
        """The notices' texts, as a person reads them."""
        return [notice.text for notice in self.notices]

    @property
    def label(self) -> str:
        return kind_of(self.kind).unit.upper()

    def as_text(self, line_numbers: bool = False, plain: bool = False, citations: bool = False) -> str:
        """What a text-only model receives: each page's text, then its visual description; a page
        from a file inside a container is preceded by that file's ``[FILE: name]`` when it starts
        (``readers.payload.text``).

        ``line_numbers`` prefixes each line of a text file's pages with its number in the file,
        right-aligned in six columns, then ``→`` (``cat -n`` with an arrow for its tab, as coding
        agents' read tools show files), so a model can cite and edit by line; pages that are not
        lines of a text file are unchanged.

        ``plain`` gives the pages' Markdown as plain text (tables in padded columns, no marks), and
        ``citations`` a citation after each page's text and visual content, ``*(Source: report.pdf, p. 7)*``
        (without the asterisks when plain): the export's forms of the payload.
        """
        from .payload.text import as_text

        return as_text(self, line_numbers, plain, citations)

    def tokens(self, provider: str = "openai") -> int:
        """Tokens of the payload in the reading's mode (``as_messages(provider)``): each text part's
        ``o200k_base`` count plus each image's tokens by the provider's rule (``readers.payload.tokens``).
        In text-only mode, for OpenAI, exactly the ``o200k_base`` count of ``as_text()``. Anthropic and
        Google publish no tokenizer that works offline, so their counts are estimates: their text
        counted with ``o200k_base``."""
        from .payload.tokens import payload_tokens

        return sum(payload_tokens(self.as_messages(provider), provider))

    def chunks(self, max_tokens: int = 512, overlap_tokens: int = 0) -> list[Chunk]:
        """What a retriever indexes: the reading cut into chunks of at most ``max_tokens``
        ``o200k_base`` tokens (exactly), each with its heading path as context, its pages (a text
        file's lines, a recording's times) and a citation; tables cut only between rows, each
        figure a chunk of its own (``readers.payload.chunks``). Made from this reading alone:
        nothing is read again. Raises ``ReaderError`` ``INVALID_QUERY`` for sizes that cannot work."""
        from .payload.chunks import reading_chunks

        return reading_chunks(self, max_tokens, overlap_tokens)

    def as_messages(self, provider: str = "openai", document: bool = False) -> list[dict]:
        """Message content parts for ``provider``: "openai", "anthropic" or "gemini" (the ``parts`` of
        a Gemini ``contents`` entry: ``{"text": ...}`` and ``{"inline_data": {"mime_type", "data"}}``).

        In multimodal mode each page is a text part followed by its PNG image; otherwise the
        whole reading is one text part (``as_text()``).

        ``document=True`` sends the pages as the PDF they come from (``readers.payload.document``), in
        either mode: a text part naming the file and its pages, then one part holding a PDF of
        exactly those pages — Anthropic ``{"type": "document", ...}``, OpenAI ``{"type": "file",
        ...}``, Gemini ``{"inline_data": {"mime_type": "application/pdf", ...}}`` — and nothing after
        it. Raises ``ReaderError``: ``UNSUPPORTED_FORMAT`` for a reading with no PDF (see ``pdf``),
        ``FILE_TOO_LARGE`` past the provider's page or size limit.
        """
        from .payload.messages import PROVIDERS, as_messages

        if provider not in PROVIDERS:
            raise ValueError(f"provider must be one of {', '.join(map(repr, PROVIDERS))}, not {provider!r}")
        if document:
            from .payload.document import document_parts

            return document_parts(self, provider)
        return as_messages(self, provider)


@dataclass
class Extraction:
    """What an engine read of a file for its reader: the document's ``page_count``, the selected
    ``pages``, the ``pdf`` they come from, each page's ``figures`` as found, and the ``notices``."""

    page_count: int
    pages: list[Page]
    pdf: Path | None = None
    figures: dict[int, list[FoundFigure]] = field(default_factory=dict)
    notices: list[Notice] = field(default_factory=list)
