"""The named API through the real ``gradio_client``, against ``python app.py`` on a free port."""

from __future__ import annotations

import base64
import dataclasses
import json
import shutil
import socket
import time
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlparse

import httpx
import pypdfium2 as pdfium
import pytest
from gradio_client import Client, handle_file
from gradio_client.exceptions import AppError
from PIL import Image

from readers.models import Segment, Transcript
from readers.payload.tokens import text_tokens
from testkit import CORPUS, ROOT, fixtures
from testkit.server import ARTIFACTS, launch_app, stop
from tests.conftest import BOUNDED_SECONDS
from tests.loopback import Site
from tests.model_output import assert_same_words, assert_says
from tests.test_ui_server import GENERIC_ANSWER, MAX_FILE_MB, PIE_ANSWER, SECRET_KEY, VISION_MODEL
from tests.vectors import CORPUS_VECTORS, check_notices, check_text
from ui.server import NOT_UPLOADED

REPORT_PDF = ROOT / "assets" / "chart-report.pdf"
ENDPOINTS = {"/read_file", "/render_page", "/describe", "/transcribe", "/outline", "/find"}


def read(client, path, page_start=None, page_end=None, describe="", multimodal=False) -> dict:
    return client.predict(
        file=handle_file(str(path)),
        page_start=page_start,
        page_end=page_end,
        describe=describe,
        multimodal=multimodal,
        api_name="/read_file",
    )


def test_the_api_page_lists_exactly_the_four_endpoints(client):
    info = client.view_api(return_format="dict", print_info=False)
    assert set(info["named_endpoints"]) == ENDPOINTS
    assert not info["unnamed_endpoints"]
    names = [p["parameter_name"] for p in info["named_endpoints"]["/read_file"]["parameters"]]
    assert names == [
        "file",
        "page_start",
        "page_end",
        "describe",
        "multimodal",
        "document",
        "line_numbers",
        "file_base64",
        "file_name",
        "hotwords",
        "max_tokens",
        "cursor",
        "chunk_tokens",
        "provider",
        "url",
        "files",
    ]
    assert [p["parameter_name"] for p in info["named_endpoints"]["/transcribe"]["parameters"]] == [
        "file",
        "file_base64",
        "file_name",
        "hotwords",
        "url",
    ]


def test_read_file_in_text_only_mode_describes_the_pages_with_figures(client):
    reading = read(client, REPORT_PDF)
    assert reading["kind"] == "pdf" and reading["page_count"] == 4
    assert [page["number"] for page in reading["pages"]] == [1, 2, 3, 4]
    assert "Quarterly Sales Report 2024" in reading["pages"][0]["text"]
    assert reading["pages"][2]["tables"][0].startswith("| Region | Q1 | Q2 | Q3 | Q4 |")
    charts, text_only = reading["pages"][:2], reading["pages"][2:]
    assert {page["description"] for page in charts} == {GENERIC_ANSWER}
    assert all(page["description_source"].startswith(f"vision:{VISION_MODEL}") for page in charts)
    assert [[figure["kind"] for figure in page["figures"]] for page in charts] == [["drawing"], ["drawing"]]
    assert all(0 <= value <= 1 for page in charts for value in page["figures"][0]["box"])
    assert [(page["description"], page["description_source"]) for page in text_only] == [(None, "none: text only")] * 2
    assert reading["usage"]["calls"] + reading["usage"]["cache_hits"] == 2 and reading["usage"]["calls_saved"] == 2
    assert reading["text"].startswith("[PAGE 1]\n# Quarterly Sales Report 2024")
    assert (
        f"[PAGE 2 - VISUAL CONTENT]\n{GENERIC_ANSWER}" in reading["text"]
        and "[PAGE 4 - VISUAL CONTENT]" not in reading["text"]
    )
    assert "messages" not in reading
    assert reading["tokens"] == {
        "openai": {"count": text_tokens(reading["text"]), "exact": True},
        "anthropic": {"count": text_tokens(reading["text"]), "exact": False},
        "gemini": {"count": text_tokens(reading["text"]), "exact": False},
    }


