"""The app's handlers as plain functions: no browser, no server, real files and real readers."""

from __future__ import annotations

import base64
import dataclasses
import json
import shutil
import tempfile
import zipfile
from pathlib import Path
from types import SimpleNamespace

import pypdfium2 as pdfium
import pytest

from readers import ReadOptions, Services, read_file
from readers.intake import fetch
from readers.models import Segment
from readers.payload.tokens import anthropic_image_tokens, png_size, text_tokens
from testkit import CORPUS, ROOT, fixtures, make_settings
from tests.loopback import Site, fence, resolver
from ui.handlers import (
    MAX_FILES,
    Entry,
    backends_line,
    cache_summary,
    clear_cache,
    discard_upload,
    parse_page,
    read_uploads,
    triage,
    visitor,
)
from ui.pages import transcript_table
from ui.payload import (
    PROVIDER_NAMES,
    abbreviate,
    document_payloads,
    estimate,
    estimate_table,
    message_payload,
    text_payload,
)
from ui.payload_tab import payload_views
from ui.report import citation, report_markdown, write_payload, write_report

ASSETS = ROOT / "assets"
REPORT_PDF = ASSETS / "chart-report.pdf"


def upload(tmp_path: Path, source: Path, name: str | None = None) -> str:
    """A copy under its own folder, as Gradio keeps uploads (the last path part is the original name)."""
    target = Path(tempfile.mkdtemp(dir=tmp_path)) / (name or source.name)
    shutil.copy(source, target)
    return str(target)


def broken_pdf(tmp_path: Path) -> str:
    target = tmp_path / "broken" / "broken.pdf"
    target.parent.mkdir()
    target.write_bytes(REPORT_PDF.read_bytes()[:400])
    return str(target)


def last(iterator):
    steps = list(iterator)
    return steps, steps[-1]


def test_web_addresses_are_read_after_the_uploads_each_named_by_its_url(tmp_path, monkeypatch):
    """The address box: each address is fetched within the rules (here a loopback server that
    URL_ALLOW names, and a private address refused without a packet sent), then read as an upload."""
    monkeypatch.setattr(fetch, "resolve", resolver({"intranet.test": ["10.1.2.3"]}))
    refused = fence(monkeypatch)
    services = Services(make_settings(tmp_path / "cache", url_allow=("127.0.0.1",)))
    with Site({"/report.pdf": (200, {"Content-Type": "application/pdf"}, REPORT_PDF.read_bytes())}) as site:
        url = site.url("/report.pdf")
        picture = upload(tmp_path, ASSETS / "diagram.png")
        _, final = last(
            read_uploads([picture], ReadOptions(multimodal=False), services, addresses=f"{url}\nintranet.test/x")
        )
    assert [entry.name for entry in final] == ["diagram.png", url, "https://intranet.test/x"]
    assert final[1].reading.kind == "pdf" and final[1].reading.name == url and final[1].done
    assert final[1].reading.pages[0].image is not None  # the app shows every page's image
    assert final[2].error.startswith("https://intranet.test/x is refused: intranet.test is at 10.1.2.3, a private")
    assert refused == [] and site.hits["/report.pdf"] == 1


def test_triage_refuses_the_eleventh_file_and_oversized_ones_by_name(tmp_path):
    paths = [upload(tmp_path, ASSETS / "diagram.png", f"picture-{n}.png") for n in range(MAX_FILES + 2)]
    big = tmp_path / "big" / "huge.pdf"
    big.parent.mkdir()
    big.write_bytes(b"%PDF-1.4\n" + b"0" * 200_000)
    accepted, refused = triage([str(big), *paths], max_bytes=100_000)
    assert accepted == paths[: MAX_FILES - 1]
    assert [entry.name for entry in refused] == ["huge.pdf", "picture-9.png", "picture-10.png", "picture-11.png"]
    assert "huge.pdf was not read" in refused[0].error and "MB" in refused[0].error
    assert f"at most {MAX_FILES} files" in refused[1].error


