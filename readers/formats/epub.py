"""EPUB e-books: a page per document of the spine, in reading order, as Markdown; the title and
authors on top of the first page.

An EPUB whose content is encrypted (DRM) is refused; font obfuscation, which only hides fonts, is not.
"""

from __future__ import annotations

import zipfile

from ebooklib import ITEM_DOCUMENT, epub

from ..errors import ReaderError
from ..markup.html import html_markdown
from ..models import Page

FONT_OBFUSCATION = (b"http://www.idpf.org/2008/embedding", b"http://ns.adobe.com/pdf/enc#RC")


def _check_encryption(job) -> None:
    with zipfile.ZipFile(job.path) as archive:
        try:
            encryption = archive.read("META-INF/encryption.xml")
        except KeyError:
            return
    methods = encryption.count(b"EncryptionMethod")
    if methods > sum(encryption.count(method) for method in FONT_OBFUSCATION):
        raise ReaderError("ENCRYPTED_FILE", f"{job.name} is protected by DRM: its chapters are encrypted. Open it in the shop's reader app, or use a DRM-free copy.")


def _metadata(book, field: str) -> list[str]:
    return [value for value, _ in book.get_metadata("DC", field) if value and value.strip()]


def read(job):
    _check_encryption(job)
    try:
        book = epub.read_epub(str(job.path), options={"ignore_ncx": True})
    except Exception as error:  # noqa: BLE001 - ebooklib raises EpubException, KeyError, XML errors... on a damaged book
        raise ReaderError("CORRUPT_FILE", f"{job.name} is damaged and cannot be opened as an EPUB ({type(error).__name__}). Download or export it again.") from None
    chapters = [item for item in (book.get_item_with_id(idref) for idref, _ in book.spine) if item is not None and item.get_type() == ITEM_DOCUMENT]
    if not chapters:
        raise ReaderError("CORRUPT_FILE", f"{job.name} is an EPUB with no chapters in its reading order.")
    top = [f"# {title}" for title in _metadata(book, "title")[:1]]
    authors = _metadata(book, "creator")
    if authors:
        top.append(f"By {', '.join(authors)}")
    pages = []
    for number in job.select(len(chapters)):
        text = html_markdown(chapters[number - 1].get_content().decode("utf-8", errors="replace"))
        pages.append(Page(number=number, text="\n\n".join([*top, text]) if number == 1 and top else text))
    return job.reading(len(chapters), pages)
