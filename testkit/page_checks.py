"""The page checks of ``tests/corpus/page-checks.json``: what a text-only model should receive from
pages of real PDFs, written from each page's render. ``bench/bench_pages.py`` scores ReadLens and
markitdown on all of them; ``tests/test_real_pdfs.py`` holds ReadLens to the checks each mended
defect is about.

Four kinds of check, on a page's text as the model receives it (its visual content included):

- ``present`` / ``absent``: the string is / is not in the page;
- ``order``: ``first`` is in the page, and ``then`` after it;
- ``cell``: some Markdown table cell equals ``cell`` (so rows or columns merged into one cell fail)
  and its neighbour holds ``neighbour``: ``left`` the nearest filled cell to its left, ``above`` the
  nearest filled cell above it, ``header`` the topmost filled cell of its column.

Both sides are compared the same way (``normalise``): Unicode NFC, Markdown emphasis and escapes
undone, white space collapsed; case counts. A page missing from the output fails all its checks.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass

from testkit import CORPUS

KINDS = ("present", "absent", "order", "cell")
ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|>~<])")
BULLET = re.compile(r"^(?:[•●▪◦‣■▸►](?:\s+|$)|[-*]\s+)+")
CELL_SPLIT = re.compile(r"(?<!\\)\|")
SEPARATOR = re.compile(r"^:?-{2,}:?$")
PAGE_HEADER = re.compile(r"^\[PAGE (\d+)\]\s*$", re.M)
VISUAL_HEADER = re.compile(r"^\[PAGE \d+ - VISUAL CONTENT[^\n]*\]\s*$", re.M)


@dataclass(frozen=True)
class PageEntry:
    file: str  # under tests/corpus
    page: int
    alone: bool  # read by itself, as a person reading one page would
    category: str
    note: str
    checks: list[dict]


def entries() -> list[PageEntry]:
    data = json.loads((CORPUS / "page-checks.json").read_text())
    return [
        PageEntry(e["file"], e["page"], e.get("alone", False), e["category"], e["note"], e["checks"])
        for e in data["pages"]
    ]


def reads(pages: list[PageEntry]) -> dict[tuple[str, int, int], list[PageEntry]]:
    """The reads that cover ``pages``: each page read alone by itself, the others of a file together
    as pages 1 to the last checked one."""
    found: dict[tuple[str, int, int], list[PageEntry]] = {}
    together: dict[str, list[PageEntry]] = {}
    for entry in pages:
        if entry.alone:
            found.setdefault((entry.file, entry.page, entry.page), []).append(entry)
        else:
            together.setdefault(entry.file, []).append(entry)
    for file, group in together.items():
        found[(file, 1, max(entry.page for entry in group))] = group
    return found


def normalise(text: str) -> str:
    text = unicodedata.normalize("NFC", text).replace("**", "").replace("__", "").replace("`", "")
    return re.sub(r"\s+", " ", ESCAPE.sub(r"\1", text)).strip()


def split_pages(text: str) -> dict[int, str]:
    """A text-only payload's pages: from each ``[PAGE n]`` line to the next, its visual content block
    kept (its header line dropped)."""
    heads = list(PAGE_HEADER.finditer(text))
    pages: dict[int, str] = {}
    for index, head in enumerate(heads):
        end = heads[index + 1].start() if index + 1 < len(heads) else len(text)
        number = int(head.group(1))
        pages[number] = (pages.get(number, "") + "\n" + VISUAL_HEADER.sub("", text[head.end() : end])).strip("\n")
    return pages


def tables(text: str) -> list[list[list[str]]]:
    """The Markdown tables in ``text``, each a list of rows of normalised cells (no separator row)."""
    found, current = [], []
    for line in text.split("\n"):
        stripped = line.strip()
        if not stripped.startswith("|"):
            if current:
                found.append(current)
            current = []
            continue
        body = stripped[1:]
        if body.endswith("|") and not body.endswith("\\|"):
            body = body[:-1]
        cells = [cell.strip() for cell in CELL_SPLIT.split(body)]
        if any(cells) and all(SEPARATOR.match(cell.replace(" ", "")) for cell in cells if cell):
            continue
        current.append([BULLET.sub("", normalise(cell)) for cell in cells])
    return found + ([current] if current else [])


def _neighbour(table: list[list[str]], row: int, column: int, relation: str) -> str | None:
    if relation == "left":
        return next((cell for cell in reversed(table[row][:column]) if cell), None)
    rows = range(row - 1, -1, -1) if relation == "above" else range(row)
    return next((table[r][column] for r in rows if column < len(table[r]) and table[r][column]), None)


def _cell(check: dict, text: str) -> tuple[bool, str]:
    want, near = BULLET.sub("", normalise(check["cell"])), BULLET.sub("", normalise(check["neighbour"]))
    found = tables(text)
    if not found:
        return False, "no Markdown table on the page"
    seen = []
    for table in found:
        for row, cells in enumerate(table):
            for column, cell in enumerate(cells):
                if cell == want:
                    neighbour = _neighbour(table, row, column, check["relation"])
                    if neighbour is not None and near in neighbour:
                        return True, ""
                    seen.append(neighbour)
    if seen:
        return False, f"its {check['relation']} neighbour is {[_short(cell or '') for cell in seen[:3]]!r}"
    holders = [_short(cell) for table in found for cells in table for cell in cells if want in cell]
    return False, f"no cell equals it; cells that hold it: {holders[:2]!r}" if holders else "no cell holds it"


def _short(text: str, most: int = 80) -> str:
    return text if len(text) <= most else text[: most - 1] + "…"


def evaluate(check: dict, page_text: str | None) -> tuple[bool, str]:
    """Whether ``check`` holds on ``page_text`` (None: the page is missing), and why not."""
    if page_text is None:
        return False, "the page is missing"
    text, kind = normalise(page_text), check["kind"]
    if kind == "present":
        return normalise(check["text"]) in text, ""
    if kind == "absent":
        return normalise(check["text"]) not in text, ""
    if kind == "order":
        first, then = normalise(check["first"]), normalise(check["then"])
        start = text.find(first)
        if start < 0:
            return False, "the first string is missing"
        if text.find(then, start + len(first)) >= 0:
            return True, ""
        return False, "the second string is missing" if then not in text else "the second string comes first"
    if kind == "cell":
        return _cell(check, page_text)
    raise ValueError(f"unknown check kind {kind!r}")


def described(check: dict) -> str:
    kind = check["kind"]
    if kind in ("present", "absent"):
        return f"{kind} {check['text']!r}"
    if kind == "order":
        return f"order {check['first']!r} before {check['then']!r}"
    return f"cell {check['cell']!r}, {check['relation']} {check['neighbour']!r}"
