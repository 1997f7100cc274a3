"""How much a PDF page asks of its parsers, counted before either interprets it.

A page's work is its content streams' operators: pdfminer interprets some 25,000 to 50,000 a second
here, and pdfium parses a page whole when it opens it. A file of a few kilobytes can hold millions
(50 pages sharing one stream of 3,000,000 text operators held the PDF workers for 25 minutes, and
pdfium took 3 s to open each of its pages), so each page's streams are unpacked (at most
``MAX_CONTENT_BYTES``) and their operators counted, and a page past ``MAX_PAGE_OPERATORS`` is left
out unread, with a sentence that says why.
"""

from __future__ import annotations

import re
import zlib
from itertools import islice

from pdfminer.pdftypes import LITERALS_FLATE_DECODE, stream_value

# The corpus's densest page holds 28,526 operators; pdfminer takes 10 to 20 s to interpret 500,000,
# and the rest of a page's reading (words, tables, layout) as long again: within PAGE_TIMEOUT.
MAX_PAGE_OPERATORS = 500_000
# A page's content streams unpacked: the corpus's largest is 0.6 MB; past this the page is not counted further.
MAX_CONTENT_BYTES = 64 << 20
# An operator: a word of at most three letters (with ', ", * and the digits of d0, d1), standing after
# whitespace or the end of an operand and before whitespace or a delimiter. Words inside text strings
# are counted too, which only overstates a page's work.
OPERATOR = re.compile(rb"(?<![^\s\])>}])[A-Za-z'\"][A-Za-z0-9*]{0,2}(?![^\s\[\]()<>{}/%])")


def _operators(stream) -> int:
    """The operators in one content stream, counted up to just past the bound. A stream packed only
    by Flate (almost every one) is unpacked here, no further than the bound."""
    filters = [name for name, _ in stream.get_filters()]
    if (
        stream.rawdata is None
        or stream.decipher
        or filters[1:]
        or (filters and filters[0] not in LITERALS_FLATE_DECODE)
    ):
        data = stream.get_data()  # unpacked already, encrypted, or packed otherwise (LZW, ASCII85: rare)
    else:
        data = zlib.decompressobj().decompress(stream.rawdata, MAX_CONTENT_BYTES + 1) if filters else stream.rawdata
    if len(data) > MAX_CONTENT_BYTES:
        return MAX_PAGE_OPERATORS + 1
    return sum(1 for _ in islice(OPERATOR.finditer(data), MAX_PAGE_OPERATORS + 1))


def too_many_operators(page, counted: dict[int, int]) -> str | None:
    """Why the pdfminer ``page`` holds more than a page is read with, or None. ``counted`` keeps each
    stream's count by its object for the pages read after it (pages may share a stream)."""
    total = 0
    for reference in page.contents:
        try:
            stream = stream_value(reference)
            key = getattr(stream, "objid", None) or id(stream)
            if key not in counted:
                counted[key] = _operators(stream)
        except Exception:  # noqa: BLE001 - a damaged stream: the parsers say what is wrong with it
            continue
        total += counted[key]
        if total > MAX_PAGE_OPERATORS:
            return (
                f"its content holds more than {MAX_PAGE_OPERATORS:,} drawing and text operations, more than "
                "ReadLens reads on a page"
            )
    return None
