"""Audio through an OpenAI-compatible transcription API (``testkit/fake_openai.py`` through the real
SDK): segments, language, model and hotwords sent, the fallback to the local model, the cache and
what a failure says."""

from __future__ import annotations

import logging
import re
import shutil
import socket
from pathlib import Path

import pytest

from readers import ReaderError, Services, read_file
from tests.model_output import assert_says
from tests.test_audio import JFK, local

API_KEY = "sk-test-SECRET-4242"


@pytest.fixture
def closed_port_url():
    """A port held (bound, never listening) for the whole test: connections to it are refused,
    and nothing else can start listening there meanwhile."""
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        yield f"http://127.0.0.1:{held.getsockname()[1]}/v1"


# --- the OpenAI-compatible API -----------------------------------------------------------------


def api(tmp_path: Path, base_url: str, **overrides) -> Services:
    return local(tmp_path, whisper_base_url=base_url, whisper_api_key=API_KEY, **overrides)


def verbose_reply(request):
    return 200, {
        "task": "transcribe",
        "language": "english",
        "duration": 11.0,
        "text": "Ask not what your country can do for you.",
        "segments": [
            {"id": 0, "start": 0.0, "end": 4.2, "text": " Ask not what your country"},
            {"id": 1, "start": 4.2, "end": 8.0, "text": " can do for you."},
        ],
    }


def assert_no_key(*texts: str) -> None:
    for text in texts:
        assert API_KEY not in text


def test_api_transcript_with_segments(tmp_path, fake_openai, caplog):
    caplog.set_level(logging.DEBUG)
    fake_openai.routes["/v1/audio/transcriptions"] = verbose_reply
    calls = []
    reading = read_file(JFK, services=api(tmp_path, fake_openai.base_url), progress=lambda *call: calls.append(call))
    transcript = reading.transcript
    assert transcript.source == "api:whisper-1"
    assert transcript.text == "Ask not what your country can do for you."
    assert [(s.start, s.end, s.text) for s in transcript.segments] == [
        (0.0, 4.2, "Ask not what your country"),
        (4.2, 8.0, "can do for you."),
    ]
    assert transcript.language == "english" and transcript.duration == pytest.approx(11.0, abs=0.05)
    assert calls == [
        ("transcribed", 0.0, transcript.duration),
        ("transcribed", transcript.duration, transcript.duration),
    ]
    (request,) = fake_openai.calls("/v1/audio/transcriptions")
    assert request.headers["authorization"] == f"Bearer {API_KEY}"
    assert b'name="model"\r\n\r\nwhisper-1\r\n' in request.body
    assert b'name="response_format"\r\n\r\nverbose_json\r\n' in request.body
    assert b'name="timestamp_granularities[]"\r\n\r\nsegment\r\n' in request.body
    assert b'filename="jfk.flac"' in request.body and JFK.read_bytes() in request.body
    assert b'name="language"' not in request.body
    assert_no_key(repr(reading), reading.as_text(), caplog.text)


def test_api_gets_the_forced_language_and_model(tmp_path, fake_openai):
    fake_openai.routes["/v1/audio/transcriptions"] = verbose_reply
    reading = read_file(
        JFK, services=api(tmp_path, fake_openai.base_url, whisper_language="en", whisper_model="large-v3")
    )
    (request,) = fake_openai.calls("/v1/audio/transcriptions")
    assert b'name="language"\r\n\r\nen\r\n' in request.body and b"large-v3" in request.body
    assert (reading.transcript.language, reading.transcript.source) == ("en", "api:large-v3")


def test_api_gets_the_hotwords_as_its_prompt_and_other_hotwords_miss_the_cache(tmp_path, fake_openai):
    fake_openai.routes["/v1/audio/transcriptions"] = verbose_reply
    services = api(tmp_path, fake_openai.base_url, whisper_hotwords="Kennedy, Americans")
    for hotwords in (None, "Kennedy, Americans", "JFK", "JFK", ""):
        read_file(JFK, services=services, hotwords=hotwords)
    prompts = [
        re.search(rb'name="prompt"\r\n\r\n(.*?)\r\n', request.body)
        for request in fake_openai.calls("/v1/audio/transcriptions")
    ]
    assert [prompt and prompt.group(1) for prompt in prompts] == [
        b"This recording mentions Kennedy and Americans.",  # a sentence, whose style Whisper carries on in
        b"This recording mentions JFK.",
        None,
    ]


def test_api_upload_is_named_after_the_detected_type(tmp_path, fake_openai, spoken):
    fake_openai.routes["/v1/audio/transcriptions"] = verbose_reply
    anonymous = tmp_path / "recording.dat"
    shutil.copy(spoken["ogg"], anonymous)
    read_file(anonymous, services=api(tmp_path, fake_openai.base_url))
    (request,) = fake_openai.calls("/v1/audio/transcriptions")
    assert b'filename="recording.ogg"' in request.body and b"Content-Type: audio/ogg" in request.body


