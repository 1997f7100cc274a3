"""Issue 50's time and memory bounds: each file read or refused within its wall-clock budget
(``READ_TIMEOUT``, over every process that works for it), the engines free for the next file at
once, a reading that waits for another's work not charged for it, and what a file holds measured
before it is decoded or built (a page's operators, a recording's frames, a sheet's cells).

Time bounds are tested with a budget of a few seconds and ``BOUNDED_SECONDS`` of generosity; no
test asserts how fast anything is."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from readers import ReaderError, Services, read_file
from readers.errors import Budget
from readers.formats import audio as audio_module
from readers.notices import Code
from readers.office import sheet_bounds
from readers.pdf import pool as pdf_pool
from readers.render import browser, libreoffice
from testkit import CORPUS, fixtures, make_settings
from testkit.fixtures import stalls
from testkit.processes import running
from tests.conftest import BOUNDED_SECONDS, eventually

BUDGET = 3  # seconds: READ_TIMEOUT for the readings that must be refused


def budgeted(tmp_path: Path, name: str = "cache", **overrides) -> Services:
    return Services(make_settings(tmp_path / name, **{"read_timeout": BUDGET, **overrides}))


def refused_in_time(path: Path, services: Services, **options) -> ReaderError:
    started = time.monotonic()
    with pytest.raises(ReaderError) as refused:
        read_file(path, services=services, **options)
    assert time.monotonic() - started < BUDGET + BOUNDED_SECONDS
    assert refused.value.code == "TOO_COMPLEX" and "READ_TIMEOUT" in refused.value.message, refused.value.message
    return refused.value


def only_doubts(reading) -> bool:
    """Nothing in the reading was lost or cut: its notices, if any, only doubt a table."""
    return {notice.code for notice in reading.notices} <= {Code.TABLE_UNSURE}


def test_a_budget_counts_wall_time_but_not_its_pauses():
    budget = Budget(0.5, "file.pdf")
    with budget.paused():
        time.sleep(0.7)
        assert not budget.spent()
    assert 0 < budget.left() <= 0.5
    time.sleep(0.6)
    assert budget.spent() and "file.pdf" in budget.refusal().message


def test_a_pdf_past_its_budget_is_refused_and_its_workers_are_stopped_and_replaced(tmp_path):
    slow = stalls.slow_pdf(tmp_path / "slow.pdf", pages=2)
    seen, reading = set(), threading.Event()

    def watch():  # the workers that hold its two pages
        while not reading.wait(0.1):
            seen.update(pdf_pool.worker_pids())

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        refused_in_time(slow, budgeted(tmp_path, page_timeout=600))
    finally:
        reading.set()
        watcher.join()
    assert seen and eventually(lambda: not any(running(pid) for pid in seen)), "the workers on its pages were stopped"
    reading = read_file(fixtures.multi_page_pdf(tmp_path / "next.pdf", 3), services=Services(make_settings(tmp_path)))
    assert len(reading.pages) == 3 and all(page.text for page in reading.pages) and only_doubts(reading)


def test_a_reading_waiting_for_workers_another_file_holds_is_not_charged_for_it(tmp_path, monkeypatch):
    monkeypatch.setattr(pdf_pool, "WORKERS", 2)
    pdf_pool.restart()  # two workers, both taken by the slow file's pages
    slow = stalls.slow_pdf(tmp_path / "slow.pdf", pages=4)
    outcome: dict = {}

    def hold_the_workers():  # for longer than the quick file's whole budget
        try:
            read_file(slow, services=budgeted(tmp_path, "slow", read_timeout=40, page_timeout=600))
        except ReaderError as error:
            outcome["slow"] = error.code

    holder = threading.Thread(target=hold_the_workers)
    holder.start()
    time.sleep(1)  # its pages are on both workers
    try:
        quick_budget = budgeted(tmp_path, "quick", read_timeout=25)  # its own work, on a busy machine
        quick = read_file(fixtures.multi_page_pdf(tmp_path / "quick.pdf", 3), services=quick_budget)
    finally:
        holder.join(40 + BOUNDED_SECONDS)
        pdf_pool.restart()
    assert len(quick.pages) == 3 and all(page.text for page in quick.pages) and only_doubts(quick)
    assert outcome == {"slow": "TOO_COMPLEX"}


def test_a_worker_holds_at_most_its_memory_ceiling(tmp_path):
    read_file(fixtures.multi_page_pdf(tmp_path / "any.pdf", 2), services=Services(make_settings(tmp_path)))
    for pid in pdf_pool.worker_pids():
        limits = Path(f"/proc/{pid}/limits").read_text().splitlines()
        data = next(line for line in limits if line.startswith("Max data size")).split()
        assert int(data[3]) == pdf_pool.WORKER_MEMORY


@pytest.mark.skipif(libreoffice.soffice() is None, reason="LibreOffice is not installed")
def test_a_conversion_past_its_budget_is_refused_and_libreoffice_is_free_at_once(tmp_path):
    formulas = stalls.whole_column_formulas(tmp_path / "formulas.xlsx")
    refused_in_time(formulas, budgeted(tmp_path))
    assert libreoffice.running_pid() is None  # stopped with its walls, not left converting
    document = read_file(CORPUS / "markitdown/test.docx", services=budgeted(tmp_path, "next", read_timeout=120))
    assert document.pages[0].text and not [w for w in document.warnings if "LibreOffice" in w]


@pytest.mark.skipif(browser.chromium() is None, reason="Chromium is not installed")
def test_a_print_past_its_budget_is_refused_and_chromium_is_free_at_once(tmp_path):
    refused_in_time(stalls.tall_page(tmp_path / "tall.html"), budgeted(tmp_path), multimodal=True)
    started = time.monotonic()  # the next file's print is not held by the refused one's
    page = read_file(
        fixtures.web_page(tmp_path / "page.html"),
        services=budgeted(tmp_path, "next", read_timeout=120),
        multimodal=True,
    )
    assert "# Ducks of Europe" in page.pages[0].text and page.pages[0].image and not page.warnings, page.warnings
    assert time.monotonic() - started < BOUNDED_SECONDS


@pytest.mark.parametrize("make", [stalls.silent_aac, stalls.silent_mp3], ids=["aac", "mp3"])
def test_a_recording_that_states_no_length_is_measured_by_its_frames_before_decoding(tmp_path, monkeypatch, make):
    def decoded(job):
        raise AssertionError("decoded before its length was known")

    monkeypatch.setattr(audio_module, "_samples", decoded)
    recording = make(tmp_path / f"silence.{make.__name__[-3:]}", minutes=3)
    with pytest.raises(ReaderError) as refused:
        read_file(recording, services=budgeted(tmp_path, max_audio_minutes=1))
    assert refused.value.code == "FILE_TOO_LARGE" and "longer than 1 minutes" in refused.value.message


def test_decoding_stops_at_the_length_limit_whatever_the_file_says(tmp_path, monkeypatch):
    monkeypatch.setattr(audio_module, "_framed_seconds", lambda *arguments: 0.0)  # as if its frames said nothing
    with pytest.raises(ReaderError) as refused:
        read_file(stalls.silent_aac(tmp_path / "silence.aac", 3), services=budgeted(tmp_path, max_audio_minutes=1))
    assert refused.value.code == "FILE_TOO_LARGE" and "longer than 1 minutes" in refused.value.message


def test_a_sheet_of_more_cells_than_its_page_shows_is_cut_as_its_xml_streams(tmp_path, monkeypatch):
    numbers = fixtures.long_workbook(tmp_path / "numbers.xlsx", 700)
    whole = read_file(numbers, services=Services(make_settings(tmp_path / "whole"))).pages[0].text
    monkeypatch.setattr(sheet_bounds, "MAX_SHEET_CELLS", 1_000)
    cut = read_file(numbers, services=Services(make_settings(tmp_path / "cut")))
    assert cut.pages[0].text == whole  # the page shows what it showed: its first 500 rows, and says how many more
    assert any("cells; only the rows and columns its page shows were loaded" in warning for warning in cut.warnings)
    empty = read_file(
        stalls.empty_cells_workbook(tmp_path / "empty.xlsx", 600, 300), services=Services(make_settings(tmp_path))
    )
    assert "(rows 1–500 of 601 and columns A–GR of A–KN shown)" in empty.pages[0].text
    assert "Label" in empty.pages[0].text
