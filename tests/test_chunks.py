"""Chunks (``Reading.chunks``): what a retriever indexes, on long reports with headings (a PDF, a
Word document, a Markdown file), a table longer than the limit, figures, a ZIP, a log and a
recording — never over the limit, no table row cut, the right pages, lines, times and headings,
and no word of the reading lost."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import subprocess
import sys
import zipfile
from collections import Counter

import pyarrow.parquet as pq
import pytest
from openpyxl import Workbook
from openpyxl.chart import BarChart, Reference

from readers import ReaderError, Services, read_file
from readers.batch.records import CHUNK_FIELDS
from readers.payload.tokens import text_tokens
from readers.render.libreoffice import soffice
from testkit import CORPUS, ROOT, fixtures, make_settings
from ui.handlers import Entry
from ui.report import write_report

LIMITS = (128, 512, 2048)
MARKERS = re.compile(
    r"^\[(?:PAGE|SLIDE|SHEET|IMAGE|FILE|AUDIO)[^\]\n]*\]$", re.M
)  # what as_text adds around the content
PARAGRAPH_MARKER = re.compile(r"\b(c\d+s\d+[pltr]\d+|SHP-\d{4})\b")
needs_office = pytest.mark.skipif(soffice() is None, reason="needs LibreOffice (make setup installs it)")


def words(text: str) -> Counter:
    return Counter(re.findall(r"\w+", text))


def table_runs(text: str) -> list[list[str]]:
    """The Markdown tables in ``text``: each run of consecutive lines that start with "|"."""
    runs, run = [], []
    for line in text.split("\n"):
        if line.startswith("|"):
            run.append(line)
        elif run:
            runs.append(run)
            run = []
    return runs + ([run] if run else [])


def cells(row: str) -> int:
    return len(re.findall(r"(?<!\\)\|", row)) - 1


def table_heads(text: str) -> Counter:
    """The words of what a table's part may repeat: its header row, and a chart's title line over it."""
    heads, lines = Counter(), text.split("\n")
    for index, line in enumerate(lines):
        if line.startswith("|") and (index == 0 or not lines[index - 1].startswith("|")):
            heads += words(line)
            if index >= 2 and lines[index - 2].startswith("Chart"):
                heads += words(lines[index - 2])
    return heads


def check_chunks(reading, chunks, limit: int) -> None:
    """Every promise a list of chunks makes, checked against the reading it was cut from."""
    assert [chunk.number for chunk in chunks] == list(range(1, len(chunks) + 1))
    source = reading.as_text()
    source_lines = set(source.split("\n"))
    headers: Counter = Counter()
    for chunk in chunks:
        assert chunk.tokens == text_tokens(chunk.text) <= limit, (chunk.number, chunk.tokens)
        assert [re.sub(r"^#+ ", "", line) for line in chunk.context.split("\n") if line] == chunk.headings
        assert (
            chunk.text == "\n\n".join(filter(None, [chunk.context, chunk.overlap + chunk.content]))
            and chunk.content.strip()
        )
        for run in table_runs(chunk.content):  # never a row cut: whole rows under their header and rule
            assert len(run) >= 2 and re.fullmatch(r"\|( *:?-+:? *\|)+", run[1]), run[:3]
            assert all(line in source_lines for line in run), [line for line in run if line not in source_lines]
            assert all(cells(line) == cells(run[0]) for line in run[2:])
        headers += table_heads(chunk.content)
        if reading.transcript is None:
            assert chunk.pages, chunk.number
    expected = words(MARKERS.sub("", source))
    got = sum((words(chunk.content) for chunk in chunks), Counter())
    got += sum(
        (
            words(path[-1])
            for path in {
                (chunk.section, *chunk.headings[:depth])
                for chunk in chunks
                for depth in range(1, len(chunk.headings) + 1)
            }
        ),
        Counter(),
    )
    assert not expected - got, f"words lost: {list((expected - got).items())[:10]}"
    assert not (got - expected) - headers, f"words added: {list(((got - expected) - headers).items())[:10]}"


def check_pages(reading, chunks) -> None:
    """Each chunk's content is on its pages, and each of its pages holds some of it."""
    content = {page.number: f"{page.text}\n{page.description or ''}" for page in reading.pages}
    for chunk in chunks:
        lines = [line.strip() for line in chunk.content.split("\n")]
        repeated = {
            index for index, line in enumerate(lines) if line.startswith("|---")
        }  # a table's header may be repeated from an earlier page
        pieces = [
            line for index, line in enumerate(lines) if line and index not in repeated and index + 1 not in repeated
        ]
        for piece in pieces:
            assert any(piece in content[number] for number in chunk.pages), (chunk.number, chunk.pages, piece[:60])
        for number in chunk.pages:
            assert any(line and line in content[number] for line in lines), (chunk.number, number)


