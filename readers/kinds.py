"""The one registry of kinds: what each kind of file is to ReadLens, in one place. A format is added
here and in its reader's module, and nowhere else: dispatch (``readers.formats.read``), detection
by name (``readers.intake.detect``), the supported list (``SUPPORTED``) and the docs' list of
formats (``docs/formats.md``, held to it by ``tests/test_docs.py``) come from this table.

A kind's reader is ``readers/formats/<reader>.py`` (one ``read(job)`` each, handed the job by
``readers.formats.read``, which imports it only when a file of that kind is read). A kind says:

- ``reader``: its reader's module in ``readers/formats``;
- ``listed``: how the supported list and the docs name it, with the file types it reads;
- ``names``: the extensions that promise it (a file named so but holding another kind is read with a
  warning); ``text_names`` those that make a text file this kind (text has no magic number), each
  with the MIME type it means; ``plain``: its files are text, so that one named as another plain
  kind is no surprise;
- ``unit``: what it calls its pages ("page", "slide", "sheet", "frame"), in ranges, headers and citations;
- ``picture``: a file that is a picture: each page is its own one figure, headed by the file's name
  (``[IMAGE: name.png]``, ``[IMAGE: name.gif - FRAME 3]``), its text (metadata) no context for describing it;
- ``transcribed``: a recording, read as its transcript (one page inside a container);
- ``visual``: its pages have images that ``readers.describe`` describes for text-only models;
- ``container``: its pages are its members' (a ZIP, an e-mail), described by their own readings;
- ``package``: a zip of XML parts, checked and repaired (``readers.intake.package``) before its reader opens it;
- ``paged``: its pages come from a PDF (the file, or LibreOffice's or Chromium's print of it);
- ``marks_pictures``: its text marks each picture where it stands (``[Picture: alt text]``), so a figure that
  local OCR finds no text in, or whose words the text already holds, is not named again in VISUAL CONTENT;
- ``mimes``: the MIME types libmagic prints for it (aliases included), which ``readers.intake.detect`` maps to it;
  ``shown``: an alias among them and the one type a reading gives for it (``audio/x-wav`` is ``audio/wav``);
- ``zip_parts``, ``ole_streams``, ``xml_roots``: what a zip, an OLE compound file or an XML file holds that makes
  it this kind, each with the MIME type it means (``word/document.xml``, a ``WordDocument`` stream, an ``<rss>``
  root), for ``readers.intake.detect``;
- ``legacy``: the legacy and ODF MIME types LibreOffice converts to this kind, with the extension it is shown;
- ``pdf_filter`` / ``ooxml_filter``: LibreOffice's export filters to PDF and to this OOXML kind.

Legacy and ODF files get the kind of the OOXML reader that reads them after LibreOffice converts
them (a .doc is read as ``docx``); their MIME type says what they were. ``text`` is the kind of any
other text.
"""

from __future__ import annotations

from dataclasses import dataclass, field

PPTX_MIME = "application/vnd.openxmlformats-officedocument.presentationml.presentation"
DOCX_MIME = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
XLSX_MIME = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
XLSM_MIME = "application/vnd.ms-excel.sheet.macroEnabled.12"
DOC_MIME, XLS_MIME, PPT_MIME = "application/msword", "application/vnd.ms-excel", "application/vnd.ms-powerpoint"
ODT_MIME, ODP_MIME, ODS_MIME = (
    "application/vnd.oasis.opendocument.text",
    "application/vnd.oasis.opendocument.presentation",
    "application/vnd.oasis.opendocument.spreadsheet",
)
TSV_MIME = "text/tab-separated-values"
MSG_MIME = "application/vnd.ms-outlook"
OOXML_MIMES = (DOCX_MIME, PPTX_MIME, XLSX_MIME, XLSM_MIME)


