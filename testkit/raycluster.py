"""Ray's own multi-node cluster on this one machine (``ray.cluster_utils.Cluster``): a head and
worker nodes, each a raylet of its own with its own workers, sized for a shared 2-core machine.
The tests and ``make bench scale`` run the batch command against its address."""

from __future__ import annotations

import os
import shutil
import signal
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from testkit.processes import descendants, running

NODE_CPUS = 1  # each worker node reads one file at a time: two nodes fill this machine's 2 cores
# Each node's object store: Ray's least (75 MiB, ray_constants.OBJECT_STORE_MINIMUM_MEMORY_BYTES) and a
# little; the batch holds a few files' records in it at a time.
OBJECT_STORE_BYTES = 80 * 2**20
GONE_WITHIN = 30  # seconds for a node's processes to end once it is killed or shut down


class Nodes:
    """A running cluster: its ``address``, and worker nodes to kill and add."""

    def __init__(self, cluster, temp: str):
        self.cluster, self.temp = cluster, temp
        self.address = cluster.address

    @property
    def workers(self) -> list:
        return sorted(self.cluster.worker_nodes, key=lambda node: node.unique_id)

    def add(self) -> None:
        with _environment(RAY_TMPDIR=self.temp, RAY_USAGE_STATS_ENABLED="0"):
            self.cluster.add_node(num_cpus=NODE_CPUS, object_store_memory=OBJECT_STORE_BYTES)
        self.cluster.wait_for_nodes()

    @staticmethod
    def processes(node) -> set[int]:
        """The node's processes: its raylet and the others Ray started for it, and all under them
        (its workers and what they started)."""
        found = {process.process.pid for group in node.all_processes.values() for process in group}
        for pid in list(found):
            found |= descendants(pid)
        return found

    @staticmethod
    def busy(processes: set[int], task: str) -> bool:
        """One of ``processes`` is a worker running the Ray task named ``task`` (Ray names its workers so)."""
        for pid in processes:
            try:
                if Path(f"/proc/{pid}/cmdline").read_bytes().startswith(f"ray::{task}".encode()):
                    return True
            except OSError:
                pass
        return False

    def worker_errors(self) -> str:
        """What the cluster's workers wrote to their error logs (a traceback the batch logs, which Ray does
        not send to the driver), for a failed test to show."""
        written = []
        for log in sorted(Path(self.temp).glob("ray/session_[0-9]*/logs/worker-*.err")):
            lines = log.read_text(errors="replace").splitlines()
            if text := "\n".join(line for line in lines if not line.startswith((":job_id:", ":task_name:"))).strip():
                written.append(f"{log.name}:\n{text}")
        return "\n".join(written) or "(none)"

    def kill(self, node, processes: set[int]) -> None:
        """Kill a worker node as a machine is lost: its raylet and everything under it with SIGKILL,
        at once; ``processes`` (``Nodes.processes``) are checked gone."""
        self.cluster.remove_node(node, allow_graceful=False)
        _gone(processes)


def _gone(processes: set[int]) -> None:
    deadline = time.monotonic() + GONE_WITHIN
    while any(map(running, processes)) and time.monotonic() < deadline:
        time.sleep(0.2)
    left = [pid for pid in processes if running(pid)]
    assert not left, f"Ray left processes behind: {left}"


@contextmanager
def _environment(**values: str) -> Iterator[None]:
    saved = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


@contextmanager
def cluster(workers: int = 2) -> Iterator[Nodes]:
    """A head node without CPUs (it holds the cluster's state and the driver, as a cluster's head
    does) and ``workers`` worker nodes of ``NODE_CPUS`` each. Ray's files, and the address file
    it writes for ``ray.init(address="auto")``, go to a folder of its own (``RAY_TMPDIR`` while a
    node starts), not the machine's shared /tmp/ray: only the ``address`` finds this cluster.
    Shut down at the end, and every process it started checked gone."""
    import ray
    from ray.cluster_utils import Cluster

    temp = tempfile.mkdtemp(prefix="rl-ray-")  # short: Ray's socket paths must fit in 107 bytes
    before = descendants(os.getpid())
    head = {
        "num_cpus": 0,
        "object_store_memory": OBJECT_STORE_BYTES,
        "include_dashboard": False,
        "dashboard_agent_listen_port": None,  # a free port, as the worker nodes' agents get: not Ray's fixed one
    }
    try:
        try:
            with _environment(RAY_TMPDIR=temp, RAY_USAGE_STATS_ENABLED="0"):
                nodes = Nodes(Cluster(initialize_head=True, head_node_args=head), temp)
        except Exception:  # a head that did not come up (Ray waits 30 s for it): end what it started
            for pid in descendants(os.getpid()) - before:  # nothing else starts while it does
                os.kill(pid, signal.SIGKILL)
            raise
        try:
            for _ in range(workers):
                nodes.add()
            yield nodes
        finally:
            started = set().union(*map(Nodes.processes, [nodes.cluster.head_node, *nodes.workers]))
            ray.shutdown()
            nodes.cluster.shutdown()
            _gone(started)
    finally:
        shutil.rmtree(temp, ignore_errors=True)
