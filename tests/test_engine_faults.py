"""The page engines under faults (issue 33), through real processes: a caller's script is never run
again by the PDF workers; a page that stops its worker costs that page only; a page worker,
Chromium's page or LibreOffice that runs out of time gives a warning and the text, or RENDER_FAILED
with a sentence that says to try again, never CORRUPT_FILE; Chromium prints a page that refreshes
itself and names an icon, fetching nothing; a PDF whose page tree would take minutes to walk is
refused, or its walk held to a page's time."""

from __future__ import annotations

import http.server
import os
import subprocess
import sys
import textwrap
import threading
import time

import pytest

from readers import ReaderError, Services, read_file
from readers.errors import last_resort
from readers.notices import Code
from readers.pdf import pages as pdf_pages
from readers.pdf import pool as pdf_pool
from testkit import CORPUS, ROOT, fixtures, make_settings
from testkit.fixtures import stalls
from tests.conftest import BOUNDED_SECONDS


def test_a_script_without_a_main_guard_runs_once_after_a_web_page_and_a_pdf(tmp_path):
    """After a web page the warm Chromium's thread is alive, so the PDF's workers come from a fork
    server: neither it nor they may run the caller's script again."""
    (tmp_path / "page.html").write_text("<html><body><h1>Hello</h1><p>A page of words.</p></body></html>")
    (tmp_path / "script.py").write_text(
        textwrap.dedent(f"""\
            import os
            from readers import read_file

            with open({str(tmp_path / "runs.txt")!r}, "a") as runs:
                runs.write(f"{{os.getpid()}}\\n")
            print(read_file({str(tmp_path / "page.html")!r}).pages[0].text.splitlines()[0])
            print(read_file({str(CORPUS / "markitdown/test.pdf")!r}).page_count)
            """)
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT), "READLENS_CACHE_DIR": str(tmp_path / "cache")}
    run = subprocess.run(
        [sys.executable, "script.py"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=BOUNDED_SECONDS
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["#", "Hello", "1"]
    assert len((tmp_path / "runs.txt").read_text().split()) == 1, "the script ran again in a worker"


# --- a slow engine is no damaged file: a real time-out, forced by a tiny limit -----------------


def test_a_time_out_that_escapes_a_reader_is_render_failed_not_damaged():
    with pytest.raises(ReaderError) as caught, last_resort("slow.pdf"):
        raise TimeoutError("a step took longer than it may")
    assert caught.value.code == "RENDER_FAILED"
    assert caught.value.message == (
        "slow.pdf could not be read: a step ran out of time or a process reading it stopped. "
        "The machine may be busy; try again."
    )


def test_a_pdf_whose_pages_all_run_out_of_time_is_render_failed_and_says_try_again(tmp_path):
    with pytest.raises(ReaderError) as caught:
        read_file(CORPUS / "markitdown/test.pdf", services=Services(make_settings(tmp_path, page_timeout=0.001)))
    assert caught.value.code == "RENDER_FAILED" and "damaged" not in caught.value.message
    assert caught.value.message.startswith("test.pdf could not be read in time: its pages took longer than 0.001 s")
    assert caught.value.message.endswith("The machine may be busy: try again, or raise PAGE_TIMEOUT.")
    assert read_file(CORPUS / "markitdown/test.pdf", services=Services(make_settings(tmp_path))).pages[0].text


def test_a_page_that_stops_its_worker_costs_that_page_only(tmp_path, monkeypatch):
    """Page 2 shares its batch with pages 1 and 3; the batch is read again a page at a time."""
    monkeypatch.setattr(pdf_pool, "WORKERS", 2)
    pdf_pool.restart()
    try:
        reading = read_file(stalls.self_drawing_pdf(tmp_path / "loop.pdf"), services=Services(make_settings(tmp_path)))
    finally:
        pdf_pool.restart()
    assert [page.number for page in reading.pages if "A line of text." in page.text] == [1, *range(3, 13)]
    [notice] = reading.notices
    assert notice.code is Code.CUT and notice.page == 2, notice
    assert str(notice).startswith("Page 2 of loop.pdf was left out: a PDF worker process stopped"), notice
    assert "more memory than a PDF worker may hold" in str(notice)


def test_a_web_page_whose_render_runs_out_of_time_keeps_its_text_with_a_warning(tmp_path):
    page = tmp_path / "blog.html"
    page.write_text(
        "<html><body><article><h1>Field notes</h1><p>The river rose two metres.</p></article></body></html>"
    )
    reading = read_file(page, services=Services(make_settings(tmp_path / "cache", page_timeout=0.001)), multimodal=True)
    assert reading.pages[0].text == "# Field notes\n\nThe river rose two metres."
    assert reading.pages[0].error is None and reading.pages[0].image is None
    assert reading.warnings == [
        "Page 1 of blog.html has no image: its render took longer than 0.001 s (PAGE_TIMEOUT; the machine "
        "may be busy); try again. Its text is still read."
    ]


def test_an_rtf_whose_conversion_runs_out_of_time_is_render_failed_and_says_try_again(tmp_path):
    """The warm LibreOffice is killed in the middle of the conversion; it leaves no lock file beside
    the document (which made every later read of it "damaged"), and the next read reads it."""
    warm = tmp_path / "warm.rtf"
    warm.write_text(r"{\rtf1\ansi The office is warm.\par}")
    read_file(warm, services=Services(make_settings(tmp_path / "warm")))
    # Four thousand paragraphs: a warm LibreOffice converts a thousand in a few tenths of a second, and an answer
    # already there when the reader looks is taken, so under load a pause of the test's process let 1,000 pass.
    note = tmp_path / "note.rtf"
    note.write_text(r"{\rtf1\ansi{\fonttbl\f0 Helvetica;}\f0 " + r"The boiler was serviced in May.\par" * 4000 + "}")
    with pytest.raises(ReaderError) as caught:
        read_file(note, services=Services(make_settings(tmp_path / "cache", office_timeout=0.01)))
    assert caught.value.code == "RENDER_FAILED" and "damaged" not in caught.value.message
    assert "took longer than 0.01 s" in caught.value.message
    assert "(OFFICE_TIMEOUT): the machine may be busy. Try again, or raise OFFICE_TIMEOUT." in caught.value.message
    assert not list(tmp_path.glob(".~lock*"))
    reading = read_file(note, services=Services(make_settings(tmp_path / "cache")))
    assert "The boiler was serviced in May." in reading.pages[0].text


# --- Chromium fetches nothing and prints every page, whatever the page asks for --------------


class _Counted(http.server.BaseHTTPRequestHandler):
    requests: list[str] = []

    def do_GET(self):
        self.requests.append(self.path)
        self.send_response(200)
        self.send_header("Content-Type", "image/png")
        self.end_headers()

    def log_message(self, *args):
        pass


def test_a_page_that_refreshes_and_names_an_icon_prints_every_time_and_fetches_nothing(tmp_path):
    """A refresh navigated away while the page printed ("Printing failed" in up to half the prints),
    and Chromium fetched the icon despite the refused requests."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Counted)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    address = f"http://127.0.0.1:{server.server_address[1]}"
    services = Services(make_settings(tmp_path / "cache"))
    try:
        for number in range(8):
            page = tmp_path / f"page-{number}.html"
            page.write_text(
                f'<html><head><meta http-equiv="refresh" content="0; url={address}/next">'
                f'<link rel="icon" href="{address}/favicon.ico"><link rel="preconnect" href="{address}">'
                f'<link rel="prefetch" href="{address}/later"></head>'
                f"<body>{f'<p>Paragraph {number} of the notice board.</p>' * 30}</body></html>"
            )
            reading = read_file(page, services=services, multimodal=True)
            assert reading.pages[0].image is not None and not reading.warnings, reading.warnings
    finally:
        server.shutdown()
    assert _Counted.requests == []


# --- a page tree built to be walked for minutes -----------------------------------------------


def test_a_pdf_of_a_million_page_references_is_refused_at_once(tmp_path):
    hostile = fixtures.page_references_pdf(tmp_path / "million.pdf", 1_000_000)
    assert 6_000_000 <= hostile.stat().st_size < 6_100_000
    started = time.monotonic()
    with pytest.raises(ReaderError) as caught:
        read_file(hostile, services=Services(make_settings(tmp_path / "cache")))
    assert time.monotonic() - started < 5  # it took 178 s, 10 s of it in each batch of pages
    assert caught.value.code == "FILE_TOO_LARGE"
    assert caught.value.message == (
        "million.pdf is a PDF of 1,000,000 pages; ReadLens reads PDFs of at most 100,000 pages. "
        "Split it, or print the pages you need to a PDF of their own."
    )


def test_the_walk_down_a_long_page_list_is_held_to_a_pages_time(tmp_path):
    """100,000 references, within the limit: pdfminer parses the list whole (seconds) to find page 1."""
    long_list = fixtures.page_references_pdf(tmp_path / "long.pdf", 100_000)
    started = time.monotonic()
    (result,) = pdf_pages.extract_pages(str(long_list), [1], None, timeout=0.2)  # what a worker runs
    assert time.monotonic() - started < 1.5
    assert result["late"] and result["error"] == "TimeoutError: reading the page took longer than 0.2 s"
    (result,) = pdf_pages.extract_pages(str(long_list), [100_000], None)
    assert "The same page again" in result["text"]
