"""A PDF page's words as layout items (``readers.pdf.records.Item``): each with its size, its font, its
boldness and the link annotation it stands under, which ``readers.pdf.layout`` places in reading order;
and a line of them as Markdown (``line_markdown``), its links kept."""

from __future__ import annotations

import re
from collections import Counter

from pdfminer.pdftypes import resolve1
from pdfplumber.utils.exceptions import MalformedPDFException

from .records import Item, Word
from .words import LEFT_OUT, reads_right_to_left

BOLD = re.compile(r"bold|black|heavy|semibold|demi|medi", re.I)


def word_items(words: list[Word], links: list[dict]) -> list[Item]:
    """Layout items of ``words``: box, text, size, font, boldness and the link they stand under."""
    items: list[Item] = []
    for word in words:
        word["text"] = word["text"].replace(LEFT_OUT, "")
        if not word["text"]:
            continue
        x, y = (word["x0"] + word["x1"]) / 2, (word["top"] + word["bottom"]) / 2
        link = next(
            (link["uri"] for link in links if link["x0"] <= x <= link["x1"] and link["top"] <= y <= link["bottom"]),
            None,
        )
        items.append(
            {
                "x0": word["x0"],
                "x1": word["x1"],
                "top": word["top"],
                "bottom": word["bottom"],
                "text": word["text"],
                "size": max(char["size"] for char in word["chars"]),
                "link": link,
                "font": Counter(char.get("fontname") for char in word["chars"]).most_common(1)[0][0],
                "bold": all(BOLD.search(char.get("fontname") or "") for char in word["chars"]),
            }
        )
    return items


def page_links(page) -> list[dict]:
    """The page's links with a URI (their boxes and ``uri``), as pdfplumber reads them; or, where its
    annotations nest too deep for pdfplumber to resolve them whole (each linked back into the page
    tree: a register's pages), each read on its own, only as deep as its box and URI."""
    try:
        return [link for link in page.hyperlinks if link.get("uri")]
    except MalformedPDFException:
        if page.rotation:
            return []
    links = []
    height = float(page.root_page.height)
    for annotation in resolve1(page.page_obj.annots) or []:
        annotation = resolve1(annotation)
        action = resolve1(annotation.get("A")) if isinstance(annotation, dict) else None
        uri = resolve1(action.get("URI")) if isinstance(action, dict) else None
        rect = [resolve1(value) for value in resolve1(annotation.get("Rect")) or []] if uri else []
        if isinstance(uri, bytes) and len(rect) == 4 and all(isinstance(value, (int, float)) for value in rect):
            x0, x1, y0, y1 = min(rect[0], rect[2]), max(rect[0], rect[2]), min(rect[1], rect[3]), max(rect[1], rect[3])
            links.append({"x0": x0, "x1": x1, "top": height - y1, "bottom": height - y0, "uri": uri.decode("latin-1")})
    return links


def line_markdown(line: list[Item]) -> str:
    """The line's words, with runs under one link as ``[text](url)``; a line in a right-to-left
    script from its right."""
    if reads_right_to_left([item for item in line if item.get("block") is None]):
        line = line[::-1]
    parts: list[str] = []
    run: list[str] = []
    for index, item in enumerate(line):
        if item.get("block") is not None:
            parts.append(item["block"])
            continue
        link = item.get("link")
        run.append(item["text"])
        if not link or index + 1 == len(line) or line[index + 1].get("link") != link:
            parts.append(f"[{' '.join(run)}]({link})" if link else run[0])
            run = []
    return " ".join(parts)
