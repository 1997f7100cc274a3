"""The Model payload view: exactly what the model receives, its size, and its tokens per mode.

Tokens are counted by ``readers.tokens``: text exactly with OpenAI's ``o200k_base`` encoding
(Anthropic's figures are estimates, marked ≈), images by each provider's published rule.
"""

from __future__ import annotations

import dataclasses
import json

from readers import Reading
from readers.tables import markdown_table
from readers.tokens import EXACT, PROVIDERS, payload_tokens, text_tokens

PROVIDER_NAMES = {"openai": "OpenAI", "anthropic": "Anthropic"}
TOKENS_NOTE = ("Text tokens are counted exactly with o200k_base, the encoding of GPT-4o, GPT-4.1, GPT-5 and the o-series; "
               "Anthropic publishes no tokenizer, so its figures (≈) are estimates from the same count. Images by each provider's rule: "
               "OpenAI high detail 85 + 170 per 512 px tile, Anthropic width × height / 750.")
SHOWN_BASE64 = 64  # characters of each image's base64 kept on screen


def text_payload(readings: list[Reading]) -> str:
    """What a text-only model receives for these files, one after another."""
    return "\n\n".join(reading.as_text() for reading in readings)


def message_payload(readings: list[Reading], provider: str) -> list[dict]:
    """The content parts a multimodal model receives for these files, one after another."""
    return [part for reading in readings for part in reading.as_messages(provider)]


def _cut(data: str, start: int) -> str:
    return f"{data[:start + SHOWN_BASE64]}…({len(data) - start:,} characters)"


def _abbreviated(part: dict) -> dict:
    """A copy of one content part with its base64 image cut, made before JSON so no huge string is scanned."""
    if part["type"] == "image_url":
        url = part["image_url"]["url"]
        return {**part, "image_url": {**part["image_url"], "url": _cut(url, url.index(",") + 1)}}
    if part["type"] == "image":
        return {**part, "source": {**part["source"], "data": _cut(part["source"]["data"], 0)}}
    return part


def abbreviate(payload: list[dict]) -> str:
    """The payload as JSON with each base64 image cut to its first characters and its length."""
    return json.dumps([_abbreviated(part) for part in payload], indent=2, ensure_ascii=False)


def estimate(readings: list[Reading]) -> list[dict]:
    """Size, tokens and images of the payload in both modes (a multimodal reading viewed as text and back)."""
    text_only = [dataclasses.replace(r, multimodal=False) for r in readings]
    multimodal = [dataclasses.replace(r, multimodal=True) for r in readings]
    text = text_payload(text_only)
    rows = [{"mode": "Text-only", "exact": True, "bytes": len(text.encode()), "characters": len(text), "text_tokens": text_tokens(text),
             "images": 0, "image_tokens": 0}]
    for provider in PROVIDERS:
        parts = message_payload(multimodal, provider)
        text_count, image_count = payload_tokens(parts, provider)
        rows.append({"mode": f"Multimodal ({PROVIDER_NAMES[provider]})", "exact": EXACT[provider], "bytes": len(json.dumps(parts).encode()),
                     "characters": sum(len(part["text"]) for part in parts if part["type"] == "text"), "text_tokens": text_count,
                     "images": sum(part["type"] != "text" for part in parts), "image_tokens": image_count})
    for row in rows:
        row["total_tokens"] = row["text_tokens"] + row["image_tokens"]
    return rows


def estimate_table(readings: list[Reading], multimodal: bool) -> str:
    """The rows as Markdown, the current mode marked, estimates marked ≈."""
    rows = [["Mode", "Size", "Text characters", "Text tokens", "Images", "Image tokens", "Total tokens"]]
    for row in estimate(readings):
        current = row["mode"].startswith("Multimodal") == multimodal
        mode = f"**{row['mode']}** (current)" if current else row["mode"]
        about = "" if row["exact"] else "≈ "
        rows.append([mode, f"{row['bytes'] / 1024:,.1f} KB", f"{row['characters']:,}", f"{about}{row['text_tokens']:,}", str(row["images"]),
                     f"{row['image_tokens']:,}", f"{about}{row['total_tokens']:,}"])
    return markdown_table(rows)


def usage_line(readings: list[Reading]) -> str:
    """What describing the pages cost and saved: calls made, pages with nothing to describe, cache hits."""
    calls, saved, hits = (sum(getattr(r.usage, name) for r in readings) for name in ("calls", "calls_saved", "cache_hits"))
    return (f"**Descriptions:** {calls} {'call' if calls == 1 else 'calls'} made (vision model or OCR), "
            f"{saved} saved on pages with only text, {hits} from the cache.")
