"""EPUB e-books: a page per document of the spine, in reading order, as Markdown, each decoded by
the charset it declares; on top of the first page the title, authors and the book's catalogue entry
(publisher, date, language, identifiers, subjects, description).

An EPUB whose content is encrypted (DRM) is refused; font obfuscation, which only hides fonts, is not.
"""

from __future__ import annotations

import re
import zipfile

from ebooklib import ITEM_DOCUMENT, epub

from ..errors import ReaderError
from ..markup.html import decode_html, html_markdown
from ..models import Page

FONT_OBFUSCATION = (b"http://www.idpf.org/2008/embedding", b"http://ns.adobe.com/pdf/enc#RC")
OPF_EVENT = "{http://www.idpf.org/2007/opf}event"
CATALOGUE = (
    ("Publisher", "publisher", ", "),
    ("Language", "language", ", "),
    ("Identifier", "identifier", ", "),
    ("Subjects", "subject", "; "),
)


def _check_encryption(job) -> None:
    with zipfile.ZipFile(job.path) as archive:
        try:
            encryption = archive.read("META-INF/encryption.xml")
        except KeyError:
            return
    methods = encryption.count(b"EncryptionMethod")
    if methods > sum(encryption.count(method) for method in FONT_OBFUSCATION):
        raise ReaderError(
            "ENCRYPTED_FILE",
            f"{job.name} is protected by DRM: its chapters are encrypted. "
            "Open it in the shop's reader app, or use a DRM-free copy.",
        )


def _metadata(book, field: str) -> list[str]:
    return [value for value, _ in book.get_metadata("DC", field) if value and value.strip()]


def _published(book) -> str:
    """The publication date without its time of day; EPUB 2 may list the creation and modification
    dates beside it, told apart by opf:event."""
    dates = [
        (value.strip(), attributes.get(OPF_EVENT))
        for value, attributes in book.get_metadata("DC", "date")
        if value and value.strip()
    ]
    date = next((value for value, event in dates if event == "publication"), None) or next(
        (value for value, event in dates if not event), ""
    )
    return re.sub(r"(?<=^\d{4}-\d\d-\d\d)T.*", "", date)


def _catalogue(book, job) -> list[str]:
    """The blocks a reader sees before the first chapter: the title, the authors, the catalogue
    entry and the description, which is often HTML and is what a model asked what the book is
    about needs most."""
    top = [f"# {title}" for title in _metadata(book, "title")[:1]]
    authors = _metadata(book, "creator")
    if authors:
        top.append(f"By {', '.join(authors)}")
    entry = [
        f"{label}: {separator.join(dict.fromkeys(values))}"
        for label, field, separator in CATALOGUE
        if (values := _metadata(book, field))
    ]
    if published := _published(book):
        entry.insert(1, f"Published: {published}")
    if entry:
        top.append("\n".join(entry))
    description = "\n\n".join(
        html_markdown(value, warnings=job.warnings, name=job.name) for value in _metadata(book, "description")
    )
    if description.strip():
        top.append(f"Description: {description.strip()}")
    return top


def _chapter_html(item, job) -> str:
    data = item.content  # the bytes as stored: get_content() re-renders the chapter from a UTF-8 guess
    try:
        return decode_html(data, f"{job.name} ({item.get_name()})", job.warnings)
    except ReaderError:  # bytes in no charset known: what UTF-8 makes of them keeps the chapter's readable part
        return data.decode("utf-8", errors="replace")


def read(job):
    _check_encryption(job)
    try:
        book = epub.read_epub(str(job.path), options={"ignore_ncx": True})
    # ebooklib raises EpubException, KeyError, XML errors... on a damaged book.
    except Exception as error:  # noqa: BLE001
        raise ReaderError(
            "CORRUPT_FILE",
            f"{job.name} is damaged and cannot be opened as an EPUB ({type(error).__name__}). "
            "Download or export it again.",
        ) from None
    chapters = [
        item
        for item in (book.get_item_with_id(idref) for idref, _ in book.spine)
        if item is not None and item.get_type() == ITEM_DOCUMENT
    ]
    if not chapters:
        raise ReaderError("CORRUPT_FILE", f"{job.name} is an EPUB with no chapters in its reading order.")
    top = _catalogue(book, job)
    pages = []
    for number in job.select(len(chapters)):
        text = html_markdown(_chapter_html(chapters[number - 1], job), warnings=job.warnings, name=job.name)
        pages.append(Page(number=number, text="\n\n".join([*top, text]) if number == 1 and top else text))
    return job.reading(len(chapters), pages)
