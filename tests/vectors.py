"""The test vectors: (file, kind, must_include, must_not_include, pages) for the corpus's files
(what their own projects' tests assert, from ``corpus/expected.json``) and for the files we
generate; ``tests/test_readers.py`` reads them through every route, ``tests/test_api.py`` through
the app's API. The generated files' vectors are in ``tests/generated_vectors.py``."""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from testkit import CORPUS

EXPECTED = {entry["file"]: entry for entry in json.loads((CORPUS / "expected.json").read_text())}


def plain(strings: list[str]) -> list[str]:
    """expected.json strings as a plain reader (not markitdown's Markdown) should find them."""
    found = []
    for value in strings:
        if value.startswith("data:image"):
            continue
        image = re.fullmatch(r"!\[(.*)\]\(.*\)", value)
        found.append(image.group(1) if image else value.lstrip("# "))
    return found


@dataclass
class Vector:
    file: str
    kind: str
    must_include: list[str]
    must_not_include: list[str] = field(default_factory=list)
    pages: tuple[int | None, int | None] = (None, None)
    page_count: int | None = None
    needs: str | None = None  # a program the vector needs (skipped, with the reason, without it)
    notices: tuple[str, ...] = ()  # the codes of notices the reading must give (readers.notices.Code)

    @property
    def id(self) -> str:
        return self.file


def corpus(
    file: str, kind: str, extra: list[str] = (), exclude: list[str] = (), unseen: list[str] = (), **kw
) -> Vector:
    """A corpus file's vector from expected.json, plus ``extra`` and ``exclude``; ``unseen`` drops
    expected strings that are no content a person sees (an ODP slide's internal name)."""
    entry = EXPECTED[file]
    include = [value for value in plain(entry.get("must_include", [])) if value not in unseen]
    return Vector(
        str(CORPUS / file), kind, include + list(extra), list(exclude) + entry.get("must_not_include", []), **kw
    )


