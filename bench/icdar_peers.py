"""The peers of ``bench_icdar``: pymupdf4llm, camelot (stream) and markitdown on each PDF given.

Run by the Python of its scratch virtualenv (``bench.scratch.ICDAR``; none of them is a dependency,
pymupdf4llm is AGPL): ``python icdar_peers.py FILE...``; prints JSON: per tool, per file, its tables
as rows of cells (pymupdf4llm's and markitdown's are in their Markdown, handed back whole) and the
seconds it took, or the error it raised.
"""

import json
import sys
import time

import camelot
import pymupdf.layout  # noqa: F401 - pymupdf4llm uses its learned layout model when this is imported
import pymupdf4llm
from markitdown import MarkItDown


def camelot_tables(path: str) -> list[list[list[str]]]:
    return [table.df.values.tolist() for table in camelot.read_pdf(path, pages="all", flavor="stream")]


TOOLS = {
    "pymupdf4llm": lambda path: {"markdown": pymupdf4llm.to_markdown(path, show_progress=False)},
    "camelot (stream)": lambda path: {"tables": camelot_tables(path)},
    "markitdown": lambda path: {"markdown": MarkItDown().convert(path).markdown},
}


def main(*paths: str) -> None:
    answer: dict[str, dict] = {tool: {} for tool in TOOLS}
    for tool, convert in TOOLS.items():
        for path in paths:
            start = time.perf_counter()
            try:
                answer[tool][path] = {**convert(path), "seconds": time.perf_counter() - start}
            except Exception as error:  # noqa: BLE001 - a file a peer cannot convert is a result
                answer[tool][path] = {"error": f"{type(error).__name__}: {error}"[:300]}
    json.dump(answer, sys.stdout)


if __name__ == "__main__":
    main(*sys.argv[1:])
