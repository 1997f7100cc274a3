"""PDF pages: text and tables with pdfplumber, renders with pdfium, on every core, cached on disk.

Only the requested pages are parsed and rendered: pdfminer's page tree is walked straight to
them, and pdfium opens pages on demand. The pages go in batches to a pool of worker processes,
large batches first and single pages last, so pages of uneven cost keep every core busy to the
end; progress is reported as batches complete, and a page that fails to parse, or takes longer
than ``PAGE_TIMEOUT`` (a setting), or stops its worker (each worker's memory is bounded too), costs
only that page. A page that ran out of time is not called damaged: on a busy machine a good page
can, so the sentence says to try again, and a reading whose pages all ran out of time is ``RENDER_FAILED``,
never ``CORRUPT_FILE``. Where the text comes from elsewhere (a web page, an Office file), a page
that failed only loses its image, with a warning. Each page's
extraction and PNG are stored in the disk cache by content hash, page and dpi, so a second read
touches no parser. ``python -m bench readers`` measures these choices.
"""

from __future__ import annotations

from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from pathlib import Path
from typing import cast

import pdfplumber
import pypdfium2 as pdfium
from pdfminer.pdfdocument import PDFDocument
from pdfminer.pdfpage import PDFPage
from pdfminer.pdftypes import PDFStream, dict_value, int_value, list_value, resolve1

from ..errors import ReaderError
from ..markup.blocks import Block, BlockKind
from ..markup.markdown import markdown_blocks
from ..markup.tables import markdown_table
from ..models import Extraction, FoundFigure, Page
from ..notices import Code, Notice
from ..render.pdfium import checked_page_count, rendered_png
from ..settings import Settings
from ..storage.files import PAGE, PDF_META, RENDER
from .boxes import box_of, centre_in
from .cells import holds_its_words, ruled_rows, table_settings, with_header_above, without_title
from .continued import closes_with_table, continued_tables, opens_with_table
from .figures import find_figures
from .furniture import without_furniture
from .headings import heading_levels
from .layout import page_markdown
from .objects import CharsPage, PlumberPage
from .operators import too_many_operators
from .pdfium_text import mapped, pdfium_page
from .placed import placed_blocks
from .pool import WORKER_MEMORY, by_batches, time_limit, worker_stopped
from .records import Char
from .spelling import drawn_hyphens, joined_words, plain
from .unsure import doubts, parted
from .words import struck_once

TABLE_FILLED = 0.3  # of a ruled grid's cells, holding text: a table (a chart's gridlines leave most empty)
# a table's cell with more words than this, in lines this long on average, is a paragraph in a box; real tables'
# longest cells hold 30 to 50 words, and a long cell of short lines (a ballot's list of names) is still a cell
CELL_WORDS = 60
PROSE_LINE_WORDS = 6
# pdfium reads this many times as many characters as pdfminer, and this many more, where pdfminer lost a page's
# text without an error (a stream it stops in); pdfium counts the spaces and line ends it adds, a fifth more at most
UNREAD_SHARE = 2
UNREAD_CHARS = 100
# pages read before a range, at most, back to the start of a table the range starts inside (for its header): each
# costs one page's extraction without a render (0.1-0.5 s on the corpus's tables, cached for the next read)
CONTINUED_LOOKBACK = 8


