"""Cache versions, one list. Each is part of the names or keys its results are cached under, so
raising it makes every entry cached before miss and be made again. Raise one when a change alters
what it caches; the line beside it says what raising it invalidates.

A key covers everything that shapes what is cached under it, so no entry is ever served for
anything but what made it (never a file's name or path: a renamed file still hits):

- what is cached of one file (pages, renders, workbooks, letters, packages, prints and copies)
  goes through one door, ``readers.storage.files.Store``: each is one of its ``ENTRIES``, filed
  under the file's content hash with the version of what made it in its name; an entry read from
  a print in the cache is named for that print too (``page.v18.office.v1.0001.json``), so a print
  made anew is read anew;
- a figure's OCR (``readers.describe.vision.LocalOCR``) is keyed by the hash of exactly the bytes
  OCR reads — a PDF's figure as rendered (whatever the page draws over it, its palette, masks,
  crop), a deck's or a sheet's picture as the file holds it — and the engine (``OCR_VERSION``,
  the rapidocr release and its models); and, so that a second read renders nothing, by the file's
  content hash, the print it is rendered from, its page, box and dpi, and the engine;
- a vision model's page description by the file's content hash, page, question, model, the
  service's address (``VISION_BASE_URL``), prompt (``PROMPT_VERSION``) and the hashes of the page
  image and the text sent with it;
- a transcript by the recording's content hash, the backend, its model and its service's address,
  the language, the hotwords and ``TRANSCRIPT_VERSION``.

``tests/test_cache_keys.py`` holds each key to every setting that shapes its entry.
"""

# each PDF page's text, tables, figures and placed lines (readers.pdf.pages): PDFs, and Office and web prints
EXTRACTION_VERSION = 40
WORKBOOK_VERSION = 25  # a workbook's sheets, tables, charts and figures (readers.office.sheets)
OFFICE_VERSION = 1  # how LibreOffice converts (settings, walls, links taken out: readers.render.libreoffice): its
# PDFs and OOXML copies, and every page, render, letter and OCR read from them
LETTERS_VERSION = 1  # the letters of a Word document's rendered pages, which blocks are placed by
LINKS_VERSION = 1  # what an Office, ODF or RTF file links outside itself, and its copy without it (readers.intake)
PACKAGE_VERSION = 3  # the check and repair of an Office or EPUB package, Strict OOXML renamed (readers.intake.package)
TEXT_VERSION = (
    4  # a text file's pages (and the code block open at each's start) and a notebook's text (readers.formats.text)
)
RENDER_VERSION = 1  # a PDF page's render, PNG (readers.render.pdfium)
PRINT_VERSION = 1  # a web page printed by Chromium (readers.render.browser)
IMAGE_VERSION = 1  # an image file's frame as the model is sent it (readers.formats.image)
DOCUMENT_VERSION = 1  # the pages read cut into a PDF of their own (readers.payload.document)
FETCH_VERSION = 1  # a file fetched by its URL (readers.intake.fetch)
OCR_VERSION = 7  # how local OCR reads a picture: turns, lines, scales, spaces (readers.describe.ocr)
PROMPT_VERSION = 3  # what the vision model is asked (readers.describe.prompts)
TRANSCRIPT_VERSION = 2  # a recording's transcript (readers.formats.audio); 2: hotwords spelled as given