@pytest.fixture(scope="module")
def services(tmp_path_factory) -> Services:
    return Services(make_settings(tmp_path_factory.mktemp("cache"), vision_provider="ocr"))


@pytest.fixture(scope="module")
def reports(tmp_path_factory, services) -> dict:
    folder = tmp_path_factory.mktemp("reports")
    made = {"pdf": fixtures.report_pdf(folder / "report.pdf"), "md": fixtures.report_markdown(folder / "report.md")}
    if soffice():
        made["docx"] = fixtures.report_docx(folder / "report.docx")
    return {kind: read_file(path, services=services) for kind, path in made.items()}


REPORTS = ["pdf", "md", pytest.param("docx", marks=needs_office)]


@pytest.mark.parametrize("limit", LIMITS)
@pytest.mark.parametrize("kind", REPORTS)
def test_a_long_report_is_cut_within_the_limit_losing_no_word(reports, kind, limit):
    reading = reports[kind]
    chunks = reading.chunks(limit)
    check_chunks(reading, chunks, limit)
    check_pages(reading, chunks)
    assert {chunk.kind for chunk in chunks} == {"text", "table"}
    assert max(chunk.tokens for chunk in chunks) > limit * 0.7  # neighbours merged up to the limit, not left small


@pytest.mark.parametrize("limit", LIMITS)
@pytest.mark.parametrize("kind", REPORTS)
def test_each_chunk_stands_under_its_heading_path(reports, kind, limit):
    expected = fixtures.expected_headings()
    seen = set()
    for chunk in reports[kind].chunks(limit):
        for marker in set(PARAGRAPH_MARKER.findall(chunk.content)):
            assert chunk.headings == expected[marker], (marker, chunk.headings)
            seen.add(marker)
    assert seen == set(expected)


@pytest.mark.parametrize("limit", LIMITS)
def test_a_table_longer_than_the_limit_is_cut_between_rows_each_part_under_its_header(reports, limit):
    chunks = reports["md"].chunks(limit)
    parts = [
        run
        for chunk in chunks
        for run in table_runs(chunk.content)
        if "SHP-0001" in "\n".join(run) or "| SHP-" in run[2]
    ]
    header = "| " + " | ".join(fixtures.SHIPMENTS[0]) + " |"
    assert len(parts) >= 2 and all(part[0] == header for part in parts)
    rows = [line for part in parts for line in part[2:]]
    assert rows == ["| " + " | ".join(row) + " |" for row in fixtures.SHIPMENTS[1:]]  # each row once, whole, in order
    first = next(chunk for chunk in chunks if "SHP-0001" in chunk.content)
    assert fixtures.SHIPMENTS_INTRO in first.content and first.kind == "table"


@pytest.mark.parametrize("limit", LIMITS)
@pytest.mark.parametrize("kind", REPORTS)
def test_a_small_table_stays_with_the_sentence_that_introduces_it(reports, kind, limit):
    chunk = next(chunk for chunk in reports[kind].chunks(limit) if "| Q1 | 410 |" in chunk.content)
    assert chunk.kind == "table" and fixtures.SMALL_TABLE_INTRO in " ".join(
        chunk.content.split()
    )  # a PDF wraps it over two lines
    assert chunk.headings == ["Chapter 1 Growth", "Section 1.2 Shipping", "Latency by region"]


