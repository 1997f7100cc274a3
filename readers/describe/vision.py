"""Descriptions of each page's visual content for text-only models.

A page is described only when there is something to see beyond its text: a figure (a picture, a
drawing, a scan; see ``readers.pdf.figures``) or a question. Other pages keep no description and say
why (``described`` is ``Described.TEXT_ONLY``, ``description_source`` says "none: text only"), and
``reading.usage.calls_saved`` counts them. What describing says to the person is added to the
reading's notices.

Two describers: ``OpenAIVision`` (any OpenAI-compatible chat API) sends each such page with its
text and the places of its figures, several pages at once, caching each answer by page;
``LocalOCR`` (rapidocr, the default when nothing is configured) reads the text in each figure,
caching each figure's text by exactly the pixels it reads (the same picture in two files or on two
slides is read once) and by the file, page and place. Only what succeeded is cached; a failure stays on its page.
"""

from __future__ import annotations

import base64
import hashlib
import math
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any

from ..errors import ReaderError
from ..intake.links import LINKED
from ..kinds import kind_of
from ..markup.blocks import BlockKind
from ..markup.markdown import markdown_blocks
from ..notices import CACHED, Code, Described, Notice
from ..settings import Settings
from ..storage.descriptions import cache_key
from ..versions import PROMPT_VERSION
from .ocr import ENGINE_VERSION, read_page, read_text
from .prompts import build_prompt

ATTEMPTS = 3
DEFAULT_SERVICE = "https://api.openai.com/v1"  # where the openai SDK goes without a base URL
TEXT_ONLY = "none: text only"
LIMITED = (
    "Not described: each visitor may ask the vision model {calls} times a minute here (public mode). "
    "Try again in {seconds} s; the page's text is here already."
)
SCAN_TEXT = "scanned page's text"  # in the cache keys of a scanned page's text, laid out as a page's
SCAN_READ = "A scanned page with no text layer: its text above was read by local OCR."
OCR_CANNOT_ANSWER = (
    'Not answered: local OCR reads text but cannot answer questions such as "{question}", so the pages are '
    "described as without it. To ask about the visual content, configure a vision model: set VISION_BASE_URL "
    "(for example http://localhost:11434/v1 for Ollama) and VISION_MODEL, and VISION_API_KEY if the service needs one."
)


@dataclass
class Description:
    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0