def test_api_that_only_offers_json_falls_back_to_json(tmp_path, fake_openai):
    def json_only(request):
        if b"verbose_json" in request.body:
            return 400, {
                "error": {
                    "message": "response_format 'verbose_json' is not compatible with this model",
                    "type": "invalid_request_error",
                }
            }
        return 200, {"text": "Ask not what your country can do for you."}

    fake_openai.routes["/v1/audio/transcriptions"] = json_only
    reading = read_file(JFK, services=api(tmp_path, fake_openai.base_url, whisper_model="gpt-4o-transcribe"))
    assert reading.transcript.text == "Ask not what your country can do for you."
    assert reading.transcript.segments == [] and reading.transcript.language is None
    assert reading.as_text() == "[AUDIO: jfk.flac, 11.0 s, unknown language]\nAsk not what your country can do for you."
    first, second = fake_openai.calls("/v1/audio/transcriptions")
    assert b'name="response_format"\r\n\r\njson\r\n' in second.body and b"timestamp_granularities" not in second.body


def test_api_answering_plain_text_is_accepted(tmp_path, fake_openai):
    fake_openai.routes["/v1/audio/transcriptions"] = lambda request: (200, " And so, my fellow Americans.\n")
    reading = read_file(JFK, services=api(tmp_path, fake_openai.base_url))
    assert (reading.transcript.text, reading.transcript.segments) == ("And so, my fellow Americans.", [])


def test_api_transcript_is_cached(tmp_path, fake_openai):
    fake_openai.routes["/v1/audio/transcriptions"] = verbose_reply
    services = api(tmp_path, fake_openai.base_url)
    read_file(JFK, services=services)
    again = read_file(JFK, services=services)
    assert again.transcript.source == "api:whisper-1 (cached)"
    assert len(fake_openai.calls("/v1/audio/transcriptions")) == 1


def test_api_down_falls_back_to_the_local_model_with_a_warning(tmp_path, closed_port_url, caplog):
    caplog.set_level(logging.DEBUG)
    reading = read_file(JFK, services=api(tmp_path, closed_port_url, use_local_whisper=True))
    assert reading.transcript.source == "whisper:tiny.en (local)"
    assert_says(reading.transcript.text, "ask not what your country can do for you")
    host = closed_port_url.split("/")[2]
    assert reading.warnings == [
        "Transcribed jfk.flac with whisper:tiny.en (local) because api:whisper-1: "
        f"the transcription service at {host} could not be reached."
    ]
    assert_no_key(repr(reading), reading.as_text(), caplog.text)


def test_api_down_without_fallback_is_a_transcription_failure(tmp_path, closed_port_url, caplog):
    caplog.set_level(logging.DEBUG)
    with pytest.raises(ReaderError) as caught:
        read_file(JFK, services=api(tmp_path, closed_port_url, use_local_whisper=False))
    host = closed_port_url.split("/")[2]
    assert caught.value.code == "TRANSCRIPTION_FAILED"
    assert caught.value.message == (
        f"jfk.flac could not be transcribed: api:whisper-1: the transcription service at {host} could not be reached."
    )
    assert_no_key(str(caught.value), caplog.text)


def test_api_error_that_echoes_the_key_never_shows_it(tmp_path, fake_openai, caplog):
    caplog.set_level(logging.DEBUG)
    fake_openai.routes["/v1/audio/transcriptions"] = lambda request: (
        401,
        {"error": {"message": f"Incorrect API key provided: {API_KEY}.", "type": "invalid_request_error"}},
    )
    with pytest.raises(ReaderError) as caught:
        read_file(JFK, services=api(tmp_path, fake_openai.base_url, use_local_whisper=False))
    assert caught.value.code == "TRANSCRIPTION_FAILED"
    assert "answered 401: Incorrect API key provided: [API key]." in caught.value.message
    assert_no_key(str(caught.value), caplog.text)


def test_api_failure_is_not_cached(tmp_path, fake_openai):
    replies = iter([(500, {"error": {"message": "overloaded"}})] * 3 + [verbose_reply(None)])
    fake_openai.routes["/v1/audio/transcriptions"] = lambda request: next(replies)
    services = api(tmp_path, fake_openai.base_url, use_local_whisper=False)
    with pytest.raises(ReaderError) as caught:
        read_file(JFK, services=services)
    assert "answered 500: overloaded" in caught.value.message
    assert read_file(JFK, services=services).transcript.source == "api:whisper-1"
