import json
import logging
import os
import signal
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

from readers.storage.descriptions import DescriptionCache, cache_key
from testkit import ROOT

FILE_A = "a" * 64
FILE_B = "b" * 64


def test_hits_and_misses(tmp_path):
    cache = DescriptionCache(tmp_path)
    key = cache_key(FILE_A, 1, None, "vision:gpt-4o-mini", 1)
    assert cache.get(key) is None
    cache.put(key, "A pie chart: 40% red, 60% blue.")
    assert cache.get(key) == "A pie chart: 40% red, 60% blue."
    cache.put(key, "Replaced.")
    assert cache.get(key) == "Replaced."
    assert cache.get(cache_key(FILE_A, 2, None, "vision:gpt-4o-mini", 1)) is None
    assert len(cache) == 1
    assert DescriptionCache(tmp_path).get(key) == "Replaced."  # on disk, not in memory


def test_key_depends_on_content_and_parts_only():
    key = cache_key(FILE_A, 3, "What is the total?", "vision:m", 2)
    assert key == cache_key(FILE_A, 3, "What is the total?", "vision:m", 2)
    assert key.startswith(FILE_A + "/")
    others = {
        cache_key(FILE_B, 3, "What is the total?", "vision:m", 2),
        cache_key(FILE_A, 4, "What is the total?", "vision:m", 2),
        cache_key(FILE_A, 3, None, "vision:m", 2),
        cache_key(FILE_A, 3, "What is the total?", "ocr", 2),
        cache_key(FILE_A, 3, "What is the total?", "vision:m", 3),
    }
    assert key not in others and len(others) == 5


def test_clear_one_file_or_all(tmp_path):
    cache = DescriptionCache(tmp_path)
    for page in range(1, 31):
        cache.put(cache_key(FILE_A, page), f"a{page}")
        cache.put(cache_key(FILE_B, page), f"b{page}")
    assert len(cache) == 60 and cache.size_bytes() > 0
    cache.clear(FILE_A)
    assert len(cache) == 30
    assert cache.get(cache_key(FILE_A, 5)) is None
    assert cache.get(cache_key(FILE_B, 5)) == "b5"
    cache.clear()
    assert len(cache) == 0
    assert cache.get(cache_key(FILE_B, 5)) is None


def test_threads_writing_at_once(tmp_path):
    cache = DescriptionCache(tmp_path)

    def write(worker: int) -> None:
        for page in range(100):
            cache.put(cache_key(FILE_A, worker, page), f"{worker}:{page}")

    with ThreadPoolExecutor(8) as pool:
        list(pool.map(write, range(8)))
    assert len(cache) == 800
    assert all(cache.get(cache_key(FILE_A, w, p)) == f"{w}:{p}" for w in range(8) for p in range(100))


WRITER = f"""
import sys
from readers.storage.descriptions import DescriptionCache, cache_key
cache = DescriptionCache(sys.argv[1])
worker, count, size = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
for page in range(count):
    cache.put(cache_key({FILE_A!r}, worker, page), worker * size)
    print(page, flush=True)
"""


def _writer(directory, worker: str, count: int, size: int = 1) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-c", WRITER, str(directory), worker, str(count), str(size)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )


def test_two_processes_writing_at_once(tmp_path):
    writers = [_writer(tmp_path, worker, 300) for worker in ("x", "y")]
    for writer in writers:
        writer.communicate(timeout=60)
        assert writer.returncode == 0
    cache = DescriptionCache(tmp_path)
    assert len(cache) == 600
    assert all(cache.get(cache_key(FILE_A, w, p)) == w for w in ("x", "y") for p in range(300))


def test_a_killed_writer_leaves_a_readable_cache(tmp_path, caplog):
    # Large values make each write long, so the kill most likely lands in the middle of one.
    writer = _writer(tmp_path, "z", 100_000, size=2_000_000)
    printed = [writer.stdout.readline(), writer.stdout.readline()]
    os.kill(writer.pid, signal.SIGKILL)
    writer.wait()
    completed = int((printed + writer.stdout.read().split())[-1])
    cache = DescriptionCache(tmp_path)
    with caplog.at_level(logging.WARNING):
        assert all(cache.get(cache_key(FILE_A, "z", page)) == "z" * 2_000_000 for page in range(completed + 1))
        assert len(cache) >= completed + 1
    assert not caplog.records
    assert not list((tmp_path / "descriptions").glob("*.corrupt-*"))


def test_a_corrupt_file_is_moved_aside(tmp_path, caplog):
    cache = DescriptionCache(tmp_path)
    kept, lost = cache_key(FILE_A, 1), cache_key(FILE_A, 2)
    cache.put(kept, "kept")
    cache.put(lost, "lost")
    shard = tmp_path / "descriptions" / f"{cache._shard(lost)[0]}.json"
    assert cache._shard(kept)[0] != cache._shard(lost)[0]
    shard.write_text(json.dumps({"entries": {}})[:-3])
    with caplog.at_level(logging.WARNING, logger="readers.storage.descriptions"):
        assert cache.get(lost) is None
    assert "could not be read" in caplog.text and "moved it to" in caplog.text
    assert len(list(shard.parent.glob(f"{shard.name}.corrupt-*"))) == 1
    assert cache.get(kept) == "kept"
    cache.put(lost, "again")
    assert cache.get(lost) == "again"
