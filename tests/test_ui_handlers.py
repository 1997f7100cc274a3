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
from readers.errors import CODES
from readers.models import Segment
from readers.payload.text import files_text
from readers.payload.tokens import anthropic_image_tokens, png_size, text_tokens
from testkit import CORPUS, ROOT, fixtures, make_settings
from ui.handlers import REASONS, Entry, backends_line, cache_summary, clear_cache, discard_upload, read_uploads, visitor
from ui.pages import status_line, transcript_table
from ui.payload import PROVIDER_NAMES, abbreviate, document_payloads, estimate, estimate_table, message_payload
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
    assert gemini["images"] == 4 and gemini["image_tokens"] == 4 * 1120 and not gemini["exact"]
    assert [
        rows[mode]["image_rule"]
        for mode in ("Text-only", *[f"Multimodal ({name})" for name in PROVIDER_NAMES.values()])
    ] == [
        "",
        "GPT-4o/4.1, high detail: 85 + 170 a 512 px tile",
        "Claude: a token a 28 px patch, within 1568 px and 1,568 tokens",
        "Gemini 3: 1,120 an image",
    ]
    assert gemini["total_tokens"] == reading.tokens("gemini") and gemini["text_tokens"] == openai["text_tokens"]
    table = estimate_table([reading], multimodal=True)
    assert "**Multimodal (OpenAI)** (current)" in table and "| Text-only |" in table
    assert f"| ≈ {anthropic['total_tokens']:,} |" in table and f"| {openai['total_tokens']:,} |" in table
    assert (
        f"| {anthropic['image_tokens']:,} | Claude: a token a 28 px patch, within 1568 px and 1,568 tokens |" in table
    )


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
        assert document["characters"] == len(parts[0]["text"]) + sum(len(page.text) for page in reading.pages)
        assert document["text_tokens"] == text_tokens(parts[0]["text"]) + sum(
            text_tokens(page.text) for page in reading.pages
        )
        assert not document["exact"]
        assert document["images"] == images["images"] == 4 and document["image_tokens"] == images["image_tokens"]
    # Gemini 3 counts each page at 560 tokens, its text seen in its image: only the line naming the pages is text
    gemini, parts = rows["PDF document (Gemini)"], reading.as_messages("gemini", document=True)
    assert (gemini["text_tokens"], gemini["image_tokens"]) == (text_tokens(parts[0]["text"]), 4 * 560)
    assert gemini["image_rule"] == "Gemini 3: 560 a PDF page"
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
    for provider in ("openai", "gemini"):
        alone = report.as_messages(provider, document=True)
        assert saved[provider][0]["text"] == f"[FILE: chart-report.pdf]\n\n{alone[0]['text']}"  # each file named
        assert saved[provider][1] == alone[1] and saved[provider][2]["text"].startswith("[FILE: diagram.png]\n\n")
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
    assert files_text([reading]).startswith("[PAGE 1]\n# Quarterly Sales Report 2024")  # one file: as it is
    assert Path(write_payload([reading], False, tmp_path)).read_text() == reading.as_text()


def test_several_files_payloads_name_each_file_before_its_pages_and_count_it(tmp_path, services):
    report = read_file(REPORT_PDF, page_start=1, page_end=2, services=services, multimodal=False)
    sheet = read_file(CORPUS / "pdfplumber" / "ca-warn-report.pdf", 1, 1, services=services, multimodal=False)
    text = files_text([report, sheet])
    assert text.startswith("[FILE: chart-report.pdf]\n\n[PAGE 1]\n# Quarterly Sales Report 2024")
    assert "\n\n[FILE: ca-warn-report.pdf]\n\n[PAGE 1]\n" in text and text.count("[FILE: ") == 2
    assert Path(write_payload([report, sheet], False, tmp_path)).read_text() == text  # the download
    assert estimate([report, sheet])[0]["text_tokens"] == text_tokens(text)  # counted with the names
    seen = [dataclasses.replace(reading, multimodal=True) for reading in (report, sheet)]
    for provider in ("openai", "anthropic"):
        parts = message_payload(seen, provider)
        named = [part["text"].split("\n\n")[0] for part in parts if part["type"] == "text" and "[FILE:" in part["text"]]
        assert named == ["[FILE: chart-report.pdf]", "[FILE: ca-warn-report.pdf]"]
        assert parts[0]["text"].startswith("[FILE: chart-report.pdf]\n\n[PAGE 1]")
        assert len(parts) == len(seen[0].as_messages(provider)) + len(seen[1].as_messages(provider))


