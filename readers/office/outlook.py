"""Outlook messages (MSG, [MS-OXMSG]) read from their compound file with olefile: the message's
properties, its recipients and its attachments (an attached message is a message of its own), and
its body as Outlook keeps it: the HTML, else the HTML its RTF body wraps ([MS-OXRTFEX]), else the
plain text, else the text of the RTF body.

A property is a stream ``__substg1.0_IIIITTTT`` (its id and type, in hex) when its value is a
string or bytes, or an entry of 16 bytes in the storage's ``__properties_version1.0`` stream when
it is a number or a time. Strings are UTF-16 (type 001F) or in the message's code page (001E).
(extract-msg read these before; its licence, the GPL, is not one ReadLens can ship.)
"""

from __future__ import annotations

import codecs
import re
import struct
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

import olefile

UNICODE, STRING8, BINARY, LONG, SYSTIME, OBJECT = 0x001F, 0x001E, 0x0102, 0x0003, 0x0040, 0x000D
PROPERTIES = "__properties_version1.0"
# Bytes before the properties of a message, an attached message, and a recipient or an attachment.
HEADER = {"message": 32, "embedded": 24, "part": 8}
RECIPIENT, ATTACHMENT = "__recip_version1.0_#", "__attach_version1.0_#"
BODY, HTML, RTF, CODEPAGE, INTERNET_CODEPAGE, SUBMITTED = 0x1000, 0x1013, 0x1009, 0x3FFD, 0x3FDE, 0x0039
ATTACHED_DATA, ATTACH_METHOD, LONG_NAME, SHORT_NAME, EMBEDDED = 0x3701, 0x3705, 0x3707, 0x3704, 5
RECIPIENT_TYPE, DISPLAY_NAME, EMAIL_ADDRESS, SMTP_ADDRESS = 0x0C15, 0x3001, 0x3003, 0x39FE
FILETIME_START = datetime(1601, 1, 1, tzinfo=UTC)
MAX_RTF_BYTES = 32 * 1024 * 1024  # an RTF body says its own size: past this it is no body worth reading
# [MS-OXRTFCP] 2.1.2.1: what the dictionary of compressed RTF starts with.
RTF_PREBUF = (
    b"{\\rtf1\\ansi\\mac\\deff0\\deftab720{\\fonttbl;}{\\f0\\fnil \\froman \\fswiss \\fmodern \\fscript "
    b"\\fdecor MS Sans SerifSymbolArialTimes New RomanCourier{\\colortbl\\red0\\green0\\blue0\r\n\\par "
    b"\\pard\\plain\\f0\\fs20\\b\\i\\u\\tab\\tx"
)
COMPRESSED, UNCOMPRESSED = 0x75465A4C, 0x414C454D  # "LZFu", "MELA"
RTF_TOKEN = re.compile(rb"\\([a-zA-Z]+)(-?\d+)? ?|\\'([0-9a-fA-F]{2})|\\(.)|([{}])|([^\\{}\r\n]+)|[\r\n]+", re.S)


def _codec(codepage: int | None) -> str:
    """The Python codec of a Windows code page; Windows-1252 when it has none Python knows."""
    name = {65001: "utf-8", 20127: "ascii", 28591: "latin-1", 1200: "utf-16-le"}.get(codepage or 0, f"cp{codepage}")
    try:
        return codecs.lookup(name).name
    except LookupError:
        return "cp1252"


@dataclass
class Recipient:
    kind: int  # 1 To, 2 Cc, 3 Bcc (PR_RECIPIENT_TYPE)
    name: str
    address: str  # the SMTP address, else the address as Outlook stores it


@dataclass
class Attachment:
    name: str
    data: bytes | Message  # an attached Outlook message is a Message of its own