def test_read_file_in_multimodal_mode_returns_png_data_urls(client):
    reading = read(client, REPORT_PDF, page_start=2, page_end=3, multimodal=True)
    assert [page["number"] for page in reading["pages"]] == [2, 3]
    assert all(page["description"] is None for page in reading["pages"])
    images = [part["image_url"]["url"] for part in reading["messages"] if part["type"] == "image_url"]
    assert len(images) == 2
    for url in images:
        prefix, data = url.split(",", 1)
        assert prefix == "data:image/png;base64" and base64.b64decode(data).startswith(b"\x89PNG")
    assert reading["messages"][0] == {"type": "text", "text": reading["messages"][0]["text"]}
    assert reading["messages"][0]["text"].startswith("[PAGE 2]\n# Revenue by segment")
    text = sum(text_tokens(part["text"]) for part in reading["messages"] if part["type"] == "text")
    assert reading["tokens"]["openai"] == {
        "count": text + 2 * (85 + 170 * 4),
        "exact": True,
    }  # a letter page: 2 x 2 tiles


def test_read_file_returns_the_pdf_itself_and_numbered_lines_when_asked(client, tmp_path):
    reading = client.predict(
        file=handle_file(str(REPORT_PDF)),
        page_start=2,
        page_end=3,
        describe="",
        multimodal=True,
        document=True,
        api_name="/read_file",
    )
    parts = reading["document_messages"]
    assert parts[0] == {
        "type": "text",
        "text": "[DOCUMENT: chart-report.pdf, pages 2-3 of 4; the PDF's page 1 is page 2]",
    }
    prefix, data = parts[1]["file"]["file_data"].split(",", 1)
    assert prefix == "data:application/pdf;base64" and len(parts) == 2
    assert len(pdfium.PdfDocument(base64.b64decode(data))) == 2
    log = fixtures.numbered_log(tmp_path / "app.log", 400)
    numbered = client.predict(
        file=handle_file(str(log)),
        page_start=2,
        page_end=2,
        describe="",
        multimodal=False,
        line_numbers=True,
        api_name="/read_file",
    )
    first = numbered["pages"][0]["line"]
    assert first > 1 and numbered["text"].startswith(f"[PAGE 2]\n{first:>6}→{fixtures.log_line(first)}\n")
    with pytest.raises(AppError, match="app.log has no PDF to send as itself"):
        client.predict(
            file=handle_file(str(log)),
            page_start=None,
            page_end=None,
            describe="",
            multimodal=False,
            document=True,
            api_name="/read_file",
        )


API_VECTORS = [
    v
    for v in CORPUS_VECTORS
    if Path(v.file).name
    in (
        "test.pdf",
        "test.jpg",
        "webp-test.webp",
        "odf_table_with_title_01.ods",
        "legacy_sample.doc",
        "csv-semicolon.csv",
        "hyperlink_01.html",
        "epub_purvis_poetry.epub",
        "msg_with_attachment.msg",
    )
    or v.pages != (None, None)
]


@pytest.mark.parametrize(
    "vector", API_VECTORS, ids=lambda v: f"{Path(v.file).name}-{v.pages}"
)  # one of each kind; test_readers has them all
def test_corpus_vectors_through_the_api(client, vector):
    reading = read(client, vector.file, *vector.pages, multimodal=True)
    assert reading["kind"] == vector.kind
    if vector.page_count:
        assert reading["page_count"] == vector.page_count
    check_text(reading["text"], vector)
    check_notices([notice["code"] for notice in reading["notices"]], vector)


