"""Damaged files never break a reader: a quick run of the mutation fuzzer (tests/fuzz.py) over
every format, and a check that the fuzzer itself reports a bug, a hang and a crash.

The quick run reads without LibreOffice and Chromium (their conversions are bounded by their own
time limits, tested in test_bad_input.py); ``make fuzz`` runs thousands of mutants with them.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

from readers.errors import CODES
from tests import fuzz

SEED = 20251123
PER_FORMAT = 4


def test_damaged_files_of_every_format_never_break_a_reader(tmp_path):
    seeds = fuzz.make_seeds(tmp_path / "seeds", xls=False)
    results = fuzz.run(
        seeds, SEED, PER_FORMAT * len(seeds), tmp_path, jobs=2, timeout=60, renders=False, out=tmp_path / "broken"
    )
    broken = [
        f"mutant {mutant.index} of {mutant.seed.name} ({mutant.mutation}): {outcome.status}\n{outcome.detail}"
        for mutant, outcome in results
        if outcome.broken
    ]
    assert not broken, "\n\n".join(broken)
    assert {mutant.format for mutant, _ in results} == set(seeds) and len(seeds) >= 25  # every format the readers take
    for _, outcome in results:
        assert outcome.status == "reading" or (
            outcome.status == "error" and outcome.code in CODES and outcome.detail.strip()
        )
    statuses = {outcome.status for _, outcome in results}
    assert statuses == {"reading", "error"}  # damage that is read around, and damage that is refused


def plant() -> None:
    """Run in a fuzz worker (its hook): the CSV reader fails as a file's name says."""
    from readers.formats import csv as reader

    read = reader.read

    def planted(job):
        if job.name.startswith("bug"):
            raise KeyError("planted")
        if job.name.startswith("hang"):
            time.sleep(600)
        if job.name.startswith("crash"):
            os.kill(os.getpid(), signal.SIGSEGV)
        return read(job)

    reader.read = planted


def test_the_fuzzer_reports_a_bug_a_hang_and_a_crash(tmp_path):
    files = []
    for name in ("bug.csv", "hang.csv", "crash.csv", "fine.csv", "empty.csv"):
        files.append(tmp_path / name)
        files[-1].write_bytes(b"" if name == "empty.csv" else b"a,b\n1,2\n")
    outcomes = {
        Path(path).name: outcome
        for path, outcome in fuzz.read_all(
            files, tmp_path / "work", timeout=5, renders=False, hook="tests.test_fuzz:plant"
        )
    }
    assert (
        outcomes["bug.csv"].status == "bug" and "KeyError: 'planted'" in outcomes["bug.csv"].detail
    )  # logged by the readers' guard
    assert outcomes["hang.csv"].status == "hang" and "5 s" in outcomes["hang.csv"].detail
    assert outcomes["crash.csv"].status == "crash" and "SIGSEGV" in outcomes["crash.csv"].detail
    assert outcomes["fine.csv"].status == "reading" and outcomes["empty.csv"].code == "EMPTY_FILE"
    assert all(outcome.broken == (name in ("bug.csv", "hang.csv", "crash.csv")) for name, outcome in outcomes.items())
