"""The Chunks tab's handlers (ui/chunks.py) on a real reading of assets/chart-report.pdf, without a browser."""

from __future__ import annotations

import html

from PIL import Image

from readers import read_file
from readers.payload.serialize import answer_json
from testkit import ROOT
from ui.chunks import card, chunk_image, chunk_marks, chunk_views, entry_chunks, summary_line
from ui.handlers import Entry
from ui.report import page_image

REPORT_PDF = ROOT / "assets" / "chart-report.pdf"


def test_cards_and_summary_line_come_from_the_reading_held(shared_services):
    reading = read_file(REPORT_PDF, services=shared_services)
    entries = [Entry("chart-report.pdf", reading=reading, done=True), Entry("broken.pdf", error="not read", done=True)]
    chunks = reading.chunks(512)
    summary, cards, choice = chunk_views(entries, 512)
    assert (
        summary == f"{len(chunks)} chunks · largest {max(chunk.tokens for chunk in chunks)} tokens · 1 table kept whole"
    )
    assert cards.count("<strong>Chunk ") == len(chunks) == len(choice["choices"])
    assert cards.startswith("<h3>chart-report.pdf</h3>")
    assert card(chunks[0], "0:1").startswith(
        '<div class="rl-card" data-choice="0:1" tabindex="0" title="Show its page"><p><strong>Chunk 1</strong> · '
        f"text · {chunks[0].tokens} tokens · p. 1 · Quarterly Sales Report 2024</p><pre><code>"
    )
    assert html.escape(chunks[0].text) in cards and choice["choices"][1] == (
        "chart-report.pdf · chunk 2 (figure)",
        "0:2",
    )
    assert 'data-choice="0:2"' in cards  # a card names its chunk as the dropdown does
    # a smaller limit re-chunks: more chunks, none over it; a limit chunks cannot have is said, not raised
    smaller, _, again = chunk_views(entries, 40.0)
    assert len(again["choices"]) > len(chunks) and all(
        chunk.tokens <= 40 for _, found in entry_chunks(entries, 40)[0] for chunk in found
    )
    assert smaller.startswith(f"{len(again['choices'])} chunks")
    assert (
        chunk_views(entries, 3)[0].startswith("**No chunks yet.**")
        and "at least 16 tokens" in chunk_views(entries, 3)[0]
    )
    assert summary_line([]).startswith("**No chunks yet.** Once a file is read")


def test_a_figure_chunk_shows_its_page_with_its_box_outlined(tmp_path, shared_services):
    reading = read_file(REPORT_PDF, services=shared_services)
    entries = [Entry("chart-report.pdf", reading=reading, done=True)]
    figure = next(chunk for chunk in reading.chunks(512) if chunk.kind == "figure")
    path = chunk_image(entries, 512, f"0:{figure.number}", tmp_path)
    assert path and path.endswith(".png") and "chunk-" in path
    page = next(page for page in reading.pages if page.number == figure.boxes[0].page)
    with Image.open(path) as outlined, Image.open(page_image(reading, page, tmp_path)) as plain:
        assert outlined.size == plain.size
        left, top, right, bottom = figure.boxes[0].box
        x, y = round((left + right) / 2 * outlined.width), round(bottom * outlined.height)  # the box's bottom edge
        assert outlined.convert("RGB").getpixel((x, y)) == (67, 56, 202)
    text = next(chunk for chunk in reading.chunks(512) if chunk.kind == "text")
    shown = chunk_image(entries, 512, f"0:{text.number}", tmp_path)  # its blocks have boxes too: outlined (below)
    assert shown and "chunk-" in shown and shown != page_image(reading, page_of(reading, text.pages[0]), tmp_path)
    assert chunk_image(entries, 512, None, tmp_path) is None and chunk_image(entries, 512, "3:1", tmp_path) is None


def page_of(reading, number):
    return next(page for page in reading.pages if page.number == number)


def test_a_text_or_table_chunk_shows_every_block_it_holds_outlined(tmp_path, shared_services):
    reading = read_file(REPORT_PDF, services=shared_services, images=True)
    entries = [Entry("chart-report.pdf", reading=reading, done=True, answer=answer_json(reading))]
    for chunk in reading.chunks(512):
        if chunk.kind == "figure":
            continue
        page, marks = chunk_marks(entries[0], chunk)
        held = [block for block in page.blocks if block.box and block.text.strip() in chunk.content]
        assert held and [box for box, _ in marks] == [block.box for block in held], chunk.number
        path = chunk_image(entries, 512, f"0:{chunk.number}", tmp_path)
        with Image.open(path) as outlined:
            left, top, right, bottom = marks[0][0]
            x, y = round((left + right) / 2 * outlined.width), round(bottom * outlined.height)
            assert outlined.convert("RGB").getpixel((x, y)) == (67, 56, 202)  # its box's bottom edge, outlined
