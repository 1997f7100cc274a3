"""Headless Chromium (Debian's, through Playwright) printing a web page to PDF, with JavaScript
off and every request refused, so nothing is fetched while reading a file.

Four guards keep it so. The page is made inert before it is printed: a ``<meta
http-equiv="refresh">`` (which navigates away while the page prints, and the print fails) and
every ``<link>`` but a stylesheet (icons, prefetches, preconnects, manifests: Chromium's own
services fetch some of those outside the page's network) are taken out. The page's requests are
aborted (``context.route``) with the context offline. Chromium's proxy is a closed port, for
loopback addresses too, so a request that slips past both reaches no server. And Chromium runs
inside the walls of ``readers.render.sandbox``: no network of the machine's, and no file of it
but the system's and its own folder.

One warm browser per process: Playwright's driver and Chromium start on the first print and stay,
and each page gets a context of its own (JavaScript off, offline, every request aborted), made
ready after the print before it. Playwright's objects belong to the thread that made them and the
app reads from many threads, so they live on one daemon thread that prints the pages handed to it
one at a time. A Chromium that crashed or was killed is launched again (a print it broke is tried
once more); one that hangs past ``PRINT_TIMEOUT_MS`` is killed and the print raises, and the next
print launches a new one. A forked process starts its own (the owner's pid is checked).
``shutdown()``, also run at exit, closes the browser and stops the driver.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import queue
import re
import shlex
import shutil
import signal
import tempfile
import threading
import time
from concurrent.futures import Future, InvalidStateError
from concurrent.futures import TimeoutError as FutureTimeout
from pathlib import Path

from ..errors import current_budget
from ..storage.files import write_atomic
from .sandbox import chromium_sandbox, environment, host_pid, walled

PRINT_TIMEOUT_MS = 60_000
WATCH_SECONDS = 0.1  # how often a page waiting for its print looks at its reading's time budget
# Every request Chromium makes itself goes to this proxy, where nothing listens (port 9, discard).
NOWHERE = ["--proxy-server=http://127.0.0.1:9", "--proxy-bypass-list=<-loopback>"]
_TAG = re.compile(r"<(meta|link)\b", re.IGNORECASE)
_REFRESH = re.compile(r"""http-equiv\s*=\s*["']?\s*refresh""", re.IGNORECASE)
_STYLESHEET = re.compile(r"""\brel\s*=\s*["']?\s*stylesheet\b""", re.IGNORECASE)
CLOSE_SECONDS = 10  # for the browser and the driver to stop at shutdown, before they are killed
LAUNCHED = "launched.pid"  # the launcher's pid, in the browser's work folder


def chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


def print_page(html: str, target) -> None:
    """Print ``html`` to the PDF ``target`` with headless Chromium, JavaScript off, nothing fetched."""
    write_atomic(target, _printer().print(_inert(html)))


def _inert(html: str) -> str:
    """``html`` without a refresh and without ``<link>``s other than stylesheets (see above). One
    pass, each tag ending at the next ``>``, so a page of a million unclosed tags costs its length."""
    parts, at = [], 0
    while found := _TAG.search(html, at):
        end = html.find(">", found.end()) + 1 or len(html)
        tag = html[found.start() : end]
        parts.append(html[at : found.start()])
        if not (_REFRESH.search(tag) if found[1].lower() == "meta" else not _STYLESHEET.search(tag)):
            parts.append(tag)
        at = end
    return "".join(parts) + html[at:]


def browser_pid() -> int | None:
    """The pid of this process's warm Chromium, or None while it has none."""
    printer = _current
    return printer.pid if printer is not None and printer.owner == os.getpid() else None


def launches() -> int:
    """How many times this process's printer has launched Chromium (since the last shutdown)."""
    printer = _current
    return printer.launches if printer is not None and printer.owner == os.getpid() else 0


@atexit.register
def shutdown() -> None:
    """Close this process's warm browser and its driver, if it has them; the next print starts new ones."""
    global _current
    with _lock:
        printer, _current = _current, None
    if printer is not None and printer.owner == os.getpid():  # a forked child leaves its parent's browser alone
        printer.stop()