class OpenAIVision:
    """Describes pages through the chat-completions API of any OpenAI-compatible server.

    The SDK retries 429, 5xx, timeouts and dropped connections with exponential backoff and
    jitter, honouring ``Retry-After``; 400/401/403 fail at once.
    """

    sees_pages = True  # it is sent whole page images, so a reading it describes needs them
    answers_questions = True

    def __init__(self, settings: Settings):
        import openai  # here, not at the top: a reading that describes nothing need not load the SDK (its 700 modules)

        self.model = settings.vision_model
        self.source = f"vision:{self.model}"
        # the service answering, as the SDK reaches it: two servers that share a model's name share no description
        self.service = settings.vision_base_url or DEFAULT_SERVICE
        self.concurrency = settings.vision_concurrency
        self._key = settings.vision_api_key
        self._timeout = settings.vision_timeout
        # Servers such as Ollama need no key, but the SDK insists on one.
        self._client = openai.OpenAI(
            api_key=self._key or "no-key",
            base_url=settings.vision_base_url,
            timeout=settings.vision_timeout,
            max_retries=ATTEMPTS - 1,
        )

    def describe(self, image: bytes, context: str | None, question: str | None, figures=()) -> Description:
        """Describe one PNG: a page whose extracted text is ``context`` and whose ``Figure``s are
        ``figures``, or an image (``context`` None)."""
        url = "data:image/png;base64," + base64.b64encode(image).decode("ascii")
        content: list[Any] = [
            {"type": "text", "text": build_prompt(context, question, figures)},
            {"type": "image_url", "image_url": {"url": url}},
        ]
        import openai

        try:
            response = self._client.chat.completions.create(
                model=self.model, messages=[{"role": "user", "content": content}]
            )
        except openai.OpenAIError as error:
            raise ReaderError("VISION_FAILED", self._explain(error)) from None
        text = (response.choices[0].message.content or "").strip() if response.choices else ""
        if not text:
            raise ReaderError(
                "VISION_FAILED",
                "The vision service returned an empty description (model "
                f"{self.model}). Try again, or choose another VISION_MODEL.",
            )
        usage = response.usage
        return Description(text, getattr(usage, "prompt_tokens", 0) or 0, getattr(usage, "completion_tokens", 0) or 0)

    def _explain(self, error: Exception) -> str:
        """A sentence a person can act on for an ``openai.OpenAIError``; never the key, even if a server echoes it."""
        import openai

        where = f"{self._client.base_url.scheme}://{self._client.base_url.netloc.decode()}"
        if isinstance(error, openai.APITimeoutError):
            message = (
                f"The vision service at {where} did not answer within {self._timeout:g} "
                f"s, {ATTEMPTS} times. Try again later, or raise VISION_TIMEOUT."
            )
        elif isinstance(error, openai.APIConnectionError):
            message = (
                f"Could not reach the vision service at {where} ({ATTEMPTS} attempts): "
                "check VISION_BASE_URL and that the server is running."
            )
        elif isinstance(error, openai.APIStatusError):
            status = error.status_code
            detail = error.body.get("message") if isinstance(error.body, dict) else None
            message = {
                401: "The vision service rejected the API key (401): check VISION_API_KEY.",
                403: (
                    "The vision service refused access (403): check that VISION_API_KEY "
                    f"may use the model {self.model}."
                ),
                404: (
                    f"The vision service has no model {self.model} at {where} "
                    "(404): check VISION_MODEL and VISION_BASE_URL."
                ),
                429: (
                    "The vision service is limiting requests (429), even after "
                    "waiting as it asked: try again in a minute, or lower VISION_CONCURRENCY."
                ),
            }.get(status) or (
                f"The vision service failed ({status}) {ATTEMPTS} times: try again later."
                if status >= 500
                else (
                    f"The vision service refused the request ({status}): {(detail or 'no reason given').rstrip('.')}. "
                    f"Check VISION_MODEL ({self.model}) is a vision model."
                )
            )
        else:
            message = (
                f"The vision service at {where} sent a reply that is not an OpenAI "
                "chat completion: check VISION_BASE_URL."
            )
        return message.replace(self._key, "[API key]") if self._key else message

    def key(self, reading, page) -> str:
        """The cache key of ``page``'s description: the file, the page, the question, the service and
        model that answer, the prompt's version, and what is sent (the page's image and its prompt)."""
        image_file = kind_of(reading.kind).picture  # an image file's text is its metadata, not context
        return cache_key(
            reading.sha256,
            page.number,
            reading.question,
            self.source,
            self.service,
            PROMPT_VERSION,
            _sha256(page.image or b""),
            None if image_file else _sha256(build_prompt(page.text, reading.question, page.figures).encode()),
        )

    def describe_pages(self, reading, job, pages: list) -> None:
        """Describe ``pages``: each from the cache, or by the API at most ``concurrency`` at a time."""
        cache, usage = job.services.cache, reading.usage
        image_file = kind_of(reading.kind).picture  # an image file's text is its metadata, not context
        keys = {page.number: self.key(reading, page) for page in pages}
        missing = []
        for page in pages:
            cached = cache.get(keys[page.number])
            if cached is None:
                missing.append(page)
            else:
                page.description, page.description_source = cached, f"{self.source}{CACHED}"
                page.described = Described.VISION
                usage.cache_hits += 1
        missing = self._within_limit(reading, job, missing)
        job.progress("described", len(pages) - len(missing), len(pages))
        with ThreadPoolExecutor(max_workers=self.concurrency, thread_name_prefix="describe") as pool:
            futures = {
                pool.submit(
                    self.describe,
                    page.image,
                    None if image_file else page.text,
                    reading.question,
                    () if image_file else page.figures,
                ): page
                for page in missing
            }
            for done, future in enumerate(as_completed(futures), len(pages) - len(missing) + 1):
                page = futures[future]
                usage.calls += 1
                try:
                    result = future.result()
                except ReaderError as error:
                    page.error, page.described = error.message, Described.FAILED
                else:
                    usage.prompt_tokens += result.prompt_tokens
                    usage.completion_tokens += result.completion_tokens
                    page.description, page.description_source = result.text, self.source
                    page.described = Described.VISION
                    cache.put(keys[page.number], result.text)
                job.progress("described", done, len(pages))

    @staticmethod
    def _within_limit(reading, job, pages: list) -> list:
        """The pages the visitor's limit on vision calls lets through (public mode); each of the
        others keeps its text and image and says when to try again."""
        limit = job.services.vision_limit
        if limit is None or job.options.visitor is None:
            return pages
        allowed, refused = [], []
        for page in pages:
            wait = limit.take(job.options.visitor)
            if wait:
                page.error = LIMITED.format(calls=limit.calls, seconds=math.ceil(wait))
                page.described = Described.LIMITED
                refused.append(page)
            else:
                allowed.append(page)
        if refused:
            numbers = ", ".join(str(page.number) for page in refused)
            reading.notices.append(
                Notice(Code.RATE_LIMITED, f"{reading.name}, {reading.label.lower()} {numbers}: {refused[-1].error}")
            )
        return allowed


