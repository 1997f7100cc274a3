"""A ``Reading`` as JSON values: ``as_json`` (the command line's ``--format json``, the batch
records), and ``answer_json``, the app's ``/read_file`` answer made from it; ``files_json``, what
several readings sent together add to their answers, and ``several_json``, the whole answer for them."""

from __future__ import annotations

import base64
from dataclasses import asdict

from ..models import Page, Reading
from ..notices import Notice
from .budget import answer_count, page_tokens
from .document import files_document_parts
from .messages import PROVIDERS, files_messages
from .text import files_text
from .tokens import EXACT, payload_tokens

PAGE_FIELDS = ("description", "description_source", "error", "figures", "section", "line", "unsure_tables")  # in order
# A page in /read_file's answer: these fields of as_json's, in this order, then its tokens.
ANSWER_PAGE = (
    "number",
    "text",
    "tables",
    "description",
    "description_source",
    "described",
    "error",
    "section",
    "line",
    "figures",
    "furniture",
    "unsure_tables",
    "blocks",
)
TOGETHER = ("messages", "document_messages")  # in an answer of several files, once for them all


def page_json(page: Page, images: bool = True) -> dict:
    """A page as JSON values: its fields, its ``text``, ``tables`` and ``furniture`` as its blocks make
    them, and its ``blocks`` (kind, text, box, level, rows, apart: ``readers.markup.blocks.Block``) last; its
    image as base64 PNG (None when not ``images``)."""
    fields = asdict(page)
    image = base64.b64encode(page.image).decode("ascii") if images and page.image else None
    return {
        "number": page.number,
        "text": page.text,
        "tables": page.tables,
        "image": image,
        **{key: fields[key] for key in PAGE_FIELDS},
        "furniture": page.furniture,
        "described": fields["described"],
        "blocks": fields["blocks"],
    }


def as_json(reading: Reading, images: bool = True) -> dict:
    """Every field of ``reading`` as JSON values, each page's as ``page_json`` gives them, its
    notices' texts as ``warnings`` and the notices with their codes as ``notices`` (last), and
    ``text``, what a text-only model receives."""
    data: dict = {}
    for key, value in asdict(reading).items():
        if key == "notices":
            data["warnings"] = reading.warnings
        elif key not in ("pdf", "_found"):  # where its PDF is on this machine, and what describe read figures from
            data[key] = value
    data["pages"] = [page_json(page, images) for page in reading.pages]
    data["text"] = reading.as_text()
    data["notices"] = notices_json(reading.notices)
    return data


def answer_json(
    reading: Reading,
    document: bool = False,
    line_numbers: bool = False,
    chunk_tokens: int = 0,
    provider: str = "openai",
) -> dict:
    """``/read_file``'s answer, from ``as_json``: the reading's name, kind, page count, pages (each
    with its tokens on its own), warnings, usage, ``text`` and ``tokens`` of the payload in the
    reading's mode per provider (``exact`` false for an estimate); ``messages`` (``provider``'s
    parts with the PNGs in base64) only in multimodal mode, ``document_messages`` (its parts with the
    PDF of the pages read) only when ``document`` is asked; ``line_numbers`` numbers the lines of a
    text file's pages in ``text``; ``chunks`` of at most ``chunk_tokens`` tokens (``Reading.chunks``)
    when it is set."""
    data = as_json(reading, images=False)
    counts = page_tokens(reading, answer_count(line_numbers))
    answer = {
        "name": data["name"],
        "kind": data["kind"],
        "page_count": data["page_count"],
        "pages": [
            {**{field: page[field] for field in ANSWER_PAGE}, "tokens": count}
            for page, count in zip(data["pages"], counts)
        ],
        "warnings": data["warnings"],
        "notices": data["notices"],
        "usage": data["usage"],
        "text": reading.as_text(line_numbers=True) if line_numbers else data["text"],
        "tokens": {name: {"count": reading.tokens(name), "exact": EXACT[name]} for name in PROVIDERS},
    }
    if reading.multimodal:
        answer["messages"] = reading.as_messages(provider)
    if document:
        answer["document_messages"] = reading.as_messages(provider, document=True)
    if chunk_tokens:
        answer["chunks"] = [asdict(chunk) for chunk in reading.chunks(chunk_tokens)]
    return answer


def files_json(readings: list[Reading], multimodal: bool, document: bool = False, provider: str = "openai") -> dict:
    """The payload of several readings sent together, each file introduced by ``[FILE: name]``:
    ``text`` (``files_text``), ``tokens`` of the payload in the mode asked per provider, ``messages``
    (``provider``'s parts) in multimodal mode and ``document_messages`` (the PDFs as themselves, the
    other files as page images) when ``document`` is asked."""
    parts = {
        name: files_messages([(reading.name, reading.as_messages(name)) for reading in readings]) for name in PROVIDERS
    }
    answer: dict = {
        "text": files_text(readings),
        "tokens": {name: {"count": sum(payload_tokens(parts[name], name)), "exact": EXACT[name]} for name in PROVIDERS},
    }
    if multimodal:
        answer["messages"] = parts[provider]
    if document:
        answer["document_messages"] = files_document_parts(readings, provider)
    return answer


def several_json(
    answers: list[dict], readings: list[Reading], multimodal: bool, document: bool = False, provider: str = "openai"
) -> dict:
    """``/read_file``'s answer for several files: each one's answer (or why it was not read) in ``files``, without
    what goes once for them all (``TOGETHER``), then ``files_json`` of the ``readings`` made."""
    files = [{key: value for key, value in answer.items() if key not in TOGETHER} for answer in answers]
    return {"files": files, **files_json(readings, multimodal, document, provider)}


def notices_json(notices: list[Notice]) -> list[dict]:
    """``notices`` as JSON values: each one's ``code``, ``text`` and ``page`` (null for the whole file)."""
    return [{"code": str(notice.code), "text": notice.text, "page": notice.page} for notice in notices]
