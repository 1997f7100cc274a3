"""Spreadsheets (XLSX, XLSM; XLS and ODS arrive as LibreOffice's XLSX copy): a page per sheet.

Each page is the sheet's name as a heading, whether it is hidden, and its used range, top to
bottom, as Markdown tables (one per block of rows between empty rows, and per table where tables
stand side by side; labels alone on their rows as lines of text) of the values a person sees: a
formula's computed value, numbers and dates in the cell's number format, merged cells' value in
every cell they span, links with their targets; then each chart, worded as Word's and
PowerPoint's are (``drawings``: "Chart: title (kind chart)" over its series) with the values of
the cells it points at; then the sheet's comments, each naming its cell (``sheet_comments``). A sheet
longer than ``MAX_SHEET_ROWS`` rows or wider than ``MAX_SHEET_COLUMNS`` is cut, and says so; a
workbook that merges more than ``MAX_MERGED_CELLS`` cells is refused. Page images are LibreOffice
Calc's PDF, one page per sheet. Formulas saved without their results (files written by libraries)
are recalculated by LibreOffice. The extraction is cached by content hash, so a workbook is
parsed once.
"""

from __future__ import annotations

import dataclasses
import functools
import re
import warnings
import zipfile
from dataclasses import replace
from pathlib import Path

import openpyxl
from openpyxl.utils.cell import get_column_letter, range_to_tuple
from openpyxl.worksheet.worksheet import Worksheet

from ..errors import ReaderError, described, on_time
from ..intake.package import without
from ..markup.blocks import Block, BlockKind, paragraphs
from ..markup.charts import chart_block, chart_heading, chart_rows
from ..markup.markdown import heading_block
from ..markup.tables import MAX_SHEET_ROWS
from ..models import Extraction, FoundFigure, Page
from ..notices import Code, Notice
from ..pdf.pages import read_pdf_pages
from ..render.libreoffice import office_pdf, ooxml_copy
from ..storage.files import WORKBOOK
from .drawings import chart_kind
from .numbers import display
from .sheet_blocks import grid_blocks
from .sheet_bounds import MAX_SHEET_COLUMNS, bounded_workbook
from .sheet_comments import comment_lines, threads
from .sheet_figures import SheetPlaces, sheet_places, without_missing_images

MAX_MERGED_CELLS = 100_000  # openpyxl takes about a second to load that many merged cells
MERGE_REF = re.compile(rb'<(?:\w+:)?mergeCell\b[^>]*?\bref="([A-Za-z]+)(\d+):([A-Za-z]+)(\d+)"')
# openpyxl's warnings that it left out or changed something a page would show: a drawing it cannot
# parse, a chart it cannot read, a comment on a merged cell, a sheet the workbook names wrongly, a date
# it cannot hold (shown as #VALUE!). Its warnings about pictures it drops are not among them
# (``sheet_places`` reads every picture itself); the rest are about formatting it would not write
# back (styles, extensions, headers, conditional formats), which a page does not show.
OPENPYXL_LOSSES = (
    "Shapes and drawings will be lost",
    "Unable to read chart",
    "comment which will be removed",
    "invalid specification",
    "outside the limits for dates",
)
BEFORE_A = ord("A") - 1  # a column letter's byte less this counts A to Z as 1 to 26
SHOWN_FORMAT = 40  # characters of a number format that could not be applied, quoted in the warning


def _cell_text(cell, formula: str | None, bad_formats: set[str]) -> str:
    if cell.value is None and formula:
        return formula  # no stored result and no LibreOffice to compute one: show what it computes
    text = display(cell.value, cell.number_format, bad_formats)
    link = cell.hyperlink
    target = (link.target or (f"#{link.location}" if link.location else None)) if link else None
    return f"[{text}]({target})" if target and text else text


def _text_of(label, book) -> str:
    """The text of a chart title or series name: rich text paragraphs, a string reference, or a value."""
    if label is None:
        return ""
    text = getattr(label, "tx", label)  # a title holds its text in .tx; a series name is the text itself
    if getattr(text, "rich", None) is not None:
        return "".join(run.t or "" for paragraph in text.rich.p for run in (paragraph.r or []))
    if getattr(text, "strRef", None) is not None:
        return " ".join(_reference(text.strRef, book))
    return str(getattr(text, "v", "") or "")


