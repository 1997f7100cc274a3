"""The LangChain loader and the LlamaIndex reader (``readers.integrations``), run against the real
frameworks on real files of the corpus: each page's and each chunk's text and metadata are
``read_file``'s own (its text, its citation as the export writes it, its tokens as ``/read_file``
counts them, its blocks as the JSON answer places them); a refused file raises or is logged with its
code as each framework does with its own loaders; folders are walked, and ``SimpleDirectoryReader``
reads one with the reader; the retrieval examples of ``docs/integrations.md`` run as written."""

from __future__ import annotations

import contextlib
import io
import logging
import re
import shutil
from dataclasses import asdict, replace
from pathlib import Path

import pytest
from langchain_core.document_loaders import BaseLoader
from llama_index.core import SimpleDirectoryReader
from llama_index.core.readers.base import BaseReader
from llama_index.core.schema import MetadataMode

from readers import ReaderError, Services, read_file
from readers.integrations.langchain import ReadLensLoader
from readers.integrations.llamaindex import ReadLensReader
from readers.kinds import KIND_BY_SUFFIX
from readers.payload.serialize import answer_json
from testkit import CORPUS, ROOT, make_settings
from tests.loopback import Site, fence
from ui.report import citation

PDF = CORPUS / "pdfplumber" / "ca-warn-report.pdf"
DOCX = CORPUS / "markitdown" / "test.docx"
PPTX = CORPUS / "markitdown" / "test.pptx"
XLSX = CORPUS / "docling" / "formats" / "xlsx_01.xlsx"
HTML = CORPUS / "markitdown" / "test_blog.html"
EMAIL = CORPUS / "docling" / "formats" / "eml_with_attachment.eml"
SCAN = CORPUS / "docling" / "ocr_test.pdf"
RECORDING = CORPUS / "faster-whisper" / "jfk.flac"
CHUNK_TOKENS = 256  # small enough that the PDF's and the web page's pages make several chunks each


@pytest.fixture(scope="module")
def ocr_services(tmp_path_factory) -> Services:
    """Local OCR reads the scan (nothing configured)."""
    return Services(make_settings(tmp_path_factory.mktemp("ocr"), vision_provider="ocr"))


def load(framework: str, path, services: Services, **options) -> list[tuple[str, dict]]:
    """(text, metadata) of each document ``framework``'s integration gives for ``path``."""
    if framework == "langchain":
        return [(doc.page_content, doc.metadata) for doc in ReadLensLoader(path, services=services, **options).load()]
    return [(doc.text, doc.metadata) for doc in ReadLensReader(services=services, **options).load_data(path)]


def page_documents(reading, source: str) -> list[tuple[str, dict]]:
    """Each page as read_file gives it: its text a model receives, its place as the export cites it,
    its tokens and its placed blocks from the JSON answer."""
    answer = answer_json(reading)
    documents = []
    for page, answered in zip(reading.pages, answer["pages"]):
        blocks = [block for block in answered["blocks"] if block["box"]]
        metadata = {
            "source": source,
            "kind": reading.kind,
            "page": page.number,
            "citation": citation(reading, page).removeprefix("*(Source: ").removesuffix(")*"),
            "tokens": answered["tokens"],
            "blocks": blocks,
        }
        documents.append(metadata)
    return documents


def assert_pages(documents: list[tuple[str, dict]], reading, source: str) -> None:
    expected = page_documents(reading, source)
    assert [{key: metadata[key] for key in expected[0]} for _, metadata in documents] == expected
    if not any(page.section for page in reading.pages):  # a container's pages each say their file
        assert "\n\n".join(text for text, _ in documents) == reading.as_text()
    for text, metadata in documents:
        assert text.startswith(f"[{reading.label} {metadata['page']}]") or text.startswith("[FILE: ")
        assert isinstance(metadata["headings"], list)


def assert_chunks(documents: list[tuple[str, dict]], reading, source: str) -> None:
    chunks = reading.chunks(CHUNK_TOKENS)
    assert len(documents) == len(chunks) > 1
    for (text, metadata), chunk in zip(documents, chunks):
        assert text == chunk.text
        assert {key: metadata[key] for key in ("source", "pages", "kind", "headings", "citation", "tokens")} == {
            "source": source,
            "kind": reading.kind,
            **{key: asdict(chunk)[key] for key in ("pages", "headings", "citation", "tokens")},
        }