@pytest.mark.parametrize("kind", REPORTS)
def test_a_heading_with_nothing_under_it_is_kept_as_its_line(reports, kind):
    chunk = next(chunk for chunk in reports[kind].chunks(512) if fixtures.EMPTY_SECTION in chunk.text)
    assert chunk.content.endswith(f"## {fixtures.EMPTY_SECTION}") and chunk.headings == ["Chapter 3 Outlook"]


@pytest.mark.parametrize("kind", ["pdf", "md"])
def test_overlap_repeats_the_end_of_the_previous_chunk_never_past_a_heading(reports, kind):
    reading = reports[kind]
    chunks = reading.chunks(128, overlap_tokens=32)
    check_chunks(reading, chunks, 128)
    overlapped = 0
    for before, chunk in zip(chunks, chunks[1:]):
        if chunk.overlap:
            overlapped += 1
            assert (
                before.headings == chunk.headings and "|" not in chunk.overlap and not chunk.content.startswith("|")
            )  # text after text only
            assert before.content.endswith(chunk.overlap.rstrip()) and 0 < text_tokens(chunk.overlap.rstrip()) <= 32
        if before.headings != chunk.headings:
            assert not chunk.overlap
    assert overlapped >= 10
    assert not chunks[0].overlap


def test_figures_are_chunks_of_their_own_with_page_box_and_kind(services):
    reading = read_file(ROOT / "assets" / "chart-report.pdf", services=services)
    for limit in LIMITS:
        chunks = reading.chunks(limit)
        check_chunks(reading, chunks, limit)
        check_pages(reading, chunks)
        figures = [chunk for chunk in chunks if chunk.kind == "figure"]
        assert [(chunk.pages, chunk.content.split("\n")[0]) for chunk in figures] == [
            ([1], "Chart (bar chart)"),
            (
                [1],
                "Figure 1 (drawing, middle of the page): a chart (bar, 2 series); "
                "its data is in the page's text, as a table.",
            ),
            ([2], "Chart: Share of revenue (pie chart)"),
            (
                [2],
                "Figure 1 (drawing, middle of the page): a chart (pie, 3 slices); "
                "its data is in the page's text, as a table.",
            ),
        ]
        for chunk in figures:
            page = reading.pages[chunk.pages[0] - 1]
            [(number, box)] = [(box.page, box.box) for box in chunk.boxes]  # the chart's: its drawing and labels
            drawn = page.figures[0].box
            assert number == page.number and box[0] <= drawn[0] and box[1] <= drawn[1]
            assert box[2] >= drawn[2] and box[3] >= drawn[3]
            assert chunk.citation == f"chart-report.pdf, p. {page.number}" and chunk.headings == [
                page.text.split("\n")[0][2:]
            ]
        assert "| Q4 | 170 | 125 |" in figures[0].content and figures[0].content.endswith("*values as printed*")
        table = next(chunk for chunk in chunks if chunk.kind == "table")
        assert table.pages == [3] and table.content.startswith(
            "The table lists the units sold in each quarter.\n\n| Region |"
        )


def test_a_chart_over_the_limit_is_cut_between_rows_each_part_titled(tmp_path, services):
    """A workbook's column chart of 60 months, as the sheet's reader gives it (a chart block: its heading
    and its data's table): each part of it a chunk under its heading and its table's header."""
    book = Workbook()
    sheet = book.active
    sheet.append(["Month", "Orders"])
    for number in range(1, 61):
        sheet.append([f"Month {number}", number * 11])
    chart = BarChart()
    chart.title = "Orders per month"
    chart.add_data(Reference(sheet, min_col=2, min_row=1, max_row=61), titles_from_data=True)
    chart.set_categories(Reference(sheet, min_col=1, min_row=2, max_row=61))
    sheet.add_chart(chart, "D2")
    book.save(tmp_path / "orders.xlsx")
    reading = read_file(tmp_path / "orders.xlsx", services=services)
    chunks = reading.chunks(128)
    check_chunks(reading, chunks, 128)
    parts = [chunk for chunk in chunks if chunk.kind == "figure" and chunk.content.startswith("Chart: ")]
    assert len(parts) >= 3 and all(
        chunk.content.startswith("Chart: Orders per month (column chart)\n\n|  | Orders |\n|---|---|\n")
        for chunk in parts
    )
    shown = [line for chunk in parts for line in chunk.content.split("\n")[4:] if line.startswith("| Month ")]
    assert shown == [f"| Month {number} | {number * 11} |" for number in range(1, 61)]  # every row once, in order


