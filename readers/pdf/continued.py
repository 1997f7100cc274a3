"""A table that runs on from one page read to the next: its header carried over, and said.

A long table printed over pages either repeats its header row on each page or prints it on the
first page only. A page read alone, or a chunk cut at the page, then holds rows whose columns
nobody named. So when a page read ends with a table and the next page read starts with one of as
many columns, the second is marked ``*(continued from page N)*``; and when its first row is no
header (it reads as the last row before it does: numbers where that row has numbers, text where
it has text, while the header differs), the header row of the page before is put over it.

A range read that starts inside such a table has the pages before it read too, back to the page the
table starts on (``readers.pdf.pages``: ``opens_with_table`` says a page may run on from the one
before, ``closes_with_table`` that it may run on into the next), so its first page carries the
table's header and says where it is continued from, as in a read of the whole file.
"""

from __future__ import annotations

import re

from ..markup.tables import table_rows

NUMBER = re.compile(r"[-+(]?[$€£]?\s?[\d.,]+%?\)?")


def _is_table(block: str) -> bool:
    lines = block.split("\n")
    return len(lines) >= 2 and all(line.startswith("|") for line in lines) and set(lines[1]) <= set("|-: ")


def opens_with_table(text: str) -> bool:
    """Whether a page's text (its furniture left out) starts with a table, which may run on from the page before."""
    return _is_table(text.split("\n\n")[0])


def closes_with_table(text: str) -> bool:
    """Whether a page's text (its furniture left out) ends with a table, which may run on into the next page."""
    return _is_table(text.split("\n\n")[-1])


def _kinds(cells: list[str]) -> list[str]:
    return ["" if not cell.strip() else "number" if NUMBER.fullmatch(cell.strip()) else "text" for cell in cells]


def continued_tables(
    texts: dict[int, str], tables: dict[int, list[str]]
) -> tuple[dict[int, str], dict[int, list[str]]]:
    """``texts`` and ``tables`` (page number to Markdown, and to the page's Markdown tables) with each
    table that continues one at the end of the page before marked, and given its header if it has none."""
    texts, tables = dict(texts), {number: list(found) for number, found in tables.items()}
    for number in sorted(texts):
        before, text = texts.get(number - 1), texts[number]
        if not before or not text:
            continue
        last, first = before.split("\n\n")[-1], text.split("\n\n")[0]
        if not (_is_table(last) and _is_table(first)):
            continue
        ended, started = table_rows(last), table_rows(first)
        header, top = ended[0], started[0]
        if len(ended) < 2 or len(header) != len(top):
            continue
        table = first
        if [cell.replace(" ", "") for cell in top] != [cell.replace(" ", "") for cell in header]:  # its header again
            kinds = _kinds(top)
            if kinds != _kinds(ended[-1]) or kinds == _kinds(header):
                continue
            lines = first.split("\n")
            table = "\n".join([last.split("\n")[0], lines[1], lines[0], *lines[2:]])
        texts[number] = f"*(continued from page {number - 1})*\n\n{table}{text[len(first) :]}"
        tables[number] = [table if found == first else found for found in tables.get(number, [])]
    return texts, tables
