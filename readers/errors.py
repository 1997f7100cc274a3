"""Errors raised by the readers.

Every failure a person can cause or fix is a ``ReaderError`` with a stable ``code`` and a
``message`` written for that person::

    ReaderError
      code = FILE_NOT_FOUND | EMPTY_FILE | FILE_TOO_LARGE | UNSUPPORTED_FORMAT
           | CORRUPT_FILE | ENCRYPTED_FILE | PAGE_OUT_OF_RANGE | PATH_OUTSIDE_WORKSPACE
           | INVALID_QUERY | RENDER_FAILED | VISION_FAILED | TRANSCRIPTION_FAILED
           | URL_REFUSED | FETCH_FAILED     (a file named by its URL: readers.intake.fetch)

Only ``ui/`` turns these into Gradio messages; readers never import gradio.

Each reader turns what its libraries raise on a damaged file into a ``ReaderError`` where it calls
them. Should another exception still escape (a bug, or damage nobody has met yet), the guard
``last_resort`` logs it with its traceback (logger ``readers.core``) and raises ``CORRUPT_FILE``
in its place (``RENDER_FAILED`` for a time-out or a stopped worker, which is no sign of damage),
with a sentence that names neither the exception nor its text (which may hold a key). So
``read_file`` raises nothing but ``ReaderError``, as its contract says.
"""

import logging
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager

log = logging.getLogger("readers.core")

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
