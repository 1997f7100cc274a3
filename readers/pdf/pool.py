"""The PDF worker pool: page extraction, figure renders and cuts run in worker processes, one
page's time and each worker's memory bounded, and each task held to the time budget of the reading
it works for (``readers.errors.Budget``), so a damaged or hostile page costs that page only and a
file past its budget frees the workers at once.

The pool is its own, not ``concurrent.futures``' (whose workers cannot be stopped one at a time:
one killed breaks the pool for every reading): each worker is fed one task at a time over a pipe by
a thread of this process, which kills it when the task's reading has spent its budget (or ended),
fails that task alone with ``TOO_COMPLEX`` and starts a fresh worker; a worker that dies (a native
crash, the kernel's OOM killer) fails only the task it ran, with ``BrokenProcessPool``. Waiting
tasks are taken turn about, the next from the reading with the fewest tasks running, so one
file's many pages do not hold the queue; while a reading has tasks waiting and none running, its
budget is paused (it waits for others' work).

``executor()`` is the shared pool, started on first use; ``pages_in_this_process()`` makes it a
single thread instead (a Ray task is itself one of many workers).
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
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ThreadPoolExecutor, as_completed, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from multiprocessing import get_context
from multiprocessing.connection import Connection
from multiprocessing.context import BaseContext, ForkServerContext, ForkServerProcess
from multiprocessing.process import BaseProcess
from pathlib import Path

from ..errors import Budget, ReaderError, current_budget
from ..render.pdfium import Placed, pages_pdf, render_figures

WORKERS = min(4, os.cpu_count() or 1)  # a worker peaks near 150 MB on the bench pages; four bound that on big machines
# The most data one worker may hold: some seven times the 150 MB a worker peaks at on the bench pages,
# and a reading's whole tree (the reader, its workers, LibreOffice) stays within 1.5 GB (make bench hostile).
WORKER_MEMORY = 1 << 30
PR_SET_PDEATHSIG = 1  # prctl(2)
ALARM_REPEAT = 0.1  # seconds: time_limit's alarm fires again this often, in case pdfminer swallowed the last one
SOONEST_TIMER = 0.001  # seconds: a timer set before, already due, is put back this soon (0 would switch it off)
WATCH_SECONDS = 0.1  # how often the thread feeding a worker looks at its task's budget
PRELOADED = ["readers.pdf.pages"]  # what the fork server imports once, so a fresh worker is ready at once
_pool: Executor | None = None
_pool_lock = threading.Lock()
_start_lock = threading.Lock()  # one worker starts at a time (``_WorkerProcess`` swaps ``__main__``)


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


def _serve(connection) -> None:
    """A worker: run each task the pipe brings, send back (True, result) or (False, the exception)."""
    _start_worker()
    while True:
        try:
            function, arguments = connection.recv()
        except (EOFError, OSError):  # the pool let it go, or its process ended
            return
        try:
            answer = (True, function(*arguments))
        except BaseException as error:  # noqa: BLE001 - the caller's future raises it
            answer = (False, error)
        try:
            connection.send(answer)
        except Exception as error:  # noqa: BLE001 - an exception or result that cannot be pickled
            connection.send((False, RuntimeError(f"{type(error).__name__}: {error}")))


class _Task:
    def __init__(self, function, arguments: tuple, budget: Budget | None):
        self.function, self.arguments, self.budget = function, arguments, budget
        self.future: Future = Future()


class _Worker:
    """One worker process and the thread of this process that feeds it its tasks."""

    def __init__(self, pool: Pool):
        self.pool = pool
        self.process: BaseProcess | None = None
        self.connection: Connection | None = None
        self.thread = threading.Thread(target=self._feed, name="readlens-pdf-worker", daemon=True)

    def start(self) -> None:
        with _start_lock:  # so that no other worker is forked while this one's end of the pipe is open here
            ours, theirs = self.pool.context.Pipe()
            self.process = self.pool.context.Process(target=_serve, args=(theirs,), daemon=True)
            self.process.start()
            theirs.close()
        self.connection = ours

    def stop(self) -> None:
        """Kill the worker at once (it may be deep in a page) and forget it; the next task starts another."""
        if self.process is not None:
            if self.process.pid is not None:  # it started
                self.process.kill()
                self.process.join()
            if self.connection is not None:
                self.connection.close()
            self.process = self.connection = None

    def _feed(self) -> None:
        while (task := self.pool.take()) is not None:
            try:
                self._run(task)
            finally:
                self.pool.finished(task)
        self.stop()  # a forked worker may not see its pipe close: another holds a copy of this end

    def _run(self, task: _Task) -> None:
        try:
            if self.process is None:
                self.start()
            process, connection = self.process, self.connection
            assert process is not None and connection is not None  # started
            connection.send((task.function, task.arguments))
            while not connection.poll(WATCH_SECONDS):
                spent = task.budget if task.budget is not None and task.budget.spent() else None
                if self.pool.closed or spent:
                    self.stop()  # the worker is freed at once, whatever the task was doing
                    task.future.set_exception(spent.refusal() if spent else BrokenProcessPool("the pool was shut"))
                    return
                if not process.is_alive():
                    raise EOFError
            done, value = connection.recv()
        except (EOFError, OSError):  # the worker died: a native crash, or the kernel killed it
            code = self.process.exitcode if self.process else None
            self.stop()
            task.future.set_exception(BrokenProcessPool(f"a PDF worker process stopped (exit code {code})"))
            return
        (task.future.set_result if done else task.future.set_exception)(value)


class Pool(Executor):
    """``WORKERS`` worker processes from ``context``, each fed by a thread here (see the module's docstring)."""

    def __init__(self, size: int, context):
        self.context, self.closed = context, False
        self._changed = threading.Condition()
        self._waiting: list[_Task] = []
        self._running: dict[Budget | None, int] = {}
        self._paused: set[Budget] = set()
        self._workers = [_Worker(self) for _ in range(size)]
        for worker in self._workers:
            if context.get_start_method() == "fork":  # while this is the only thread: a fork copies no lock held
                worker.start()
            worker.thread.start()

    # a task's arguments are positional only: they go to the worker as one tuple
    def submit(self, function, /, *arguments) -> Future:  # type: ignore[override]
        task = _Task(function, arguments, current_budget())
        with self._changed:
            if self.closed:
                raise RuntimeError("the PDF worker pool has been shut down")
            self._waiting.append(task)
            self._account(task.budget)
            self._changed.notify()
        return task.future

    def take(self) -> _Task | None:
        """The next task to run (from the reading with the fewest running), or None once the pool is shut.
        A task whose reading is over, or whose caller cancelled it, is dropped."""
        with self._changed:
            while not self.closed:
                task = self._next()
                if task is not None:
                    return task
                self._changed.wait()
            return None

    def _next(self) -> _Task | None:
        for task in self._waiting:
            if task.budget is not None and task.budget.ended:
                task.future.cancel()  # its reading is over: nobody waits for it
        budgets = {task.budget for task in self._waiting}
        self._waiting = [task for task in self._waiting if not task.future.cancelled()]
        chosen = None
        if self._waiting:
            chosen = min(self._waiting, key=lambda task: self._running.get(task.budget, 0))
            self._waiting.remove(chosen)
            if chosen.future.set_running_or_notify_cancel():
                self._running[chosen.budget] = self._running.get(chosen.budget, 0) + 1
            else:  # cancelled meanwhile
                chosen = None
        for budget in budgets:
            self._account(budget)
        return chosen if chosen is not None or not self._waiting else self._next()

    def finished(self, task: _Task) -> None:
        with self._changed:
            self._running[task.budget] -= 1
            if not self._running[task.budget]:
                del self._running[task.budget]
            self._account(task.budget)

    def _account(self, budget: Budget | None) -> None:
        """Pause ``budget`` while its reading has tasks waiting and none running; resume it otherwise."""
        if budget is None:
            return
        queued = not self._running.get(budget) and any(task.budget is budget for task in self._waiting)
        if queued and budget not in self._paused:
            self._paused.add(budget)
            budget.pause()
        elif not queued and budget in self._paused:
            self._paused.discard(budget)
            budget.resume()

    def pids(self) -> list[int]:
        return [worker.process.pid for worker in self._workers if worker.process is not None and worker.process.pid]

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        with self._changed:
            self.closed = True
            for task in self._waiting if cancel_futures else ():
                task.future.cancel()
            self._changed.notify_all()
        if wait:
            for worker in self._workers:
                worker.thread.join()


def executor() -> Executor:
    """The shared worker pool, started on first use.

    With other threads running (the app's), workers come from a fork server (which imports the page
    engine once, ``PRELOADED``): a fork would copy locks those threads may hold, and the caller's
    ``__main__`` is kept from it (``_WorkerProcess``), so a script that calls ``read_file`` without
    ``if __name__ == "__main__":`` is run once. Without other threads, a plain fork is safe and quicker.
    """
    global _pool
    with _pool_lock:
        if _pool is None:
            if threading.active_count() == 1:
                context: BaseContext = get_context("fork")
            else:
                served = _ForkServerContext()
                served.set_forkserver_preload(PRELOADED)
                context = served
            _pool = Pool(WORKERS, context)
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
    return pool.pids() if isinstance(pool, Pool) else []


def restart() -> None:
    """Stop the pool, if one runs; the next read starts a fresh one (whose workers see the
    process's modules as they are then)."""
    global _pool
    with _pool_lock:
        pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown(wait=True, cancel_futures=True)


def by_batches(work: Callable[..., list[dict]], path: str, numbers: list[int], *arguments) -> Iterator[dict]:
    """Yield the results of ``work(path, batch, *arguments)`` (one dict per page of ``batch``) over the
    pool, batch by batch as each finishes (``batches(numbers)``). A batch whose worker stopped (a native
    crash, or the page past the worker's memory ceiling) is run again a page at a time, so a page that
    stops its worker costs that page only: it comes back as ``{"number": n, "stopped": why}``. Raises
    ``BrokenProcessPool`` only when the pool itself was shut."""
    pool = executor()
    running: dict[Future, list[int]] = {}
    try:
        for batch in batches(numbers):
            running[pool.submit(work, path, batch, *arguments)] = batch
        while running:
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                batch = running.pop(future)
                try:
                    yield from future.result()
                except BrokenProcessPool as stopped:
                    if isinstance(pool, Pool) and pool.closed:
                        raise
                    if len(batch) == 1:
                        yield {"number": batch[0], "stopped": str(stopped)}
                    else:  # which of its pages stopped the worker is found by reading each alone
                        running.update({pool.submit(work, path, [number], *arguments): [number] for number in batch})
    finally:
        for future in running:
            future.cancel()


def worker_stopped(message: str) -> ReaderError:
    """The ``RENDER_FAILED`` error to raise when the worker running a task stopped (the pool starts another)."""
    return ReaderError("RENDER_FAILED", message)


def figure_images(pdf_path: Path, name: str, wanted: dict[int, list[Placed]]):
    """Yield ``(page number, [PNG bytes or error text per figure])`` for the figures in ``wanted``
    (page number to the figures' places: ``FoundFigure``s) of ``pdf_path`` (the PDF of the file shown
    as ``name``), rendered by the worker pool as they finish."""
    futures = {}
    try:
        futures = {
            executor().submit(render_figures, str(pdf_path), number, figures): number
            for number, figures in wanted.items()
        }
        for future in as_completed(futures):
            yield futures[future], future.result()
    except BrokenProcessPool:
        raise worker_stopped(
            f"A PDF worker process stopped while rendering the figures of {name}. Try again."
        ) from None
    finally:
        for future in futures:
            future.cancel()


def cut_pages(pdf_path: Path, first: int, last: int, name: str) -> bytes:
    """Pages ``first``-``last`` of ``pdf_path`` as a PDF of their own, made by the worker pool
    (pdfium is not safe to call from several threads). Raises ``RENDER_FAILED`` if it cannot be made."""
    try:
        return executor().submit(pages_pdf, str(pdf_path), first, last).result()
    except BrokenProcessPool:
        raise worker_stopped(
            f"A PDF worker process stopped while cutting pages {first}-{last} of {name}. Try again."
        ) from None
    except Exception as error:  # pdfium's own errors on a damaged file
        raise ReaderError(
            "RENDER_FAILED",
            f"Pages {first}-{last} of {name} could not be copied into a PDF of their own "
            f"({type(error).__name__}: {error}).",
        ) from None