def test_report_cites_each_page_s_text_table_and_figure_once_under_its_own_headings(tmp_path, services):
    steps, final = last(
        read_uploads([upload(tmp_path, REPORT_PDF), broken_pdf(tmp_path)], ReadOptions(multimodal=False), services)
    )
    archive = zipfile.ZipFile(write_report(final, tmp_path / "out"))
    markdown = archive.read("report.md").decode()
    images = [name for name in archive.namelist() if name.startswith("images/")]
    assert len(images) == 4 and all(archive.read(name).startswith(b"\x89PNG") for name in images)
    for image in images:
        assert f"]({image})" in markdown
    # page 3: its image, its table and its text, each cited once
    assert markdown.count("*(Source: chart-report.pdf, p. 3)*") == 3
    # page 1: its image, its chart's table and its text (no vision model here: no description)
    assert markdown.count("*(Source: chart-report.pdf, p. 1)*") == 3
    # the document's headings stand under the report's: "## file", "### Page 1", then its "# title" as ####
    assert "## chart-report.pdf\n\n### Page 1\n\n![" in markdown
    assert "#### Quarterly Sales Report 2024\n\nSales grew" in markdown, "a heading needs no source of its own"
    headings = [line for line in markdown.splitlines() if line.startswith("#")]
    assert [line for line in headings if not line.startswith("####")] == [
        "# ReadLens report",
        "## chart-report.pdf",
        *(f"### Page {number}" for number in range(1, 5)),
        "## broken.pdf",
    ]
    assert "| Region | Q1 | Q2 | Q3 | Q4 |" in markdown
    assert "Not read: broken.pdf" in markdown
    blocks = markdown.split("\n\n")
    for index, block in enumerate(blocks):
        if block.startswith(("![", "| Region", "**Visual content**")):
            assert blocks[index + 1].startswith("*(Source: chart-report.pdf, p. "), block[:40]
        if block.startswith("#### "):
            assert not blocks[index + 1].startswith("*(Source:"), block[:40]  # a heading needs no source of its own
    # each piece is cited once, right after it: the text before page 1's chart, then the whole chart, its note too
    cite = "*(Source: chart-report.pdf, p. 1)*"
    assert f"units sold per quarter.\n\n{cite}\n\nChart (bar chart)\n\n" in markdown
    assert "| Q4 | 170 | 125 |\n\nAxis ticks and other labels: 180, 160" in markdown
    assert f"*values as printed*\n\n{cite}\n\nPage furniture: Page 1 of 4" in markdown


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
    assert not any(step[0].pages for step in steps[:-1])  # no early page for an archive: it is read whole


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
    assert [(entry.name, entry.reading is not None) for entry in first] == [  # in the order uploaded
        ("chart-report.pdf", True),
        ("broken.pdf", False),
        ("big.png", False),
    ]
    assert sorted(discarded) == sorted(paths) and not any(Path(path).exists() for path in paths)
    assert not Path(paths[0]).parent.exists(), "the upload's own folder goes too"
    # The visitor turns on multimodal: the deleted uploads keep what was read, and say why.
    _, again = last(read_uploads(paths, ReadOptions(multimodal=True), services, previous=first, discard=discard))
    report = next(entry for entry in again if entry.name == "chart-report.pdf")
    assert report.reading is first[0].reading and report.done
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


def test_each_error_code_has_its_few_words_and_an_address_is_named_never_linked():
    """The status line's and file list's reasons come from the codes the cards' sentences carry; an address that
    was not found is not said to be "no longer on the server" (an upload's reason), and none is a link."""
    assert set(CODES) <= set(REASONS)
    refused, missing = "http://169.254.169.254/latest/meta-data", "https://example.org/gone.pdf"
    entries = [
        Entry(refused, refused, error="…", done=True, code="URL_REFUSED"),
        Entry("http://127.0.0.1:9/slow", "http://127.0.0.1:9/slow", error="…", done=True, code="FETCH_FAILED"),
        Entry(missing, missing, error="…", done=True, code="FILE_NOT_FOUND"),
        Entry("report.pdf", "/tmp/gradio/report.pdf", error="…", done=True, code="FILE_NOT_FOUND"),
        Entry("odd.bin", "/tmp/gradio/odd.bin", error="…", done=True),  # a bug, not a bad file: no code
    ]
    assert [entry.reason for entry in entries] == [
        "address refused",
        "could not be fetched",
        "not found at that address",
        "no longer on the server",
        "an unexpected error",
    ]
    line = status_line(entries)
    assert line.startswith("0 of 5 files read · ⚠️ not read: http&#58;//169.254.169.254/latest/meta-data (address")
    assert "://" not in line and "https&#58;//example.org/gone.pdf (not found at that address)" in line


def test_reading_the_same_files_with_the_same_options_again_draws_nothing_again(tmp_path, services):
    """A field left or set back (the last page typed, then focus moved on) asks for a reading that changes
    nothing: nothing is yielded, so the pages are not drawn again and a table opened stays open."""
    paths = [upload(tmp_path, REPORT_PDF)]
    _, first = last(read_uploads(paths, ReadOptions(1, 1, multimodal=False), services))
    assert list(read_uploads(paths, ReadOptions(1, 1, multimodal=False), services, previous=first)) == []
    _, other = last(read_uploads(paths, ReadOptions(1, 2, multimodal=False), services, previous=first))
    assert [len(entry.reading.pages) for entry in other] == [2]
