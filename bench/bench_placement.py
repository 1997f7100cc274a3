"""How often a Word document's blocks land on the page LibreOffice renders them on: ReadLens (a
forward-only cursor, ``readers.render.placement``) beside pages shared out by character count and
"the first page that holds the block's first words", on the marked document of
``testkit.fixtures.placement_document`` at two lengths (``testkit.placement`` scores them: where each block
starts and where a long one ends); then, on two corpus documents without markers, the passages
placement finds.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from bench import report
from readers.render.libreoffice import soffice
from testkit import CORPUS, fixtures
from testkit.placement import measure, placed_in, rendered


def passages_found(path: Path, work: Path) -> list:
    parsed, pages = rendered(path, work)
    placed, seconds = placed_in(parsed.blocks, pages, parsed)
    return [
        path.name,
        str(len(pages)),
        f"{placed.matchable - placed.unmatched}/{placed.matchable}",
        f"{seconds * 1000:.1f} ms",
    ]


def main() -> None:
    if soffice() is None:
        print("LibreOffice is not installed: nothing to measure (make setup installs it)")
        return
    rows = [
        [
            "document",
            "pages",
            "blocks: where they start / end",
            "ReadLens (cursor, paragraphs cut at breaks)",
            "by characters",
            "first page holding",
            "placement time",
        ]
    ]
    with tempfile.TemporaryDirectory(prefix="readlens-bench-") as folder:
        work = Path(folder)
        for blocks in (160, 480):
            rows += measure(fixtures.placement_document(work / f"placement-{blocks}.docx", blocks), work)
    report.table(rows)
    found = [["corpus document (no markers: passages found, not checked)", "pages", "passages found", "placement time"]]
    with tempfile.TemporaryDirectory(prefix="readlens-bench-") as folder:
        for name in ("docling/word_sample.docx", "markitdown/test.docx"):
            found.append(passages_found(CORPUS / name, Path(folder)))
    report.table(found)