def test_a_sheet_and_a_web_page_are_rendered_and_described(client):
    sheet = client.predict(file=handle_file(str(ROOT / "assets" / "sales.xlsx")), page=2, api_name="/render_page")
    with Image.open(sheet) as image:
        assert image.format == "PNG" and image.width > image.height  # the Shares sheet: its table and pie chart
    reading = read(client, ROOT / "assets" / "sales.xlsx", page_start=2, page_end=2)
    assert (
        reading["text"].startswith("[SHEET 2]\n# Shares")
        and f"[SHEET 2 - VISUAL CONTENT]\n{GENERIC_ANSWER}" in reading["text"]
    )
    answer = client.predict(
        file=handle_file(str(ROOT / "assets" / "web-page.html")),
        page=1,
        question="What are the exact percentages in the pie chart?",
        api_name="/describe",
    )
    assert answer == PIE_ANSWER


def test_files_inside_an_archive_come_back_as_sections(client, tmp_path):
    bundle = tmp_path / "bundle.zip"
    with zipfile.ZipFile(bundle, "w") as archive:
        archive.write(REPORT_PDF, "reports/chart-report.pdf")
        archive.writestr("notes.md", "# Notes\nRead the report.\n")
    reading = read(client, bundle, multimodal=True)
    assert reading["kind"] == "zip" and reading["page_count"] == 5
    assert [page["section"] for page in reading["pages"]] == ["reports/chart-report.pdf"] * 4 + ["notes.md"]
    assert reading["text"].startswith("[FILE: reports/chart-report.pdf]\n\n[PAGE 1]\n# Quarterly Sales Report 2024")
    assert "[FILE: notes.md]\n\n[PAGE 5]\n# Notes" in reading["text"]
    assert sum(part["type"] == "image_url" for part in reading["messages"]) == 4
    path = client.predict(file=handle_file(str(bundle)), page=3, api_name="/render_page")
    with Image.open(path) as image:
        assert image.format == "PNG" and abs(image.width - 1275) <= 2


def test_a_url_is_fetched_once_and_read_in_the_providers_form(client):
    """The app's URL_ALLOW names loopback (tests.test_ui_server), where the test serves the report."""
    with Site({"/report.pdf": (200, {"Content-Type": "application/pdf"}, REPORT_PDF.read_bytes())}) as site:
        reading = client.predict(
            url=site.url("/report.pdf"),
            multimodal=True,
            provider="gemini",
            max_tokens=1500,  # page 1 and its image: the budget's call goes on with the same URL
            api_name="/read_file",
        )
        assert reading["name"] == site.url("/report.pdf") and reading["page_count"] == 4
        text, image = reading["messages"]  # Gemini's parts: text, then the page as inline PNG data
        assert text["text"].startswith("[PAGE 1]\n# Quarterly Sales Report 2024")
        assert image["inline_data"]["mime_type"] == "image/png"
        assert base64.b64decode(image["inline_data"]["data"]).startswith(b"\x89PNG")
        assert reading["tokens"]["gemini"]["count"] == text_tokens(text["text"]) + 1120  # Gemini 3's count an image
        assert f'url="{site.url("/report.pdf")}"' in reading["budget"]["call"]
        outline = client.predict(url=site.url("/report.pdf"), api_name="/outline")
        assert outline["page_count"] == 4 and site.hits["/report.pdf"] == 2  # once a call
        with pytest.raises(AppError, match="Send the file once"):
            client.predict(url=site.url("/report.pdf"), file_base64="JVBERi0=", api_name="/read_file")
        with pytest.raises(AppError, match="provider must be one of openai, anthropic, gemini"):
            client.predict(url=site.url("/report.pdf"), provider="mistral", api_name="/read_file")
        assert site.hits["/report.pdf"] == 2