@pytest.mark.parametrize("framework", ["langchain", "llamaindex"])
@pytest.mark.parametrize("path", [PDF, DOCX, PPTX, XLSX, HTML, EMAIL], ids=lambda path: path.suffix[1:])
def test_each_page_is_read_files_own(framework, path, shared_services):
    documents = load(framework, str(path), shared_services)
    reading = read_file(path, services=shared_services)
    assert len(documents) == len(reading.pages) > 1
    assert_pages(documents, reading, str(path))


@pytest.mark.parametrize("framework", ["langchain", "llamaindex"])
@pytest.mark.parametrize("path", [PDF, DOCX, HTML], ids=lambda path: path.suffix[1:])
def test_each_chunk_is_read_files_own(framework, path, shared_services):
    documents = load(framework, str(path), shared_services, mode="chunk", max_tokens=CHUNK_TOKENS)
    assert_chunks(documents, read_file(path, services=shared_services), str(path))


def test_the_pages_headings_and_blocks_say_where_the_text_is(shared_services):
    """A page starts under the headings above its first paragraph; a PDF page's blocks are its text,
    each with its box; a chunk's blocks are those it holds text of."""
    pages = [metadata for _, metadata in load("langchain", str(DOCX), shared_services)]
    assert pages[0]["headings"] == ["AutoGen: Enabling Next-Gen LLM Applications via Multi-Agent Conversation"]
    assert pages[1]["headings"] == ["Introduction", "d666f1f7-46cb-42bd-9a39-9a39cf2a509f"]  # carried over
    first = [metadata for _, metadata in load("langchain", str(PDF), shared_services)][0]
    assert [block["kind"] for block in first["blocks"]] == ["heading", "paragraph", "list_item", "table"]
    assert first["blocks"][0]["text"] == "# WARN Report*" and first["headings"] == ["WARN Report*"]
    assert all(0 <= left < right <= 1 and 0 <= top < bottom <= 1 for left, top, right, bottom in _boxes(first))
    chunks = load("langchain", str(PDF), shared_services, mode="chunk", max_tokens=CHUNK_TOKENS)
    placed = {
        (page["number"], block["kind"], block["text"])
        for page in answer_json(read_file(PDF, services=shared_services))["pages"]
        for block in page["blocks"]
        if block["box"] and block["kind"] != "furniture"
    }
    held = [(block["page"], block["kind"], block["text"]) for _, chunk in chunks for block in chunk["blocks"]]
    assert all(page in chunk["pages"] for _, chunk in chunks for page in (block["page"] for block in chunk["blocks"]))
    assert set(held) == {block for block in placed if block[1] != "heading"}  # a heading is in its chunks' context
    bakery = next(chunk for text, chunk in chunks if "Svenhard's Swedish Bakery" in text)
    assert [block["kind"] for block in bakery["blocks"]] == ["table"] and len(bakery["pages"]) == 1


def _boxes(metadata: dict) -> list:
    return [block["box"] for block in metadata["blocks"]]


def test_multimodal_pages_carry_their_image_and_their_blocks(shared_services):
    """A deck read with its images: each slide's render (base64 PNG), its tokens with the image's,
    and its blocks placed on the print."""
    documents = load("langchain", str(PPTX), shared_services, multimodal=True)
    reading = read_file(PPTX, multimodal=True, services=shared_services)
    assert_pages(documents, reading, str(PPTX))
    assert all(metadata["image"].startswith("iVBORw0KGgo") and metadata["blocks"] for _, metadata in documents)
    assert all(metadata["tokens"] > 1000 for _, metadata in documents)  # text and image: read_file's own count


@pytest.mark.parametrize("framework", ["langchain", "llamaindex"])
def test_a_scan_is_its_ocr_text(framework, ocr_services):
    documents = load(framework, str(SCAN), ocr_services)
    reading = read_file(SCAN, services=ocr_services)
    assert_pages(documents, reading, str(SCAN))
    assert "Docling bundles PDF document conversion" in documents[0][0]
    assert documents[0][1]["blocks"] == []  # OCR's text has no place in the PDF's text layer


