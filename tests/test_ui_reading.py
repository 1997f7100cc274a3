"""How the page reads its uploads (``ui.handlers.read_uploads``), without a browser: every file listed at
once, then its pages as they come; a file read again only when its options change; ranges per file;
refusals in upload order; web addresses after the uploads."""

from __future__ import annotations

from pathlib import Path

import pytest

import readers.core
import ui.handlers
from readers import ReadOptions, Services, read_file
from readers.intake import fetch
from testkit import CORPUS, ROOT, make_settings
from tests.loopback import Site, fence, resolver
from tests.test_ui_handlers import broken_pdf, last, upload
from ui.handlers import MAX_FILES, NOT_SENT, Entry, parse_page, parse_range, read_uploads, triage

ASSETS = ROOT / "assets"
REPORT_PDF = ASSETS / "chart-report.pdf"


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


def test_triage_refuses_the_eleventh_file_and_oversized_ones_by_name_in_upload_order(tmp_path):
    paths = [upload(tmp_path, ASSETS / "diagram.png", f"picture-{n}.png") for n in range(MAX_FILES + 2)]
    big = tmp_path / "big" / "huge.pdf"
    big.parent.mkdir()
    big.write_bytes(b"%PDF-1.4\n" + b"0" * 200_000)
    # what the page sends for a file it did not send, being over the limit (ui.browser)
    held = tmp_path / "held" / "scan.tiff"
    held.parent.mkdir()
    held.write_bytes(NOT_SENT + b"57671680\n")
    planned = triage([str(big), paths[0], str(held), *paths[1:]], max_bytes=100_000)
    names = [item.name if isinstance(item, Entry) else Path(item).name for item in planned]
    assert names == ["huge.pdf", "picture-0.png", "scan.tiff", *(f"picture-{n}.png" for n in range(1, MAX_FILES + 2))]
    refused = [item for item in planned if isinstance(item, Entry)]
    assert [entry.name for entry in refused] == [
        "huge.pdf",
        "scan.tiff",
        "picture-8.png",
        "picture-9.png",
        "picture-10.png",
        "picture-11.png",
    ]
    # the API's sentence, for what was uploaded and for what the page kept back
    assert refused[0].error == "huge.pdf is 0.2 MB; the limit is 0.0953674 MB (MAX_FILE_MB)."
    assert refused[1].error.startswith("scan.tiff is 55.0 MB; the limit is") and refused[1].reason == "too large"
    assert f"at most {MAX_FILES} files" in refused[2].error and refused[2].reason == "over the 10 files"


@pytest.mark.parametrize("value, expected", [(None, None), ("", None), (0, None), (3, 3), (3.0, 3), ("7", 7)])
def test_page_boxes_treat_empty_and_zero_as_not_set(value, expected):
    assert parse_page(value) == expected


@pytest.mark.parametrize(
    "typed, expected", [("", None), ("3", (3, 3)), ("3-5", (3, 5)), ("3–5", (3, 5)), (" 2 - ", (2, 2))]
)
def test_a_files_own_range_is_typed_as_one_page_or_two(typed, expected):
    assert parse_range(typed) == expected


def test_every_file_is_listed_at_once_then_its_pages_come_as_they_are_read(tmp_path, services):
    paths = [upload(tmp_path, REPORT_PDF), upload(tmp_path, ASSETS / "diagram.png")]
    steps, final = last(read_uploads(paths, ReadOptions(multimodal=False), services))
    assert [(entry.name, entry.done, entry.progress) for entry in steps[0]] == [
        ("chart-report.pdf", False, "waiting its turn"),
        ("diagram.png", False, "waiting its turn"),
    ]
    shown = [step[0].pages for step in steps if step[0].reading is None and step[0].pages]
    assert shown and shown[0][0].image.startswith(b"\x89PNG")  # a page's render before the whole reading
    final_texts = {page.number: page.text for page in final[0].reading.pages}
    for page in shown[0]:  # the text a page gives alone: its first line as in the whole reading
        assert page.text.splitlines()[0] in final_texts[page.number]
    assert [p.number for p in final[0].reading.pages] == [1, 2, 3, 4] and final[0].done
    assert all(page.image.startswith(b"\x89PNG") for page in final[0].reading.pages)
    assert final[0].answer["pages"][0]["blocks"][0]["kind"] == "heading"  # what /read_file answers, once
    assert len({id(step) for step in steps}) == len(steps), "each step must be a new list so Gradio sees a change"


def test_each_file_is_read_once_by_read_file_and_its_type_found_once(tmp_path, services, monkeypatch):
    """No first look at a picture or a page before the reading, no type found beside read_file's own."""
    names = ["chart-report.pdf", "diagram.png", "sales.xlsx", "short-deck.pptx"]
    read, detected = [], []
    real_read, real_detect = ui.handlers.read_file, readers.core.detect
    monkeypatch.setattr(ui.handlers, "read_file", lambda path, **rest: read.append(path) or real_read(path, **rest))
    monkeypatch.setattr(readers.core, "detect", lambda path, *rest: detected.append(path) or real_detect(path, *rest))
    paths = [upload(tmp_path, ASSETS / name) for name in names]
    steps, final = last(read_uploads(paths, ReadOptions(multimodal=True), services))
    assert [entry.name for entry in final if entry.reading] == names
    assert any(entry.pages for step in steps for entry in step if not entry.done)  # its pages shown as they came
    assert read == paths and [Path(path).name for path in detected] == names


