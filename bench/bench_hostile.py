"""Hostile inputs (issues 45 and 50): each file the probes found a hang, a memory blow-up, lost
content, unbounded output or a hidden part read with, generated at the size named
(``testkit.fixtures.hostile``, ``testkit.fixtures.stalls``), read by ReadLens and by markitdown (the
peer, in its scratch virtualenv, for issue 45's), each in a process of its own.

Reported per input and reader: wall seconds (what ``READ_TIMEOUT`` counts), the CPU seconds of the
thread that read, the peak memory of the whole process tree (the reader, its PDF workers,
LibreOffice, Chromium: resident set sizes summed, sampled every 0.1 s), and what came back: pages,
characters (and the largest page's), warnings (and their characters), whether the phrase that must
survive is in the text and the one that must not (a picture's hidden part) is absent from the text
and descriptions, lines printed on stderr, or the error. A read is stopped past ``TIME_CAP`` seconds
or ``MEMORY_CAP`` of memory, and marked so. ReadLens's target: every input read or refused within
its time budget (``READ_TIMEOUT`` of wall time, plus ``SLACK``) and under ``TARGET_MEMORY`` for the
tree, with the phrase that must survive in its text and none that must not.
ReadLens reads as ``read_file(path)`` does with no vision model (text only), but for the inputs
marked for page images (read multimodal: Chromium prints them) or for OCR (local OCR reads their pictures);
LibreOffice runs where Word documents' pages or a workbook's formulas need it.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bench import report
from bench.bench_load import rss
from bench.scratch import MARKITDOWN
from readers import Settings
from testkit import CORPUS, ROOT
from testkit.fixtures import hostile, pixel_bomb_png, stalls
from testkit.processes import descendants

TIME_CAP = 120  # seconds: a read still going is stopped (the probe's slowest rows ran for minutes)
MEMORY_CAP = 4 << 30  # bytes: a tree past this is stopped (the probe's largest reached 5.7 GB)
TARGET_MEMORY = 3 << 29  # 1.5 GB for the whole tree (issue 50)
SLACK = 15  # seconds past READ_TIMEOUT a refusal may take (issue 50)
SAMPLE = 0.1  # seconds between samples of the process tree
STRICT_NAME = "http://purl.oclc.org/ooxml/wordprocessingml/main"
HIDDEN = {"absent": stalls.HIDDEN.split()[0], "ocr": True}  # what a crop or a shape hides must not be read

READ = """
import json, sys, time
from pathlib import Path
from readers import ReaderError, Services, read_file
from testkit import make_settings
path, cache, expect, absent, images, ocr = sys.argv[1:7]
settings = make_settings(Path(cache), vision_provider="ocr" if ocr == "ocr" else "none")
started = time.thread_time()
try:
    reading = read_file(path, multimodal=images == "images", services=Services(settings))
except ReaderError as error:
    print(json.dumps({"code": error.code, "message": error.message, "cpu": time.thread_time() - started}))
else:
    texts = ["\\n".join([page.text, *page.tables, *page.furniture]) for page in reading.pages]
    seen = "\\n".join([*texts, *(page.description or "" for page in reading.pages)])
    print(json.dumps({
        "pages": len(texts), "chars": sum(map(len, texts)), "largest": max(map(len, texts), default=0),
        "warnings": len(reading.warnings), "warning_chars": sum(map(len, reading.warnings)),
        "found": expect in "\\n".join(texts) if expect else None, "cpu": time.thread_time() - started,
        "hidden": absent.lower() in seen.lower() if absent else None,
    }))
"""

PEER = """
import json, sys, time
from markitdown import MarkItDown
path, expect = sys.argv[1:3]
converter, started = MarkItDown(), time.process_time()  # markitdown's threads too
try:
    text = converter.convert(path).markdown
except Exception as error:
    message = str(error).splitlines()[0][:150] if str(error) else ""
    print(json.dumps({"code": type(error).__name__, "message": message, "cpu": time.process_time() - started}))
else:
    print(json.dumps({"pages": 1, "chars": len(text), "largest": len(text), "warnings": 0, "warning_chars": 0,
                      "found": expect in text if expect else None, "cpu": time.process_time() - started}))
