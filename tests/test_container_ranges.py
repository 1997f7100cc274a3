"""A page range of a ZIP archive or an e-mail reads only the members, and the pages within them,
that it covers: each member's pages are counted first (nothing described), so no vision call is
made for a page that is not returned, and the pages keep the numbers a whole reading gives them."""

from __future__ import annotations

import pytest

from readers import Services, read_file
from readers.notices import Code
from testkit import fixtures, make_settings

CHAT = "/v1/chat/completions"
BROKEN = b"%PDF-1.7\nnot a real PDF\n"  # one page that says why it was not read


@pytest.fixture(scope="module")
def pdfs(tmp_path_factory) -> dict[str, bytes]:
    """PDFs of 3, 4 and 2 pages, every page a picture a text-only model has described."""
    folder = tmp_path_factory.mktemp("pdfs")
    figures = fixtures.figures_pdf(folder / "figures.pdf")
    return {
        name: fixtures.multi_page_pdf(folder / name, pages, [(figures, 0)]).read_bytes()
        for name, pages in [("a.pdf", 3), ("b.pdf", 4), ("c.pdf", 2)]
    }


@pytest.fixture
def vision(tmp_path, fake_openai) -> Services:
    return Services(
        make_settings(
            tmp_path / "cache",
            vision_provider="openai",
            vision_base_url=fake_openai.base_url,
            vision_api_key="sk-test-ranges",
            vision_model="test-vision",
        )
    )


def shown(reading) -> list[tuple]:
    return [(page.number, page.section, page.text, page.description, page.error) for page in reading.pages]


def test_a_range_of_an_archive_describes_only_the_pages_it_returns(tmp_path, pdfs, vision, fake_openai):
    bundle = fixtures.archive(tmp_path / "bundle.zip", {"broken.pdf": BROKEN, **pdfs})  # pages: 1 | 2-4 | 5-8 | 9-10
    ranged = read_file(bundle, 6, 7, services=vision)
    assert len(fake_openai.calls(CHAT)) == 2, "only b.pdf's pages 2-3 are described"
    assert ranged.page_count == 10 and [(page.number, page.section) for page in ranged.pages] == [
        (6, "b.pdf"),
        (7, "b.pdf"),
    ]
    assert (
        ranged.as_text().startswith("[FILE: b.pdf]\n\n[PAGE 6]\n") and "[PAGE 7 - VISUAL CONTENT]" in ranged.as_text()
    )
    assert not any("broken.pdf" in warning for warning in ranged.warnings)  # a member outside the range is not reported
    whole = read_file(bundle, services=vision)
    assert len(fake_openai.calls(CHAT)) == 9, (
        "the whole archive describes its other seven pages; b.pdf's two are cached"
    )
    assert shown(ranged) == shown(whole)[5:7]
    assert [(page.number, page.section) for page in whole.pages] == [
        (1, "broken.pdf"),
        *((n, "a.pdf") for n in range(2, 5)),
        *((n, "b.pdf") for n in range(5, 9)),
        (9, "c.pdf"),
        (10, "c.pdf"),
    ]
    assert whole.pages[0].text.startswith("(not read: broken.pdf") and any(
        "broken.pdf" in warning for warning in whole.warnings
    )
    first = read_file(bundle, 1, 2, services=vision)  # the broken member's page, then a.pdf's first
    assert shown(first) == shown(whole)[:2] and len(fake_openai.calls(CHAT)) == 9


def test_a_range_of_an_email_reads_only_the_attachment_pages_it_covers(tmp_path, pdfs, vision, fake_openai):
    message = fixtures.mail(
        tmp_path / "counts.eml", {"a.pdf": pdfs["a.pdf"], "b.pdf": pdfs["b.pdf"]}
    )  # pages: 1 | 2-4 | 5-8
    letter = read_file(message, 1, 1, services=vision)
    assert letter.page_count == 8 and letter.pages[0].text.startswith("From: Ada Drake") and not fake_openai.calls(CHAT)
    ranged = read_file(message, 4, 5, services=vision)
    assert len(fake_openai.calls(CHAT)) == 2, "a.pdf's page 3 and b.pdf's page 1, and nothing else"
    assert [(page.number, page.section) for page in ranged.pages] == [(4, "a.pdf"), (5, "b.pdf")]
    whole = read_file(message, services=vision)
    assert (
        len(fake_openai.calls(CHAT)) == 7 and shown(ranged) == shown(whole)[3:5] and shown(letter) == shown(whole)[:1]
    )


def test_a_range_inside_a_nested_archive_reads_only_its_pages(tmp_path, pdfs, vision, fake_openai):
    inner = fixtures.archive(tmp_path / "inner.zip", {"b.pdf": pdfs["b.pdf"], "c.pdf": pdfs["c.pdf"]})
    outer = fixtures.archive(
        tmp_path / "outer.zip", {"a.pdf": pdfs["a.pdf"], "inner.zip": inner.read_bytes()}
    )  # 1-3 | 4-7, 8-9
    ranged = read_file(outer, 7, 8, services=vision)
    assert len(fake_openai.calls(CHAT)) == 2
    assert [(page.number, page.section) for page in ranged.pages] == [(7, "inner.zip/b.pdf"), (8, "inner.zip/c.pdf")]
    whole = read_file(outer, services=vision)
    assert whole.page_count == 9 and shown(ranged) == shown(whole)[6:8]


def test_a_nested_archive_counted_then_read_is_charged_to_the_limits_once(tmp_path, services):
    inner = fixtures.archive(
        tmp_path / "inner.zip", {f"inner-{index:02d}.txt": f"inner {index}\n".encode() for index in range(50)}
    )
    outer = fixtures.archive(
        tmp_path / "outer.zip",
        {**{f"outer-{index:02d}.txt": b"outer\n" for index in range(45)}, "inner.zip": inner.read_bytes()},
    )  # 46 + 50 of the 100 files a reading may hold
    reading = read_file(outer, 46, 47, services=services)
    assert [(page.number, page.section, page.text) for page in reading.pages] == [
        (46, "inner.zip/inner-00.txt", "inner 0"),
        (47, "inner.zip/inner-01.txt", "inner 1"),
    ]
    assert reading.page_count == 95 and reading.warnings == [
        "outer.zip has 95 pages; pages 46-47 were read, not the others."
    ], "the container says it, once: not the inner archive it reads two pages of"


def test_every_page_of_a_member_longer_than_max_pages_has_its_number(tmp_path, pdfs):
    services = Services(make_settings(tmp_path / "cache", max_pages=3))
    bundle = fixtures.archive(
        tmp_path / "long.zip", {"b.pdf": pdfs["b.pdf"], "c.pdf": pdfs["c.pdf"]}
    )  # pages: 1-4 | 5-6
    first = read_file(bundle, services=services, multimodal=True)
    assert first.page_count == 6 and [(page.number, page.section) for page in first.pages] == [
        (1, "b.pdf"),
        (2, "b.pdf"),
        (3, "b.pdf"),
    ]
    assert first.warnings == [
        "long.zip: read pages 1-3 of 1-6 (MAX_PAGES is 3). Ask for the next range to read more.",
        "long.zip has 6 pages; pages 1-3 were read, not the others.",
    ]
    rest = read_file(
        bundle, 4, 6, services=services, multimodal=True
    )  # b.pdf's last page is reached, not lost past MAX_PAGES
    assert [(page.number, page.section) for page in rest.pages] == [(4, "b.pdf"), (5, "c.pdf"), (6, "c.pdf")] and [
        notice.code for notice in rest.notices
    ] == [Code.PART_OF_FILE]
