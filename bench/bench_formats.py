"""Formats (issue 31): ReadLens and markitdown scored against the Markdown docling's own tests expect of
84 of its test files (33 DOCX, 32 HTML, 8 PPTX, 11 XLSX; ``tests/corpus/docling/groundtruth/<source>.md``,
the sources in ``tests/corpus/docling/formats/`` or ``tests/corpus/docling/``).

Per format: the mean normalised similarity and word recall (``testkit.groundtruth``), the ground truth's
table rows the tool's tables match (whole or as a column slice, with the whole ones beside), the files
read (a read that fails scores 0) and the median seconds per file. ReadLens reads each file once,
text-only with no API key and an empty cache of its own (``read_file`` + ``as_text()``, its page headers
dropped before scoring), after one unrelated warm-up read that is not counted; markitdown converts it in
its scratch virtualenv (``bench.scratch.markitdown``, median of its runs), or the table has ReadLens alone.

Targets (issue 31): similarity at least markitdown's on every format and at least 0.97 on HTML, at
least 90% of each format's table rows matched, every file read.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from statistics import mean, median
from time import perf_counter

from bench import report
from bench.bench_peers import read_cold
from bench.scratch import markitdown
from readers import ReaderError
from readers.render import libreoffice
from testkit import CORPUS, fixtures
from testkit.groundtruth import score, table_rows, without_page_headers

GROUND_TRUTH = CORPUS / "docling" / "groundtruth"
SOURCE_FOLDERS = (CORPUS / "docling" / "formats", CORPUS / "docling")
FORMATS = {".docx": "DOCX", ".html": "HTML", ".pptx": "PPTX", ".xlsx": "XLSX", ".xlsm": "XLSX"}
HTML_SIMILARITY, ROWS_SHARE = 0.97, 0.90  # issue 31's targets


def sources() -> dict[str, list[tuple[Path, str]]]:
    """Each format's sources with their ground-truth Markdown, in name order."""
    found: dict[str, list[tuple[Path, str]]] = {name: [] for name in dict.fromkeys(FORMATS.values())}
    for truth in sorted(GROUND_TRUTH.glob("*.md")):
        name = truth.name.removesuffix(".md")
        source = next(folder / name for folder in SOURCE_FOLDERS if (folder / name).is_file())
        found[FORMATS[source.suffix]].append((source, truth.read_text(encoding="utf-8")))
    return found


def readlens(path: Path, folder: Path) -> dict:
    """One cold text-only read: its seconds and text without page headers, or the error."""
    start = perf_counter()
    try:
        text = read_cold(path, folder)
    except ReaderError as error:
        return {"error": error.message}
    return {"seconds": perf_counter() - start, "markdown": without_page_headers(text)}


def scored(truth: str, result: dict | None) -> dict | None:
    """A tool's scores on a file (zero when it did not read it), or None when it was not run."""
    if result is None:
        return None
    if "error" in result:
        return {"similarity": 0.0, "recall": 0.0, "rows": 0, "whole_rows": 0, "read": False, "seconds": None}
    return {**score(truth, result["markdown"]), "read": True, "seconds": result["seconds"]}


def summary(files: list[dict | None]) -> dict | None:
    """A tool's figures on a format: mean similarity and recall, rows matched, files read, median seconds."""
    if any(entry is None for entry in files):
        return None
    seconds = [entry["seconds"] for entry in files if entry["read"]]
    return {
        "similarity": mean(entry["similarity"] for entry in files),
        "recall": mean(entry["recall"] for entry in files),
        "rows": sum(entry["rows"] for entry in files),
        "whole_rows": sum(entry["whole_rows"] for entry in files),
        "read": sum(entry["read"] for entry in files),
        "seconds": median(seconds) if seconds else None,
    }


def figure(value: dict | None, key: str, total: int) -> str:
    """One cell of the scores table."""
    if value is None:
        return "not measured"
    if key == "rows":
        return f"{value[key]} of {total} ({value['whole_rows']} whole)"
    if key == "read":
        return f"{value[key]} of {total}"
    if key == "seconds":
        return f"{value[key]:.3f} s" if value[key] is not None else "none"
    return f"{value[key]:.3f}"


