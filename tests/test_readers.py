"""Test vectors: (file, kind, must_include, must_not_include, pages) through every route —
``read_file`` and the command line — over the shared corpus and fixtures we generate."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image

from readers import ReaderError, read_file
from readers.services import Services
from readers.storage.files import ENTRIES
from testkit import CORPUS, ROOT, fixtures, make_settings
from tests.generated_vectors import GENERATED_VECTORS, generate
from tests.vectors import CORPUS_VECTORS, check_notices, check_text, resolve, skip_without

ALL = CORPUS_VECTORS + GENERATED_VECTORS


@pytest.fixture(scope="session")
def generated(tmp_path_factory) -> dict[str, Path]:
    return generate(tmp_path_factory.mktemp("generated"))


@pytest.mark.parametrize(
    "vector", ALL, ids=[v.id.rsplit("/", 2)[-1] + (f"@{v.pages}" if v.pages != (None, None) else "") for v in ALL]
)
def test_read_file(vector, generated, shared_services):
    skip_without(vector)
    reading = read_file(resolve(vector, generated), *vector.pages, services=shared_services)
    assert reading.kind == vector.kind
    if vector.page_count is not None:
        assert reading.page_count == vector.page_count
    check_text(reading.as_text(), vector)
    check_notices([notice.code for notice in reading.notices], vector)
    assert [p.number for p in reading.pages] == sorted(p.number for p in reading.pages)


# The command line is a thin layer over read_file: one vector of each kind, and every page range.
CLI = [
    vector
    for index, vector in enumerate(ALL)
    if vector.pages != (None, None) or vector.kind not in {v.kind for v in ALL[:index]}
]


@pytest.mark.parametrize(
    "vector", CLI, ids=[v.id.rsplit("/", 2)[-1] + (f"@{v.pages}" if v.pages != (None, None) else "") for v in CLI]
)
def test_cli(vector, generated, shared_services):
    skip_without(vector)
    start, end = vector.pages
    command = [sys.executable, "-m", "readers", str(resolve(vector, generated)), "--format", "json"]
    if start:
        command += ["--pages", f"{start}-{end}"]
    env = {**os.environ, "READLENS_CACHE_DIR": str(shared_services.settings.cache_dir), "VISION_PROVIDER": "none"}
    result = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["kind"] == vector.kind
    check_text(data["text"], vector)
    check_notices([notice["code"] for notice in data["notices"]], vector)


def test_a_link_is_read_as_the_file_it_points_to(tmp_path, shared_services):
    """Collections are often links (a dataset's cache, a build's output): one was refused as
    "inode/symlink". A link is followed and named as given; one that leads out of a workspace is refused."""
    link = tmp_path / "link.pdf"
    link.symlink_to(CORPUS / "markitdown" / "test.pdf")
    env = {**os.environ, "READLENS_CACHE_DIR": str(shared_services.settings.cache_dir), "VISION_PROVIDER": "none"}
    result = subprocess.run(
        [sys.executable, "-m", "readers", str(link)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("[PAGE 1]\n# 1 Introduction\n")
    assert read_file(link, services=shared_services).name == "link.pdf"
    with pytest.raises(ReaderError) as error:
        read_file("link.pdf", workspace=tmp_path, services=shared_services)
    assert error.value.code == "PATH_OUTSIDE_WORKSPACE"


def test_detection_trusts_bytes_not_names(generated, shared_services):
    reading = read_file(generated["picture.pdf"], services=shared_services)
    assert (reading.kind, reading.mime) == ("image", "image/png")


def test_renders_are_real_pngs_of_the_page_size(shared_services):
    reading = read_file(CORPUS / "markitdown/test.pdf", services=shared_services)
    image = Image.open(io.BytesIO(reading.pages[0].image))
    width, height = pdfium.PdfDocument(str(CORPUS / "markitdown/test.pdf"))[0].get_size()  # points
    assert image.format == "PNG"
    assert abs(image.width - width * 150 / 72) <= 1 and abs(image.height - height * 150 / 72) <= 1
    assert image.size[0] in (1275, 1276)  # US Letter is 8.5 in wide


@pytest.mark.parametrize("file", ["markitdown/test.pptx", "markitdown/test.docx"])
def test_office_pages_are_rendered(file, shared_services):
    reading = read_file(CORPUS / file, services=shared_services, images=True)
    for page in reading.pages:
        image = Image.open(io.BytesIO(page.image))
        assert image.format == "PNG" and min(image.size) > 500
    if reading.kind == "pptx":  # 16:9 or 4:3 slides are wider than tall
        assert all(
            Image.open(io.BytesIO(p.image)).width > Image.open(io.BytesIO(p.image)).height for p in reading.pages
        )


def test_model_image_is_capped_but_not_upscaled(shared_services, tmp_path):
    wide = tmp_path / "wide.png"
    Image.new("RGB", (5000, 1000), "white").save(wide)
    reading = read_file(wide, services=shared_services)
    assert Image.open(io.BytesIO(reading.pages[0].image)).size == (2048, 410)
    small = Services(make_settings(tmp_path / "c", max_image_side=800))
    assert Image.open(io.BytesIO(read_file(wide, services=small).pages[0].image)).size == (800, 160)


def test_messages_carry_every_page_image_in_multimodal_mode(generated, shared_services):
    reading = read_file(generated["eight.pdf"], 2, 4, multimodal=True, services=shared_services)
    openai = reading.as_messages("openai")
    anthropic = reading.as_messages("anthropic")
    assert [p["type"] for p in openai] == ["text", "image_url"] * 3
    assert all(
        p["image_url"]["url"].startswith("data:image/png;base64,iVBORw0KGgo")
        for p in openai
        if p["type"] == "image_url"
    )
    assert [p["type"] for p in anthropic] == ["text", "image"] * 3
    assert anthropic[1]["source"]["media_type"] == "image/png" and anthropic[1]["source"]["type"] == "base64"
    assert openai[0]["text"].startswith("[PAGE 2]")
    text_only = read_file(generated["eight.pdf"], 2, 4, multimodal=False, services=shared_services)
    assert text_only.as_messages("openai") == [{"type": "text", "text": text_only.as_text()}]


def test_as_text_format(generated, shared_services):
    reading = read_file(generated["deck.pptx"], 2, 2, services=shared_services)
    reading.pages[0].description = "A table of costs."
    assert reading.as_text() == (
        "[SLIDE 2]\n# Budget\n\n| Item | Cost |\n|---|---|\n| Servers | "
        "4,000 |\n\n[SLIDE 2 - VISUAL CONTENT]\nA table of costs."
    )
    reading.question = "What does it cost?"
    assert '[SLIDE 2 - VISUAL CONTENT (Query: "What does it cost?")]' in reading.as_text()


def test_max_pages_reads_up_to_the_limit_with_a_warning(generated, tmp_path):
    services = Services(make_settings(tmp_path / "cache", max_pages=3))
    reading = read_file(generated["eight.pdf"], services=services)
    assert [p.number for p in reading.pages] == [1, 2, 3]
    assert reading.page_count == 8
    assert any("MAX_PAGES" in w for w in reading.warnings)


def test_second_read_is_served_from_the_disk_cache(generated, tmp_path):
    services = Services(make_settings(tmp_path / "cache"))
    first = read_file(generated["eight.pdf"], 1, 3, services=services)
    marked = 0
    for entry in services.store.folder(first.sha256).glob("*.json"):  # mark what the cache holds
        data = json.loads(entry.read_text())
        if isinstance(data, dict) and "text" in data:
            entry.write_text(json.dumps({**data, "text": "SERVED FROM CACHE"}))
            marked += 1
    assert marked == 3
    again = read_file(generated["eight.pdf"], 1, 3, services=services)
    assert all(p.text.startswith("SERVED FROM CACHE") for p in again.pages)
    assert [p.image for p in again.pages] == [p.image for p in first.pages]


def test_cache_is_keyed_by_content_not_name(generated, tmp_path):
    services = Services(make_settings(tmp_path / "cache"))
    renamed = tmp_path / "renamed.docx"
    renamed.write_bytes(generated["review.docx"].read_bytes())
    read_file(generated["review.docx"], services=services)
    entries = {p.name for p in services.store.root.iterdir()}
    read_file(renamed, services=services)
    assert {p.name for p in services.store.root.iterdir()} == entries


def test_a_slide_without_text_is_not_called_a_scan(shared_services, tmp_path):
    from pptx import Presentation
    from pptx.util import Inches

    deck = Presentation()
    deck.slides.add_slide(deck.slide_layouts[6]).shapes.add_picture(
        str(CORPUS / "python-docx/images/python.bmp"), Inches(1), Inches(1)
    )
    deck.save(tmp_path / "picture-only.pptx")
    reading = read_file(tmp_path / "picture-only.pptx", services=shared_services, images=True)
    assert reading.pages[0].image is not None and reading.pages[0].text.startswith("[Picture")
    assert not any("text layer" in warning for warning in reading.warnings)


def test_an_explicit_range_is_also_capped_by_max_pages(generated, tmp_path):
    services = Services(make_settings(tmp_path / "cache", max_pages=3))
    reading = read_file(generated["eight.pdf"], 2, 8, services=services)
    assert [p.number for p in reading.pages] == [2, 3, 4]
    assert any("read pages 2-4 of 2-8 (MAX_PAGES is 3)" in w for w in reading.warnings)


def test_services_do_not_measure_the_cache_to_hand_it_out(tmp_path):
    class Unmeasurable(dict):
        def __len__(self):
            raise AssertionError("counting the cache reads every shard")

    cache = Unmeasurable()
    services = Services(make_settings(tmp_path), cache=cache)
    assert services.cache is cache


def test_every_cached_file_goes_through_the_store_and_carries_a_version(generated, tmp_path):
    """One cache door (readers.storage.files): every file a read leaves in the cache is one of the
    store's entries, named with the version of what made it, whatever the kind and however it came."""
    services = Services(make_settings(tmp_path / "cache", vision_provider="ocr"))
    damaged = fixtures.damaged_part(generated["review.docx"], tmp_path / "damaged.docx", "word/styles.xml", b"<w:")
    for path in (
        *(generated[name] for name in ("eight.pdf", "review.docx", "deck.pptx", "workbook.xlsx", "page.html")),
        *(generated[name] for name in ("frames.tiff", "big.csv", "pond.epub", "names-only.msg")),
        damaged,
        CORPUS / "docling/formats/docx_external_image.docx",
    ):
        read_file(path, services=services, images=True)
    named = tuple(f"{entry.kind}.v{entry.version}" for entry in ENTRIES)
    files = [path for path in services.store.root.rglob("*") if path.is_file()]
    assert len(files) > 40 and [path.name for path in files if not path.name.startswith(named)] == []