def test_a_file_can_also_be_sent_inline_as_base64(client):
    reading = client.predict(
        file_base64=base64.b64encode(REPORT_PDF.read_bytes()).decode(),
        file_name="report.pdf",
        page_end=1,
        api_name="/read_file",
    )
    assert reading["name"] == "report.pdf" and reading["text"].startswith("[PAGE 1]\n# Quarterly Sales Report 2024")
    with pytest.raises(AppError, match="Send the file once"):
        client.predict(
            file=handle_file(str(REPORT_PDF)), file_base64="JVBERi0=", file_name="x.pdf", api_name="/read_file"
        )


def test_read_file_adds_chunks_when_asked_and_changes_nothing_else(client):
    plain = client.predict(file=handle_file(str(REPORT_PDF)), api_name="/read_file")
    chunked = client.predict(file=handle_file(str(REPORT_PDF)), chunk_tokens=128, api_name="/read_file")
    assert "chunks" not in plain
    assert {key: value for key, value in chunked.items() if key not in ("chunks", "usage")} == {
        key: value for key, value in plain.items() if key != "usage"
    }
    chunks = chunked["chunks"]
    assert [chunk["number"] for chunk in chunks] == list(range(1, len(chunks) + 1))
    assert all(chunk["tokens"] == text_tokens(chunk["text"]) <= 128 for chunk in chunks)
    assert {chunk["kind"] for chunk in chunks} == {"text", "figure", "table"} and {
        page for chunk in chunks for page in chunk["pages"]
    } == {1, 2, 3, 4}
    described = next(chunk for chunk in chunks if chunk["kind"] == "figure" and GENERIC_ANSWER[:40] in chunk["text"])
    assert (
        described["citation"] == "chart-report.pdf, p. 1"
        and described["boxes"][0]["page"] == 1
        and len(described["boxes"][0]["box"]) == 4
    )
    assert described["headings"] == ["Quarterly Sales Report 2024"] and described["text"].startswith(
        "# Quarterly Sales Report 2024\n\n"
    )
    with pytest.raises(
        AppError, match="A chunk of 8 tokens cannot hold a heading and a word; give at least 16 tokens."
    ):
        client.predict(file=handle_file(str(REPORT_PDF)), chunk_tokens=8, api_name="/read_file")


def test_render_page_returns_the_pages_png(client):
    path = client.predict(file=handle_file(str(REPORT_PDF)), page=2, api_name="/render_page")
    with Image.open(path) as image:
        assert image.format == "PNG" and abs(image.width - 1275) <= 2 and abs(image.height - 1650) <= 2


def test_describe_answers_the_question_with_the_vision_model(app, client):
    answer = client.predict(
        file=handle_file(str(REPORT_PDF)),
        page=2,
        question="What are the exact percentages in the pie chart?",
        api_name="/describe",
    )
    assert answer == PIE_ANSWER
    asked = [r.json for r in app.fake.calls("/v1/chat/completions") if "percentages" in json.dumps(r.json)]
    assert asked and asked[-1]["model"] == VISION_MODEL
    assert any(
        part.get("type") == "image_url"
        for message in asked[-1]["messages"]
        if isinstance(message["content"], list)
        for part in message["content"]
    )


def test_describe_says_why_a_page_without_figures_has_no_description(client):
    with pytest.raises(AppError, match="page 4: it has no figures .* Ask a question to have the page looked at anyway"):
        client.predict(file=handle_file(str(REPORT_PDF)), page=4, question="", api_name="/describe")


def test_transcribe_returns_timed_segments(client):
    transcript = client.predict(file=handle_file(str(CORPUS / "faster-whisper" / "jfk.flac")), api_name="/transcribe")
    assert transcript["language"] == "en" and 10 < transcript["duration"] < 12
    assert_says(transcript["text"], "ask not what your country can do for you")
    assert transcript["segments"] and all(s["end"] > s["start"] >= 0 for s in transcript["segments"])
    assert list(transcript) == ["name", *(field.name for field in dataclasses.fields(Transcript))]  # the library's
    assert all(
        list(segment) == [field.name for field in dataclasses.fields(Segment)] for segment in transcript["segments"]
    )


