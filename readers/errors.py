"""Errors raised by the readers.

Every failure a person can cause or fix is a ``ReaderError`` with a stable ``code`` and a
``message`` written for that person::

    ReaderError
      code = FILE_NOT_FOUND | EMPTY_FILE | FILE_TOO_LARGE | UNSUPPORTED_FORMAT
           | CORRUPT_FILE | ENCRYPTED_FILE | PAGE_OUT_OF_RANGE | PATH_OUTSIDE_WORKSPACE
           | INVALID_QUERY | RENDER_FAILED | VISION_FAILED | TRANSCRIPTION_FAILED | TOO_COMPLEX
           | URL_REFUSED | FETCH_FAILED     (a file named by its URL: readers.intake.fetch)

Only ``ui/`` turns these into Gradio messages; readers never import gradio.

Each reader turns what its libraries raise on a damaged file into a ``ReaderError`` where it calls
them. Should another exception still escape (a bug, or damage nobody has met yet), the guard
``last_resort`` logs it with its traceback (logger ``readers.core``) and raises ``CORRUPT_FILE``
in its place (``RENDER_FAILED`` for a time-out or a stopped worker, which is no sign of damage;
``TOO_COMPLEX`` for memory that ran out),
with a sentence that names neither the exception nor its text (which may hold a key). So
``read_file`` raises nothing but ``ReaderError``, as its contract says.

A reading has a time budget (``READ_TIMEOUT``), wall-clock seconds over every process that works
for it: ``time_budget`` starts a ``Budget`` for the reading of one file (a file inside it shares
it), and ``on_time`` raises ``TOO_COMPLEX`` once it is spent; the loops that walk what a file holds
(a page's elements, a document's blocks, a sheet's rows, a deck's shapes) call it as they go, and
the engines that work for the file (the PDF workers, LibreOffice, Chromium) are stopped when it is
spent, so they are free for the next file at once. Time spent waiting for an engine busy with
another file is not the file's (``Budget.paused``).
"""

import logging
import re
import threading
import time
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from contextvars import ContextVar

log = logging.getLogger("readers.core")
OBJECT_NAME = re.compile(r"<[\w.]+ object at 0x[0-9a-fA-F]+>")  # how Python names an object: Pillow names bytes so

CODES = (
    "FILE_NOT_FOUND",
    "EMPTY_FILE",
    "FILE_TOO_LARGE",
    "UNSUPPORTED_FORMAT",
    "CORRUPT_FILE",
    "ENCRYPTED_FILE",
    "PAGE_OUT_OF_RANGE",
    "PATH_OUTSIDE_WORKSPACE",
    "INVALID_QUERY",
    "RENDER_FAILED",
    "VISION_FAILED",
    "TRANSCRIPTION_FAILED",
    "TOO_COMPLEX",  # within the file's limits, but more than a reading may take in time (READ_TIMEOUT) or memory
    "URL_REFUSED",
    "FETCH_FAILED",
)


class ReaderError(Exception):
    """A file could not be read; ``code`` is one of ``CODES``, ``message`` is for a person."""

    def __init__(self, code: str, message: str):
        if code not in CODES:
            raise ValueError(f"unknown ReaderError code {code!r}")
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


def described(error: BaseException) -> str:
    """A library's error as a sentence may quote it: its type and text, an object it names in its
    text (Pillow's ``<_io.BytesIO object at 0x7f…>`` for the bytes it was given) called "the data"."""
    return f"{type(error).__name__}: {OBJECT_NAME.sub('the data', str(error))}".rstrip(": ")


def too_large(name: str, size: int, max_bytes: int) -> ReaderError:
    """``FILE_TOO_LARGE`` for a file of ``size`` bytes over the ``MAX_FILE_MB`` of ``max_bytes``: the one
    sentence the readers, the API and the app say it in."""
    return ReaderError(
        "FILE_TOO_LARGE", f"{name} is {size / 1048576:.1f} MB; the limit is {max_bytes / 1048576:g} MB (MAX_FILE_MB)."
    )


