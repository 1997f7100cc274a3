"""E-mail, EML (RFC 822, the standard library's parser) and Outlook MSG (``readers.office.outlook``): the first
page has the headers (From, To, Cc, Date, Subject; an MSG's From, To, Cc and Bcc as Outlook shows them,
``_msg_headers``) and the body (an HTML body as Markdown, in the charset it declares); then
each attachment is read by its own type as a section, within the limits of ``readers.intake.members``.
Each header is cut before it is parsed (``MAX_SHOWN_HEADER``, ``MAX_HEADER``, ``MAX_PARAMETERS``), with a
warning, and an e-mail of more than ``MAX_PARTS`` parts is refused before it is parsed.
"""

from __future__ import annotations

import email
import email.errors
import email.header
import email.parser
import email.policy
import email.utils
import mimetypes
import re
import struct
from email.message import EmailMessage
from typing import cast

from ..errors import ReaderError
from ..intake.members import container, read_members, reserve
from ..markup.blocks import paragraphs
from ..markup.html import decode_html, html_blocks
from ..markup.markdown import markdown_blocks
from ..markup.text import decode
from ..models import Page
from ..notices import Code, Notice
from ..office.outlook import Message, open_message

HEADERS = ("From", "To", "Cc", "Date", "Subject")
RECIPIENT_FIELDS = {1: "To", 2: "Cc", 3: "Bcc"}  # an MSG recipient's type (PR_RECIPIENT_TYPE)
# The standard library's header parser takes time and memory that grow faster than a header's
# length (a Subject of 4,000 encoded words, 88 KB: 188 MB; a To of 4,000 addresses, 134 KB: 1.2 s;
# 50,000 words passed 8 GB), so each value is cut before it is parsed. A header shown is cut at
# 16,384 characters, which holds a Subject many times over and a To of some 500 addresses; a
# header that shapes the message (Content-Type, Content-Disposition), a few hundred characters
# with a long file name, at 2,048 and 40 parameters (a long name in RFC 2231 pieces takes some 30;
# the parser's time grows with the square of their number: 180 took 18 ms, each time it is asked).
MAX_SHOWN_HEADER = 16_384
MAX_HEADER = 2_048
MAX_PARAMETERS = 40
ADDRESSES = {"from", "to", "cc", "bcc"}
# Parts, counted by their Content-Type lines before the message is parsed: every part's headers
# are parsed several times over, and at most MAX_MEMBERS (100) attachments are read anyway.
MAX_PARTS = 500
PART = re.compile(rb"^content-type[ \t]*:", re.I | re.M)
# An Outlook message's recipients, counted by their storages' names before they are read. A message
# goes to at most 1,000 recipients on Exchange; past 500 (a To line cut at MAX_SHOWN_HEADER holds
# some 500) the recipient table is not read, and the display lines stand in (a message of more than
# readers.intake.detect.MAX_OLE_ENTRIES streams is refused before it is opened).
MAX_RECIPIENTS = 500
RECIPIENT_NAME = "__recip_version1.0_".encode("utf-16-le")


def _cut(name: str, value: str) -> str:
    """``value`` cut to its header's bound, where an address (or else a word) ends; a header that
    shapes the message also to ``MAX_PARAMETERS`` parameters."""
    shown = name.title() in HEADERS
    if not shown and value.count(";") > MAX_PARAMETERS:
        value = ";".join(value.split(";", MAX_PARAMETERS + 1)[: MAX_PARAMETERS + 1])
    bound = MAX_SHOWN_HEADER if shown else MAX_HEADER
    if len(value) <= bound:
        return value
    head = value[:bound]
    end = max(head.rfind(","), head.rfind(";")) if name.lower() in ADDRESSES else max(head.rfind(" "), head.rfind("\t"))
    return head[:end] if end > 0 else head


