"""A PDF sent as itself: ``as_messages(provider, document=True)`` holds a real PDF of exactly the pages read."""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import sys

import pypdfium2 as pdfium
import pytest

from readers import Page, ReaderError, Reading, read_file
from readers.models import PdfSource
from readers.payload.document import LIMITS, MB, limit_problem
from readers.pdf import pool as pdf_pool
from readers.render import libreoffice as office
from readers.services import Services
from testkit import CORPUS, ROOT, fixtures, make_settings

needs_libreoffice = pytest.mark.skipif(
    shutil.which("soffice") is None, reason="needs LibreOffice (make setup installs it)"
)


@pytest.fixture(scope="module")
def eight(tmp_path_factory):
    return fixtures.multi_page_pdf(tmp_path_factory.mktemp("pdf") / "eight.pdf", 8)


def sent_pdf(parts: list[dict]) -> pdfium.PdfDocument:
    """The PDF a document part holds, checked to be the last part, after one text part."""
    if "inline_data" in parts[-1]:  # Gemini's parts: {"text"}, then {"inline_data": {mime_type, data}}
        assert len(parts) == 2 and set(parts[0]) == {"text"} and set(parts[1]) == {"inline_data"}
        assert parts[1]["inline_data"]["mime_type"] == "application/pdf"
        return pdfium.PdfDocument(base64.b64decode(parts[1]["inline_data"]["data"]))
    assert [part["type"] for part in parts] in (["text", "file"], ["text", "document"])
    document = parts[1]
    if document["type"] == "file":
        prefix, data = document["file"]["file_data"].split(",", 1)
        assert prefix == "data:application/pdf;base64" and document["file"]["filename"].endswith(".pdf")
    else:
        assert document["source"]["type"] == "base64" and document["source"]["media_type"] == "application/pdf"
        data = document["source"]["data"]
    return pdfium.PdfDocument(base64.b64decode(data))


def page_texts(document: pdfium.PdfDocument) -> list[str]:
    return [page.get_textpage().get_text_range() for page in document]


@pytest.mark.parametrize("provider", ["openai", "anthropic", "gemini"])
def test_a_pdf_range_is_sent_as_a_pdf_of_exactly_those_pages(eight, shared_services, provider):
    reading = read_file(eight, 2, 4, multimodal=True, services=shared_services)
    parts = reading.as_messages(provider, document=True)
    assert parts[0]["text"] == "[DOCUMENT: eight.pdf, pages 2-4 of 8; the PDF's page 1 is page 2]"
    sent = sent_pdf(parts)
    assert page_texts(sent) == page_texts(pdfium.PdfDocument(str(eight)))[1:4]
    one = read_file(eight, 7, 7, services=shared_services)  # text-only mode: the same document
    assert len(sent_pdf(one.as_messages(provider, document=True))) == 1
    assert (
        one.as_messages(provider, document=True)[0]["text"]
        == "[DOCUMENT: eight.pdf, page 7 of 8; the PDF's page 1 is page 7]"
    )


def test_without_document_the_parts_are_what_they_were(eight, shared_services):
    reading = read_file(eight, 2, 3, multimodal=True, services=shared_services)
    assert [part["type"] for part in reading.as_messages("anthropic")] == ["text", "image", "text", "image"]
    assert read_file(eight, 2, 3, services=shared_services).as_messages("openai")[0]["type"] == "text"


# Corpus files: the session's cache has LibreOffice's and Chromium's PDFs of them from the first test that reads them.
@needs_libreoffice
@pytest.mark.parametrize(
    "file, pages, count",
    [
        ("markitdown/test.docx", (2, 2), 1),
        ("markitdown/test.docx", (None, None), 3),
        ("markitdown/test.pptx", (2, 3), 2),
        ("docling/formats/odf_table_with_title_01.ods", (None, None), 1),  # a spreadsheet: its sheet as Calc drew it
    ],
)
def test_office_documents_are_sent_as_the_pdf_libreoffice_made(shared_services, file, pages, count):
    reading = read_file(CORPUS / file, *pages, services=shared_services, images=True)
    sent = sent_pdf(reading.as_messages("anthropic", document=True))
    assert len(sent) == count
    rendered = pdfium.PdfDocument(str(reading.pdf.path))  # LibreOffice's PDF, in the cache
    first = pages[0] or 1
    assert page_texts(sent) == page_texts(rendered)[first - 1 : first - 1 + count] and any(page_texts(sent))


@pytest.mark.skipif(shutil.which("chromium") is None, reason="needs Chromium (make setup installs it)")
def test_a_web_page_is_sent_as_the_pdf_chromium_printed(shared_services):
    reading = read_file(CORPUS / "docling/formats/example_01.html", services=shared_services, multimodal=True)
    sent = sent_pdf(reading.as_messages("openai", document=True))
    assert len(sent) == reading.page_count and "Introduction" in page_texts(sent)[0]


