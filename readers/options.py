"""``ReadOptions``: what to read from a file and how — the one set of options that ``read_file``,
the command line, ``batch``, the app's page and its API all build and pass on.

==============  ==========================================================================
``page_start``  first page (slide, sheet) to read, 1-based; None: the first
``page_end``    last page to read, inclusive; None: the last (at most ``MAX_PAGES`` are read)
``describe``    a question about each page's visual content; None describes the figures
``multimodal``  what a vision-capable model receives (text and page images); None takes
                ``MODEL_MULTIMODAL``
``images``      make page images even in text-only mode; None makes them when the answer
                needs them (multimodal, a question, a vision model that looks at whole pages)
``hotwords``    audio: names and terms the transcription should expect; None takes
                ``WHISPER_HOTWORDS``, "" uses none
``name``        the name to show (an upload's own name); None: the file's
``visitor``     who asked, for public mode's limit on each visitor's vision calls
``workspace``   refuse a path that resolves outside this folder
==============  ==========================================================================

``checked`` validates them (a ``ReaderError`` that says what is wrong) and fills in what None
leaves to the settings; a reader's ``Job`` carries the checked options.
"""

from __future__ import annotations

import operator
import os
from dataclasses import dataclass, replace

from .errors import ReaderError
from .settings import MAX_HOTWORDS_CHARS, Settings

MAX_QUESTION_CHARS = 2000


@dataclass(frozen=True)
class ReadOptions:
    page_start: int | None = None
    page_end: int | None = None
    describe: str | None = None
    multimodal: bool | None = None
    images: bool | None = None
    hotwords: str | None = None
    name: str | None = None
    visitor: str | None = None
    workspace: str | os.PathLike | None = None

    def checked(self, settings: Settings) -> ReadOptions:
        """These options validated, with what None leaves to ``settings`` decided (``images`` is
        decided by ``read_file``, which knows the vision model)."""
        return replace(
            self,
            page_start=_page(self.page_start),
            page_end=_page(self.page_end),
            describe=check_question(self.describe),
            multimodal=settings.multimodal if self.multimodal is None else bool(self.multimodal),
            hotwords=check_hotwords(settings.whisper_hotwords if self.hotwords is None else self.hotwords),
        )


def _page(value) -> int | None:
    if value is None:
        return None
    try:
        return operator.index(value)
    except TypeError:
        raise ReaderError("PAGE_OUT_OF_RANGE", f"{value!r} is not a page number: give a whole number from 1.") from None


def check_question(describe) -> str | None:
    """The question, stripped; None for none; ``INVALID_QUERY`` when it is not text or too long."""
    if describe is not None and not isinstance(describe, str):
        raise ReaderError("INVALID_QUERY", "The question must be text.")
    if describe is None or not describe.strip():
        return None
    if len(describe) > MAX_QUESTION_CHARS:
        raise ReaderError(
            "INVALID_QUERY",
            f"The question is {len(describe):,} characters long; ask in at most {MAX_QUESTION_CHARS:,}.",
        )
    return describe.strip()


def check_hotwords(hotwords) -> str | None:
    """Names and jargon to steer the transcription towards, on one line; None for none."""
    if hotwords is not None and not isinstance(hotwords, str):
        raise ReaderError("INVALID_QUERY", "The hotwords must be text: names and terms separated by spaces or commas.")
    hotwords = " ".join((hotwords or "").split())
    if len(hotwords) > MAX_HOTWORDS_CHARS:
        raise ReaderError(
            "INVALID_QUERY",
            f"The hotwords are {len(hotwords):,} characters long; give at most {MAX_HOTWORDS_CHARS}: "
            "the names and terms the recording uses, not a text.",
        )
    return hotwords or None
