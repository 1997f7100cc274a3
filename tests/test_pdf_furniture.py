"""Page furniture kept apart: stamps, document codes, page numbers and line numbers go to
``page.furniture`` on a page read alone, content at the page's edge stays in its text, and the
furniture reaches the app, the export, the JSON and the batch records, never a model's text."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import gradio as gr
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from readers import Services, read_file
from readers.batch.outputs import ParquetOutput, parquet_schema
from readers.batch.records import FIELDS, page_records
from testkit import ROOT, make_settings
from testkit.fixtures import page_furniture as furniture
from ui.handlers import Entry
from ui.pages import show_entries
from ui.report import report_markdown


@pytest.fixture(scope="module")
def manual(tmp_path_factory):
    return furniture.furniture_pages_pdf(tmp_path_factory.mktemp("furniture") / "manual.pdf")


@pytest.fixture(scope="module")
def services(tmp_path_factory):
    return Services(make_settings(tmp_path_factory.mktemp("furniture-cache")))


def test_stamps_codes_and_page_numbers_on_a_page_read_alone_are_kept_apart(manual, services):
    reading = read_file(manual, 1, 1, services=services)
    page = reading.pages[0]
    assert page.furniture == [furniture.STAMP, furniture.RUNNING_HEAD, furniture.PAGE_NUMBER]
    assert page.text.startswith("# Replacing the pump seal"), "the running title beside the code goes with it"
    assert all(step in page.text for step in furniture.SEAL_STEPS)
    assert page.text.endswith(f"{furniture.CAPTION}\n\n{furniture.FOOTNOTE}"), (
        "the caption and the footnote at the foot stay"
    )
    for text in (page.text, reading.as_text()):
        assert "Downloaded" not in text and "P/N" not in text and "Revision" not in text and "- 3 -" not in text
        assert furniture.RUNNING_TITLE not in text


def test_line_numbers_in_the_margin_are_furniture_and_a_tables_last_row_stays(manual, services):
    page = read_file(manual, 2, 2, services=services).pages[0]
    assert page.furniture == [furniture.DATE_STAMP, furniture.ROMAN_PAGE, "Line numbers 1\u20137"]
    assert "\n".join(furniture.NUMBERED_LINES) in page.text, "each line as written, no number before it"
    assert page.text.endswith("| Seals | 10 | 12 |\n| Gaskets | 11 | 15 |"), (
        "the last row in the bottom band keeps its numbers"
    )
    assert "Download date" not in page.text and "iii" not in page.text


def test_furniture_is_shown_under_the_text_and_written_in_the_export(manual, services, tmp_path):
    reading = read_file(manual, services=services)
    entries = [Entry("manual.pdf", reading=reading, done=True)]
    markdown = report_markdown(entries)[0]
    first = f"Page furniture: {furniture.STAMP} \u00b7 {furniture.RUNNING_HEAD} \u00b7 {furniture.PAGE_NUMBER}"
    assert f"{furniture.FOOTNOTE}\n\n*(Source: manual.pdf, p. 1)*\n\n{first}\n\n### Page 2" in markdown
    assert markdown.count("Page furniture:") == 2 and markdown.count(furniture.STAMP) == 1
    with gr.Blocks() as demo:
        show_entries(entries, tmp_path)
    shown = [
        block.value
        for block in demo.blocks.values()
        if isinstance(block, gr.Markdown) and "Page furniture" in (block.value or "")
    ]
    assert shown == [
        first,
        f"Page furniture: {furniture.DATE_STAMP} \u00b7 {furniture.ROMAN_PAGE} \u00b7 Line numbers 1\u20137",
    ]


def test_furniture_is_in_the_json_and_the_batch_records(manual, services, tmp_path):
    env = {**os.environ, "READLENS_CACHE_DIR": str(tmp_path / "cli"), "VISION_PROVIDER": "none"}
    result = subprocess.run(
        [sys.executable, "-m", "readers", str(manual), "--format", "json"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    data = json.loads(result.stdout)
    assert [page["furniture"][0] for page in data["pages"]] == [furniture.STAMP, furniture.DATE_STAMP]
    assert furniture.STAMP not in data["text"]
    records = page_records(read_file(manual, services=services), "manual.pdf")
    assert all(tuple(record) == FIELDS for record in records)
    assert records[1]["furniture"] == [furniture.DATE_STAMP, furniture.ROMAN_PAGE, "Line numbers 1\u20137"]


def test_a_parquet_output_from_before_the_furniture_is_resumed(tmp_path):
    """Rows written before the field was added are kept, with no furniture, beside the new ones."""
    old_fields = [name for name in FIELDS if name != "furniture"]
    old_row = {
        **dict.fromkeys(old_fields),
        "file": "old.md",
        "sha256": "0" * 64,
        "kind": "text",
        "page": 1,
        "page_count": 1,
        "pages_read": 1,
        "text": "Old",
        "tables": [],
        "warnings": [],
    }
    path = tmp_path / "pages.parquet"
    old_schema = pa.schema([field for field in parquet_schema(pa) if field.name != "furniture"])
    pq.write_table(pa.Table.from_pylist([old_row], schema=old_schema), path)
    output = ParquetOutput(path)
    assert output.resume().done == {"0" * 64}, "the old file is known and not read again"
    new_row = {**dict.fromkeys(FIELDS), **old_row, "file": "new.md", "sha256": "1" * 64, "furniture": ["Page 1 of 1"]}
    output.append([new_row])
    output.close()
    rows = pq.read_table(path).to_pylist()
    assert [(row["file"], row["furniture"]) for row in rows] == [("old.md", None), ("new.md", ["Page 1 of 1"])]


def test_page_numbers_told_on_some_pages_alone_count_towards_the_others(tmp_path, services):
    """The numbers in small type are furniture on their pages alone; with them, the numbers in the
    body's type stand on every page read, counting the pages, so they are furniture too."""
    path = furniture.page_numbers_pdf(tmp_path / "numbered.pdf")
    pages = read_file(path, services=services).pages
    assert [page.furniture for page in pages] == [[str(page.number)] for page in pages]
    assert [page.text for page in pages] == furniture.CHAPTER_LINES


def test_repetition_never_takes_a_pages_whole_body(tmp_path, services):
    """Each page of a form says what the others say but for its number: read together, its lines
    once were all taken for running headers, and pages 1-3 had no text while page 7 alone had its."""
    path = furniture.form_pages_pdf(tmp_path / "form.pdf")
    together = read_file(path, 1, 3, services=services).pages
    for page in together + read_file(path, 7, 7, services=services).pages:
        n = page.number
        lines = [f"Inspection record {n}", f"Unit {n} was checked and sealed.", f"Inspector signature for unit {n}"]
        assert page.text == "\n\n".join(lines) and page.furniture == [f"Page {n} of 8"]