def test_a_log_is_cut_at_lines_each_chunk_naming_its_lines(tmp_path, services):
    log = fixtures.numbered_log(tmp_path / "app.log", 400)
    reading = read_file(log, services=services)
    assert reading.page_count > 3
    for limit in LIMITS:
        chunks = reading.chunks(limit)
        check_chunks(reading, chunks, limit)
        check_pages(reading, chunks)
        assert chunks[0].lines[0] == 1 and chunks[-1].lines[1] == 400
        for before, chunk in zip(chunks, chunks[1:]):
            assert chunk.lines[0] == before.lines[1] + 1
        for chunk in chunks:
            first, last = chunk.lines
            assert chunk.content == "\n".join(fixtures.log_line(number) for number in range(first, last + 1))
            assert chunk.citation == f"app.log, lines {first}–{last}" and chunk.headings == [] and chunk.kind == "text"
        assert any(len(chunk.pages) == 2 for chunk in chunks) or limit == 128  # lines read across a page's end


def test_a_zip_is_chunked_member_by_member(tmp_path, services):
    notes = "# Pond notes\n\nThe ducks voted for a bigger pond.\n\n## Budget\n\nThe pond costs 300 euros.\n"
    bundle = fixtures.archive(
        tmp_path / "bundle.zip",
        {
            "notes.md": notes.encode(),
            "logs/app.log": fixtures.numbered_log(tmp_path / "a.log", 60).read_bytes(),
            "reports/chart-report.pdf": (ROOT / "assets" / "chart-report.pdf").read_bytes(),
        },
    )
    reading = read_file(bundle, services=services)
    for limit in LIMITS:
        chunks = reading.chunks(limit)
        check_chunks(reading, chunks, limit)
        check_pages(reading, chunks)
        assert [chunk.section for chunk in chunks][0] == "notes.md" and {chunk.section for chunk in chunks} == {
            "notes.md",
            "logs/app.log",
            "reports/chart-report.pdf",
        }
        sections = [chunk.section for chunk in chunks]
        assert sections == sorted(
            sections, key=["notes.md", "logs/app.log", "reports/chart-report.pdf"].index
        )  # one member after the other
        budget = next(chunk for chunk in chunks if "300 euros" in chunk.content)
        assert budget.headings == ["Pond notes", "Budget"] and budget.citation == "bundle.zip › notes.md, line 7"
        logs = [chunk for chunk in chunks if chunk.section == "logs/app.log"]
        assert all(chunk.headings == [] for chunk in logs) and logs[0].citation.startswith(
            "bundle.zip › logs/app.log, lines 1–"
        )
        pdf = [chunk for chunk in chunks if chunk.section == "reports/chart-report.pdf"]
        assert (
            pdf[0].headings == ["Quarterly Sales Report 2024"]
            and pdf[0].citation == f"bundle.zip › reports/chart-report.pdf, p. {pdf[0].pages[0]}"
        )


def test_a_recording_is_chunked_by_its_segments_with_their_times(services):
    reading = read_file(CORPUS / "faster-whisper" / "jfk.flac", services=services)
    segments = reading.transcript.segments
    for limit in LIMITS:
        chunks = reading.chunks(limit)
        check_chunks(reading, chunks, limit)
        assert [(chunk.kind, chunk.start, chunk.end, chunk.pages) for chunk in chunks] == [
            ("transcript", segments[0].start, segments[-1].end, [])
        ]
        assert chunks[0].citation == f"jfk.flac, 0:00–0:{int(segments[-1].end):02d}"
    smallest = reading.chunks(16)
    check_chunks(reading, smallest, 16)
    assert [(chunk.start, chunk.end) for chunk in smallest] == [(segment.start, segment.end) for segment in segments]


