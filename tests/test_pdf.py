"""The PDF reader: text quality, only the requested pages, the page-tree walk, the cache,
progress, and damaged, truncated and password-protected files."""

from __future__ import annotations

import io
import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pdfminer.pdfpage
import pdfplumber
import pypdfium2 as pdfium
import pytest
from PIL import Image

from readers import ReaderError, Services, read_file
from readers.notices import Code
from readers.pdf import pages as pdf_pages
from readers.pdf import pool as pdf_pool
from readers.pdf.operators import MAX_PAGE_OPERATORS
from readers.render import pdfium as pdf_render
from readers.storage.files import PAGE
from testkit import CORPUS, ROOT, fixtures, make_settings
from testkit.fixtures import stalls
from testkit.processes import running
from tests.conftest import BOUNDED_SECONDS

DPI = 150


def pdf_bytes(objects: dict[int, bytes]) -> bytes:
    """A PDF file from numbered object bodies (object 1 is the catalog), with a correct xref."""
    out = bytearray(b"%PDF-1.4\n")
    offsets = {}
    for number in sorted(objects):
        offsets[number] = len(out)
        out += b"%d 0 obj\n" % number + objects[number] + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (max(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offsets[number] for number in range(1, max(objects) + 1))
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (max(objects) + 1, xref)
    return bytes(out)


def stream(data: bytes, extra: bytes = b"") -> bytes:
    return b"<< /Length %d %s>>\nstream\n" % (len(data), extra) + data + b"\nendstream"


def nested_tree_pdf(
    target: Path, broken_page: int | None = None, untyped_page: int | None = None, missing_page: int | None = None
) -> Path:
    """Six pages in a nested page tree, as many producers write it::

        root (Resources) -> A (MediaBox 300x400): pages 1-3
                         -> B (MediaBox 500x300): C: pages 4-5; page 6 (own MediaBox 200x200)

    Each page says "Page n". ``broken_page`` gets a MediaBox with a name where a number belongs:
    pdfium renders it at a default size, pdfplumber refuses it. ``untyped_page`` has no /Type:
    pdfium counts it as a page, pdfminer's own page list skips it. ``missing_page`` is named in the
    page tree by an object the file does not hold: no engine can load it.
    """
    pages = {1: 4, 2: 4, 3: 4, 4: 6, 5: 6, 6: 5}  # page -> parent node object
    objects = {
        1: b"<< /Type /Catalog /Pages 2 0 R >>",
        2: b"<< /Type /Pages /Kids [4 0 R 5 0 R] /Count 6 /Resources << /Font << /F1 3 0 R >> >> >>",
        3: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        4: b"<< /Type /Pages /Parent 2 0 R /Kids [7 0 R 8 0 R 9 0 R] /Count 3 /MediaBox [0 0 300 400] >>",
        5: b"<< /Type /Pages /Parent 2 0 R /Kids [6 0 R 12 0 R] /Count 3 /MediaBox [0 0 500 300] >>",
        6: b"<< /Type /Pages /Parent 5 0 R /Kids [10 0 R 11 0 R] /Count 2 >>",
    }
    for number, parent in pages.items():
        own_box = {6: b" /MediaBox [0 0 200 200]", broken_page: b" /MediaBox [0 0 /Wide 200]"}.get(number, b"")
        kind = b"" if number == untyped_page else b"/Type /Page "
        objects[6 + number] = b"<< %s/Parent %d 0 R /Contents %d 0 R%s >>" % (kind, parent, 12 + number, own_box)
        objects[12 + number] = stream(b"BT /F1 24 Tf 20 100 Td (Page %d) Tj ET" % number)
    if missing_page:
        objects[pages[missing_page]] = objects[pages[missing_page]].replace(b"%d 0 R" % (6 + missing_page), b"99 0 R")
    target.write_bytes(pdf_bytes(objects))
    return target


def png_size(png: bytes) -> tuple[int, int]:
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    return image.size


def close_to(size: tuple[int, int], points: tuple[float, float]) -> bool:
    """A render of a page ``points`` big at 150 dpi, give or take the last pixel's rounding."""
    return all(abs(pixels - inches * DPI) <= 1 for pixels, inches in zip(size, (p / 72 for p in points)))


@pytest.fixture(scope="session")
def long_pdf(tmp_path_factory) -> Path:
    return fixtures.multi_page_pdf(tmp_path_factory.mktemp("long") / "long.pdf", 240)


@pytest.fixture(scope="session")
def encrypted_pdf(tmp_path_factory) -> Path:
    """A PDF with an open password, exported by LibreOffice (the tool people use to make them)."""
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    if soffice is None:
        pytest.skip("LibreOffice (soffice) is not installed; it makes the password-protected fixture")
    folder = tmp_path_factory.mktemp("encrypted")
    (folder / "secret.txt").write_text("The launch code is in this file.\n")
    export = (
        'pdf:writer_pdf_Export:{"EncryptFile":{"type":"boolean","value":"true"},'
        '"DocumentOpenPassword":{"type":"string","value":"hunter2"}}'
    )
    subprocess.run(
        [
            soffice,
            "--headless",
            "--norestore",
            f"-env:UserInstallation={(folder / 'profile').as_uri()}",
            "--convert-to",
            export,
            "--outdir",
            str(folder),
            str(folder / "secret.txt"),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
    return folder / "secret.pdf"


@pytest.fixture
def services(tmp_path) -> Services:
    return Services(make_settings(tmp_path / "cache"))


def test_text_keeps_word_gaps_and_prose_is_not_a_table(services):
    expected = next(
        entry for entry in json.loads((CORPUS / "expected.json").read_text()) if entry["file"] == "markitdown/test.pdf"
    )
    reading = read_file(CORPUS / "markitdown/test.pdf", services=services)
    text = reading.as_text()
    for phrase in expected["must_include"]:
        assert phrase.lstrip("# ") in text
    for glued in ("largelanguagemodels", "multiagentconversations"):
        assert glued not in text.lower()
    assert "|" not in text and reading.pages[0].tables == []
    assert len(text) > 1000


def test_ruled_tables_become_markdown_where_they_stand_with_their_words_once(services):
    reading = read_file(CORPUS / "pdfplumber/issue-140-example.pdf", services=services)
    page = reading.pages[0]
    row = "| 0085648100300 | CENTRAL KMA | LILYS 55% DARK CHOC BAR | 415 | $ 0.61 | $ 253.15 | 0.0000 |"
    assert any(row in table for table in page.tables)
    assert reading.as_text().count("LILYS 55% DARK CHOC BAR") == 1, (
        "the table is in the text once, not repeated after it"
    )
    text = page.text
    assert (
        text.index(row)
        < text.index("Associated claims")
        < text.index("| Claim ID |")
        < text.index("Supporting documents")
    )


def test_page_200_of_240_is_the_only_page_parsed_and_rendered(long_pdf, services, monkeypatch):
    reading = read_file(long_pdf, 200, 200, multimodal=True, services=services)
    assert reading.page_count == 240
    assert [page.number for page in reading.pages] == [200]
    width, height = pdfium.PdfDocument(str(long_pdf))[199].get_size()
    assert close_to(png_size(reading.pages[0].image), (width, height))
    assert "LILYS 55% DARK CHOC BAR" in reading.pages[0].text  # page 200 is a copy of issue-140-example.pdf
    with (
        open(long_pdf, "rb") as handle,
        pdfplumber.open(long_pdf, pages=[200]) as whole,
    ):  # pdfplumber's own lookup agrees
        walked = pdfplumber.PDF(handle, stream_is_external=True)
        page = pdfplumber.page.Page(walked, pdf_pages.pdfminer_pages(walked.doc, [200])[200], page_number=200)
        assert [c["text"] for c in page.chars] == [c["text"] for c in whole.pages[0].chars]

    built = []
    original_init = pdfminer.pdfpage.PDFPage.__init__
    monkeypatch.setattr(
        pdfminer.pdfpage.PDFPage, "__init__", lambda self, *a, **kw: built.append(a[1]) or original_init(self, *a, **kw)
    )
    [result] = pdf_pages.extract_pages(str(long_pdf), [200], DPI)  # in this process, to count
    assert result["number"] == 200 and "error" not in result
    assert len(built) == 1  # pdfplumber.open would build all 240 pages to find one


def test_nested_page_tree_with_inherited_boxes_and_resources(tmp_path, services):
    path = nested_tree_pdf(tmp_path / "nested.pdf")
    reading = read_file(path, multimodal=True, services=services)
    assert reading.page_count == 6
    assert [page.text for page in reading.pages] == [f"Page {n}" for n in range(1, 7)]
    boxes = [(300, 400)] * 3 + [(500, 300)] * 2 + [(200, 200)]
    assert all(close_to(png_size(page.image), box) for page, box in zip(reading.pages, boxes))
    only = read_file(path, 5, 6, multimodal=True, services=Services(make_settings(tmp_path / "other-cache")))
    assert [page.text for page in only.pages] == ["Page 5", "Page 6"]


def test_pages_are_numbered_as_pdfium_renders_them(tmp_path, services):
    path = nested_tree_pdf(tmp_path / "untyped.pdf", untyped_page=2)
    with pdfplumber.open(path) as pdf:
        assert len(pdf.pages) == 5  # pdfminer's own page list loses the page without /Type
    reading = read_file(path, multimodal=True, services=services)
    assert reading.page_count == 6
    assert [page.text for page in reading.pages] == [f"Page {n}" for n in range(1, 7)]


def test_a_page_pdfminer_cannot_parse_is_read_by_pdfium(tmp_path, services):
    path = nested_tree_pdf(tmp_path / "odd-box.pdf", broken_page=4)
    reading = read_file(path, multimodal=True, services=services)
    assert [page.text for page in reading.pages] == [f"Page {n}" for n in range(1, 7)]
    assert all(page.image and page.error is None for page in reading.pages)
    (warning,) = [warning for warning in reading.warnings if warning.startswith("Page 4 of odd-box.pdf")]
    assert "was read by pdfium, without its ruled tables, figures and links: pdfminer could not read it" in warning


def test_a_damaged_page_costs_only_that_page(tmp_path, services):
    path = nested_tree_pdf(tmp_path / "one-bad-page.pdf", missing_page=4)
    reading = read_file(path, multimodal=True, services=services)
    assert [page.number for page in reading.pages] == list(range(1, 7))
    broken = reading.pages[3]
    assert broken.image is None and broken.error.startswith("This page is damaged")
    assert any(warning.startswith("Page 4 of one-bad-page.pdf is damaged") for warning in reading.warnings)
    assert [page.text for page in reading.pages if page.number != 4] == [f"Page {n}" for n in (1, 2, 3, 5, 6)]
    assert not services.store.path(reading.sha256, PAGE, "0004").exists()  # a failure is never cached


def test_page_without_text_layer_is_marked(services):
    reading = read_file(CORPUS / "docling/ocr_test.pdf", multimodal=True, services=services)
    assert reading.pages[0].text == "" and reading.pages[0].image
    assert any("Page 1 has no text layer" in warning for warning in reading.warnings)


def test_second_read_touches_no_parser_and_reports_progress(long_pdf, services, monkeypatch):
    seen = []
    first = read_file(long_pdf, 41, 46, multimodal=True, services=services, progress=lambda *event: seen.append(event))
    done = [event[1] for event in seen]
    assert all(event[0] == "rendered" and event[2] == 6 for event in seen)
    assert done == sorted(done) and done[-1] == 6 and len(set(done)) > 2  # reported as pages complete

    def no_workers():
        raise AssertionError("a cached page reached the PDF parser")

    monkeypatch.setattr(pdf_pages, "by_batches", no_workers)
    monkeypatch.setattr(pdf_pages, "checked_page_count", no_workers)
    again = read_file(long_pdf, 41, 46, multimodal=True, services=services)
    assert [(p.number, p.text, p.tables, p.image) for p in again.pages] == [
        (p.number, p.text, p.tables, p.image) for p in first.pages
    ]


@pytest.mark.parametrize("keep", [0.1, 0.5, 0.97])
def test_truncated_pdf_is_corrupt(tmp_path, services, keep):
    data = (CORPUS / "pdfplumber/nics-background-checks-2015-11.pdf").read_bytes()
    path = tmp_path / "cut.pdf"
    path.write_bytes(data[: int(len(data) * keep)])
    with pytest.raises(ReaderError) as error:
        read_file(path, services=services)
    assert error.value.code == "CORRUPT_FILE"
    assert "cut.pdf" in error.value.message and "damaged" in error.value.message


def test_pdf_whose_every_page_is_damaged_is_corrupt(tmp_path, services):
    path = tmp_path / "bad-box.pdf"
    path.write_bytes(
        pdf_bytes(
            {
                1: b"<< /Type /Catalog /Pages 2 0 R >>",
                2: b"<< /Type /Pages /Kids [5 0 R] /Count 1 >>",  # its page is not in the file: no engine loads it
                3: b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R >>",
                4: stream(b"0 0 10 10 re f"),
            }
        )
    )
    with pytest.raises(ReaderError) as error:
        read_file(path, services=services)
    assert error.value.code == "CORRUPT_FILE"
    assert error.value.message.startswith("bad-box.pdf is damaged: none of its pages could be read")


def test_password_protected_pdf(encrypted_pdf, services):
    with pytest.raises(ReaderError) as error:
        read_file(encrypted_pdf, services=services)
    assert error.value.code == "ENCRYPTED_FILE"
    assert "password" in error.value.message


def test_a_script_without_main_guard_works_and_leaves_no_process_or_temp_file(long_pdf, tmp_path):
    script = textwrap.dedent(f"""
        import json
        from multiprocessing import forkserver
        from readers import Services, read_file
        from readers.pdf import pool
        from testkit import make_settings

        reading = read_file({str(long_pdf)!r}, 1, 3, services=Services(make_settings({str(tmp_path / "cache")!r})))
        print("read", len(reading.pages), "pages")
        print(json.dumps([pid for pid in [forkserver._forkserver._forkserver_pid, *pool.worker_pids()] if pid]))
    """)  # no `if __name__ == "__main__":`, as quick scripts are written
    (tmp_path / "reader_script.py").write_text(script)
    done = subprocess.run(
        [sys.executable, str(tmp_path / "reader_script.py")],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert lines.count("read 3 pages") == 1  # the script ran once, not again in a worker
    helpers = json.loads(lines[-1])
    assert helpers  # the workers
    deadline = time.monotonic() + BOUNDED_SECONDS  # a fork server notices its parent is gone within moments
    while any(running(pid) for pid in helpers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in helpers if running(pid)]
    assert not [p for p in (tmp_path / "cache").rglob("*") if p.name.endswith(".tmp")]


def test_workers_end_with_a_reader_killed_outright(long_pdf, tmp_path):
    """``kill -9`` (or a pipe closed under ``python -m readers ... | head``) gives the reader no
    chance to stop its pool: the workers must notice and end by themselves."""
    script = textwrap.dedent(f"""
        import sys, time
        from readers import Services, read_file
        from readers.pdf import pool
        from testkit import make_settings

        read_file({str(long_pdf)!r}, 1, 2, services=Services(make_settings({str(tmp_path / "cache")!r})))
        print(*pool.worker_pids(), flush=True)
        time.sleep(60)
    """)
    reader = subprocess.Popen(
        [sys.executable, "-c", script],
        stdout=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    workers = [int(pid) for pid in reader.stdout.readline().split()]
    assert workers and all(running(pid) for pid in workers)
    reader.kill()
    reader.wait()
    deadline = time.monotonic() + BOUNDED_SECONDS
    while any(running(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in workers if running(pid)]


def _crash(*arguments):
    os._exit(1)  # as a native crash in pdfium would end a worker


def test_a_worker_crash_costs_only_the_task_it_ran_and_a_fresh_worker_takes_the_next(long_pdf, tmp_path, services):
    crash = pdf_pool.executor().submit(exec, "import os, time; time.sleep(0.5); os._exit(1)")  # another reading's
    reading = read_file(long_pdf, 41, 60, services=services)
    assert [page.number for page in reading.pages] == list(range(41, 61))
    codes = {notice.code for notice in reading.notices}
    assert Code.PART_OF_FILE in codes and codes <= {Code.PART_OF_FILE, Code.TABLE_UNSURE}  # no page lost to the crash
    with pytest.raises(BrokenProcessPool):
        crash.result(timeout=BOUNDED_SECONDS)


def test_a_reading_whose_worker_crashes_is_render_failed_and_the_next_read_starts_afresh(
    tmp_path, services, monkeypatch
):
    path = nested_tree_pdf(tmp_path / "nested.pdf")
    with monkeypatch.context() as patched:
        patched.setattr(pdf_pages, "extract_pages", _crash)
        with pytest.raises(ReaderError) as error:
            read_file(path, services=services)
    assert error.value.code == "RENDER_FAILED" and "nested.pdf" in error.value.message
    reading = read_file(path, services=Services(make_settings(tmp_path / "fresh")))
    assert [page.text for page in reading.pages] == [f"Page {n}" for n in range(1, 7)]


def test_a_pool_broken_while_idle_is_replaced(tmp_path, services):
    crash = pdf_pool.executor().submit(os._exit, 1)
    with pytest.raises(BrokenProcessPool):
        crash.result(timeout=60)
    reading = read_file(nested_tree_pdf(tmp_path / "nested.pdf"), services=services)
    assert [page.text for page in reading.pages] == [f"Page {n}" for n in range(1, 7)]


def test_reads_from_app_threads_use_a_fork_server(tmp_path, services):
    pdf_pool.restart()  # start the pool afresh, from a thread as the app does
    path = nested_tree_pdf(tmp_path / "nested.pdf")
    try:
        with ThreadPoolExecutor(2) as threads:
            readings = list(
                threads.map(
                    lambda s: read_file(path, services=s), [services, Services(make_settings(tmp_path / "other"))]
                )
            )
        assert pdf_pool._pool.context.get_start_method() == "forkserver"
    finally:
        pdf_pool.restart()
    for reading in readings:
        assert [page.text for page in reading.pages] == [f"Page {n}" for n in range(1, 7)]


def test_pdfium_in_a_reading_process_waits_for_another_threads_use(tmp_path, services):
    """pdfium crashes when two threads are in it at once, so the app's reading threads take turns."""
    path = nested_tree_pdf(tmp_path / "nested.pdf")
    read_file(path, services=services)  # the worker pool is up, so a fresh read takes a fraction of a second
    with ThreadPoolExecutor(1) as threads:
        with pdf_render.PDFIUM_LOCK:  # another thread is in pdfium
            reading = threads.submit(read_file, path, services=Services(make_settings(tmp_path / "fresh")))
            time.sleep(2)
            assert not reading.done(), "the page count went into pdfium while another thread was in it"
        assert reading.result(timeout=60).page_count == 6


def test_a_charts_gridlines_are_not_a_table(tmp_path):
    from readers import Services, read_file
    from testkit import ROOT, make_settings

    reading = read_file(ROOT / "assets/chart-report.pdf", 1, 1, services=Services(make_settings(tmp_path)))
    assert reading.pages[0].tables == []
    assert "135" in reading.pages[0].text  # the axis labels stay in the text


def test_a_page_built_to_stall_the_parser_costs_that_page_only(tmp_path):
    # What a pool worker runs, in this process's main thread, with a one-second limit instead of a minute:
    # a page under the bound on operators that still takes pdfminer longer than its limit.
    stalling = fixtures.stalling_pdf(tmp_path / "stall.pdf", MAX_PAGE_OPERATORS // 2)
    assert stalling.stat().st_size < 100_000
    started = time.monotonic()
    (result,) = pdf_pages.extract_pages(str(stalling), [1], 72, timeout=1)
    assert result["late"] and "took longer than 1 s" in result["error"] and time.monotonic() - started < BOUNDED_SECONDS


def test_a_page_of_more_operators_than_are_read_is_left_out_unread(tmp_path, services):
    (result,) = pdf_pages.extract_pages(str(fixtures.stalling_pdf(tmp_path / "stall.pdf")), [1], 72, timeout=600)
    assert result["complex"] and not result["late"] and f"more than {MAX_PAGE_OPERATORS:,}" in result["error"]
    shared = stalls.operators_pdf(tmp_path / "shared.pdf", pages=3, operators=MAX_PAGE_OPERATORS + 2)
    with pytest.raises(ReaderError) as refused:
        read_file(shared, services=services)
    assert refused.value.code == "TOO_COMPLEX" and "drawing and text operations" in refused.value.message
    few = stalls.operators_pdf(tmp_path / "few.pdf", pages=1, operators=20)
    (counted,) = pdf_pages.extract_pages(str(few), [1], 72)
    assert "ReadLens" in counted["text"]


def test_a_page_limit_outlasts_code_that_swallows_its_alarm_and_gives_back_an_outer_timer():
    # pdfminer wraps its debug logging in `except Exception`: an alarm landing there was lost, and
    # the stalling page then ran for minutes and gigabytes. The limit keeps firing until it lands.
    signal.setitimer(signal.ITIMER_REAL, 500)  # as pytest-timeout's own
    started = time.monotonic()
    with pytest.raises(TimeoutError, match="longer than 0.2 s"), pdf_pool.time_limit(0.2):
        try:
            time.sleep(2)
        except Exception:
            pass
        time.sleep(10)
    assert time.monotonic() - started < 10, "the limit fired again before the second sleep ended"
    remaining, _ = signal.setitimer(signal.ITIMER_REAL, 0)
    assert 490 < remaining < 500
