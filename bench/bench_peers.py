"""Peers (issue 19, "Measure it"): ReadLens side by side with markitdown on the same files, in three
groups: Office (every DOCX, PPTX and XLSX in tests/corpus and assets), web pages (docling's HTML
samples and assets/web-page.html) and scans (docling's scanned A4 page, markitdown's photo, that
A4 page turned 90° as a one-page image PDF made here, and pdfplumber's 3-page scanned Chinese notice,
dense print at 300 dpi: its row over 3 is its time a page).

ReadLens reads text-only with no API key (``vision_provider="auto"`` and no key, so local OCR
describes the figures), cold: every read has an empty cache of its own. A file's time is
``read_file`` plus ``as_text()``, the median of ``RUNS`` such reads. In each group one read of an
unrelated file comes first and is not counted, so the imports and the OCR model's load (once per
process) are not charged to a file; markitdown's import is outside its clock too. A group's figure
is the median seconds per file; its ratio compares the files both tools read (gave text from).

markitdown is never the project's dependency: it runs in its scratch virtualenv outside the repo
(``bench.scratch.MARKITDOWN``, ``readlens-bench-markitdown`` in the system's temp dir), converting
each file ``MARKITDOWN_RUNS`` times (``bench/markitdown_peer.py``). If that fails, it says so and
ReadLens is measured alone.

Also measured: the first page visible in the app for a DOCX, from the upload to the first page image
the app's upload handler (``ui.handlers.read_uploads``) yields, with an empty cache.

Targets (issue 34): Office files at most 3x markitdown's median seconds per file and web pages at
most 5x (a web page read text-only is not printed); scans at most 2.5 s a page for ReadLens.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path
from statistics import median
from time import perf_counter

from bench import report
from bench.scratch import MARKITDOWN_RUNS, markitdown
from readers import ReaderError, ReadOptions, Services, Settings, read_file
from readers.render import libreoffice
from testkit import CORPUS, ROOT, fixtures
from ui.handlers import read_uploads

RUNS = 3
OFFICE_RATIO, WEB_RATIO, SCAN_TARGET_S = 3.0, 5.0, 2.5
OFFICE_SUFFIXES = {".docx", ".pptx", ".xlsx"}
SCAN = CORPUS / "docling" / "ocr_test.pdf"
APP_DOCX = CORPUS / "markitdown" / "test.docx"


@dataclass
class Group:
    """Files measured together, the unrelated file read first, and the group's target: at most
    ``ratio`` times markitdown's time, or at most ``seconds`` per file."""

    name: str
    files: list[Path]
    warm_up: Path
    ratio: float | None = None
    seconds: float | None = None


def office_files() -> list[Path]:
    """Every DOCX, PPTX and XLSX in tests/corpus and assets."""
    return sorted(
        path for root in (CORPUS, ROOT / "assets") for path in root.rglob("*") if path.suffix in OFFICE_SUFFIXES
    )


def groups(folder: Path) -> list[Group]:
    """The three groups; the turned scan and the warm-up files are made in ``folder``."""
    office = office_files()
    web = [*sorted((CORPUS / "docling" / "formats").glob("*.html")), ROOT / "assets" / "web-page.html"]
    scans = [
        SCAN,
        CORPUS / "markitdown" / "test.jpg",
        fixtures.turned_scan_pdf(folder / "ocr_test-turned-90.pdf", SCAN, 90),
        CORPUS / "pdfplumber" / "issue-203-decimalize.pdf",
    ]
    return [
        Group("Office", office, fixtures.word_document(folder / "warm-up.docx"), ratio=OFFICE_RATIO),
        Group("web pages", web, fixtures.web_page(folder / "warm-up.html"), ratio=WEB_RATIO),
        Group(
            "scans",
            scans,
            fixtures.turned_scan_pdf(folder / "warm-up-scan.pdf", CORPUS / "markitdown" / "test.pdf", 0),
            seconds=SCAN_TARGET_S,
        ),
    ]


def read_cold(path: Path, folder: Path) -> str:
    """The text-only payload of one read with an empty cache and no API key (local OCR describes the figures)."""
    cache = Path(tempfile.mkdtemp(prefix="cache-", dir=folder))
    return read_file(path, services=Services(Settings(cache_dir=cache, vision_provider="auto"))).as_text()


def readlens_time(path: Path, folder: Path) -> dict:
    """The file's median seconds of ``RUNS`` cold reads and its payload's length, or the error."""
    seconds = []
    for _ in range(RUNS):
        start = perf_counter()
        try:
            text = read_cold(path, folder)
        except ReaderError as error:
            return {"error": error.message}
        seconds.append(perf_counter() - start)
    return {"seconds": median(seconds), "chars": len(text)}


