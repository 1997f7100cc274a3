"""An XML part rewritten as text, one pass over its tags: its encoding kept (UTF-8 or UTF-16, as XML
allows), its text and all else written as it was.

``decoded`` and ``encoded`` turn a part's bytes into text and back; ``TAG`` finds its markup (a
start tag with its attributes, quoted values holding any character, an end tag, a comment, CDATA,
a processing instruction), so what stands between two matches is text. ``shallow`` cuts what is
nested past ``MAX_DEPTH``: python-docx, python-pptx and openpyxl build their trees with lxml's
default parser, which refuses a whole part nested past 256 levels, so an equation of fractions
10,000 deep, or tables nested in tables a hundred deep, would cost the whole document.
"""

from __future__ import annotations

import codecs
import re

TAG = re.compile(
    r"<!--.*?-->|<!\[CDATA\[.*?\]\]>|<[?!][^>]*>"  # a comment, CDATA, a processing instruction or declaration
    r"|</([^\s>]+)\s*>"  # an end tag
    r"|<([^\s/>]+)((?:[^>\"']|\"[^\"]*\"|'[^']*')*?)(/?)>",  # a start tag: its name, attributes, and "/" if empty
    re.S,
)
DECLARED = re.compile(rb"""<\?xml[^>]*?encoding\s*=\s*["']([\w.:-]+)""")
MAX_DEPTH = 200  # levels a part keeps, below the 256 the libraries' parser takes
EQUATIONS = {"oMathPara", "oMath"}  # OMML: an equation is cut whole
TABLES = {"tbl"}  # WordprocessingML: the table nested too deep is cut, the tables round it kept


def decoded(data: bytes) -> tuple[str, str]:
    """The part's text and its encoding: by its byte order mark, else as its declaration says, else UTF-8."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return data.decode("utf-16"), "utf-16"
    declared = DECLARED.match(data.removeprefix(codecs.BOM_UTF8))
    encoding = declared.group(1).decode("ascii").lower() if declared else "utf-8"
    try:
        return data.decode("utf-8-sig" if encoding == "utf-8" else encoding), encoding
    except (LookupError, UnicodeDecodeError):  # a declaration that lies: the parsers would refuse the part anyway
        return data.decode("utf-8", "replace"), "utf-8"


def local(name: str) -> str:
    return name.rsplit(":", 1)[-1]


def shallow(text: str) -> tuple[str, list[str]]:
    """``text`` with what is nested past ``MAX_DEPTH`` cut out, and what was cut ("an equation", "a
    table", "an element"): the outermost equation round it, else the innermost table, else the
    element at that depth, each whole with what it holds."""
    out: list[str] = []
    open_tags: list[tuple[str, int]] = []  # each open element's name and where its start tag is in ``out``
    cut: list[str] = []
    skipping = None  # while a cut element is skipped: the depth at which it ends
    position = 0
    for match in TAG.finditer(text):
        if skipping is None:
            out.append(text[position : match.start()])
        position = match.end()
        end, start, empty = match.group(1), match.group(2), match.group(4)
        if end is not None:
            if open_tags:
                open_tags.pop()
            if skipping is None:
                out.append(match.group())
            elif len(open_tags) == skipping:  # the cut element's own end: what follows is read again
                skipping = None
            continue
        if skipping is None:
            out.append(match.group())
        if start is None or empty:
            continue
        if skipping is None and len(open_tags) >= MAX_DEPTH:
            names = [local(name) for name, _ in open_tags]
            at = next((n for n, name in enumerate(names) if name in EQUATIONS), None)
            kind = "an equation"
            if at is None:
                at = next((n for n in range(len(names) - 1, -1, -1) if names[n] in TABLES), len(names) - 1)
                kind = "a table" if names[at] in TABLES else "an element"
            del out[open_tags[at][1] :]
            cut.append(kind)
            skipping = at
        open_tags.append((start, len(out) - 1))
    if skipping is None:
        out.append(text[position:])
    return "".join(out), cut