def test_hotwords_spell_the_name_in_transcribe_and_read_file(client, tmp_path):
    recording = handle_file(str(fixtures.said(tmp_path / "standup.wav", fixtures.KUBERNETES)))
    assert "Kubernetes" not in client.predict(file=recording, api_name="/transcribe")["text"]
    steered = client.predict(file=recording, hotwords="Kubernetes", api_name="/transcribe")["text"]
    assert_same_words(steered, fixtures.KUBERNETES)
    assert "Kubernetes" in steered  # spelled as the hotword spells it
    assert (
        "on Kubernetes last week"
        in client.predict(file=recording, hotwords="Kubernetes", api_name="/read_file")["text"]
    )
    with pytest.raises(AppError, match="The hotwords are 600 characters long; give at most 500"):
        client.predict(file=recording, hotwords="x" * 600, api_name="/transcribe")


def test_a_bad_file_comes_back_as_its_readers_message(client, tmp_path):
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(REPORT_PDF.read_bytes()[:400])
    with pytest.raises(AppError, match="broken.pdf is damaged"):
        read(client, broken)
    empty = tmp_path / "empty.pdf"
    empty.write_bytes(b"")
    with pytest.raises(AppError, match=r"empty.pdf is empty \(0 bytes\)"):
        read(client, empty)
    with pytest.raises(AppError, match="Page 9 is outside chart-report.pdf"):
        client.predict(handle_file(str(REPORT_PDF)), 9, api_name="/render_page")
    over = tmp_path / "over.pdf"
    over.write_bytes(REPORT_PDF.read_bytes() + b"0" * (MAX_FILE_MB * 1024 * 1024))
    with pytest.raises(AppError, match=f"over.pdf is 5.0 MB; the limit is {MAX_FILE_MB} MB"):
        read(client, over)
    with pytest.raises(AppError, match="chart-report.pdf is pdf, not audio"):
        client.predict(handle_file(str(REPORT_PDF)), api_name="/transcribe")


def test_a_server_path_is_never_read(app, client):
    with pytest.raises(AppError):
        client.predict("/etc/passwd", None, None, "", False, api_name="/read_file")
    # Past the client, straight to the server: a file reference that was not uploaded is refused,
    # without the path Gradio resolved it to (a relative one named the server's working directory).
    for path in ("/etc/passwd", "report.pdf", "../report.pdf"):
        file_data = {"path": path, "meta": {"_type": "gradio.FileData"}}
        event = httpx.post(
            f"{app.url}gradio_api/call/read_file",
            json={
                "data": [file_data, None, None, "", False, False, False, "", "", "", None, "", 0, "openai", "", None]
            },
        ).json()
        result = httpx.get(f"{app.url}gradio_api/call/read_file/{event['event_id']}", timeout=30).text
        assert "event: error" in result and json.dumps(NOT_UPLOADED) in result
        assert "root:" not in result and "/tmp" not in result and "readlens-run" not in result


def test_an_upload_read_refused_or_cut_off_leaves_no_file_behind(app, client, tmp_path):
    """Gradio's File left an empty temporary file in the upload folder for each file it was given,
    and removed an upload's part only after a refusal of its own: a client gone mid-upload left it
    (0 bytes, or as far as it came) for good."""
    uploads = app.temp / "gradio"
    strays = lambda: [path for path in uploads.iterdir() if path.is_file()]  # finished uploads go to subfolders
    over = tmp_path / "over-again.pdf"
    over.write_bytes(REPORT_PDF.read_bytes() + b"0" * (MAX_FILE_MB * 1024 * 1024))
    with pytest.raises(AppError, match="over-again.pdf is 5.0 MB"):
        read(client, over)
    assert read(client, REPORT_PDF, page_end=1)["pages"] and strays() == []
    address = urlparse(app.url)
    part = b'--cut\r\nContent-Disposition: form-data; name="files"; filename="big.pdf"\r\n\r\n%PDF-1.7\n'
    with socket.create_connection((address.hostname, address.port)) as connection:
        connection.sendall(
            b"POST /gradio_api/upload HTTP/1.1\r\nHost: app\r\nContent-Type: multipart/form-data; boundary=cut\r\n"
            b"Content-Length: %d\r\n\r\n%s" % (60 << 20, part + b"0" * 4096)
        )
        deadline = time.monotonic() + BOUNDED_SECONDS
        while not strays() and time.monotonic() < deadline:  # the part has reached the server
            time.sleep(0.05)
        assert strays(), "the upload had begun"
    while strays() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert strays() == []


