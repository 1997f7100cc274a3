"""The named API endpoints (``/read_file``, ``/render_page``, ``/describe``, ``/transcribe``),
served to ``gradio_client`` and, by the same functions, as MCP tools of the same names.

Each takes the file one of two ways: ``file``, an upload (``gradio_client``'s ``handle_file``;
over MCP a public http(s) URL that Gradio downloads — it refuses local and private addresses),
or ``file_base64`` with ``file_name``, the bytes inline, which is how an agent holding a local
file sends it over MCP. Inline bytes are held to ``MAX_FILE_MB`` like an upload, written to a
private temporary folder under a neutral name, and removed once read. Gradio builds each MCP
tool's description and its parameters' from the method's docstring: the text before ``Args:``,
then one line per parameter. A ``ReaderError`` reaches the client as a ``gr.Error`` carrying its
message.
"""

from __future__ import annotations

import base64
import dataclasses
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

import gradio as gr

from readers import ReaderError, Reading, Services, read_file
from readers.describe.vision import TEXT_ONLY
from readers.intake.names import label, safe_suffix
from readers.payload.tokens import EXACT, PROVIDERS
from readers.settings import MAX_HOTWORDS_CHARS

from .handlers import display_name, parse_page, unexpected, visitor, visual_kind
from .report import page_image

NO_FILE = ("No file was sent. Give file (with gradio_client, handle_file(path); over MCP, a public http(s) URL), "
           "or the file's bytes as file_base64 with its name in file_name.")
MCP_CALLER = "mcp"  # the x-gradio-user header Gradio's MCP server sends with each tool call
FILE_ARGS = {  # every endpoint's file parameters, as its docstring (and so the MCP tool) describes them
    "file": "The file as a public http(s) URL (or, through gradio_client, an uploaded file). Leave empty when sending file_base64.",
    "file_base64": ("The file's bytes in base64 (a data: URL prefix and line breaks are allowed), for a file on your own machine; "
                    "at most the server's MAX_FILE_MB (25 MB by default) once decoded. Use instead of file."),
    "file_name": "The file's name with its extension when sending file_base64, e.g. report.pdf: it names the file in the answer and hints at its type.",
}
HOTWORDS_ARG = ("For audio: names and terms the recording uses, spelled as they should be written, e.g. \"Kubernetes, Zelensky, Anthropic\" "
                f"(at most {MAX_HOTWORDS_CHARS} characters); they steer the transcription's spelling. Empty uses the server's WHISPER_HOTWORDS.")


def _file_args(endpoint):
    """Write the file parameters' descriptions into ``endpoint``'s docstring, where Gradio reads them."""
    endpoint.__doc__ = endpoint.__doc__.format(**FILE_ARGS, hotwords=HOTWORDS_ARG)
    return endpoint


def inline_bytes(data: str, name: str, max_bytes: int) -> bytes:
    """The bytes of a ``file_base64`` value (a ``data:`` URL prefix and line breaks allowed),
    refused with a sentence when it is not base64 or decodes to more than ``max_bytes``."""
    data = data.strip()
    if data.startswith("data:"):
        data = data.partition(",")[2]
    data = "".join(data.split())
    size = len(data) * 3 // 4 - data[-2:].count("=")
    if size > max_bytes:
        raise gr.Error(f"{name} is {size / 1048576:.1f} MB; the limit is {max_bytes / 1048576:g} MB (MAX_FILE_MB).")
    try:
        return base64.b64decode(data, validate=True)
    except ValueError as error:  # binascii.Error, or characters outside ASCII
        raise gr.Error(f"file_base64 for {name} is not valid base64 ({error}). Send the file's bytes encoded with standard base64.") from None


def reading_json(reading: Reading, document: bool = False, line_numbers: bool = False) -> dict:
    """``/read_file``'s answer; ``messages`` (OpenAI parts with PNG data URLs) only in multimodal mode,
    ``document_messages`` (OpenAI parts with the PDF of the pages read) only when ``document`` is asked;
    ``line_numbers`` numbers the lines of a text file's pages in ``text``; ``tokens`` of the payload
    in the reading's mode per provider, ``exact`` false for an estimate."""
    answer = {
        "name": reading.name,
        "kind": reading.kind,
        "page_count": reading.page_count,
        "pages": [{"number": p.number, "text": p.text, "tables": p.tables, "description": p.description,
                   "description_source": p.description_source, "error": p.error, "section": p.section, "line": p.line,
                   "figures": [dataclasses.asdict(figure) for figure in p.figures]} for p in reading.pages],
        "warnings": reading.warnings,
        "usage": dataclasses.asdict(reading.usage),
        "text": reading.as_text(line_numbers=line_numbers),
        "tokens": {provider: {"count": reading.tokens(provider), "exact": EXACT[provider]} for provider in PROVIDERS},
    }
    if reading.multimodal:
        answer["messages"] = reading.as_messages("openai")
    if document:
        answer["document_messages"] = reading.as_messages("openai", document=True)
    return answer


