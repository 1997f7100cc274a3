"""One file never reveals another (issue 44): no OCR from someone else's file through the shared
cache, and nothing a document links — a picture, a text, a template, an object at a path of this
machine or at an address — is fetched or read, by any engine, in any mode, through any door.

Each document links a picture and a text the test wrote on disk and the same served by a loopback
server the test runs; every word of theirs is a number no document holds, so a word of them in a
reading, a description or the OCR of a render means it was loaded, and any request the server
gets means it was fetched. Nothing here is pointed at any address but loopback.
"""

from __future__ import annotations

import http.server
import io
import os
import re
import threading
import zipfile
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from gradio_client import Client, handle_file

from readers import read_file
from readers.describe.ocr import read_text
from readers.intake.links import where
from readers.kinds import KINDS
from readers.render import browser, sandbox
from readers.render import libreoffice as office
from readers.services import Services
from readers.storage.files import UNLINKED
from testkit import CORPUS, make_settings
from testkit.fixtures import linked, shared_images
from testkit.fixtures.common import text_picture
from tests.model_output import assert_says

SECRETS = {"picture": "LOCAL PICTURE 7777", "text": "LOCAL TEXT 8888"}
SERVED = {"picture": "SERVED PICTURE 5555", "text": "SERVED TEXT 6666"}
NUMBERS = ("7777", "8888", "5555", "6666")
NOTED = {"docx-picture", "docx-includepicture", "pptx-picture"}  # their text marks each linked picture
# No warning: a web page's addresses are its own text (Chromium, walled in, fetches none), and a
# template holds styles, never content (most Word files name their author's own).
UNSAID = {"html", "docx-template-file", "docx-template-http"}


def picture_of(words: str) -> bytes:
    buffer = io.BytesIO()
    text_picture([words], size=(900, 180), font_size=64).save(buffer, "PNG")
    return buffer.getvalue()


class Loopback:
    """A server on loopback that answers every request with a picture (or a text) of known words
    and keeps what it was asked."""

    def __init__(self):
        self.requests: list[str] = []
        picture, text = picture_of(SERVED["picture"]), f"{SERVED['text']}\n".encode()
        requests = self.requests

        class Handler(http.server.BaseHTTPRequestHandler):
            def answer(self):
                requests.append(f"{self.command} {self.path} ({self.headers.get('User-Agent')})")
                body = picture if self.path.endswith(".png") else text
                self.send_response(200)
                self.send_header("Content-Type", "image/png" if body is picture else "text/plain")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                if self.command not in ("HEAD", "OPTIONS"):
                    self.wfile.write(body)

            do_GET = do_HEAD = do_OPTIONS = do_POST = do_PROPFIND = answer

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.base = f"http://127.0.0.1:{self.server.server_port}"


@pytest.fixture(scope="module")
def loopback():
    server = Loopback()
    yield server
    server.server.shutdown()


@pytest.fixture(scope="module")
def places(tmp_path_factory, loopback) -> linked.Places:
    """The picture and the text on disk (in a folder no document names), and on the loopback server."""
    folder = tmp_path_factory.mktemp("private")
    (folder / "picture.png").write_bytes(picture_of(SECRETS["picture"]))
    (folder / "notes.txt").write_text(f"{SECRETS['text']}\n")
    return linked.Places(
        (folder / "picture.png").as_uri(),
        (folder / "notes.txt").as_uri(),
        f"{loopback.base}/linked.png",
        f"{loopback.base}/notes.txt",
    )


@pytest.fixture(scope="module")
def vectors(tmp_path_factory, places) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("vectors")
    return {name: make(folder / file_name, places) for name, (make, file_name) in linked.VECTORS.items()}


@pytest.fixture(scope="module")
def ocr_services(tmp_path_factory) -> Services:
    """Nothing configured (local OCR describes the figures), one cache for the module's reads."""
    return Services(make_settings(tmp_path_factory.mktemp("cache"), vision_provider="auto"))


def assert_nothing_loaded(text: str, loopback: Loopback, before: int, where: str) -> None:
    assert loopback.requests[before:] == [], f"{where}: the server was asked {loopback.requests[before:]}"
    # a number alone, not digits of another (a timing's "4.3013999857066665e-05" holds "6666")
    leaked = [number for number in NUMBERS if re.search(rf"(?<!\d){number}(?!\d)", text)]
    assert not leaked, f"{where}: linked content came back ({leaked}):\n{text}"


