"""The Model payload view: exactly what the model receives, its size, and its tokens per mode.

Tokens are counted by ``readers.payload.tokens``: text exactly with OpenAI's ``o200k_base`` encoding
(Anthropic's figures are estimates, marked ≈), images by each provider's published rule.

A PDF sent as itself costs, by OpenAI's and Anthropic's published rules, the text of each page plus
the page as an image (Anthropic, "PDF support": a page's text — typically 1,500-3,000 tokens — plus
its image by the image rule; OpenAI, "File inputs": "both the extracted text and an image of each
page"). So the document form is counted as the pages' extracted text and their renders, by the
same rules as the page-images form; what differs is the size of the request. Gemini sees each page
as an image of a fixed cost (``readers.payload.tokens.PDF_PAGE_RULES``). The providers extract the
text themselves, so that form's counts are estimates. Each row names the rule its images were counted
by (``readers.payload.tokens.ImageRule``), beside their tokens.
"""

from __future__ import annotations

import dataclasses
import json

from readers import ReaderError, Reading
from readers.markup.tables import markdown_table
from readers.payload.document import files_document_parts, limit_problem
from readers.payload.messages import PROVIDERS, files_messages, is_text
from readers.payload.text import files_text
from readers.payload.tokens import EXACT, IMAGE_RULES, PDF_PAGE_RULES, payload_tokens, png_size, text_tokens

PROVIDER_NAMES = {"openai": "OpenAI", "anthropic": "Anthropic", "gemini": "Gemini"}
TOKENS_NOTE = (
    "Text tokens are counted exactly with o200k_base, the encoding of GPT-4o, GPT-4.1, GPT-5 and the o-series; "
    "Anthropic and Google publish no tokenizer that works offline, so their figures (≈) are estimates "
    "from the same count. Images are counted by each provider's documented rule, named beside the figure: "
    "OpenAI's tiles at high detail (GPT-5 counts 70 + 140 a tile, GPT-5.4 and later 32 px patches); "
    "Claude's 28 px patches within the limits of most models (Claude Opus 4.7 and later take 2576 px and up to "
    "4,784 tokens an image); Gemini 3's default media resolution (Gemini 2.5 counted 258 a 768 px tile)."
)
DOCUMENT_NOTE = (
    "A PDF sent as itself costs each page's text plus the page as an image (Anthropic: the text, typically 1,500–3,000 "
    "tokens a page, plus the image rule; OpenAI: the extracted text and an image of each page), so its rows (≈) count "
    "the pages' extracted text and their images as above; Gemini 3 counts each page at 560 tokens, its text seen in "
    "its image. Files with no PDF are counted as page images."
)
SHOWN_BASE64 = 64  # characters of each image's base64 kept on screen


def message_payload(readings: list[Reading], provider: str) -> list[dict]:
    """The content parts a multimodal model receives for these files, one after another, each named."""
    return files_messages([(reading.name, reading.as_messages(provider)) for reading in readings])


def document_payloads(readings: list[Reading]) -> tuple[dict[str, list[dict]], list[str]]:
    """The payload with PDFs sent as themselves for each provider that can take it in one request,
    and a sentence for each provider that cannot (a file past its limits, or all of them together);
    nothing when no file has a PDF."""
    payloads, problems = {}, []
    documents = [reading for reading in readings if reading.pdf]
    if not documents:
        return payloads, problems
    for provider in PROVIDERS:
        try:
            parts = files_document_parts(readings, provider)
        except ReaderError as error:
            problems.append(f"{PROVIDER_NAMES[provider]}: {error.message}")
            continue
        pages = sum(len(reading.pages) for reading in documents)
        together = (
            limit_problem(provider, pages, len(json.dumps(parts)), "One request with all these PDFs")
            if len(documents) > 1
            else None
        )
        if together:
            problems.append(f"{PROVIDER_NAMES[provider]}: {together}")
        else:
            payloads[provider] = parts
    return payloads, problems


def _cut(data: str, start: int) -> str:
    return f"{data[: start + SHOWN_BASE64]}…({len(data) - start:,} characters)"


def _abbreviated(part: dict) -> dict:
    """A copy of one content part with its base64 image or PDF cut, made before JSON so no huge string is scanned."""
    kind = part.get("type")  # Gemini's parts have none: {"text"} or {"inline_data"}
    if "inline_data" in part:
        return {"inline_data": {**part["inline_data"], "data": _cut(part["inline_data"]["data"], 0)}}
    if kind == "image_url":
        url = part["image_url"]["url"]
        return {**part, "image_url": {**part["image_url"], "url": _cut(url, url.index(",") + 1)}}
    if kind == "file":
        data = part["file"]["file_data"]
        return {**part, "file": {**part["file"], "file_data": _cut(data, data.index(",") + 1)}}
    if kind in ("image", "document"):
        return {**part, "source": {**part["source"], "data": _cut(part["source"]["data"], 0)}}
    return part


