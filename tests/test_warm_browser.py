"""The warm Chromium that prints web pages (``readers.render.browser``): one browser per process,
reused from print to print, from any thread; launched again after a crash, a hang or a fork; and
nothing of it left once it is shut down. Mechanisms, not times."""

from __future__ import annotations

import json
import os
import select
import shutil
import signal
import threading
import time
from pathlib import Path

import pypdfium2
import pytest

from readers import read_file
from readers.render import browser
from readers.services import Services
from testkit import fixtures, make_settings
from tests.conftest import BOUNDED_SECONDS, eventually

pytestmark = pytest.mark.skipif(shutil.which("chromium") is None, reason="needs Chromium (make setup installs it)")


def page(words: str) -> str:
    return f"<!DOCTYPE html><html><body><h1>{words}</h1><p>Printed by the warm browser.</p></body></html>"


def printed_text(pdf: Path) -> str:
    document = pypdfium2.PdfDocument(str(pdf))
    try:
        return "".join(document[index].get_textpage().get_text_range() for index in range(len(document)))
    finally:
        document.close()


def stat(pid: int) -> list[str] | None:
    """state, ppid, pgrp, ... of a process, or None once it is gone or a zombie."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return None if fields[0] in "ZX" else fields


def in_groups(groups: set[int]) -> list[int]:
    """Live processes in the process groups of the Chromiums launched (each leads its own group,
    its zygotes, renderers and utilities in it)."""
    return [
        int(pid)
        for pid in os.listdir("/proc")
        if pid.isdigit() and (fields := stat(int(pid))) and int(fields[2]) in groups
    ]


def drivers() -> list[int]:
    """This process's live Playwright drivers."""
    children = [
        int(pid)
        for task in os.listdir("/proc/self/task")
        for pid in Path(f"/proc/self/task/{task}/children").read_text().split()
    ]
    return [pid for pid in children if stat(pid) and b"run-driver" in Path(f"/proc/{pid}/cmdline").read_bytes()]


@pytest.fixture
def launched():
    """The process groups of the Chromiums a test saw (each in a group of its own); the test starts
    with no warm browser, and after ``shutdown()`` none of them, nor a driver, is left."""
    browser.shutdown()
    groups: set[int] = set()
    yield groups
    browser.shutdown()
    assert eventually(lambda: not in_groups(groups) and not drivers()), (
        f"left after shutdown(): {in_groups(groups)} in the browsers' groups, drivers {drivers()}"
    )


def group_of(pid: int) -> int:
    """The process group Chromium runs in: its walls' (``readers.render.sandbox``), which Playwright launched."""
    return int(stat(pid)[2])


def test_a_second_print_reuses_the_browser_and_shutdown_leaves_nothing(launched, tmp_path):
    browser.print_page(page("First page"), tmp_path / "first.pdf")
    first = browser.browser_pid()
    group = group_of(first)
    launched.add(group)
    assert stat(first) and first in in_groups({group}), "Chromium runs between prints"
    browser.print_page(page("Second page"), tmp_path / "second.pdf")
    assert browser.browser_pid() == first and browser.launches() == 1
    assert "Second page" in printed_text(tmp_path / "second.pdf")
    browser.shutdown()
    assert browser.browser_pid() is None and eventually(lambda: not in_groups({group}) and not drivers())


def test_a_killed_chromium_is_launched_again_and_the_read_succeeds(launched, tmp_path):
    services = Services(make_settings(tmp_path / "cache"))
    browser.print_page(page("Before the crash"), tmp_path / "before.pdf")
    killed = browser.browser_pid()
    group = group_of(killed)
    launched.add(group)
    os.kill(killed, signal.SIGKILL)
    reading = read_file(fixtures.web_page(tmp_path / "page.html"), services=services, multimodal=True)
    assert reading.warnings == [] and reading.pages[0].image.startswith(b"\x89PNG")
    assert "# Ducks of Europe" in reading.pages[0].text
    launched.add(group_of(browser.browser_pid()))
    assert browser.browser_pid() != killed and browser.launches() == 2
    assert eventually(lambda: not in_groups({group})), "what was left of the killed Chromium is killed too"