def test_six_clients_reading_different_files_at_once_are_all_served(app, tmp_path):
    files = [
        REPORT_PDF,
        CORPUS / "markitdown/test.pdf",
        CORPUS / "pdfplumber/issue-140-example.pdf",
        CORPUS / "pdfplumber/nics-background-checks-2015-11.pdf",
        ROOT / "assets/diagram.png",
        CORPUS / "docling/webp-test.webp",
    ]
    copies = []
    for index, source in enumerate(files):  # a byte after the end makes each file new to the cache
        target = tmp_path / f"concurrent-{index}{source.suffix}"
        shutil.copy(source, target)
        if source.suffix == ".pdf":
            target.write_bytes(target.read_bytes() + b"\n% concurrent test\n")
        copies.append(target)
    app.fake.delay, app.fake.in_flight_peak = 0.3, 0
    try:
        with ThreadPoolExecutor(len(copies)) as pool:
            # A question sends every page to the model, figures or not: many calls at once.
            readings = list(
                pool.map(lambda path: read(Client(app.url, verbose=False), path, describe="What is the total?"), copies)
            )
    finally:
        app.fake.delay = 0.0
    assert [reading["name"] for reading in readings] == [path.name for path in copies]
    assert [reading["kind"] for reading in readings] == ["pdf"] * 4 + ["image"] * 2
    assert all(page["description"] == GENERIC_ANSWER for reading in readings for page in reading["pages"])
    assert app.fake.in_flight_peak >= 3, "the queue served the clients one after another"


def test_the_key_never_reaches_a_result_or_the_log(app, client):
    reading = read(client, REPORT_PDF, multimodal=True)
    assert SECRET_KEY not in json.dumps(reading)
    headers = {name.lower(): value for name, value in app.fake.calls("/v1/chat/completions")[0].headers.items()}
    assert headers["authorization"] == f"Bearer {SECRET_KEY}"  # the key is used, and only there
    assert SECRET_KEY not in app.log.read_text()


def test_uploads_over_the_server_limit_are_refused(app, tmp_path):
    big = tmp_path / "big.pdf"
    big.write_bytes(REPORT_PDF.read_bytes() + b"0" * (2 * MAX_FILE_MB * 1024 * 1024))
    response = httpx.post(f"{app.url}gradio_api/upload", files={"files": ("big.pdf", big.read_bytes())}, timeout=30)
    assert response.status_code == 413


def test_the_app_removes_its_temporary_files_when_stopped(tmp_path):
    temp = tmp_path / "temp"
    temp.mkdir()
    url, process = launch_app(
        {
            "READLENS_CACHE_DIR": str(tmp_path / "cache"),
            "VISION_PROVIDER": "none",
            "TMPDIR": str(temp),
            "GRADIO_TEMP_DIR": str(temp / "gradio"),
        },
        ARTIFACTS / "app-stopped.log",
    )
    try:
        Client(url, verbose=False).predict(file=handle_file(str(REPORT_PDF)), page=1, api_name="/render_page")
        assert list(temp.glob("readlens-app-*/*/*.png")), "the page image is written under the app's temporary folder"
    finally:
        stop(process)  # SIGTERM, as a container or a Space stops it
    assert process.returncode == 0
    assert not list(temp.glob("readlens-app-*"))