def pdfminer_pages(document: PDFDocument, numbers: list[int]) -> dict[int, PDFPage]:
    """The pages numbered ``numbers`` (1-based), by one walk down the page tree.

    pdfplumber builds every page of the document to find a few; this steps over each subtree
    that holds none of the wanted pages by its /Count, and stops after the last one. A kid with
    /Kids is a subtree and any other kid is a page, as pdfium counts them, so the text found for
    page n is the text of the page pdfium renders as page n.
    """
    wanted, last, found, seen = set(numbers), max(numbers), {}, set()

    def visit(node: dict, inherited: dict, before: int) -> None:
        inherited = {**inherited, **{key: node[key] for key in PDFPage.INHERITABLE_ATTRS if key in node}}
        for kid in list_value(node.get("Kids", [])):
            if before >= last:
                return
            attrs = dict_value(kid)
            if "Kids" in attrs:
                count = int_value(attrs.get("Count", 0))
                if any(before < number <= before + count for number in wanted):
                    if kid.objid in seen:
                        raise ValueError("the page tree loops back on itself")
                    seen.add(kid.objid)
                    visit(attrs, inherited, before)
                before += count
            else:
                before += 1
                if before in wanted:
                    found[before] = PDFPage(document, kid.objid, {**inherited, **attrs}, None)

    visit(dict_value(document.catalog["Pages"]), {}, 0)
    return found


def is_table(rows: list[list]) -> bool:
    """A chart's gridlines also make a grid of cells, but a mostly empty one; and boxes drawn round
    prose (a back cover's columns, a figure's callouts) make cells that hold paragraphs beside
    others (a row of notes under a table, its label beside it or not, is the table's own); and a
    grid of one row with text is a header ruled above and below, over a body left unruled or ruled
    apart (``readers.pdf.headed``). A grid refused here is not lost: its text stays in the page's
    text, where a table without rules may still be found in it (the header over its body)."""
    filled = [sum(1 for cell in row if cell not in (None, "")) for row in rows]
    cells = sum(len(row) for row in rows)
    sparse = sum(map(bool, filled)) < 2 or max(filled) < 2 or sum(filled) < TABLE_FILLED * cells
    notes = max((index for index, count in enumerate(filled) if count), default=0) if len(rows) > 2 else None
    boxed_prose = any(  # the last row with text of a longer grid may be its notes ("NOTES: …")
        _is_prose(str(cell))
        for index, (row, count) in enumerate(zip(rows, filled))
        if count > 1 and index != notes
        for cell in row
        if cell
    )
    return not sparse and not boxed_prose


def _is_prose(cell: str) -> bool:
    words = len(cell.split())
    return words > CELL_WORDS and words >= PROSE_LINE_WORDS * len(cell.splitlines())


def _contents(page: PDFPage) -> bytes:
    """The page's content streams, decoded (pdfminer decoded them reading its characters)."""
    streams = (resolve1(item) for item in page.contents)
    return b"".join(stream.get_data() for stream in streams if isinstance(stream, PDFStream))


def _extract_page(pdf, pdfminer_page: PDFPage, document, number: int, dpi: int | None) -> dict:
    whole = PlumberPage(pdf, pdfminer_page, page_number=number)
    pdfium_page = document[number - 1]  # pdfium loads the page anew on each index: once, for text and render
    try:
        textpage = pdfium_page.get_textpage()
        seen = textpage.count_chars()
        textpage.close()
        if seen > UNREAD_SHARE * len(whole.chars) + UNREAD_CHARS:  # pdfminer lost most of the page's text
            raise ValueError(f"it read {len(whole.chars)} of the {seen} characters pdfium reads")
        # Every reader of the page's characters (its tables' cells, its text, its figures) gets them
        # struck once, with each glyph pdfminer cannot map read by pdfium (or left out and counted),
        # and only those on the page: a spread's pages each hold the whole spread's text, half off the page;
        # a soft hyphen the page draws as a dash is one.
        chars = drawn_hyphens(struck_once(cast(list[Char], whole.chars)))
        chars, unmapped = mapped(chars, pdfium_page, _contents(pdfminer_page))
        if not all(centre_in(box_of(char), [whole.bbox]) for char in chars):
            chars = [char for char in chars if centre_in(box_of(char), [whole.bbox])]
        page = CharsPage(whole, cast(list[dict], chars)) if chars is not whole.chars else whole
        settings = table_settings(page)
        grids = [
            (table.bbox, plain(markdown_table(rows)), rows, lefts)
            for found in (page.find_tables(settings) if settings else [])
            if holds_its_words(table := with_header_above(without_title(found)))
            for rows, lefts in [ruled_rows(table)]
            if rows
        ]
        tables = [grid for grid in grids if grid[1] and is_table(grid[2])]
        heads = [grid for grid in grids if grid[1] and len(grid[2]) == 1 and not is_table(grid[2])]
        figures = [
            {**figure, "caption": figure["caption"] and plain(figure["caption"])}
            for figure in find_figures(page, [grid[0] for grid in tables])
        ]
        text, found, beside, placed = page_markdown(page, tables, heads, figures)
        has_text = bool(page.chars)
        page.close()  # its caches form reference cycles; free the parsed objects now, not at the next GC
        whole.close()
        bitmap = (
            pdfium_page.render(scale=dpi / 72, rev_byteorder=True) if dpi else None
        )  # RGB order: no BGR swap before encoding
    finally:
        pdfium_page.close()
    text = plain(text)
    found = sorted(map(plain, found), key=text.find)
    apart, pieces = {plain(markdown) for markdown in beside}, parted(text, found)
    return {
        "number": number,
        "text": text,
        "tables": found,
        "doubts": [doubts(markdown, markdown in apart, n in pieces) for n, markdown in enumerate(found)],
        "has_text": has_text,
        "unmapped": unmapped,
        "figures": figures,
        "placed": placed,
        "png": rendered_png(bitmap) if bitmap else None,
    }


