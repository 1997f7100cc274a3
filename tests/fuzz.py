"""Mutation fuzzing of every reader: damaged copies of the repository's own files must read as a
``Reading`` or fail with a ``ReaderError`` — never another exception, a dead process or a hang.

    python -m tests.fuzz                                  # 1,000 mutants, a random seed (printed)
    python -m tests.fuzz --seed 42 --count 5000 --formats docx,pptx --jobs 2

Seeds are the files in tests/corpus/ and files made by testkit/fixtures/, of every format the
readers take. The formats take turns; mutant ``n`` of a run takes a seed file of its format and a
mutation from ``Random(f"{seed}:{n}")``, so the same seed replays the same run. Mutations (in
tests/fuzz_mutations.py): truncate, flip bytes, zero a block, splice a range from elsewhere over
another, duplicate a range; and in a zip-based file (DOCX, PPTX, XLSX, EPUB, ODF, ZIP) the same
damage, or a changed XML attribute or element, inside one member, zipped again with valid
checksums so that the damage reaches the XML parsers and not only the zip layer. One mutant in
eight also gets another format's extension (a misnamed file).

Each mutant is read by ``read_file`` in a worker process: text-only, no vision, a private cache,
at most ``MEMORY_LIMIT`` bytes of data. A worker that gives no answer within the time limit is
killed with every process it started, and the mutant is a hang; a worker that dies is a crash; an
exception other than ``ReaderError``, or one that the readers' last-resort guard in
``readers/core.py`` had to turn into a ``ReaderError`` (it logs them), is a bug. Each mutant that
broke a reader is saved under ``--out`` with what happened to it.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from queue import Queue

from tests.fuzz_mutations import mutate

ROOT = Path(__file__).resolve().parent.parent
MEMORY_LIMIT = (
    4 << 30
)  # a worker's data segment: past it an allocation fails (MemoryError) instead of swapping the machine
OFFICE_TIMEOUT = 30.0  # LibreOffice's limit in the workers (OFFICE_TIMEOUT): a legacy file may be converted twice
# Formats by file extension: each format gets as many mutants as any other, whatever its number of seeds.
FORMAT_OF_SUFFIX = {
    "jpg": "jpeg",
    "htm": "html",
    "xhtml": "html",
    "xml": "feed",
    "tsv": "csv",
    "md": "text",
    "txt": "text",
    "py": "text",
    "ipynb": "text",
    "json": "text",
}
LEGACY = ("doc", "rtf", "odt", "ppt", "odp", "xls", "ods")  # read through LibreOffice's OOXML copy
BROKEN = ("bug", "crash", "hang")


# --- seeds ---------------------------------------------------------------------------------------


def format_of(path: Path) -> str:
    suffix = path.suffix.lstrip(".").lower()
    return FORMAT_OF_SUFFIX.get(suffix, suffix)


def make_seeds(folder: Path, xls: bool = True) -> dict[str, list[Path]]:
    """The seed files by format: tests/corpus/ (but the tables' validation set, whose prints and gzipped
    sources would only add more of the same) and files of every kind made by testkit/fixtures/ in
    ``folder`` (with ``xls``, and LibreOffice installed, an XLS too).

    Files made once are used again: some embed the time or a random ID, and the same seed must
    replay the same mutants. Delete the folder to make them afresh.
    """
    from testkit import CORPUS, fixtures
    from testkit.fixtures import old_pages, tables
    from testkit.validation import VALIDATION

    made = folder / "made"
    if not made.is_file():
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        small_docx = fixtures.word_document(folder / "word.docx")
        jpeg = (CORPUS / "python-docx/images/python-icon.jpeg").read_bytes()
        (folder / "minutes.rtf").write_bytes(fixtures.RTF)
        fixtures.structured_word_document(folder / "structured.docx")
        fixtures.slide_deck(folder / "deck.pptx")
        fixtures.structured_deck(folder / "structured.pptx")
        fixtures.workbook(folder / "book.xlsx")
        fixtures.multi_page_pdf(folder / "pages.pdf", 3)
        fixtures.figures_pdf(folder / "figures.pdf")
        fixtures.structure_pdf(folder / "structure.pdf")
        tables.tables_pdf(folder / "tables.pdf")
        old_pages.askew_pdf(folder / "askew.pdf")
        fixtures.tiff_frames(folder / "frames.tiff")
        fixtures.animated_gif(folder / "animated.gif")
        fixtures.jpeg_with_exif(folder / "exif.jpg")
        fixtures.text_files(folder / "text")
        fixtures.big_csv(folder / "semicolons.csv", rows=40)
        fixtures.web_page(folder / "article.html")
        fixtures.xhtml_page(folder / "strict.xhtml")
        fixtures.rss_feed(folder / "rss.xml")
        fixtures.atom_feed(folder / "atom.xml")
        fixtures.ebook(folder / "ducks.epub")
        fixtures.mail(folder / "mail.eml", {"counts.csv": b"pond,ducks\nnorth,12\n", "logo.jpeg": jpeg})
        fixtures.archive(
            folder / "bundle.zip",
            {
                "notes/readme.md": b"# Read me\n\nDucks.\n",
                "counts.csv": b"pond,ducks\nnorth,12\n",
                "word.docx": small_docx.read_bytes(),
                "logo.jpeg": jpeg,
            },
        )
        fixtures.speech(folder / "speech.wav", 0)
        if xls and shutil.which("soffice"):
            fixtures.libreoffice_copy(folder / "book.xlsx", folder / "book.xls", "xls")
        made.write_text(
            "\n".join(str(path.relative_to(folder)) for path in sorted(folder.rglob("*")) if path.is_file())
        )
    seeds: dict[str, list[Path]] = {}
    corpus = (path for path in CORPUS.rglob("*") if path.is_file() and VALIDATION not in path.parents)
    for path in [folder / name for name in made.read_text().splitlines()] + sorted(corpus):
        seeds.setdefault(format_of(path), []).append(path)
    return seeds


@dataclass
class Mutant:
    index: int
    format: str
    seed: Path
    mutation: str
    path: Path


def mutants(seeds: dict[str, list[Path]], seed: int, count: int, folder: Path) -> Iterator[Mutant]:
    """The ``count`` mutants of the run with this ``seed``, written to ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    formats = sorted(seeds)
    for index in range(count):
        rng = random.Random(f"{seed}:{index}")
        kind = formats[index % len(formats)]
        source = rng.choice(seeds[kind])
        data, what = mutate(source.read_bytes(), rng)
        suffix = source.suffix
        if rng.random() < 1 / 8:
            suffix = rng.choice([paths[0].suffix for paths in seeds.values()])
            what += f", named {suffix}"
        path = folder / f"{index:05d}-{source.stem}{suffix}"
        path.write_bytes(data)
        yield Mutant(index, kind, source, what, path)


