"""Batch engines: a thread pool on this machine (``LocalEngine``) or Ray tasks on a cluster
(``RayEngine``), each reading a few files at a time."""

from __future__ import annotations

import itertools
import logging
import os
from collections import Counter, deque
from collections.abc import Callable, Generator, Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, ThreadPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .records import INSTALL_HINT, BatchError, read_records

TRIES = 4  # a file's tries on a cluster before its record says why it failed: Ray's own default (max_retries=3)
# The Ray errors that say where a file was read, not what it holds: a try on another worker may
# succeed. Any other (a task that raised, a runtime environment that cannot be set up) would fail again.
LOST = {
    "NodeDiedError": "its node was lost",
    "LocalRayletDiedError": "its node's raylet died",
    "WorkerCrashedError": "its worker process died",
    "ObjectLostError": "its records were lost with the node that held them",
    "OutOfMemoryError": "its worker was stopped for want of memory",
}


@dataclass(frozen=True)
class Retry:
    """A file's try that was lost with its worker or node; the file is read again."""

    tries: int  # tries so far
    reason: str  # a ``LOST`` sentence


class _Requeue:
    """Tasks to run: those put ``back`` to be tried again first, then the rest. Unlike a generator it
    can go on after it ran dry, when a task is put back."""

    def __init__(self, tasks: Iterator[tuple]):
        self.tasks: Iterator[tuple] = tasks
        self.back: deque[tuple] = deque()

    def __iter__(self) -> _Requeue:
        return self

    def __next__(self) -> tuple:
        return self.back.popleft() if self.back else next(self.tasks)


def _windowed(
    tasks: Iterator[tuple], window: int, submit: Callable, wait_any: Callable, cancel: Callable
) -> Iterator[tuple[tuple, Any]]:
    """Run ``tasks`` with at most ``window`` under way; yield (task, handle) as each finishes.
    Tasks are taken from the iterator only as room frees, so memory stays bounded."""
    running: dict = {}
    try:
        while True:
            for task in itertools.islice(tasks, window - len(running)):
                running[submit(task)] = task
            if not running:
                return
            for handle in wait_any(list(running)):
                yield running.pop(handle), handle
    finally:
        for handle in running:
            cancel(handle)


def cores() -> int:
    return len(os.sched_getaffinity(0))


class LocalEngine:
    """Files read on this machine's cores: ``workers`` threads (default: one per core) in this
    process, each calling ``read_file`` on one file at a time.

    Threads, not a process per file, because the heavy steps of a read already leave the
    interpreter and spread over the cores by themselves: a PDF's pages (and a DOCX's or PPTX's,
    through their PDFs) go to the PDF reader's one pool of worker processes, LibreOffice is a
    process of its own, and OCR and Whisper run in native code on every core. So one process
    holds one PDF pool, one OCR engine and one Whisper model however many files are under way,
    and the threads only keep that pool fed while a file waits on LibreOffice or a vision
    service. A process per file would nest a PDF pool in each process (on 2 cores, 4 PDF
    workers; and such a process hangs on exit, joining its pool's workers before the pool is
    shut down) or, reading its pages itself as Ray's workers do, hold a copy of every model per
    process. ``python -m bench batch`` measured on 2 cores, 100 files: the same CPU time per page
    for all of them (0.56-0.65 s), and a peak of 1.3 GB for these threads against 2.8 GB for a
    process per file and 4.2 GB for Ray; their times swung with the load of a shared machine.
    Memory stays bounded: at most ``workers`` files are under way, each file's records are
    written as soon as it is read, and page images are kept only in multimodal mode.
    """

    name = "local"

    def __init__(self, workers: int | None = None):
        self.workers = workers or cores()

    def __enter__(self) -> LocalEngine:
        return self

    def __exit__(self, *exc) -> None:
        pass

    work = staticmethod(read_records)

    def _pool(self) -> Executor:
        return ThreadPoolExecutor(self.workers, thread_name_prefix="readlens-batch")

    def read(self, tasks: Iterator[tuple], *shared) -> Generator[tuple[tuple, Any]]:
        """Yield (task, ``self.work(*task, *shared)`` or the exception it raised) as each finishes."""
        pool = self._pool()
        try:
            for task, future in _windowed(
                tasks,
                self.workers,
                lambda task: pool.submit(self.work, *task, *shared),
                lambda futures: wait(futures, return_when=FIRST_COMPLETED).done,
                lambda future: future.cancel(),
            ):
                yield task, future.exception() or future.result()
        finally:
            pool.shutdown(wait=False, cancel_futures=True)


