"""The PDF worker pool: page extraction, figure renders and cuts run in worker processes, one
page's time and each worker's memory bounded, so a damaged or hostile page costs that page only.

``executor()`` is the shared pool, started on first use; ``pages_in_this_process()`` makes it a
single thread instead (a Ray task is itself one of many workers); ``worker_died`` turns a pool
whose worker stopped into ``RENDER_FAILED`` and discards it, so the next read starts afresh.
"""

from __future__ import annotations

import ctypes
import os
import resource
import signal
import sys
import threading
import time
import types
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from multiprocessing import get_context
from multiprocessing.context import ForkServerContext, ForkServerProcess
from pathlib import Path

from ..errors import ReaderError
from ..render.pdfium import Placed, pages_pdf, render_figures

WORKERS = min(4, os.cpu_count() or 1)  # a worker peaks near 150 MB on the bench pages; four bound that on big machines
WORKER_MEMORY = 4 << 30  # the most data one worker may hold: far above any honest page
PR_SET_PDEATHSIG = 1  # prctl(2)
ALARM_REPEAT = 0.1  # seconds: time_limit's alarm fires again this often, in case pdfminer swallowed the last one
SOONEST_TIMER = 0.001  # seconds: a timer set before, already due, is put back this soon (0 would switch it off)
_pool: Executor | None = None
_pool_lock = threading.Lock()


@contextmanager
def time_limit(seconds: float):
    """Raise ``TimeoutError`` in the block after ``seconds``, so a page built to stall the parser
    (millions of drawing operations in a few kilobytes) costs that page only. Only a process's
    main thread can set the alarm, as the pool's workers do; elsewhere the block runs unbounded.

    The alarm fires again every tenth of a second until the block ends: pdfminer swallows some
    exceptions, and one raised inside a destructor is only printed, so a single alarm may be lost.
    Others it wraps in errors of its own ("Unsupported filter" when the alarm lands while a stream
    is inflated), which would read as damage: so the block gets a list that holds the time-out
    once it has fired, whatever error then ends the block.
    A timer set before (pytest-timeout's, say) is put back with what remained of it."""
    expired: list[TimeoutError] = []
    if threading.current_thread() is not threading.main_thread():
        yield expired
        return

    def expire(signum, frame):
        expired[:] = [TimeoutError(f"reading the page took longer than {seconds:g} s")]
        raise expired[0]

    previous = signal.signal(signal.SIGALRM, expire)
    started = time.monotonic()
    outer_delay, outer_interval = signal.setitimer(signal.ITIMER_REAL, seconds, ALARM_REPEAT)
    try:
        yield expired
    finally:
        try:
            signal.setitimer(signal.ITIMER_REAL, 0)  # an alarm already on its way is raised as this call returns
        finally:
            signal.signal(signal.SIGALRM, previous)
        if outer_delay:
            signal.setitimer(
                signal.ITIMER_REAL, max(outer_delay - (time.monotonic() - started), SOONEST_TIMER), outer_interval
            )