def _failed(number: int, error: Exception | str) -> dict:
    """A page that could not be read: ``error`` is what failed, or why the page holds more than is read."""
    held = isinstance(error, str)
    return {
        "number": number,
        "error": error if held else f"{type(error).__name__}: {error}",
        "late": isinstance(error, TimeoutError),
        "complex": held,
    }


@contextmanager
def _page_limit(number: int, results: list[dict], timeout: float):
    """Run the block within ``timeout`` (it gets the list that holds the time-out once it fired); a
    page whose block fails is added to ``results`` as failed, as run out of time if the limit fired
    first (whatever error the parser turned it into)."""
    expired = []
    try:
        with time_limit(timeout) as expired:
            yield expired
    except Exception as error:  # a damaged page costs that page only
        results.append(_failed(number, expired[0] if expired else error))


def extract_pages(path: str, numbers: list[int], dpi: int | None, timeout: float = Settings.page_timeout) -> list[dict]:
    """Text, Markdown tables and a PNG (none when ``dpi`` is None) for each 1-based page in
    ``numbers``, each within ``timeout`` seconds (and the walk down the page tree to them too);
    runs in a worker.

    A page whose content streams hold more than either engine reads in a page's time
    (``readers.pdf.operators``) is not interpreted at all. A page pdfminer cannot parse (or find) is
    read from pdfium's characters (``readers.pdf.pdfium_text``, which says so in its ``read_by``); one
    that neither can read comes back as ``{"number": n, "error": "...", "late": bool, "complex":
    bool}``, ``late`` when it ran out of time, ``complex`` when it holds too much.
    """
    with open(path, "rb") as stream:
        expired, pdf, parsed, unparsed = [], None, {}, None
        try:
            pdf = pdfplumber.PDF(stream, stream_is_external=True)
            with time_limit(timeout) as expired:  # the walk to the pages, within one page's time
                parsed = pdfminer_pages(pdf.doc, numbers)
        except Exception as error:  # pdfminer cannot read the file: pdfium may
            if expired:
                return [_failed(number, expired[0]) for number in numbers]
            unparsed = error
        try:
            document = pdfium.PdfDocument(path)
        except Exception as error:  # the file is unreadable here; the caller decides what that means
            return [_failed(number, unparsed or error) for number in numbers]
        results: list[dict] = []
        counted: dict = {}
        try:
            for number in numbers:
                with _page_limit(number, results, timeout) as expired:
                    if number in parsed and (held := too_many_operators(parsed[number], counted)):
                        results.append(_failed(number, held))
                        continue
                    try:
                        if number not in parsed:
                            raise unparsed or ValueError(f"page {number} is missing from the page tree")
                        results.append(_extract_page(pdf, parsed[number], document, number, dpi))
                    except Exception as error:
                        if expired:
                            raise
                        results.append(pdfium_page(document, number, dpi, error))
        finally:
            document.close()
    return results


