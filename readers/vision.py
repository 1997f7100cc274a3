"""Descriptions of each page's visual content for text-only models.

Two describers share one interface: ``OpenAIVision`` (any OpenAI-compatible chat API) and
``LocalOCR`` (rapidocr, the default when nothing is configured). ``describe_reading`` serves each
page from the description cache or asks the describer, several pages at once, and caches only
what succeeded.
"""

from __future__ import annotations

import base64
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass

import openai

from .cache import cache_key
from .errors import ReaderError
from .ocr import read_text
from .prompts import PROMPT_VERSION, build_prompt
from .settings import Settings

ATTEMPTS = 3
OCR_CANNOT_ANSWER = ("Local OCR reads text but cannot answer questions such as \"{question}\". To ask about the "
                     "visual content, configure a vision model: set VISION_BASE_URL (for example "
                     "http://localhost:11434/v1 for Ollama) and VISION_MODEL, and VISION_API_KEY if the service needs one.")


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

    def __init__(self, settings: Settings):
        self.model = settings.vision_model
        self.source = f"vision:{self.model}"
        self.concurrency = settings.vision_concurrency
        self._key = settings.vision_api_key
        self._timeout = settings.vision_timeout
        # Servers such as Ollama need no key, but the SDK insists on one.
        self._client = openai.OpenAI(api_key=self._key or "no-key", base_url=settings.vision_base_url,
                                     timeout=settings.vision_timeout, max_retries=ATTEMPTS - 1)

    def describe(self, image: bytes, context: str | None, question: str | None) -> Description:
        """Describe one PNG: a page whose extracted text is ``context``, or an image (``context`` None)."""
        url = "data:image/png;base64," + base64.b64encode(image).decode("ascii")
        content = [{"type": "text", "text": build_prompt(context, question)}, {"type": "image_url", "image_url": {"url": url}}]
        try:
            response = self._client.chat.completions.create(model=self.model, messages=[{"role": "user", "content": content}])
        except openai.OpenAIError as error:
            raise ReaderError("VISION_FAILED", self._explain(error)) from None
        text = (response.choices[0].message.content or "").strip() if response.choices else ""
        if not text:
            raise ReaderError("VISION_FAILED", f"The vision service returned an empty description (model {self.model}). Try again, or choose another VISION_MODEL.")
        usage = response.usage
        return Description(text, getattr(usage, "prompt_tokens", 0) or 0, getattr(usage, "completion_tokens", 0) or 0)

    def _explain(self, error: openai.OpenAIError) -> str:
        """A sentence a person can act on; never the key, even if a server echoes it."""
        where = f"{self._client.base_url.scheme}://{self._client.base_url.netloc.decode()}"
        if isinstance(error, openai.APITimeoutError):
            message = f"The vision service at {where} did not answer within {self._timeout:g} s, {ATTEMPTS} times. Try again later, or raise VISION_TIMEOUT."
        elif isinstance(error, openai.APIConnectionError):
            message = f"Could not reach the vision service at {where} ({ATTEMPTS} attempts): check VISION_BASE_URL and that the server is running."
        elif isinstance(error, openai.APIStatusError):
            status = error.status_code
            detail = error.body.get("message") if isinstance(error.body, dict) else None
            message = {
                401: "The vision service rejected the API key (401): check VISION_API_KEY.",
                403: f"The vision service refused access (403): check that VISION_API_KEY may use the model {self.model}.",
                404: f"The vision service has no model {self.model} at {where} (404): check VISION_MODEL and VISION_BASE_URL.",
                429: "The vision service is limiting requests (429), even after waiting as it asked: try again in a minute, or lower VISION_CONCURRENCY.",
            }.get(status) or (
                f"The vision service failed ({status}) {ATTEMPTS} times: try again later." if status >= 500
                else f"The vision service refused the request ({status}): {(detail or 'no reason given').rstrip('.')}. Check VISION_MODEL ({self.model}) is a vision model."
            )
        else:
            message = f"The vision service at {where} sent a reply that is not an OpenAI chat completion: check VISION_BASE_URL."
        return message.replace(self._key, "[API key]") if self._key else message


class LocalOCR:
    """The text rapidocr finds on scanned pages and in images, labelled as OCR."""

    source = "ocr"
    concurrency = 1

    def describe(self, image: bytes, context: str | None, question: str | None) -> Description | None:
        """OCR of an image or of a page without a text layer; ``None`` when there is nothing to add.

        A page with a text layer is not OCRed: OCR would only repeat that text, at about a
        second per line.
        """
        if context and not question:
            return None
        found = ""
        if not context:
            try:
                text = read_text(image)
            except Exception as error:  # onnxruntime and OpenCV raise their own types
                raise ReaderError("VISION_FAILED", f"Local OCR could not read this page ({type(error).__name__}: {error}).") from None
            found = f"Text found by OCR:\n{text}" if text else "Local OCR found no text."
        if question:
            return Description(f"{found}\n\n{OCR_CANNOT_ANSWER.format(question=question)}".strip())
        return Description(found)


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
    """Fill each rendered page's ``description`` and ``description_source`` (or its ``error``) and
    ``reading.usage``. Cached pages cost nothing; the rest are described at most
    ``vision.concurrency`` at a time; a failure stays on its page and is never cached."""
    vision = job.services.vision
    if vision is None:
        return
    started = time.monotonic()
    cache, usage = job.services.cache, reading.usage
    pages = [page for page in reading.pages if page.image is not None]
    keys = {page.number: cache_key(reading.sha256, page.number, reading.question, vision.source, PROMPT_VERSION) for page in pages}
    missing = []
    for page in pages:
        cached = cache.get(keys[page.number])
        if cached is None:
            missing.append(page)
        else:
            page.description, page.description_source = cached, f"{vision.source} (cached)"
            usage.cache_hits += 1
    job.progress("described", usage.cache_hits, len(pages))
    with ThreadPoolExecutor(max_workers=vision.concurrency, thread_name_prefix="describe") as pool:
        image_file = reading.kind == "image"  # an image file's text is its metadata, not context
        futures = {pool.submit(vision.describe, page.image, None if image_file else page.content, reading.question): page for page in missing}
        for done, future in enumerate(as_completed(futures), usage.cache_hits + 1):
            page = futures[future]
            try:
                result = future.result()
            except ReaderError as error:
                usage.calls += 1
                page.error = error.message
            else:
                if result is not None:
                    usage.calls += 1
                    usage.prompt_tokens += result.prompt_tokens
                    usage.completion_tokens += result.completion_tokens
                    page.description, page.description_source = result.text, vision.source
                    cache.put(keys[page.number], result.text)
            job.progress("described", done, len(pages))
    usage.seconds = time.monotonic() - started