def test_prints_from_two_threads_at_once_both_succeed_in_one_browser(launched, tmp_path):
    start, errors = threading.Barrier(2), []

    def print_from_thread(name: str) -> None:
        try:
            start.wait(timeout=30)
            browser.print_page(page(f"Page of {name}"), tmp_path / f"{name}.pdf")
        except Exception as error:  # noqa: BLE001 - reported by the assertion below
            errors.append(error)

    threads = [threading.Thread(target=print_from_thread, args=(name,)) for name in ("alpha", "beta")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    launched.add(group_of(browser.browser_pid()))
    assert errors == [] and not any(thread.is_alive() for thread in threads)
    assert "Page of alpha" in printed_text(tmp_path / "alpha.pdf") and "Page of beta" in printed_text(
        tmp_path / "beta.pdf"
    )
    assert browser.launches() == 1


def test_a_print_that_hangs_times_out_with_a_warning_and_the_next_gets_a_new_browser(launched, tmp_path, monkeypatch):
    services = Services(make_settings(tmp_path / "cache"))
    browser.print_page(page("Warm"), tmp_path / "warm.pdf")
    hung = browser.browser_pid()
    group = group_of(hung)
    launched.add(group)
    os.kill(hung, signal.SIGSTOP)  # Chromium answers nothing from now on
    try:
        started = time.monotonic()
        with monkeypatch.context() as short:  # only the hung print is given a short limit: a new browser's
            short.setattr(browser, "PRINT_TIMEOUT_MS", 3_000)  # launch takes longer on a busy machine
            reading = read_file(fixtures.web_page(tmp_path / "hung.html"), services=services, multimodal=True)
        assert time.monotonic() - started < BOUNDED_SECONDS
        assert reading.pages[0].image is None and "| Germany | 320,000 |" in reading.as_text()
        assert reading.warnings == [
            "Chromium could not print hung.html (TimeoutError), so it has no page images and its pages are its text "
            "cut at block boundaries (about 4,000 characters each)."
        ]
        browser.print_page(page("After the hang"), tmp_path / "after.pdf")
        assert "After the hang" in printed_text(tmp_path / "after.pdf")
        launched.add(group_of(browser.browser_pid()))
        assert browser.browser_pid() != hung and browser.launches() == 2
        assert eventually(lambda: not in_groups({group})), "the hung Chromium is killed"
    finally:
        if in_groups({group}):
            os.killpg(group, signal.SIGKILL)


def test_a_forked_child_starts_its_own_browser_and_leaves_the_parents_alone(launched, tmp_path):
    browser.print_page(page("Parent"), tmp_path / "parent.pdf")
    parent = browser.browser_pid()
    launched.add(group_of(parent))
    report_read, report_write = os.pipe()
    child = os.fork()
    if child == 0:  # the child: print with a browser of its own, report, close it
        os.close(report_read)
        try:
            browser.print_page(page("Child"), tmp_path / "child.pdf")
            report = {"pid": browser.browser_pid(), "launches": browser.launches()}
            group = group_of(report["pid"])
            browser.shutdown()
            eventually(lambda: not in_groups({group}))  # its processes exit: on a busy machine not at once
            report["left"] = in_groups({group})
        except BaseException as error:  # noqa: BLE001 - reported to the parent
            report = {"error": repr(error)}
        os.write(report_write, json.dumps(report).encode())
        os._exit(0)
    os.close(report_write)
    try:
        assert select.select([report_read], [], [], 120)[0], "the child did not report"
        report = json.loads(os.read(report_read, 65536))
        assert "error" not in report, report.get("error")
        assert report["pid"] not in (None, parent) and report["launches"] == 1 and report["left"] == []
        assert "Child" in printed_text(tmp_path / "child.pdf")
        browser.print_page(page("Parent again"), tmp_path / "again.pdf")  # the parent's browser went on, untouched
        assert browser.browser_pid() == parent and browser.launches() == 1
    finally:
        os.close(report_read)
        os.waitpid(child, 0)
