"""Descriptions through the real ``openai`` SDK against a local OpenAI-compatible server."""

import asyncio
import base64
import hashlib
import logging
import re
import shutil
import time

import pytest

from readers import ReadOptions, Services, read_file
from readers.describe.prompts import IMAGE_PROMPT, PAGE_PROMPT
from readers.describe.vision import LocalOCR, OpenAIVision, build_vision
from readers.services import RateLimit
from readers.storage.descriptions import DescriptionCache
from testkit import CORPUS, ROOT, fixtures, make_settings
from testkit.fake_openai import chat_reply

KEY = "sk-test-7Qp2Zr9Xw4Lk"
PROSE = CORPUS / "markitdown" / "test.pdf"
WEBP = CORPUS / "docling" / "webp-test.webp"
REPORT_PDF = ROOT / "assets" / "chart-report.pdf"
CHAT = "/v1/chat/completions"


def sent_image(request) -> bytes:
    urls = [part["image_url"]["url"] for part in request.json["messages"][0]["content"] if part["type"] == "image_url"]
    assert len(urls) == 1 and urls[0].startswith("data:image/png;base64,")
    return base64.b64decode(urls[0].split(",", 1)[1])


def sent_text(request) -> str:
    return "".join(part["text"] for part in request.json["messages"][0]["content"] if part["type"] == "text")


def fingerprint(image: bytes) -> str:
    return "Image " + hashlib.sha256(image).hexdigest()[:16]


def answer_with_fingerprint(request):
    return 200, chat_reply(fingerprint(sent_image(request)))


@pytest.fixture(scope="module")
def renders(tmp_path_factory):
    """One render cache for the module, so each PDF is rendered once; descriptions stay per test."""
    return tmp_path_factory.mktemp("renders")


@pytest.fixture
def vision(renders, tmp_path, fake_openai):
    """Services talking to the fake server, with this test's own description cache;
    keyword arguments override settings."""

    def build(**overrides) -> Services:
        settings = make_settings(
            renders,
            **{
                "vision_provider": "openai",
                "vision_base_url": fake_openai.base_url,
                "vision_api_key": KEY,
                "vision_model": "test-vision",
                **overrides,
            },
        )
        return Services(settings, cache=DescriptionCache(tmp_path))

    return build


@pytest.fixture(scope="module")
def figures(renders):
    """Six pages: a picture, a vector chart, text with a logo below the floor, a picture, a scan, text."""
    return fixtures.figures_pdf(renders / "figures.pdf")


@pytest.fixture(scope="module")
def three_pages(renders, figures):
    """Three pages, each with a figure: a picture, a vector chart, a scan."""
    return fixtures.multi_page_pdf(renders / "three.pdf", 3, [(figures, 0), (figures, 1), (figures, 4)])


def test_the_request_carries_model_image_page_text_and_question(vision, fake_openai):
    reading = read_file(PROSE, describe="What does the figure show?", services=vision())
    (request,) = fake_openai.calls(CHAT)
    assert request.json["model"] == "test-vision"
    assert {k.lower(): v for k, v in request.headers.items()}["authorization"] == f"Bearer {KEY}"
    assert sent_image(request) == reading.pages[0].image
    prompt = sent_text(request)
    assert "What does the figure show?" in prompt
    assert "<page_text>" in prompt and "Large language models (LLMs) are becoming a crucial building block" in prompt
    assert PAGE_PROMPT not in prompt
    page = reading.pages[0]
    assert page.description == "A bar chart of sales by quarter."
    assert page.description_source == "vision:test-vision" and page.error is None
    assert (
        reading.usage.calls,
        reading.usage.cache_hits,
        reading.usage.prompt_tokens,
        reading.usage.completion_tokens,
    ) == (1, 0, 100, 20)
    assert reading.usage.seconds > 0
    assert (
        '[PAGE 1 - VISUAL CONTENT (Query: "What does the figure show?")]\nA bar chart of sales by quarter.'
        in reading.as_text()
    )


def test_a_page_gets_the_page_prompt_with_its_figures_and_an_image_the_image_prompt(vision, fake_openai, figures):
    read_file(figures, 1, 1, services=vision())
    read_file(WEBP, services=vision())
    page_request, image_request = fake_openai.calls(CHAT)
    prompt = sent_text(page_request)
    assert prompt.startswith(PAGE_PROMPT) and "Its text layer holds these sentences" in prompt
    assert f'- Figure 1: picture, middle of the page (caption: "{fixtures.CAPTION}")' in prompt
    assert sent_text(image_request) == IMAGE_PROMPT