class _Bounded(email.policy.EmailPolicy):
    """``email.policy.default`` with each header's value cut (``_cut``) before it is parsed, and
    parsed once for each message read (``parsed``, a dict of its own for each): the standard
    library asks for a part's Content-Type some ten times."""

    parsed: dict | None = None

    def header_fetch_parse(self, name, value):
        if (name, value) not in self.parsed:
            self.parsed[name, value] = super().header_fetch_parse(name, _cut(name, value))
        return self.parsed[name, value]


BOUNDED = _Bounded(refold_source="none")  # a forwarded e-mail is passed on as written, not parsed to be refolded


def _policy() -> _Bounded:
    """``BOUNDED`` with a ``parsed`` dict of its own, for one message."""
    return BOUNDED.clone(parsed={})  # type: ignore[call-arg]  # typeshed's clone names only the standard fields


def _message_page(
    headers: dict[str, str], html: str | None, plain: str | None, attachments: list[str], job, notices: list[Notice]
) -> Page:
    lines = [f"{name}: {value}" for name, value in headers.items() if value]
    if attachments:
        lines.append(f"Attachments: {', '.join(attachments)}")
    body = (
        html_blocks(html, notices=notices, name=job.name)
        if html
        else markdown_blocks((plain or "").replace("\r\n", "\n").strip(), headings=False)
    )
    return Page(number=1, blocks=paragraphs("\n".join(lines)) + body)


def _bytes_writer(data: bytes):
    return lambda handle: handle.write(data)


def _eml(job, notices: list[Notice]) -> tuple[Page, list[tuple[str, bytes]]]:
    data = job.path.read_bytes()
    if (parts := len(PART.findall(data))) > MAX_PARTS:
        raise ReaderError(
            "FILE_TOO_LARGE",
            f"{job.name} has {parts:,} parts; at most {MAX_PARTS} are read from one e-mail. It may have been "
            "built to stall mail readers.",
        )
    message = cast(EmailMessage, email.message_from_bytes(data, policy=_policy()))
    headers = {name: _header(message, name) for name in HEADERS}
    _say_what_was_cut(message, job, notices)
    if not any(headers.values()):
        raise ReaderError(
            "CORRUPT_FILE",
            f"{job.name} does not look like an e-mail: it has none of the headers From, To, Date or Subject.",
        )
    bodies, shown = {}, []
    for subtype in ("html", "plain"):
        part = message.get_body(preferencelist=(subtype,))
        if part is not None:
            bodies[subtype] = _part_text(part, job, notices)
            shown.append(part)
    attachments = []
    for index, part in enumerate(_attachment_parts(message, shown), 1):
        if part.get_content_type() == "message/rfc822":  # a forwarded e-mail: read as an .eml of its own
            inner = part.get_payload(0) if part.is_multipart() else part.get_content()
            data = inner.as_bytes() if isinstance(inner, EmailMessage) else bytes(inner)
        else:
            data = part.get_payload(decode=True) or b""
        extension = mimetypes.guess_extension(part.get_content_type()) or ""
        attachments.append((part.get_filename() or f"attachment-{index}{extension}", data))
    return _message_page(
        headers, bodies.get("html"), bodies.get("plain"), [name for name, _ in attachments], job, notices
    ), attachments


def _attachment_parts(message: EmailMessage, shown: list) -> list:
    """The parts ``iter_attachments`` gives, with a multipart among them (a mixed part nested in
    another: a multipart is no file) opened in its place, one level at a time, to its own
    attachments and the body it holds unless that body is one ``shown`` as the message's."""
    found, pending = [], list(message.iter_attachments())[::-1]
    while pending:
        part = pending.pop()
        if part.get_content_maintype() != "multipart":
            found.append(part)
            continue
        inner: list = list(part.iter_attachments())
        body = part.get_body(preferencelist=("html", "plain"))
        if body is not None and not any(body is other for other in shown):
            inner.insert(0, body)
        pending.extend(inner[::-1])
    return found