"""


@dataclass
class Input:
    name: str
    what: str
    make: Callable[[Path], Path]
    expect: str = ""  # a phrase the reading must hold
    peer: bool = True
    absent: str = ""  # a phrase neither its text nor its descriptions may hold (a picture's hidden part)
    images: bool = False  # read with page images, as a model that sees them (Chromium prints a web page)
    ocr: bool = False  # local OCR reads its pictures


def inputs() -> list[Input]:
    strict = CORPUS / "docling/formats/Strict.docx"
    return [
        Input("headings.html", "web page of headings only, 1.1 MB", hostile.headings_page, "Section heading"),
        Input("divs.html", "<div></div><br> runs, 1.2 MB", hostile.empty_divs_page, "Start of the page."),
        Input("table.html", "one table, 24 MB", hostile.table_page, "c9"),
        Input("sup.html", "nested <sup>, 15.6 MB", hostile.nested_sup_page, "text."),
        Input("deep.html", "nested 300 deep", hostile.deep_page, "Deep sentence."),
        Input("line.html", "one line of 24 MB", hostile.one_line_page, "lorem ipsum dolor"),
        Input("hints.html", "words parted by soft hyphens, zero widths", hostile.hinted_page, "word1999"),
        Input("deep.eml", "HTML body nested 300 deep", hostile.deep_body_mail, hostile.WIRE, peer=False),
        Input("to.msg", "To line of 20,000 addresses", hostile.to_line_msg, "The body of the message."),
        Input("recipients.msg", "12,000 recipients", hostile.recipients_msg, "user0@example.org"),
        Input("subject.msg", "Subject of 3,000,000 characters", hostile.subject_msg, "Subject words"),
        Input("dates.xlsx", 'date format "m-" x 20,000', hostile.date_format_workbook, "Label"),
        Input("decimals.xlsx", "2,000 cells in a 100 KB decimal format", hostile.decimal_formats_workbook, "Label"),
        Input("formats.xlsx", "a 200-% format, a private-use one", hostile.bad_formats_workbook, "4.00"),
        Input("pictures.xlsx", "100,000 pictures anchored", hostile.pictures_workbook, "Pictures"),
        Input("comments.xlsx", "1,000,000 comments", hostile.comments_workbook, "Noted"),
        Input("sections.docx", "30,000 sections", hostile.sections_document, "Part."),
        Input("paragraphs.docx", "1,000,000 paragraphs", hostile.paragraphs_document, "Word."),
        Input("merged.docx", "a cell merged over 63 x 3,000", hostile.merged_cells_document, "After the table."),
        Input("tables.docx", "tables 100 deep", hostile.nested_tables_document, "After the tables."),
        Input("equation.docx", "an equation 10,000 deep", hostile.deep_equation_document, "After."),
        Input(
            "strict.docx",
            "Strict, its text naming Strict",
            lambda target: hostile.strict_text_document(target, strict),
            STRICT_NAME,
        ),
        Input(
            "utf16.docx",
            "the same, its main part in UTF-16",
            lambda target: hostile.strict_text_document(target, strict, "utf-16"),
            STRICT_NAME,
        ),
        Input("poster.png", "99 megapixels", pixel_bomb_png, peer=False),
        Input("fifo", "a FIFO", lambda target: os.mkfifo(target) or target, peer=False),
        Input("zero", "/dev/zero", lambda target: Path("/dev/zero"), peer=False),
        *issue_50(),
    ]


def issue_50() -> list[Input]:
    """Issue 50's files: ReadLens alone (before and after are its own, ``make bench hostile`` on each)."""
    return [
        Input("operators.pdf", "50 pages sharing a stream of 3,000,000 operators", stalls.operators_pdf, peer=False),
        Input("silence.aac", "ADTS AAC, 600 minutes of silence", stalls.silent_aac, peer=False),
        Input("silence.mp3", "MP3 without a Xing header, 200 minutes", stalls.silent_mp3, peer=False),
        Input("cells.xlsx", "12,000,000 styled empty cells", stalls.empty_cells_workbook, "Label", peer=False),
        Input("formulas.xlsx", "3,000 whole-column formulas, no results", stalls.whole_column_formulas, peer=False),
        Input("tall.html", "a div 33,000,000 px tall, printed", stalls.tall_page, peer=False, images=True),
        Input("cropped.pptx", "a picture cropped to its top half", stalls.cropped_picture_deck, peer=False, **HIDDEN),
        Input("covered.pptx", "a picture half covered by a shape", stalls.covered_picture_deck, peer=False, **HIDDEN),
        Input("cropped.xlsx", "a sheet's picture cropped", stalls.cropped_picture_workbook, peer=False, **HIDDEN),
        Input("covered.xlsx", "a sheet's picture half covered", stalls.covered_picture_workbook, peer=False, **HIDDEN),
        Input("cropped.docx", "a Word picture cropped", stalls.cropped_picture_document, peer=False, **HIDDEN),
        Input("covered.docx", "a Word picture half covered", stalls.covered_picture_document, peer=False, **HIDDEN),
        Input(
            "pixel.html",
            "a page showing a remote picture",
            lambda target: stalls.remote_image_page(target, "http://127.0.0.1:9/pixel.gif"),
            "Text beside a picture.",
            peer=False,
        ),
    ]