def test_a_page_whose_chart_was_rebuilt_sends_its_table_and_asks_for_what_it_misses(vision, fake_openai):
    read_file(REPORT_PDF, 1, 1, services=vision())
    (request,) = fake_openai.calls(CHAT)
    prompt = sent_text(request)
    assert "- Figure 1: drawing (chart: bar, 2 series, its table is in the text), middle of the page" in prompt
    assert "the data as a Markdown table" in prompt and "needs only what that table misses" in prompt
    assert "<page_text>" in prompt and "| Q4 | 170 | 125 |" in prompt.rsplit("<page_text>", 1)[1]


def test_only_pages_with_something_to_see_are_sent(vision, fake_openai, figures):
    reading = read_file(figures, services=vision())
    sent = [page.number for page in reading.pages if page.description]
    assert sent == [1, 2, 4, 5] and len(fake_openai.calls(CHAT)) == 4
    assert (reading.usage.calls, reading.usage.calls_saved) == (4, 2)
    for number in (3, 6):  # text, and text with a logo below the size floor
        page = reading.pages[number - 1]
        assert page.description is None and page.description_source == "none: text only" and not page.figures
        assert f"[PAGE {number} - VISUAL CONTENT]" not in reading.as_text()
    assert [figure.kind for page in reading.pages for figure in page.figures] == [
        "picture",
        "drawing",
        "picture",
        "scan",
    ]
    asked = read_file(figures, describe="What is the total?", services=vision())
    assert (asked.usage.calls, asked.usage.calls_saved) == (6, 0), "a question is asked of every page"


def test_a_second_read_and_a_renamed_copy_make_no_calls(vision, fake_openai, three_pages, tmp_path):
    fake_openai.routes[CHAT] = answer_with_fingerprint
    first = read_file(three_pages, services=vision())
    assert len(fake_openai.calls(CHAT)) == 3
    renamed = shutil.copy(three_pages, tmp_path / "renamed copy.pdf")
    for path in (three_pages, renamed):
        again = read_file(path, services=vision())
        assert again.usage.calls == 0 and again.usage.cache_hits == 3
        assert [p.description for p in again.pages] == [p.description for p in first.pages]
        assert {p.description_source for p in again.pages} == {"vision:test-vision (cached)"}
    assert len(fake_openai.calls(CHAT)) == 3
    read_file(three_pages, describe="What is the total?", services=vision())
    assert len(fake_openai.calls(CHAT)) == 6, "a question is its own cache entry"


def test_pages_are_described_concurrently_and_returned_in_page_order(vision, fake_openai, renders, figures):
    fake_openai.routes[CHAT] = answer_with_fingerprint
    fake_openai.delay = 0.3
    eight = fixtures.multi_page_pdf(renders / "eight.pdf", 8, [(figures, 0)])
    reading = read_file(eight, services=vision(vision_concurrency=3))
    assert fake_openai.in_flight_peak == 3
    assert [page.number for page in reading.pages] == list(range(1, 9))
    assert all(page.description == fingerprint(page.image) for page in reading.pages)
    assert reading.usage.calls == 8


def test_a_429_is_retried_after_the_time_the_server_asks(vision, fake_openai):
    replies = iter([(429, {"error": {"message": "slow down"}}, {"Retry-After": "1"})])
    fake_openai.routes[CHAT] = lambda request: next(replies, (200, chat_reply("Described after waiting.")))
    reading = read_file(WEBP, services=vision())
    first, second = fake_openai.calls(CHAT)
    assert second.received_at - first.received_at >= 0.95
    assert reading.pages[0].description == "Described after waiting." and reading.pages[0].error is None


def test_a_429_that_persists_is_reported_after_three_attempts(vision, fake_openai):
    fake_openai.routes[CHAT] = lambda request: (429, {"error": {"message": "slow down"}}, {"Retry-After": "0.2"})
    reading = read_file(WEBP, services=vision())
    assert len(fake_openai.calls(CHAT)) == 3
    assert reading.pages[0].error == (
        "The vision service is limiting requests (429), even after waiting "
        "as it asked: try again in a minute, or lower VISION_CONCURRENCY."
    )