def test_the_reading_at_the_end_is_what_read_file_returns_described(tmp_path, fake_openai):
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
    early = [page for step in steps for page in step[0].pages]
    assert {page.number for page in early} <= {2, 3} and all(page.description is None for page in early)
    whole = final[0].reading
    # Page 2's pie chart is described afresh (not marked cached); page 3 is a table and text only.
    assert [p.description_source for p in whole.pages] == ["vision:test-vision", "none: text only"]
    again = read_file(path, options=ReadOptions(2, 3, name=Path(path).name), services=services)
    assert again.as_text() == whole.as_text()
    assert fake_openai.calls("/v1/chat/completions") and len(fake_openai.calls("/v1/chat/completions")) == 1


def test_progress_is_each_files_own(tmp_path, services):
    steps, _ = last(read_uploads([upload(tmp_path, REPORT_PDF)], ReadOptions(2, 3, multimodal=False), services))
    said = {step[0].progress for step in steps if not step[0].done}
    assert "waiting its turn" in said and any(line.endswith("pages rendered") for line in said), said


def test_a_broken_file_is_reported_and_the_others_still_read(tmp_path, services):
    paths = [broken_pdf(tmp_path), upload(tmp_path, ASSETS / "diagram.png")]
    _, final = last(read_uploads(paths, ReadOptions(multimodal=False), services))
    broken, picture = final
    assert broken.reading is None and broken.done and broken.code == "CORRUPT_FILE" and broken.reason == "damaged"
    assert broken.error == (
        "broken.pdf is damaged: the PDF's data cannot be read, or the file is incomplete. Export or download it again."
    )
    assert picture.reading is not None and picture.reading.kind == "image" and picture.error is None


def test_pages_outside_a_file_are_a_note_on_the_pages_it_has(tmp_path, services):
    paths = [upload(tmp_path, REPORT_PDF), upload(tmp_path, ASSETS / "diagram.png")]
    _, final = last(read_uploads(paths, ReadOptions(51, 60, multimodal=False), services))
    report, picture = final
    assert [page.number for page in report.reading.pages] == [1, 2, 3, 4] and report.error is None
    assert report.note == (
        "Page 51 is outside chart-report.pdf, which has 4 pages. Choose a page from 1 to 4. Shown instead: pages 1–4."
    )
    assert picture.note.startswith("Page 51 is outside diagram.png, which has 1 frame.")
    _, ends = last(read_uploads(paths[:1], ReadOptions(3, 60, multimodal=False), services))
    assert [page.number for page in ends[0].reading.pages] == [3, 4]  # from the first page asked to the last
    assert ends[0].note.endswith("Shown instead: pages 3–4.")


def test_a_files_own_range_reads_that_file_alone_and_removing_a_file_reads_nothing(tmp_path, services):
    paths = [upload(tmp_path, REPORT_PDF), upload(tmp_path, ASSETS / "diagram.png")]
    _, first = last(read_uploads(paths, ReadOptions(multimodal=False), services))
    steps, ranged = last(read_uploads(paths, ReadOptions(multimodal=False), services, first, ranges={paths[0]: (2, 3)}))
    assert [page.number for page in ranged[0].reading.pages] == [2, 3]
    assert ranged[1] is first[1]  # the picture is not read again
    steps, removed = last(read_uploads(paths[1:], ReadOptions(multimodal=False), services, ranged))
    assert len(steps) == 1 and removed == [first[1]]  # the card goes at once, nothing else is read
    _, again = last(read_uploads(paths, ReadOptions(multimodal=True), services, removed))
    assert again[1] is not first[1] and again[1].reading.multimodal  # another mode is another reading


def test_the_app_reads_every_file_the_api_reads(tmp_path, services):
    """A first page no engine can load once refused the whole file in the app (0 pages against the
    API's 5 of 6); the app's verdict is read_file's, the API's."""
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


def test_no_files_clears_the_view(tmp_path, services):
    _, shown = last(read_uploads([upload(tmp_path, REPORT_PDF)], ReadOptions(1, 1, multimodal=False), services))
    assert list(read_uploads(None, ReadOptions(1, 1, multimodal=False), services, previous=shown)) == [[]]
    assert list(read_uploads(None, ReadOptions(multimodal=False), services)) == []  # nothing shown: nothing to clear


@pytest.mark.parametrize("multimodal", [False, True], ids=["text-only", "multimodal"])
def test_the_app_gives_a_web_page_the_pages_the_api_gives(tmp_path, shared_services, multimodal):
    """One paging a file and mode (issue 51): the app reads with page images to show them, and a web page
    read for a text-only model is still its blocks cut into pages, as /read_file and the command line give it;
    read for a model that sees its pages, both give the print's pages, a page of only menus in neither payload."""
    page = upload(tmp_path, CORPUS / "docling/formats/wiki_duck.html")
    _, (entry,) = last(read_uploads([page], ReadOptions(multimodal=multimodal), shared_services))
    api = read_file(CORPUS / "docling/formats/wiki_duck.html", multimodal=multimodal, services=shared_services)
    assert [(shown.number, shown.text) for shown in entry.reading.pages] == [
        (given.number, given.text) for given in api.pages
    ]
    assert entry.reading.as_text() == api.as_text() and (api.pdf is not None) == multimodal
