"""Long text files in pages: page 1 and page 600 of a 5 MB log against reading the whole file, for a
UTF-8 log and a Windows-1252 one (whose encoding has to be detected).

The simple approach decodes the whole file and cuts it into pages on every read; ReadLens does that
once, keeps the text and the pages' offsets in the cache, and later reads seek to their pages.
Every ReadLens row is a whole ``read_file`` call (hashing the file's 5 MB included). Each figure
is the best of ``ROUNDS``, the approaches taking turns, as the machine may be shared.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from time import perf_counter

from bench import report
from readers import Services, Settings, read_file
from readers.markup.text import decode, paginate
from testkit import fixtures

LOG_BYTES = 5 * 1024 * 1024
PAGE = 600
ROUNDS = 5


def build_log(target: Path, encoding: str) -> Path:
    """About ``LOG_BYTES`` of numbered log lines in ``encoding`` (Windows-1252 ones with umlauts, so
    the encoding has to be detected rather than tried)."""
    path = fixtures.numbered_log(target, LOG_BYTES // (len(fixtures.log_line(50_000)) + 1))
    if encoding != "utf-8":
        path.write_bytes("".join(f"{line} Grüße aus Köln\n" for line in path.read_text().splitlines()).encode(encoding))
    return path


def simple(path: Path, number: int) -> str:
    """What a reader without the cache does for one page: decode it all, cut it all, take the page."""
    text = decode(path.read_bytes(), path.name, []).replace("\r\n", "\n")
    start, end = paginate(text)[number - 1][:2]
    return text.encode("utf-8")[start:end].decode("utf-8")


def best(function, *args, **kwargs) -> float:
    times = []
    for _ in range(ROUNDS):
        start = perf_counter()
        function(*args, **kwargs)
        times.append(perf_counter() - start)
    return min(times)


def log_rows(path: Path, services: Services) -> list[list[str]]:
    start = perf_counter()
    pages = read_file(path, 1, 1, services=services).page_count
    cold = perf_counter() - start
    plain = best(simple, path, PAGE)
    size = f"{path.stat().st_size / 1048576:.1f} MB"
    rows = [
        [f"simple: decode and cut the whole file, take page {PAGE}", size, "1", f"{plain * 1000:.0f} ms", "1.0x"],
        [
            "ReadLens, first read (decodes, cuts and caches), page 1",
            size,
            "1",
            f"{cold * 1000:.0f} ms",
            f"{plain / cold:.1f}x",
        ],
    ]
    for number in (1, PAGE):
        warm = best(read_file, path, number, number, services=services)
        rows.append(
            [f"ReadLens, page {number} again (seeks to it)", size, "1", f"{warm * 1000:.1f} ms", f"{plain / warm:.0f}x"]
        )
    whole = best(read_file, path, None, None, services=services)
    rows.append(
        [
            "ReadLens, the whole file (MAX_PAGES raised), from the cache",
            size,
            f"{pages:,}",
            f"{whole * 1000:.0f} ms",
            f"{plain / whole:.1f}x",
        ]
    )
    return rows


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="readlens-bench-text-") as folder:
        work = Path(folder)
        services = Services(Settings(cache_dir=work / "cache", vision_provider="none", max_pages=100_000))
        rows = [["case", "log", "pages", "time", "ratio"]]
        for encoding in ("utf-8", "cp1252"):
            rows += [
                [f"{encoding}: {case}", *rest]
                for case, *rest in log_rows(build_log(work / f"server-{encoding}.log", encoding), services)
            ]
        report.table(rows)
