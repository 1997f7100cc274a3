"""Public mode against real apps: ``python app.py`` with READLENS_PUBLIC=true, and one on a
Hugging Face Space (SPACE_ID set), through gradio_client, the MCP client and the browser."""

from __future__ import annotations

import asyncio
import base64
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

import gradio as gr
import httpx
import pytest
from gradio_client import Client, handle_file
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from playwright.sync_api import expect, sync_playwright

from testkit import ROOT
from testkit.fake_openai import FakeOpenAI
from testkit.server import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, UPLOAD, launch_app, stop
from tests.test_browser import WAIT_MS, page_images, shoot
from tests.test_ui_server import GENERIC_ANSWER, answer, running_app

REPORT_PDF = ROOT / "assets" / "chart-report.pdf"
CALLS_PER_MINUTE = 3
LIMITED = re.compile(
    r"Not described: each visitor may ask the vision model 3 times a minute here \(public mode\)\. "
    r"Try again in \d+ s; the page's text is here already\."
)


@dataclass
class PublicApp:
    url: str
    fake: FakeOpenAI
    temp: Path  # the app's TMPDIR; Gradio keeps uploads under temp/gradio

    def uploads(self, name: str) -> list[Path]:
        return list((self.temp / "gradio").rglob(name))


def start(tmp_path_factory, label: str, environment: dict[str, str]):
    fake = FakeOpenAI()
    fake.routes["/v1/chat/completions"] = answer
    fake.start()
    folder = tmp_path_factory.mktemp(label)
    url, process = launch_app(
        {
            "READLENS_CACHE_DIR": str(folder / "cache"),
            "TMPDIR": str(folder),
            "VISION_PROVIDER": "openai",
            "VISION_BASE_URL": fake.base_url,
            "VISION_MODEL": "test-vision",
            **environment,
        },
        ARTIFACTS / f"app-{label}.log",
    )
    return PublicApp(url, fake, folder), process


@pytest.fixture(scope="module")
def public(tmp_path_factory):
    app, process = start(
        tmp_path_factory,
        "public",
        {  # the tests stand for a proxy on the loopback address, naming each visitor in X-Forwarded-For
            "READLENS_PUBLIC": "true",
            "VISION_CALLS_PER_MINUTE": str(CALLS_PER_MINUTE),
            "FORWARDED_ALLOW_IPS": "127.0.0.1",
        },
    )
    yield app
    stop(process)
    app.fake.stop()


def copy_of(source: Path, tag: str) -> Path:
    """A copy under a name of its own, with a byte after the end: new to the app and its cache."""
    target = Path(tempfile.mkdtemp()) / f"{source.stem}-{tag}{source.suffix}"
    target.write_bytes(source.read_bytes() + f"\n% {tag}\n".encode())
    return target


def read(client: Client, path: Path, **options) -> dict:
    return client.predict(file=handle_file(str(path)), api_name="/read_file", **options)


def test_an_upload_is_deleted_once_read_and_the_reading_comes_back(public):
    pdf, broken = copy_of(REPORT_PDF, "api"), copy_of(REPORT_PDF, "broken")
    broken.write_bytes(REPORT_PDF.read_bytes()[:400])
    client = Client(public.url, verbose=False)
    reading = read(client, pdf, page_end=1)
    assert reading["text"].startswith("[PAGE 1]\n# Quarterly Sales Report 2024")
    assert public.uploads(pdf.name) == []
    with pytest.raises(Exception, match="is damaged: the PDF's data cannot be read"):
        read(client, broken)
    assert public.uploads(broken.name) == []
    image = client.predict(file=handle_file(str(pdf)), page=2, api_name="/render_page")
    assert Path(image).read_bytes().startswith(b"\x89PNG") and public.uploads(pdf.name) == []


