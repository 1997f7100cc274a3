"""Errors raised by the readers.

Every failure a person can cause or fix is a ``ReaderError`` with a stable ``code`` and a
``message`` written for that person::

    ReaderError
      code = FILE_NOT_FOUND | EMPTY_FILE | FILE_TOO_LARGE | UNSUPPORTED_FORMAT
           | CORRUPT_FILE | ENCRYPTED_FILE | PAGE_OUT_OF_RANGE | PATH_OUTSIDE_WORKSPACE
           | INVALID_QUERY | RENDER_FAILED | VISION_FAILED | TRANSCRIPTION_FAILED

Only ``ui/`` turns these into Gradio messages; readers never import gradio.
"""

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
)


class ReaderError(Exception):
    """A file could not be read; ``code`` is one of ``CODES``, ``message`` is for a person."""

    def __init__(self, code: str, message: str):
        if code not in CODES:
            raise ValueError(f"unknown ReaderError code {code!r}")
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