def transcript_json(reading: Reading) -> dict:
    t = reading.transcript
    return {"name": reading.name, "text": t.text, "language": t.language, "duration": t.duration, "source": t.source,
            "segments": [{"start": s.start, "end": s.end, "text": s.text} for s in t.segments]}


class Endpoints:
    """The API's functions over one app's ``Services``; page images are written under ``folder``;
    ``discard`` (public mode) deletes a file sent once it is read."""

    def __init__(self, services: Services, folder: Path, discard: Callable[[str], None] | None = None):
        self.services, self.folder, self.discard = services, folder, discard

    @contextmanager
    def _file(self, file: str | None, file_base64: str | None, file_name: str | None) -> Iterator[tuple[str, str]]:
        """The file sent, as (path, name to show): the upload, or the inline bytes in a private
        temporary file that is removed afterwards — and in public mode the upload too. Every error
        leaves as a ``gr.Error`` with a sentence."""
        if not file and not file_base64:
            raise gr.Error(NO_FILE)
        if file and file_base64:
            raise gr.Error("Send the file once: either file or file_base64, not both.")
        name = display_name(file) if file else label(Path(file_name or "file").name)
        folder = Path(tempfile.mkdtemp(prefix="readlens-inline-")) if file_base64 else None
        try:
            if folder is None:
                path = file
            else:
                path = str(folder / f"inline{safe_suffix(name)}")
                Path(path).write_bytes(inline_bytes(file_base64, name, self.services.settings.max_file_bytes))
            yield path, name
        except ReaderError as error:
            raise gr.Error(error.message) from None
        except gr.Error:
            raise
        except Exception as error:  # noqa: BLE001 - a client gets a sentence, never a traceback
            raise gr.Error(unexpected(name, error)) from None
        finally:
            if folder is not None:
                shutil.rmtree(folder, ignore_errors=True)
            elif self.discard is not None:
                self.discard(file)

    def _read(self, path: str, name: str, request: gr.Request | None, **options) -> Reading:
        return read_file(path, services=self.services, name=name, visitor=visitor(request), **options)

    def _require_pages(self, path: str, name: str, refusal: str) -> None:
        """Refuse audio and text before reading them (reading audio would transcribe it first)."""
        if visual_kind(path, name) is None:
            raise gr.Error(f"{name} is not a document or an image, so it {refusal}.")

    @_file_args
    def read_file(self, file: str | None = None, page_start: float | None = None, page_end: float | None = None, describe: str = "",
                  multimodal: bool = False, document: bool = False, line_numbers: bool = False, file_base64: str = "", file_name: str = "",
                  hotwords: str = "", request: gr.Request = None) -> dict:
        """Read a file the way a language model receives it: a PDF, Word, PowerPoint, spreadsheet, web page, e-book, e-mail, ZIP archive, image, audio or text file, page by page, with each page's text and tables as Markdown and, for text-only models, a description of its figures by a vision model or OCR.

        Args:
            file: {file}
            page_start: First page (slide, sheet) to read, from 1; empty or 0 starts at the first.
            page_end: Last page to read, inclusive; empty or 0 reads to the last. At most the server's MAX_PAGES (50 by default) are read at once; a warning says so.
            describe: A question about the visual content of each page, e.g. "What are the exact percentages in the pie chart?"; empty describes only the pages with figures.
            multimodal: true for what a vision-capable model receives (each page's text plus its image); false (the default) for what a text-only model receives (text plus visual descriptions).
            document: true to add document_messages: the pages read as one PDF, the way Claude and OpenAI take a PDF as itself (for PDFs, and Office files and web pages through the PDF they are rendered to); the PDF carries no descriptions.
            line_numbers: true to number each line of a text file (code, logs) in text as in the file, so a model can cite it by line.
            file_base64: {file_base64}
            file_name: {file_name}
            hotwords: {hotwords}
        Returns:
            name, kind, page_count; pages (number, text, tables, description, description_source, error, section, line, figures); warnings; usage (vision calls made, saved, cached); text (exactly what a text-only model receives); document_messages when asked; tokens of that payload (openai exact, anthropic an estimate); and, in multimodal mode through gradio_client, messages (OpenAI content parts with base64 PNGs). Over MCP the images are left out: get a page's image with render_page.
        """
        with self._file(file, file_base64, file_name) as (path, name):
            answer = reading_json(self._read(path, name, request, page_start=parse_page(page_start), page_end=parse_page(page_end),
                                             describe=describe or None, multimodal=bool(multimodal), hotwords=hotwords or None),
                                  bool(document), bool(line_numbers))
            if request is not None and request.headers.get("x-gradio-user") == MCP_CALLER:
                answer.pop("messages", None)  # megabytes of base64 read as text by the agent's model
            return answer

    @_file_args
    def render_page(self, file: str | None = None, page: float = 1, file_base64: str = "", file_name: str = "",
                    request: gr.Request = None) -> str:
        """The rendered image (PNG) of one page, slide or sheet of a document, or of an image file: what a vision-capable model sees of that page.

        Args:
            file: {file}
            page: The page (slide, sheet) to render, from 1.
            file_base64: {file_base64}
            file_name: {file_name}
        """
        with self._file(file, file_base64, file_name) as (path, name):
            number = parse_page(page) or 1
            self._require_pages(path, name, "has no page image to render")
            reading = self._read(path, name, request, page_start=number, page_end=number, multimodal=True)
            if not reading.pages[0].image:
                raise gr.Error(f"Page {number} of {reading.name} has no image: {' '.join(reading.warnings) or 'it could not be rendered.'}")
            return page_image(reading, reading.pages[0], self.folder)

    @_file_args
    def describe(self, file: str | None = None, page: float = 1, question: str = "", file_base64: str = "", file_name: str = "",
                 request: gr.Request = None) -> str:
        """A vision model's description of one page's visual content (charts, diagrams, pictures, scans), or its answer to a question about them.

        Args:
            file: {file}
            page: The page (slide, sheet) to describe, from 1.
            question: What to find out about the page's visuals, e.g. "What are the exact percentages in the pie chart?"; empty describes the page's figures (a page without figures needs a question).
            file_base64: {file_base64}
            file_name: {file_name}
        """
        with self._file(file, file_base64, file_name) as (path, name):
            number = parse_page(page) or 1
            self._require_pages(path, name, "has no visual content to describe")
            reading = self._read(path, name, request, page_start=number, page_end=number, describe=question or None, multimodal=False)
            found = reading.pages[0]
            if found.error:
                raise gr.Error(found.error)
            if found.description:
                return found.description
            if found.image is None:
                reason = f"page {number} has no image to describe: {' '.join(reading.warnings) or 'it could not be rendered.'}"
            elif self.services.vision is None:
                reason = "no vision model is configured (VISION_PROVIDER is none)."
            elif found.description_source == TEXT_ONLY:
                reason = ("it has no figures (pictures, drawings or a scan), so there is nothing to describe beyond its text, which /read_file gives. "
                          "Ask a question to have the page looked at anyway.")
            else:
                reason = ("local OCR reads the text in a page's figures and found none here (the page's text is in /read_file). "
                          "Set VISION_BASE_URL and VISION_MODEL to describe it with a vision model.")
            raise gr.Error(f"No description of {reading.name}, page {number}: {reason}")

    @_file_args
    def transcribe(self, file: str | None = None, file_base64: str = "", file_name: str = "", hotwords: str = "",
                   request: gr.Request = None) -> dict:
        """The transcript of an audio file (WAV, MP3, FLAC, OGG, M4A and more): its text, language, duration and timed segments.

        Args:
            file: {file}
            file_base64: {file_base64}
            file_name: {file_name}
            hotwords: {hotwords}
        Returns:
            name, text, language, duration (seconds), source (which model), segments (start, end, text).
        """
        with self._file(file, file_base64, file_name) as (path, name):
            reading = self._read(path, name, request, hotwords=hotwords or None)
            if reading.transcript is None:
                raise gr.Error(f"{reading.name} is {reading.kind}, not audio; /transcribe reads audio files.")
            return transcript_json(reading)