@pytest.fixture(scope="module")
def loopback_services(shared_services) -> Services:
    """The session's services, but that they may read the test's server on loopback (``URL_ALLOW``)."""
    return Services(replace(shared_services.settings, url_allow=("127.0.0.1",)))


@pytest.mark.parametrize("framework", ["langchain", "llamaindex"])
def test_a_url_is_read_and_cited_by_its_url(framework, loopback_services, monkeypatch):
    refused = fence(monkeypatch)
    services = loopback_services
    routes = {"/reports/warn.pdf": (200, {"Content-Type": "application/pdf"}, PDF.read_bytes())}
    with Site(routes) as site:
        url = site.url("/reports/warn.pdf")
        documents = load(framework, url, services, mode="chunk", max_tokens=CHUNK_TOKENS)
        assert_chunks(documents, read_file(url, services=services), url)
    assert documents[0][1]["citation"] == f"{url}, p. 1" and refused == []


def test_a_recording_is_one_document_its_transcript(shared_services):
    [(text, metadata)] = load("llamaindex", str(RECORDING), shared_services)
    reading = read_file(RECORDING, services=shared_services)
    assert text == reading.as_text() and "ask not what your country can do for you" in text.lower()
    assert metadata == {
        "source": str(RECORDING),
        "kind": "audio",
        "headings": [],
        "citation": "jfk.flac",
        "tokens": reading.tokens(),
        "blocks": [],
    }


def test_both_are_the_frameworks_own_kinds():
    assert isinstance(ReadLensLoader(str(PDF)), BaseLoader) and isinstance(ReadLensReader(), BaseReader)
    assert ReadLensReader().file_extractor().keys() == KIND_BY_SUFFIX.keys()
    with pytest.raises(ValueError, match="mode must be one of 'page', 'chunk', not 'pages'"):
        ReadLensLoader(str(PDF), mode="pages")
    with pytest.raises(ReaderError) as caught:
        ReadLensReader(mode="chunk", max_tokens=4)  # refused before any file is read
    assert caught.value.code == "INVALID_QUERY"


@pytest.fixture
def folder(tmp_path) -> Path:
    """A folder of real files, one of them empty (refused), one hidden, one in a subfolder."""
    root = tmp_path / "docs"
    (root / "web").mkdir(parents=True)
    shutil.copy(PDF, root / "b-warn.pdf")
    shutil.copy(EMAIL, root / "a-mail.eml")
    shutil.copy(HTML, root / "web" / "blog.html")
    shutil.copy(XLSX, root / ".hidden.xlsx")
    (root / "c-empty.docx").write_bytes(b"")
    return root


def test_the_loader_walks_a_folder_and_refuses_a_file_as_langchains_loaders_do(folder, shared_services, caplog):
    with pytest.raises(ReaderError) as caught:
        ReadLensLoader(str(folder), services=shared_services).load()
    assert caught.value.code == "EMPTY_FILE"
    with caplog.at_level(logging.WARNING, logger="readers.integrations.langchain"):
        documents = ReadLensLoader(str(folder), silent_errors=True, services=shared_services).load()
    walked = [str(folder / "a-mail.eml"), str(folder / "b-warn.pdf"), str(folder / "web" / "blog.html")]
    assert list(dict.fromkeys(doc.metadata["source"] for doc in documents)) == walked  # name order, no hidden file
    for source in walked:
        assert_pages(
            [(doc.page_content, doc.metadata) for doc in documents if doc.metadata["source"] == source],
            read_file(source, services=shared_services),
            source,
        )
    [record] = [record for record in caplog.records if record.name == "readers.integrations.langchain"]
    assert record.getMessage().startswith(
        f"Error loading file {folder / 'c-empty.docx'}: EMPTY_FILE: c-empty.docx is empty"
    )