def _lost(job, number: int, failed: dict, text_from_pdf: bool, notices: list[Notice]) -> Page:
    """The page ``number`` whose extraction ``failed``, with a notice: without its image where its
    text comes from elsewhere, else with an error that says to try again if it ran out of time, or
    that it is damaged."""
    late = f"took longer than {job.settings.page_timeout:g} s (PAGE_TIMEOUT; the machine may be busy)"
    if not text_from_pdf:
        why = f"its render {late}; try again" if failed["late"] else f"its render failed ({failed['error']})"
        notices.append(
            Notice(Code.NO_IMAGES, f"Page {number} of {job.name} has no image: {why}. Its text is still read.", number)
        )
        return Page(number=number)
    if failed["late"]:
        notices.append(
            Notice(Code.TIMED_OUT, f"Page {number} of {job.name} {late} and could not be read. Try again.", number)
        )
        return Page(number=number, error=f"This page {late} and could not be read. Try again.")
    if failed.get("complex"):
        notices.append(Notice(Code.CUT, f"Page {number} of {job.name} was left out: {failed['error']}.", number))
        return Page(number=number, error=f"This page was left out: {failed['error']}.")
    damaged = f"is damaged and could not be read ({failed['error']})"
    notices.append(Notice(Code.DAMAGED, f"Page {number} of {job.name} {damaged}.", number))
    return Page(number=number, error=f"This page {damaged}.")


def _extract(job, pdf_path: Path, numbers: list[int], dpi: int | None):
    """Yield each page's extraction as its batch finishes; a page that failed has an "error", a page
    that stopped its worker among them (``pool.by_batches``). Past the reading's time budget the pool
    stops the batches under way and this raises ``TOO_COMPLEX``."""
    try:
        for result in by_batches(extract_pages, str(pdf_path), numbers, dpi, job.settings.page_timeout):
            if "stopped" in result:
                why = f"{result['stopped']} on it: it needs more memory than a PDF worker may hold "
                result = _failed(result["number"], f"{why}({WORKER_MEMORY >> 20} MB), or it crashes the engine")
                result["stopped"] = True
            yield result
    except BrokenProcessPool:
        raise worker_stopped(f"The PDF workers were shut down while reading {job.name}. Try again.") from None


def _preview(job, number: int, entry: dict, text_from_pdf: bool) -> None:
    """Hand the page to ``job.preview`` as the page alone gives it: its text (when it comes from this
    PDF), with its furniture and headings settled on it alone, and its render."""
    if job.preview is None:
        return
    text = heading_levels([without_furniture({number: entry["text"]})[0][number]])[0] if text_from_pdf else ""
    figures = [FoundFigure.of(found).figure for found in entry["figures"]]
    blocks = _blocks(text, entry["tables"], [], entry["placed"])
    job.preview(Page(number=number, blocks=blocks, image=entry["png"], figures=figures))


def _blocks(text: str, tables: list[str], furniture: list[str], placed: list) -> list[Block]:
    """The page's blocks: its text's, a table the text does not hold after them, its furniture last;
    each where the layout ``placed`` its lines (``readers.pdf.placed``)."""
    blocks = markdown_blocks(text)
    held = {block.text for block in blocks}
    blocks += [block for table in tables if table not in held for block in markdown_blocks(table)]
    blocks += [Block(BlockKind.FURNITURE, line) for line in furniture]
    return placed_blocks(blocks, [(line, tuple(box), chart) for line, box, chart in placed])


