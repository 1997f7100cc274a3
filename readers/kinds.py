"""The one registry of kinds: what each kind of file is to ReadLens, in one place.

A kind's reader is ``readers/formats/<kind>.py`` (one ``read(job)`` each, handed the job by
``readers.formats.read``, which imports it only when a file of that kind is read). A kind says:

- ``unit``: what it calls its pages ("page", "slide", "sheet"), in ranges, headers and citations;
- ``visual``: its pages have images that ``readers.describe`` describes for text-only models;
- ``container``: its pages are its members' (a ZIP, an e-mail), described by their own readings;
- ``package``: a zip of XML parts, checked and repaired (``readers.intake.package``) before its reader opens it;
- ``paged``: its pages come from a PDF (the file, or LibreOffice's or Chromium's print of it);
- ``marks_pictures``: its text marks each picture where it stands (``[Picture: alt text]``), so a figure that
  local OCR finds no text in, or whose words the text already holds, is not named again in VISUAL CONTENT;
- ``mimes``: the MIME types libmagic prints for it (aliases included), which ``readers.intake.detect`` maps to it;
- ``legacy``: the legacy and ODF MIME types LibreOffice converts to this kind, with the extension it is shown;
- ``pdf_filter`` / ``ooxml_filter``: LibreOffice's export filters to PDF and to this OOXML kind.

Legacy and ODF files get the kind of the OOXML reader that reads them after LibreOffice converts
them (a .doc is read as ``docx``); their MIME type says what they were.
"""

from __future__ import annotations

from dataclasses import dataclass, field

PPTX_MIME = "application/vnd.openxmlformats-officedocument.presentationml.presentation"
DOCX_MIME = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
XLSX_MIME = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
XLSM_MIME = "application/vnd.ms-excel.sheet.macroEnabled.12"
DOC_MIME, XLS_MIME, PPT_MIME = "application/msword", "application/vnd.ms-excel", "application/vnd.ms-powerpoint"
MSG_MIME = "application/vnd.ms-outlook"
OOXML_MIMES = (DOCX_MIME, PPTX_MIME, XLSX_MIME, XLSM_MIME)


@dataclass(frozen=True)
class Kind:
    name: str
    unit: str = "page"
    visual: bool = False
    container: bool = False
    package: bool = False
    paged: bool = False
    marks_pictures: bool = False
    mimes: tuple[str, ...] = ()
    legacy: dict[str, str] = field(default_factory=dict)
    pdf_filter: str | None = None
    ooxml_filter: str | None = None


KINDS = {
    kind.name: kind
    for kind in (
        Kind("pdf", visual=True, paged=True, mimes=("application/pdf",)),
        Kind(
            "docx",
            visual=True,
            package=True,
            paged=True,
            marks_pictures=True,
            mimes=(DOCX_MIME,),
            legacy={
                DOC_MIME: "doc",
                "text/rtf": "rtf",
                "application/rtf": "rtf",
                "application/vnd.oasis.opendocument.text": "odt",
            },
            pdf_filter="pdf:writer_pdf_Export",
            ooxml_filter="docx:MS Word 2007 XML",
        ),
        Kind(
            "pptx",
            unit="slide",
            visual=True,
            package=True,
            paged=True,
            marks_pictures=True,
            mimes=(PPTX_MIME,),
            legacy={PPT_MIME: "ppt", "application/vnd.oasis.opendocument.presentation": "odp"},
            pdf_filter="pdf:impress_pdf_Export:"
            '{"ExportHiddenSlides":{"type":"boolean","value":"true"},'
            '"ExportNotesPages":{"type":"boolean","value":"false"}}',
            ooxml_filter="pptx:Impress MS PowerPoint 2007 XML",
        ),
        # A workbook's PDF: one page per sheet, as large as the sheet's used range (hidden sheets too, in order).
        Kind(
            "xlsx",
            unit="sheet",
            visual=True,
            package=True,
            paged=True,
            mimes=(XLSX_MIME, XLSM_MIME),
            legacy={XLS_MIME: "xls", "application/vnd.oasis.opendocument.spreadsheet": "ods"},
            pdf_filter='pdf:calc_pdf_Export:{"SinglePageSheets":{"type":"boolean","value":"true"}}',
            ooxml_filter="xlsx:Calc MS Excel 2007 XML",
        ),
        Kind("csv", mimes=("text/csv", "application/csv", "text/tab-separated-values")),
        Kind("html", visual=True, paged=True, mimes=("text/html", "application/xhtml+xml")),
        Kind("feed", mimes=("application/rss+xml", "application/atom+xml")),
        Kind("epub", package=True, mimes=("application/epub+zip",)),
        Kind("email", container=True, mimes=("message/rfc822", MSG_MIME)),
        Kind("zip", container=True, mimes=("application/zip", "application/x-zip-compressed")),
        Kind(
            "image",
            visual=True,
            mimes=("image/png", "image/jpeg", "image/gif", "image/webp", "image/bmp", "image/x-ms-bmp", "image/tiff"),
        ),
        Kind(
            "audio",
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
        ),
        Kind(
            "text",
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


def kind_of(name: str) -> Kind:
    """The kind named ``name``; one the registry does not know (a ``Reading`` made by hand) has the defaults."""
    return KINDS.get(name) or Kind(name)
