"""Token counts: the offline o200k_base count against OpenAI's own tokenizer and published vectors,
the image rules against the providers' published examples, and ``Reading.tokens`` in both modes."""

from __future__ import annotations

import base64
import dataclasses
import gzip
import subprocess
import sys
from pathlib import Path

import bpe_openai
import pytest
import tiktoken
import tiktoken_ext.openai_public as openai_public

from readers import read_file
from readers.payload.tokens import (
    IMAGE_RULES,
    PDF_PAGE_RULES,
    anthropic_image_tokens,
    anthropic_size,
    openai_image_tokens,
    png_size,
    text_tokens,
)
from testkit import CORPUS, ROOT

REPORT_PDF = ROOT / "assets" / "chart-report.pdf"
EMBEDDED_VOCABULARY = Path(bpe_openai.__file__).parent / "data" / "o200k_base.tiktoken.gz"

# tiktoken's own o200k_base test vectors (also in js-tiktoken's): text and its token ids.
KNOWN = [
    ("", []),
    ("hello world", [24912, 2375]),
    (" 日本語とEnglish 12345!\n", [17428, 40909, 5330, 28881, 220, 7633, 2548, 4175]),
    ("\x1ca", [216, 64]),
    ("a\n\n", [64, 279]),
    ("<|endoftext|>", [27, 91, 419, 1440, 919, 91, 29]),
    ("a\ud800b", [64, 3251, 65]),
]


@pytest.fixture(scope="module")
def openai_o200k(tmp_path_factory) -> tiktoken.Encoding:
    """OpenAI's tokenizer (tiktoken) built from its own o200k_base definition — pattern, special
    tokens and the vocabulary's published SHA-256 — fed the vocabulary file bpe-openai embeds
    instead of downloading it. tiktoken refuses a file whose hash differs."""
    vocabulary = tmp_path_factory.mktemp("o200k") / "o200k_base.tiktoken"
    vocabulary.write_bytes(gzip.decompress(EMBEDDED_VOCABULARY.read_bytes()))
    load, hashes = openai_public.load_tiktoken_bpe, []

    def local(url: str, expected_hash: str) -> dict:
        hashes.append(expected_hash)
        return load(str(vocabulary), expected_hash)

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TIKTOKEN_CACHE_DIR", "")  # read the file itself, write no cache
        patch.setattr(openai_public, "load_tiktoken_bpe", local)
        definition = openai_public.o200k_base()
    assert len(hashes) == 1 and len(hashes[0]) == 64, "tiktoken checked the vocabulary against OpenAI's hash"
    return tiktoken.Encoding(**definition)


@pytest.mark.parametrize("text, ids", KNOWN, ids=repr)
def test_known_vectors(openai_o200k, text, ids):
    assert openai_o200k.encode_ordinary(text) == ids
    assert text_tokens(text) == len(ids)


def sample_texts() -> list[str]:
    """Prose, Markdown tables, code, many scripts, emoji, runs of spaces and digits, a long repeat."""
    texts = [
        (ROOT / "README.md").read_text(),
        (ROOT / "readers" / "core.py").read_text(),
        (CORPUS / "SOURCES.md").read_text(),
    ]
    texts += [
        path.read_text(errors="replace")
        for path in sorted(CORPUS.rglob("*"))
        if path.suffix in (".csv", ".html", ".md", ".txt")
    ][:12]
    texts += [
        "Ünïcödé — naïve café; Ελληνικά, русский, العربية, עברית, हिन्दी, 中文, 한국어, ไทย",
        "👩‍👩‍👧‍👦 🇺🇳 🧑🏽‍💻 ✓✗ ∑∫√ ½ ¾",
        "    indented\n\t\ttabs\r\n\r\n   \n",
        "1234567890" * 50,
        "A" * 20_000,
        "The price is $1,234.56 (≈ €1.1k) on 2024-03-31T12:00:00Z.",
        "<|endoftext|><|endofprompt|> not special here",
    ]
    return texts


def test_counts_equal_openais_tokenizer(openai_o200k):
    for text in sample_texts():
        assert text_tokens(text) == len(openai_o200k.encode_ordinary(text)), text[:60]


def test_counting_needs_no_network():
    """In a fresh process whose sockets all fail, importing and counting still work."""
    script = (
        "import socket\n"
        "def refuse(*args, **kwargs): raise OSError('network used')\n"
        "socket.socket.connect = socket.getaddrinfo = socket.create_connection = refuse\n"
        "from readers.payload.tokens import text_tokens\n"
        "print(text_tokens('hello world'))\n"
    )
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "2"


# OpenAI's "Images and vision" guide, "Calculating costs", GPT-4o at high detail: 1024 x 1024 costs 765 (4 tiles),
# 2048 x 4096 costs 1,105 (scaled to 1024 x 2048, then 768 x 1536: 6 tiles); 512 x 512 is one tile.
@pytest.mark.parametrize(
    "width, height, tokens", [(1024, 1024, 765), (2048, 4096, 1105), (512, 512, 255), (4096, 8192, 1105)]
)
def test_openai_high_detail_rule_matches_the_published_examples(width, height, tokens):
    assert IMAGE_RULES["openai"].tokens(width, height) == openai_image_tokens(width, height) == tokens


