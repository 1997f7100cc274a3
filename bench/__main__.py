"""Run every ``bench/bench_*.py`` module's ``main()`` in name order, or only the topics named, each
between two lines of the machine's load (``bench.report.load``).

python -m bench            # all of them
python -m bench readers    # bench/bench_readers.py only
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

from bench.report import load


def topics() -> list[str]:
    return sorted(path.stem.removeprefix("bench_") for path in Path(__file__).parent.glob("bench_*.py"))


def main(argv: list[str]) -> int:
    available = topics()
    chosen = argv or available
    unknown = [name for name in chosen if name not in available]
    if unknown:
        print(f"unknown benchmark {', '.join(unknown)}; available: {', '.join(available)}", file=sys.stderr)
        return 2
    for name in chosen:
        print(f"== bench_{name} ==", flush=True)
        load("before")
        importlib.import_module(f"bench.bench_{name}").main()
        load("after")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