def verdict(met: bool | None) -> str:
    """A target's last column."""
    return "not measured" if met is None else "met" if met else "NOT met"


def targets(totals: dict[str, dict]) -> list[list[str]]:
    """The issue's targets, each with ReadLens's figure and whether it is met."""
    rows = [["target", "ReadLens", "met"]]
    for name, total in totals.items():
        ours, theirs = total["readlens"], total["markitdown"]
        beside = f" (markitdown {theirs['similarity']:.3f})" if theirs else ""
        rows.append(
            [
                f"{name}: similarity >= markitdown's",
                f"{ours['similarity']:.3f}{beside}",
                verdict(ours["similarity"] >= theirs["similarity"] if theirs else None),
            ]
        )
    html = totals["HTML"]["readlens"]
    rows.append(
        [
            f"HTML: similarity >= {HTML_SIMILARITY}",
            f"{html['similarity']:.3f}",
            verdict(html["similarity"] >= HTML_SIMILARITY),
        ]
    )
    for name, total in totals.items():
        if total["truth_rows"]:
            share = total["readlens"]["rows"] / total["truth_rows"]
            rows.append(
                [f"{name}: table rows matched >= {ROWS_SHARE:.0%}", f"{share:.0%}", verdict(share >= ROWS_SHARE)]
            )
    read = sum(total["readlens"]["read"] for total in totals.values())
    files = sum(total["files"] for total in totals.values())
    rows.append(["every file read", f"{read} of {files}", verdict(read == files)])
    return rows


def main() -> None:
    by_format = sources()
    paths = [path for files in by_format.values() for path, _ in files]
    theirs = markitdown(paths)
    totals: dict[str, dict] = {}
    failures = []
    with tempfile.TemporaryDirectory(prefix="readlens-bench-") as folder:
        folder = Path(folder)
        start = perf_counter()
        read_cold(fixtures.word_document(folder / "warm-up.docx"), folder)
        print(f"warm-up read of an unrelated DOCX (not counted): {perf_counter() - start:.2f} s", flush=True)
        for name, files in by_format.items():
            results = {path: readlens(path, folder) for path, _ in files}
            ours = [scored(truth, results[path]) for path, truth in files]
            peer = [scored(truth, theirs.get(path)) if theirs else None for path, truth in files]
            for tool, answers in (("ReadLens", results), ("markitdown", theirs)):
                failures += [
                    f"{tool} did not read {path.name}: {answers[path]['error']}"
                    for path, _ in files
                    if "error" in answers.get(path, {})
                ]
            totals[name] = {
                "files": len(files),
                "truth_rows": sum(len(table_rows(truth)) for _, truth in files),
                "readlens": summary(ours),
                "markitdown": summary(peer),
            }
        libreoffice.shutdown()  # its profile is in the folder, which it would write to while it is removed
    head = ["format", "files", "tool", "similarity", "word recall", "table rows matched", "files read", "median s/file"]
    rows = [head]
    for name, total in totals.items():
        for tool in ("readlens", "markitdown"):
            value = total[tool]
            rows.append(
                [
                    name,
                    str(total["files"]),
                    "ReadLens" if tool == "readlens" else "markitdown",
                    figure(value, "similarity", total["files"]),
                    figure(value, "recall", total["files"]),
                    figure(value, "rows", total["truth_rows"]),
                    figure(value, "read", total["files"]),
                    figure(value, "seconds", total["files"]),
                ]
            )
    print()
    report.table(rows)
    report.table(targets(totals))
    for line in failures:
        print(line)
    print(
        "ReadLens: one read_file + as_text() a file, text-only, no API key, an empty cache each, in this process; "
        "markitdown: median of its conversions, import outside the clock; the machine's load slows the seconds, "
        "not the scores"
    )