def abbreviate(payload: list[dict]) -> str:
    """The payload as JSON with each base64 image or PDF cut to its first characters and its length."""
    return json.dumps([_abbreviated(part) for part in payload], indent=2, ensure_ascii=False)


def estimate(readings: list[Reading], documents: dict[str, list[dict]] | None = None) -> list[dict]:
    """Size, tokens and images of the payload in both modes (a multimodal reading viewed as text and
    back), and with PDFs sent as themselves when a file has one and its PDF can be sent: the
    ``documents`` payloads of ``document_payloads``, made here when not given."""
    text_only = [dataclasses.replace(r, multimodal=False) for r in readings]
    multimodal = [dataclasses.replace(r, multimodal=True) for r in readings]
    text = files_text(text_only)
    rows = [
        {
            "mode": "Text-only",
            "exact": True,
            "bytes": len(text.encode()),
            "characters": len(text),
            "text_tokens": text_tokens(text),
            "images": 0,
            "image_tokens": 0,
            "image_rule": "",
        }
    ]
    for provider in PROVIDERS:
        parts = message_payload(multimodal, provider)
        text_count, image_count = payload_tokens(parts, provider)
        rows.append(
            {
                "mode": f"Multimodal ({PROVIDER_NAMES[provider]})",
                "exact": EXACT[provider],
                "bytes": len(json.dumps(parts).encode()),
                "characters": sum(len(part["text"]) for part in parts if is_text(part)),
                "text_tokens": text_count,
                "images": sum(not is_text(part) for part in parts),
                "image_tokens": image_count,
                "image_rule": IMAGE_RULES[provider].name if image_count else "",
            }
        )
    pdf_sizes, other_sizes = (
        [
            png_size(page.image)
            for r in multimodal
            if r.transcript is None and bool(r.pdf) == sent
            for page in r.pages
            if page.image
        ]
        for sent in (True, False)
    )
    extracted = [page.text for r in multimodal if r.pdf for page in r.pages]  # the text taken from the PDFs' pages
    documents = document_payloads(readings)[0] if documents is None else documents
    for provider, parts in documents.items():  # a provider that cannot take the PDFs has no row; the view says why
        texts = [part["text"] for part in parts if is_text(part)]
        page_rule = PDF_PAGE_RULES.get(provider, IMAGE_RULES[provider])  # Gemini's: its text seen in its image
        if provider not in PDF_PAGE_RULES:
            texts += extracted
        image_tokens = sum(IMAGE_RULES[provider].tokens(w, h) for w, h in other_sizes)
        image_tokens += sum(page_rule.tokens(w, h) for w, h in pdf_sizes)
        rules = [page_rule.name] + [IMAGE_RULES[provider].name] * bool(other_sizes)
        rows.append(
            {
                "mode": f"PDF document ({PROVIDER_NAMES[provider]})",
                "exact": False,
                "bytes": len(json.dumps(parts).encode()),
                "characters": sum(map(len, texts)),
                "text_tokens": sum(map(text_tokens, texts)),
                "images": len(pdf_sizes) + len(other_sizes),
                "image_tokens": image_tokens,
                "image_rule": "; ".join(dict.fromkeys(rules)),
            }
        )
    for row in rows:
        row["total_tokens"] = row["text_tokens"] + row["image_tokens"]
    return rows


def estimate_table(readings: list[Reading], multimodal: bool, documents: dict[str, list[dict]] | None = None) -> str:
    """The rows of ``estimate`` as Markdown, the current mode marked, estimates marked ≈, the rule the
    images were counted by beside their tokens; the tokens come first, so a phone shows them before the
    table scrolls sideways."""
    rows = [["Mode", "Total tokens", "Text tokens", "Image tokens", "Image rule", "Images", "Size", "Text characters"]]
    for row in estimate(readings, documents):
        current = row["mode"].startswith("Multimodal") if multimodal else row["mode"] == "Text-only"
        mode = f"**{row['mode']}** (current)" if current else row["mode"]
        about = "" if row["exact"] else "≈ "
        rows.append(
            [
                mode,
                f"{about}{row['total_tokens']:,}",
                f"{about}{row['text_tokens']:,}",
                f"{row['image_tokens']:,}",
                row["image_rule"],
                str(row["images"]),
                f"{row['bytes'] / 1024:,.1f} KB",
                f"{row['characters']:,}",
            ]
        )
    return markdown_table(rows)


def usage_line(readings: list[Reading]) -> str:
    """What describing the pages cost and saved: calls made, pages with nothing to describe, cache hits."""
    calls, saved, hits = (
        sum(getattr(r.usage, name) for r in readings) for name in ("calls", "calls_saved", "cache_hits")
    )
    return (
        f"**Descriptions:** {calls} {'call' if calls == 1 else 'calls'} made (vision model or OCR), "
        f"{saved} saved on pages with only text, {hits} from the cache."
    )