def _reference(ref, book) -> list[str]:
    """The values a chart reference points at as their cells show them, or else its cached points."""
    if book is not None and ref.f:
        try:
            sheet, (min_col, min_row, max_col, max_row) = range_to_tuple(ref.f)
            worksheet = book[sheet]
            # within the cells the sheet has: walking a range makes a cell at each address, and a
            # chart may point a million rows past the data
            rows = worksheet.iter_rows(
                min_row=min_row,
                max_row=min(max_row or worksheet.max_row, worksheet.max_row),
                min_col=min_col,
                max_col=min(max_col or worksheet.max_column, worksheet.max_column),
            )
            return [display(cell.value, cell.number_format) for row in rows for cell in row]
        except (KeyError, ValueError, TypeError, AttributeError):  # AttributeError: a chart sheet has no cells
            pass  # a reference to another workbook, or one openpyxl cannot parse: the cache has the values
    cache = getattr(ref, "numCache", None) or getattr(ref, "strCache", None)
    if cache is None or not cache.pt:
        return []
    values = {point.idx: point.v for point in cache.pt}
    return [
        display(_number(values.get(i)), getattr(cache, "formatCode", None)) for i in range(cache.ptCount or len(values))
    ]


def _number(value):
    try:
        return float(value) if value is not None else None
    except (TypeError, ValueError):
        return value


def _chart_parts(chart, book) -> tuple[Block, str]:
    """Its block (its heading, a table of the categories and each series' values), in ``drawings``'
    wording, and what it is for its figure's label ("column, 2 series", "pie, 3 slices")."""
    title = _text_of(chart.title, book)
    series = list(chart.series)
    names = [_text_of(s.tx, book) for s in series]
    values = [
        _reference(s.val.numRef, book)
        if s.val is not None and s.val.numRef is not None
        else _reference(s.yVal.numRef, book)
        if getattr(s, "yVal", None) is not None and s.yVal.numRef is not None
        else []
        for s in series
    ]
    first = series[0] if series else None
    axis = getattr(first, "cat", None) or getattr(first, "xVal", None)
    categories = (
        _reference(axis.strRef or axis.numRef, book) if axis is not None and (axis.strRef or axis.numRef) else []
    )
    rows = (
        chart_rows(
            dict(enumerate(categories)), [(name, dict(enumerate(points))) for name, points in zip(names, values)]
        )
        if series
        else []
    )
    kind = chart_kind(chart.tagname, getattr(chart, "barDir", None))
    summary = (
        f"{kind}, {len(categories)} slices" if kind.endswith(("pie", "doughnut")) else f"{kind}, {len(series)} series"
    )
    return chart_block(chart_heading(title, [kind]), rows), summary


def _load(path, lost: list[str]):
    """openpyxl's workbook of ``path`` with the values last computed; what openpyxl warns it left out
    (``OPENPYXL_LOSSES``) is added to ``lost``, and none of its warnings is printed."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        book = openpyxl.load_workbook(path, data_only=True)
    lost += [str(w.message) for w in caught if any(loss in str(w.message) for loss in OPENPYXL_LOSSES)]
    return book


def _formulas(path) -> dict[tuple[str, int, int], str]:
    """The formulas of the rows a page shows, by (sheet, row, column), read in streaming mode (its
    warnings, given as the rows are read, are not printed: ``_load`` of the same workbook reports
    what openpyxl leaves out)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        book = openpyxl.load_workbook(path, read_only=True, data_only=False)
        try:
            found = {}
            for sheet in book.worksheets:
                for row in sheet.iter_rows(
                    max_row=MAX_SHEET_ROWS + (sheet.min_row or 1) - 1,
                    max_col=MAX_SHEET_COLUMNS + (sheet.min_column or 1) - 1,
                ):
                    for cell in row:
                        if (
                            isinstance(cell.value, str)
                            and cell.value.startswith("=")
                            and getattr(cell, "data_type", "f") == "f"
                        ):
                            found[(sheet.title, cell.row, cell.column)] = cell.value
            return found
        finally:
            book.close()


