"""The app's MCP server through the official ``mcp`` client over streamable HTTP, against the same
``python app.py`` the API tests use."""

from __future__ import annotations

import ast
import asyncio
import base64
import io
import time

import httpx
import pypdfium2 as pdfium
import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.types import CallToolResult
from PIL import Image

from testkit import CORPUS, ROOT
from testkit.fixtures.audio import KUBERNETES, said
from tests.loopback import Site
from tests.model_output import assert_same_words, assert_says
from tests.test_ui_server import MAX_FILE_MB, PIE_ANSWER

REPORT_PDF = ROOT / "assets" / "chart-report.pdf"
TOOLS = {"read_file", "render_page", "describe", "transcribe", "outline", "find"}
FILE_PARAMETERS = {"file", "file_base64", "file_name", "url"}


def mcp_url(app) -> str:
    return f"{app.url}gradio_api/mcp/"


def in_session(app, action):
    """Run ``action(session)`` in a fresh MCP session with the app, as an agent's host does."""

    async def run():
        async with streamable_http_client(mcp_url(app)) as (read, write, _):
            async with ClientSession(read, write) as session:
                await session.initialize()
                return await action(session)

    return asyncio.run(run())


def call(app, tool: str, **arguments) -> CallToolResult:
    return in_session(app, lambda session: session.call_tool(tool, arguments))


def inline(path, **more) -> dict:
    return {"file_base64": base64.b64encode(path.read_bytes()).decode("ascii"), "file_name": path.name, **more}


def answer(result: CallToolResult) -> dict:
    """A JSON output as Gradio's MCP server writes it: the Python literal of the object."""
    assert not result.isError, result.content[0].text
    return ast.literal_eval(result.content[0].text)


def error(result: CallToolResult) -> str:
    assert result.isError
    return result.content[0].text


def test_the_url_is_printed_at_start(app):
    deadline = time.monotonic() + 30  # Gradio prints it just after the app starts answering
    while f"Streamable HTTP URL: {mcp_url(app)}" not in app.log.read_text():
        assert time.monotonic() < deadline, app.log.read_text()
        time.sleep(0.2)


def test_the_four_tools_are_listed_with_every_parameter_documented(app):
    tools = {tool.name: tool for tool in in_session(app, lambda session: session.list_tools()).tools}
    assert set(tools) == TOOLS
    parameters = {name: tool.inputSchema["properties"] for name, tool in tools.items()}
    assert (
        set(parameters["read_file"])
        == {
            "page_start",
            "page_end",
            "describe",
            "multimodal",
            "document",
            "line_numbers",
            "hotwords",
            "max_tokens",
            "cursor",
            "chunk_tokens",
            "provider",
            "files",  # several files' public URLs
        }
        | FILE_PARAMETERS
    )
    assert set(parameters["render_page"]) == {"page"} | FILE_PARAMETERS
    assert set(parameters["describe"]) == {"page", "question"} | FILE_PARAMETERS
    assert set(parameters["transcribe"]) == {"hotwords"} | FILE_PARAMETERS
    for name, tool in tools.items():
        assert len(tool.description) > 80 and not tool.inputSchema.get("required"), (
            name
        )  # a file comes one way or the other
        for parameter, schema in parameters[name].items():
            assert len(schema["description"]) > 20, f"{name}.{parameter} is not documented"
    assert "base64" in parameters["read_file"]["file_base64"]["description"]
    assert tools["read_file"].description.startswith("Read a file the way a language model receives it")


def test_a_pdf_sent_as_base64_is_read_and_its_temporary_file_removed(app):
    reading = answer(call(app, "read_file", **inline(REPORT_PDF, page_start=1, page_end=3)))
    assert (reading["name"], reading["kind"], reading["page_count"]) == ("chart-report.pdf", "pdf", 4)
    assert [page["number"] for page in reading["pages"]] == [1, 2, 3]
    assert (
        "text" not in reading["pages"][0] and "tables" not in reading["pages"][2]
    )  # the answer's text holds them, once
    assert "\n| Region | Q1 | Q2 | Q3 | Q4 |\n" in reading["text"]
    assert reading["text"].startswith("[PAGE 1]\n# Quarterly Sales Report 2024")
    assert reading["tokens"]["openai"]["exact"] and reading["tokens"]["openai"]["count"] > 100
    assert not list(app.temp.glob("readlens-inline-*")), "the inline file is removed once read"


