"""How every benchmark prints what it measured: its tables as Markdown, the one way ReadLens writes a
table (``readers.markup.tables.markdown_table``), and the machine's load, which ``python -m bench``
prints before and after each benchmark (other work on a shared machine slows every timing)."""

from __future__ import annotations

import os

from readers.markup.tables import markdown_table


def load(when: str) -> None:
    """The machine's cores and its load average over the last minute, ``before`` or ``after``."""
    print(
        f"{os.cpu_count()} cores; load average {when}: {os.getloadavg()[0]:.1f} "
        "(other work on the machine slows every timing)",
        flush=True,
    )


def table(rows: list[list]) -> None:
    """``rows`` as a Markdown table, the first its header, and a blank line after it."""
    print(markdown_table(rows), end="\n\n", flush=True)


class Rows:
    """A table printed a row at a time, as each is measured (a long benchmark's progress): the same
    Markdown as ``table``'s."""

    def __init__(self, header: list[str]):
        self.header = header
        print(markdown_table([header]), flush=True)

    def add(self, row: list) -> None:
        print(markdown_table([self.header, row]).rsplit("\n", 1)[1], flush=True)