def read_records_in_process(*args) -> list[dict] | None:
    """``read_records`` for an engine that runs a process per file under way (Ray's workers):
    the PDF reader's pages are read in this process rather than in a pool of its own.

    Such an engine already keeps a core busy per process, so a PDF pool in each would only
    crowd the cores and hold more memory; and a process that ends abruptly (Ray ends its idle
    workers with SIGKILL) or exits with its pool still up (a process pool's worker joins its
    children before its pool is shut down, and waits for ever) would leave that pool's
    processes behind. A one-thread executor takes the pool's place.
    """
    from ..pdf.pool import pages_in_this_process

    pages_in_this_process()
    return read_records(*args)


class RayEngine:
    """The same reads as Ray tasks, on a local Ray started here (``address`` None) or on the
    cluster at ``address`` (``"auto"``: the one ``ray start --head`` started on this machine).

    Each task runs ``read_records_in_process`` on one file in a Ray worker, with the readers shipped to
    the cluster as a ``py_modules`` runtime environment and the driver's settings (its
    ``READLENS_CACHE_DIR`` made absolute), so the records are the local engine's. Every node
    needs the same Python packages (``make setup-batch``) and the files at the same paths; a
    shared filesystem lets the nodes share the cache too. At most ``workers`` tasks (default:
    the cluster's CPUs) are under way, so the object store holds a few files' records at a time.

    A try lost with its worker or node (``LOST``) is made again here rather than by Ray, so the
    run can say which files were retried (a ``Retry`` in ``read``'s results); after ``TRIES``
    the error is the file's result. Only the driver writes, and only what a try returned, so a
    file's records arrive once however many tries it took.
    """

    name = "ray"
    work = staticmethod(read_records_in_process)

    def __init__(self, address: str | None = None, workers: int | None = None):
        self.address, self.workers = address, workers
        self._started = False

    def __enter__(self) -> RayEngine:
        try:
            import ray
        except ImportError:
            raise BatchError(f"--engine ray needs Ray: {INSTALL_HINT}.") from None
        self.ray = ray
        if not ray.is_initialized():
            os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # nothing is reported anywhere
            try:
                ray.init(
                    address=self.address or "local",  # without one, a Ray of its own: not a cluster found here
                    num_cpus=None if self.address else self.workers,
                    include_dashboard=False,
                    log_to_driver=False,
                    logging_level=logging.ERROR,
                    runtime_env=self.runtime_env(),
                )
            except (ConnectionError, RuntimeError, ValueError) as error:
                raise BatchError(
                    f"Ray could not start or connect{f' to {self.address}' if self.address else ''}: {error}"
                ) from None
            self._started = True
        self.window = self.workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
        return self

    @staticmethod
    def runtime_env() -> dict:
        """The readers package shipped to the workers, and this process's OpenMP threads: Ray sets
        one thread in its workers, and Whisper's words change with the thread count (a period
        more or less), so a Ray task would transcribe audio unlike the local engine."""
        threads = os.environ.get("OMP_NUM_THREADS") or str(os.cpu_count() or 1)
        return {"py_modules": [str(Path(__file__).parents[1])], "env_vars": {"OMP_NUM_THREADS": threads}}

    def __exit__(self, *exc) -> None:
        if self._started:
            self.ray.shutdown()

    def read(self, tasks: Iterator[tuple], *shared) -> Generator[tuple[tuple, Any]]:
        """Yield (task, its records, a ``Retry``, or the Ray error of its last try) as each finishes."""
        ray = self.ray
        remote = ray.remote(max_retries=0)(self.work)
        shared_refs = [ray.put(value) for value in shared]
        queue, tries = _Requeue(tasks), Counter[tuple]()
        for task, ref in _windowed(
            queue,
            self.window,
            lambda task: remote.remote(*task, *shared_refs),
            lambda refs: ray.wait(refs, num_returns=1)[0],
            lambda ref: ray.cancel(ref),
        ):
            try:
                result = ray.get(ref)
            except ray.exceptions.RayError as error:
                tries[task] += 1
                if (why := lost(error)) and tries[task] < TRIES:
                    queue.back.append(task)
                    yield task, Retry(tries[task], why)
                    continue
                result = error
            tries.pop(task, None)
            yield task, result


def lost(error: BaseException) -> str | None:
    """Why a try was lost with its worker or node (a ``LOST`` sentence), or None when it failed for itself."""
    return next((LOST[kind.__name__] for kind in type(error).__mro__ if kind.__name__ in LOST), None)
