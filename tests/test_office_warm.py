"""One warm LibreOffice per process (readers.render.libreoffice): reused, started again when it
dies, killed when a conversion hangs, and gone with nothing left behind when the process closes it."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from readers import ReaderError, read_file
from readers.render import libreoffice as office
from readers.render import sandbox
from readers.services import Services
from testkit import CORPUS, ROOT, fixtures, make_settings
from tests.conftest import BOUNDED_SECONDS
from tests.model_output import assert_says

DOCX, SAMPLE = CORPUS / "markitdown/test.docx", CORPUS / "docling/word_sample.docx"


@pytest.fixture(autouse=True)
def fresh_office():
    """Each test starts without a LibreOffice and closes the one it started."""
    office.shutdown()
    yield
    office.shutdown()


def ours(folder: Path) -> list[int]:
    """The LibreOffice processes whose profile lives under ``folder``."""
    found = subprocess.run(["pgrep", "-f", f"soffice.*{folder}"], capture_output=True, text=True).stdout
    return [int(pid) for pid in found.split()]


def pages(pdf: Path) -> int:
    document = pdfium.PdfDocument(str(pdf))
    try:
        return len(document)
    finally:
        document.close()


def stale(pipe: Path) -> bool:
    """A LibreOffice socket that nobody listens on any more."""
    with socket.socket(socket.AF_UNIX) as probe:
        try:
            probe.connect(str(pipe))
        except ConnectionRefusedError:
            return True
        except OSError:  # gone, or not ours to probe
            return False
    return False


def test_a_second_conversion_reuses_the_running_libreoffice(tmp_path):
    profiles = tmp_path / "profiles"
    office.convert_to_pdf(DOCX, "docx", tmp_path / "first.pdf", 120, profiles, "test.docx")
    first = office.running_pid()
    assert first is not None and ours(profiles)
    office.convert_to_pdf(SAMPLE, "docx", tmp_path / "second.pdf", 120, profiles, "word_sample.docx")
    assert office.running_pid() == first
    assert (pages(tmp_path / "first.pdf"), pages(tmp_path / "second.pdf")) == (3, 2)


def test_a_killed_libreoffice_is_started_again_and_the_read_succeeds(tmp_path):
    services = Services(make_settings(tmp_path / "cache"))
    assert read_file(DOCX, services=services, images=True).pages[0].image is not None
    first = office.running_pid()
    for pid in ours(tmp_path / "cache"):
        with contextlib.suppress(ProcessLookupError):  # gone already: its walls end with the first killed
            os.kill(pid, signal.SIGKILL)
    reading = read_file(SAMPLE, services=services, images=True)
    assert reading.page_count == 2 and all(page.image for page in reading.pages) and not reading.warnings
    assert office.running_pid() not in (None, first)


def test_a_hung_conversion_times_out_and_the_text_is_still_read(tmp_path):
    profiles = tmp_path / "cache" / "office-profiles"
    office.convert_to_pdf(SAMPLE, "docx", tmp_path / "warm.pdf", 120, profiles, "word_sample.docx")
    for pid in ours(profiles):
        os.kill(pid, signal.SIGSTOP)  # a LibreOffice that never answers
    started = time.monotonic()
    reading = read_file(DOCX, services=Services(make_settings(tmp_path / "cache", office_timeout=2)))
    assert time.monotonic() - started < BOUNDED_SECONDS
    assert reading.page_count == 1 and "AutoGen" in reading.pages[0].text and reading.pages[0].image is None
    assert any("longer than 2 s to convert test.docx" in warning for warning in reading.warnings)
    time.sleep(0.5)
    assert not ours(profiles), "the hung LibreOffice was left running"
    with pytest.raises(ReaderError) as caught:  # the next conversion starts a new one; too short a limit still stops it
        office.convert_to_pdf(DOCX, "docx", tmp_path / "late.pdf", 0.01, profiles, "test.docx")
    assert caught.value.code == "RENDER_FAILED" and "0.01 s" in caught.value.message
    office.convert_to_pdf(DOCX, "docx", tmp_path / "after.pdf", 120, profiles, "test.docx")
    assert pages(tmp_path / "after.pdf") == 3


def test_a_text_only_read_of_a_deck_or_a_workbook_starts_no_libreoffice(tmp_path):
    services = Services(make_settings(tmp_path / "cache", vision_provider="ocr"))
    deck = read_file(CORPUS / "markitdown/test.pptx", services=services)
    book = read_file(ROOT / "assets/sales.xlsx", services=services)
    assert office.running_pid() is None and not ours(tmp_path)
    assert deck.page_count == 6 and all(page.image is None for page in deck.pages + book.pages)
    # the figures still come from the files: a picture read by OCR, charts labelled with their kind
    assert "text found in it by OCR:\n" in deck.pages[1].description
    assert_says(deck.pages[1].description.split("text found in it by OCR:\n", 1)[1], "AutoGen: Enabling Next-Gen LLM")
    assert [figure.chart for figure in book.pages[0].figures] == ["column, 2 series"]
    with pytest.raises(ReaderError) as caught:  # the PDF sent as itself is made with the images
        deck.as_messages("openai", document=True)
    assert "images=True" in caught.value.message
    assert read_file(CORPUS / "markitdown/test.pptx", 2, 2, services=services, images=True).pages[0].image is not None
    assert office.running_pid() is not None


def test_no_temp_files_or_processes_left_behind(tmp_path, monkeypatch):
    # This process's temporary files go to a folder of the test's own: other test runs on the
    # machine make LibreOffice folders in the shared /tmp at the same time.
    private = tmp_path / "tmp"
    private.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(private))
    pipes = {name for name in os.listdir("/tmp") if name.startswith("OSL_PIPE")}
    services = Services(make_settings(tmp_path / "cache"))
    read_file(CORPUS / "python-pptx/tbl-cell.pptx", services=services, images=True)
    with pytest.raises(ReaderError):
        read_file(CORPUS / "markitdown/test.pdf", 5, 5, services=services)
    read_file(fixtures.archive(tmp_path / "bundle.zip", {"a.txt": b"a\n", "b.csv": b"x,y\n1,2\n"}), services=services)
    assert ours(tmp_path) and [name for name in os.listdir(private) if name.startswith("readlens-office")], (
        "LibreOffice runs, warm"
    )
    office.shutdown()
    assert not [name for name in os.listdir(private) if name.startswith(("readlens", "lu"))]  # ours and LibreOffice's
    assert not [
        pipe for pipe in Path("/tmp").glob("OSL_PIPE*") if pipe.name not in pipes and stale(pipe)
    ]  # a killed run's socket
    assert not ours(tmp_path)


def test_without_libreoffices_python_bridge_the_error_says_what_to_install(tmp_path, monkeypatch):
    monkeypatch.setattr(office, "UNO_PYTHON", "/bin/false")  # a Python without python3-uno stops at once, as this does
    with pytest.raises(ReaderError) as caught:
        office.convert_to_pdf(SAMPLE, "docx", tmp_path / "out.pdf", 30, tmp_path / "profiles", "word_sample.docx")
    assert caught.value.code == "RENDER_FAILED" and "python3-uno" in caught.value.message and not ours(tmp_path)


def test_libreoffice_goes_with_its_bridge_killed_as_ray_kills_a_workers_children(tmp_path):
    profiles = tmp_path / "profiles"
    office.convert_to_pdf(DOCX, "docx", tmp_path / "first.pdf", 120, profiles, "test.docx")
    started = ours(profiles)
    bridge = int(Path(f"/proc/{office.running_pid()}/stat").read_text().rsplit(")", 1)[1].split()[1])
    os.kill(bridge, signal.SIGKILL)  # no time to close LibreOffice: oosplash and soffice.bin would outlive it
    deadline = time.monotonic() + BOUNDED_SECONDS
    while ours(profiles) and time.monotonic() < deadline:
        time.sleep(0.1)
    # its walls (readers.render.sandbox: bubblewrap, and its first process in the walls' PID namespace), its
    # bridge and LibreOffice
    assert len(started) == (4 if sandbox.available() else 2) and not ours(profiles), "LibreOffice outlived its bridge"