# --- reading in worker processes ----------------------------------------------------------------


@dataclass
class Outcome:
    status: str  # "reading" | "error" | "bug" | "crash" | "hang"
    code: str = ""  # a ReaderError's code
    detail: str = ""  # a ReaderError's message, or what went wrong: a traceback, the worker's last words

    @property
    def broken(self) -> bool:
        return self.status in BROKEN


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_DATA, (MEMORY_LIMIT, MEMORY_LIMIT))


class Worker:
    """A ``python -m tests.fuzz --worker`` process reading one file at a time, killed (with all it
    started) when it overruns; a new one is started for the next file."""

    def __init__(self, folder: Path, renders: bool, hook: str | None):
        self.folder, self.renders, self.hook = folder, renders, hook
        self.process: subprocess.Popen | None = None

    def _start(self) -> None:
        tmp = self.folder / "tmp"
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        read_end, self.write_end = os.pipe()
        self.answers, answer_end = os.pipe()
        setup = {"answers": answer_end, "cache": str(self.folder / "cache"), "renders": self.renders, "hook": self.hook}
        command = [sys.executable, "-m", "tests.fuzz", "--worker", json.dumps(setup)]
        self.log = open(self.folder / "worker.log", "w+b")
        env = {**os.environ, "TMPDIR": str(tmp), "GRADIO_ANALYTICS_ENABLED": "False"}
        self.process = subprocess.Popen(
            command,
            cwd=ROOT,
            stdin=read_end,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            env=env,
            pass_fds=(answer_end,),
            start_new_session=True,
            preexec_fn=_limit_memory,
        )
        os.close(read_end)
        os.close(answer_end)
        # A file's time starts once the worker is ready: on a busy machine its imports alone took past
        # the test's 5 s.
        ready = b""
        while not ready.endswith(b"\n"):
            chunk = os.read(self.answers, 1 << 16)
            if not chunk:
                raise RuntimeError(f"the fuzz worker did not start:\n{self._last_words()}")
            ready += chunk
        self.buffer = b""

    def read(self, path: Path, timeout: float) -> Outcome:
        if self.process is None:
            self._start()
        os.write(self.write_end, json.dumps({"path": str(path)}).encode() + b"\n")
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                self.stop()
                return Outcome("hang", detail=f"no answer within {timeout:g} s")
            if select.select([self.answers], [], [], left)[0]:
                chunk = os.read(self.answers, 1 << 16)
                if not chunk:
                    returncode = self.process.wait()
                    last_words = self._last_words()
                    self.stop()
                    return Outcome("crash", detail=f"the worker died ({_signal_name(returncode)})\n{last_words}")
                self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return Outcome(**json.loads(line))

    def _last_words(self) -> str:
        """The end of what the worker printed."""
        self.log.seek(0)
        return self.log.read().decode(errors="replace")[-3000:]

    def stop(self) -> None:
        """End the worker, its process group (PDF workers) and whatever it started in sessions of
        their own (LibreOffice, Chromium), which all run with its temporary folder on their command line."""
        if self.process is None:
            return
        for pid in [self.process.pid, *_processes_mentioning(str(self.folder))]:
            try:
                os.killpg(pid, signal.SIGKILL) if pid == self.process.pid else os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.process.wait()
        for handle in (self.write_end, self.answers):
            os.close(handle)
        self.log.close()
        self.process = None