@pytest.mark.parametrize("value, expected", [(None, None), ("", None), (0, None), (3, 3), (3.0, 3), ("7", 7)])
def test_page_boxes_treat_empty_and_zero_as_not_set(value, expected):
    assert parse_page(value) == expected


def test_first_page_is_yielded_before_the_rest(tmp_path, services):
    steps, final = last(read_uploads([upload(tmp_path, REPORT_PDF)], ReadOptions(multimodal=False), services))
    first = steps[0][0]
    assert first.reading is not None and [p.number for p in first.reading.pages] == [1] and not first.done
    assert [p.number for p in final[0].reading.pages] == [1, 2, 3, 4] and final[0].done
    assert "Quarterly Sales Report 2024" in final[0].reading.pages[0].text
    assert all(page.image.startswith(b"\x89PNG") for page in final[0].reading.pages)
    assert len({id(step) for step in steps}) == len(steps), "each step must be a new list so Gradio sees a change"


def test_the_first_page_shows_before_its_description_and_the_end_is_what_read_file_returns(tmp_path, fake_openai):
    services = Services(
        make_settings(
            tmp_path / "cache",
            vision_provider="openai",
            vision_base_url=fake_openai.base_url,
            vision_api_key="test-key",
            vision_model="test-vision",
        )
    )
    path = upload(tmp_path, REPORT_PDF)
    steps, final = last(read_uploads([path], ReadOptions(2, 3, multimodal=False), services))
    early = steps[0][0].reading
    assert [p.number for p in early.pages] == [2] and early.pages[0].description is None and not early.multimodal
    whole = final[0].reading
    # Page 2's pie chart is described afresh (not marked cached); page 3 is a table and text only.
    assert [p.description_source for p in whole.pages] == ["vision:test-vision", "none: text only"]
    again = read_file(path, options=ReadOptions(2, 3, name=Path(path).name), services=services)
    assert again.as_text() == whole.as_text()


def test_progress_names_the_file_and_the_stage(tmp_path, services):
    seen = []
    list(
        read_uploads(
            [upload(tmp_path, REPORT_PDF)],
            ReadOptions(2, 3, multimodal=False),
            services,
            lambda *args: seen.append(args),
        )
    )
    assert ("chart-report.pdf: pages rendered", 2, 2) in seen


def test_a_broken_file_is_reported_and_the_others_still_read(tmp_path, services):
    paths = [broken_pdf(tmp_path), upload(tmp_path, ASSETS / "diagram.png")]
    _, final = last(read_uploads(paths, ReadOptions(multimodal=False), services))
    broken, picture = final
    assert broken.reading is None and broken.error and "broken.pdf" in broken.error and broken.done
    assert picture.reading is not None and picture.reading.kind == "image" and picture.error is None


def test_the_app_reads_every_file_the_api_reads(tmp_path, services):
    """The app shows the first page early, read alone; a first page no engine can load once refused
    the whole file there (0 pages against the API's 5 of 6). Its verdict is now read_file's, the API's."""
    from tests.test_pdf import nested_tree_pdf

    for source in (
        nested_tree_pdf(tmp_path / "first-page-missing.pdf", missing_page=1),
        CORPUS / "pdfplumber" / "federal-register-2020-17221.pdf",
    ):
        _, final = last(read_uploads([upload(tmp_path, source)], ReadOptions(multimodal=False), services))
        api = read_file(source, options=ReadOptions(name=source.name), services=services)
        assert final[0].error is None and final[0].reading.as_text() == api.as_text(), source.name
        assert [page.error is None for page in final[0].reading.pages] == [page.error is None for page in api.pages]
    assert "# Proposed Rules" in api.pages[0].text and all(page.error is None for page in api.pages)


def test_a_page_range_outside_the_document_is_a_readable_error(tmp_path, services):
    _, final = last(read_uploads([upload(tmp_path, REPORT_PDF)], ReadOptions(9, multimodal=False), services))
    assert final[0].error.startswith("Page 9 is outside chart-report.pdf")


def test_no_files_clears_the_view(services):
    assert list(read_uploads(None, ReadOptions(multimodal=False), services)) == [[]]