@pytest.mark.browser
def test_an_examples_copy_is_never_deleted(public):
    """Gradio keeps a file in a folder named by its content: an example picked on the page is copied there, and
    its bytes sent through the API land on that same copy, which every visitor's page uses."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.set_default_timeout(WAIT_MS)
        page.goto(public.url)
        page.get_by_label("Multimodal model").check()  # nothing described: the visitor's vision calls are kept
        page.locator("#pages-examples").get_by_role("button", name=f"Try {REPORT_PDF.name}").click()
        expect(page.locator("#status")).to_contain_text("1 of 1 files read", timeout=WAIT_MS)
        browser.close()
    examples = public.uploads(REPORT_PDF.name)
    assert examples  # the example's copy in Gradio's cache, kept once read
    read(Client(public.url, verbose=False), REPORT_PDF, page_end=1)
    assert public.uploads(REPORT_PDF.name) == examples and all(path.is_file() for path in examples)


def test_outside_public_mode_uploads_stay_in_gradios_cache():
    """The same check finds the upload when the app keeps it, so the one above is no accident."""
    app, pdf = running_app(), copy_of(REPORT_PDF, "kept")
    read(Client(app.url, verbose=False), pdf, page_end=1)
    assert len(list((app.temp / "gradio").rglob(pdf.name))) == 1


def test_each_visitor_may_make_a_few_vision_calls_a_minute_and_gets_the_pages_anyway(public):
    pdf, question = copy_of(REPORT_PDF, "limit"), "What is the total?"  # a question is asked of all four pages
    first = Client(public.url, verbose=False, headers={"X-Forwarded-For": "198.51.100.10"})
    before = len(public.fake.calls("/v1/chat/completions"))
    reading = read(first, pdf, describe=question)
    assert len(public.fake.calls("/v1/chat/completions")) - before == CALLS_PER_MINUTE == reading["usage"]["calls"]
    assert all(page["text"] for page in reading["pages"])
    refused = [page for page in reading["pages"] if page["description"] is None]
    assert len(refused) == 1 and LIMITED.fullmatch(refused[0]["error"])
    assert any(LIMITED.search(warning) for warning in reading["warnings"])
    # Another visitor has an allowance of its own; what the first one paid for comes from the cache, and
    # its reading does not say so (hits count as the calls they stood in for: no oracle between visitors).
    before = len(public.fake.calls("/v1/chat/completions"))
    other = read(
        Client(public.url, verbose=False, headers={"X-Forwarded-For": "198.51.100.11"}), pdf, describe=question
    )
    assert len(public.fake.calls("/v1/chat/completions")) - before == 1
    assert (other["usage"]["cache_hits"], other["usage"]["calls"]) == (0, 4) and all(
        page["description"] for page in other["pages"]
    )
    again = read(first, pdf, describe=question)
    assert len(public.fake.calls("/v1/chat/completions")) - before == 1
    assert again["usage"]["calls"] == 4 and not any(page["error"] for page in again["pages"]), (
        "cache hits are not charged to the allowance"
    )
    # Over MCP the visitor is the address Gradio's MCP server forwards: the first visitor is still over its limit.
    with pytest.raises(Exception, match=LIMITED.pattern):
        first.predict(file=handle_file(str(pdf)), page=1, question="What is the title?", api_name="/describe")
    assert LIMITED.fullmatch(describe_over_mcp(public, "198.51.100.10", pdf))
    assert describe_over_mcp(public, "198.51.100.12", pdf) == GENERIC_ANSWER


def describe_over_mcp(app: PublicApp, address: str, pdf: Path) -> str:
    async def run():
        async with httpx.AsyncClient(headers={"X-Forwarded-For": address}, timeout=120) as http:
            async with streamable_http_client(f"{app.url}gradio_api/mcp/", http_client=http) as (
                read_stream,
                write_stream,
                _,
            ):
                async with ClientSession(read_stream, write_stream) as session:
                    await session.initialize()
                    return await session.call_tool(
                        "describe",
                        {
                            "file_base64": base64.b64encode(pdf.read_bytes()).decode(),
                            "file_name": pdf.name,
                            "page": 1,
                            "question": "Who wrote it?",
                        },
                    )

    return asyncio.run(run()).content[0].text


@pytest.mark.browser
def test_in_the_browser_the_cache_cannot_be_cleared_and_a_deleted_upload_keeps_its_pages(public):
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.set_default_timeout(WAIT_MS)
        page.goto(public.url)
        expect(page.locator("#public-mode")).to_contain_text(
            "each upload is deleted from the server once read", timeout=WAIT_MS
        )
        page.get_by_text("Cache", exact=True).click()
        expect(page.get_by_text("Cache at")).to_contain_text("MB")
        expect(page.get_by_role("button", name="Clear cache")).to_have_count(0)
        pdf = copy_of(REPORT_PDF, "public-browser")
        page.set_input_files(UPLOAD, str(pdf))
        expect(page.locator("#status")).to_contain_text("1 of 1 files read", timeout=WAIT_MS)
        expect(page_images(page, pdf.name)).to_have_count(4)
        expect(page.get_by_text(GENERIC_ANSWER).first).to_be_visible()
        assert public.uploads(pdf.name) == []
        page.get_by_label("Multimodal model").check()
        expect(page.get_by_text(f"{pdf.name} was deleted from the server once read (public mode)")).to_be_visible(
            timeout=WAIT_MS
        )
        expect(page_images(page, pdf.name)).to_have_count(4)
        shoot(page, "09-public-mode")
        # An example is not a visitor's upload: it stays, and is read again when a control changes.
        page.locator("#file-list").get_by_role("button", name="Remove").click()
        page.locator("#pages-examples").get_by_role("button", name=f"Try {REPORT_PDF.name}").click()
        expect(page_images(page, REPORT_PDF.name)).to_have_count(4, timeout=WAIT_MS)
        page.get_by_label("Last page").fill("2")
        expect(page_images(page, REPORT_PDF.name)).to_have_count(2, timeout=WAIT_MS)
        expect(page.locator("#status")).to_contain_text("1 of 1 files read")
        expect(page.get_by_text("was deleted from the server")).to_have_count(0)
        browser.close()


def test_on_a_space_public_mode_is_on_by_itself(tmp_path_factory):
    app, process = start(tmp_path_factory, "space", {"SPACE_ID": "someone/readlens"})
    try:
        pdf = copy_of(REPORT_PDF, "space")
        assert read(Client(app.url, verbose=False), pdf, page_end=1)["page_count"] == 4
        assert app.uploads(pdf.name) == []
        assert "each visitor may ask the vision model 30 times a minute" in httpx.get(app.url, timeout=30).text
    finally:
        stop(process)
        app.fake.stop()
    shutil.rmtree(app.temp, ignore_errors=True)


def test_in_public_mode_the_url_parameter_reads_and_refuses_for_its_own_reason(tmp_path, monkeypatch):
    """``/read_file``'s (and MCP's) ``url`` as a public app reads it: a name that resolves to a public
    address is read (the connection is led to the test's loopback server, as a route would be) and
    nothing is discarded for it; loopback is refused by the public mode's own rule."""
    from readers import Services
    from readers.intake import fetch
    from testkit import make_settings
    from tests.loopback import Site, resolver
    from ui.api import Endpoints

    connect = fetch.socket.create_connection
    with Site({"/report.pdf": (200, {"Content-Type": "application/pdf"}, REPORT_PDF.read_bytes())}) as site:
        loopback = ("127.0.0.1", site.server.server_address[1])
        monkeypatch.setattr(fetch, "resolve", resolver({"reports.test": ["93.184.215.14"]}))
        monkeypatch.setattr(
            fetch.socket,
            "create_connection",
            lambda address, *rest: connect(loopback if address[0] == "93.184.215.14" else address, *rest),
        )
        discarded: list = []
        endpoints = Endpoints(Services(make_settings(tmp_path / "cache", public=True)), tmp_path, discarded.append)
        reading = endpoints.read_file(url=f"http://reports.test:{loopback[1]}/report.pdf", page_end=1)
        assert reading["name"] == f"http://reports.test:{loopback[1]}/report.pdf" and reading["page_count"] == 4
        assert site.hits["/report.pdf"] == 1 and discarded == []
        with pytest.raises(gr.Error) as refused:
            endpoints.read_file(url=site.url("/report.pdf"))
        assert "is a loopback address (this machine); this server reads only public addresses" in refused.value.message
        assert site.hits["/report.pdf"] == 1 and discarded == []