def batches(numbers: list[int]) -> list[list[int]]:
    """Guided scheduling: large batches first (each opens the file once, which costs tens of ms
    on a big PDF), single pages last (so the workers finish together)."""
    batches, rest = [], list(numbers)
    while rest:
        size = max(1, len(rest) // (2 * WORKERS))
        batches.append(rest[:size])
        rest = rest[size:]
    return batches


def _start_worker() -> None:
    """A worker ends when the process that started it ends, however abruptly (``kill -9``, a
    closed pipe): otherwise it would wait for work for ever (Linux only; elsewhere a no-op). Its
    data is limited to ``WORKER_MEMORY``, so a page whose streams inflate to gigabytes fails with
    a MemoryError instead of taking the machine's memory."""
    try:
        ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        pass
    _, hard = resource.getrlimit(resource.RLIMIT_DATA)
    resource.setrlimit(
        resource.RLIMIT_DATA, (WORKER_MEMORY if hard == resource.RLIM_INFINITY else min(WORKER_MEMORY, hard), hard)
    )


class _WorkerProcess(ForkServerProcess):
    """A worker from the fork server that is not told the caller's main module.

    multiprocessing's fork server, and every process it starts, runs the starting process's
    ``__main__`` script again (as ``__mp_main__``) unless the script guards its work with
    ``if __name__ == "__main__":``; a library must not run its caller's code. The workers need
    nothing from that module (they run ``readers``' functions), so while one starts, and the fork
    server with it, ``sys.modules["__main__"]`` is a blank module: nothing names the script. (The
    pool starts its workers one at a time, under its own lock.)"""

    @staticmethod
    def _Popen(process_obj):
        caller, sys.modules["__main__"] = sys.modules["__main__"], types.ModuleType("__main__")
        try:
            return ForkServerProcess._Popen(process_obj)
        finally:
            sys.modules["__main__"] = caller


class _ForkServerContext(ForkServerContext):
    Process = _WorkerProcess


def executor() -> Executor:
    """The shared worker pool, started on first use.

    With other threads running (the app's), workers come from a fork server: a fork would copy
    locks those threads may hold, and the caller's ``__main__`` is kept from it (``_WorkerProcess``),
    so a script that calls ``read_file`` without ``if __name__ == "__main__":`` is run once. Without
    other threads, a plain fork is safe and quicker.
    """
    global _pool
    with _pool_lock:
        if _pool is None:
            context = get_context("fork") if threading.active_count() == 1 else _ForkServerContext()
            _pool = ProcessPoolExecutor(WORKERS, mp_context=context, initializer=_start_worker)
        return _pool


def pages_in_this_process() -> None:
    """From now on, read PDF pages in this process (one thread) rather than in a pool of worker
    processes: for a process that is itself one of many workers, such as a Ray task, where a pool
    in each would crowd the cores and hold more memory."""
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(1, thread_name_prefix="pdf-pages")


def worker_pids() -> list[int]:
    """The process ids of the pool's workers (none before its first use, or in a single thread)."""
    pool = _pool
    return list(getattr(pool, "_processes", None) or {})


def restart() -> None:
    """Stop the pool, if one runs; the next read starts a fresh one (whose workers see the
    process's modules as they are then)."""
    if _pool is not None:
        discard_pool(_pool)


def discard_pool(pool: Executor) -> None:
    global _pool
    with _pool_lock:
        if _pool is pool:
            _pool = None
    pool.shutdown(wait=True, cancel_futures=True)


def worker_died(pool: Executor | None, message: str) -> ReaderError:
    """The ``RENDER_FAILED`` error to raise when a worker of ``pool`` stopped; the pool is
    discarded first (if there is one), so the next read starts a fresh one."""
    if pool is not None:
        discard_pool(pool)
    return ReaderError("RENDER_FAILED", message)


def figure_images(pdf_path: Path, name: str, wanted: dict[int, list[Placed]]):
    """Yield ``(page number, [PNG bytes or error text per figure])`` for the figures in ``wanted``
    (page number to the figures' places: ``FoundFigure``s) of ``pdf_path`` (the PDF of the file shown
    as ``name``), rendered by the worker pool as they finish."""
    futures = {}
    try:
        pool = executor()
        futures = {
            pool.submit(render_figures, str(pdf_path), number, figures): number for number, figures in wanted.items()
        }
        for future in as_completed(futures):
            yield futures[future], future.result()
    except BrokenProcessPool:
        raise worker_died(
            pool, f"A PDF worker process stopped while rendering the figures of {name}. Try again."
        ) from None
    finally:
        for future in futures:
            future.cancel()


def cut_pages(pdf_path: Path, first: int, last: int, name: str) -> bytes:
    """Pages ``first``-``last`` of ``pdf_path`` as a PDF of their own, made by the worker pool
    (pdfium is not safe to call from several threads). Raises ``RENDER_FAILED`` if it cannot be made."""
    pool = executor()
    try:
        return pool.submit(pages_pdf, str(pdf_path), first, last).result()
    except BrokenProcessPool:
        raise worker_died(
            pool, f"A PDF worker process stopped while cutting pages {first}-{last} of {name}. Try again."
        ) from None
    except Exception as error:  # pdfium's own errors on a damaged file
        raise ReaderError(
            "RENDER_FAILED",
            f"Pages {first}-{last} of {name} could not be copied into a PDF of their own "
            f"({type(error).__name__}: {error}).",
        ) from None