def _header(message: email.message.Message, name: str) -> str:
    """The header's value decoded, or as written (cut) when it nests past what the parser can
    follow (comments in thousands of parentheses)."""
    try:
        return str(message.get(name, "") or "")
    except RecursionError:
        raw = next(value for key, value in message.raw_items() if key.lower() == name.lower())
        return " ".join(_cut(name, raw).split())


def _as_written(message: email.message.Message, name: str) -> str:
    """A header's value as written (cut, its encoded words decoded), not parsed as addresses: the
    parser keeps one address of a To line whose recipients a ';' separates, as Outlook writes them."""
    raw = next((value for key, value in message.raw_items() if key.lower() == name.lower()), "")
    try:
        return str(email.header.make_header(email.header.decode_header(_cut(name, raw))))
    except (email.errors.HeaderParseError, LookupError, UnicodeError):  # a charset Python does not know
        return _cut(name, raw)


def _say_what_was_cut(message: email.message.Message, job, notices: list[Notice]) -> None:
    cut: dict[str, list[int]] = {}
    for part in message.walk():
        for name, value in part.raw_items():
            if _cut(name, value) != value:
                cut.setdefault(name.title(), []).append(len(value))
    for name, lengths in cut.items():
        bound = MAX_SHOWN_HEADER if name in HEADERS else MAX_HEADER
        read = f"{bound:,} characters" if name in HEADERS else f"{bound:,} characters and {MAX_PARAMETERS} parameters"
        which = (
            f"its {name} header has {lengths[0]:,} characters; only its first {read} were read"
            if len(lengths) == 1
            else f"{len(lengths):,} of its {name} headers were cut, to their first {read}"
        )
        notices.append(Notice(Code.CUT, f"{job.name}: {which} (the rest of the e-mail is read as usual)."))


def _part_text(part, job, notices: list[Notice]) -> str:
    return decode(part.get_payload(decode=True) or b"", job.name, notices, part.get_content_charset())


def _msg(job, notices: list[Notice]) -> tuple[Page, list[tuple[str, bytes]]]:
    try:
        message = open_message(job.path)
        with message.ole:
            listed = job.path.read_bytes().count(RECIPIENT_NAME)
            if listed > MAX_RECIPIENTS:
                notices.append(
                    Notice(
                        Code.CUT,
                        f"{job.name} has {listed:,} recipients in its recipient table, more than ReadLens reads "
                        f"({MAX_RECIPIENTS}): its To, Cc and Bcc lines are as Outlook's display lines give them.",
                    )
                )
            headers = _msg_headers(message, job, notices, recipients=listed <= MAX_RECIPIENTS)
            html = _msg_html(message, job, notices)
            attachments = []
            for attachment in message.attachments:
                name, data = attachment.name, attachment.data
                if isinstance(data, Message):  # an attached Outlook message: its text stands in for it
                    name, data = f"{name}.txt", _embedded_text(data, job, notices).encode()
                attachments.append((name, data))
            page = _message_page(headers, html, message.body, [n for n, _ in attachments], job, notices)
            return page, attachments
    # olefile raises OSError for a file that is no compound file, and struct and its own errors for a damaged one
    except (OSError, ValueError, struct.error, IndexError, KeyError) as error:
        raise ReaderError(
            "CORRUPT_FILE",
            f"{job.name} is damaged and cannot be opened as an Outlook message "
            f"({type(error).__name__}). Save it from Outlook again.",
        ) from None


def _person(name: str, address: str) -> str:
    """``Name <address>``, or whichever of the two there is; an address that is no mail address
    (an Exchange recipient's /o=ExchangeLabs/...) is left out."""
    address = address if "@" in address else ""
    if not address or name.casefold() == address.casefold():
        return address or name
    return f"{name} <{address}>" if name else address