CORPUS_VECTORS = [
    corpus("markitdown/test.pdf", "pdf", exclude=["Largelanguagemodels"], page_count=1),
    corpus(
        "markitdown/test.docx",
        "docx",
        extra=[
            "# Abstract",
            "## d666f1f7-46cb-42bd-9a39-9a39cf2a509f",
            "| 13 | 14 | 49e168b7-d2ae-407f-a055-2167576f39a1 | 15 | 16 | 17 |",
        ],
        exclude=["49e168b7- d2ae"],
        page_count=3,
    ),
    corpus("markitdown/test.pptx", "pptx", page_count=6),
    corpus("markitdown/test.jpg", "image", page_count=1),
    corpus("pdfplumber/nics-background-checks-2015-11.pdf", "pdf"),
    corpus("pdfplumber/issue-140-example.pdf", "pdf"),
    # no page lost where an engine reads it: pdfminer refuses one (read by pdfium), loses another's text
    # silently, and a third file has a printer's banner before its header
    corpus("unstructured/pdf-bad-color-space.pdf", "pdf", page_count=1),
    corpus("pdfjs/bug1019475_1.pdf", "pdf", page_count=1),
    # soft hyphens the page draws as dashes: a part number's, a date line's
    corpus("pdfjs/issue9084.pdf", "pdf", page_count=1),
    corpus("pdfjs/issue7855.pdf", "pdf", page_count=1),
    corpus("pdfplumber/issue-848.pdf", "pdf", page_count=8),
    corpus("python-pptx/tbl-cell.pptx", "pptx", page_count=3),
    corpus(
        "docling/word_sample.docx",
        "docx",
        extra=[
            "| Leaves | Ash, Elm, Maple | 50 |",
            "# Let’s swim!",
            "## Let’s eat",
            "- Paddle about",
            "2. Don’t forget to drink water",
            "[Picture: A cartoon duck holding a paper",
        ],
        exclude=["Leaves Ash, Elm, Maple 50", "SEQ Figure"],
        page_count=2,
    ),
    corpus(
        "docling/powerpoint_sample.pptx",
        "pptx",
        extra=[
            "Speaker notes:\nSome notes on the second slide.",
            "1. List item4",
            "- And baz things",
            "| | A merged with B | A merged with B | C | A | B | C |",
            "| R3 | | True | | True | | |",
        ],
        page_count=3,
    ),
    corpus(
        "docling/formats/powerpoint_comments.pptx",
        "pptx",
        extra=[
            "> **Comment** by John Reviewer: This is a sample reviewer comment",
            "> **Reply** by Jane Smith: This is a sample response",
            "[Python library](https://pypi.org/project/docling)",
        ],
        page_count=3,
    ),
    corpus(
        "docling/formats/powerpoint_malformed_pictures.pptx",
        "pptx",
        extra=[
            "[SLIDE 2]\nSlide With Dangling Rel\n\n[Picture: _good_picture.png — its image is missing from the file]",
            "[SLIDE 3]\nSlide With Wrong Content Type\n\n[Picture: _good_picture.png]",
        ],
        page_count=3,
    ),
    corpus(
        "docling/formats/powerpoint_unrecognized_shape.pptx",
        "pptx",
        extra=["# Next Steps", "- Enterprise segment led growth at 24%."],
        page_count=3,
    ),
    corpus(
        "docling/formats/csv-semicolon.csv",
        "csv",
        extra=["| Index | Customer Id | First Name |", "| Dominguez;Mcmillan and Donovan |"],
    ),
    corpus("docling/formats/csv-comma-in-cell.csv", "csv", extra=["| a | , | c | d |"]),
    corpus(
        "docling/formats/legacy_sample.doc",
        "docx",
        extra=["| Leaves | Ash, Elm, Maple | 50 |"],
        exclude=["WordDocument"],
        needs="soffice",
    ),
    corpus(
        "docling/formats/legacy_sample.ppt",
        "pptx",
        extra=["[SLIDE 2]", "# Second slide title"],
        page_count=3,
        needs="soffice",
    ),
    corpus("docling/formats/text_document_01.odt", "docx", needs="soffice"),
    corpus(
        "docling/formats/odf_presentation_01.odp",
        "pptx",
        unseen=["Slide3"],
        extra=["[SLIDE 3]", "List item4"],
        page_count=3,
        needs="soffice",
    ),
    corpus(
        "docling/formats/odf_table_with_title_01.ods",
        "xlsx",
        extra=["[SHEET 1]\n# Sheet1", "| Year | Freshwater Ducks |", "| 2024 | 180 |"],
        page_count=1,
        needs="soffice",
    ),
    corpus(
        "docling/formats/eml_simple.eml",
        "email",
        extra=["From: Alice Example <alice@example.com>", "Subject: Simple Email"],
        page_count=1,
    ),
    corpus(
        "docling/formats/eml_with_attachment.eml",
        "email",
        extra=["Attachments: test.txt", "[FILE: test.txt]\n\n[PAGE 2]\nThis is a test attachment file."],
        page_count=2,
    ),
    corpus(
        "docling/formats/msg_simple.msg",
        "email",
        extra=["From: Alice Example <alice@example.com>", "To: Bob Example <bob@example.com>"],
        page_count=1,
    ),
    corpus(  # Outlook's own recipient (its recipient table), and the transport header's other address labelled
        "markitdown/test_outlook_msg.msg",
        "email",
        extra=[
            "From: M. C. Kurtuluş <test.sender@example.com>\n"
            'From (transport header): "M. C. Kurtuluş" <muratcan.kurtulus@gmail.com>\n'
            "To: test.recipient@example.com\n"
            'To (transport header): "M. C. Kurtuluş" <muratcan.kurtulus@gmail.com>\n'
            "Date: 2024-12-22 08:23:00+00:00\nSubject: Test Email Message"
        ],
        exclude=["Cc:", "Bcc:"],
        unseen=[
            "Email Message",
            "**From:** test.sender@example.com",
            "**To:** test.recipient@example.com",
            "**Subject:** Test Email Message",
            "Content",
        ],
        page_count=1,
    ),
    corpus(
        "unstructured/fake-email-with-cc-and-bcc.msg",
        "email",
        extra=[
            "From: John <johnjennings702@gmail.com>\nTo: John Jennings <john-ctr@unstructured.io>\n"
            "Cc: steve@unstructured.io\nBcc: hello@unstructured.io\n"
        ],
        exclude=["(transport header)"],
        page_count=1,
    ),
    corpus(
        "docling/formats/msg_with_attachment.msg",
        "email",
        extra=[
            "[FILE: test.txt]",
            "This is a test attachment file.",
            "[FILE: report.pdf]",
            "(not read: report.pdf is damaged",
        ],
        page_count=3,
    ),
    corpus(
        "docling/formats/epub_purvis_poetry.epub",
        "epub",
        extra=["[PAGE 1]\n# Poetry\n\nBy Sarah Louisa Forten Purvis", "## The Grave of the Slave"],
        page_count=5,
    ),
    corpus(
        "docling/formats/wiki_duck.html",
        "html",
        extra=["## Etymology", "[waterfowl](/wiki/Waterfowl)"],
        exclude=["Jump to content", "Create account", "Personal tools", "move to sidebar"],
    ),
    corpus(
        "docling/formats/example_01.html",
        "html",
        extra=[
            "# Introduction",
            "- First item in unordered list",
            "42. First item in ordered list with start",
            "![Example image](example_image_01.png)",
        ],
        page_count=1,
    ),
    corpus("docling/formats/table_01.html", "html", extra=["# Header", "| A | B |", "| 1... | 2... |"], page_count=1),
    corpus(
        "docling/formats/hyperlink_01.html",
        "html",
        extra=["# Something", "Please follow the link to: This page ."],
        page_count=1,
    ),
    Vector(str(CORPUS / "python-docx/images/python.bmp"), "image", ["ImageSize: 211x71", "Format: BMP"]),
    Vector(str(CORPUS / "python-docx/images/python-icon.jpeg"), "image", ["ImageSize: 204x204"]),
    Vector(str(CORPUS / "python-docx/images/72-dpi.tiff"), "image", ["ImageSize: 48x48", "Format: TIFF"]),
    Vector(str(CORPUS / "python-docx/images/300-dpi.png"), "image", ["ImageSize: 860x579"]),
    Vector(str(CORPUS / "docling/webp-test.webp"), "image", ["ImageSize: 2000x2829", "Format: WEBP"]),
    Vector(
        str(CORPUS / "markitdown/test.pptx"),
        "pptx",
        ["[SLIDE 3]", "1b92870d-e3b5-4e65-8153-919f4ff45592"],
        ["[SLIDE 1]", "[SLIDE 4]"],
        pages=(3, 3),
        notices=("part_of_file",),
    ),
    # a range that starts inside a table whose header is on page 1 only: its first page carries the header
    Vector(
        str(CORPUS / "pdfplumber/ca-warn-report.pdf"),
        "pdf",
        [
            "[PAGE 3]\n*(continued from page 2)*\n\n| Notice Date | Effective | Received | Company | City | No. Of |"
            " Layoff/Closure |\n|---|---|---|---|---|---|---|\n| 08/03/2015 | 10/05/2015 | 08/04/2015 |",
            "[PAGE 5]\n*(continued from page 4)*\n\n| Notice Date | Effective |",
        ],
        ["| Owens-Brockway Glass Container Inc. | Oakland | 202 | Closure Permanent |\n|---|"],  # a row as the header
        pages=(3, 5),
        page_count=16,
        notices=("part_of_file",),
    ),
]


