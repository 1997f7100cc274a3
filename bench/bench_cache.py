"""The description cache against TinyDB's default storage, at the same sizes, in the same run.

Targets (issue 3): with 20,000 entries stored a ``get`` takes under 2 ms, and 20,000 ``put``s
take under 60 s. TinyDB's default storage re-reads and rewrites its whole JSON file on every
operation, so 20,000 puts into it would take hours: it is timed for as many puts as fit in
``DEFAULT_BUDGET`` seconds and at 20,000 entries, and the total is estimated from those two
rates (the cost of a put grows linearly with the file) and labelled as an estimate. The get
target is judged on the median; p99 and max show what a busy shared machine adds.
"""

from __future__ import annotations

import random
import statistics
import tempfile
from pathlib import Path
from time import perf_counter

from tinydb import Query, TinyDB

from bench import report
from readers.storage.descriptions import DescriptionCache, cache_key

ENTRIES = 20_000
GETS = 2_000
DEFAULT_GETS = 20
DEFAULT_BUDGET = 15.0
GET_TARGET_MS, PUTS_TARGET_S = 2.0, 60.0
# A description as a vision model writes one: about 1.3 KB.
VALUE = "A clustered bar chart titled 'Revenue by region, 2021-2024'. " * 22


def keys() -> list[str]:
    """Keys as ``describe_reading`` makes them: 400 files of 50 pages."""
    return [cache_key(f"{index // 50:064x}", index % 50 + 1, None, "vision:gpt-4o-mini", 1) for index in range(ENTRIES)]


def sharded(folder: Path, all_keys: list[str]) -> tuple[float, list[float]]:
    cache = DescriptionCache(folder)
    start = perf_counter()
    for key in all_keys:
        cache.put(key, VALUE)
    puts = perf_counter() - start
    timings = []
    for key in random.sample(all_keys, GETS):
        start = perf_counter()
        assert cache.get(key) == VALUE
        timings.append((perf_counter() - start) * 1000)
    return puts, timings


def default_storage(folder: Path, all_keys: list[str]) -> dict[str, float]:
    entry = Query().key
    empty = TinyDB(folder / "growing.json")
    done, start = 0, perf_counter()
    while perf_counter() - start < DEFAULT_BUDGET:
        empty.upsert({"key": all_keys[done], "value": VALUE}, entry == all_keys[done])
        done += 1
    first_rate = (perf_counter() - start) / done
    full = TinyDB(folder / "full.json")
    full.insert_multiple({"key": key, "value": VALUE} for key in all_keys)
    start = perf_counter()
    for key in random.sample(all_keys, DEFAULT_GETS):
        assert full.get(entry == key)["value"] == VALUE
    get_ms = (perf_counter() - start) / DEFAULT_GETS * 1000
    start = perf_counter()
    for key in random.sample(all_keys, DEFAULT_GETS):
        full.upsert({"key": key, "value": VALUE}, entry == key)
    full_rate = (perf_counter() - start) / DEFAULT_GETS
    # A straight line through (done / 2, first_rate) and (ENTRIES, full_rate), taken at the mean size.
    middle = done / 2
    mean_rate = first_rate + (full_rate - first_rate) * (ENTRIES / 2 - middle) / (ENTRIES - middle)
    return {
        "done": done,
        "first_rate": first_rate,
        "get_ms": get_ms,
        "full_rate": full_rate,
        "estimate_s": ENTRIES * mean_rate,
    }


def main() -> None:
    all_keys = keys()
    with tempfile.TemporaryDirectory() as folder:
        puts, timings = sharded(Path(folder), all_keys)
    with tempfile.TemporaryDirectory() as folder:
        default = default_storage(Path(folder), all_keys)
    median, worst = statistics.median(timings), max(timings)
    p99 = statistics.quantiles(timings, n=100)[98]
    rows = [
        ["case", "sharded TinyDB (ours)", "TinyDB default storage", "target", "result"],
        [
            "get, 20,000 entries (median / p99 / max)",
            f"{median:.2f} / {p99:.2f} / {worst:.2f} ms",
            f"{default['get_ms']:.1f} ms",
            f"< {GET_TARGET_MS:g} ms",
            "PASS" if median < GET_TARGET_MS else "FAIL",
        ],
        [
            "20,000 puts",
            f"{puts:.1f} s",
            f"~{default['estimate_s'] / 3600:.1f} h (estimated)",
            f"< {PUTS_TARGET_S:g} s",
            "PASS" if puts < PUTS_TARGET_S else "FAIL",
        ],
        [
            "one put, at the start / at 20,000 entries",
            f"{puts / ENTRIES * 1000:.2f} ms (mean)",
            f"{default['first_rate'] * 1000:.1f} / {default['full_rate'] * 1000:.0f} ms",
            "",
            "",
        ],
    ]
    print(
        f"Description cache: {ENTRIES:,} entries of {len(VALUE):,} characters; TinyDB default storage did "
        f"{default['done']:,} puts in {DEFAULT_BUDGET:g} s."
    )
    report.table(rows)