def _sheet(sheet, book, formulas: dict, threads: dict, package: zipfile.ZipFile) -> dict:
    """One sheet's page: heading, hidden note, tables, charts, comments; and whether it can be drawn."""
    head: list = []
    cells: list = []
    bad_formats: set[str] = set()
    if sheet.sheet_state != "visible":
        head.append("(hidden sheet)")
    cut = None
    if isinstance(sheet, Worksheet) and sheet._cells:
        first, total = sheet.min_row, sheet.max_row
        last = min(total, first + MAX_SHEET_ROWS - 1)
        left, right = sheet.min_column, sheet.max_column
        shown_right = min(right, left + MAX_SHEET_COLUMNS - 1)
        cuts = [f"rows {first}–{last:,} of {total:,}"] if last < total else []
        if shown_right < right:
            cuts.append(
                f"columns {get_column_letter(left)}–{get_column_letter(shown_right)} "
                f"of {get_column_letter(left)}–{get_column_letter(right)}"
            )
        if cuts:
            cut = " and ".join(cuts)
            head.append(f"({cut} shown)")
        merged = {}
        for bounds in sheet.merged_cells.ranges:
            top_left = sheet.cell(bounds.min_row, bounds.min_col)
            for row in range(bounds.min_row, bounds.max_row + 1):
                for column in range(bounds.min_col, bounds.max_col + 1):
                    merged[(row, column)] = top_left
        grid = []
        for row in sheet.iter_rows(min_row=first, max_row=last, min_col=left, max_col=shown_right):
            on_time()
            grid.append(
                [
                    _cell_text(
                        merged.get((cell.row, cell.column), cell),
                        formulas.get((sheet.title, cell.row, cell.column)),
                        bad_formats,
                    )
                    for cell in row
                ]
            )
        origin = (left - 1, first - 1, left - 1, first - 1)  # the grid's first cell in the sheet
        cells = [(block, tuple(a + b for a, b in zip(origin, at))) for block, at in grid_blocks(grid)]
    summaries, charts = [], []
    for chart in sheet._charts:
        block, summary = _chart_parts(chart, book)
        summaries.append(summary)
        charts.append(block)
    places = _places(sheet, summaries, package, [at for _, at in cells])
    drawable = cut is None and bool(cells or charts)
    boxes = places.cells + places.charts if drawable else [None] * (len(cells) + len(charts))
    parts = [replace(block, box=box) for block, box in zip([block for block, _ in cells] + charts, boxes)]
    empty = not parts
    if empty:
        head.append("(empty sheet)")
    # after what they are on, each naming its cell
    parts += (
        [Block(BlockKind.PARAGRAPH, line) for line in comment_lines(sheet, threads)]
        if isinstance(sheet, Worksheet)
        else []
    )
    notes = [replace(block, apart=False) for block in paragraphs("\n".join(head))]  # under the heading
    blocks = [heading_block(1, sheet.title), *notes, *parts]
    return {
        "blocks": [dataclasses.asdict(block) for block in blocks],
        "cut": cut,
        "bad_formats": sorted(bad_formats),
        "drawable": drawable,
        "figures": [found.json() for found in places.figures],
        **({"figures_lost": places.lost} if places.lost else {}),
    }


def _places(sheet, summaries: list[str], package: zipfile.ZipFile, ranges: list) -> SheetPlaces:
    """Where the sheet's figures and blocks stand (``sheet_places`` of ``package``: the workbook, or LibreOffice's
    copy ``book`` is of); a damaged drawing costs them, not the sheet, and says so in ``lost``."""
    if not isinstance(sheet, Worksheet):  # a chart sheet is drawn by its chart alone
        return SheetPlaces([], [None] * len(summaries), [None] * len(ranges))
    try:
        return sheet_places(sheet, summaries, package, ranges)
    except Exception as error:  # noqa: BLE001 - openpyxl's anchors and dimensions can hold anything a damaged file says
        return SheetPlaces([], [None] * len(summaries), [None] * len(ranges), described(error))


def _column_number(letters: bytes) -> int:
    return functools.reduce(lambda number, letter: number * 26 + letter - BEFORE_A, letters.upper(), 0)