def test_a_dropped_connection_is_retried(vision, fake_openai):
    replies = iter([None])
    fake_openai.routes[CHAT] = lambda request: next(replies, (200, chat_reply("Described on the second try.")))
    reading = read_file(WEBP, services=vision())
    assert len(fake_openai.calls(CHAT)) == 2
    assert reading.pages[0].description == "Described on the second try."


def test_a_500_on_one_page_leaves_the_others_and_is_not_cached(vision, fake_openai, three_pages):
    broken = read_file(three_pages, services=Services(make_settings(vision().settings.cache_dir))).pages[1].image
    fake_openai.routes[CHAT] = lambda request: (
        (500, {"error": {"message": "boom"}}) if sent_image(request) == broken else answer_with_fingerprint(request)
    )
    reading = read_file(three_pages, services=vision())
    first, second, third = reading.pages
    assert second.error == "The vision service failed (500) 3 times: try again later."
    assert second.description is None and second.image == broken and second.text
    assert len([r for r in fake_openai.calls(CHAT) if sent_image(r) == broken]) == 3
    assert first.description == fingerprint(first.image) and third.description == fingerprint(third.image)
    assert first.error is None and third.error is None
    fake_openai.routes[CHAT] = answer_with_fingerprint
    again = read_file(three_pages, services=vision())
    assert again.usage.calls == 1 and again.usage.cache_hits == 2
    assert (
        again.pages[1].description == fingerprint(broken) and again.pages[1].description_source == "vision:test-vision"
    )


def test_a_timeout_is_retried_then_reported(vision, fake_openai):
    fake_openai.delay = 1.5
    reading = read_file(WEBP, services=vision(vision_timeout=0.4))
    assert len(fake_openai.calls(CHAT)) == 3
    assert reading.pages[0].error.startswith("The vision service at http://127.0.0.1:")
    assert (
        "did not answer within 0.4 s, 3 times" in reading.pages[0].error and "VISION_TIMEOUT" in reading.pages[0].error
    )
    assert reading.pages[0].image is not None


@pytest.mark.parametrize(
    "status, message",
    [
        (401, "The vision service rejected the API key (401): check VISION_API_KEY."),
        (403, "The vision service refused access (403): check that VISION_API_KEY may use the model test-vision."),
        (
            400,
            "The vision service refused the request (400): invalid key [API "
            "key] for image input. Check VISION_MODEL (test-vision) is a vision model.",
        ),
    ],
)
def test_refusals_are_not_retried_and_never_show_the_key(vision, fake_openai, caplog, status, message):
    fake_openai.routes[CHAT] = lambda request: (status, {"error": {"message": f"invalid key {KEY} for image input"}})
    with caplog.at_level(logging.DEBUG):
        reading = read_file(PROSE, describe="What is shown?", services=vision())
    assert len(fake_openai.calls(CHAT)) == 1
    assert reading.pages[0].error == message
    assert reading.pages[0].text, "the page keeps its text"
    assert reading.usage.calls == 1
    assert caplog.records, "the SDK's debug log was captured"
    for shown in (reading.as_text(), repr(reading), caplog.text, str(reading.as_messages())):
        assert KEY not in shown
    assert len(vision().cache) == 0


def test_a_server_without_a_key_is_fine(vision, fake_openai):
    reading = read_file(WEBP, services=vision(vision_api_key=None))
    assert reading.pages[0].description == "A bar chart of sales by quarter."


def test_works_inside_a_running_event_loop(vision, fake_openai):
    async def handler():
        assert asyncio.get_running_loop()
        return read_file(WEBP, services=vision())

    reading = asyncio.run(handler())
    assert reading.pages[0].description_source == "vision:test-vision"


def test_multimodal_mode_asks_nothing_unless_there_is_a_question(vision, fake_openai):
    plain = read_file(PROSE, multimodal=True, services=vision())
    assert plain.pages[0].description is None and not fake_openai.calls(CHAT)
    asked = read_file(PROSE, multimodal=True, describe="How many columns?", services=vision())
    assert asked.pages[0].image and asked.pages[0].description == "A bar chart of sales by quarter."
    parts = asked.as_messages()
    assert [part["type"] for part in parts] == ["text", "image_url"] and "A bar chart of sales by quarter." in parts[0][
        "text"
    ]