def measured(command: list[str]) -> dict:
    """Run ``command`` (which prints one line of JSON) and watch its process tree: seconds, peak
    bytes, lines on stderr, and its answer, or why it was stopped."""
    started = time.perf_counter()
    process = subprocess.Popen(
        command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True
    )
    output: dict[str, str] = {}
    readers = [
        threading.Thread(target=lambda name=name, stream=stream: output.setdefault(name, stream.read()))
        for name, stream in (("out", process.stdout), ("err", process.stderr))
    ]
    for thread in readers:
        thread.start()
    peak, seen, stopped = 0, set(), None
    while process.poll() is None:
        tree = {process.pid} | descendants(process.pid)
        seen |= tree
        peak = max(peak, rss(tree))
        if peak > MEMORY_CAP:
            stopped = f"stopped past {MEMORY_CAP >> 30} GB"
        elif time.perf_counter() - started > TIME_CAP:
            stopped = f"stopped after {TIME_CAP} s"
        if stopped:
            for pid in seen:  # the reader and every process it started (LibreOffice has a session of its own)
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            break
        time.sleep(SAMPLE)
    process.wait()
    for thread in readers:
        thread.join()
    seconds = time.perf_counter() - started
    for pid in seen - {process.pid}:  # LibreOffice closes when its reader has gone; one that lingers is stopped
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    lines = (output.get("out") or "").strip().splitlines()
    answer = json.loads(lines[-1]) if lines and not stopped and lines[-1].startswith("{") else {}
    if not answer and not stopped:
        answer = {"code": f"exit {process.returncode}", "message": (output.get("err") or "").strip()[-150:]}
    stderr = [line for line in (output.get("err") or "").splitlines() if line.strip()]
    return {"seconds": seconds, "peak": peak, "stopped": stopped, "stderr": len(stderr), **answer}


def outcome(result: dict) -> str:
    if result["stopped"]:
        return result["stopped"]
    if "code" in result:
        return f"{result['code']}: {result['message'][:90]}"
    found = {None: "", True: ", phrase found", False: ", PHRASE MISSING"}[result["found"]]
    hidden = {None: "", True: ", HIDDEN TEXT READ", False: ", hidden text not read"}[result.get("hidden")]
    return (
        f"{result['pages']} pages, {result['chars']:,} chars (largest page {result['largest']:,}), "
        f"{result['warnings']} warnings ({result['warning_chars']:,} chars){found}{hidden}"
        + (f", {result['stderr']} lines on stderr" if result["stderr"] else "")
    )


def main() -> None:
    budget = Settings.from_env().read_timeout
    peer = MARKITDOWN.python()
    table = report.Rows(["input", "what", "reader", "seconds", "CPU s", "peak MB", "outcome"])
    missed = []
    with tempfile.TemporaryDirectory(prefix="readlens-hostile-") as work:
        for each in inputs():
            path = each.make(Path(work) / each.name)
            what = f"{each.what} ({path.stat().st_size if path.is_file() else 0:,} bytes)"
            options = [each.absent, "images" if each.images else "", "ocr" if each.ocr else ""]
            ours = measured([sys.executable, "-c", READ, str(path), str(Path(work) / "cache"), each.expect, *options])
            met = not ours["stopped"] and ours["seconds"] <= budget + SLACK and ours["peak"] < TARGET_MEMORY
            if not met or ours.get("found") is False or ours.get("hidden"):
                missed.append(each.name)
            rows = [("ReadLens", ours)]
            if peer is not None and each.peer:
                rows.append(("markitdown", measured([str(peer), "-c", PEER, str(path), each.expect])))
            for reader, result in rows:
                cpu = f"{result['cpu']:.1f}" if "cpu" in result else "-"
                table.add(
                    [
                        each.name,
                        what,
                        reader,
                        f"{result['seconds']:.1f}",
                        cpu,
                        f"{result['peak'] / 2**20:,.0f}",
                        outcome(result),
                    ]
                )
            if path.is_file() or path.is_fifo():
                path.unlink()
    print()
    print(
        f"ReadLens within {budget:g} + {SLACK} s of wall time (READ_TIMEOUT) and {TARGET_MEMORY / 2**30:g} GB, every "
        "phrase kept and no hidden one read: " + ("all met" if not missed else f"MISSED on {', '.join(missed)}")
    )
