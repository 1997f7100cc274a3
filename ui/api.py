"""The named API endpoints (``/read_file``, ``/render_page``, ``/describe``, ``/transcribe``),
served to ``gradio_client`` and, by the same functions, as MCP tools of the same names.

Each takes the file one of three ways: ``file``, an upload (``gradio_client``'s ``handle_file``;
over MCP an http(s) URL, fetched by ``readers.intake.fetch`` within its rules: ``ui.server.mend_downloads``),
``url``, fetched the same way, or ``file_base64`` with ``file_name``, the bytes inline, which is how an
agent holding a local file sends it over MCP. Inline bytes are held to ``MAX_FILE_MB`` like an upload, written to a
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
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import gradio as gr

from readers import ReaderError, Reading, ReadOptions, Services, read_file
from readers.errors import too_large
from readers.intake.detect import detect
from readers.intake.fetch import fetch, url_name
from readers.intake.names import label, safe_suffix
from readers.kinds import kind_of
from readers.notices import Code, Described
from readers.payload.budget import parse_cursor
from readers.payload.chunks import check_sizes
from readers.payload.messages import PROVIDERS
from readers.payload.serialize import answer_json, several_json

from .api_docs import ENDPOINT_ARGS, FILE_ARGS, HOTWORDS_ARG
from .handlers import display_name, parse_page, unexpected, visitor
from .report import page_image
from .tools import Budget, Read, file_arguments, find_json, for_agents, outline_json, token_budget

NO_FILE = (
    "No file was sent. Give url (an http(s) URL ReadLens fetches), file (with gradio_client, handle_file(path); "
    "over MCP, an http(s) URL), or the file's bytes as file_base64 with its name in file_name."
)
MCP_CALLER = "mcp"  # the x-gradio-user header Gradio's MCP server sends with each tool call


def documented(endpoint):
    """Write the parameters' descriptions (``ui.api_docs``) into ``endpoint``'s docstring, where Gradio reads them."""
    endpoint.__doc__ = endpoint.__doc__.format(**FILE_ARGS, hotwords=HOTWORDS_ARG, **ENDPOINT_ARGS)
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
        raise gr.Error(too_large(name, size, max_bytes).message)
    try:
        return base64.b64decode(data, validate=True)
    except ValueError as error:  # binascii.Error, or characters outside ASCII
        raise gr.Error(
            f"file_base64 for {name} is not valid base64 ({error}). Send the file's bytes encoded with standard base64."
        ) from None


def unrendered(reading: Reading) -> str:
    """Why a page has no image: the reading's warnings, which say what failed."""
    return " ".join(reading.warnings) or "it could not be rendered."


def chunk_sizes(chunk_tokens) -> int:
    """``chunk_tokens`` as a whole number, 0 when empty; a size chunks cannot have is refused
    (``ReaderError``) before anything is read."""
    if not chunk_tokens:
        return 0
    size = int(chunk_tokens) if float(chunk_tokens).is_integer() else chunk_tokens
    check_sizes(size, 0)
    return size


def transcript_json(reading: Reading) -> dict:
    """``/transcribe``'s answer: the file's name and its transcript in the library's JSON form (``as_json``'s)."""
    return {"name": reading.name, **dataclasses.asdict(reading.transcript)}


