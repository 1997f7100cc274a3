"""The peer of ``bench_peers``, ``bench_tables``, ``bench_formats`` and ``bench_startup``: markitdown
converting each file it is given.

Run by the Python of its scratch virtualenv (``bench.scratch.markitdown``), never the project's
(markitdown is not a dependency): ``python markitdown_peer.py RUNS FILE...``. markitdown is imported
and its converter built before any clock starts (its import time is not counted, as ReadLens's is
not); each file is converted RUNS times and its median seconds printed as JSON with its Markdown and
that Markdown's length, or the error markitdown raised on it.
"""

import json
import statistics
import sys
import time

from markitdown import MarkItDown


def why(error: Exception) -> str:
    """What went wrong, cut short: each attempt's line of markitdown's "conversion failed after N
    attempts" (which converter raised what), else the error's type and first line."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    attempts = [line.removeprefix("- ") for line in lines if line.startswith("- ")]
    text = "; ".join(attempts) or f"{type(error).__name__}: {lines[0] if lines else ''}"
    return text if len(text) <= 150 else text[:149] + "…"


def main(runs: str, *paths: str) -> None:
    converter = MarkItDown()
    answer = {}
    for path in paths:
        seconds = []
        try:
            for _ in range(int(runs)):
                start = time.perf_counter()
                markdown = converter.convert(path).markdown
                seconds.append(time.perf_counter() - start)
        # A file markitdown cannot convert is a result, not the end of the run.
        except Exception as error:  # noqa: BLE001
            answer[path] = {"error": why(error)}
            continue
        answer[path] = {"seconds": statistics.median(seconds), "chars": len(markdown), "markdown": markdown}
    json.dump(answer, sys.stdout)


if __name__ == "__main__":
    main(*sys.argv[1:])