def _page_entry(job, pdf_path: Path, cache_key: str, page_part: str, number: int) -> dict | None:
    """Page ``number``'s extraction from the cache, or extracted now without a render (and cached);
    None if it cannot be read."""
    store, part = job.services.store, page_part.format(number)
    entry = store.get_json(cache_key, PAGE, part)
    if entry is None:
        entry = list(_extract(job, pdf_path, [number], None))[0]
        if "error" in entry:
            return None
        entry.pop("png")
        store.put_json(cache_key, PAGE, entry, part)
    return entry


def _lead_in(
    job, pdf_path: Path, cache_key: str, page_part: str, first: int, found: dict[int, dict]
) -> dict[int, dict]:
    """The extractions of the pages before ``first`` (a range's first page) that a table ``first``
    starts with runs on from, back to the page the table starts on, ``CONTINUED_LOOKBACK`` at most
    (``readers.pdf.continued``): each page read back ends with a table; the reading back stops at one
    that starts with none, at a page that cannot be read, or after ``CONTINUED_LOOKBACK`` pages. None if
    ``first`` starts with no table or the page before it ends with none."""
    lead: dict[int, dict] = {}

    def texts() -> dict[int, str]:
        return without_furniture({number: entry["text"] for number, entry in sorted({**lead, **found}.items())})[0]

    number = first
    while first in found and number > 1 and first - number < CONTINUED_LOOKBACK and opens_with_table(texts()[number]):
        entry = _page_entry(job, pdf_path, cache_key, page_part, number - 1)
        if entry is None:
            break
        lead[number - 1] = entry
        if not closes_with_table(texts()[number - 1]):  # the table starts on the page after it
            del lead[number - 1]
            break
        number -= 1
    return lead