def test_estimates_cover_both_modes(tmp_path, services):
    reading = read_file(REPORT_PDF, services=services, multimodal=True)
    rows = {row["mode"]: row for row in estimate([reading])}
    text = dataclasses.replace(reading, multimodal=False).as_text()
    assert rows["Text-only"]["characters"] == len(text) and rows["Text-only"]["images"] == 0
    assert (
        rows["Text-only"]["text_tokens"]
        == text_tokens(text)
        == dataclasses.replace(reading, multimodal=False).tokens("openai")
    )
    openai, anthropic = rows["Multimodal (OpenAI)"], rows["Multimodal (Anthropic)"]
    assert openai["images"] == anthropic["images"] == 4
    assert openai["bytes"] == len(json.dumps(message_payload([reading], "openai")).encode()) > 4 * 50_000
    assert openai["image_tokens"] == 4 * (85 + 170 * 4)
    assert anthropic["image_tokens"] == 4 * anthropic_image_tokens(*png_size(reading.pages[0].image))
    assert openai["total_tokens"] == reading.tokens("openai") and anthropic["total_tokens"] == reading.tokens(
        "anthropic"
    )
    assert (openai["exact"], anthropic["exact"]) == (True, False)
    gemini = rows["Multimodal (Gemini)"]
    assert gemini["images"] == 4 and gemini["image_tokens"] == 4 * 258 * 2 * 3 and not gemini["exact"]
    assert gemini["total_tokens"] == reading.tokens("gemini") and gemini["text_tokens"] == openai["text_tokens"]
    table = estimate_table([reading], multimodal=True)
    assert "**Multimodal (OpenAI)** (current)" in table and "| Text-only |" in table
    assert f"| ≈ {anthropic['total_tokens']:,} |" in table and f"| {openai['total_tokens']:,} |" in table


def test_payload_shows_images_abbreviated_and_downloads_them_whole(tmp_path, services):
    reading = read_file(REPORT_PDF, page_start=1, page_end=2, services=services, multimodal=True)
    parts = message_payload([reading], "anthropic")
    assert [part["type"] for part in parts] == ["text", "image", "text", "image"]
    shown = abbreviate(message_payload([reading], "openai"))
    assert '"url": "data:image/png;base64,iVBORw0KGgo' in shown and "characters)" in shown
    assert len(shown) < 3000
    saved = json.loads(Path(write_payload([reading], True, tmp_path)).read_text())
    assert saved["openai"][1]["image_url"]["url"] == parts_url(reading)
    assert saved["anthropic"][1]["source"]["data"] == parts_url(reading).split(",", 1)[1]


def test_estimates_add_the_pdf_document_form(shared_services):
    reading = read_file(REPORT_PDF, services=shared_services, multimodal=True)
    rows = {row["mode"]: row for row in estimate([reading])}
    for provider in ("openai", "anthropic"):
        document, images = (
            rows[f"PDF document ({PROVIDER_NAMES[provider]})"],
            rows[f"Multimodal ({PROVIDER_NAMES[provider]})"],
        )
        parts = reading.as_messages(provider, document=True)
        assert (
            document["bytes"] == len(json.dumps(parts).encode()) < images["bytes"]
        )  # the PDF is smaller than its pages' PNGs
        # each page costs its text and its image, by the providers' published rules for PDF input
        assert document["characters"] == len(parts[0]["text"]) + sum(len(page.content) for page in reading.pages)
        assert document["text_tokens"] == text_tokens(parts[0]["text"]) + sum(
            text_tokens(page.content) for page in reading.pages
        )
        assert not document["exact"]
        assert document["images"] == images["images"] == 4 and document["image_tokens"] == images["image_tokens"]
    # Gemini counts each page at 258 tokens, its text seen in its image: only the line naming the pages is text
    gemini, parts = rows["PDF document (Gemini)"], reading.as_messages("gemini", document=True)
    assert (gemini["text_tokens"], gemini["image_tokens"]) == (text_tokens(parts[0]["text"]), 4 * 258)
    assert "| PDF document (Anthropic) |" in estimate_table([reading], multimodal=True)
    assert not any(
        row["mode"].startswith("PDF document")
        for row in estimate([read_file(ASSETS / "diagram.png", services=shared_services)])
    )


