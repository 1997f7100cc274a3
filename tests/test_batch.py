"""``python -m readers batch``: a folder of mixed files with a broken one, through the real command
line, on the local engine and on a Ray cluster started here; resuming after a stop, a kill and a
half-written line; Parquet; exit statuses.

Descriptions come from the fake OpenAI-compatible server, which refuses to describe the page with
the "Regional figures" picture, so one page carries an error of its own; pages of text alone are
not sent; audio goes to the local Whisper model.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from PIL import Image

from readers.batch.records import FIELDS
from testkit import CORPUS, ROOT, fixtures
from testkit.fake_openai import FakeOpenAI, chat_reply
from testkit.processes import descendants
from tests.loopback import Site
from tests.model_output import words

DESCRIPTION = "A bar chart of sales by quarter."


def describe_all_but_one(request):
    prompt = json.dumps(request.json)
    if "Regional figures" in prompt:
        return 400, {"error": {"message": "this page cannot be described"}}
    return 200, chat_reply(DESCRIPTION)


@pytest.fixture(scope="module")
def vision():
    server = FakeOpenAI().start()
    server.routes["/v1/chat/completions"] = describe_all_but_one
    yield server
    server.stop()


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    """Six files of every kind (two in a subfolder), a broken PDF, and hidden files to leave out."""
    root = tmp_path_factory.mktemp("collection") / "docs"
    fixtures.collection(root, 6)
    (root / "broken").mkdir()
    (root / "broken" / "report.pdf").write_bytes((CORPUS / "markitdown/test.pdf").read_bytes()[:3000])
    (root / ".notes.md").write_text("hidden\n")
    (root / ".git").mkdir()
    (root / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    return root


def batch(
    *args,
    cache: Path,
    vision: FakeOpenAI,
    cwd: Path,
    wait: bool = True,
    URL_ALLOW: str = "",
    RAY_TMPDIR: str = "",
    **popen,
):
    """Run the command line in ``cwd``, configured only by its environment (``RAY_TMPDIR``: where
    Ray looks for a cluster started on this machine, when given)."""
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "READLENS_CACHE_DIR": str(cache),
        "VISION_PROVIDER": "openai",
        "VISION_BASE_URL": vision.base_url,
        "VISION_API_KEY": "test-key",
        "OPENAI_API_KEY": "",
        "OPENAI_BASE_URL": "",
        "WHISPER_API_KEY": "",
        "WHISPER_BASE_URL": "",
        "RAY_USAGE_STATS_ENABLED": "0",
        "URL_ALLOW": URL_ALLOW,
        # A file's reading is not what these tests time: on a busy machine a Ray worker's first Word file,
        # LibreOffice started cold, took past READ_TIMEOUT's 60 s (test_budget holds the wall itself).
        "READ_TIMEOUT": "240",
        **({"RAY_TMPDIR": RAY_TMPDIR} if RAY_TMPDIR else {}),
    }
    command = [sys.executable, "-m", "readers", "batch", *map(str, args)]
    if not wait:
        return subprocess.Popen(
            command, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **popen
        )
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def by_page(records: list[dict]) -> list[dict]:
    return sorted(records, key=lambda record: (record["file"], record["page"] or 0))


def without_cache_marks(records: list[dict]) -> list[dict]:
    """Records as they read, whether their descriptions and transcripts came from the cache or not."""
    unmarked = [
        {**record, "description_source": (record["description_source"] or "").removesuffix(" (cached)") or None}
        for record in records
    ]
    for record in unmarked:
        if record["transcript"]:
            record["transcript"] = {
                **record["transcript"],
                "source": record["transcript"]["source"].removesuffix(" (cached)"),
            }
    return by_page(unmarked)


def pages_of(records: list[dict]) -> list[tuple[str, int | None]]:
    return sorted((record["file"], record["page"] or 0) for record in records)


def warm_cache(work: Path, tmp_path: Path) -> Path:
    """A copy of the first run's cache, so what a test caches stays out of the others' way."""
    shutil.copytree(work / "cache", tmp_path / "cache")
    return tmp_path / "cache"


def stop_leftovers(pids: set[int]) -> None:
    """End the processes a killed run left (its PDF workers wait for it forever), by their ids."""
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


@pytest.fixture(scope="module")
def local_run(folder, vision, tmp_path_factory):
    """One run of the local engine over the folder with an empty cache, shared by the tests."""
    work = tmp_path_factory.mktemp("local")
    result = batch("docs", "--out", work / "pages.jsonl", cache=work / "cache", vision=vision, cwd=folder.parent)
    return result, lines(work / "pages.jsonl"), work


def test_a_folder_becomes_one_record_per_page(local_run, folder):
    result, records, _ = local_run
    assert result.returncode == 1, result.stderr  # the broken PDF
    assert all(tuple(record) == FIELDS for record in records)
    files = {record["file"] for record in records}
    assert files == {
        "docs/000-pdf.pdf",
        "docs/001-image.png",
        "docs/nested/002-text.md",
        "docs/003-audio.wav",
        "docs/004-docx.docx",
        "docs/nested/005-pdf.pdf",
        "docs/broken/report.pdf",
    }  # no hidden files
    for record in records:
        assert record["sha256"] == hashlib.sha256((folder.parent / record["file"]).read_bytes()).hexdigest()
        assert record["image"] is None  # text-only mode

    pdf = [record for record in by_page(records) if record["file"] == "docs/nested/005-pdf.pdf"]
    assert [(r["page"], r["page_count"], r["pages_read"], r["kind"], r["mime"]) for r in pdf] == [
        (n, 4, 4, "pdf", "application/pdf") for n in (1, 2, 3, 4)
    ]
    assert "Large language models" in pdf[0]["text"] and "NICS Firearm Background Checks" in pdf[2]["tables"][0]
    assert [(r["description"], r["description_source"]) for r in (pdf[0], pdf[2])] == [(None, "none: text only")] * 2
    assert pdf[1]["description"] == DESCRIPTION and pdf[1]["description_source"] == "vision:gpt-4o-mini"
    assert (
        pdf[3]["description"] is None
        and pdf[3]["error"]["code"] is None
        and "cannot be described" in pdf[3]["error"]["message"]
    )
    assert pdf[0]["error"] is None and pdf[1]["error"] is None

    docx = [record for record in by_page(records) if record["kind"] == "docx"]
    assert [record["page"] for record in docx] == [1, 2]
    assert (
        "| Region | Revenue |" in docx[0]["text"] and "Reference 4." in docx[1]["text"]
    )  # a Word table stands in its text

    (audio,) = [record for record in records if record["kind"] == "audio"]
    assert (
        audio["page"] is None
        and audio["pages_read"] == 0
        and words(audio["text"])[:5] == words("And so my fellow Americans")
    )
    assert audio["transcript"]["language"] == "en" and 6 <= audio["transcript"]["duration"] < 6.1
    assert audio["transcript"]["segments"][0]["start"] == 0 and audio["transcript"]["segments"][0]["text"]

    (text,) = [record for record in records if record["kind"] == "text"]
    assert "Ship 6 crates" in text["text"] and text["line"] == 1  # a text file's page gives its first line
    assert all(record["section"] is None for record in records)  # no archives or e-mails here
    assert {record["line"] for record in records if record["kind"] != "text"} == {None}

    (broken,) = [record for record in records if record["file"] == "docs/broken/report.pdf"]
    assert broken["kind"] is None and broken["page"] is None and broken["error"]["code"] == "CORRUPT_FILE"
    assert "report.pdf is damaged" in broken["error"]["message"]


def test_progress_and_summary_on_standard_error(local_run):
    result, _, _ = local_run
    assert result.stdout == ""
    assert result.stderr.startswith("Reading (local): 0 of 7 files (0%)")  # not a terminal: a line a minute
    summary = result.stderr[result.stderr.rindex("Done in") :]
    assert "6 files read (10 pages" in summary and "pages/s" in summary and "1 failed" in summary
    assert "1 page has an error" in summary
    assert "docs/broken/report.pdf: CORRUPT_FILE: report.pdf is damaged" in summary
    assert "failed: docs/broken/report.pdf: CORRUPT_FILE" in result.stderr  # as it happened, above the bar


def test_warnings_are_on_a_files_first_record(folder, vision, tmp_path):
    shutil.copy(CORPUS / "docling/ocr_test.pdf", tmp_path / "scan.pdf")  # a page without a text layer
    result = batch(
        tmp_path / "scan.pdf", "--out", tmp_path / "pages.jsonl", cache=tmp_path / "cache", vision=vision, cwd=tmp_path
    )
    assert result.returncode == 0, result.stderr
    (record,) = lines(tmp_path / "pages.jsonl")
    assert any("no text layer" in warning for warning in record["warnings"])
    assert {"code": "no_text_layer", "text": record["warnings"][0], "page": 1} in record["notices"]


def test_multimodal_records_carry_the_page_images_and_questions_reach_the_model(folder, vision, tmp_path):
    result = batch(
        "docs/001-image.png",
        "--out",
        tmp_path / "pages.jsonl",
        "--multimodal",
        "--describe",
        "How many boxes?",
        cache=tmp_path / "cache",
        vision=vision,
        cwd=folder.parent,
    )
    assert result.returncode == 0, result.stderr
    (record,) = lines(tmp_path / "pages.jsonl")
    image = Image.open(io.BytesIO(base64.b64decode(record["image"])))
    assert (image.format, image.size) == ("PNG", (720, 300))
    assert record["description"] == DESCRIPTION and "How many boxes?" in json.dumps(vision.requests[-1].json)


def test_running_again_reads_only_what_is_missing_or_failed(local_run, folder, vision, tmp_path):
    _, first, work = local_run
    cache = warm_cache(work, tmp_path)
    out = tmp_path / "pages.jsonl"
    shutil.copy(work / "pages.jsonl", out)
    retried = ("docs/nested/005-pdf.pdf", "docs/broken/report.pdf")  # a page's description failed; the file is broken
    clean = [record for record in first if record["file"] not in retried]
    vision.routes["/v1/chat/completions"] = lambda request: (200, chat_reply(DESCRIPTION))  # the service is back
    try:
        again = batch("docs", "--out", out, cache=cache, vision=vision, cwd=folder.parent)
    finally:
        vision.routes["/v1/chat/completions"] = describe_all_but_one
    assert again.returncode == 1  # the broken PDF is tried again, and fails again
    assert (
        "Resuming: 5 files (6 pages) already read into pages.jsonl are skipped; 2 with errors are read again."
        in again.stderr
    )
    assert "1 file read (4 pages" in again.stderr and "Skipped: 5 files already in pages.jsonl" in again.stderr
    records = lines(out)
    assert pages_of(records) == pages_of(first)  # nothing duplicated, nothing lost
    assert records[: len(clean)] == clean  # what was read stays as it was
    pdf = by_page([record for record in records if record["file"] == retried[0]])
    assert pdf[3]["error"] is None and pdf[3]["description"] == DESCRIPTION

    (tmp_path / "more").mkdir()
    (tmp_path / "more" / "new.md").write_text("# A new note\n")
    third = batch(folder, "more", "--out", out, cache=cache, vision=vision, cwd=tmp_path)
    assert third.returncode == 1
    appended = lines(out)
    assert appended[: len(records) - 1] == [record for record in records if record["file"] != retried[1]]
    assert {record["file"] for record in appended[len(records) - 1 :]} == {
        "more/new.md",
        str(folder / "broken/report.pdf"),
    }


@pytest.mark.parametrize("cut", ["half a line", "a whole line"])
def test_a_file_cut_short_by_a_stopped_run_is_read_again(local_run, folder, vision, tmp_path, cut):
    """A kill while a file's records were being written leaves the first of them, and maybe half a line."""
    _, first, work = local_run
    out = tmp_path / "pages.jsonl"
    group = [record for record in first if record["file"] == "docs/000-pdf.pdf"]
    others = "".join(json.dumps(record) + "\n" for record in first if record["file"] != "docs/000-pdf.pdf")
    out.write_text(others + json.dumps(group[0]) + "\n" + (json.dumps(group[1])[:40] if cut == "half a line" else ""))
    result = batch("docs", "--out", out, cache=warm_cache(work, tmp_path), vision=vision, cwd=folder.parent)
    assert "1 cut short by a stopped run is read again" in result.stderr
    assert without_cache_marks(lines(out)) == without_cache_marks(first)


