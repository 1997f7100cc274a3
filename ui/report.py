"""Files the page offers: page images for display, the reading as Markdown, JSON or plain text, the Markdown
report and the full payload downloads.

Everything is written under one folder per app process and named by content (the file's hash,
the page), so reading the same file again rewrites nothing and the folder only grows with new content.
"""

from __future__ import annotations

import csv
import dataclasses
import hashlib
import io
import json
import zipfile
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from readers import Block, BlockKind, Page, ReaderError, Reading
from readers.payload.citations import clock, page_source, source
from readers.payload.serialize import several_json
from readers.payload.text import files_text
from readers.storage.files import write_atomic

from .handlers import Entry
from .payload import PROVIDERS, message_payload


def _write_if_missing(target: Path, data: bytes) -> str:
    if not target.exists():
        write_atomic(target, data)
    return str(target)


def _write_once(folder: Path, name: str, data: bytes) -> str:
    """``folder/<hash of data>/name``: the hash folder names the content, the file keeps its own name."""
    return _write_if_missing(folder / hashlib.sha256(data).hexdigest()[:16] / name, data)


def stem(name: str) -> str:
    return Path(name).stem or "file"


def page_image(reading: Reading, page: Page, folder: Path) -> str:
    """The path of ``page``'s PNG under ``folder``, written once."""
    return _write_if_missing(
        folder / reading.sha256 / f"{stem(reading.name)}-{reading.label.lower()}-{page.number}.png", page.image
    )


OUTLINE = (67, 56, 202)  # the theme's indigo
REPORT_LEVELS = 3  # the report's own headings: "# ReadLens report", "## file", "### Page 1"
REPORT_CHUNK_TOKENS = 512  # the export's chunks: Reading.chunks' default size