def _check_merges(job) -> None:
    """Refuse a workbook whose merged ranges cover more than ``MAX_MERGED_CELLS`` cells, before
    openpyxl makes an object for each (a merged A1:XFD1048576 would stall it and fill the memory)."""
    cells = 0
    with zipfile.ZipFile(job.path) as package:
        for part in package.namelist():
            if part.startswith("xl/worksheets/") and part.endswith(".xml"):
                for first_column, first_row, last_column, last_row in MERGE_REF.findall(package.read(part)):
                    cells += (abs(_column_number(last_column) - _column_number(first_column)) + 1) * (
                        abs(int(last_row) - int(first_row)) + 1
                    )
    if cells > MAX_MERGED_CELLS:
        raise ReaderError(
            "FILE_TOO_LARGE",
            f"{job.name} merges {cells:,} cells; workbooks merging more than {MAX_MERGED_CELLS:,} are refused, "
            "since reading them would stall the server. Unmerge the large ranges and save it again.",
        )


def _extract(job) -> dict:
    _check_merges(job)
    source, cut = bounded_workbook(job)
    job, lost = dataclasses.replace(job, path=source), list[str]()  # the copy held to what the pages show, if made
    try:
        book = _load(job.path, lost)
    except Exception:  # noqa: BLE001 - openpyxl raises many types (KeyError, ValueError, XML errors) on a damaged file
        book, lost = None, []
    try:  # a picture whose image is missing costs only itself: a figure still, as ``_pictures`` reads job.path
        loadable = without_missing_images(job) if book is None else None
        book = _load(loadable, lost) if loadable else book
    except Exception:  # noqa: BLE001 - as above
        lost = []
    without_drawings, source = book is None, job.path
    if book is None:
        try:  # openpyxl refuses a whole workbook for one damaged chart or picture: read the sheets without them
            source = without(job, "xl/drawings/")
            book = _load(source, lost)
        except Exception as error:  # noqa: BLE001 - as above
            raise ReaderError(
                "CORRUPT_FILE",
                f"{job.name} is damaged and cannot be opened as a spreadsheet "
                f"({type(error).__name__}). Save it again from Excel or LibreOffice.",
            ) from None
    try:
        formulas = _formulas(job.path)
    except Exception:  # noqa: BLE001 - the values are already read; only the check for missing results is lost
        formulas = {}
    missing = {key: formula for key, formula in formulas.items() if book[key[0]].cell(key[1], key[2]).value is None}
    recalculated, not_calculated = False, None
    unwalled: list[Notice] = []
    if missing:
        try:
            copy, lost_in_copy = ooxml_copy(job, unwalled, recalculate=True), list[str]()
            book = _load(copy, lost_in_copy)
            # LibreOffice's copy has what it could read of the charts
            recalculated, missing, without_drawings, source, lost = True, {}, False, copy, lost_in_copy
        except ReaderError as error:
            if error.code == "TOO_COMPLEX":  # the reading's time is spent: no later step may run
                raise
            not_calculated = error.message
    try:
        by_id = threads(job.path)
    except Exception:  # noqa: BLE001 - damaged threaded comments: their notices are read as notes
        by_id = {}
    with zipfile.ZipFile(source) as package:
        sheets = [_sheet(book[name], book, missing, by_id, package) for name in book.sheetnames]
    return {
        "sheets": sheets,
        "recalculated": recalculated,
        "not_calculated": not_calculated,
        "without_drawings": without_drawings,
        "lost": list(dict.fromkeys(lost)),
        "cut": cut.warnings(job.name),
        "unwalled": [notice.text for notice in unwalled],
    }


