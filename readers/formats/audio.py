"""Audio (WAV, MP3, M4A/AAC, FLAC, OGG/Opus, WebM): a transcript with timestamps.

The header is probed first (cheap: length limit, unreadable files); where it states no length (raw
AAC, an MP3 without a Xing, Info or VBRI header) the length is the sum of its frames' (read without
decoding them), so a long recording is refused before anything is decoded; the cache is asked
before anything is decoded, so a second read is instant; only then is the file decoded, which also
shows a truncated file for what it is, and decoding stops at ``MAX_AUDIO_MINUTES`` whatever the
file said (3 MB of silent AAC frames are 600 minutes, 5.6 GB decoded).
"""

from __future__ import annotations

import json
from dataclasses import asdict, replace

import av
import numpy as np

from ..describe.transcribe import SAMPLE_RATE, Audio, TranscriptionFailed, hotwords_prompt
from ..errors import ReaderError, on_time
from ..job import Job
from ..models import Extraction, Reading, Segment, Transcript
from ..notices import CACHED, Code, Notice
from ..storage.descriptions import cache_key
from ..versions import TRANSCRIPT_VERSION

# Decoders disagree by a few milliseconds about where a stream ends; more than this is missing audio.
TRUNCATION_TOLERANCE = 1.0
WAV_SLACK_BYTES = 4096
MP3_FIRST_FRAME = 4096  # bytes read for the Xing/Info/VBRI header: in the first frame, at most 1,441 (320 kb/s, 32 kHz)
RIFF_HEADER = 12  # bytes: "RIFF", the size of what follows, "WAVE"
RIFF_UNKNOWN_SIZE = 0xFFFFFFFF  # the size a streaming recorder writes when it cannot know it


def _damaged(job: Job, detail: str) -> ReaderError:
    return ReaderError(
        "CORRUPT_FILE", f"{job.name} is damaged or truncated: {detail}. Export or upload the complete recording again."
    )


def _declared_duration(job: Job) -> float | None:
    """The length the file's header states (None when it only guesses), checked against the limit."""
    try:
        with av.open(str(job.path)) as container:
            if not container.streams.audio:
                raise ReaderError(
                    "UNSUPPORTED_FORMAT", f"{job.name} has no sound track, so there is nothing to transcribe."
                )
            stream = container.streams.audio[0]
            declared: float | None
            if stream.duration is not None and stream.time_base is not None:
                declared = float(stream.duration * stream.time_base)
            else:
                declared = container.duration / av.time_base if container.duration else None
            # FFmpeg guesses a raw stream's length from its first frames' bitrate, which can be far
            # off; only an MP3's Xing/Info/VBRI header states it. Their frames say how long they are.
            if container.format.name == "aac" or (container.format.name == "mp3" and not _mp3_states_its_length(job)):
                declared = None
                _check_length(job, _framed_seconds(job, container, stream), more=True)
    except av.FFmpegError as error:
        raise _damaged(job, f"its audio could not be opened ({error.strerror})") from None
    _check_length(job, declared)
    return declared


def _mp3_states_its_length(job: Job) -> bool:
    """Whether an MP3 has a Xing/Info/VBRI header, which states its length."""
    with open(job.path, "rb") as handle:
        start = handle.read(10)
        if start[:3] == b"ID3":  # skip the ID3v2 tag (it may hold cover art): its size is 4 x 7 bits
            handle.seek(10 + sum((byte & 0x7F) << (7 * (3 - index)) for index, byte in enumerate(start[6:10])))
        first_frame = handle.read(MP3_FIRST_FRAME)
    return any(tag in first_frame for tag in (b"Xing", b"Info", b"VBRI"))


def _framed_seconds(job: Job, container, stream) -> float:
    """How long the stream's frames say they are, read without decoding them, counted up to just past the limit."""
    limit, ticks = job.settings.max_audio_minutes * 60 / stream.time_base, 0
    for packet in container.demux(stream):
        ticks += packet.duration or 0
        if ticks > limit:
            break
    return float(ticks * stream.time_base)


def _check_length(job: Job, seconds: float | None, more: bool = False) -> None:
    """Refuse a recording of ``seconds`` past ``MAX_AUDIO_MINUTES`` (``more``: at least that long, as
    far as it was counted)."""
    limit = job.settings.max_audio_minutes
    if seconds is not None and seconds > limit * 60:
        raise ReaderError(
            "FILE_TOO_LARGE",
            f"{job.name} is longer than {limit:g} minutes, the limit (MAX_AUDIO_MINUTES)."
            if more
            else f"{job.name} is {seconds / 60:.1f} minutes long; the limit is {limit:g} minutes (MAX_AUDIO_MINUTES).",
        )


