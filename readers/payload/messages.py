"""Message content parts for a provider (``Reading.as_messages``): in multimodal mode each page is a
text part followed by its PNG image; otherwise the whole reading is one text part (``as_text``).
The pages sent as one PDF are ``readers.payload.document``'s."""

from __future__ import annotations

import base64

from .text import as_text, file_header, file_headers, page_text, visual_text


def image_part(png: bytes, provider: str) -> dict:
    """A PNG as the provider's image part: OpenAI's data URL, Anthropic's base64 source."""
    encoded = base64.b64encode(png).decode("ascii")
    if provider == "openai":
        return {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{encoded}"}}
    return {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": encoded}}


def as_messages(reading, provider: str) -> list[dict]:
    """The reading's content parts for ``provider`` ("openai" or "anthropic")."""
    if not reading.multimodal or reading.transcript is not None:
        return [{"type": "text", "text": as_text(reading)}]
    parts: list[dict] = []
    for page, section_header in zip(reading.pages, file_headers(reading)):
        text = "\n\n".join(filter(None, [section_header, page_text(reading, page), visual_text(reading, page)]))
        parts.append({"type": "text", "text": text})
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