def _add_images(job, pages: list[Page], sheets: list[dict], notices: list[Notice]) -> Path | None:
    """Each drawable sheet's image: its page of LibreOffice Calc's PDF (a page per sheet, hidden
    ones too); that PDF, or None when the sheets have no images."""
    if not any(sheets[page.number - 1]["drawable"] for page in pages):
        return None
    if any(sheet["cut"] for sheet in sheets):
        notices.append(
            Notice(
                Code.NO_IMAGES,
                f"{job.name} has sheets too large to draw, so it has no sheet "
                f"images; the text has their first {MAX_SHEET_ROWS} rows "
                f"and {MAX_SHEET_COLUMNS} columns.",
            )
        )
        return None
    pdf = office_pdf(job, notices)
    if pdf is None:
        return None
    # The sheets read() selected (so its MAX_PAGES note is not given twice), read apart from the job:
    # what the PDF gives reaches the reading only if LibreOffice drew a page per sheet.
    selected = dataclasses.replace(job.options, page_start=pages[0].number, page_end=pages[-1].number)
    try:
        drawn = read_pdf_pages(dataclasses.replace(job, options=selected), pdf, job.sha256, text_from_pdf=False)
    except ReaderError as error:
        if error.code != "PAGE_OUT_OF_RANGE":
            raise
        drawn = Extraction(0, [])  # fewer pages than the sheets selected
    if drawn.page_count != len(sheets):
        notices.append(
            Notice(
                Code.NO_IMAGES,
                f"LibreOffice drew {drawn.page_count or 'too few'} pages for the {len(sheets)} "
                f"sheets of {job.name}, so its sheets have no images.",
            )
        )
        return None
    notices += drawn.notices
    for page, drawn_page in zip(pages, drawn.pages):
        if sheets[page.number - 1]["drawable"] and drawn_page.image:
            page.image = drawn_page.image
    return pdf


def sheet_pages(job) -> Extraction:
    """The workbook's sheet count, the selected sheets' pages (from the cached extraction), the PDF
    their images come from and their figures as found."""
    extracted = job.services.store.get_json(job.sha256, WORKBOOK)
    if extracted is None:
        extracted = _extract(job)
        job.services.store.put_json(job.sha256, WORKBOOK, extracted)
    sheets, notices = extracted["sheets"], []
    if extracted["recalculated"]:
        notices.append(
            Notice(
                Code.FORMULAS,
                f"{job.name} was saved without the results of its formulas (as "
                "files written by programs often are); LibreOffice calculated them.",
            )
        )
    if extracted["not_calculated"]:
        notices.append(
            Notice(
                Code.FORMULAS,
                f"{job.name} was saved without the results of its formulas, so "
                f"formulas are shown instead: {extracted['not_calculated']}",
            )
        )
    if extracted["without_drawings"]:
        lost = f"The charts and pictures of {job.name} are damaged and were left out; its sheets are read."
        notices.append(Notice(Code.DAMAGED, lost))
    notices += [Notice(Code.DAMAGED, f"Part of {job.name} could not be read: {loss}") for loss in extracted["lost"]]
    notices += [Notice(Code.CUT, cut) for cut in extracted["cut"]]
    notices += [Notice(Code.UNWALLED, text) for text in extracted.get("unwalled", [])]
    numbers = job.select(len(sheets), notices)
    for number in numbers:
        if sheets[number - 1]["cut"]:
            notices.append(Notice(Code.CUT, f"{job.name}, sheet {number}: {sheets[number - 1]['cut']} shown.", number))
        if bad := sheets[number - 1]["bad_formats"]:
            shown = ", ".join(repr(code[:SHOWN_FORMAT]) + ("…" if len(code) > SHOWN_FORMAT else "") for code in bad[:3])
            notices.append(
                Notice(
                    Code.NUMBER_FORMATS,
                    f"{job.name}, sheet {number}: {len(bad)} number format{'s' if len(bad) > 1 else ''} could not "
                    f"be applied ({shown}{', …' if len(bad) > 3 else ''}): the cells formatted so show their raw "
                    "values.",
                    number,
                )
            )
    pages = [Page(number=n, blocks=[Block.of(block) for block in sheets[n - 1]["blocks"]]) for n in numbers]
    found_figures = {}
    for page in pages:
        sheet = sheets[page.number - 1]
        if lost := sheet.get("figures_lost"):
            unplaced = f"The pictures and charts of sheet {page.number} of {job.name} could not be placed ({lost})"
            notices.append(Notice(Code.NOT_PLACED, f"{unplaced}; its cells are read.", page.number))
        if sheet["drawable"]:
            found_figures[page.number] = [FoundFigure.of(figure) for figure in sheet["figures"]]
            page.figures = [found.figure for found in found_figures[page.number]]
    pdf = _add_images(job, pages, sheets, notices) if job.options.images else None
    return Extraction(len(sheets), pages, pdf, found_figures, notices)
