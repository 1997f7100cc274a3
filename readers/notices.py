"""What a reading tells the person beside its pages: each ``Notice`` has a stable ``code``, the
contract (the app, the API, MCP and batch select by it; ``docs/api.md`` lists them), and a ``text``
written for a person, which may be reworded freely. How a page's description was made is a
``Described``, not the sentence shown with it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Code(StrEnum):
    """What a notice is about."""

    MISNAMED = "misnamed"  # the file's name promises another kind than its content is
    LINKED_CONTENT = "linked_content"  # content the file links outside itself, never loaded
    PAGES_LIMITED = "pages_limited"  # more pages than MAX_PAGES asked for: a range of them was read
    PART_OF_FILE = "part_of_file"  # the pages read are a range of a longer file: the others were not read
    CUT = "cut"  # content past a bound (rows, columns, comments, characters, recipients) left out
    SIMPLIFIED = "simplified"  # structure past what can be followed (nesting) read flat or left out
    DAMAGED = "damaged"  # a part, page, frame, slide, chart or member damaged: read as far as it goes
    TOO_LARGE = "too_large"  # a frame past the size ReadLens reads, left out
    NO_IMAGES = "no_images"  # page images could not be made (LibreOffice or Chromium missing or failed)
    UNWALLED = "unwalled"  # LibreOffice or Chromium ran without the walls this machine cannot make
    TEXT_PAGES = "text_pages"  # pages cut from the text at its blocks, not printed ones
    TIMED_OUT = "timed_out"  # a page took longer than PAGE_TIMEOUT: try again
    NOT_PLACED = "not_placed"  # passages or pictures not found on the rendered pages
    TRACKED_CHANGES = "tracked_changes"  # read as if every change were accepted
    ENCODING = "encoding"  # bytes not valid in the text's encoding, each read as U+FFFD
    FORMULAS = "formulas"  # a workbook saved without its formulas' results
    NUMBER_FORMATS = "number_formats"  # number formats that could not be applied: raw values shown
    NO_TEXT_LAYER = "no_text_layer"  # a page without a text layer, read by OCR
    OTHER_READER = "other_reader"  # a page read by pdfium, pdfminer having failed on it
    UNMAPPED_GLYPHS = "unmapped_glyphs"  # characters whose font has no map to text, left out
    TABLE_UNSURE = "table_unsure"  # a PDF page's table that may be read wrong (readers.pdf.unsure says why)
    TRANSCRIBER = "transcriber"  # a recording transcribed by another backend than the first, or with a caveat
    NO_SPEECH = "no_speech"  # a recording in which no speech was found
    NOT_ANSWERED = "not_answered"  # a question local OCR cannot answer: pages described without it
    RATE_LIMITED = "rate_limited"  # a visitor's vision calls past the per-minute limit (public mode)
    DESCRIBE_FAILED = "describe_failed"  # a figure local OCR could not read
    MEMBER_NOT_READ = "member_not_read"  # a file inside an archive or e-mail that could not be read
    NOTICES_CUT = "notices_cut"  # more notices than a reading gives: the rest left out


@dataclass(frozen=True)
class Notice:
    """One thing a reading says to the person: its ``code`` (``Code``), its ``text``, and the ``page``
    (slide, sheet, frame) it is about, None when it is about the file."""

    code: Code
    text: str
    page: int | None = None

    def __str__(self) -> str:
        return self.text


def part_of_file(name: str, unit: str, first: int, last: int, count: int) -> Notice:
    """The notice that a reading of ``name`` holds its ``unit``s (page, slide, sheet ...) ``first``
    to ``last`` only, of ``count``."""
    read = f"{unit} {first} was" if first == last else f"{unit}s {first}-{last} were"
    return Notice(Code.PART_OF_FILE, f"{name} has {count} {unit}s; {read} read, not the others.")


CACHED = " (cached)"  # how a description's or a transcript's source says it came from the cache (not in public mode)


class Described(StrEnum):
    """How a page's description came to be (``Page.described``)."""

    VISION = "vision"  # a vision model described the page
    OCR = "ocr"  # local OCR read the text in its figures
    TEXT_ONLY = "text_only"  # nothing to see beyond its text: not described
    LIMITED = "limited"  # not described: the visitor's limit on vision calls (public mode)
    FAILED = "failed"  # describing it failed; the page's error says why