def test_multimodal_over_mcp_leaves_the_images_to_render_page(app):
    reading = answer(call(app, "read_file", **inline(REPORT_PDF, page_start=2, page_end=2, multimodal=True)))
    assert "messages" not in reading and "VISUAL CONTENT" not in reading["text"]
    assert reading["tokens"]["openai"]["count"] > 765  # the text and the page's image, 2 x 2 tiles
    result = call(app, "render_page", **inline(REPORT_PDF, page=2))
    image = next(part for part in result.content if part.type == "image")
    assert image.mimeType == "image/png"
    with Image.open(io.BytesIO(base64.b64decode(image.data))) as png:
        assert abs(png.width - 1275) <= 2 and abs(png.height - 1650) <= 2


def test_the_pdf_itself_comes_back_when_asked(app):
    reading = answer(call(app, "read_file", **inline(REPORT_PDF, page_start=2, page_end=3, document=True)))
    note, pdf = reading["document_messages"]
    assert note["text"].startswith("[DOCUMENT: chart-report.pdf, pages 2-3 of 4")
    prefix, data = pdf["file"]["file_data"].split(",", 1)
    assert prefix == "data:application/pdf;base64" and len(pdfium.PdfDocument(base64.b64decode(data))) == 2


def test_chunks_come_back_over_mcp_when_asked(app):
    chunks = answer(call(app, "read_file", **inline(REPORT_PDF, chunk_tokens=256)))["chunks"]
    assert {chunk["kind"] for chunk in chunks} == {"text", "figure", "table"} and all(
        chunk["tokens"] <= 256 for chunk in chunks
    )
    assert chunks[0]["citation"] == "chart-report.pdf, p. 1" and chunks[0]["headings"] == [
        "Quarterly Sales Report 2024"
    ]
    table = next(chunk for chunk in chunks if chunk["kind"] == "table")
    assert table["pages"] == [3] and "| North | 120 | 135 | 150 | 170 |" in table["text"]
    assert "chunks" not in answer(call(app, "read_file", **inline(REPORT_PDF, page_end=1)))
    assert error(call(app, "read_file", **inline(REPORT_PDF, chunk_tokens=8))).startswith(
        "A chunk of 8 tokens cannot hold a heading and a word"
    )


def test_a_url_is_fetched_by_the_app_and_named_in_the_answer(app):
    """The app's URL_ALLOW names loopback (tests.test_ui_server), where the test serves the report."""
    with Site({"/report.pdf": (200, {"Content-Type": "application/pdf"}, REPORT_PDF.read_bytes())}) as site:
        reading = answer(call(app, "read_file", url=site.url("/report.pdf"), page_end=1))
        assert reading["name"] == site.url("/report.pdf") and reading["page_count"] == 4
        assert reading["text"].startswith("[PAGE 1]\n# Quarterly Sales Report 2024")
        refused = error(call(app, "read_file", url="ftp://example.com/report.pdf"))
        assert "ReadLens fetches only http:// and https:// URLs, not ftp://" in refused


def test_a_url_given_as_the_file_is_fetched_within_the_readers_rules_not_by_gradio(app):
    """Gradio's own downloader refuses loopback and holds any body whole; ReadLens's fetch reaches the
    app's URL_ALLOW (loopback here) and refuses a body past MAX_FILE_MB by its Content-Length."""
    big = str((MAX_FILE_MB + 1) << 20)
    routes = {
        "/report.pdf": (200, {"Content-Type": "application/pdf"}, REPORT_PDF.read_bytes()),
        "/big.pdf": (200, {"Content-Type": "application/pdf", "Content-Length": big}, b""),
    }
    with Site(routes) as site:
        reading = answer(call(app, "read_file", file=site.url("/report.pdf"), page_end=1))
        assert reading["name"] == "report.pdf" and reading["text"].startswith("[PAGE 1]\n# Quarterly Sales Report 2024")
        assert site.hits["/report.pdf"] == 1
        refused = error(call(app, "read_file", file=site.url("/big.pdf")))
        assert f"the limit is {MAX_FILE_MB:g} MB (MAX_FILE_MB)" in refused