def test_stopped_and_killed_runs_resume_to_the_same_records(local_run, folder, vision, tmp_path):
    """Ctrl-C finishes the file under way and stops; a kill stops anywhere; running again completes."""
    _, first, work = local_run
    cache = warm_cache(work, tmp_path)
    slow = [
        tmp_path / "speech.flac",
        fixtures.speech(tmp_path / "speech.wav", 100),
    ]  # not in the cache: read last, slowly
    shutil.copy(CORPUS / "faster-whisper/jfk.flac", slow[0])
    out = tmp_path / "pages.jsonl"
    args = ("docs", *slow, "--out", out, "--workers", "1")
    for stop in (signal.SIGINT, signal.SIGKILL):
        process = batch(*args, cache=cache, vision=vision, cwd=folder.parent, wait=False)
        written = out.stat().st_size if out.exists() else 0
        deadline = time.monotonic() + 120
        while (
            (out.stat().st_size if out.exists() else 0) == written
            and process.poll() is None
            and time.monotonic() < deadline
        ):
            time.sleep(0.02)
        children = descendants(process.pid)
        process.send_signal(stop)
        _, stderr = process.communicate(timeout=120)
        if stop == signal.SIGINT:
            assert process.returncode == 130, stderr
            assert "Stopping:" in stderr and "Run the same command again to go on." in stderr
            assert out.read_text().endswith("\n")  # whole files only
        else:
            assert process.returncode == -signal.SIGKILL
            stop_leftovers(children)
        assert b"speech.wav" not in out.read_bytes()  # it stopped before the end
    result = batch(*args, cache=cache, vision=vision, cwd=folder.parent)
    assert result.returncode == 1
    records = lines(out)
    assert pages_of(records) == sorted(pages_of(first) + [(str(path), 0) for path in slow])
    assert without_cache_marks(
        [record for record in records if record["file"].startswith("docs")]
    ) == without_cache_marks(first)