@pytest.mark.parametrize("vector", list(linked.VECTORS))
def test_a_read_loads_nothing_a_document_links_in_either_mode(vector, vectors, places, loopback, ocr_services):
    before = len(loopback.requests)
    text_only = read_file(vectors[vector], services=ocr_services)
    assert_nothing_loaded(text_only.as_text(), loopback, before, f"{vector}, text only")
    shown = read_file(vectors[vector], services=ocr_services, multimodal=True)
    renders = "\n".join(read_text(page.image) for page in shown.pages if page.image is not None)
    assert renders.strip(), f"{vector}: its pages were rendered and have words"
    assert_nothing_loaded(f"{shown.as_text()}\n{renders}", loopback, before, f"{vector}, page images")
    assert linked.BEFORE.split()[0] in text_only.as_text(), "the document's own text is read"
    if vector not in UNSAID:
        assert any("links content outside itself" in warning for warning in text_only.warnings), text_only.warnings
        assert not any(Path(places.picture[len("file://") :]).parent.name in part for part in text_only.warnings)
    if vector in NOTED:
        for where in ("file:", loopback.base):
            assert f"linked to {where}, not loaded]" in text_only.as_text()
    if vector == "xlsx-picture":
        assert text_only.pages[0].description.count(f"linked to {loopback.base}, not loaded.") == 1
        assert [figure.linked for figure in text_only.pages[0].figures] == ["file:", loopback.base]
    if vector == "odt":  # linked sections are never updated: each keeps its own text
        assert text_only.as_text().count(linked.SECTION) == 2


def test_the_apps_api_loads_nothing_a_document_links(ocr_app, vectors, loopback):
    client = Client(ocr_app, verbose=False)
    for vector, path in vectors.items():
        before = len(loopback.requests)
        answer = client.predict(
            file=handle_file(str(path)),
            page_start=None,
            page_end=None,
            describe="",
            multimodal=False,
            api_name="/read_file",
        )
        assert_nothing_loaded(str(answer), loopback, before, f"{vector} through the API")
        assert linked.BEFORE in str(answer)


def test_a_linked_section_is_never_updated(tmp_path, places, ocr_services):
    document = linked.odf_linked(tmp_path / "passwd.odt", places, section="file:///etc/passwd")
    reading = read_file(document, services=ocr_services)
    assert linked.SECTION in reading.as_text() and "root:" not in reading.as_text()


def printed_words(pdf: Path) -> str:
    """The words OCR reads in every page of ``pdf``, rendered at 100 dpi."""
    document, words = pdfium.PdfDocument(str(pdf)), []
    try:
        for page in document:
            buffer = io.BytesIO()
            page.render(scale=100 / 72).to_pil().save(buffer, "PNG")
            words.append(read_text(buffer.getvalue()))
    finally:
        document.close()
    return "\n".join(words)


def libreoffice_words(source: Path, tmp_path: Path) -> str:
    """The words in the pages LibreOffice prints of ``source`` as it stands, links and all (an ODF
    or RTF file printed as its OOXML kind's are, straight from the file)."""
    target, extension = tmp_path / f"{source.stem}.pdf", source.suffix.lstrip(".")
    kind = {"odt": "docx", "rtf": "docx", "odp": "pptx", "ods": "xlsx"}.get(extension, extension)
    office._convert(source, extension, KINDS[kind].pdf_filter, target, 120, tmp_path / "profiles", source.name, "")
    return printed_words(target)


@pytest.mark.parametrize("guard", ["settings", "walls"])
def test_each_guard_of_libreoffice_alone_loads_no_link(guard, vectors, loopback, tmp_path, monkeypatch):
    """Belt and braces: the copy without links is not used here, and one of LibreOffice's two other
    guards is taken away (a fresh LibreOffice, its own profile): what is left loads nothing."""
    office.shutdown()
    if guard == "settings":
        monkeypatch.setattr(sandbox, "available", lambda: False)
    else:
        monkeypatch.setattr(office, "LOCKED_DOWN", ())
    try:
        for vector in ("docx-picture", "odt", "rtf", "pptx-picture"):
            path = vectors[vector]
            before = len(loopback.requests)
            words = libreoffice_words(path, tmp_path)
            assert_nothing_loaded(words, loopback, before, f"{vector} with the {guard} alone")
            assert linked.BEFORE.split()[0] in words
        if guard == "walls":
            pid = office.running_pid()
            assert os.readlink(f"/proc/{pid}/ns/net") != os.readlink("/proc/self/ns/net")
    finally:
        office.shutdown()  # the next conversion starts a LibreOffice with every guard


def test_the_copy_libreoffice_converts_names_nothing_outside(vectors, places, ocr_services):
    for vector, path in vectors.items():
        if vector == "html":
            continue
        reading = read_file(path, services=ocr_services)
        copy = ocr_services.store.path(reading.sha256, UNLINKED, "original")
        if copy.read_bytes().startswith(b"{\\rtf"):
            members = [copy.read_bytes()]
        else:
            with zipfile.ZipFile(copy) as package:
                members = [package.read(name) for name in package.namelist()]
        for place in (*places.pictures, *places.texts):
            assert not any(place.encode() in member for member in members), f"{vector} still links {place}"