@pytest.mark.parametrize(
    "max_tokens, overlap_tokens, message",
    [
        (8, 0, "A chunk of 8 tokens cannot hold a heading and a word; give at least 16 tokens."),
        (100, 51, "An overlap of 51 tokens does not go with chunks of 100: give 0 to 50 (at most half a chunk)."),
        (100, -1, "An overlap of -1 tokens"),
        (True, 0, "The chunk size must be a whole number of tokens, not True."),
        (512, 2.5, "The overlap must be a whole number of tokens, not 2.5."),
    ],
)
def test_sizes_that_cannot_work_are_refused_with_a_sentence(reports, max_tokens, overlap_tokens, message):
    with pytest.raises(ReaderError, match=re.escape(message)) as refused:
        reports["md"].chunks(max_tokens, overlap_tokens)
    assert refused.value.code == "INVALID_QUERY"


def test_a_heading_path_too_long_for_the_limit_is_refused_naming_it(tmp_path, services):
    path = tmp_path / "deep.md"
    path.write_text("# " + "Very long heading words " * 3 + "\n\n## Second level heading here\n\nA line of text.\n")
    reading = read_file(path, services=services)
    with pytest.raises(
        ReaderError,
        match=r"A chunk of 16 tokens cannot hold the heading path 'Very long "
        r"heading words .* › Second level heading here' "
        r"\(\d+ tokens\) and a word after it; give at least \d+ tokens\.",
    ):
        reading.chunks(16)
    assert reading.chunks(64)[0].headings == [
        "Very long heading words Very long heading words Very long heading words",
        "Second level heading here",
    ]


def as_json(chunks) -> list[dict]:
    return json.loads(json.dumps([dataclasses.asdict(chunk) for chunk in chunks]))