class LocalOCR:
    """The text rapidocr finds in each figure — pictures, scans, drawings without text labels —
    listed figure by figure with its place and caption, labelled as OCR.

    A figure whose words the text layer already holds is not OCRed: OCR would only repeat the
    text, at seconds a page; nor is a picture the file only links (never loaded). A figure's text is
    cached by the bytes OCR reads (``_pixels_key``: a deck's or a sheet's picture as the file holds
    it, a PDF's figure as rendered), and a PDF's figure also by the file's content hash, page, box
    and engine version, so that a second read renders nothing. So a second read runs no OCR, and
    the same picture twice, in one file or two, is read once.
    """

    source = "ocr"
    answers_questions = False

    @staticmethod
    def _key(reading, printed: str | None, page, index: int) -> str:
        """The cache key of the text of figure ``index`` of ``page`` (see the class's docstring);
        ``printed`` names the print in the cache its figures are rendered from (its version in its
        name), None for the file itself."""
        found = reading._found.get(page.number)
        figure = found[index] if found else None
        if figure is not None and figure.image is not None:
            return _pixels_key(figure.image)
        box = list(page.figures[index].box)
        return cache_key(reading.sha256, printed, page.number, box, figure and figure.dpi, ENGINE_VERSION)

    def describe_pages(self, reading, job, pages: list) -> None:
        cache, usage = job.services.cache, reading.usage
        # the PDF the figures are rendered from: the file itself, or its print (LibreOffice's, Chromium's)
        pdf = reading.pdf.path if reading.pdf else None
        printed = pdf.name if pdf and job.services.store.holds(reading.sha256, pdf) else None
        scans = {page.number for page in pages if _scanned(reading, page)}  # read as their pages' text
        keys = {
            (page.number, index): cache_key(key, SCAN_TEXT) if page.number in scans else key
            for page in pages
            for index, figure in enumerate(page.figures)
            if not (figure.has_text or figure.linked)
            for key in [self._key(reading, printed, page, index)]
        }
        found: dict[tuple[int, int], str] = {}
        failed: dict[tuple[int, int], str] = {}
        wanted: dict[int, list[int]] = {}
        hits: set[tuple[int, int]] = set()  # the figures whose text came from the cache or a copy in the file
        first: dict[str, tuple[int, int]] = {}  # the figure each key is read from; a copy of it waits for it
        for (number, index), key in keys.items():
            cached = cache.get(key) if key not in first else None
            if cached is not None:
                found[(number, index)] = cached
                hits.add((number, index))
                usage.cache_hits += 1
            elif key not in first:
                first[key] = (number, index)
                wanted.setdefault(number, []).append(index)
        by_number = {page.number: page for page in pages}
        done = len(pages) - len(wanted)
        job.progress("described", done, len(pages))
        for number, images in self._images(reading, by_number, wanted):
            page = by_number[number]
            for index, image in zip(wanted[number], images):
                try:
                    if isinstance(image, str):  # the figure could not be rendered
                        raise ReaderError("RENDER_FAILED", image)
                    text = self._read(image, cache, usage, hits, (number, index), number in scans)
                except Exception as error:  # onnxruntime, OpenCV and pdfium raise their own types
                    failed[(number, index)] = str(error)
                    continue
                cache.put(keys[(number, index)], text)
                found[(number, index)] = text
            done += 1
            job.progress("described", done, len(pages))
        for place, key in keys.items():  # a copy of a picture read elsewhere in the file
            source = first.get(key, place)
            if source in found and place not in found:
                found[place] = found[source]
                hits.add(place)
                usage.cache_hits += 1
            elif source in failed:
                failed[place] = failed[source]
        for page in pages:
            places = [place for place in keys if place[0] == page.number]
            self._describe(page, reading, job, found, failed, cached=bool(places) and set(places) <= hits)

    @staticmethod
    def _read(image: bytes, cache, usage, hits: set, place: tuple[int, int], scan: bool) -> str:
        """The text OCR finds in ``image`` (PNG or JPEG bytes), cached by those bytes (``_pixels_key``);
        a ``scan``'s laid out as its page's text."""
        key = cache_key(_pixels_key(image), SCAN_TEXT) if scan else _pixels_key(image)
        text = cache.get(key)
        if text is None:
            text = read_page(image) if scan else read_text(image)
            usage.calls += 1
            cache.put(key, text)
        else:
            hits.add(place)
            usage.cache_hits += 1
        return text

    @staticmethod
    def _images(reading, pages: dict, wanted: dict[int, list[int]]):
        """Each wanted page's figure images: an image file is its own figure; a figure the file
        gave with its ``image`` (a deck's picture) is read as it is; a PDF's figures are rendered
        by the PDF worker pool at the dpi their finding chose."""
        rendered, found = {}, reading._found
        for number, indices in wanted.items():
            figures = [found[number][index] for index in indices] if number in found else None
            if figures is None:
                yield number, [pages[number].image]
            elif all(figure.seen for figure in figures):
                yield number, [figure.image if figure.image is not None else figure.unreadable for figure in figures]
            else:
                rendered[number] = figures
        if rendered:
            from ..pdf.pool import figure_images

            yield from figure_images(reading.pdf.path, reading.name, rendered)

    def _describe(self, page, reading, job, found: dict, failed: dict, cached: bool) -> None:
        """The page's VISUAL CONTENT: the whole page's text for an image file, else one paragraph per
        figure; a scanned page's text is its OCR (``_scanned``), which its description says, not
        repeats. A figure that failed is named on the page and in a warning."""
        whole = kind_of(reading.kind).picture or [figure.kind for figure in page.figures] == ["scan"]
        marked = kind_of(reading.kind).marks_pictures
        blocks, errors = [], []
        for index, figure in enumerate(page.figures):
            text, error = found.get((page.number, index)), failed.get((page.number, index))
            if error:
                errors.append(f"figure {index + 1} ({error})")
            elif marked and not figure.chart and (figure.has_text or not text):
                continue  # the text marks it where it stands and holds all it says
            if whole and _scanned(reading, page) and not error:
                page.blocks = markdown_blocks(text or "") + [b for b in page.blocks if b.kind == BlockKind.FURNITURE]
                blocks.append(SCAN_READ if text else "A scanned page: local OCR found no text on it.")
                continue
            if whole:
                blocks.append(
                    f"Local OCR could not read this page ({error})."
                    if error
                    else f"Text found by OCR:\n{text}"
                    if text
                    else "Local OCR found no text."
                )
                continue
            caption = f'; caption: "{figure.caption}"' if figure.caption else ""
            head = f"Figure {index + 1} ({figure.kind}, {figure.place}{caption})"
            if figure.chart:
                blocks.append(f"{head}: a chart ({figure.chart}); its data is in the page's text, as a table.")
            elif figure.linked:
                blocks.append(f"{head}: {LINKED.format(where=figure.linked)}.")
            elif figure.has_text:
                blocks.append(
                    f"{head}: its {'labels' if figure.kind == 'drawing' else 'words'} are in the page's text."
                )
            elif error:
                blocks.append(f"{head}: local OCR could not read it.")
            else:
                blocks.append(
                    f"{head}, text found in it by OCR:\n{text}" if text else f"{head}: no text found in it by OCR."
                )
        if errors:
            page.error = (
                f"Local OCR could not read {', '.join(errors)}. The page's text and its other figures are kept."
            )
            reading.notices.append(
                Notice(Code.DESCRIBE_FAILED, f"Page {page.number} of {reading.name}: {page.error}", page.number)
            )
        page.description = "\n\n".join(blocks) or None
        page.description_source = f"{self.source}{CACHED}" if cached else self.source
        page.described = Described.FAILED if errors else Described.OCR


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _pixels_key(image: bytes) -> str:
    """The cache key of the text OCR finds in a picture: the hash of exactly the bytes it reads (a
    PDF's figure as rendered, with whatever the page draws over it, its palette, masks and crop; a
    deck's or a sheet's picture as the file holds it) and the engine. So the same picture in two
    files is read once, and two pictures that differ in any pixel never share a text."""
    return cache_key(_sha256(image), ENGINE_VERSION)


