"""A reading's pages sent to the model as one PDF: ``Reading.as_messages(provider, document=True)``.

Claude reads a PDF in a ``document`` block, OpenAI's chat API in a ``file`` part and Gemini in an
``inline_data`` part of MIME type ``application/pdf``; Claude and OpenAI put the text and an image of
every page into the model's context, Gemini each page as an image. A reading has a PDF when its pages were
read from one: a PDF file, or the rendering LibreOffice (Word, PowerPoint, spreadsheets, legacy and
ODF Office) or Chromium (web pages) made of the file. The pages read are cut from it into a new PDF
by pdfium (a one-page reading sends one page), kept in the disk cache by content hash and range.

The parts are a short text part naming the file and its pages — the PDF's own page 1 is page 3 of
the document when pages 3-5 were read, and a model should cite the document's numbers — then the
document part, and nothing after it, so the question an agent adds comes after the document, as
Anthropic advises.

Limits are checked here, not left to the provider to refuse (``FILE_TOO_LARGE``). Published limits,
for the whole request, PDFs and all other content together:

- Anthropic (Claude docs, "PDF support"): 32 MB, and 100 PDF pages (600 on models with a 1M-token
  context window);
- OpenAI (API docs, "File inputs", PDF files): 100 pages and 32 MB of total content (a later revision
  of the guide allows 50 MB of files; 32 MB holds under both);
- Gemini (API docs, "Document understanding"): 1,000 pages, and 20 MB for a request that carries
  its files inline (a larger PDF goes through its Files API, which ReadLens does not call).

``reading`` here is a ``readers.models.Reading``, whose methods call into this module (which does
not import it: the payload sits below the model).
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass, replace
from pathlib import Path

from ..errors import ReaderError
from ..kinds import kind_of
from ..storage.files import DOCUMENT, Store
from .messages import files_messages, inline_part, text_part

MB = 1_000_000


@dataclass(frozen=True)
class Limit:
    pages: int
    request_bytes: int
    rule: str  # the limit in words, for the refusal


LIMITS = {
    "anthropic": Limit(
        100,
        32 * MB,
        "Anthropic takes at most 100 PDF pages (600 on models with a 1M-token context window) and 32 MB in one request",
    ),
    "openai": Limit(100, 32 * MB, "OpenAI takes at most 100 PDF pages and 32 MB of files in one request"),
    "gemini": Limit(1000, 20 * MB, "Gemini takes at most 1,000 PDF pages and 20 MB of inline data in one request"),
}


def limit_problem(provider: str, pages: int, request_bytes: int, what: str) -> str | None:
    """The sentence saying why ``what`` (``pages`` PDF pages, ``request_bytes`` of JSON) is past the
    provider's limit and what to do, or None when it is within it."""
    limit = LIMITS[provider]
    if pages > limit.pages:
        return (
            f"{what} is {pages} PDF pages; {limit.rule}. Ask for at most {limit.pages} "
            "pages and send the rest in another request."
        )
    if request_bytes > limit.request_bytes:
        return (
            f"{what} is {request_bytes / MB:.1f} MB as base64 in the request; "
            f"{limit.rule}. Ask for fewer pages (a smaller range), "
            "or send its text and page images instead."
        )
    return None


def _pages_named(reading) -> str:
    """ "pages 3-5 of 12", "slide 2 of 6", "4 pages": what the PDF holds, in the reading's unit."""
    unit = reading.label.lower()
    first, last = reading.pages[0].number, reading.pages[-1].number
    if first == 1 and last == reading.page_count:
        return f"{last} {unit}{'s' if last > 1 else ''}"
    return (
        f"{unit} {first} of {reading.page_count}"
        if first == last
        else f"{unit}s {first}-{last} of {reading.page_count}"
    )