def command(*args, cache, **run):
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "READLENS_CACHE_DIR": str(cache),
        "VISION_PROVIDER": "ocr",
        "OPENAI_API_KEY": "",
        "OPENAI_BASE_URL": "",
        "VISION_BASE_URL": "",
        "VISION_API_KEY": "",
    }
    return subprocess.run(
        [sys.executable, "-m", "readers", *map(str, args)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        **run,
    )


def test_the_command_line_prints_one_json_object_per_chunk(reports, tmp_path):
    reading = reports["md"]
    path = tmp_path / "report.md"
    fixtures.report_markdown(path)
    result = command(path, "--chunks", 128, "--overlap", 16, cache=tmp_path / "cache")
    assert result.returncode == 0, result.stderr
    assert [json.loads(line) for line in result.stdout.splitlines()] == as_json(reading.chunks(128, 16))
    for args, message in (
        ((8,), "A chunk of 8 tokens cannot hold a heading and a word; give at least 16 tokens."),
        ((100, "--overlap", 60), "An overlap of 60 tokens does not go with chunks of 100"),
        (("many",), "'many' is not a whole number"),
        ((128, "--format", "json"), "--chunks prints chunks as JSON Lines"),
    ):
        refused = command(path, "--chunks", *args, cache=tmp_path / "cache")
        assert refused.returncode == 2 and message in refused.stderr, refused.stderr
    alone = command(path, "--overlap", 16, cache=tmp_path / "cache")
    assert alone.returncode == 2 and "--overlap goes with --chunks" in alone.stderr


def test_a_batch_of_chunks_writes_a_record_per_chunk_and_resumes(reports, tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    fixtures.report_markdown(folder / "report.md")
    fixtures.numbered_log(folder / "app.log", 120)
    (folder / "broken.pdf").write_bytes((ROOT / "assets" / "chart-report.pdf").read_bytes()[:500])
    out, cache = tmp_path / "chunks.jsonl", tmp_path / "cache"
    first = command("batch", folder, "--out", out, "--chunks", 256, "--overlap", 32, cache=cache)
    assert first.returncode == 1 and "broken.pdf" in first.stderr
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert all(tuple(record) == CHUNK_FIELDS for record in records)
    by_file = {
        name: [record for record in records if record["file"].endswith(name)]
        for name in ("report.md", "app.log", "broken.pdf")
    }
    expected = as_json(reports["md"].chunks(256, 32))
    assert [record["text"] for record in by_file["report.md"]] == [chunk["text"] for chunk in expected]
    assert [
        (record["chunk"], record["chunk_count"], record["chunk_kind"], record["pages"], record["citation"])
        for record in by_file["report.md"]
    ] == [(chunk["number"], len(expected), chunk["kind"], chunk["pages"], chunk["citation"]) for chunk in expected]
    assert (
        by_file["app.log"][0]["lines"] == [1, by_file["app.log"][0]["lines"][1]]
        and by_file["app.log"][-1]["lines"][1] == 120
    )
    assert [(record["chunk"], record["error"]["code"]) for record in by_file["broken.pdf"]] == [(None, "CORRUPT_FILE")]
    kept = out.read_text().splitlines()
    out.write_text("\n".join(kept[:-2]) + "\n")  # the last file's records cut short, as a stopped run leaves them
    again = command("batch", folder, "--out", out, "--chunks", 256, "--overlap", 32, cache=cache)
    assert "cut short by a stopped run" in again.stderr and "read again" in again.stderr
    assert sorted(out.read_text().splitlines()) == sorted(kept)
    pages = command("batch", folder, "--out", out, cache=cache)
    assert pages.returncode == 2 and "is a chunk record: the output was written with --chunks" in pages.stderr
    refused = command("batch", folder, "--out", tmp_path / "other.jsonl", "--chunks", 8, cache=cache)
    assert refused.returncode == 2 and "A chunk of 8 tokens cannot hold a heading and a word" in refused.stderr


def test_a_batch_of_chunks_in_parquet(reports, tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    fixtures.report_markdown(folder / "report.md")
    (folder / "chart-report.pdf").write_bytes((ROOT / "assets" / "chart-report.pdf").read_bytes())
    out = tmp_path / "chunks.parquet"
    assert command("batch", folder, "--out", out, "--chunks", 512, cache=tmp_path / "cache").returncode == 0
    rows = pq.read_table(out).to_pylist()
    assert tuple(rows[0]) == CHUNK_FIELDS and len(rows) == rows[0]["chunk_count"] + rows[-1]["chunk_count"]
    figure = next(row for row in rows if row["chunk_kind"] == "figure")
    assert figure["boxes"][0]["page"] == figure["pages"][0] == 1 and len(figure["boxes"][0]["box"]) == 4
    again = command("batch", folder, "--out", out, "--chunks", 512, cache=tmp_path / "cache")
    assert "Skipped: 2 files already in chunks.parquet" in again.stderr and pq.read_table(out).to_pylist() == rows


def test_the_export_holds_every_readings_chunks(reports, services, tmp_path):
    chart = read_file(ROOT / "assets" / "chart-report.pdf", services=services)
    entries = [
        Entry("report.md", reading=reports["md"], done=True),
        Entry("broken.pdf", error="broken.pdf is damaged.", done=True),
        Entry("chart-report.pdf", reading=chart, done=True),
    ]
    with zipfile.ZipFile(write_report(entries, tmp_path)) as archive:
        lines = [json.loads(line) for line in archive.read("chunks.jsonl").decode().splitlines()]
        assert "report.md" in archive.namelist()
    assert lines == [{"file": "report.md", **chunk} for chunk in as_json(reports["md"].chunks())] + [
        {"file": "chart-report.pdf", **chunk} for chunk in as_json(chart.chunks())
    ]
    assert lines[-1]["citation"] == "chart-report.pdf, p. 4"
