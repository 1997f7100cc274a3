"""Cache versions, one list. Each is part of the names or keys its results are cached under, so
raising it makes every entry cached before miss and be made again. Raise one when a change alters
what it caches; the line beside it says what raising it invalidates.

Descriptions and transcripts are keyed by content hash too (``readers.storage.descriptions``), so
a renamed file still hits; what a vision model is asked and which OCR engine reads are in their
keys as well (``PROMPT_VERSION``, ``OCR_VERSION`` with the rapidocr release and its models).
"""

EXTRACTION_VERSION = 16  # each PDF page's text, tables and figures (readers.pdf.pages): PDFs, and Office and web prints
WORKBOOK_VERSION = 13  # a workbook's sheets, tables, charts and figures (readers.office.sheets)
LETTERS_VERSION = 1  # the letters of a Word document's rendered pages, which blocks are placed by
PACKAGE_VERSION = 2  # the check and repair of an Office or EPUB package, Strict OOXML renamed (readers.intake.package)
TEXT_VERSION = 2  # a text file's pages and a notebook's text (readers.formats.text)
OCR_VERSION = 7  # how local OCR reads a picture: turns, lines, scales, spaces (readers.describe.ocr)
PROMPT_VERSION = 3  # what the vision model is asked (readers.describe.prompts)
TRANSCRIPT_VERSION = 1  # a recording's transcript (readers.formats.audio)
