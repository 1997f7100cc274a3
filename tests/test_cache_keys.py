"""Every cache key holds every setting that shapes its entry, and nothing else; and in public mode a
visitor's reading does not show whether anyone read the same bytes before (no "(cached)" source, no
hit count)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from readers import Page, Services, read_file
from readers.describe.transcribe import LocalWhisper, WhisperAPI
from readers.describe.vision import OpenAIVision
from readers.formats.audio import transcript_key
from readers.markup.blocks import paragraphs
from readers.models import Reading
from readers.notices import CACHED
from readers.payload.serialize import as_json
from readers.storage.files import IMAGE, RENDER, file_sha256
from testkit import CORPUS, ROOT, make_settings

REPORT_PDF = ROOT / "assets" / "chart-report.pdf"
BASE = make_settings(ROOT / "unused-cache", vision_provider="openai", vision_base_url="http://one.test/v1")
# Per key: the settings that shape its entry (each changed must change the key), and settings that do
# not (each changed must leave it, so that an entry is still found).
DESCRIPTION_SHAPED = {"vision_model": "other-model", "vision_base_url": "http://two.test/v1"}
DESCRIPTION_NOT = {"vision_api_key": "sk-other", "vision_timeout": 5, "vision_concurrency": 1, "public": True}
TRANSCRIPT_SHAPED = {"whisper_model": "other-whisper", "whisper_base_url": "http://two.test/v1"}
TRANSCRIPT_NOT = {"whisper_api_key": "sk-other", "whisper_timeout": 5, "public": True}


def description_key(settings) -> str:
    reading = Reading(name="a.pdf", kind="pdf", mime="application/pdf", sha256="0" * 64, page_count=1)
    return OpenAIVision(settings).key(reading, Page(number=1, blocks=paragraphs("Words."), image=b"png"))


@pytest.mark.parametrize("name", DESCRIPTION_SHAPED)
def test_a_descriptions_key_holds_each_setting_that_shapes_it(name):
    assert description_key(replace(BASE, **{name: DESCRIPTION_SHAPED[name]})) != description_key(BASE)


@pytest.mark.parametrize("name", DESCRIPTION_NOT)
def test_a_descriptions_key_holds_no_setting_that_does_not_shape_it(name):
    assert description_key(replace(BASE, **{name: DESCRIPTION_NOT[name]})) == description_key(BASE)


@pytest.mark.parametrize("name", TRANSCRIPT_SHAPED)
def test_a_transcripts_key_holds_each_setting_that_shapes_it(name):
    base = transcript_key("0" * 64, WhisperAPI(BASE), "en", None)
    assert transcript_key("0" * 64, WhisperAPI(replace(BASE, **{name: TRANSCRIPT_SHAPED[name]})), "en", None) != base
    assert transcript_key("0" * 64, WhisperAPI(BASE), "de", None) != base
    assert transcript_key("0" * 64, WhisperAPI(BASE), "en", "Kubernetes") != base
    assert transcript_key("0" * 64, LocalWhisper("base"), "en", None) != transcript_key(
        "0" * 64, LocalWhisper("tiny.en"), "en", None
    )


@pytest.mark.parametrize("name", TRANSCRIPT_NOT)
def test_a_transcripts_key_holds_no_setting_that_does_not_shape_it(name):
    changed = WhisperAPI(replace(BASE, **{name: TRANSCRIPT_NOT[name]}))
    assert transcript_key("0" * 64, changed, "en", None) == transcript_key("0" * 64, WhisperAPI(BASE), "en", None)


def test_a_renders_and_an_images_entries_hold_their_size(tmp_path):
    cache = tmp_path / "cache"
    for dpi in (72, 100):
        read_file(REPORT_PDF, 1, 1, images=True, services=Services(make_settings(cache, render_dpi=dpi)))
    store = Services(make_settings(cache)).store
    renders = [store.get_bytes(file_sha256(REPORT_PDF), RENDER, f"0001-{dpi}dpi") for dpi in (72, 100)]
    assert all(renders) and renders[0] != renders[1]
    picture = CORPUS / "docling/webp-test.webp"
    small, large = (
        read_file(picture, services=Services(make_settings(cache, max_image_side=side))).pages[0].image
        for side in (64, 128)
    )
    assert small != large and store.get_bytes(file_sha256(picture), IMAGE, "0001-64px") == small


def test_in_public_mode_a_second_visitor_cannot_tell_the_bytes_were_read_before(tmp_path, fake_openai):
    def visitor(public: bool) -> Services:
        settings = make_settings(
            tmp_path / ("public" if public else "private"),
            vision_provider="openai",
            vision_base_url=fake_openai.base_url,
            public=public,
        )
        return Services(settings)

    for public in (False, True):
        services = visitor(public)
        first, second = (read_file(REPORT_PDF, 2, 2, services=services) for _ in range(2))
        sources = [page.description_source for page in second.pages]
        if public:
            assert not any(CACHED in source for source in sources) and second.usage.cache_hits == 0
            assert second.usage.calls == first.usage.calls == 1 and "cached" not in str(as_json(second))
        else:  # outside public mode the cache says what it saved
            assert all(source.endswith(CACHED) for source in sources) and second.usage.cache_hits == 1