def _samples(job: Job) -> np.ndarray:
    """The recording as 16 kHz mono samples (as faster-whisper's ``decode_audio`` makes them), decoded
    no further than ``MAX_AUDIO_MINUTES``; frames FFmpeg calls invalid are skipped, as it skips them."""
    resampler = av.audio.resampler.AudioResampler(format="s16", layout="mono", rate=SAMPLE_RATE)
    limit, pieces, count = job.settings.max_audio_minutes * 60 * SAMPLE_RATE, [], 0
    with av.open(str(job.path), metadata_errors="ignore") as container:
        frames = container.decode(audio=0)
        while True:
            try:
                frame = next(frames, None)
            except av.error.InvalidDataError:
                continue
            if frame is not None:
                frame.pts = None  # its timestamps are not checked, as faster-whisper does not check them
            for piece in resampler.resample(frame):  # None flushes the resampler
                pieces.append(piece.to_ndarray().reshape(-1))
                count += len(pieces[-1])
            if count > limit:
                _check_length(job, count / SAMPLE_RATE, more=True)
            if frame is None:
                break
            on_time()
    return np.concatenate(pieces).astype(np.float32) / 32768.0 if pieces else np.zeros(0, np.float32)


def _wav_missing_bytes(job: Job) -> int:
    """How many bytes a WAV file's RIFF header promises beyond the end of the file.

    FFmpeg measures a WAV by its file size, so a cut-off WAV looks whole to it. Streaming
    recorders write 0 or 0xFFFFFFFF as the size, which promise nothing; some writers miscount
    by a few bytes, hence the slack.
    """
    with open(job.path, "rb") as handle:
        header = handle.read(RIFF_HEADER)
    if header[:4] != b"RIFF" or header[8:12] != b"WAVE":
        return 0
    promised = int.from_bytes(header[4:8], "little") + 8
    return promised - job.size if promised < RIFF_UNKNOWN_SIZE and promised > job.size + WAV_SLACK_BYTES else 0


def _decode(job: Job, declared: float | None) -> Audio:
    try:
        samples = _samples(job)
    except av.FFmpegError as error:
        raise _damaged(job, f"its audio could not be decoded ({error.strerror})") from None
    duration = len(samples) / SAMPLE_RATE
    if duration == 0:
        raise _damaged(job, "it holds no audio samples")
    if declared is not None and declared - duration > TRUNCATION_TOLERANCE:
        raise _damaged(job, f"its header promises {declared:.1f} s of audio but only {duration:.1f} s could be decoded")
    missing = _wav_missing_bytes(job)
    if missing:
        raise _damaged(job, f"its header promises {missing:,} more bytes than the file holds")
    _check_length(job, duration)
    return Audio(job.path, job.name, job.mime, samples, duration)


def _stored(transcript: Transcript) -> str:
    return json.dumps(asdict(transcript), ensure_ascii=False)


def _loaded(value: str) -> Transcript:
    fields = json.loads(value)
    segments = [Segment(**segment) for segment in fields.pop("segments")]
    transcript = Transcript(**fields, segments=segments)
    return replace(transcript, source=f"{transcript.source}{CACHED}")


def transcript_key(sha256: str, backend, language: str | None, hotwords: str | None) -> str:
    """The cache key of a recording's transcript by ``backend``: its model and the service that runs
    it, the language and the hotwords. Hotwords are in the key only when given, so transcripts made
    without them stay cached; as the sentence they reach the model in, so one made from the bare
    terms (before) is made again."""
    prompt = [hotwords_prompt(hotwords)] if hotwords else []
    return cache_key(sha256, "transcript", TRANSCRIPT_VERSION, backend.source, backend.service, language, *prompt)


def _transcribe(job: Job, declared: float | None, notices: list[Notice]) -> Transcript:
    """Try each backend in order: its cached transcript, else a transcription; warn on a fallback."""
    language = (job.settings.whisper_language or "").lower() or None
    audio = None
    failures = []
    for backend in job.services.transcriber.backends:
        key = transcript_key(job.sha256, backend, language, job.options.hotwords)
        cached = job.services.cache.get(key)
        if cached is not None:
            transcript = _loaded(cached)
        else:
            audio = audio or _decode(job, declared)
            job.progress("transcribed", 0.0, audio.duration)
            try:
                transcript = backend.transcribe(
                    audio,
                    language,
                    lambda done, audio=audio: job.progress("transcribed", done, audio.duration),
                    job.options.hotwords,
                )
            except TranscriptionFailed as error:
                failures.append(f"{backend.source}: {error}")
                continue
            job.progress("transcribed", audio.duration, audio.duration)
            job.services.cache.put(key, _stored(transcript))
            if backend.warning:
                notices.append(Notice(Code.TRANSCRIBER, f"{job.name}: {backend.warning}."))
        if failures:
            notices.append(
                Notice(Code.TRANSCRIBER, f"Transcribed {job.name} with {backend.source} because {'; '.join(failures)}.")
            )
        return transcript
    raise ReaderError("TRANSCRIPTION_FAILED", f"{job.name} could not be transcribed: {'; '.join(failures)}.")


def read(job: Job) -> Reading:
    notices: list[Notice] = []
    transcript = _transcribe(job, _declared_duration(job), notices)
    if not transcript.text:
        notices.append(Notice(Code.NO_SPEECH, f"No speech was found in {job.name} ({transcript.duration:.1f} s)."))
    return job.reading(Extraction(0, [], notices=notices), transcript=transcript)
