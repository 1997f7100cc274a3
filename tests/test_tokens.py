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
    anthropic_image_tokens,
    gemini_image_tokens,
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


@pytest.mark.parametrize(
    "width, height, tokens", [(1024, 1024, 765), (2048, 4096, 1105), (512, 512, 255), (4096, 8192, 1105)]
)
def test_openai_high_detail_rule_matches_the_published_examples(width, height, tokens):
    assert openai_image_tokens(width, height) == tokens


@pytest.mark.parametrize("width, height, tokens", [(1000, 1000, 1334), (1092, 1092, 1590), (3136, 3136, 3279)])
def test_anthropic_rule_is_pixels_over_750_after_scaling(width, height, tokens):
    assert anthropic_image_tokens(width, height) == tokens


@pytest.mark.parametrize(
    "width, height, tokens", [(384, 384, 258), (300, 200, 258), (385, 100, 258), (768, 769, 516), (1275, 1650, 1548)]
)
def test_gemini_rule_is_258_tokens_a_small_image_or_768_px_tile(width, height, tokens):
    assert gemini_image_tokens(width, height) == tokens


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
    # OpenAI scales it to 768 x ~994: 2 x 2 tiles; Anthropic to ~1212 x 1568, about 2,530 tokens.
    assert reading.tokens("openai") == text + 4 * (85 + 170 * 4)
    assert reading.tokens("anthropic") == text + 4 * anthropic_image_tokens(width, height)
    assert 2500 < anthropic_image_tokens(width, height) < 2560
    gemini = reading.as_messages("gemini")  # a contents entry's parts: text, then the page as inline PNG data
    assert [part["text"] for part in gemini if "text" in part] == texts
    images = [part["inline_data"] for part in gemini if "inline_data" in part]
    assert [image["mime_type"] for image in images] == ["image/png"] * 4
    assert base64.b64decode(images[0]["data"]) == reading.pages[0].image
    assert reading.tokens("gemini") == text + 4 * 258 * 2 * 3  # 2 x 3 tiles of 768 px
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