def test_payload_view_shows_the_pdf_document_form_abbreviated_and_downloads_it_whole(tmp_path, shared_services):
    report = read_file(REPORT_PDF, page_start=1, page_end=2, services=shared_services)
    picture = read_file(ASSETS / "diagram.png", services=shared_services)
    entries = [Entry("chart-report.pdf", reading=report, done=True), Entry("diagram.png", reading=picture, done=True)]
    note, openai, download = payload_views(entries, False, tmp_path)[-3:]
    assert note["visible"] and "diagram.png has no PDF and is sent as page images." in note["value"]
    assert '"file_data": "data:application/pdf;base64,JVBERi0' in openai["value"] and "characters)" in openai["value"]
    assert len(openai["value"]) < 3000 and openai["label"].startswith("OpenAI ")
    gemini = payload_views(entries, False, tmp_path, "gemini")[-2]  # the provider chosen in the tab
    assert gemini["label"].startswith("Gemini ") and '"mime_type": "application/pdf"' in gemini["value"]
    assert len(gemini["value"]) < 3000
    saved = json.loads(Path(download["value"]).read_text())
    assert [part["type"] for part in saved["anthropic"]] == ["text", "document", "text", "image"]
    assert len(pdfium.PdfDocument(base64.b64decode(saved["anthropic"][1]["source"]["data"]))) == 2
    assert saved["openai"][:2] == report.as_messages("openai", document=True)
    assert saved["gemini"][:2] == report.as_messages("gemini", document=True)
    hidden = payload_views([Entry("diagram.png", reading=picture, done=True)], False, tmp_path)[-3:]
    assert not any(update["visible"] for update in hidden)


def test_payload_view_says_when_the_pdfs_together_are_past_a_limit(shared_services):
    reading = read_file(REPORT_PDF, services=shared_services)
    many = [
        dataclasses.replace(reading, name=f"copy-{n}.pdf") for n in range(26)
    ]  # 26 x 4 pages: 104 PDF pages in one request
    payloads, problems = document_payloads(many)
    assert list(payloads) == ["gemini"] and len(problems) == 2  # Gemini takes 1,000 pages
    assert problems[1].startswith(
        "Anthropic: One request with all these PDFs is 104 PDF pages; Anthropic takes at most 100 PDF pages"
    )


def parts_url(reading) -> str:
    return reading.as_messages("openai")[1]["image_url"]["url"]


def test_text_only_payload_is_the_readings_text(tmp_path, services):
    reading = read_file(REPORT_PDF, page_start=1, page_end=1, services=services, multimodal=False)
    assert text_payload([reading]).startswith("[PAGE 1]\n# Quarterly Sales Report 2024")
    assert Path(write_payload([reading], False, tmp_path)).read_text() == reading.as_text()


def test_report_cites_every_piece_and_bundles_the_page_images(tmp_path, services):
    steps, final = last(
        read_uploads([upload(tmp_path, REPORT_PDF), broken_pdf(tmp_path)], ReadOptions(multimodal=False), services)
    )
    archive = zipfile.ZipFile(write_report(final, tmp_path / "out"))
    markdown = archive.read("report.md").decode()
    images = [name for name in archive.namelist() if name.startswith("images/")]
    assert len(images) == 4 and all(archive.read(name).startswith(b"\x89PNG") for name in images)
    for image in images:
        assert f"]({image})" in markdown
    assert markdown.count("*(Source: chart-report.pdf, p. 3)*") >= 3  # image, paragraph and table of page 3
    assert "# Quarterly Sales Report 2024\n\nSales grew" in markdown, "a heading needs no source of its own"
    assert "| Region | Q1 | Q2 | Q3 | Q4 |" in markdown
    assert "Not read: broken.pdf" in markdown
    blocks = markdown.split("\n\n")
    for index, block in enumerate(blocks):
        if block.startswith(("![", "| Region", "Sales grew", "The table lists")):
            assert blocks[index + 1].startswith("*(Source: chart-report.pdf, p. "), block[:40]


