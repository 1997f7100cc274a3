"""Outlook messages as Outlook shows them: the recipient table and the sender's properties, the
transport header's other addresses labelled, and their headers bounded as an e-mail's are."""

from __future__ import annotations

from readers import read_file
from readers.office import outlook
from testkit import CORPUS, fixtures
from tests.test_hostile_input import MEMORY_MB, read_measured


def test_the_recipient_outlook_shows_is_the_to_and_the_transport_headers_other_one_is_labelled(services):
    """markitdown's test message: its transport headers name the sender's own address as To; the
    To Outlook shows is test.recipient@example.com, from the recipient table. Its Cc and Bcc
    entries in the table are empty, and no empty Cc: <> is shown."""
    text = read_file(CORPUS / "markitdown/test_outlook_msg.msg", services=services).pages[0].text
    lines = text.split("\n")
    assert lines[:4] == [
        "From: M. C. Kurtuluş <test.sender@example.com>",
        'From (transport header): "M. C. Kurtuluş" <muratcan.kurtulus@gmail.com>',
        "To: test.recipient@example.com",
        'To (transport header): "M. C. Kurtuluş" <muratcan.kurtulus@gmail.com>',
    ]
    assert "<>" not in text and not any(line.startswith(("Cc", "Bcc")) for line in lines)


def test_cc_and_bcc_come_from_the_recipient_table(services):
    text = read_file(CORPUS / "unstructured/fake-email-with-cc-and-bcc.msg", services=services).pages[0].text
    assert text.startswith(
        "From: John <johnjennings702@gmail.com>\nTo: John Jennings <john-ctr@unstructured.io>\n"
        "Cc: steve@unstructured.io\nBcc: hello@unstructured.io\nDate: "
    )


def test_outlook_headers_and_properties_are_cut_as_an_emails_are(tmp_path):
    """A transport To line of 100,000 addresses, and a subject, a sender's name and a recipient's
    name of 300,000 characters each: before, the To line (2.3 MB) went whole to the page, parsed by
    extract-msg, which ReadLens read messages with then, in 3 min 22 s; each is now cut at 16,384
    characters, with a warning."""
    path = fixtures.header_bomb_outlook(tmp_path / "bomb.msg", addresses=100_000, characters=300_000)
    result = read_measured(path, tmp_path)
    assert result["grew_mb"] < MEMORY_MB, result["grew_mb"]
    lines = result["pages"][0].split("\n")
    fields = [line.partition(":")[0] for line in lines[:4]]
    assert fields == ["From", "To", "To (transport header)", "Subject"]
    assert all(len(line) <= len("To (transport header): ") + 16_384 for line in lines[:4])
    assert lines[2].startswith("To (transport header): user0@example.org, user1@example.org")
    assert lines[2].endswith("@example.org")
    assert lines[-1] == "The body is still read."
    assert result["warnings"] == [
        "bomb.msg: its To header has 2,288,888 characters; only its first 16,384 characters were read "
        "(the rest of the e-mail is read as usual).",
        *(
            f"bomb.msg: its {name} has {length:,} characters; only its first 16,384 characters were read "
            "(the rest of the e-mail is read as usual)."
            for name, length in (("From", 300_017), ("To", 300_019), ("Subject", 299_999))
        ),
    ]


def test_compressed_rtf_is_unpacked_as_the_specification_says():
    """[MS-OXRTFCP]: literals and references into the dictionary it starts with (``\\ansicpg``,
    ``\\pard``) and into the text itself ("hello world" three times)."""
    packed = bytes.fromhex(
        "35000000450000004c5a4675ae7d0a4a03000a007263706731323542320af32068656c090020e27705b06c642c0ebf09000f14067d0a"
        "801140"
    )
    assert (
        outlook._decompressed(packed) == b"{\\rtf1\\ansi\\ansicpg1252\\pard hello world, hello world, hello world}\r\n"
    )


def test_the_html_an_rtf_body_wraps_is_read_back():
    """[MS-OXRTFEX]: the HTML tags kept in ``\\*\\htmltag`` groups, the text between them, escaped
    bytes in the RTF's code page and \\u characters; what ``\\htmlrtf`` marks is RTF only."""
    rtf = (
        b"{\\rtf1\\ansi\\ansicpg1252\\fromhtml1 {\\fonttbl{\\f0 Arial;}}"
        b"{\\*\\htmltag19 <p>}\\htmlrtf {\\htmlrtf0 Caf\\'e9 na\\u239?ve }\\htmlrtf0 "
        b'{\\*\\htmltag84 <a href="https://example.com/a">}link{\\*\\htmltag92 </a>}'
        b"{\\*\\htmltag27 </p>}\\htmlrtf \\par RTF only\\htmlrtf0 }"
    )
    assert outlook._html_in_rtf(rtf) == '<p>Caf\u00e9 na\u00efve <a href="https://example.com/a">link</a></p>'


def test_markitdowns_message_body_comes_from_its_rtf_wrapped_html(services):
    message = outlook.open_message(CORPUS / "markitdown/test_outlook_msg.msg")
    with message.ole:
        assert message.html == '<div dir="ltr">This is the body of the test email message</div>\r\n'
        assert [(recipient.kind, recipient.address) for recipient in message.recipients if recipient.address] == [
            (1, "test.recipient@example.com")
        ]
        assert str(message.date) == "2024-12-22 08:23:00+00:00"