def _scanned(reading, page) -> bool:
    """A page of a document that is a scan with no text layer: local OCR reads its text as the page's text."""
    return not kind_of(reading.kind).picture and [figure.kind for figure in page.figures] == ["scan"] and not page.text


def build_vision(settings: Settings) -> OpenAIVision | LocalOCR | None:
    """The describer ``VISION_PROVIDER`` chooses: ``auto`` means the API when a base URL or key is
    set, else local OCR; ``none`` means no descriptions."""
    provider = settings.vision_provider
    if provider == "auto":
        provider = "openai" if settings.vision_base_url or settings.vision_api_key else "ocr"
    if provider == "openai":
        return OpenAIVision(settings)
    return LocalOCR() if provider == "ocr" else None


def describe_reading(reading, job) -> None:
    """Fill ``description`` and ``description_source`` (or ``error``) of each page that has figures,
    or of every page when a question was asked of a describer that answers questions (local OCR
    does not: it warns once and reads as without the question), and ``reading.usage``: pages rendered, or whose
    reader gave their figures without a render (a deck's)."""
    vision = job.services.vision
    if vision is None:
        return
    if reading.question and not vision.answers_questions:  # said once; the payload stays as without the question
        reading.notices.append(Notice(Code.NOT_ANSWERED, OCR_CANNOT_ANSWER.format(question=reading.question)))
        reading.question = None
        if reading.multimodal:
            return
    started = time.monotonic()
    wanted = []
    for page in (page for page in reading.pages if page.image is not None or page.number in reading._found):
        if reading.question or page.figures:
            wanted.append(page)
        else:
            page.description_source, page.described = TEXT_ONLY, Described.TEXT_ONLY
            reading.usage.calls_saved += 1
    vision.describe_pages(reading, job, wanted)
    reading.usage.seconds = time.monotonic() - started
