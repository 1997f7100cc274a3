"""The named API endpoints (``/read_file``, ``/render_page``, ``/describe``, ``/transcribe``).

Each takes an uploaded file (Gradio has already refused any path that was not uploaded) and
returns plain values; a ``ReaderError`` reaches the client as a ``gr.Error`` carrying its message.
"""

from __future__ import annotations

import dataclasses
import functools
from pathlib import Path

import gradio as gr

from readers import ReaderError, Reading, Services, read_file
from readers.tokens import EXACT, PROVIDERS

from .handlers import display_name, parse_page, unexpected, visual_kind
from .report import page_image


def _gradio_errors(endpoint):
    @functools.wraps(endpoint)
    def wrapper(self, file, *args):
        if not file:
            raise gr.Error("No file was sent. Upload one with gradio_client's handle_file().")
        try:
            return endpoint(self, file, *args)
        except ReaderError as error:
            raise gr.Error(error.message) from None
        except gr.Error:
            raise
        except Exception as error:  # noqa: BLE001 - a client gets a sentence, never a traceback
            raise gr.Error(unexpected(display_name(file), error)) from None

    return wrapper


def reading_json(reading: Reading) -> dict:
    """``/read_file``'s answer; ``messages`` (OpenAI parts with PNG data URLs) only in multimodal mode;
    ``tokens`` of the payload in the reading's mode per provider, ``exact`` false for an estimate."""
    answer = {
        "name": reading.name,
        "kind": reading.kind,
        "page_count": reading.page_count,
        "pages": [{"number": p.number, "text": p.text, "tables": p.tables, "description": p.description,
                   "description_source": p.description_source, "error": p.error, "section": p.section,
                   "figures": [dataclasses.asdict(figure) for figure in p.figures]} for p in reading.pages],
        "warnings": reading.warnings,
        "usage": dataclasses.asdict(reading.usage),
        "text": reading.as_text(),
        "tokens": {provider: {"count": reading.tokens(provider), "exact": EXACT[provider]} for provider in PROVIDERS},
    }
    if reading.multimodal:
        answer["messages"] = reading.as_messages("openai")
    return answer


def transcript_json(reading: Reading) -> dict:
    t = reading.transcript
    return {"name": reading.name, "text": t.text, "language": t.language, "duration": t.duration, "source": t.source,
            "segments": [{"start": s.start, "end": s.end, "text": s.text} for s in t.segments]}


class Endpoints:
    """The API's functions over one app's ``Services``; page images are written under ``folder``."""

    def __init__(self, services: Services, folder: Path):
        self.services, self.folder = services, folder

    def _read(self, file: str, **options) -> Reading:
        return read_file(file, services=self.services, name=display_name(file), **options)

    @_gradio_errors
    def read_file(self, file: str, page_start: float | None, page_end: float | None, describe: str, multimodal: bool) -> dict:
        """Read an uploaded file: pages with text, tables and descriptions, and the text a model receives."""
        return reading_json(self._read(file, page_start=parse_page(page_start), page_end=parse_page(page_end),
                                       describe=describe or None, multimodal=bool(multimodal)))

    @_gradio_errors
    def render_page(self, file: str, page: float) -> str:
        """The rendered PNG of one page or slide (1-based) of an uploaded document or image."""
        number = parse_page(page) or 1
        self._require_pages(file, "has no page image to render")
        reading = self._read(file, page_start=number, page_end=number, multimodal=True)
        if not reading.pages[0].image:
            raise gr.Error(f"Page {number} of {reading.name} has no image: {' '.join(reading.warnings) or 'it could not be rendered.'}")
        return page_image(reading, reading.pages[0], self.folder)

    def _require_pages(self, file: str, refusal: str) -> None:
        """Refuse audio and text before reading them (reading audio would transcribe it first)."""
        if visual_kind(file) is None:
            raise gr.Error(f"{display_name(file)} is not a document or an image, so it {refusal}.")

    @_gradio_errors
    def describe(self, file: str, page: float, question: str) -> str:
        """The vision model's answer to ``question`` about one page (empty question: a general description)."""
        number = parse_page(page) or 1
        self._require_pages(file, "has no visual content to describe")
        reading = self._read(file, page_start=number, page_end=number, describe=question or None, multimodal=False)
        found = reading.pages[0]
        if found.error:
            raise gr.Error(found.error)
        if found.description:
            return found.description
        if found.image is None:
            reason = f"page {number} has no image to describe: {' '.join(reading.warnings) or 'it could not be rendered.'}"
        elif self.services.vision is None:
            reason = "no vision model is configured (VISION_PROVIDER is none)."
        else:
            reason = ("local OCR reads only pages without a text layer, and this page has one (its text is in /read_file). "
                      "Set VISION_BASE_URL and VISION_MODEL to describe it with a vision model.")
        raise gr.Error(f"No description of {reading.name}, page {number}: {reason}")

    @_gradio_errors
    def transcribe(self, file: str) -> dict:
        """The transcript of an uploaded audio file: text, language, duration and timed segments."""
        reading = self._read(file)
        if reading.transcript is None:
            raise gr.Error(f"{reading.name} is {reading.kind}, not audio; /transcribe reads audio files.")
        return transcript_json(reading)
