"""Every word as printed (issues 39 and 49): each PDF page's words checked against a second reader's.

For every page of every PDF in ``tests/corpus`` (the tables' validation set, ``table-validation/``,
counted apart), and of the PDFs LibreOffice and Chromium print for the Office and web files there
(printed once by ReadLens's own renderers and kept in ``PRINTS``), ReadLens's words (``read_file``,
text-only, no vision, an empty cache: the page's text with its tables, then its furniture) are
aligned with poppler's ``pdftotext`` (the witness) as word sequences and every difference is classed
(``testkit.word_diff``). Printed: a table per file, whose ``lost by ReadLens`` column is the words lost by
ReadLens's fault (a word the witness reads that ReadLens has nowhere on the page: the count issue 49
holds at 0), the totals of the corpus, the prints and the validation set apart, the worst pages of the
corpus and the prints with examples of each class and their words lost by ReadLens (the validation
set's are not shown: no one tunes on it), and how each class is triaged (``TRIAGE``).

python -m bench words
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

from bench import report
from readers import ReaderError, Services, Settings, read_file
from testkit import CORPUS
from testkit.validation import VALIDATION
from testkit.word_diff import CLASSES, Comparison, compare, readlens_words, witness_words

PRINTS = Path(tempfile.gettempdir()) / "readlens-bench-words"  # the prints of the Office and web files, kept
PRINTED = (".docx", ".doc", ".odt", ".pptx", ".ppt", ".odp", ".xlsx", ".xlsm", ".ods", ".html")
WORST = 15  # pages shown with examples
EXAMPLES_MISSING = 12  # of the words lost by ReadLens on a page, shown
# Each class as the worst pages show it: a ReadLens defect (mended, or left and why), or the witness at fault.
TRIAGE = {
    "split": "ReadLens defects mended: spaces drawn over other text (a report's padding: '0 3 / 2 5 / 2 0 16'), a "
    "space set large taking the line below as its script. Left: a drop cap or an initial in another font "
    "('P ayments' on a form). Witness: right-to-left runs, whose embedding marks pdftotext writes in visual order.",
    "merged": "Mostly the witness: pdftotext parts small capitals ('F IG .'), mathematics set with thin spaces "
    "('GR ( D )', 'q1 ,') and an OCR layer's letter-spaced words ('l e t t e r'); ReadLens reads them as printed.",
    "hyphen": "The witness: pdftotext keeps a word broken at a line's end; ReadLens mends it from the pages' words.",
    "moved": "Order, mostly the witness's: pdftotext reads a table column by column (ca-warn, NICS, the Senate's "
    "ledger) and jumps between columns mid-page (a paper's references); ReadLens reads rows, then columns down. "
    "Furniture, which ReadLens sets apart on purpose, is not counted.",
    "cid": "ReadLens defect, mended: a glyph pdfminer cannot map is read by pdfium at its place, in tables too, or "
    "left out and counted (a pi font's arrows, which pdftotext reads as its code's letter, '©').",
    "changed": "Mostly the witness: Arabic ligatures written as two letters in visual order ('اإلنتاجية'), line-end "
    "hyphens inside a table's cell. ReadLens: a word broken at a line's end and joined with its hyphen kept.",
    "lost": "The alignment's; what counts is the words lost by ReadLens (nowhere in the page's output), printed "
    "after the table. Mended: pages pdfminer cannot read or silently half reads (pdfium reads them), lines read "
    "letter by letter (two footer lines beside a page number set across both), text drawn mirrored, a table's "
    "words its ruled grid drew no cell round or cut, a chart's ticks (now on its block's line of labels), a Symbol "
    "font's Greek letters. Left: a nav bar pdfium cannot see on a page pdfminer refuses (pdf-bad-color-space); an "
    "OCR layer that draws its words twice, offset (ff518…); accents and mathematics pdftotext spells otherwise "
    "(fr_olap's angle brackets as 'h' and 'i', math_2503); Korean footnote marks pdftotext moves out of their word. "
    "Prints: a web page's language menu (chrome, left out on purpose) and sheets' words their Office readers own.",
    "added": "ReadLens's own words ('(continued from page 1)', a chart's 'Chart:' and 'Axis ticks' lines), a "
    "spanning cell repeated in each column it spans (so each row reads alone), and words pdftotext leaves out "
    "(ReadLens reads turned, upside-down and mirrored text whole). Mended: a spread's text off the page.",
}


def corpus_pdfs() -> list[tuple[str, Path]]:
    """The corpus's PDFs, the validation set's last (each named by its path in the corpus)."""
    pdfs = sorted(CORPUS.rglob("*.pdf"), key=lambda path: (VALIDATION in path.parents, path))
    return [(path.relative_to(CORPUS).as_posix(), path) for path in pdfs]


def printed_pdfs() -> list[tuple[str, Path]]:
    """The PDF each Office and web file of the corpus prints as, made once and kept in ``PRINTS``."""
    services = Services(Settings(cache_dir=PRINTS / "cache", vision_provider="none"))
    found = []
    for path in sorted(p for p in CORPUS.rglob("*") if p.suffix.lower() in PRINTED and "groundtruth" not in p.parts):
        name = path.relative_to(CORPUS).as_posix()
        kept = PRINTS / f"{name.replace('/', '__')}.pdf"
        if not kept.exists():
            try:
                reading = read_file(path, images=True, services=services)
            except ReaderError as error:
                print(f"  {name} was not printed: {error.code}", flush=True)
                continue
            if reading.pdf is None:
                continue
            shutil.copyfile(reading.pdf.path, kept)
        found.append((f"{name} (print)", kept))
    return found


def witness(path: Path) -> list[str]:
    """Each page's text as pdftotext reads it, in its reading order."""
    result = subprocess.run(["pdftotext", "-enc", "UTF-8", str(path), "-"], capture_output=True, timeout=300)
    return result.stdout.decode("utf-8", "replace").split("\f")