@dataclass
class Message:
    """One message of an MSG file: its properties in ``storage`` (a path into ``ole``)."""

    ole: olefile.OleFileIO
    storage: list[str]
    numbers: dict[int, int] = field(default_factory=dict)  # its properties that are numbers or times
    codec: str = "cp1252"

    @classmethod
    def at(cls, ole, storage: list[str], header: str) -> Message:
        message = cls(ole, storage, _numbers(ole, [*storage, PROPERTIES], HEADER[header]))
        message.codec = _codec(message.numbers.get(INTERNET_CODEPAGE) or message.numbers.get(CODEPAGE))
        return message

    def _stream(self, name: str) -> bytes | None:
        path = [*self.storage, name]
        return self.ole.openstream(path).read() if self.ole.exists(path) else None

    def binary(self, number: int) -> bytes | None:
        return self._stream(f"__substg1.0_{number:04X}{BINARY:04X}")

    def text(self, number: int) -> str:
        """A string property, stripped; "" when the message has none."""
        wide = self._stream(f"__substg1.0_{number:04X}{UNICODE:04X}")
        if wide is not None:
            return wide.decode("utf-16-le", errors="replace").rstrip("\x00").strip()
        narrow = self._stream(f"__substg1.0_{number:04X}{STRING8:04X}")
        return narrow.decode(self.codec, errors="replace").rstrip("\x00").strip() if narrow else ""

    @property
    def html_charset(self) -> str | None:
        """The charset the HTML body is in (PR_INTERNET_CPID), None when the message names none."""
        codepage = self.numbers.get(INTERNET_CODEPAGE)
        return _codec(codepage) if codepage else None

    @property
    def date(self) -> datetime | None:
        """When it was sent (PR_CLIENT_SUBMIT_TIME), in UTC."""
        ticks = self.numbers.get(SUBMITTED)
        return FILETIME_START + timedelta(microseconds=ticks // 10) if ticks else None

    def _parts(self, prefix: str) -> list[list[str]]:
        depth = len(self.storage)
        found = {
            tuple(path[: depth + 1])
            for path in self.ole.listdir(streams=True, storages=True)
            if len(path) > depth and path[:depth] == self.storage and path[depth].startswith(prefix)
        }
        return [list(path) for path in sorted(found)]

    @property
    def recipients(self) -> list[Recipient]:
        found = []
        for storage in self._parts(RECIPIENT):
            part = Message(self.ole, storage, _numbers(self.ole, [*storage, PROPERTIES], HEADER["part"]), self.codec)
            address = part.text(SMTP_ADDRESS) or part.text(EMAIL_ADDRESS)
            found.append(Recipient(part.numbers.get(RECIPIENT_TYPE, 0), part.text(DISPLAY_NAME), address))
        return found

    @property
    def attachments(self) -> list[Attachment]:
        found = []
        for index, storage in enumerate(self._parts(ATTACHMENT), 1):
            part = Message(self.ole, storage, _numbers(self.ole, [*storage, PROPERTIES], HEADER["part"]), self.codec)
            name = part.text(LONG_NAME) or part.text(SHORT_NAME) or part.text(DISPLAY_NAME) or f"attachment-{index}"
            inner = [*storage, f"__substg1.0_{ATTACHED_DATA:04X}{OBJECT:04X}"]
            if part.numbers.get(ATTACH_METHOD) == EMBEDDED and self.ole.exists(inner):
                found.append(Attachment(name, Message.at(self.ole, inner, "embedded")))
            elif (data := part.binary(ATTACHED_DATA)) is not None:
                found.append(Attachment(name, data))
        return found

    @property
    def html(self) -> bytes | str | None:
        """The HTML body as stored (bytes in the message's code page, or a string), else the HTML
        its RTF body wraps; None when it has neither."""
        stored = self.binary(HTML)
        if stored is not None:
            return stored
        if text := self.text(HTML):
            return text
        rtf = self.rtf
        return _html_in_rtf(rtf) if rtf and b"\\fromhtml" in rtf[:1024] else None

    @property
    def body(self) -> str:
        """The plain body, else the text of the RTF body."""
        return self.text(BODY) or (_rtf_text(self.rtf) if self.rtf else "")

    @property
    def rtf(self) -> bytes | None:
        compressed = self.binary(RTF)
        return _decompressed(compressed) if compressed else None


def _numbers(ole, path: list[str], header: int) -> dict[int, int]:
    """The properties of a storage that are numbers (PT_LONG) or times (PT_SYSTIME), by id."""
    if not ole.exists(path):
        return {}
    data = ole.openstream(path).read()
    found = {}
    for offset in range(header, len(data) - 15, 16):
        tag, _, value = struct.unpack_from("<IIQ", data, offset)
        kind, number = tag & 0xFFFF, tag >> 16
        if kind == LONG:
            found[number] = value & 0xFFFFFFFF
        elif kind == SYSTIME:
            found[number] = value
    return found


def open_message(path) -> Message:
    """The message of an MSG file; raises what olefile raises for a file that is none."""
    return Message.at(olefile.OleFileIO(str(path)), [], "message")


def _decompressed(data: bytes) -> bytes | None:
    """Compressed RTF unpacked ([MS-OXRTFCP] 2.2); None when it is not what it says it is."""
    if len(data) < 16:
        return None
    size, raw, kind, _ = struct.unpack_from("<IIII", data)
    if kind == UNCOMPRESSED:
        return data[16 : 16 + raw]
    if kind != COMPRESSED or raw > MAX_RTF_BYTES:
        return None
    window = bytearray(RTF_PREBUF.ljust(4096, b" "))
    at, out, index, end = len(RTF_PREBUF), bytearray(), 16, min(len(data), size + 4)
    while index < end and len(out) < raw:
        control = data[index]
        index += 1
        for bit in range(8):
            if index >= end or len(out) >= raw:
                break
            if not control >> bit & 1:
                byte = data[index]
                index += 1
                out.append(byte)
                window[at] = byte
                at = (at + 1) % 4096
                continue
            if index + 1 >= end:
                return bytes(out)
            word = data[index] << 8 | data[index + 1]
            index += 2
            offset, length = word >> 4, (word & 0xF) + 2
            if offset == at:  # the end of the stream
                return bytes(out)
            for step in range(length):
                byte = window[(offset + step) % 4096]
                out.append(byte)
                window[at] = byte
                at = (at + 1) % 4096
    return bytes(out[:raw])


def _rtf_walk(rtf: bytes, html: bool):
    """The text of an RTF body, in order: with ``html``, the HTML an RTF wraps ([MS-OXRTFEX] 2.1.3:
    the ``\\*\\htmltag`` groups' content and the text outside ``\\htmlrtf`` runs); else its plain text."""
    codepage = re.search(rb"\\ansicpg(\d+)", rtf[:2048])
    codec = _codec(int(codepage[1])) if codepage else "cp1252"
    pending = bytearray()  # \'hh bytes, decoded together: a double-byte code page spells one character in two
    groups: list[tuple[bool, bool, bool]] = []
    skip = suppressed = tag = star = False
    unicode_skip = 0
    for word, number, hexbyte, symbol, brace, run in RTF_TOKEN.findall(rtf):
        shown = not skip and (tag or not (html and suppressed))
        if hexbyte:
            if unicode_skip:
                unicode_skip -= 1
            elif shown:
                pending.append(int(hexbyte, 16))
            continue
        if pending:
            yield pending.decode(codec, errors="replace")
            pending.clear()
        if brace == b"{":
            groups.append((skip, suppressed, tag))
        elif brace == b"}":
            skip, suppressed, tag = groups.pop() if groups else (False, False, False)
        elif word:
            name = word.decode()
            if star:  # a destination: an HTML tag's when the RTF wraps HTML, else nothing a reader shows
                tag, skip = (True, skip) if html and name.startswith("htmltag") else (tag, True)
            elif name == "htmlrtf":
                suppressed = number != b"0"
            elif name in ("fonttbl", "colortbl", "stylesheet", "info", "pict", "object", "header", "footer"):
                skip = True
            elif name == "u" and number and shown:
                yield chr(int(number) % 65536)
                unicode_skip = 1
            elif name in ("par", "line") and shown:
                yield "\r\n" if html else "\n"
            elif name == "tab" and shown:
                yield "\t"
        elif symbol:
            if symbol == b"*":
                star = True
                continue
            if symbol in (b"\\", b"{", b"}") and shown:
                yield symbol.decode()
        elif run and shown:
            text = run.decode(codec, errors="replace")
            yield text[1:] if unicode_skip else text
            unicode_skip = 0
        star = False
    if pending:
        yield pending.decode(codec, errors="replace")


def _html_in_rtf(rtf: bytes) -> str:
    return "".join(_rtf_walk(rtf, html=True))


def _rtf_text(rtf: bytes) -> str:
    return "".join(_rtf_walk(rtf, html=False)).strip()
