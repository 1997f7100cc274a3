"""The batch command on Ray's multi-node cluster on this machine (``ray_nodes``: a head and two
worker nodes, each a raylet of its own): a worker node killed mid-run, a file whose worker dies on
every try, and the records as a Ray Data dataset through the example in docs/batch.md.

Fourteen files of the corpus, of seven kinds, are read by the local engine once; every cluster
run must give the same records, each once.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import time
from collections import Counter
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from readers.batch.engines import LOST, TRIES, RayEngine, read_records_in_process
from readers.batch.run import run
from testkit import CORPUS, ROOT, make_settings
from tests import test_batch
from tests.test_batch import batch, by_page, lines, without_cache_marks

vision = test_batch.vision  # the fake vision service, which refuses the page with "Regional figures"

FILES = (
    "pdfplumber/issue-140-example.pdf",
    "pdfplumber/scotus-transcript-p1.pdf",
    "pdfplumber/la-precinct-bulletin-2014-p1.pdf",
    "pdfminer/f1040nr.pdf",
    "docling/2305.03393v1-pg9.pdf",
    "camelot/health.pdf",
    "docling/formats/example_01.html",
    "docling/formats/wiki_duck.html",
    "markitdown/test_blog.html",
    "docling/formats/csv-comma-in-cell.csv",
    "docling/formats/eml_simple.eml",
    "docling/formats/xlsx_01.xlsx",
    "docling/formats/lorem_ipsum.docx",
    "markitdown/test.pptx",
)
KILL_AFTER = 1 / 3  # of the records written when a worker node is killed
# Seconds a cluster run may take before it counts as hung: it took 5:38 at a load of 9-13 on 2 cores.
HUNG = 900


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("cluster") / "docs"
    folder.mkdir()
    for name in FILES:
        shutil.copy(CORPUS / name, folder / Path(name).name)
    return folder


@pytest.fixture(scope="module")
def local_records(corpus, vision) -> list[dict]:
    """The local engine's records of the corpus files, with an empty cache."""
    work = corpus.parent
    result = batch("docs", "--out", work / "local.jsonl", cache=work / "local-cache", vision=vision, cwd=work)
    assert result.returncode == 0, result.stderr
    return lines(work / "local.jsonl")


def pages_once(records: list[dict]) -> bool:
    return set(Counter((record["file"], record["page"]) for record in records).values()) == {1}


@pytest.mark.timeout(2 * HUNG + 120)
def test_a_worker_node_killed_mid_run_loses_no_file_and_doubles_none(
    ray_nodes, corpus, local_records, vision, tmp_path
):
    """A third of the way through, while it reads a file, one of the two worker nodes is killed as a
    machine is lost (its raylet and workers with SIGKILL): the files it was reading are read again
    on the other, the run says which, and every record arrives once, as the local engine wrote it."""
    out = tmp_path / "pages.jsonl"
    args = ("docs", "--out", out, "--engine", "ray", "--ray-address", ray_nodes.address)
    process = batch(*args, cache=tmp_path / "cache", vision=vision, cwd=corpus.parent, wait=False)
    node, killed = ray_nodes.workers[0], False
    try:
        deadline = time.monotonic() + HUNG
        while not killed and process.poll() is None and time.monotonic() < deadline:
            written = len(out.read_bytes().splitlines()) if out.exists() else 0
            processes = ray_nodes.processes(node) if written >= len(local_records) * KILL_AFTER else set()
            if ray_nodes.busy(processes, "read_records_in_process"):
                ray_nodes.kill(node, processes)  # and checks that every one of them is gone
                killed = True
            time.sleep(0.05)
        assert killed, "the run ended before the node could be killed"
        _, stderr = process.communicate(timeout=HUNG)
    finally:
        if process.poll() is None:
            process.kill()
        ray_nodes.add()  # three nodes again, for the tests after this one
    assert process.returncode == 0, f"{stderr}\nThe workers' error logs:\n{ray_nodes.worker_errors()}"
    records = lines(out)
    assert pages_once(records)
    # A file read again after the loss finds the descriptions its first try already cached.
    assert without_cache_marks(by_page(records)) == without_cache_marks(by_page(local_records))
    # The node's loss is seen as the node's or as its worker's, whichever Ray notices first.
    reasons = "|".join(map(re.escape, LOST.values()))
    retried = dict(re.findall(rf"^retrying: (\S+): ({reasons}) \(try 2 of {TRIES}\)$", stderr, re.MULTILINE))
    assert retried, stderr
    assert f"Retried: {len(retried)} file{'s' if len(retried) > 1 else ''} whose try was lost" in stderr
    assert all(f"  {file}: {reason}" in stderr for file, reason in retried.items())


