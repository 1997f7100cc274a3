"""Plain-text files (txt, md, json, logs, source code): the text, with its encoding detected, read in
pages of about ``PAGE_CHARS`` characters cut at line boundaries.

A Jupyter notebook is shown as its cells (Markdown as is, code fenced), not as raw JSON; its pages
and line numbers are those of the cells as shown.

Lines end at ``\\n`` (a ``\\r\\n`` reads as one ending), so line numbers are the ones ``grep -n``
and editors give. A page holds whole lines; a line longer than a page is cut into pieces of
``PAGE_CHARS`` characters, the cut said where it is (``[line 1234 continues on the next page]``,
``[line 1234 continued from the previous page]``). Each page's ``line`` is the number in the
file of its first line.

The first read of a file decodes it once, stores its text as UTF-8 and the pages' byte offsets in
the disk cache by content hash; every later read, whatever its pages, reads only their bytes.
"""

from __future__ import annotations

import json

from charset_normalizer import from_bytes

from ..errors import ReaderError
from ..models import Page

PAGE_CHARS = 4000
CACHE_VERSION = 1  # part of the cached names: raise it when the pages or a notebook's text change
TEXT_NAME, PAGES_NAME = f"text.v{CACHE_VERSION}.txt", f"text-pages.v{CACHE_VERSION}.json"


def decode(data: bytes, name: str, declared: str | None = None) -> str:
    """The text of ``data`` in the charset the file ``declared`` (an e-mail part's header, a web
    page's <meta>) when it names one that decodes it, else in its detected encoding (UTF-8 and its
    BOMs first). A charset that makes lone surrogates (UTF-7 can) gives U+FFFD in their place."""
    if declared:
        try:
            return well_formed(data.decode(declared))
        except (LookupError, ValueError):  # an unknown charset, bytes it cannot decode, a NUL in its name
            pass
    for bom, codec in ((b"\xef\xbb\xbf", "utf-8-sig"), (b"\xff\xfe", "utf-16"), (b"\xfe\xff", "utf-16"), (b"", "utf-8")):
        if data.startswith(bom):
            try:
                return data.decode(codec)
            except UnicodeDecodeError:
                break
    match = from_bytes(data).best()
    if match is None:
        raise ReaderError("UNSUPPORTED_FORMAT", f"{name} does not look like text in any known encoding. If it is a document, export it as PDF or DOCX.")
    return well_formed(str(match))


def well_formed(text: str) -> str:
    """``text`` with each lone surrogate (which JSON's ``\\ud800`` escapes can make, and UTF-8 cannot
    hold) replaced by U+FFFD."""
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def notebook_text(text: str) -> str | None:
    """A notebook's cells as Markdown, or None when ``text`` is not a notebook."""
    try:
        notebook = json.loads(text)
    except ValueError:
        return None
    if not isinstance(notebook, dict) or not isinstance(notebook.get("cells"), list) or not all(isinstance(c, dict) for c in notebook["cells"]):
        return None
    kernelspec = notebook.get("metadata", {}).get("kernelspec", {}) if isinstance(notebook.get("metadata"), dict) else {}
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


def paginate(text: str) -> list[list[int]]:
    """The pages of ``text`` as ``[first byte, end byte, first line, cut before, cut after]``:
    byte offsets into ``text`` encoded as UTF-8; the cut flags (0 or 1) mark a page that starts
    or ends inside a line longer than a page."""
    pages: list[list[int]] = []
    start = position = size = 0
    first, cut_before = 1, 0
    lines = text.split("\n")
    ending = [1] * (len(lines) - 1) + [0]
    if lines[-1] == "":  # the file ends with a line break: no empty line after it
        lines, ending = lines[:-1], ending[:-1]
    for number, (line, newline) in enumerate(zip(lines, ending), 1):
        if size and size + len(line) + newline > PAGE_CHARS:
            pages.append([start, position, first, cut_before, 0])
            start, size, first, cut_before = position, 0, number, 0
        while len(line) > PAGE_CHARS:  # a line longer than a page: a page of each whole piece
            piece, line = line[:PAGE_CHARS], line[PAGE_CHARS:]
            position += len(piece.encode("utf-8"))
            pages.append([start, position, number, cut_before, 1])
            start, first, cut_before = position, number, 1
        position += len(line.encode("utf-8")) + newline
        size += len(line) + newline
    if size or not pages:
        pages.append([start, position, first, cut_before, 0])
    return pages


def _page(data: bytes, number: int, first: int, cut_before: int, cut_after: int) -> Page:
    text = data.decode("utf-8").removesuffix("\n")
    if cut_before:
        text = f"[line {first} continued from the previous page] {text}"
    if cut_after:
        text = f"{text} [line {first} continues on the next page]"
    return Page(number=number, text=text, line=first)


def _text(job) -> str:
    text = decode(job.path.read_bytes(), job.name).replace("\r\n", "\n")
    if job.path.suffix.lower() == ".ipynb":
        text = notebook_text(text) or text
    return text


def read(job):
    store = job.services.store
    pages = store.get_json(job.sha256, PAGES_NAME)
    cached = store.path(job.sha256, TEXT_NAME)
    if pages is None or not cached.is_file():
        text = _text(job)
        store.put_bytes(job.sha256, TEXT_NAME, text.encode("utf-8"))
        pages = paginate(text)
        store.put_json(job.sha256, PAGES_NAME, pages)
    numbers = job.select(len(pages))
    chosen = [pages[number - 1] for number in numbers]
    start = chosen[0][0]
    with open(cached, "rb") as handle:  # only the bytes of the pages asked for
        handle.seek(start)
        data = handle.read(chosen[-1][1] - start)
    return job.reading(len(pages), [_page(data[begin - start:end - start], number, first, before, after)
                                    for number, (begin, end, first, before, after) in zip(numbers, chosen)])