def test_parquet_holds_the_same_records(local_run, folder, vision, tmp_path):
    _, _, work = local_run
    cache = warm_cache(work, tmp_path)
    jsonl = batch("docs", "--out", tmp_path / "pages.jsonl", cache=cache, vision=vision, cwd=folder.parent)
    parquet = batch("docs", "--out", tmp_path / "pages.parquet", cache=cache, vision=vision, cwd=folder.parent)
    assert (jsonl.returncode, parquet.returncode) == (1, 1)
    rows = pq.read_table(tmp_path / "pages.parquet").to_pylist()
    assert by_page(rows) == by_page(lines(tmp_path / "pages.jsonl"))
    assert not (tmp_path / "pages.parquet.partial.jsonl").exists()

    extra = tmp_path / "extra.md"
    extra.write_text("# Extra\n")
    again = batch("docs", extra, "--out", tmp_path / "pages.parquet", cache=cache, vision=vision, cwd=folder.parent)
    assert "already read into pages.parquet are skipped" in again.stderr
    rows_again = pq.read_table(tmp_path / "pages.parquet").to_pylist()
    assert pages_of(rows_again) == sorted(pages_of(rows) + [(str(extra), 1)])


def test_exit_status_and_refusals(folder, vision, tmp_path):
    note = tmp_path / "note.md"
    note.write_text("# Fine\n")
    run = lambda *args: batch(*args, cache=tmp_path / "cache", vision=vision, cwd=tmp_path)
    read = run(note, "--out", tmp_path / "ok.jsonl")
    assert read.returncode == 0 and "1 file read (1 page" in read.stderr and "0 failed" in read.stderr

    missing = run(note, tmp_path / "nowhere", "--out", tmp_path / "other.jsonl")
    assert missing.returncode == 2 and "not found:" in missing.stderr and not (tmp_path / "other.jsonl").exists()
    assert run(note, "--out", tmp_path / "x.jsonl", "--ray-address", "auto").returncode == 2
    assert run(note, "--out", tmp_path / "x.jsonl", "--pages", "5-3").returncode == 2

    foreign = tmp_path / "notes.jsonl"
    foreign.write_text('{"id": 1, "text": "mine"}\n')
    refused = run(note, "--out", foreign)
    assert refused.returncode == 2 and "not a ReadLens batch record" in refused.stderr
    assert foreign.read_text() == '{"id": 1, "text": "mine"}\n'