def test_citations_name_slides_frames_and_times(services):
    deck = read_file(ASSETS / "short-deck.pptx", page_start=2, page_end=2, services=services)
    assert citation(deck, deck.pages[0]) == "*(Source: short-deck.pptx, slide 2)*"
    picture = read_file(ASSETS / "diagram.png", services=services)
    assert citation(picture, picture.pages[0]) == "*(Source: diagram.png)*"
    assert citation(picture, span=(65, 72.5)) == "*(Source: diagram.png, 1:05–1:12)*"


def test_citations_name_a_text_files_lines(tmp_path, services):
    log = read_file(fixtures.numbered_log(tmp_path / "app.log", 400), 2, 2, services=services)
    page = log.pages[0]
    assert (
        citation(log, page) == f"*(Source: app.log, lines {page.line}–{page.line + len(page.text.splitlines()) - 1})*"
    )
    assert report_markdown([Entry("app.log", reading=log, done=True)])[0].count(f"lines {page.line}–") >= 1


def test_citations_name_sheets_and_files_inside_archives(tmp_path, services):
    book = read_file(ASSETS / "sales.xlsx", page_start=2, page_end=2, services=services)
    assert citation(book, book.pages[0]) == "*(Source: sales.xlsx, sheet 2)*"
    bundle = tmp_path / "bundle.zip"
    with zipfile.ZipFile(bundle, "w") as archive:
        archive.write(REPORT_PDF, "reports/q4.pdf")
        archive.writestr("notes.md", "# Notes\n")
    steps, final = last(read_uploads([upload(tmp_path, bundle)], ReadOptions(2, 2, multimodal=True), services))
    reading = final[0].reading
    assert citation(reading, reading.pages[0]) == "*(Source: bundle.zip › reports/q4.pdf, p. 2)*"
    markdown = report_markdown(final)[0]
    assert "### Page 2 — reports/q4.pdf" in markdown and "Revenue by segment" in markdown
    assert len(steps) == 2  # no early first page for an archive: it is read whole


def test_nothing_read_means_no_report(tmp_path, services):
    _, final = last(read_uploads([broken_pdf(tmp_path)], ReadOptions(multimodal=False), services))
    assert write_report(final, tmp_path) is None
    assert report_markdown(final)[0].startswith("# ReadLens report")


def test_cache_panel_reports_and_clears(tmp_path, services):
    read_file(REPORT_PDF, services=services)
    assert "MB" in cache_summary(services) and services.store.size_bytes() > 0
    clear_cache(services)
    assert services.store.size_bytes() == 0
    assert "0.0 MB" in cache_summary(services)


def test_in_public_mode_the_cache_is_not_cleared(tmp_path):
    public = Services(make_settings(tmp_path / "cache", public=True))
    read_file(REPORT_PDF, services=public)
    size = public.store.size_bytes()
    assert clear_cache(public).startswith("Clearing the cache is off in public mode (READLENS_PUBLIC). Cache at")
    assert public.store.size_bytes() == size > 0