def resolve(vector: Vector, generated: dict[str, Path]) -> Path:
    return generated.get(vector.file) or Path(vector.file)


def squeeze(text: str) -> str:
    return " ".join(text.split())


def unmarked(text: str) -> str:
    """The text without Markdown's inline marks (links' targets, emphasis): other projects' expected
    strings are plain text, and a Markdown reader keeps them with their links and bold."""
    return re.sub(r"\*\*?|(?<!\w)_|\\(?=\W)", "", re.sub(r"!?\[([^\]]*)\]\((?:[^()]|\([^()]*\))*\)", r"\1", text))


def check_notices(codes: list[str], vector: Vector) -> None:
    """The reading gives a notice of each code the vector names."""
    assert set(vector.notices) <= set(codes), f"{vector.file} gave {codes}, not {vector.notices}"


def check_text(text: str, vector: Vector) -> None:
    """Line breaks are layout (a PDF wraps a title), so inclusion ignores how whitespace runs."""
    for needle in vector.must_include:
        assert squeeze(needle) in squeeze(text) or squeeze(needle) in squeeze(unmarked(text)), (
            f"{needle!r} missing from {vector.file}"
        )
    for needle in vector.must_not_include:
        assert needle not in text and (needle != needle.lower() or needle not in text.lower()), (
            f"{needle!r} found in {vector.file}"
        )


def skip_without(vector: Vector) -> None:
    if vector.needs and shutil.which(vector.needs) is None:
        pytest.skip(f"needs {vector.needs} (make setup installs it)")