def test_urls_among_the_paths_are_read_and_not_fetched_again_on_resume(vision, tmp_path):
    """URL_ALLOW names localhost: the report at http://localhost is read, the same server reached as
    127.0.0.1 (loopback, not named) is refused; a second run fetches only what failed."""
    note = tmp_path / "note.md"
    note.write_text("# Fine\n")
    with Site(
        {"/report.pdf": (200, {"Content-Type": "application/pdf"}, (ROOT / "assets/chart-report.pdf").read_bytes())}
    ) as site:
        named, refused = site.url("/report.pdf").replace("127.0.0.1", "localhost"), site.url("/report.pdf")
        out = tmp_path / "pages.jsonl"
        for _ in range(2):
            done = batch(
                note,
                named,
                refused,
                "--out",
                out,
                cache=tmp_path / "cache",
                vision=vision,
                cwd=tmp_path,
                URL_ALLOW="localhost",
            )
            assert done.returncode == 1, done.stderr
            assert site.hits["/report.pdf"] == 1  # the second run fetched nothing again
        records = lines(out)
    assert [record["page"] for record in records if record["file"] == named] == [1, 2, 3, 4]
    assert all(record["kind"] == "pdf" for record in records if record["file"] == named)
    failed = [record for record in records if record["file"] == refused]
    assert len(failed) == 1 and failed[0]["error"]["code"] == "URL_REFUSED"
    assert "Skipped: 2 files already in pages.jsonl" in done.stderr