@dataclass(frozen=True)
class Kind:
    name: str
    reader: str = ""
    listed: str = ""
    names: tuple[str, ...] = ()
    text_names: dict[str, str] = field(default_factory=dict)
    plain: bool = False
    unit: str = "page"
    picture: bool = False
    transcribed: bool = False
    visual: bool = False
    container: bool = False
    package: bool = False
    paged: bool = False
    marks_pictures: bool = False
    mimes: tuple[str, ...] = ()
    shown: dict[str, str] = field(default_factory=dict)
    zip_parts: dict[str, str] = field(default_factory=dict)
    ole_streams: dict[str, str] = field(default_factory=dict)
    xml_roots: dict[str, str] = field(default_factory=dict)
    legacy: dict[str, str] = field(default_factory=dict)
    pdf_filter: str | None = None
    ooxml_filter: str | None = None


KINDS = {
    kind.name: kind
    for kind in (
        Kind("pdf", reader="pdf", listed="PDF", names=(".pdf",), visual=True, paged=True, mimes=("application/pdf",)),
        Kind(
            "docx",
            reader="docx",
            listed="Word (DOCX, DOC, RTF, ODT)",
            names=(".docx", ".doc", ".rtf", ".odt"),
            visual=True,
            package=True,
            paged=True,
            marks_pictures=True,
            mimes=(DOCX_MIME,),
            shown={"application/rtf": "text/rtf"},
            zip_parts={"word/document.xml": DOCX_MIME},
            ole_streams={"worddocument": DOC_MIME},
            legacy={DOC_MIME: "doc", "text/rtf": "rtf", "application/rtf": "rtf", ODT_MIME: "odt"},
            pdf_filter="pdf:writer_pdf_Export",
            ooxml_filter="docx:MS Word 2007 XML",
        ),
        Kind(
            "pptx",
            reader="pptx",
            listed="PowerPoint (PPTX, PPT, ODP)",
            names=(".pptx", ".ppt", ".odp"),
            unit="slide",
            visual=True,
            package=True,
            paged=True,
            marks_pictures=True,
            mimes=(PPTX_MIME,),
            zip_parts={"ppt/presentation.xml": PPTX_MIME},
            ole_streams={"powerpoint document": PPT_MIME},
            legacy={PPT_MIME: "ppt", ODP_MIME: "odp"},
            pdf_filter="pdf:impress_pdf_Export:"
            '{"ExportHiddenSlides":{"type":"boolean","value":"true"},'
            '"ExportNotesPages":{"type":"boolean","value":"false"}}',
            ooxml_filter="pptx:Impress MS PowerPoint 2007 XML",
        ),
        # A workbook's PDF: one page per sheet, as large as the sheet's used range (hidden sheets too, in order).
        Kind(
            "xlsx",
            reader="xlsx",
            listed="spreadsheets (XLSX, XLSM, XLS, ODS)",
            names=(".xlsx", ".xlsm", ".xls", ".ods"),
            unit="sheet",
            visual=True,
            package=True,
            paged=True,
            mimes=(XLSX_MIME, XLSM_MIME),
            zip_parts={"xl/workbook.xml": XLSX_MIME},
            ole_streams={"workbook": XLS_MIME, "book": XLS_MIME},
            legacy={XLS_MIME: "xls", ODS_MIME: "ods"},
            pdf_filter='pdf:calc_pdf_Export:{"SinglePageSheets":{"type":"boolean","value":"true"}}',
            ooxml_filter="xlsx:Calc MS Excel 2007 XML",
        ),
        Kind(
            "csv",
            reader="csv",
            listed="tables as text (CSV, TSV)",
            text_names={".csv": "text/csv", ".tsv": TSV_MIME, ".tab": TSV_MIME},
            plain=True,
            mimes=("text/csv", "application/csv", TSV_MIME),
            shown={"application/csv": "text/csv"},
        ),
        Kind(
            "html",
            reader="html",
            listed="web pages (HTML, XHTML)",
            text_names={".html": "text/html", ".htm": "text/html", ".xhtml": "application/xhtml+xml"},
            plain=True,
            visual=True,
            paged=True,
            mimes=("text/html", "application/xhtml+xml"),
            xml_roots={"html": "application/xhtml+xml"},
        ),
        Kind(
            "feed",
            reader="feed",
            listed="RSS and Atom feeds",
            plain=True,
            mimes=("application/rss+xml", "application/atom+xml"),
            xml_roots={"rss": "application/rss+xml", "feed": "application/atom+xml", "rdf:rdf": "application/rss+xml"},
        ),
        Kind("epub", reader="epub", listed="EPUB", names=(".epub",), package=True, mimes=("application/epub+zip",)),
        Kind(
            "email",
            reader="email",
            listed="e-mail (EML, MSG)",
            names=(".msg",),
            text_names={".eml": "message/rfc822"},
            plain=True,
            container=True,
            mimes=("message/rfc822", MSG_MIME),
            ole_streams={"__properties_version1.0": MSG_MIME},
        ),
        Kind(
            "zip",
            reader="zip",
            listed="ZIP archives",
            names=(".zip",),
            container=True,
            mimes=("application/zip", "application/x-zip-compressed"),
            shown={"application/x-zip-compressed": "application/zip"},
        ),
        Kind(
            "image",
            reader="image",
            listed="images (PNG, JPEG, GIF, WebP, BMP, TIFF)",
            names=(".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp", ".tif", ".tiff"),
            unit="frame",
            picture=True,
            visual=True,
            mimes=("image/png", "image/jpeg", "image/gif", "image/webp", "image/bmp", "image/x-ms-bmp", "image/tiff"),
            shown={"image/x-ms-bmp": "image/bmp"},
        ),
        Kind(
            "audio",
            reader="audio",
            listed="audio (WAV, MP3, M4A, FLAC, OGG, WebM)",
            names=(".wav", ".mp3", ".m4a", ".flac", ".ogg", ".webm"),
            transcribed=True,
            mimes=(
                "audio/x-wav",
                "audio/wav",
                "audio/vnd.wave",
                "audio/flac",
                "audio/x-flac",
                "audio/mpeg",
                "audio/mp4",
                "audio/x-m4a",
                "audio/aac",
                "audio/x-hx-aac-adts",
                "audio/ogg",
                "audio/opus",
                "audio/webm",
                "video/webm",
                "video/mp4",
            ),
            shown={
                "audio/x-wav": "audio/wav",
                "audio/vnd.wave": "audio/wav",
                "audio/x-flac": "audio/flac",
                "video/webm": "audio/webm",
                "audio/x-m4a": "audio/mp4",
                "video/mp4": "audio/mp4",
                "audio/x-hx-aac-adts": "audio/aac",
            },
        ),
        Kind(
            "text",
            reader="text",
            listed="text files (TXT, Markdown, JSON, notebooks, source code)",
            names=(".txt", ".md", ".json"),
            plain=True,
            mimes=(
                "application/json",
                "application/x-ndjson",
                "application/javascript",
                "application/xml",
                "image/svg+xml",
            ),
        ),
    )
}
KIND_BY_MIME = {mime: kind.name for kind in KINDS.values() for mime in (*kind.mimes, *kind.legacy)}
SOURCE_EXTENSION = {mime: extension for kind in KINDS.values() for mime, extension in kind.legacy.items()}
KIND_BY_SUFFIX = {suffix: kind.name for kind in KINDS.values() for suffix in (*kind.names, *kind.text_names)}
MIME_BY_TEXT_SUFFIX = {suffix: mime for kind in KINDS.values() for suffix, mime in kind.text_names.items()}
SHOWN_MIME = {alias: mime for kind in KINDS.values() for alias, mime in kind.shown.items()}
MIME_BY_ZIP_PART = {part: mime for kind in KINDS.values() for part, mime in kind.zip_parts.items()}
MIME_BY_OLE_STREAM = {stream: mime for kind in KINDS.values() for stream, mime in kind.ole_streams.items()}
MIME_BY_XML_ROOT = {root: mime for kind in KINDS.values() for root, mime in kind.xml_roots.items()}
SUPPORTED = "; ".join(kind.listed for kind in KINDS.values())  # every kind, as the docs list them


def kind_of(name: str) -> Kind:
    """The kind named ``name``; one the registry does not know (a ``Reading`` made by hand) has the defaults."""
    return KINDS.get(name) or Kind(name)