@pytest.mark.parametrize("framework", ["langchain", "llamaindex"])
def test_documents_stream_a_file_at_a_time(framework, shared_services, tmp_path):
    """The first file's documents come before the next file is read: here, before it is found missing."""
    files = [str(XLSX), str(tmp_path / "gone.pdf")]
    if framework == "langchain":
        stream = ReadLensLoader(files, services=shared_services).lazy_load()
    else:
        stream = ReadLensReader(services=shared_services).lazy_load_data(files)
    assert [next(stream).metadata["page"] for _ in range(4)] == [1, 2, 3, 4]
    with pytest.raises(ReaderError) as caught:
        next(stream)
    assert caught.value.code == "FILE_NOT_FOUND"


def test_simple_directory_reader_reads_a_folder_with_the_reader(folder, shared_services):
    reader = ReadLensReader(mode="chunk", max_tokens=CHUNK_TOKENS, services=shared_services)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        documents = SimpleDirectoryReader(
            str(folder), recursive=True, file_extractor=reader.file_extractor()
        ).load_data()
    assert f"Failed to load file {folder / 'c-empty.docx'} with error: EMPTY_FILE: " in printed.getvalue()
    sources = list(dict.fromkeys(doc.metadata["source"] for doc in documents))
    assert sorted(Path(source).name for source in sources) == ["a-mail.eml", "b-warn.pdf", "blog.html"]
    for source in sources:
        mine = [(doc.text, doc.metadata) for doc in documents if doc.metadata["source"] == source]
        assert all(metadata["file_path"] == source for _, metadata in mine)  # SimpleDirectoryReader's own metadata
        if source.endswith(".pdf"):
            assert_chunks(mine, read_file(source, services=shared_services), source)
    pdf = next(doc for doc in documents if doc.metadata["source"].endswith(".pdf"))
    # embedded: the text as ReadLens counted it, under the one key SimpleDirectoryReader shows; the model: the citation
    path = f"file_path: {pdf.metadata['file_path']}"
    assert pdf.get_content(MetadataMode.EMBED) == f"{path}\n\n{pdf.text}"
    assert pdf.get_content(MetadataMode.LLM) == f"{path}\ncitation: {pdf.metadata['citation']}\n\n{pdf.text}"
    [alone] = ReadLensReader(services=shared_services).load_data(str(XLSX), extra_info={"team": "sales"})[:1]
    assert alone.get_content(MetadataMode.EMBED) == f"team: sales\n\n{alone.text}"  # the caller's metadata, not ours
    with pytest.raises(Exception, match="Error loading file") as caught:
        SimpleDirectoryReader(str(folder), file_extractor=reader.file_extractor(), raise_on_error=True).load_data()
    assert isinstance(caught.value.__cause__, ReaderError) and caught.value.__cause__.code == "EMPTY_FILE"


def _examples() -> dict[str, str]:
    """docs/integrations.md's Python examples, by the section they stand in."""
    sections = re.split(r"^## ", (ROOT / "docs" / "integrations.md").read_text(), flags=re.M)
    return {
        section.split("\n", 1)[0]: block
        for section in sections
        for block in re.findall(r"```python\n(.*?)```", section, flags=re.S)
    }


@pytest.mark.parametrize("section", ["LangChain", "LlamaIndex"])
@pytest.mark.filterwarnings("ignore:`langchain-community` is being sunset:DeprecationWarning")  # its own notice
def test_the_docs_retrieval_examples_run_as_written(section, tmp_path, monkeypatch, shared_services):
    """Each example as it stands in the docs, run in a folder holding reports/ with the settings of the
    environment: here the session's cache, and no vision model."""
    reports = tmp_path / "reports"
    reports.mkdir()
    for path in (PDF, CORPUS / "markitdown" / "test.pdf", HTML):
        shutil.copy(path, reports)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("READLENS_CACHE_DIR", str(shared_services.settings.cache_dir))
    monkeypatch.setenv("VISION_PROVIDER", "none")
    code = _examples()[section]
    assert len(code.strip().splitlines()) <= 12
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, f"docs/integrations.md ({section})", "exec"), {})
    hits = printed.getvalue().split("--- ")[1:]
    assert len(hits) == 3 and hits[0].startswith("ca-warn-report.pdf, p. ")
    assert "| Svenhard's Swedish Bakery | Oakland | 162 | Closure Permanent |" in hits[0]