def test_a_page_range_runs_to_each_files_last_page(folder, vision, local_run, tmp_path):
    _, _, work = local_run
    result = batch(
        "docs",
        "--out",
        tmp_path / "pages.jsonl",
        "--pages",
        "2-3",
        cache=warm_cache(work, tmp_path),
        vision=vision,
        cwd=folder.parent,
    )
    pages = {(record["file"], record["page"]) for record in lines(tmp_path / "pages.jsonl") if record["page"]}
    assert pages == {
        ("docs/000-pdf.pdf", 2),
        ("docs/nested/005-pdf.pdf", 2),
        ("docs/nested/005-pdf.pdf", 3),
        ("docs/004-docx.docx", 2),
    }
    one_page = {
        record["file"]: record["error"]["code"] for record in lines(tmp_path / "pages.jsonl") if record["kind"] is None
    }
    assert one_page == {
        "docs/001-image.png": "PAGE_OUT_OF_RANGE",
        "docs/nested/002-text.md": "PAGE_OUT_OF_RANGE",
        "docs/broken/report.pdf": "CORRUPT_FILE",
    }
    assert result.returncode == 1


def test_ray_engine_gives_the_local_engines_records(ray_nodes, local_run, folder, vision, tmp_path):
    """The three-node cluster's workers read with the driver's settings (its fake vision server, its cache folder)."""
    result, first, _ = local_run
    ray_run = batch(
        "docs",
        "--out",
        tmp_path / "pages.jsonl",
        "--engine",
        "ray",
        "--ray-address",
        ray_nodes.address,
        cache=tmp_path / "cache",
        vision=vision,
        cwd=folder.parent,
    )
    assert ray_run.returncode == 1, ray_run.stderr
    assert "Reading (ray): 0 of 7 files" in ray_run.stderr and "6 files read (10 pages" in ray_run.stderr
    assert by_page(lines(tmp_path / "pages.jsonl")) == by_page(first)
    assert (tmp_path / "cache" / "files").is_dir()  # the workers wrote to the driver's cache


def test_a_ray_run_leaves_no_libreoffice_behind(ray_nodes, vision, tmp_path):
    """Ray ends its workers' children with SIGKILL: the LibreOffice a worker started goes with them.
    Without --ray-address the run starts a Ray of its own, though a cluster runs on this machine
    where Ray looks for one (joining it, its tasks could not fetch their arguments: OwnerDiedError)."""
    (tmp_path / "docs").mkdir()
    shutil.copy(CORPUS / "markitdown/test.docx", tmp_path / "docs/report.docx")
    run = batch(
        "docs",
        "--out",
        "p.jsonl",
        "--engine",
        "ray",
        cache=tmp_path / "cache",
        vision=vision,
        cwd=tmp_path,
        RAY_TMPDIR=ray_nodes.temp,
    )
    assert run.returncode == 0, run.stderr
    assert [record["page"] for record in lines(tmp_path / "p.jsonl")] == [1, 2, 3]
    deadline = time.monotonic() + 10
    while (left := subprocess.run(["pgrep", "-f", f"soffice.*{tmp_path}"], capture_output=True).stdout) and (
        time.monotonic() < deadline
    ):
        time.sleep(0.2)
    assert not left, "LibreOffice outlived the batch"
