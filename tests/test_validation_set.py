"""The tables' validation set (``tests/corpus/table-validation``) and generated tuning set
(``tests/corpus/table-tuning``) stay honest: every truth file is well formed and its PDF is there,
every cell of its truth is printed on the page it names, the validation set holds 300 tables at
least, every file is named in its SOURCES.md, every source is the original (the SHA-256 of its text
there) and no file outgrows the repository's bounds; and each truth table is matched to the found
table it shares the most with (``testkit.icdar_metric.match_tables``)."""

import gzip
import hashlib
import json
import re

import pytest

from testkit import CORPUS
from testkit.icdar_metric import match_tables, row_grid
from testkit.validation import (
    FEATURES,
    LAYOUTS,
    PARTS,
    RENDERERS,
    RTL_LETTERS,
    TUNING,
    VALIDATION,
    compact,
    grid,
    page_texts,
    source_file,
    tables,
    truth_files,
    validation_tables,
)

SETS = (VALIDATION, TUNING)
LEAST_TABLES = 300  # issue 49: at least 300 tables whose every cell is known
MOST_BYTES = 15 << 20  # the whole folder, in the repository
MOST_FILE_BYTES = 1 << 20  # a generated file


def spans_agree(rows: list[list]) -> bool:
    """Each spanning cell covers positions that are null, and each null is covered by one cell."""
    covered = set()
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            if isinstance(cell, dict):
                positions = {
                    (r + i, c + j) for i in range(cell.get("rowspan", 1)) for j in range(cell.get("colspan", 1))
                }
                if covered & positions or (cell.get("rowspan", 1), cell.get("colspan", 1)) == (1, 1):
                    return False
                covered |= positions - {(r, c)}
    nulls = {(r, c) for r, row in enumerate(rows) for c, cell in enumerate(row) if cell is None}
    return nulls == covered


@pytest.mark.parametrize(
    "truth",
    [truth for folder in SETS for truth in truth_files(folder)],
    ids=lambda path: path.relative_to(CORPUS).as_posix(),
)
def test_a_truth_file_is_well_formed_and_its_cells_are_on_its_pages(truth):
    data = json.loads(truth.read_text(encoding="utf-8"))
    pdf = truth.with_suffix(".pdf")
    assert pdf.is_file() and data["part"] in PARTS and data["renderer"] in (*RENDERERS, None)
    assert data["tables"] and all(source_file(source).is_file() for source in data["sources"])
    pages = page_texts(pdf)
    for table in tables(truth):
        assert 1 <= table.page <= len(pages)
        assert table.styles[0] in LAYOUTS and set(table.styles[1:]) <= set(FEATURES), table.styles
        assert len({len(row) for row in table.rows}) == 1, table.source  # a piece on a page may be one row
        assert spans_agree(table.rows), table.source
        for row in table.rows:
            for cell in row:
                text = cell["text"] if isinstance(cell, dict) else cell or ""
                for word in text.split():  # a wrapped cell's lines, a fallback font's letters, may be read apart
                    runs = re.findall(r"[^\W_]+", compact(word))  # (and "ee_GH" laid out from the right: "GH_ee")
                    assert RTL_LETTERS.search(word) or all(run in pages[table.page - 1] for run in runs), word


@pytest.mark.parametrize("folder", SETS, ids=lambda folder: folder.name)
def test_every_pdf_has_its_truth_and_the_validation_set_holds_300_tables(folder):
    pdfs = sorted(folder.rglob("*.pdf"))
    assert pdfs == sorted(validation_tables(folder))
    assert folder != VALIDATION or sum(len(found) for found in validation_tables().values()) >= LEAST_TABLES


@pytest.mark.parametrize("folder", SETS, ids=lambda folder: folder.name)
def test_sources_md_names_every_file_and_the_sources_are_the_originals(folder):
    listed = (folder / "SOURCES.md").read_text(encoding="utf-8")
    files = [path for path in folder.rglob("*") if path.is_file() and path.name != "SOURCES.md"]
    assert [path for path in files if f"`{path.relative_to(folder).as_posix()}`" not in listed] == []
    for source in (folder / "sources").rglob("*.gz"):
        digest = hashlib.sha256(gzip.decompress(source.read_bytes())).hexdigest()
        row = next(line for line in listed.splitlines() if f"`{source.relative_to(folder).as_posix()}`" in line)
        assert re.search(rf"\b{digest}\b", row), source


@pytest.mark.parametrize("folder", SETS, ids=lambda folder: folder.name)
def test_the_set_keeps_within_the_repositorys_bounds(folder):
    files = [path for path in folder.rglob("*") if path.is_file()]
    assert sum(path.stat().st_size for path in files) <= MOST_BYTES
    assert [path.name for path in files if path.stat().st_size > MOST_FILE_BYTES] == []


def test_each_truth_table_is_matched_to_the_found_table_with_the_most_relations_in_common():
    truth = [grid([["a", "b"], ["1", "2"]]), grid([["x", "y"], ["7", "8"], ["9", "10"]]), grid([["p", "q"]])]
    found = [row_grid([["x", "y"], ["7", "8"]]), row_grid([["a", "b"], ["1", "2"]]), row_grid([["z"]])]
    whole, cut, missed = match_tables(truth, found)
    assert (whole.found, whole.score.f1, whole.wrong) == (1, 1.0, False)
    assert (cut.found, cut.score.right, cut.score.expected, cut.wrong) == (0, 4, 7, True)  # its last row lost
    assert (missed.found, missed.score.expected, missed.wrong) == (None, 1, True)