def _kill_group(group: int | None) -> None:
    """Kill a Chromium and its helpers: Playwright launches it (through its walls) as the leader of
    its own process group."""
    if group is not None:
        try:
            os.killpg(group, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def _group(pid: int | None) -> int | None:
    try:
        return os.getpgid(pid) if pid is not None else None
    except ProcessLookupError:
        return None


def _launcher(work: Path) -> Path:
    """The program Playwright launches as Chromium: Chromium inside its walls
    (``readers.render.sandbox``), with ``work`` its one folder of the machine's. It writes its pid
    (bubblewrap's, which it becomes) to ``LAUNCHED`` in ``work``."""
    launcher = work / "chromium"
    walls = shlex.join(walled([chromium() or "chromium"], [work]))
    launcher.write_text(f'#!/bin/sh\necho $$ > {shlex.quote(str(work / LAUNCHED))}\nexec {walls} "$@"\n')
    launcher.chmod(0o700)
    return launcher


def _fresh_page(browser):
    """A new context (JavaScript off, offline, every request aborted: stylesheets, images, frames)
    and its page."""
    context = browser.new_context(java_script_enabled=False, offline=True)
    context.route("**/*", lambda route: route.abort())
    page = context.new_page()
    page.set_default_timeout(PRINT_TIMEOUT_MS)
    return context, page


def _pid(browser) -> int | None:
    """The browser process's pid, which Playwright does not give: Chromium tells it over CDP."""
    try:
        session = browser.new_browser_cdp_session()
        info = session.send("SystemInfo.getProcessInfo")
        session.detach()
    except Exception:  # noqa: BLE001 - only for killing a hung browser and for tests
        return None
    return next((process["id"] for process in info["processInfo"] if process["type"] == "browser"), None)


class _Printer:
    """The warm browser of one process, on its own thread, printing the pages handed to it."""

    def __init__(self):
        self.owner, self.pid, self.group, self.launches = os.getpid(), None, None, 0
        self.work = Path(tempfile.mkdtemp(prefix="readlens-chromium-"))
        self.requests: queue.Queue = queue.Queue()
        self.thread = threading.Thread(target=self._serve, name="readlens-chromium", daemon=True)
        self.thread.start()

    def print(self, html: str) -> bytes:
        """The PDF of ``html``; the calling thread waits while the printer's thread prints it. Past
        twice the print's own limit (some of Playwright's calls have none: a new context in a hung
        browser waits for ever) the browser is killed, which ends the stuck call, and this raises;
        past the time budget of the reading it prints for, the same, and this raises ``TOO_COMPLEX``.
        The budget is paused while the page waits for another's print."""
        done: Future = Future()
        budget, limit = current_budget(), time.monotonic() + 2 * PRINT_TIMEOUT_MS / 1000
        if budget is not None:
            budget.pause()  # the printer's thread resumes it when it takes the page up
        self.requests.put((html, done, budget))
        while True:
            try:
                return done.result(timeout=WATCH_SECONDS)
            except FutureTimeout:
                spent = budget if budget is not None and budget.spent() else None
                if not spent and time.monotonic() < limit:
                    continue
                error = (
                    spent.refusal()
                    if spent
                    else TimeoutError(f"Chromium did not print the page within {2 * PRINT_TIMEOUT_MS / 1000:g} s")
                )
                if not done.cancel():  # it has started: the printer's thread tries it no more (a second go
                    with contextlib.suppress(InvalidStateError):  # would hold the next file's print)
                        done.set_exception(error)
                _kill_group(self.group)  # if it has not started, the thread is stuck before it, on the browser
                raise error from None

    def stop(self) -> None:
        self.requests.put(None)
        self.thread.join(CLOSE_SECONDS)
        if self.thread.is_alive():  # a print still hangs: its browser goes now
            _kill_group(self.group)
        shutil.rmtree(self.work, ignore_errors=True)

    def _serve(self) -> None:
        from playwright.sync_api import TimeoutError as PlaywrightTimeout
        from playwright.sync_api import sync_playwright

        playwright = browser = ready = None
        try:
            while (request := self.requests.get()) is not None:
                html, done, budget = request
                if not done.set_running_or_notify_cancel():  # its caller stopped waiting
                    continue
                if budget is not None:
                    budget.resume()
                for attempt in (1, 2):
                    try:
                        if browser is None or not browser.is_connected():
                            _kill_group(self.group)  # what is left of one that crashed
                            playwright = playwright or sync_playwright().start()
                            browser, ready = None, None
                            browser = playwright.chromium.launch(
                                executable_path=_launcher(self.work),
                                args=[*chromium_sandbox(), *NOWHERE],
                                env={**environment(self.work)},
                                timeout=PRINT_TIMEOUT_MS,
                            )
                            walls = int((self.work / LAUNCHED).read_text())
                            self.pid, self.launches = host_pid(_pid(browser), walls), self.launches + 1
                            self.group = _group(walls)  # Playwright launches it as the leader of its own group
                        context, page = ready or _fresh_page(browser)
                        ready = None
                        if done.done():  # its reading gave up while the browser started: on to the next file
                            ready = context, page
                            break
                        page.set_content(html, wait_until="load")
                        done.set_result(page.pdf(format="A4", print_background=True))
                        context.close()
                        ready = _fresh_page(browser)  # the next page's context, made while this one is read
                        break
                    # Playwright's own: hung, crashed, killed, or its driver gone.
                    except Exception as error:  # noqa: BLE001
                        crashed = not isinstance(error, PlaywrightTimeout) and not (
                            browser is not None and browser.is_connected()
                        )
                        if browser is None:  # it could not even be launched: the driver may be gone too
                            playwright = None
                        _kill_group(self.group)  # the next print gets a new browser
                        browser = ready = None
                        if done.done() or not crashed or attempt == 2:  # a crash before the PDF is tried once more
                            if not done.done():
                                done.set_exception(error)
                            break
        finally:
            if browser is not None and browser.is_connected():
                browser.close()
            if playwright is not None:
                playwright.stop()
            _kill_group(self.group)


_lock = threading.Lock()
_current: _Printer | None = None


def _printer() -> _Printer:
    global _current
    with _lock:
        if _current is None or _current.owner != os.getpid():  # none yet, or the parent's, inherited by a fork
            _current = _Printer()
        return _current