def test_the_cut_is_made_once_per_content_and_range(eight, tmp_path, monkeypatch):
    services = Services(make_settings(tmp_path / "cache"))
    reading = read_file(eight, 3, 5, services=services)
    first = reading.as_messages("openai", document=True)

    def no_cutting(*args):
        raise AssertionError("the cut is in the cache")

    monkeypatch.setattr(pdf_pool, "cut_pages", no_cutting)
    assert read_file(eight, 3, 5, services=services).as_messages("openai", document=True) == first
    with pytest.raises(AssertionError):
        read_file(eight, 3, 6, services=services).as_messages("openai", document=True)


@pytest.mark.parametrize("file", ["markitdown/test.jpg", "docling/formats/csv-comma-in-cell.csv"])
def test_a_reading_without_a_pdf_is_refused_clearly(file, shared_services):
    reading = read_file(CORPUS / file, services=shared_services)
    assert reading.pdf is None
    with pytest.raises(ReaderError) as caught:
        reading.as_messages("anthropic", document=True)
    assert caught.value.code == "UNSUPPORTED_FORMAT"
    assert caught.value.message.startswith(f"{reading.name} has no PDF to send as itself: only PDFs")


def test_a_word_document_read_without_libreoffice_has_no_pdf(tmp_path, monkeypatch):
    monkeypatch.setattr(office, "soffice", lambda: None)
    reading = read_file(
        fixtures.word_document(tmp_path / "review.docx"), services=Services(make_settings(tmp_path / "cache"))
    )
    with pytest.raises(ReaderError) as caught:
        reading.as_messages("openai", document=True)
    assert caught.value.code == "UNSUPPORTED_FORMAT" and "LibreOffice" in caught.value.message


# Gemini's 1,000 pages of this fixture are 82 MB, past its 20 MB: 100 of them are sent
@pytest.mark.parametrize("provider, most", [("openai", 100), ("anthropic", 100), ("gemini", 1000)])
def test_more_pages_than_a_provider_takes_is_refused_with_its_limit(tmp_path, provider, most):
    path = fixtures.multi_page_pdf(tmp_path / "long.pdf", most + 1)
    reading = Reading(
        name="long.pdf",
        kind="pdf",
        mime="application/pdf",
        sha256="0" * 64,
        page_count=most + 1,
        pages=[Page(number=n) for n in range(1, most + 2)],
        pdf=PdfSource(path, tmp_path / "cache"),
    )
    with pytest.raises(ReaderError) as caught:
        reading.as_messages(provider, document=True)
    assert caught.value.code == "FILE_TOO_LARGE"
    assert caught.value.message.startswith(f"long.pdf ({most + 1} pages) is {most + 1} PDF pages; ")
    assert f"at most {most:,} PDF pages" in caught.value.message
    assert f"Ask for at most {most} pages" in caught.value.message
    reading.pages = reading.pages[:100]
    assert len(sent_pdf(reading.as_messages(provider, document=True))) == 100


def test_a_request_over_the_size_limit_is_refused_with_what_to_do():
    problem = limit_problem("anthropic", 40, 40 * MB, "scan.pdf (pages 1-40 of 90)")
    assert problem == (
        "scan.pdf (pages 1-40 of 90) is 40.0 MB as base64 in the request; Anthropic takes at most 100 PDF pages "
        "(600 on models with a 1M-token context window) and 32 MB in one "
        "request. Ask for fewer pages (a smaller range), "
        "or send its text and page images instead."
    )
    assert limit_problem("openai", 100, LIMITS["openai"].request_bytes, "x") is None


def test_the_command_line_prints_the_document_parts(eight, tmp_path):
    env = {**os.environ, "READLENS_CACHE_DIR": str(tmp_path / "cache"), "VISION_PROVIDER": "none"}
    run = lambda *args: subprocess.run(
        [sys.executable, "-m", "readers", str(eight), *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    result = run("--pages", "5-6", "--document", "--format", "anthropic")
    assert result.returncode == 0, result.stderr
    assert page_texts(sent_pdf(json.loads(result.stdout))) == page_texts(pdfium.PdfDocument(str(eight)))[4:6]
    refused = run("--document")
    assert refused.returncode == 2 and "--document goes with --format openai, anthropic or gemini" in refused.stderr
    refused = run("--document", "--format", "openai", "--describe", "What is in the chart?")
    assert refused.returncode == 2 and "--describe does not go with --document" in refused.stderr
    image = subprocess.run(
        [sys.executable, "-m", "readers", str(CORPUS / "markitdown/test.jpg"), "--document", "--format", "openai"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert image.returncode == 2 and image.stderr.startswith("error: UNSUPPORTED_FORMAT: test.jpg has no PDF")
