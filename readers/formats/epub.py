"""EPUB e-books: a page per document of the spine, in reading order, as Markdown, each decoded by
the charset it declares; on top of the first page the title, authors and the book's catalogue entry
(publisher, date, language, identifiers, subjects, description).

The book is read from its package (OCF and OPF, EPUB 2 and 3): ``META-INF/container.xml`` names
the package document, whose manifest lists the files and whose spine their reading order; its
metadata is Dublin Core. A chapter the spine names but the file lacks is left out, with a warning.
An EPUB whose content is encrypted (DRM) is refused; font obfuscation, which only hides fonts, is not.
"""

from __future__ import annotations

import posixpath
import re
import zipfile
from dataclasses import dataclass
from urllib.parse import unquote

from lxml import etree

from ..errors import ReaderError
from ..intake.package import PARSER
from ..markup.blocks import Block, paragraphs
from ..markup.html import decode_html, html_blocks, html_markdown
from ..markup.markdown import heading_block, markdown_blocks
from ..models import Extraction, Page
from ..notices import Code, Notice

FONT_OBFUSCATION = (b"http://www.idpf.org/2008/embedding", b"http://ns.adobe.com/pdf/enc#RC")
OPF, DC = "{http://www.idpf.org/2007/opf}", "{http://purl.org/dc/elements/1.1/}"
OPF_EVENT = f"{OPF}event"
CONTAINER = "{urn:oasis:names:tc:opendocument:xmlns:container}rootfile"
# What a chapter is: XHTML (EPUB 2 and 3), and the HTML and OEB documents older books list.
CHAPTER_TYPES = {"application/xhtml+xml", "text/html", "text/x-oeb1-document"}
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


@dataclass
class _Book:
    """An EPUB's package: its Dublin Core ``metadata`` (each element's text and attributes, by
    name) and its ``chapters`` in reading order (each file's name in the package and its manifest href)."""

    metadata: dict[str, list[tuple[str, dict]]]
    chapters: list[tuple[str, str]]
    missing: list[str]


def _book(archive: zipfile.ZipFile) -> _Book:
    container = etree.fromstring(archive.read("META-INF/container.xml"), PARSER)
    rootfile = next(container.iter(CONTAINER)).get("full-path")
    package = etree.fromstring(archive.read(rootfile), PARSER)
    metadata: dict[str, list[tuple[str, dict]]] = {}
    for element in package.iterfind(f"{OPF}metadata/*"):
        if isinstance(element.tag, str) and element.tag.startswith(DC):
            metadata.setdefault(element.tag[len(DC) :], []).append((element.text or "", dict(element.attrib)))
    manifest = {item.get("id"): item for item in package.iterfind(f"{OPF}manifest/{OPF}item")}
    names, chapters, missing = set(archive.namelist()), [], []
    for reference in package.iterfind(f"{OPF}spine/{OPF}itemref"):
        item = manifest.get(reference.get("idref"))
        if (
            item is None
            or item.get("media-type") not in CHAPTER_TYPES
            or "nav" in (item.get("properties") or "").split()
        ):
            continue  # the spine's other items (pictures) and EPUB 3's table of contents are no chapters
        href = unquote(item.get("href") or "")
        name = posixpath.normpath(posixpath.join(posixpath.dirname(rootfile), href))
        if name in names:
            chapters.append((name, href))
        else:
            missing.append(href)
    return _Book(metadata, chapters, missing)


def _metadata(book: _Book, field: str) -> list[str]:
    return [value for value, _ in book.metadata.get(field, []) if value and value.strip()]


def _published(book) -> str:
    """The publication date without its time of day; EPUB 2 may list the creation and modification
    dates beside it, told apart by opf:event."""
    dates = [
        (value.strip(), attributes.get(OPF_EVENT))
        for value, attributes in book.metadata.get("date", [])
        if value.strip()
    ]
    date = next((value for value, event in dates if event == "publication"), None) or next(
        (value for value, event in dates if not event), ""
    )
    return re.sub(r"(?<=^\d{4}-\d\d-\d\d)T.*", "", date)


def _catalogue(book, job, notices: list[Notice]) -> list[Block]:
    """The blocks a reader sees before the first chapter: the title, the authors, the catalogue
    entry and the description, which is often HTML and is what a model asked what the book is
    about needs most."""
    top = [heading_block(1, title) for title in _metadata(book, "title")[:1]]
    authors = _metadata(book, "creator")
    if authors:
        top += paragraphs(f"By {', '.join(authors)}")
    entry = [
        f"{label}: {separator.join(dict.fromkeys(values))}"
        for label, field, separator in CATALOGUE
        if (values := _metadata(book, field))
    ]
    if published := _published(book):
        entry.insert(1, f"Published: {published}")
    top += paragraphs("\n".join(entry))
    description = "\n\n".join(
        html_markdown(value, notices=notices, name=job.name) for value in _metadata(book, "description")
    )
    if description.strip():  # what markdownify wrote, after the label
        top += markdown_blocks(f"Description: {description.strip()}")
    return top


def _chapter_html(data: bytes, href: str, job, notices: list[Notice]) -> str:
    try:
        return decode_html(data, f"{job.name} ({href})", notices)
    except ReaderError:  # bytes in no charset known: what UTF-8 makes of them keeps the chapter's readable part
        return data.decode("utf-8", errors="replace")


def read(job):
    _check_encryption(job)
    notices: list[Notice] = []
    with zipfile.ZipFile(job.path) as archive:
        try:
            book = _book(archive)
        # a package document missing, or one that is no XML, no container, no rootfile
        except (KeyError, StopIteration, AttributeError, TypeError, etree.XMLSyntaxError) as error:
            raise ReaderError(
                "CORRUPT_FILE",
                f"{job.name} is damaged and cannot be opened as an EPUB ({type(error).__name__}). "
                "Download or export it again.",
            ) from None
        if book.missing:
            shown = ", ".join(book.missing[:5]) + (
                f" and {len(book.missing) - 5} more" if len(book.missing) > 5 else ""
            )
            notices.append(Notice(Code.DAMAGED, f"{job.name} lacks files its reading order lists, left out: {shown}."))
        if not book.chapters:
            raise ReaderError("CORRUPT_FILE", f"{job.name} is an EPUB with no chapters in its reading order.")
        top = _catalogue(book, job, notices)
        pages = []
        for number in job.select(len(book.chapters), notices):
            name, href = book.chapters[number - 1]
            html = _chapter_html(archive.read(name), href, job, notices)
            blocks = html_blocks(html, notices=notices, name=job.name)
            pages.append(Page(number=number, blocks=[*top, *blocks] if number == 1 else blocks))
    return job.reading(Extraction(len(book.chapters), pages, notices=notices))