def outlined_image(
    reading: Reading, page: Page, folder: Path, marks: list[tuple[tuple, str]] | None = None, tag: str = "figures"
) -> str:
    """The path of ``page``'s PNG with each figure outlined and labelled ("Figure 1 · picture"), written once;
    or with ``marks`` (box, label) outlined instead, named by ``tag`` (a chunk's boxes, ui.chunks)."""
    target = folder / reading.sha256 / f"{stem(reading.name)}-{reading.label.lower()}-{page.number}-{tag}.png"
    if target.exists():
        return str(target)
    if marks is None:
        marks = [
            (figure.box, f"Figure {number} · {f'chart: {figure.chart}' if figure.chart else figure.kind}")
            for number, figure in enumerate(page.figures, 1)
        ]
    with Image.open(io.BytesIO(page.image)) as image:
        canvas = image.convert("RGB")
    draw = ImageDraw.Draw(canvas)
    font = ImageFont.load_default(size=max(12, canvas.width // 60))
    line = max(2, canvas.width // 400)
    for box, label in marks:
        left, top, right, bottom = (round(v * size) for v, size in zip(box, (canvas.width, canvas.height) * 2))
        draw.rectangle((left, top, right, bottom), outline=OUTLINE, width=line)
        tag_box = draw.textbbox((left, top), label, font=font)
        draw.rectangle((tag_box[0], tag_box[1], tag_box[2] + 2 * line, tag_box[3] + 2 * line), fill=OUTLINE)
        draw.text((left + line, top + line), label, font=font, fill="white")
    buffer = io.BytesIO()
    canvas.save(buffer, format="PNG", compress_level=1)
    return _write_if_missing(target, buffer.getvalue())


def page_title(reading: Reading, page: Page) -> str:
    """ "Sheet 2", "Page 7 — papers/report.pdf": the page as the app and the report name it."""
    title = f"{reading.label.capitalize()} {page.number}"
    return f"{title} — {page.section}" if page.section else title


def citation(reading: Reading, page: Page | None = None, span: tuple[float, float] | None = None) -> str:
    """``*(Source: report.pdf, p. 12)*``, with slides, sheets, image frames, audio times, a text
    file's lines and files inside an archive or e-mail named as such
    (``*(Source: bundle.zip › papers/a.pdf, p. 3)*``, ``*(Source: server.log, lines 95–140)*``);
    the wording is ``readers.payload.citations``', which the chunks cite by too."""
    if page is None:
        return f"*(Source: {source(reading.name, reading.kind, reading.page_count, span=span)})*"
    return f"*(Source: {page_source(reading, page)})*"


def furniture_note(page: Page) -> str | None:
    """ "Page furniture: P/N 119-036 · Page 3 of 12": what the page shows round its text, or None."""
    return f"Page furniture: {' · '.join(page.furniture)}" if page.furniture else None


def _demoted(block: Block) -> str:
    """A block of the document's text under the report's own headings: a heading set ``REPORT_LEVELS``
    levels lower, so ``# Title`` reads under the report's ``### Page 1``."""
    if block.kind == BlockKind.HEADING:
        return f"{'#' * min(6, block.level + REPORT_LEVELS)} {block.title}"
    return block.text.strip("\n")


CITED_APART = (BlockKind.TABLE, BlockKind.CHART)  # each cited after itself; a run of other blocks once after it


def _cited(page: Page, cite: str) -> list[str]:
    """A page's text as the report gives it: its blocks, each table and chart cited after it and each run
    of the blocks between them once after that run (a run of headings alone is no content to cite)."""
    lines, run = [], False
    for block in page.blocks:
        if block.kind == BlockKind.FURNITURE or not block.text.strip():
            continue
        if block.kind in CITED_APART:
            lines += [cite] if run else []
            lines += [_demoted(block), cite]
            run = False
        else:
            lines.append(_demoted(block))
            run = run or block.kind != BlockKind.HEADING
    return lines + ([cite] if run else [])


def _page_section(reading: Reading, page: Page, images: dict[str, bytes]) -> list[str]:
    """A page's part of the report: its picture (collected into ``images``), its text with the document's
    headings under the report's, each piece cited once (``_cited``), then the description of its figures, cited."""
    cite = citation(reading, page)
    lines = [f"### {page_title(reading, page)}"]
    if page.image:
        image_name = f"images/{reading.sha256[:12]}-{stem(reading.name)}-{page.number}.png"
        images[image_name] = page.image
        lines += [f"![{reading.name}, {reading.label.lower()} {page.number}]({image_name})", cite]
    lines += _cited(page, cite)
    if note := furniture_note(page):  # one line, under the page's text: not the page's content, so not cited
        lines.append(note)
    if page.description:
        lines += [f"**Visual content** ({page.description_source or 'description'}): {page.description.strip()}", cite]
    if page.error:
        lines.append(f"> {page.error}")
    return lines


def report_markdown(entries: list[Entry]) -> tuple[str, dict[str, bytes]]:
    """The report's Markdown and the images it links to (zip path → PNG bytes)."""
    lines, images = ["# ReadLens report"], {}
    for entry in entries:
        lines.append(f"## {entry.name}")
        reading = entry.reading
        if reading is None:
            lines.append(f"> Not read: {entry.error}")
            continue
        lines += [f"> {warning}" for warning in reading.warnings]
        if reading.transcript is not None:
            t = reading.transcript
            lines.append(f"Audio, {t.summary}.")
            for segment in t.segments:
                lines += [
                    f"**[{clock(segment.start)}]** {segment.text.strip()}",
                    citation(reading, span=(segment.start, segment.end)),
                ]
            if not t.segments and t.text.strip():
                lines += [t.text.strip(), citation(reading)]
            continue
        for page in reading.pages:
            lines += _page_section(reading, page, images)
    return "\n\n".join(lines) + "\n", images


# The forms the reading downloads in, and their files' endings: what a text-only model receives (its pages' text in
# Markdown), what the API's /read_file answers, and the Markdown as plain text.
EXPORTS = {"Markdown": "md", "JSON": "json", "Plain text": "txt"}


def _reading_data(entries: list[Entry], ending: str, citations: bool) -> bytes:
    """The reading of ``entries`` in the form of ``ending``: as JSON, ``/read_file``'s answer for the one file, or
    for them all (each file's answer or why it was not read, then their payload together); as Markdown or plain
    text, the payload of the files read, each named (``files_text``), with ``citations`` or without."""
    readings = [entry.reading for entry in entries if entry.reading is not None]
    if ending != "json":
        return files_text(readings, plain=ending == "txt", citations=citations).encode()
    answers = [
        entry.answer or {"name": entry.name, "error": {"code": entry.code, "message": entry.error}} for entry in entries
    ]
    multimodal = any(reading.multimodal for reading in readings)
    data = answers[0] if len(entries) == 1 else several_json(answers, readings, multimodal)
    return json.dumps(data, ensure_ascii=False, indent=1).encode()


def write_reading(entry: Entry, folder: Path, ending: str, citations: bool = True) -> str:
    """One file's reading in the form of ``ending`` ("md", "json" or "txt", ``EXPORTS``), named by the file."""
    return _write_once(folder / "readings", f"{stem(entry.name)}.{ending}", _reading_data([entry], ending, citations))


def write_readings(entries: list[Entry], folder: Path, ending: str, citations: bool) -> list[str] | None:
    """The reading of all files in one (when there are several), then each file's, as ``write_reading`` writes
    them; None until every file is done, or when none was read."""
    if not entries or not all(entry.done for entry in entries) or not any(entry.reading for entry in entries):
        return None
    each = [write_reading(entry, folder, ending, citations) for entry in entries if entry.reading is not None]
    if len(entries) == 1:
        return each
    together = _write_once(folder / "readings", f"all-files.{ending}", _reading_data(entries, ending, citations))
    return [together, *each]


def table_csv(reading: Reading, page: Page, number: int, table: Block, folder: Path) -> str:
    """The path of a table's CSV, its ``rows`` as a grid (a spanning cell's text in each place it covers),
    written once: ``report-page-3-table-1.csv``."""
    buffer = io.StringIO()
    csv.writer(buffer).writerows(table.grid())
    name = f"{stem(reading.name)}-{reading.label.lower()}-{page.number}-table-{number}.csv"
    return _write_once(folder / "tables", name, buffer.getvalue().encode("utf-8"))


def preview_image(page: Page, folder: Path) -> str | None:
    """The path of the PNG of a page read while the rest of its file is, written once, or None."""
    return _write_once(folder / "previews", f"page-{page.number}.png", page.image) if page.image else None


def chunks_jsonl(entries: list[Entry], max_tokens: int = REPORT_CHUNK_TOKENS) -> str:
    """Every reading's chunks (``Reading.chunks``), a JSON object a line, each with the ``file`` it
    comes from; a reading that cannot be chunked (a heading path longer than a chunk) is a line
    with its ``error`` instead."""
    lines = []
    for entry in entries:
        if entry.reading is None:
            continue
        try:
            lines += [{"file": entry.name, **dataclasses.asdict(chunk)} for chunk in entry.reading.chunks(max_tokens)]
        except ReaderError as error:
            lines.append({"file": entry.name, "error": error.message})
    return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)


def write_report(entries: list[Entry], folder: Path) -> str | None:
    """A zip of ``report.md``, its page images and ``chunks.jsonl`` (what a retriever indexes), or None
    when nothing was read."""
    if not any(entry.reading for entry in entries):
        return None
    markdown, images = report_markdown(entries)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("report.md", markdown, compress_type=zipfile.ZIP_DEFLATED)
        archive.writestr("chunks.jsonl", chunks_jsonl(entries), compress_type=zipfile.ZIP_DEFLATED)
        for name, png in images.items():
            archive.writestr(name, png, compress_type=zipfile.ZIP_STORED)  # PNG is already compressed
    return _write_once(folder / "reports", "readlens-report.zip", buffer.getvalue())


def write_payload(readings: list[Reading], multimodal: bool, folder: Path) -> str | None:
    """The complete payload of the current mode (full base64 images) as a download, or None."""
    if not readings:
        return None
    if multimodal:
        data = json.dumps(
            {provider: message_payload(readings, provider) for provider in PROVIDERS}, ensure_ascii=False
        ).encode()
        return _write_once(folder / "payloads", "payload-multimodal.json", data)
    return _write_once(folder / "payloads", "payload-text-only.txt", files_text(readings).encode())


def write_document_payload(payloads: dict[str, list[dict]], folder: Path) -> str | None:
    """The complete payload with PDFs sent as themselves (full base64), per provider, as a download, or None."""
    if not payloads:
        return None
    return _write_once(
        folder / "payloads", "payload-pdf-document.json", json.dumps(payloads, ensure_ascii=False).encode()
    )
