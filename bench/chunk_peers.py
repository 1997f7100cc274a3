"""The peers of ``bench_chunks``: docling's HybridChunker and LangChain's RecursiveCharacterTextSplitter.

Run by the Python of its scratch virtualenv (``bench.scratch.CHUNKERS``), never the project's (neither
package is a dependency): ``python chunk_peers.py DOCUMENTS.json MAX_TOKENS``. It reads the documents
ReadLens read (each page's headings, paragraphs and tables, and the text-only payload), chunks them
with both peers and prints, as JSON, each chunk's text as it would be embedded, its pages and the
seconds each peer took. All three chunkers count with o200k_base (``bpe-openai``).
"""

import json
import sys
import time

from bpe_openai import _bindings
from docling_core.transforms.chunker.hybrid_chunker import HybridChunker
from docling_core.transforms.chunker.tokenizer.base import BaseTokenizer
from docling_core.types.doc import (
    BoundingBox,
    DocItemLabel,
    DoclingDocument,
    ProvenanceItem,
    Size,
    TableCell,
    TableData,
)
from langchain_text_splitters import RecursiveCharacterTextSplitter

ENCODING = _bindings.tokenizer_for_encoding("o200k_base")
REPEATS = 5


def tokens(text: str) -> int:
    return ENCODING.count(text)


class O200kTokenizer(BaseTokenizer):
    """docling's tokenizer interface over the same exact count ReadLens uses."""

    max_tokens: int

    def count_tokens(self, text: str) -> int:
        return tokens(text)

    def get_max_tokens(self) -> int:
        return self.max_tokens

    def get_tokenizer(self):
        return ENCODING


def docling_document(document: dict) -> DoclingDocument:
    """The pages' items as a DoclingDocument, each with its page, as docling's converters make them."""
    doc = DoclingDocument(name=document["name"])
    for page in document["pages"]:
        doc.add_page(page_no=page["number"], size=Size(width=612, height=792))
        for item in page["items"]:
            text = item.get("text") or " ".join(" ".join(row) for row in item.get("rows", []))
            prov = ProvenanceItem(
                page_no=page["number"], bbox=BoundingBox(l=0, t=0, r=612, b=792), charspan=(0, len(text))
            )
            if item["kind"] == "heading":
                doc.add_heading(text=item["text"], level=item["level"], prov=prov)
            elif item["kind"] == "table":
                rows = item["rows"]
                width = max(len(row) for row in rows)
                cells = [
                    TableCell(
                        text=cell,
                        start_row_offset_idx=r,
                        end_row_offset_idx=r + 1,
                        start_col_offset_idx=c,
                        end_col_offset_idx=c + 1,
                        column_header=r == 0,
                    )
                    for r, row in enumerate(rows)
                    for c, cell in enumerate(row)
                ]
                doc.add_table(data=TableData(num_rows=len(rows), num_cols=width, table_cells=cells), prov=prov)
            else:
                doc.add_text(label=DocItemLabel.TEXT, text=item["text"], prov=prov)
    return doc


def timed(work) -> tuple[list, float]:
    """The result of ``work()`` and its best time of ``REPEATS``."""
    best, result = float("inf"), None
    for _ in range(REPEATS):
        start = time.perf_counter()
        result = work()
        best = min(best, time.perf_counter() - start)
    return result, best


def main(documents_path: str, max_tokens: str) -> None:
    limit = int(max_tokens)
    documents = json.load(open(documents_path, encoding="utf-8"))
    hybrid = HybridChunker(tokenizer=O200kTokenizer(max_tokens=limit), merge_peers=True)
    splitter = RecursiveCharacterTextSplitter(chunk_size=limit, chunk_overlap=0, length_function=tokens)
    answer = []
    for document in documents:
        doc = docling_document(document)

        def docling_chunks(doc=doc):
            return [
                {
                    "text": hybrid.contextualize(chunk),
                    "pages": sorted({prov.page_no for item in chunk.meta.doc_items for prov in item.prov}),
                }
                for chunk in hybrid.chunk(dl_doc=doc)
            ]

        docling, docling_seconds = timed(docling_chunks)
        langchain, langchain_seconds = timed(
            lambda document=document: [{"text": text, "pages": []} for text in splitter.split_text(document["text"])]
        )
        answer.append(
            {
                "name": document["name"],
                "docling": {"chunks": docling, "seconds": docling_seconds},
                "langchain": {"chunks": langchain, "seconds": langchain_seconds},
            }
        )
    json.dump(answer, sys.stdout)


if __name__ == "__main__":
    main(*sys.argv[1:])