def readlens(path: Path, cache: Path) -> tuple[dict[int, tuple[str, list[str]] | None], str | None]:
    """Each page's text and furniture as ReadLens reads them (None for a page it lost), or why the file failed."""
    services = Services(Settings(cache_dir=cache, vision_provider="none", max_pages=1000))
    try:
        reading = read_file(path, services=services)
    except ReaderError as error:
        return {}, f"{error.code}: {error.message}"
    return {page.number: None if page.error else (page.text, page.furniture) for page in reading.pages}, None


def compared(name: str, path: Path, cache: Path) -> list[tuple[str, int, Comparison, bool]]:
    theirs = witness(path)
    ours, failed = readlens(path, cache)
    if failed:
        print(f"  ReadLens could not read {name}: {failed}")
    pages = []
    for number, text in enumerate(theirs[:-1] if theirs and not theirs[-1].strip() else theirs, 1):
        read = ours.get(number)
        lost = read is None
        pages.append((name, number, compare(witness_words(text), readlens_words(*read) if read else []), lost))
    return pages


def _row(name: str, pages: list[tuple[str, int, Comparison, bool]]) -> list:
    words = sum(c.witness for _, _, c, _ in pages)
    same = sum(c.same for _, _, c, _ in pages)
    counts = [sum(c.counts[kind] for _, _, c, _ in pages) for kind in CLASSES]
    missing = sum(len(c.missing) for _, _, c, _ in pages)
    share = f"{same / words:.3f}" if words else "-"
    return [name, len(pages), sum(lost for *_, lost in pages), words, share, *counts, missing]


def main() -> None:
    PRINTS.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="readlens-bench-words-") as folder:
        files = corpus_pdfs() + printed_pdfs()
        results = {name: compared(name, path, Path(folder) / "cache") for name, path in files}
    header = ["file", "pages", "lost pages", "witness words", "same", *CLASSES, "lost by ReadLens"]
    rows = [_row(name, pages) for name, pages in results.items()]
    everything = [page for pages in results.values() for page in pages]
    validating = f"{VALIDATION.name}/"
    prints = [page for page in everything if page[0].endswith("(print)")]
    validation = [page for page in everything if page[0].startswith(validating)]
    pdfs = [page for page in everything if not page[0].endswith("(print)") and not page[0].startswith(validating)]
    totals = [_row("all corpus PDFs", pdfs), _row("all prints", prints), _row("all validation PDFs", validation)]
    report.table([header, *rows, *totals, _row("all", everything)])
    sets = {"the corpus's PDFs": pdfs, "the prints": prints, "the validation set": validation}
    lost = ", ".join(f"{sum(len(page[2].missing) for page in pages)} on {name}" for name, pages in sets.items())
    print(f"Words lost by ReadLens: {lost}\n")
    print(f"The {WORST} pages of the corpus with the most words not read as printed (every class but moved):")
    shown = [page for page in everything if not page[0].startswith(validating)]
    for name, number, comparison, lost_page in sorted(shown, key=lambda page: -page[2].faults)[:WORST]:
        counts = ", ".join(f"{kind} {count}" for kind, count in comparison.counts.items() if count)
        print(f"- {name} p. {number}{' (lost)' if lost_page else ''}: {counts}")
        for kind, examples in comparison.examples.items():
            if kind != "moved":
                print(f"    {kind}: {' | '.join(examples)}")
    missing = [(name, number, comparison.missing) for name, number, comparison, _ in shown if comparison.missing]
    print("\nWords lost by ReadLens (nowhere in the page's output) on the corpus and the prints, page by page:")
    for name, number, words in missing:
        more = " …" if len(words) > EXAMPLES_MISSING else ""
        print(f"- {name} p. {number}: {' | '.join(words[:EXAMPLES_MISSING])}{more}")
    print("\nTriage:")
    for kind in CLASSES:
        print(f"- {kind}: {TRIAGE[kind]}")
