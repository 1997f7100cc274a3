"""A sheet's comments, worded as Word's and PowerPoint's are: ``> **Comment** by Author on B2
("what the cell shows"): text``, a thread's replies under it as ``> **Reply** by Author: text``.

Excel keeps two kinds. Notes (the older comments) are read as openpyxl loads them, less the
"Author:" line Excel starts their text with. Threaded comments (Excel 365) live in parts of their
own (``xl/threadedComments/``, their authors in ``xl/persons/``), which openpyxl does not read; in
the notes part Excel leaves, for older versions, a note in their place whose author is
``tc={id}`` and whose text is a notice: that note is read from its thread, with its authors and
replies.
"""

from __future__ import annotations

import zipfile

from lxml import etree

from ..intake.package import PARSER
from ..markup.markdown import one_line
from .numbers import display

THREADED = "{http://schemas.microsoft.com/office/spreadsheetml/2018/threadedcomments}"
QUOTE_LIMIT = 80  # characters of a cell's value quoted with its comment (as Word quotes commented text)


def threads(path) -> dict[str, list[tuple[str, str]]]:
    """The workbook's threaded comments by id: (author, text) of the comment, then of each reply."""
    persons, comments = {}, []
    with zipfile.ZipFile(path) as package:
        for name in package.namelist():
            if not name.endswith(".xml"):
                continue
            if name.startswith("xl/persons/"):
                for person in etree.fromstring(package.read(name), PARSER).iter(f"{THREADED}person"):
                    persons[person.get("id")] = person.get("displayName") or "unknown"
            elif name.startswith("xl/threadedComments/"):
                comments += etree.fromstring(package.read(name), PARSER).iter(f"{THREADED}threadedComment")
    out: dict[str, list[tuple[str, str]]] = {}
    for comment in comments:  # in the order they were written, a reply after its comment
        entry = (persons.get(comment.get("personId"), "unknown"), one_line(comment.findtext(f"{THREADED}text") or ""))
        thread = out.get(comment.get("parentId") or "")
        if thread is not None:
            thread.append(entry)
        elif comment.get("id"):
            out[comment.get("id")] = [entry]
    return out


def _note_text(author: str, text: str) -> str:
    """A note's text less the "Author:" line Excel starts it with."""
    text = text.strip()
    if author and text.startswith(f"{author}:"):
        text = text[len(author) + 1 :]
    return one_line(text)


def comment_lines(sheet, by_id: dict[str, list[tuple[str, str]]]) -> list[str]:
    """The sheet's comments, cell by cell, row by row."""
    lines = []
    for cell in sorted((cell for cell in sheet._cells.values() if cell.comment), key=lambda c: (c.row, c.column)):
        shown = one_line(display(cell.value, cell.number_format))
        if len(shown) > QUOTE_LIMIT:
            shown = shown[:QUOTE_LIMIT].rsplit(" ", 1)[0] + "…"
        on = f'{cell.coordinate} ("{shown}")' if shown else cell.coordinate
        author = cell.comment.author or ""
        thread = by_id.get(author[3:]) if author.startswith("tc=") else None
        if thread is None:
            thread = [(author or "unknown", _note_text(author, cell.comment.text or ""))]
        (first, text), replies = thread[0], thread[1:]
        lines.append(f"> **Comment** by {first} on {on}: {text}")
        lines += [f"> **Reply** by {name}: {reply}" for name, reply in replies]
    return lines