def read_pdf_pages(job, pdf_path: Path, cache_key: str, text_from_pdf: bool = True, render: bool = True) -> Extraction:
    """``pdf_path``'s page count, its selected pages, and each page's figures as found, with the
    notices (an ``Extraction``); ``cache_key`` is the content hash entries go under, named for the
    PDF they are read from when it is a print in the cache (``office.v1.pdf``: its version is its
    maker's). ``render=False`` makes no page images (a page read before keeps the one it has in the cache).

    ``text_from_pdf=False`` when the caller takes the text from elsewhere (a deck's slides, a web
    page's HTML), so what the PDF's text layer lacks (all of it, or glyphs with no map) is not
    reported. Reports ``job.progress("rendered", done, total)`` as pages come from the cache or a
    worker."""
    store, dpi = job.services.store, job.settings.render_dpi
    printed = pdf_path.name if store.holds(cache_key, pdf_path) else ""
    meta = store.get_json(cache_key, PDF_META, printed)
    if meta is None:
        meta = {"page_count": checked_page_count(pdf_path, job.name)}
        store.put_json(cache_key, PDF_META, meta, printed)
    notices: list[Notice] = []
    numbers = job.select(meta["page_count"], notices)
    found: dict[int, dict] = {}
    page_part = (f"{printed}." if printed else "") + "{:04d}"
    for number in numbers:
        entry = store.get_json(cache_key, PAGE, page_part.format(number))
        png = store.get_bytes(cache_key, RENDER, f"{page_part.format(number)}-{dpi}dpi")
        if entry is not None and (png is not None or not render):
            found[number] = {**entry, "png": png}
    job.progress("rendered", len(found), len(numbers))
    for number, entry in found.items():
        _preview(job, number, entry, text_from_pdf)
    failed: dict[int, dict] = {}
    missing = [n for n in numbers if n not in found]
    for done, result in enumerate(
        _extract(job, pdf_path, missing, dpi if render else None) if missing else (), len(found) + 1
    ):
        number = result["number"]
        if "error" in result:
            failed[number] = result
        else:
            png = result.pop("png")
            if png is not None:
                store.put_bytes(cache_key, RENDER, png, f"{page_part.format(number)}-{dpi}dpi")
            store.put_json(cache_key, PAGE, result, page_part.format(number))
            found[number] = {**result, "png": png}
            _preview(job, number, found[number], text_from_pdf)
        job.progress("rendered", done, len(numbers))
    if not found and text_from_pdf:
        first, limit = failed[numbers[0]]["error"], job.settings.page_timeout
        if any(result.get("stopped") for result in failed.values()):
            raise worker_stopped(
                f"A PDF worker process stopped on every page of {job.name} read: the file may be damaged, or the "
                "machine ran out of memory. Try again; if it fails again, the file is the cause."
            )
        if all(result.get("complex") for result in failed.values()):
            raise ReaderError(
                "TOO_COMPLEX",
                f"{job.name} could not be read: on every page read, {first}. It may be built to stall readers.",
            )
        if any(result["late"] for result in failed.values()):
            raise ReaderError(
                "RENDER_FAILED",
                f"{job.name} could not be read in time: its pages took longer than {limit:g} s each "
                f"(PAGE_TIMEOUT; {first}). The machine may be busy: try again, or raise PAGE_TIMEOUT.",
            )
        raise ReaderError(
            "CORRUPT_FILE",
            f"{job.name} is damaged: none of its pages could be read ({first}). Export or download it again.",
        )
    read = {**(_lead_in(job, pdf_path, cache_key, page_part, numbers[0], found) if text_from_pdf else {}), **found}
    texts, furniture = without_furniture({number: entry["text"] for number, entry in sorted(read.items())})
    texts = dict(zip(texts, joined_words(heading_levels(list(texts.values())))))
    texts, tables = continued_tables(texts, {number: entry["tables"] for number, entry in read.items()})
    pages, found_figures = [], {}
    for number in numbers:
        if number in failed:
            pages.append(_lost(job, number, failed[number], text_from_pdf, notices))
            continue
        entry = found[number]
        if text_from_pdf and not entry["has_text"] and entry["figures"]:  # not a blank page
            notices.append(
                Notice(
                    Code.NO_TEXT_LAYER,
                    f"Page {number} has no text layer (a scan or a picture): its text is what local OCR reads "
                    "in its picture, and a vision model (VISION_PROVIDER) describes it.",
                    number,
                )
            )
        if text_from_pdf and entry.get("read_by"):
            notices.append(
                Notice(
                    Code.OTHER_READER,
                    f"Page {number} of {job.name} was read by pdfium, without its ruled tables, figures and links: "
                    f"pdfminer could not read it ({entry['read_by']}).",
                    number,
                )
            )
        if text_from_pdf and entry["unmapped"]:
            count = entry["unmapped"]
            notices.append(
                Notice(
                    Code.UNMAPPED_GLYPHS,
                    f"Page {number} of {job.name}: {count} {'character' if count == 1 else 'characters'} "
                    "could not be read and "
                    f"{'was' if count == 1 else 'were'} left out (the font has no map from its glyphs to text).",
                    number,
                )
            )
        unsure = [index for index, reasons in enumerate(entry["doubts"]) if reasons] if text_from_pdf else []
        for index in unsure:
            notices.append(
                Notice(
                    Code.TABLE_UNSURE,
                    f"Page {number} of {job.name}: table {index + 1} may be read wrong "
                    f"({'; '.join(entry['doubts'][index])}). Check it against the page.",
                    number,
                )
            )
        found_figures[number] = [FoundFigure.of(figure) for figure in entry["figures"]]
        figures = [found.figure for found in found_figures[number]]
        pages.append(
            Page(
                number=number,
                blocks=_blocks(
                    texts[number],
                    tables[number],
                    furniture[number] if text_from_pdf else [],
                    entry["placed"] if text_from_pdf else [],
                ),
                image=entry["png"],
                figures=figures,
                unsure_tables=unsure,
            )
        )
    return Extraction(meta["page_count"], pages, pdf_path, found_figures, notices)