class Endpoints:
    """The API's functions over one app's ``Services``; page images are written under ``folder``;
    ``discard`` (public mode) deletes a file sent once it is read."""

    def __init__(self, services: Services, folder: Path, discard: Callable[[str], None] | None = None):
        self.services, self.folder, self.discard = services, folder, discard

    @contextmanager
    def _file(
        self, file: str | None, file_base64: str | None, file_name: str | None, url: str | None
    ) -> Iterator[tuple[str, str]]:
        """The file sent, as (path, name to show): the upload, the inline bytes in a private
        temporary file that is removed afterwards (and in public mode the upload too), or the file
        at ``url``, fetched into the cache once (``readers.intake.fetch``) and named by its URL.
        Every error leaves as a ``gr.Error`` with a sentence."""
        if not file and not file_base64 and not url:
            raise gr.Error(NO_FILE)
        if bool(file) + bool(file_base64) + bool(url) > 1:
            raise gr.Error("Send the file once: file, file_base64 or url, not two of them.")
        name = display_name(file) if file else url_name(url) if url else label(Path(file_name or "file").name)
        folder = Path(tempfile.mkdtemp(prefix="readlens-inline-")) if file_base64 else None
        try:
            if url:
                path = str(fetch(url, self.services.settings, self.services.store))
            elif folder is None:
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
            elif self.discard is not None and file:  # a file fetched by its URL stays in the cache
                self.discard(file)

    def _read(self, path: str, name: str, request: gr.Request | None, options: ReadOptions) -> Reading:
        """``path`` read with ``options`` under ``name``, for the visitor who sent ``request``."""
        options = dataclasses.replace(
            options, name=name, visitor=visitor(request, self.services.settings.forwarded_allow_ips)
        )
        return read_file(path, options=options, services=self.services)

    def _require_pages(self, path: str, name: str, refusal: str) -> None:
        """Refuse audio and text before reading them (reading audio would transcribe it first): the one
        endpoint where the type is looked at before ``read_file`` looks at it."""
        try:
            found = kind_of(detect(Path(path), name).kind)
        except ReaderError:  # read_file refuses it in its own words, its checks first (an empty file is empty)
            return
        if not (found.visual or found.container):
            raise gr.Error(f"{name} is not a document or an image, so it {refusal}.")

    @documented
    def read_file(
        self,
        file: str | None = None,
        page_start: float | None = None,
        page_end: float | None = None,
        describe: str = "",
        multimodal: bool = False,
        document: bool = False,
        line_numbers: bool = False,
        file_base64: str = "",
        file_name: str = "",
        hotwords: str = "",
        max_tokens: float | None = None,
        cursor: str = "",
        chunk_tokens: float = 0,
        provider: str = "openai",
        url: str = "",
        files: list[str] | None = None,
        request: gr.Request = None,
    ) -> dict:
        """Read a file the way a language model receives it: a PDF, Word, PowerPoint, spreadsheet, web
        page, e-book, e-mail, ZIP archive, image, audio or text file, page by page, with each page's
        text and tables as Markdown and, for text-only models, a description of its figures by a
        vision model or OCR.

        An answer holds at most max_tokens tokens (20,000 over MCP unless you set it) of whole
        pages. When pages are left, its budget says which and gives the exact call that goes on,
        e.g. read_file(file_base64=<the same file>, file_name="report.pdf", page_start=13,
        max_tokens=20000); a page longer than max_tokens comes in pieces cut between lines, and the
        call goes on with cursor="12:3457". Repeat that call until budget.next is null. For a long
        file, call outline first (each page's tokens and the headings) or find (the pages where
        words occur), then read just the pages you need.

        Args:
            file: {file}
            page_start: First page (slide, sheet) to read, from 1; empty or 0 starts at the first.
            page_end: {read_file[page_end]}
            describe: {read_file[describe]}
            multimodal: {read_file[multimodal]}
            document: {read_file[document]}
            line_numbers: {read_file[line_numbers]}
            file_base64: {file_base64}
            file_name: {file_name}
            hotwords: {hotwords}
            max_tokens: {read_file[max_tokens]}
            cursor: {read_file[cursor]}
            chunk_tokens: {read_file[chunk_tokens]}
            provider: {read_file[provider]}
            url: {url}
            files: {read_file[files]}
        Returns:
            {read_file[returns]}
        """
        if provider not in PROVIDERS:
            raise gr.Error(f"provider must be one of {', '.join(PROVIDERS)}, not {provider!r}.")
        asked = {
            "page_start": page_start,
            "page_end": page_end,
            "describe": describe,
            "multimodal": bool(multimodal),
            "document": bool(document),
            "line_numbers": bool(line_numbers),
            "hotwords": hotwords,
            "max_tokens": max_tokens,
            "cursor": cursor,
            "chunk_tokens": chunk_tokens,
            "provider": provider,
        }
        if files:
            return self._several(files, bool(file or file_base64 or url), request, asked)
        with self._file(file, file_base64, file_name, url) as (path, name):
            sent = "url" if url else "inline" if file_base64 else "file"
            return self._answer(path, name, sent, request, asked)[0]

    def _answer(self, path: str, name: str, sent: str, request: gr.Request | None, asked: dict) -> tuple:
        """``/read_file``'s answer for one file (``sent`` as a file, inline or by its URL), and the
        reading it holds (as far as ``max_tokens`` goes)."""
        mcp = request is not None and request.headers.get("x-gradio-user") == MCP_CALLER
        cursor, last = asked["cursor"], parse_page(asked["page_end"])
        start = parse_cursor(cursor) if cursor else None
        budget = Budget(token_budget(asked["max_tokens"], mcp), start, asked["line_numbers"])
        chunk_size = chunk_sizes(asked["chunk_tokens"])
        options = ReadOptions(
            page_start=start.page if start else parse_page(asked["page_start"]),
            page_end=last,
            describe=asked["describe"] or None,
            multimodal=asked["multimodal"],
            images=True if asked["document"] else None,
            hotwords=asked["hotwords"] or None,
        )
        reading = self._read(path, name, request, options)
        fitted = budget.fit(reading) if budget.active else None
        held = fitted.reading if fitted else reading
        answer = answer_json(held, asked["document"], asked["line_numbers"], chunk_size, asked["provider"])
        if fitted:
            arguments = {key: asked[key] for key in ("describe", "multimodal", "document", "line_numbers", "hotwords")}
            provider = asked["provider"] if asked["provider"] != "openai" else ""
            arguments = {"page_end": last, **arguments, "chunk_tokens": chunk_size, "provider": provider}
            answer["budget"] = budget.report(
                fitted, reading, last or reading.page_count, file_arguments(sent, name), arguments
            )
        return (for_agents(answer) if mcp else answer), held

    def _several(self, files: list[str], also_one: bool, request: gr.Request | None, asked: dict) -> dict:
        """``/read_file`` of several files: each file's answer in ``files`` (or why it was not read),
        then their payload together, each file named (``readers.payload.serialize.several_json``)."""
        if also_one:
            raise gr.Error("Send one file (file, file_base64 or url) or several (files), not both.")
        if asked["cursor"]:
            raise gr.Error("A cursor goes on inside one file: send that file alone, as file or file_base64.")
        answers, readings = [], []
        for upload in files:
            name = display_name(upload)
            try:
                answer, reading = self._answer(upload, name, "file", request, asked)
                readings.append(reading)
            except ReaderError as error:
                answer = {"name": name, "error": {"code": error.code, "message": error.message}}
            except Exception as error:  # noqa: BLE001 - one file's bug must not take the others' answers
                answer = {"name": name, "error": {"code": None, "message": unexpected(name, error)}}
            finally:
                if self.discard is not None:
                    self.discard(upload)
            answers.append(answer)
        try:
            together = several_json(answers, readings, asked["multimodal"], asked["document"], asked["provider"])
        except ReaderError as error:
            raise gr.Error(error.message) from None
        if request is not None and request.headers.get("x-gradio-user") == MCP_CALLER:
            together.pop("messages", None)  # megabytes of base64 a model would read as text (tools.for_agents)
        return together

    @documented
    def render_page(
        self,
        file: str | None = None,
        page: float = 1,
        file_base64: str = "",
        file_name: str = "",
        url: str = "",
        request: gr.Request = None,
    ) -> str:
        """The rendered image (PNG) of one page, slide or sheet of a document, or of an image file:
        what a vision-capable model sees of that page.

        Args:
            file: {file}
            page: The page (slide, sheet) to render, from 1.
            file_base64: {file_base64}
            file_name: {file_name}
            url: {url}
        """
        with self._file(file, file_base64, file_name, url) as (path, name):
            number = parse_page(page) or 1
            self._require_pages(path, name, "has no page image to render")
            reading = self._read(path, name, request, ReadOptions(number, number, multimodal=True))
            if not reading.pages[0].image:
                raise gr.Error(f"Page {number} of {reading.name} has no image: {unrendered(reading)}")
            return page_image(reading, reading.pages[0], self.folder)

    @documented
    def describe(
        self,
        file: str | None = None,
        page: float = 1,
        question: str = "",
        file_base64: str = "",
        file_name: str = "",
        url: str = "",
        request: gr.Request = None,
    ) -> str:
        """A vision model's description of one page's visual content (charts, diagrams, pictures,
        scans), or its answer to a question about them.

        Args:
            file: {file}
            page: The page (slide, sheet) to describe, from 1.
            question: {describe[question]}
            file_base64: {file_base64}
            file_name: {file_name}
            url: {url}
        """
        with self._file(file, file_base64, file_name, url) as (path, name):
            number = parse_page(page) or 1
            self._require_pages(path, name, "has no visual content to describe")
            options = ReadOptions(number, number, question or None, multimodal=False, images=True)
            reading = self._read(path, name, request, options)
            found = reading.pages[0]
            if found.error:
                raise gr.Error(found.error)
            refused = [notice.text for notice in reading.notices if notice.code == Code.NOT_ANSWERED]
            if found.description:
                return "\n\n".join([found.description, *refused])
            if refused:
                raise gr.Error(f"No answer for {reading.name}, page {number}: {refused[0]}")
            if found.image is None:
                reason = f"page {number} has no image to describe: {unrendered(reading)}"
            elif self.services.vision is None:
                reason = "no vision model is configured (VISION_PROVIDER is none)."
            elif found.described == Described.TEXT_ONLY:
                reason = (
                    "it has no figures (pictures, drawings or a scan), so there "
                    "is nothing to describe beyond its text, which /read_file gives. "
                    "Ask a question to have the page looked at anyway."
                )
            else:
                reason = (
                    "local OCR reads the text in a page's figures and found "
                    "none here (the page's text is in /read_file). "
                    "Set VISION_BASE_URL and VISION_MODEL to describe it with a vision model."
                )
            raise gr.Error(f"No description of {reading.name}, page {number}: {reason}")

    @documented
    def transcribe(
        self,
        file: str | None = None,
        file_base64: str = "",
        file_name: str = "",
        hotwords: str = "",
        url: str = "",
        request: gr.Request = None,
    ) -> dict:
        """The transcript of an audio file (WAV, MP3, FLAC, OGG, M4A and more): its text, language,
        duration and timed segments.

        Args:
            file: {file}
            file_base64: {file_base64}
            file_name: {file_name}
            hotwords: {hotwords}
            url: {url}
        Returns:
            name, text, language, duration (seconds), source (which model), segments (start, end, text).
        """
        with self._file(file, file_base64, file_name, url) as (path, name):
            reading = self._read(path, name, request, ReadOptions(hotwords=hotwords or None))
            if reading.transcript is None:
                raise gr.Error(f"{reading.name} is {reading.kind}, not audio; /transcribe reads audio files.")
            return transcript_json(reading)

    def _reader(self, path: str, name: str, request: gr.Request | None) -> Read:
        return lambda start, end, **chosen: self._read(path, name, request, ReadOptions(start, end, **chosen))

    @documented
    def outline(
        self,
        file: str | None = None,
        page_start: float | None = None,
        page_end: float | None = None,
        file_base64: str = "",
        file_name: str = "",
        url: str = "",
        request: gr.Request = None,
    ) -> dict:
        """The outline of a file, without its text, to choose what to read: its kind and page count,
        each page's tokens for a text-only and for a multimodal model (OpenAI's count, what
        read_file returns for the page), its tables and figures, and the tree of its headings with
        their pages.

        Call it first on a long file, then read the pages you need within your budget, e.g.
        outline(file_base64=<the file>, file_name="report.pdf"), then read_file(file_base64=<the
        same file>, file_name="report.pdf", page_start=40, page_end=52, max_tokens=20000). The first
        call reads the whole file; later ones come from the cache in under a second.

        Args:
            file: {file}
            page_start: First page to outline, from 1; empty or 0 starts at the first.
            page_end: Last page to outline; empty or 0 goes to the last.
            file_base64: {file_base64}
            file_name: {file_name}
            url: {url}
        Returns:
            {outline[returns]}
        """
        with self._file(file, file_base64, file_name, url) as (path, name):
            return outline_json(
                self._reader(path, name, request),
                parse_page(page_start),
                parse_page(page_end),
                self.services.settings.max_pages,
            )

    @documented
    def find(
        self,
        file: str | None = None,
        query: str = "",
        regex: bool = False,
        page_start: float | None = None,
        page_end: float | None = None,
        context: float = 2,
        max_hits: float = 20,
        file_base64: str = "",
        file_name: str = "",
        url: str = "",
        request: gr.Request = None,
    ) -> dict:
        """Find words or a regular expression in a file's pages, as a text-only model receives them
        (text, tables, visual descriptions): each matching line with its page, line number and the
        lines round it, and the pages that match with their tokens.

        Then read just those pages, e.g. find(file_base64=<the file>, file_name="report.pdf",
        query="net revenue") answers page 17, line 9, and read_file(file_base64=<the same file>,
        file_name="report.pdf", page_start=17, page_end=17) reads it.

        Args:
            file: {file}
            query: {find[query]}
            regex: true when query is a regular expression; false (the default) for words.
            page_start: First page to search, from 1; empty or 0 starts at the first.
            page_end: Last page to search; empty or 0 searches to the last.
            context: How many lines to show before and after each matching line (0 to 10; 2 by default).
            max_hits: {find[max_hits]}
            file_base64: {file_base64}
            file_name: {file_name}
            url: {url}
        Returns:
            {find[returns]}
        """
        with self._file(file, file_base64, file_name, url) as (path, name):
            return find_json(
                self._reader(path, name, request),
                query,
                regex,
                parse_page(page_start),
                parse_page(page_end),
                context,
                max_hits,
                self.services.settings.max_pages,
            )
