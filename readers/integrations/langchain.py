"""ReadLens as a LangChain document loader (``pip install "readlens[langchain]"``)::

    from readers.integrations.langchain import ReadLensLoader

    docs = ReadLensLoader("reports/", mode="chunk", max_tokens=512).load()
    docs[0].metadata["citation"]  # 'annual.pdf, p. 3'

One ``Document`` a page (or a chunk), its ``page_content`` what a text-only model receives for it,
its ``metadata`` as ``readers.integrations.documents`` says.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator

from langchain_core.document_loaders import BaseLoader
from langchain_core.documents import Document

from ..errors import ReaderError
from ..options import ReadOptions
from ..payload.chunks import CHUNK_TOKENS
from ..services import Services
from .documents import Given, pieces, request, sources

logger = logging.getLogger(__name__)


class ReadLensLoader(BaseLoader):
    """Loads a file, a URL, a folder (walked as ``readlens batch`` walks one) or a list of them.

    ``mode`` "page" gives a document a page (slide, sheet), "chunk" a document a chunk of at most
    ``max_tokens`` tokens repeating up to ``overlap`` of the one before (``Reading.chunks``).
    ``multimodal``, ``describe``, ``page_start`` and ``page_end`` are ``read_file``'s (a range that
    runs past a file's last page reads up to it); ``services`` its vision model, cache and
    transcriber (from the environment when not given).

    A file ReadLens refuses raises its ``ReaderError`` (``code``, ``message``), as LangChain's own
    loaders raise; with ``silent_errors`` it is logged as a warning with its code instead, yields no
    document, and the next file is read (``DirectoryLoader``'s ``silent_errors``).
    """

    def __init__(
        self,
        file_path: Given,
        mode: str = "page",
        max_tokens: int = CHUNK_TOKENS,
        overlap: int = 0,
        multimodal: bool = False,
        describe: str | None = None,
        page_start: int | None = None,
        page_end: int | None = None,
        *,
        silent_errors: bool = False,
        services: Services | None = None,
    ):
        self.file_path = file_path
        self.request = request(mode, max_tokens, overlap, ReadOptions(page_start, page_end, describe, multimodal))
        self.silent_errors = silent_errors
        self.services = services

    def lazy_load(self) -> Iterator[Document]:
        """Each file's documents as soon as it is read, one file after another."""
        for file in sources(self.file_path):
            try:
                found = pieces(file, self.request, self.services)
            except ReaderError as error:
                if not self.silent_errors:
                    raise
                logger.warning("Error loading file %s: %s", file, error)
                continue
            for piece in found:
                yield Document(page_content=piece.text, metadata=piece.metadata)