# Anthropic's "Images and vision" guide, "Calculate image costs": each size's tokens on most models (Claude Sonnet
# 4.6's table) and on Claude Opus 4.7 and later (its high-resolution table), and the size the larger ones are
# scaled down to before they are counted.
CLAUDE_EXAMPLES = [
    # width, height, tokens, scaled to (most models); tokens, scaled to (Opus 4.7 and later)
    (200, 200, 64, (200, 200), 64, (200, 200)),
    (1000, 1000, 1296, (1000, 1000), 1296, (1000, 1000)),
    (1092, 1092, 1521, (1092, 1092), 1521, (1092, 1092)),
    (1920, 1080, 1560, (1456, 819), 2691, (1920, 1080)),
    (2000, 1500, 1564, (1270, 952), 3888, (2000, 1500)),
    (3840, 2160, 1560, (1456, 819), 4784, (2576, 1449)),
]
OPUS_LIMITS = (2576, 4784)  # px on the long edge, tokens: Claude Opus 4.7 and later


@pytest.mark.parametrize("width, height, tokens, scaled, opus_tokens, opus_scaled", CLAUDE_EXAMPLES)
def test_anthropic_rule_matches_the_published_examples(width, height, tokens, scaled, opus_tokens, opus_scaled):
    assert anthropic_size(width, height) == scaled and anthropic_image_tokens(width, height) == tokens
    assert IMAGE_RULES["anthropic"].tokens(width, height) == tokens
    assert anthropic_size(width, height, *OPUS_LIMITS) == opus_scaled
    assert anthropic_image_tokens(width, height, *OPUS_LIMITS) == opus_tokens


def test_a_portrait_page_is_scaled_by_claudes_token_limit_before_its_edge():
    """The guide's A4 scan at 130 dpi: both sides under 1568 px, but 39 x 55 = 2,145 patches, so it is scaled
    to 924 x 1307. A letter page at 150 dpi, ReadLens's render, likewise: not the 2,532 its pixels / 750 made."""
    assert anthropic_size(1075, 1520) == (924, 1307)
    assert anthropic_size(1275, 1650) == (952, 1232) and anthropic_image_tokens(1275, 1650) == 34 * 44 == 1496
    assert anthropic_image_tokens(1275, 1650, *OPUS_LIMITS) == 46 * 59  # within Opus 4.7's limits: not scaled
    assert anthropic_size(1520, 1075) == (1307, 924)  # the same page, landscape


@pytest.mark.parametrize("width, height", [(200, 100), (384, 384), (1275, 1650), (4000, 3000)])
def test_gemini_counts_each_image_and_each_pdf_page_at_its_default_media_resolution(width, height):
    """Gemini's "Media resolution" guide, "Token counts": on Gemini 3, 1,120 tokens an image and 560 a PDF page."""
    assert IMAGE_RULES["gemini"].tokens(width, height) == 1120
    assert PDF_PAGE_RULES["gemini"].tokens(width, height) == 560


def test_text_only_reading_counts_exactly_its_text(openai_o200k, shared_services):
    reading = read_file(REPORT_PDF, services=shared_services, multimodal=False)
    assert reading.tokens("openai") == len(openai_o200k.encode_ordinary(reading.as_text())) > 100
    assert reading.tokens("anthropic") == reading.tokens("openai")  # an estimate: the same count of the same text
    assert reading.tokens("gemini") == reading.tokens("openai")
    assert reading.as_messages("gemini") == [{"text": reading.as_text()}]
    assert reading.tokens() == reading.tokens("openai")


def test_multimodal_reading_counts_each_text_part_and_each_image(openai_o200k, shared_services):
    reading = read_file(REPORT_PDF, services=shared_services, multimodal=True)
    texts = [part["text"] for part in reading.as_messages("openai") if part["type"] == "text"]
    assert len(texts) == 4
    text = sum(len(openai_o200k.encode_ordinary(part)) for part in texts)
    width, height = png_size(reading.pages[0].image)
    assert abs(width - 1275) <= 2 and abs(height - 1650) <= 2  # a letter page at 150 dpi
    # OpenAI scales it to 768 x ~994: 2 x 2 tiles; Claude to ~952 x 1232 by its token limit, about 1,500 tokens.
    assert reading.tokens("openai") == text + 4 * (85 + 170 * 4)
    assert reading.tokens("anthropic") == text + 4 * anthropic_image_tokens(width, height)
    assert 1450 < anthropic_image_tokens(width, height) <= 1568
    gemini = reading.as_messages("gemini")  # a contents entry's parts: text, then the page as inline PNG data
    assert [part["text"] for part in gemini if "text" in part] == texts
    images = [part["inline_data"] for part in gemini if "inline_data" in part]
    assert [image["mime_type"] for image in images] == ["image/png"] * 4
    assert base64.b64decode(images[0]["data"]) == reading.pages[0].image
    assert reading.tokens("gemini") == text + 4 * 1120  # Gemini 3's default media resolution
    as_text_only = dataclasses.replace(reading, multimodal=False)
    assert as_text_only.tokens("openai") == text_tokens(as_text_only.as_text())


def test_an_image_files_reading_counts_its_image(shared_services):
    reading = read_file(ROOT / "assets" / "diagram.png", services=shared_services, multimodal=True)
    width, height = png_size(reading.pages[0].image)
    text = text_tokens(reading.as_messages("openai")[0]["text"])
    assert reading.tokens("openai") == text + openai_image_tokens(width, height)


def test_an_unknown_provider_is_refused(shared_services):
    reading = read_file(REPORT_PDF, page_start=1, page_end=1, services=shared_services)
    with pytest.raises(ValueError, match="provider must be"):
        reading.tokens("mistral")