def test_a_data_url_with_line_breaks_is_accepted(app):
    wrapped = "\n".join(
        inline(REPORT_PDF)["file_base64"][i : i + 76] for i in range(0, 200_000, 76)
    )  # as the base64 command writes it
    reading = answer(
        call(app, "read_file", file_base64=f"data:application/pdf;base64,{wrapped}", file_name="report.pdf", page_end=1)
    )
    assert reading["name"] == "report.pdf" and reading["text"].startswith("[PAGE 1]\n# Quarterly Sales Report 2024")


def test_describe_and_transcribe_through_mcp(app):
    assert (
        call(app, "describe", **inline(REPORT_PDF, page=2, question="What are the exact percentages in the pie chart?"))
        .content[0]
        .text
        == PIE_ANSWER
    )
    transcript = answer(call(app, "transcribe", **inline(CORPUS / "faster-whisper" / "jfk.flac")))
    assert transcript["name"] == "jfk.flac" and transcript["language"] == "en" and 10 < transcript["duration"] < 12
    assert_says(transcript["text"], "ask not what your country can do for you")


def test_transcribe_takes_hotwords_through_mcp(app, tmp_path):
    recording = inline(said(tmp_path / "standup.wav", KUBERNETES))
    assert "Kubernetes" not in answer(call(app, "transcribe", **recording))["text"]
    steered = answer(call(app, "transcribe", **recording, hotwords="Kubernetes"))["text"]
    assert_same_words(steered, KUBERNETES)
    assert "Kubernetes" in steered  # spelled as the hotword spells it
    assert error(call(app, "transcribe", **recording, hotwords="x" * 600)).startswith(
        "The hotwords are 600 characters long"
    )


def test_bad_input_comes_back_as_a_clear_error(app, tmp_path):
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(REPORT_PDF.read_bytes()[:400])
    assert error(call(app, "read_file", **inline(broken))).startswith(
        "broken.pdf is damaged: the PDF's data cannot be read, or the file is incomplete."
    )
    big = base64.b64encode(REPORT_PDF.read_bytes() + b"0" * (MAX_FILE_MB * 1024 * 1024)).decode("ascii")
    assert (
        error(call(app, "read_file", file_base64=big, file_name="big.pdf"))
        == f"big.pdf is 5.0 MB; the limit is {MAX_FILE_MB} MB (MAX_FILE_MB)."
    )
    bigger = base64.b64encode(b"0" * (2 * MAX_FILE_MB * 1024 * 1024 + 100_000)).decode(
        "ascii"
    )  # past twice the limit: refused unread
    with pytest.raises(BaseExceptionGroup) as refused:
        call(app, "read_file", file_base64=bigger, file_name="bigger.pdf")
    assert refused.group_contains(httpx.HTTPStatusError, match="413 Request Entity Too Large")
    assert "is not valid base64" in error(
        call(app, "read_file", file_base64="%PDF-1.4 not encoded", file_name="raw.pdf")
    )
    assert "is not valid base64" in error(
        call(app, "read_file", file_base64="JVBERi0xLjQ=é", file_name="accent.pdf")
    )  # not ASCII
    assert (
        error(call(app, "transcribe", **inline(REPORT_PDF)))
        == "chart-report.pdf is pdf, not audio; /transcribe reads audio files."
    )
    assert error(call(app, "read_file")).startswith("No file was sent.")
    # A file given by its URL is fetched as any URL is (URL_ALLOW names loopback here): the app's own file
    # route hands out nothing outside its folders.
    passwd = error(call(app, "read_file", file=f"{app.url}gradio_api/file=/etc/passwd"))
    assert passwd.endswith("/etc/passwd could not be fetched: the server answered HTTP 403 Forbidden.")
    assert not list(app.temp.glob("readlens-inline-*"))