def _header(reading) -> str:
    """``[DOCUMENT: name, pages 3-5 of 12; the PDF's page 1 is page 3]``: the cut PDF numbers its pages from 1."""
    unit, first = reading.label.lower(), reading.pages[0].number
    shift = f"; the PDF's {unit} 1 is {unit} {first}" if first > 1 else ""
    return f"[DOCUMENT: {reading.name}, {_pages_named(reading)}{shift}]"


def document_pdf(reading) -> bytes:
    """The PDF of exactly the reading's pages, cut once per content hash and range.

    Raises ``UNSUPPORTED_FORMAT`` for a reading with no PDF, ``FILE_NOT_FOUND`` when its PDF is
    gone (a temporary upload, a cleared cache) and the cut was never made, ``RENDER_FAILED`` when
    pdfium cannot copy the pages.
    """
    source = reading.pdf
    if source is None:
        why = (
            "its PDF is made with its page images: read it with read_file(..., "
            "images=True; a web page multimodal=True, which reads it on its printed pages); if it was, the PDF "
            "could not be made "
            "(see the reading's warnings: LibreOffice or Chromium is missing or failed)"
            if kind_of(reading.kind).paged
            else "only PDFs, and Word, PowerPoint, spreadsheet and web-page files rendered to PDF, have one"
        )
        raise ReaderError(
            "UNSUPPORTED_FORMAT",
            f"{reading.name} has no PDF to send as itself: {why}. Send its text or page images "
            "instead (without document).",
        )
    first, last = reading.pages[0].number, reading.pages[-1].number
    store = Store(source.cache_dir)
    # the pages of a print in the cache are cut from that print: a print made anew is cut anew
    part = f"{first:04d}-{last:04d}"
    part = f"{source.path.name}.{part}" if store.holds(reading.sha256, source.path) else part
    data = store.get_bytes(reading.sha256, DOCUMENT, part)
    if data is None:
        if not source.path.is_file():
            raise ReaderError(
                "FILE_NOT_FOUND",
                f"The PDF of {reading.name} is no longer on disk (a temporary upload or a cleared cache). "
                "Read the file again.",
            )
        from ..pdf.pool import cut_pages

        data = cut_pages(source.path, first, last, reading.name)
        store.put_bytes(reading.sha256, DOCUMENT, data, part)
    return data


def document_parts(reading, provider: str) -> list[dict]:
    """A text part naming the file and its pages, then the PDF of those pages in ``provider``'s form.

    Raises ``FILE_TOO_LARGE`` past the provider's limits, and what ``document_pdf`` raises.
    """
    what = f"{reading.name} ({_pages_named(reading)})"
    problem = limit_problem(provider, len(reading.pages), 0, what)  # too many pages: refused before anything is cut
    if problem is None:
        pdf = document_pdf(reading)
        encoded = base64.b64encode(pdf).decode("ascii")
        header = text_part(_header(reading), provider)
        if provider == "gemini":
            part = inline_part(pdf, "application/pdf")
        elif provider == "openai":
            part = {
                "type": "file",
                "file": {
                    "filename": f"{Path(reading.name).stem or 'document'}.pdf",
                    "file_data": f"data:application/pdf;base64,{encoded}",
                },
            }
        else:
            part = {"type": "document", "source": {"type": "base64", "media_type": "application/pdf", "data": encoded}}
        parts = [header, part]
        problem = limit_problem(provider, len(reading.pages), len(json.dumps(parts)), what)
    if problem:
        raise ReaderError("FILE_TOO_LARGE", problem)
    return parts


def files_document_parts(readings, provider: str) -> list[dict]:
    """The content parts of several readings sent together with the PDFs as themselves: each reading
    that has a PDF as its document (``document_parts``), the others as their page images, each
    file named (``readers.payload.messages.files_messages``). Raises what ``document_parts`` raises."""
    return files_messages(
        [
            (
                reading.name,
                document_parts(reading, provider)
                if reading.pdf
                else replace(reading, multimodal=True).as_messages(provider),
            )
            for reading in readings
        ]
    )