def first_page_in_app(cache: Path) -> tuple[float | None, float]:
    """Seconds from the upload of ``APP_DOCX`` to the first page image the app's handler yields,
    and to its last yield."""
    services = Services(Settings(cache_dir=cache, vision_provider="auto"))
    first, start = None, perf_counter()
    for entries in read_uploads([str(APP_DOCX)], ReadOptions(multimodal=False), services):
        if first is None and any(page.image for page in entries[0].shown):
            first = perf_counter() - start
    return first, perf_counter() - start


def gave_text(result: dict | None) -> bool:
    """Whether a tool read the file: no error and some text (markitdown gives an empty page for a photo)."""
    return bool(result and result.get("chars"))


def shown(result: dict | None, key: str) -> str:
    """A tool's ``seconds`` or ``chars`` for a file's row; a failure's reason in the seconds' column."""
    if result is None:
        return "not measured"
    if "error" in result:
        return f"failed: {result['error']}" if key == "seconds" else ""
    return (
        f"{result['seconds']:.3f} s"
        if key == "seconds"
        else f"{result['chars']:,}"
        if result["chars"]
        else "0 (nothing)"
    )


def seconds_text(value: float | None) -> str:
    return f"{value:.3f} s" if value is not None else "none"


def summary(group: Group, ours: dict[Path, dict], theirs: dict[Path, dict]) -> list:
    """The group's row: median seconds per file of ReadLens (every file it read), of both tools on
    the files both read, their ratio, the target and whether it is met."""
    read = [path for path in group.files if "seconds" in ours[path]]
    both = [path for path in read if gave_text(theirs.get(path))]
    our_median = median(ours[path]["seconds"] for path in read) if read else None
    our_both = median(ours[path]["seconds"] for path in both) if both else None
    their_both = median(theirs[path]["seconds"] for path in both) if both else None
    ratio = our_both / their_both if both else None
    if group.ratio is not None:
        target = f"<= {group.ratio:g}x markitdown"
        met = "not measured" if ratio is None else "PASS" if ratio <= group.ratio else "FAIL"
    else:
        target = f"<= {group.seconds:g} s per file (ReadLens)"
        met = "not measured" if our_median is None else "PASS" if our_median <= group.seconds else "FAIL"
    return [
        group.name,
        f"{len(read)} of {len(group.files)}",
        seconds_text(our_median),
        f"{len(both)} of {len(group.files)}",
        seconds_text(our_both),
        seconds_text(their_both),
        f"{ratio:.1f}x" if ratio is not None else "none",
        target,
        met,
    ]


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="readlens-bench-") as folder:
        folder = Path(folder)
        measured = groups(folder)
        theirs = markitdown([path for group in measured for path in group.files])
        rows = [
            [
                "group",
                "file",
                f"ReadLens (median of {RUNS} cold)",
                "ReadLens chars",
                f"markitdown (median of {MARKITDOWN_RUNS})",
                "markitdown chars",
                "ratio",
            ]
        ]
        summaries = [
            [
                "group",
                "files ReadLens read",
                "ReadLens s/file (median)",
                "files both read",
                "ReadLens on them",
                "markitdown on them",
                "ratio",
                "target",
                "met",
            ]
        ]
        for group in measured:
            start = perf_counter()
            read_cold(group.warm_up, folder)
            print(
                f"{group.name}: warm-up read of {group.warm_up.name} (unrelated, "
                f"not counted): {perf_counter() - start:.2f} s",
                flush=True,
            )
            ours = {path: readlens_time(path, folder) for path in group.files}
            for path in group.files:
                mine, peer = ours[path], theirs.get(path) if theirs else None
                ratio = f"{mine['seconds'] / peer['seconds']:.1f}x" if "seconds" in mine and gave_text(peer) else ""
                rows.append(
                    [
                        group.name,
                        str(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name),
                        shown(mine, "seconds"),
                        shown(mine, "chars"),
                        shown(peer, "seconds"),
                        shown(peer, "chars"),
                        ratio,
                    ]
                )
            summaries.append(summary(group, ours, theirs))
        libreoffice.shutdown()  # as in an app just started: LibreOffice is started by this upload
        cold = first_page_in_app(folder / "app-cold")
        warm = first_page_in_app(folder / "app-warm")
        libreoffice.shutdown()  # its profile is in the folder, which it would write to while it is removed
    print()
    report.table(summaries)
    report.table(rows)
    for label, (first, whole) in (("LibreOffice started by the upload", cold), ("LibreOffice already running", warm)):
        first_text = f"{first:.2f} s" if first is not None else "never (no page image was yielded)"
        print(
            f"first page visible in the app for {APP_DOCX.name} (ui.handlers.read_uploads, empty cache, {label}): "
            f"first page image {first_text}, whole reading {whole:.2f} s"
        )
    print(
        "ReadLens: read_file + as_text(), text-only, no API key (local "
        "OCR), each read with an empty cache, in this process after "
        "one unrelated warm-up read per group; markitdown: its import "
        "and MarkItDown() outside the clock"
    )
