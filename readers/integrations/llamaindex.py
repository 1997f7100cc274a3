"""ReadLens as a LlamaIndex reader (``pip install "readlens[llamaindex]"``)::

    from llama_index.core import SimpleDirectoryReader
    from readers.integrations.llamaindex import ReadLensReader

    reader = ReadLensReader(mode="chunk", max_tokens=512)
    docs = SimpleDirectoryReader("reports/", file_extractor=reader.file_extractor()).load_data()

One ``Document`` a page (or a chunk), its ``text`` what a text-only model receives for it, its
``metadata`` as ``readers.integrations.documents`` says, after the ``extra_info`` it was given.
"""

from __future__ import annotations

from collections.abc import Iterator

from llama_index.core.readers.base import BaseReader
from llama_index.core.schema import Document

from ..kinds import KIND_BY_SUFFIX
from ..options import ReadOptions
from ..payload.chunks import CHUNK_TOKENS
from ..services import Services
from .documents import Given, pieces, request, sources

# The metadata LlamaIndex writes above a document's text for the model (MetadataMode.LLM): the citation
# only. Nothing is written above it for the embedding: the text is already what was counted and cut.
SHOWN_TO_THE_MODEL = ("citation",)


class ReadLensReader(BaseReader):
    """Reads a file, a URL, or a folder (walked as ``readlens batch`` walks one) into ``Document``s.

    ``mode`` "page" gives a document a page (slide, sheet), "chunk" a document a chunk of at most
    ``max_tokens`` tokens repeating up to ``overlap`` of the one before (``Reading.chunks``); the
    other arguments are ``read_file``'s (a page range that runs past a file's last page reads up to
    it), ``services`` its vision model, cache and transcriber. A file ReadLens refuses raises its
    ``ReaderError`` (``code``, ``message``): ``SimpleDirectoryReader`` then skips the file and prints
    the error, or raises with ``raise_on_error``, as with its own readers.
    """

    def __init__(
        self,
        mode: str = "page",
        max_tokens: int = CHUNK_TOKENS,
        overlap: int = 0,
        multimodal: bool = False,
        describe: str | None = None,
        page_start: int | None = None,
        page_end: int | None = None,
        *,
        services: Services | None = None,
    ):
        self.request = request(mode, max_tokens, overlap, ReadOptions(page_start, page_end, describe, multimodal))
        self.services = services

    def lazy_load_data(self, file_path: Given, extra_info: dict | None = None) -> Iterator[Document]:
        """Each file's documents as soon as it is read, one file after another."""
        for file in sources(file_path):
            for piece in pieces(file, self.request, self.services):
                yield Document(
                    text=piece.text,
                    metadata={**(extra_info or {}), **piece.metadata},
                    excluded_embed_metadata_keys=list(piece.metadata),
                    excluded_llm_metadata_keys=[key for key in piece.metadata if key not in SHOWN_TO_THE_MODEL],
                )

    def load_data(self, file_path: Given, extra_info: dict | None = None) -> list[Document]:
        return list(self.lazy_load_data(file_path, extra_info))

    def file_extractor(self) -> dict[str, ReadLensReader]:
        """This reader for every name suffix ReadLens reads (``readers.kinds``), as
        ``SimpleDirectoryReader``'s ``file_extractor``."""
        return dict.fromkeys(KIND_BY_SUFFIX, self)
