"""Reading a collection: ``python -m readers batch PATH... --out pages.jsonl [--engine local|ray]``.

Every file under the given paths is read with ``read_file`` (folders are walked recursively,
in name order; names starting with a dot are left out of a walk, not when named), and each
page becomes one record: a line of JSON, or a row of Parquet when the output's name ends in
``.parquet``. Every record has the fields of ``FIELDS``::

    file, sha256, kind, mime       the path as walked, the content hash, the detected type
    page, page_count, pages_read   1-based page; the document's pages; how many pages were read
    section, line                  the file inside an archive or e-mail the page comes from; the
                                   number of a text file's page's first line (else null)
    text, tables                   the page's text (audio: the transcript's), Markdown tables
    furniture                      what the page shows round its text and the text leaves out
    image                          the page as base64 PNG in multimodal mode, else null
    description, description_source
    error                          null, or {code, message}
    transcript                     audio: {text, language, duration, segments, source}
    warnings                       the file's warnings, on its first record

A file that cannot be read is one record whose error has its ``ReaderError`` code; an audio
file is one record (``page`` null); a page that failed on its own keeps its record, with an
error whose code is null, and the file's other pages come back as usual.

With ``--chunks 512`` (``Request.chunk_tokens``) each chunk (``Reading.chunks``) is a record
instead, with the fields of ``CHUNK_FIELDS``: the file's (file, sha256, kind, mime, page_count,
pages_read), then chunk (its 1-based number), chunk_count (the file's chunks), chunk_kind (text,
table, figure, transcript) and the chunk's own (text, tokens, pages, headings, section, citation,
lines, start, end, caption, boxes, context, overlap), error and warnings. A file without chunks is
one record (``chunk`` null); pages that failed on their own are named in the error of the file's
first record. One output holds page records or chunk records, never both.

Resuming: each file's records are written together (one write, flushed), so a stopped run
leaves at most one file's records cut short, at the end. Run again on the same output and it
is scanned first: files read without an error are known by content hash and not read again
(nor a copy of one under another name); a file cut short, or one whose records carry an
error, is dropped from the output and read again; new files are appended. Parquet cannot be
appended to, so records go to ``<out>.partial.jsonl`` while the run goes on and the Parquet
file is rewritten once, at the end.

The engines (``LocalEngine``, ``RayEngine``) run ``read_records`` on each file, a few at a
time, and hand the records back to this process, which alone writes the output.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

from tqdm import tqdm

from ..intake.fetch import is_url
from ..settings import Settings
from .engines import TRIES, LocalEngine, RayEngine, Retry, lost
from .outputs import Previous, collect, only_writer, open_output, output_journal
from .progress import Progress, Tally
from .records import Request, checked, content_hash, failure_records

SIGNAL_EXIT = 128  # a run stopped by signal N exits 128 + N, as the shell reports a process it killed


class _Stopper:
    """The first Ctrl-C (or SIGTERM) starts no more files and lets the files under way finish
    and be written; a second stops at once (what was written is kept)."""

    def __init__(self):
        self.signal = 0
        self._saved: dict = {}

    def __enter__(self) -> _Stopper:
        if threading.current_thread() is threading.main_thread():
            for number in (signal.SIGINT, signal.SIGTERM):
                self._saved[number] = signal.signal(number, self._handle)
        return self

    def _handle(self, number, frame) -> None:
        if self.signal:
            raise KeyboardInterrupt
        self.signal = number
        tqdm.write(
            "Stopping: no more files are started; the ones under way are "
            "finished and written. Ctrl-C again stops at once.",
            file=sys.stderr,
        )

    def __exit__(self, *exc) -> None:
        for number, handler in self._saved.items():
            signal.signal(number, handler)


def _tasks(
    files: list[str], previous: Previous, tally: Tally, settings: Settings, progress: Progress, stopper: _Stopper
) -> Iterator[tuple]:
    """(path, file, sha256) of each file still to read, hashed here as the engine asks for
    more; files already read and copies are counted off the progress bar instead."""
    seen: set[str] = set()
    for file in files:
        if stopper.signal:
            return
        if is_url(file):  # fetched by its reader; read again unless an earlier run read it
            if file in previous.done:
                tally.skipped += 1
                progress.skip()
            else:
                yield file, file, None
            continue
        sha256 = content_hash(Path(file), settings)
        if sha256 in previous.done or sha256 in seen:
            if sha256 in seen:
                tally.copies += 1
            else:
                tally.skipped += 1
            progress.skip()
            continue
        if sha256:
            seen.add(sha256)
        yield os.path.abspath(file), file, sha256


def _stopped(file: str, error: BaseException) -> str:
    """Why a file's worker gave no records: lost on every try, or stopped by an error of its own."""
    name = Path(file).name
    if lost(error):
        return f"{name} could not be read: {lost(error)}, on each of {TRIES} tries."
    return f"the worker reading {name} stopped: {type(error).__name__}"


def run(
    paths: list[str],
    out: str | os.PathLike,
    *,
    engine: LocalEngine | RayEngine | None = None,
    request: Request | None = None,
    settings: Settings | None = None,
) -> int:
    """Read every file under ``paths`` into ``out``; progress and a summary on standard error.

    Returns the exit status: 0 when every file was read, 1 when some could not be, 128 + the
    signal's number when a signal stopped the run. Raises ``BatchError`` when it cannot start.
    """
    request = request or Request()
    settings = checked(paths, request, settings or Settings.from_env())
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    output = open_output(out, bool(request.chunk_tokens))
    engine = engine or LocalEngine()
    tally = Tally()
    leave_out = {out.resolve(), output_journal(out).resolve()}
    with only_writer(out), _Stopper() as stopper, engine:
        previous = output.resume()
        if previous.done or previous.retried or previous.cut:
            print(previous.describe(out), file=sys.stderr)
        files = collect(paths, leave_out)
        tally.started = time.monotonic()
        progress = Progress(len(files), engine.name, tally)
        try:
            with closing(
                engine.read(_tasks(files, previous, tally, settings, progress, stopper), request, settings)
            ) as results:
                for (_, file, sha256), records in results:
                    if records is None:
                        continue
                    if isinstance(records, Retry):
                        tally.retry(file, records.reason)
                        progress.write(f"retrying: {file}: {records.reason} (try {records.tries + 1} of {TRIES})")
                        continue
                    if isinstance(records, BaseException):
                        records = failure_records(
                            file, sha256, None, _stopped(file, records), bool(request.chunk_tokens)
                        )
                    output.append(records)
                    reason = tally.count(records)
                    if reason:
                        progress.write(f"failed: {file}: {reason}")
                    progress.advance()
        except KeyboardInterrupt:
            stopper.signal = stopper.signal or signal.SIGINT
        finally:
            progress.close()
            output.close()
    print(tally.summary(out, bool(stopper.signal)), file=sys.stderr)
    if stopper.signal:
        return SIGNAL_EXIT + stopper.signal
    return 1 if tally.failed else 0