def test_discarding_reads_each_upload_then_deletes_it_and_keeps_its_pages(tmp_path, services):
    big = tmp_path / "big" / "big.png"
    big.parent.mkdir()
    big.write_bytes((ASSETS / "diagram.png").read_bytes() + b"0" * services.settings.max_file_bytes)
    paths = [upload(tmp_path, REPORT_PDF), broken_pdf(tmp_path), str(big)]
    discarded = []

    def discard(path):
        discarded.append(path)
        discard_upload(path)

    _, first = last(read_uploads(paths, ReadOptions(multimodal=False), services, discard=discard))
    assert [(entry.name, entry.reading is not None) for entry in first] == [
        ("big.png", False),
        ("chart-report.pdf", True),
        ("broken.pdf", False),
    ]
    assert sorted(discarded) == sorted(paths) and not any(Path(path).exists() for path in paths)
    assert not Path(paths[0]).parent.exists(), "the upload's own folder goes too"
    # The visitor turns on multimodal: the deleted uploads keep what was read, and say why.
    _, again = last(read_uploads(paths, ReadOptions(multimodal=True), services, previous=first, discard=discard))
    report = next(entry for entry in again if entry.name == "chart-report.pdf")
    assert report.reading is first[1].reading and report.done
    assert report.note == (
        "chart-report.pdf was deleted from the server once read (public mode), so these are its pages as first read. "
        "Upload it again to read it with other settings."
    )
    assert sorted(entry.error for entry in again if entry.reading is None) == sorted(
        entry.error for entry in first if entry.reading is None
    )
    _, elsewhere = last(
        read_uploads(paths[1:2], ReadOptions(multimodal=False), services)
    )  # a deleted upload nobody read before
    assert elsewhere[0].error.startswith("broken.pdf is no longer on the server")


@pytest.mark.parametrize(
    "host, forwarded, proxies, expected",
    [
        ("8.8.4.4", "", (), "8.8.4.4"),
        ("8.8.4.4", "198.51.100.1", ("private",), "8.8.4.4"),
        ("10.0.0.2", "198.51.100.1, 10.0.0.9", ("private",), "198.51.100.1"),
        ("10.0.0.2", "1.1.1.1, 9.9.9.9, 10.0.0.9", ("private",), "9.9.9.9"),  # 1.1.1.1: what the client sent
        ("10.0.0.2", "198.51.100.1", ("10.0.0.0/24",), "198.51.100.1"),
        ("10.0.0.2", "10.0.0.5", ("*",), "10.0.0.5"),
        ("127.0.0.1", "", ("127.0.0.1",), "127.0.0.1"),
        ("127.0.0.1", "198.51.100.1", ("127.0.0.1",), "198.51.100.1"),
        ("127.0.0.1", "198.51.100.1", (), "127.0.0.1"),  # a direct client: its header is not believed
        ("10.0.0.2", "198.51.100.1", (), "10.0.0.2"),
        ("testclient", "198.51.100.1", ("private",), "testclient"),
    ],
)
def test_a_visitor_is_its_address_or_the_one_a_trusted_proxy_forwards(host, forwarded, proxies, expected):
    """A client that sent a new X-Forwarded-For with each request once had a new vision allowance each time."""
    request = SimpleNamespace(
        client=SimpleNamespace(host=host), headers={"x-forwarded-for": forwarded} if forwarded else {}
    )
    assert visitor(request, proxies) == expected
    assert visitor(None, proxies) is None


def test_the_backends_line_names_the_vision_model_and_never_its_key(tmp_path):
    key = "sk-never-shown-3b1f"
    services = Services(
        make_settings(tmp_path, vision_provider="openai", vision_base_url="http://127.0.0.1:9/v1", vision_api_key=key)
    )
    line = backends_line(services)
    assert "vision model **gpt-4o-mini** at http://127.0.0.1:9/v1" in line and key not in line
    assert "whisper:tiny.en (local)" in line
    assert backends_line(Services(make_settings(tmp_path))).startswith("**Descriptions:** none (`VISION_PROVIDER")


def test_a_transcript_s_rows_play_its_player_and_with_the_recording_deleted_play_nothing():
    segments = [Segment(0.0, 6.2, "Turns <every> page into text."), Segment(6.2, 8.5, "Sales went up.")]
    playing = transcript_table(segments, "rl-player-0")
    assert 'data-player="rl-player-0"' in playing and 'data-start="6.20" data-end="8.50"' in playing
    assert playing.count('<button type="button" class="rl-seek" title="Play from 0:06">0:06 → 0:08</button>') == 1
    assert "Turns &lt;every&gt; page" in playing  # what was said, never markup
    deleted = transcript_table(segments, None)  # public mode: the recording went once transcribed
    assert "<button" not in deleted and "data-start" not in deleted and "<td>0:06 → 0:08</td>" in deleted