@contextmanager
def last_resort(name: str):
    """Let a ``ReaderError`` through; log any other exception and raise ``CORRUPT_FILE`` in its place,
    or ``RENDER_FAILED`` for a time-out or a worker that stopped: on a busy machine good files meet
    those, so that sentence says to try again rather than that the file is damaged."""
    try:
        yield
    except ReaderError:
        raise
    except Exception as error:  # noqa: BLE001 - the last-resort guard: see the module docstring
        log.exception("Reading %s failed with an unexpected %s", name, type(error).__name__)
        if isinstance(error, MemoryError):
            raise ReaderError(
                "TOO_COMPLEX",
                f"{name} could not be read: it needs more memory than a reading may take. It may have been built "
                "to stall readers; if not, split it into smaller files.",
            ) from error
        if isinstance(error, (TimeoutError, BrokenProcessPool)):
            raise ReaderError(
                "RENDER_FAILED",
                f"{name} could not be read: a step ran out of time or a process reading it stopped. "
                "The machine may be busy; try again.",
            ) from error
        raise ReaderError(
            "CORRUPT_FILE",
            f"{name} could not be read: ReadLens met something in it that it does not handle. The file may be "
            "damaged; save or export it again. If it keeps failing, report it with the file.",
        ) from error


class Budget:
    """The wall-clock time the reading of the file shown as ``name`` may take: ``seconds`` from its
    start, less the spans it was paused (waiting for an engine another file holds). Shared by the
    threads that work for the reading; ``ended`` once the reading is over, so whatever still works
    for it can be stopped."""

    def __init__(self, seconds: float, name: str):
        self.seconds, self.name, self.ended = seconds, name, False
        self._deadline, self._pauses, self._since = time.monotonic() + seconds, 0, 0.0
        self._lock = threading.Lock()

    def left(self) -> float:
        """Seconds left; none pass while it is paused."""
        with self._lock:
            return self._deadline - (self._since if self._pauses else time.monotonic())

    def spent(self) -> bool:
        return self.ended or self.left() <= 0

    def pause(self) -> None:
        with self._lock:
            self._pauses += 1
            if self._pauses == 1:
                self._since = time.monotonic()

    def resume(self) -> None:
        with self._lock:
            self._pauses -= 1
            if self._pauses == 0:
                self._deadline += time.monotonic() - self._since

    @contextmanager
    def paused(self):
        self.pause()
        try:
            yield
        finally:
            self.resume()

    def refusal(self) -> ReaderError:
        return ReaderError(
            "TOO_COMPLEX",
            f"{self.name} takes longer to read than a reading may (READ_TIMEOUT, {self.seconds:g} s): it holds "
            "more than ReadLens reads in that time, and may have been built to stall readers. To read it anyway, "
            "raise READ_TIMEOUT.",
        )


_budget: ContextVar[Budget | None] = ContextVar("budget", default=None)


@contextmanager
def time_budget(seconds: float, name: str):
    """Hold the reading of the file shown as ``name`` to ``seconds`` of wall-clock time (see ``Budget``);
    within a reading that has one already (a member of an archive), the outer one holds."""
    budget = None if _budget.get() else Budget(seconds, name)
    token = _budget.set(budget) if budget else None
    try:
        yield
    finally:
        if budget is not None and token is not None:
            budget.ended = True
            _budget.reset(token)


def current_budget() -> Budget | None:
    """The budget of the reading under way in this thread, or None outside one."""
    return _budget.get()


@contextmanager
def not_counted():
    """A span that is not the reading's own work (waiting for an engine another file holds): the
    budget of the reading under way, if any, is paused through it."""
    budget = _budget.get()
    if budget is None:
        yield
        return
    with budget.paused():
        yield


def on_time() -> None:
    """Raise ``TOO_COMPLEX`` if the reading under way has spent its time budget (a no-op outside one)."""
    budget = _budget.get()
    if budget is not None and budget.spent():
        raise budget.refusal()