def _msg_headers(message, job, notices: list[Notice], recipients: bool = True) -> dict[str, str]:
    """From, To, Cc and Bcc as Outlook shows them, from the sender's properties and the recipient
    table (each recipient's display name and SMTP address; the display properties PR_DISPLAY_TO,
    _CC and _BCC where the table has none, or is not read: ``recipients`` false), then Date and
    Subject. Where the transport headers the message arrived with (PR_TRANSPORT_MESSAGE_HEADERS) name
    other addresses, their line follows, labelled "(transport header)". Each value is cut like an
    e-mail's header (``_cut``), with a notice."""
    sender = _person(
        message.text(0x0C1A) or message.text(0x0042).partition(" <")[0],
        message.text(0x5D01) or message.text(0x0C1F) or message.text(0x5D02) or message.text(0x0065),
    )
    tables: dict[str, list[str]] = {"To": [], "Cc": [], "Bcc": []}
    lengths = dict.fromkeys(tables, 0)  # a line past its bound takes no more recipients: it is cut anyway
    for recipient in message.recipients if recipients else ():
        field = RECIPIENT_FIELDS.get(recipient.kind)
        entry = _person(recipient.name, recipient.address)
        if field and entry and lengths[field] <= MAX_SHOWN_HEADER:
            tables[field].append(entry)
            lengths[field] += len(entry) + 2
    shown = {"From": sender}
    for field, tag in (("To", 0x0E04), ("Cc", 0x0E03), ("Bcc", 0x0E02)):
        shown[field] = "; ".join(tables[field]) or message.text(tag)
    transport = email.parser.HeaderParser(policy=_policy()).parsestr(message.text(0x007D))
    _say_what_was_cut(transport, job, notices)
    headers: dict[str, str] = {}
    for field, value in shown.items():
        headers[field] = _bounded(field, value, job, notices)
        parsed, written = (_header(transport, field), _as_written(transport, field)) if field in transport else ("", "")
        arrived = parsed if parsed.count("@") >= written.count("@") else written
        addresses = {address.casefold() for _, address in email.utils.getaddresses([arrived]) if "@" in address}
        if addresses and addresses != {address.casefold() for _, address in email.utils.getaddresses([value])}:
            headers[f"{field} (transport header)"] = " ".join(arrived.split())
    headers["Date"] = str(message.date or "")
    headers["Subject"] = _bounded("Subject", message.text(0x0037), job, notices)
    return headers


def _bounded(name: str, value: str, job, notices: list[Notice]) -> str:
    """A property's value cut as an e-mail header of that name is (``_cut``), saying so when it is."""
    value = " ".join(value.split())
    cut = _cut(name, value)
    if cut != value:
        notices.append(
            Notice(
                Code.CUT,
                f"{job.name}: its {name} has {len(value):,} characters; only its first {MAX_SHOWN_HEADER:,} "
                "characters were read (the rest of the e-mail is read as usual).",
            )
        )
    return cut


def _msg_html(message: Message, job, notices: list[Notice]) -> str | None:
    """The HTML body in the charset it declares, else in the message's codepage (PR_INTERNET_CPID,
    the charset Outlook stores both bodies in); None when its bytes are text in no charset, so that
    the plain body stands in."""
    html = message.html
    if not isinstance(html, bytes):
        return html
    try:
        return decode_html(html, job.name, notices, message.html_charset)
    except ReaderError:
        return None


def _embedded_text(message: Message, job, notices: list[Notice]) -> str:
    """An attached Outlook item as text: a message's headers as the message's own are read, then its body."""
    return _message_page(_msg_headers(message, job, notices), None, message.body, [], job, notices).text


def read(job):
    notices: list[Notice] = []
    try:
        page, attachments = _msg(job, notices) if job.mime == "application/vnd.ms-outlook" else _eml(job, notices)
    except RecursionError:  # the standard library walks a message's parts one call per level of nesting
        raise ReaderError(
            "CORRUPT_FILE",
            f"{job.name} nests its parts too deeply to be read (thousands of levels); it may have been "
            "built to stall mail readers.",
        ) from None
    with container(job):
        reserve(job, [len(data) for _, data in attachments])
        members = [(name, _bytes_writer(data)) for name, data in attachments]
        return read_members(job, members, leading=[page], notices=notices)