def test_libreoffice_and_chromium_run_walled_in(tmp_path, vectors, places):
    """Their own network (a loopback of their own) and their own view of the files."""
    browser.print_page(f"<p>{linked.BEFORE}</p>", tmp_path / "page.pdf")
    assert linked.BEFORE.split()[0] in libreoffice_words(vectors["docx-template-file"], tmp_path)
    for pid in (browser.browser_pid(), office.running_pid()):
        for space in ("net", "mnt"):
            assert os.readlink(f"/proc/{pid}/ns/{space}") != os.readlink(f"/proc/self/ns/{space}"), space
        for private in (Path(places.picture[len("file://") :]), Path.cwd() / "README.md", Path.home()):
            assert not Path(f"/proc/{pid}/root{private}").exists(), f"{private} is seen from inside the walls"


@pytest.mark.parametrize("pair", ["form", "palette", "mask"])
@pytest.mark.parametrize("first", [0, 1])
def test_two_pdfs_sharing_an_image_stream_each_get_their_own_words_through_one_cache(pair, first, tmp_path):
    """A form filled in over its scanned background and the blank form; one stream of indices under
    two palettes; one picture under two soft masks: each file's OCR is its own, in either order."""
    if pair == "form":
        background = shared_images.form_background(tmp_path / "background.png")
        files = [
            (shared_images.form_pdf(tmp_path / "filled.pdf", background, filled=True), shared_images.FILLED),
            (shared_images.form_pdf(tmp_path / "blank.pdf", background, filled=False), ()),
        ]
    else:
        make = shared_images.palette_pdf if pair == "palette" else shared_images.masked_pdf
        files = [
            (make(tmp_path / f"{word}.pdf", word), (word,))
            for word in (shared_images.LEFT_WORD, shared_images.RIGHT_WORD)
        ]
    one_cache = Services(make_settings(tmp_path / "cache", vision_provider="ocr"))
    others = {word for _, words in files for word in words}
    for path, words in files[first:] + files[:first]:
        description = read_file(path, services=one_cache).pages[0].description
        if words:
            assert_says(description, *words)
        for other in others - set(words):
            assert re.sub(r"\W", "", other) not in re.sub(r"\W", "", description), (path.name, description)


def test_the_same_picture_in_two_files_is_read_once(tmp_path):
    background = shared_images.form_background(tmp_path / "background.png")
    first = shared_images.form_pdf(tmp_path / "first.pdf", background, filled=False)
    # the same page but for the line above the picture
    second = shared_images.form_pdf(tmp_path / "second.pdf", background, filled=False, heading="Form 8.")
    one_cache = Services(make_settings(tmp_path / "cache", vision_provider="ocr"))
    assert read_file(first, services=one_cache).usage.calls == 1
    again = read_file(second, services=one_cache)
    assert again.usage.calls == 0 and again.pages[0].description_source == "ocr (cached)"
    assert_says(again.pages[0].description, "APPLICATION FORM")


def test_real_documents_with_linked_pictures_say_so_and_never_name_a_local_path(ocr_services):
    """docling's test files: a Word picture whose relationship points at an address, a slide's
    picture linked to a file on its author's computer."""
    word = read_file(CORPUS / "docling/formats/docx_external_image.docx", services=ocr_services)
    assert "[Picture — linked to https://example.com, not loaded]" in word.as_text()
    assert word.warnings == [links_warning_of(word.name, "1 picture linked to https://example.com")]
    deck = read_file(CORPUS / "docling/formats/powerpoint_with_image.pptx", services=ocr_services)
    assert "[Picture: A cartoon duck holding a paper — linked to file:, not loaded]" in deck.as_text()
    assert "/Users" not in deck.as_text() and not any("/Users" in warning for warning in deck.warnings)


def links_warning_of(name: str, said: str) -> str:
    return (
        f"{name} links content outside itself ({said}): ReadLens never loads a linked file or address, so of that "
        "content only what the file itself holds is shown (a field's or a chart's values as last saved)."
    )


def test_where_a_link_points_is_said_without_its_path():
    assert [
        where(target)
        for target in (
            "file:///home/someone/secret.png",
            "file://server/share/plan.xlsx",
            "\\\\server\\share\\plan.xlsx",
            "C:\\Users\\someone\\Normal.dotm",
            "/etc/passwd",
            "../pictures/logo.png",
            "HTTPS://Example.com:8443/a/b.png?key=1",
        )
    ] == ["file:", "file://server", "file://server", "file:", "file:", "a file beside it", "https://example.com:8443"]
