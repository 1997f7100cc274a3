"""Message content parts for a provider (``Reading.as_messages``): in multimodal mode each page is a
text part followed by its PNG image; otherwise the whole reading is one text part (``as_text``).
The pages sent as one PDF are ``readers.payload.document``'s.

Each provider's form: OpenAI's chat parts (``{"type": "text"}``, ``image_url`` with a data URL),
Anthropic's content blocks (``text``, ``image`` with a base64 source), and Gemini's ``parts`` of a
``contents`` entry (``{"text": ...}``, ``{"inline_data": {"mime_type", "data"}}``), which go in
``contents=[{"role": "user", "parts": parts}]``.
"""

from __future__ import annotations

import base64

from .text import as_text, file_header, file_headers, page_text, shown, visual_text

PROVIDERS = ("openai", "anthropic", "gemini")


def text_part(text: str, provider: str) -> dict:
    """Text as the provider's part."""
    return {"text": text} if provider == "gemini" else {"type": "text", "text": text}


def is_text(part: dict) -> bool:
    return "text" in part and part.get("type", "text") == "text"


def inline_part(data: bytes, mime: str) -> dict:
    """Bytes (a PNG, a PDF) as Gemini's inline part: their MIME type and base64 data."""
    return {"inline_data": {"mime_type": mime, "data": base64.b64encode(data).decode("ascii")}}


def image_part(png: bytes, provider: str) -> dict:
    """A PNG as the provider's image part: OpenAI's data URL, Anthropic's base64 source, Gemini's inline data."""
    if provider == "gemini":
        return inline_part(png, "image/png")
    encoded = base64.b64encode(png).decode("ascii")
    if provider == "openai":
        return {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{encoded}"}}
    return {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": encoded}}


def as_messages(reading, provider: str) -> list[dict]:
    """The reading's content parts for ``provider`` (one of ``PROVIDERS``)."""
    if not reading.multimodal or reading.transcript is not None:
        return [text_part(as_text(reading), provider)]
    parts: list[dict] = []
    pages = shown(reading)
    for page, section_header in zip(pages, file_headers(pages)):
        text = "\n\n".join(filter(None, [section_header, page_text(reading, page), visual_text(reading, page)]))
        parts.append(text_part(text, provider))
        if page.image:
            parts.append(image_part(page.image, provider))
    return parts


def files_messages(files: list[tuple[str, list[dict]]]) -> list[dict]:
    """The content parts of several files, one after another, from each file's name and parts (in any
    provider's form, its PDF sent as itself or not, each starting with a text part): each file's first
    part starts with its ``[FILE: name]``, as in ``files_text``; a file alone keeps its parts as they are."""
    if len(files) == 1:
        return files[0][1]
    return [
        part
        for name, (first, *rest) in files
        for part in ({**first, "text": f"{file_header(name)}\n\n{first['text']}"}, *rest)
    ]
