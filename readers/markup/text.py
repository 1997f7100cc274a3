"""Plain text: bytes decoded by their declared or detected charset, kept well-formed, and cut into
pages of about ``PAGE_CHARS`` characters at line boundaries (text files, a chunk of a log)."""

from __future__ import annotations

import re

from charset_normalizer import from_bytes

from ..errors import ReaderError
from ..notices import Code, Notice

PAGE_CHARS = 4000
ESCAPED = re.compile("[\udc80-\udcff]")  # a byte UTF-8 cannot decode, as the "surrogateescape" handler keeps it
NOT_ASCII = re.compile("[^\x00-\x7f\udc80-\udcff]")  # a character UTF-8 spells in two bytes or more


def decode(data: bytes, name: str, notices: list[Notice], declared: str | None = None) -> str:
    """The text of ``data`` in the charset the file ``declared`` (an e-mail part's header, a web
    page's <meta>) when it names one that decodes it, else in its detected encoding (UTF-8 and its
    BOMs first). A charset that makes lone surrogates (UTF-7 can) gives U+FFFD in their place.

    Text that is UTF-8 but for a few bad bytes (a log with a stray byte, a file cut inside a
    character) stays UTF-8: each bad byte is U+FFFD and a notice says how many there were. It
    is UTF-8 when its characters beyond ASCII spelled right in UTF-8 outnumber the bad bytes; text
    in a legacy charset (Latin-1's "café" is ``caf\\xe9``) almost never spells one, and is left to
    detection."""
    if declared:
        try:
            return well_formed(data.decode(declared))
        except (LookupError, ValueError):  # an unknown charset, bytes it cannot decode, a NUL in its name
            pass
    for bom, codec in (
        (b"\xef\xbb\xbf", "utf-8-sig"),
        (b"\xff\xfe", "utf-16"),
        (b"\xfe\xff", "utf-16"),
        (b"", "utf-8"),
    ):
        if data.startswith(bom):
            try:
                return data.decode(codec)
            except UnicodeDecodeError:
                break
    text = data.decode("utf-8", "surrogateescape").removeprefix("\ufeff")
    bad = sum(1 for _ in ESCAPED.finditer(text))
    if sum(1 for _ in NOT_ASCII.finditer(text)) > bad:
        count = f"{bad:,} byte{'s' if bad > 1 else ''}"
        notices.append(
            Notice(Code.ENCODING, f"{name} is UTF-8 text but for {count} not valid in it, each replaced by \ufffd.")
        )
        return well_formed(text)
    match = from_bytes(data).best()
    if match is None:
        raise ReaderError(
            "UNSUPPORTED_FORMAT",
            f"{name} does not look like text in any known encoding. If it is a document, export it as PDF or DOCX.",
        )
    return well_formed(str(match))


def well_formed(text: str) -> str:
    """``text`` with each lone surrogate (which JSON's ``\\ud800`` escapes can make, and UTF-8 cannot
    hold) replaced by U+FFFD."""
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def paginate(text: str) -> list[list[int]]:
    """The pages of ``text`` as ``[first byte, end byte, first line, cut before, cut after]``:
    byte offsets into ``text`` encoded as UTF-8; the cut flags (0 or 1) mark a page that starts
    or ends inside a line longer than a page."""
    pages: list[list[int]] = []
    start = position = size = 0
    first, cut_before = 1, 0
    lines = text.split("\n")
    ending = [1] * (len(lines) - 1) + [0]
    if lines[-1] == "":  # the file ends with a line break: no empty line after it
        lines, ending = lines[:-1], ending[:-1]
    for number, (line, newline) in enumerate(zip(lines, ending), 1):
        if size and size + len(line) + newline > PAGE_CHARS:
            pages.append([start, position, first, cut_before, 0])
            start, size, first, cut_before = position, 0, number, 0
        while len(line) > PAGE_CHARS:  # a line longer than a page: a page of each whole piece
            piece, line = line[:PAGE_CHARS], line[PAGE_CHARS:]
            position += len(piece.encode("utf-8"))
            pages.append([start, position, number, cut_before, 1])
            start, first, cut_before = position, number, 1
        position += len(line.encode("utf-8")) + newline
        size += len(line) + newline
    if size or not pages:
        pages.append([start, position, first, cut_before, 0])
    return pages