def test_provider_none_describes_nothing(tmp_path, fake_openai):
    reading = read_file(
        PROSE, services=Services(make_settings(tmp_path, vision_provider="none", vision_base_url=fake_openai.base_url))
    )
    assert reading.pages[0].description is None and reading.usage.calls == 0 and not fake_openai.requests


def test_the_provider_is_chosen_by_settings(tmp_path):
    choose = lambda **kw: build_vision(make_settings(tmp_path, **kw))
    assert isinstance(choose(vision_provider="auto"), LocalOCR)
    assert isinstance(choose(vision_provider="auto", vision_base_url="http://localhost:11434/v1"), OpenAIVision)
    assert isinstance(choose(vision_provider="auto", vision_api_key=KEY), OpenAIVision)
    assert isinstance(choose(vision_provider="ocr", vision_api_key=KEY), LocalOCR)
    assert choose(vision_provider="none", vision_api_key=KEY) is None
    with pytest.raises(
        ValueError, match="VISION_PROVIDER must be one of auto, openai, ocr, none"
    ):  # checked by Settings
        choose(vision_provider="gpt")


def test_usage_seconds_cover_the_calls(vision, fake_openai):
    fake_openai.delay = 0.2
    started = time.monotonic()
    reading = read_file(WEBP, services=vision())
    assert 0.2 <= reading.usage.seconds <= time.monotonic() - started


def test_a_scanned_page_asks_for_its_text_too(vision, fake_openai):
    read_file(CORPUS / "docling" / "ocr_test.pdf", services=vision())
    assert (
        "<page_text>\n(none: the page has no text layer, so also transcribe the text it shows)\n</page_text>"
        in sent_text(fake_openai.calls(CHAT)[0])
    )


def test_a_rate_limit_counts_each_visitors_calls_in_a_sliding_minute():
    now = [1000.0]
    limit = RateLimit(2, clock=lambda: now[0])
    assert [limit.take("a"), limit.take("a"), limit.take("b")] == [0, 0, 0]
    assert limit.take("a") == 60  # full: nothing counted, free again in a minute
    now[0] += 45
    assert limit.take("a") == 15
    now[0] += 15
    assert limit.take("a") == 0 and limit.take("a") == 0 and limit.take("a") == 60
    now[0] += 61
    assert limit.take("b") == 0 and set(limit._made) == {"b"}, "visitors idle for a minute are forgotten"


def test_public_mode_limits_each_visitors_vision_calls_and_keeps_the_pages(vision, fake_openai):
    services = vision(public=True, vision_calls_per_minute=2)
    question = "What is the total?"  # every page is sent: four calls wanted
    first = read_file(REPORT_PDF, options=ReadOptions(describe=question, visitor="198.51.100.1"), services=services)
    assert len(fake_openai.calls(CHAT)) == 2 and first.usage.calls == 2
    described, refused = first.pages[:2], first.pages[2:]
    assert all(page.description and page.error is None for page in described)
    for page in refused:
        assert page.description is None and page.text and page.image
        assert re.fullmatch(
            r"Not described: each visitor may ask the vision model 2 times a minute here \(public mode\)\. "
            r"Try again in (59|60) s; the page's text is here already\.",
            page.error,
        ), page.error
    assert f"chart-report.pdf, page 3, 4: {refused[-1].error}" in first.warnings
    other = read_file(REPORT_PDF, options=ReadOptions(describe=question, visitor="198.51.100.2"), services=services)
    # Public mode counts a cache hit as the call it stood in for: no visitor learns what another read.
    assert (other.usage.cache_hits, other.usage.calls) == (0, 4) and all(page.description for page in other.pages)
    assert len(fake_openai.calls(CHAT)) == 4  # two of its pages were the first visitor's, from the cache
    again = read_file(REPORT_PDF, options=ReadOptions(describe=question, visitor="198.51.100.1"), services=services)
    assert not any(page.error for page in again.pages), "cache hits are not calls against the visitor's limit"
    assert len(fake_openai.calls(CHAT)) == 4 and (again.usage.cache_hits, again.usage.calls) == (0, 4)
    unnamed = read_file(
        REPORT_PDF, describe="And the average?", services=services
    )  # Python and the CLI name no visitor
    assert unnamed.usage.calls == 4 and len(fake_openai.calls(CHAT)) == 8