def read_or_die(path: str, *args) -> list[dict] | None:
    """A worker's read that ends its own process with SIGKILL, as the kernel's OOM killer or a
    crash in native code would, whenever the file is named ``dies.md``."""
    if Path(path).name == "dies.md":
        os.kill(os.getpid(), signal.SIGKILL)
    return read_records_in_process(path, *args)


class DyingEngine(RayEngine):
    work = staticmethod(read_or_die)


def test_a_file_whose_worker_dies_on_every_try_becomes_an_error_record(ray_nodes, tmp_path, capsys):
    folder = tmp_path / "docs"
    folder.mkdir()
    for name in ("before.md", "dies.md", "after.md"):
        (folder / name).write_text(f"# {name}\n\nA note.\n")
    out = tmp_path / "pages.jsonl"
    status = run([str(folder)], out, engine=DyingEngine(ray_nodes.address), settings=make_settings(tmp_path / "cache"))
    stderr = capsys.readouterr().err
    assert status == 1, stderr
    records = {Path(record["file"]).name: record for record in lines(out)}
    assert records["before.md"]["text"].startswith("# before.md") and records["after.md"]["error"] is None
    assert records["dies.md"]["kind"] is None
    assert records["dies.md"]["error"] == {
        "code": None,
        "message": f"dies.md could not be read: its worker process died, on each of {TRIES} tries.",
    }
    assert f"Retried: 1 file whose try was lost with its worker or node ({TRIES - 1} retries)" in stderr
    assert "2 files read (2 pages" in stderr and "1 failed" in stderr


def documented_example(shared: Path) -> str:
    """The Ray Data example in docs/batch.md, as a reader copies it, with ``shared`` for its /shared folder."""
    text = (ROOT / "docs/batch.md").read_text(encoding="utf-8")
    return re.search(r"## Ray Data\n.*?```python\n(.*?)```", text, re.DOTALL).group(1).replace("/shared", str(shared))


def test_the_documented_ray_data_example_runs_on_the_cluster(ray_nodes, corpus, local_records, vision, monkeypatch):
    """``ray_dataset`` connects to the cluster at RAY_ADDRESS; the example's embedding step and
    Parquet writer see the local engine's records, each once, and add a vector to each (of as many
    words as the page's text). The workers share a copy of the local run's cache, as nodes share one
    on shared storage."""
    import ray

    cache = shutil.copytree(corpus.parent / "local-cache", corpus.parent / "dataset-cache")  # no LibreOffice again
    for name, value in {
        "RAY_ADDRESS": ray_nodes.address,
        "READLENS_CACHE_DIR": str(cache),
        "VISION_PROVIDER": "openai",
        "VISION_BASE_URL": vision.base_url,
        "VISION_API_KEY": "test-key",
    }.items():
        monkeypatch.setenv(name, value)
    try:
        exec(compile(documented_example(corpus.parent), "docs/batch.md", "exec"), {})
    finally:
        ray.shutdown()
    rows = pq.read_table(corpus.parent / "embedded").to_pylist()
    vectors = [row.pop("vector") for row in rows]
    for row in rows:  # the example names the folder by its absolute path, the local run by its relative one
        row["file"] = os.path.relpath(row["file"], corpus.parent)
    assert pages_once(rows)
    assert without_cache_marks(rows) == without_cache_marks(local_records)
    assert all(len(vector) == 64 for vector in vectors)
    assert [sum(vector) for vector in vectors] == [len(row["text"].split()) for row in rows]
