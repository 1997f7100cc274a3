"""Plain-text files (txt, md, json, logs, source code): the text, with its encoding detected, read in
pages of about ``readers.markup.text.PAGE_CHARS`` characters cut at line boundaries.

A Jupyter notebook is shown as its cells (Markdown as is, code fenced), not as raw JSON; its pages
and line numbers are those of the cells as shown.

Lines end at ``\\n`` (a ``\\r\\n`` reads as one ending), so line numbers are the ones ``grep -n``
and editors give. A page holds whole lines; a line longer than a page is cut into pieces of
``PAGE_CHARS`` characters, the cut said where it is (``[line 1234 continues on the next page]``,
``[line 1234 continued from the previous page]``). Each page's ``line`` is the number in the
file of its first line.

Each page's blocks are runs of its lines (``readers.markup.markdown.line_blocks``): a Markdown
file's (or a notebook's) headings, lists, tables and fenced code, another file's paragraphs between
blank lines (its ``#`` lines are comments, not headings).

The first read of a file decodes it once, stores its text as UTF-8, the pages' byte offsets and what
decoding warned in the disk cache by content hash; every later read, whatever its pages, reads only their bytes.
"""

from __future__ import annotations

import json
from pathlib import PurePosixPath

from ..markup.markdown import fence_after, line_blocks
from ..markup.text import decode, paginate, well_formed
from ..models import Extraction, Page
from ..notices import Code, Notice
from ..storage.files import TEXT, TEXT_PAGES

MARKDOWN_FILES = (
    ".md",
    ".markdown",
    ".mdx",
    ".ipynb",
)  # whose "#" lines are headings (a notebook is shown as Markdown)


def notebook_text(text: str) -> str | None:
    """A notebook's cells as Markdown, or None when ``text`` is not a notebook."""
    try:
        notebook = json.loads(text)
    except ValueError:
        return None
    if (
        not isinstance(notebook, dict)
        or not isinstance(notebook.get("cells"), list)
        or not all(isinstance(c, dict) for c in notebook["cells"])
    ):
        return None
    kernelspec = (
        notebook.get("metadata", {}).get("kernelspec", {}) if isinstance(notebook.get("metadata"), dict) else {}
    )
    language = kernelspec.get("language", "") if isinstance(kernelspec, dict) else ""
    blocks = []
    for cell in notebook["cells"]:
        source = cell.get("source", "")
        source = "".join(map(str, source)) if isinstance(source, list) else str(source)
        if cell.get("cell_type") == "code":
            blocks.append(f"```{language}\n{source}\n```")
        elif source.strip():
            blocks.append(source)
    return well_formed("\n\n".join(blocks))


def _page(data: bytes, number: int, first: int, cut_before: int, cut_after: int, markdown: bool, fence: str) -> Page:
    text = data.decode("utf-8").removesuffix("\n")
    if cut_before:
        text = f"[line {first} continued from the previous page] {text}"
    if cut_after:
        text = f"{text} [line {first} continues on the next page]"
    return Page(number=number, blocks=line_blocks(text, markdown, fence), line=first)


def _fences(text: str, pages: list[list[int]]) -> list[str]:
    """The fenced code block open at each page's start ("" for none), so a page's blocks are read as
    the file's are, not afresh."""
    data, fences, fence = text.encode("utf-8"), [], ""
    for start, end, *_ in pages:
        fences.append(fence)
        fence = fence_after(data[start:end].decode("utf-8").split("\n"), fence)
    return fences


def _text(job, notices: list[Notice]) -> str:
    text = decode(job.path.read_bytes(), job.name, notices).replace("\r\n", "\n")
    if job.path.suffix.lower() == ".ipynb":
        text = notebook_text(text) or text
    return text


def read(job):
    store = job.services.store
    index = store.get_json(job.sha256, TEXT_PAGES)
    cached = store.path(job.sha256, TEXT)
    if index is None or not cached.is_file():
        decoded: list[Notice] = []
        text = _text(job, decoded)
        store.put_bytes(job.sha256, TEXT, text.encode("utf-8"))
        # what decoding said, for every later read too, which may name the same bytes otherwise
        pages = paginate(text)
        index = {"pages": pages, "fences": _fences(text, pages), "name": job.name}
        index["notices"] = [[n.code, n.text] for n in decoded]
        store.put_json(job.sha256, TEXT_PAGES, index)
    pages = index["pages"]
    notices = [Notice(Code(code), job.name + text.removeprefix(index["name"])) for code, text in index["notices"]]
    numbers = job.select(len(pages), notices)
    chosen = [pages[number - 1] for number in numbers]
    start = chosen[0][0]
    with open(cached, "rb") as handle:  # only the bytes of the pages asked for
        handle.seek(start)
        data = handle.read(chosen[-1][1] - start)
    markdown = PurePosixPath(job.name).suffix.lower() in MARKDOWN_FILES
    read = [
        _page(data[begin - start : end - start], number, first, before, after, markdown, index["fences"][number - 1])
        for number, (begin, end, first, before, after) in zip(numbers, chosen)
    ]
    return job.reading(Extraction(len(pages), read, notices=notices))