def _signal_name(returncode: int) -> str:
    return f"signal {signal.Signals(-returncode).name}" if returncode < 0 else f"exit status {returncode}"


def _processes_mentioning(text: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if text.encode() in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:  # ended meanwhile
                pass
    return found


def read_all(
    paths: Iterable, folder: Path, jobs: int = 1, timeout: float = 90, renders: bool = True, hook: str | None = None
) -> Iterator[tuple[object, Outcome]]:
    """Read each item of ``paths`` (a path, or anything with a ``.path``) in ``jobs`` workers;
    yield ``(item, outcome)`` as each is read."""
    todo: Queue = Queue(maxsize=jobs * 2)
    done: Queue = Queue()

    def serve(number: int) -> None:
        worker = Worker(folder / f"worker-{number}", renders, hook)
        try:
            while (item := todo.get()) is not None:
                try:
                    outcome = worker.read(Path(getattr(item, "path", item)), timeout)
                except Exception as error:  # noqa: BLE001 - the harness itself failed: report it on the item, go on
                    worker.stop()
                    outcome = Outcome("crash", detail=f"the fuzzer could not run the worker: {error!r}")
                done.put((item, outcome))
        finally:
            worker.stop()
            done.put(None)

    threads = [threading.Thread(target=serve, args=(number,), daemon=True) for number in range(jobs)]
    for thread in threads:
        thread.start()

    def feed() -> None:
        for item in paths:
            todo.put(item)
        for _ in threads:
            todo.put(None)

    threading.Thread(target=feed, daemon=True).start()
    running = jobs
    while running:
        result = done.get()
        if result is None:
            running -= 1
        else:
            yield result


def worker(answers: int, cache: str, renders: bool, hook: str | None) -> None:
    """Read each path sent on stdin (a JSON line) and answer with its outcome on the pipe ``answers``."""
    import logging
    import traceback

    from readers import ReaderError, Services, read_file
    from testkit import make_settings

    if not renders:  # the text only: no LibreOffice and no Chromium
        from readers.render import browser, libreoffice

        libreoffice.soffice = browser.chromium = lambda: None
    if hook:
        module, function = hook.split(":")
        getattr(__import__(module, fromlist=[function]), function)()
    logged: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            logged.append(self.format(record))

    readers_log = logging.getLogger("readers")
    readers_log.addHandler(Keep(logging.ERROR))
    readers_log.propagate = False
    services = Services(make_settings(Path(cache), office_timeout=OFFICE_TIMEOUT))
    with os.fdopen(answers, "w") as out:
        out.write("ready\n")
        out.flush()
        for line in sys.stdin:
            path = Path(json.loads(line)["path"])
            logged.clear()
            try:
                reading = read_file(path, services=services, multimodal=False)
                reading.as_text()
                reading.as_messages("openai")
                outcome = Outcome(
                    "reading", detail=f"{reading.kind}, {reading.page_count} pages, {len(reading.warnings)} warnings"
                )
            except ReaderError as error:
                outcome = Outcome("error", error.code, error.message)
            except Exception:  # noqa: BLE001 - what the fuzzer is looking for
                outcome = Outcome("bug", detail=traceback.format_exc())
            if logged and outcome.status != "bug":
                outcome = Outcome("bug", detail="the readers logged an unexpected error:\n" + "\n".join(logged))
            services.store.clear()
            out.write(json.dumps(outcome.__dict__) + "\n")
            out.flush()


# --- a run ---------------------------------------------------------------------------------------


def run(
    seeds: dict[str, list[Path]],
    seed: int,
    count: int,
    folder: Path,
    jobs: int = 1,
    timeout: float = 90,
    renders: bool = True,
    formats: set[str] | None = None,
    out: Path | None = None,
    say: Callable[[str], None] = lambda line: None,
) -> list[tuple[Mutant, Outcome]]:
    """Read ``count`` mutants of ``seeds`` (of ``formats``, else all) in a working ``folder``;
    return each with its outcome. ``out``: where each mutant that broke a reader is copied, with
    a ``.txt`` beside it saying what happened to it."""
    if formats:
        seeds = {kind: paths for kind, paths in seeds.items() if kind in formats}
    results = []
    for mutant, outcome in read_all(mutants(seeds, seed, count, folder / "mutants"), folder, jobs, timeout, renders):
        results.append((mutant, outcome))
        if outcome.broken:
            saved = ""
            if out is not None:
                out.mkdir(parents=True, exist_ok=True)
                target = out / f"{seed}-{mutant.path.name}"
                shutil.copy(mutant.path, target)
                target.with_name(target.name + ".txt").write_text(
                    f"seed {seed}, mutant {mutant.index}: {mutant.seed.name} "
                    f"({mutant.mutation})\n{outcome.status}\n{outcome.detail}\n"
                )
                saved = f" -> {target}"
            say(
                f"\n{outcome.status.upper()}: mutant {mutant.index} of {mutant.seed.name} "
                f"({mutant.mutation}){saved}\n{outcome.detail.rstrip()}\n"
            )
        else:
            mutant.path.unlink()
        if len(results) % 50 == 0:
            say(f"{len(results)}/{count} read, {sum(o.broken for _, o in results)} broke a reader")
    return results


def summary(results: list[tuple[Mutant, Outcome]]) -> str:
    """A line per format: how many mutants, how many read, the error codes, and how many broke a reader."""
    lines = []
    for kind in sorted({mutant.format for mutant, _ in results}):
        outcomes = [outcome for mutant, outcome in results if mutant.format == kind]
        codes = Counter(outcome.code for outcome in outcomes if outcome.status == "error")
        broken = Counter(outcome.status for outcome in outcomes if outcome.broken)
        lines.append(
            f"{kind:>6}: {len(outcomes):4} mutants, {sum(o.status == 'reading' for o in outcomes):4} read, "
            f"{sum(codes.values()):4} ReaderError ({', '.join(f'{code} {n}' for code, n in codes.most_common())})"
            + (f", BROKEN {dict(broken)}" if broken else "")
        )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.fuzz", description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=None, help="the run's seed (default: a random one, printed)")
    parser.add_argument("--count", type=int, default=1000, help="how many mutants (default 1000)")
    parser.add_argument("--formats", default="", help="only these formats, by extension: docx,pptx,...")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument(
        "--timeout", type=float, default=3 * OFFICE_TIMEOUT, help="seconds a file may take before it counts as a hang"
    )
    parser.add_argument(
        "--no-renders", dest="renders", action="store_false", help="read without LibreOffice and Chromium (faster)"
    )
    parser.add_argument(
        "--out", type=Path, default=ROOT / "fuzz-failures", help="where the mutants that broke a reader are saved"
    )
    parser.add_argument("--worker", help=argparse.SUPPRESS)  # the worker's setup, from Worker._start
    args = parser.parse_args()
    if args.worker is not None:
        worker(**json.loads(args.worker))
        return 0
    seed = random.randrange(1 << 32) if args.seed is None else args.seed
    print(
        f"Fuzzing with seed {seed} (replay: make fuzz SEED={seed} COUNT={args.count}): "
        f"{args.count} mutants, {args.jobs} workers",
        flush=True,
    )
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="readlens-fuzz-") as work:
        results = run(
            make_seeds(args.out / "seeds"),
            seed,
            args.count,
            Path(work),
            args.jobs,
            args.timeout,
            args.renders,
            set(filter(None, args.formats.split(","))),
            args.out,
            lambda line: print(line, flush=True),
        )
    broken = [(mutant, outcome) for mutant, outcome in results if outcome.broken]
    print(
        f"\n{summary(results)}\n\n{len(results)} mutants in {time.monotonic() - started:.0f} s; "
        f"{len(broken)} broke a reader{f' (saved in {args.out})' if broken else ''}. Seed {seed}."
    )
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
