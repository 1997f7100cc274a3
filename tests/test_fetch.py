"""Files read by their URL (``readers.intake.fetch``): read as the same file on disk is, and every
rule proved on a server the test starts on loopback. Names resolve through a table (no DNS), and a
fence refuses any connection off loopback, so a refusal is shown to send nothing anywhere."""

from __future__ import annotations

import gzip
import os
import socket
import subprocess
import sys
import threading
import time
from dataclasses import replace

import pytest

from readers import ReaderError, Services, Settings, read_file
from readers.intake import fetch
from testkit import CORPUS, ROOT, make_settings
from tests.conftest import BOUNDED_SECONDS
from tests.loopback import Site, fence, resolver

PDF, DOCX = CORPUS / "markitdown/test.pdf", CORPUS / "markitdown/test.docx"
PAGE = b"<html><head><title>Pond notes</title><link rel=stylesheet href=/style.css></head><body><h1>Pond notes</h1>"
PAGE += b"<p>The heron came back on Tuesday.</p><img src=/heron.png alt=Heron></body></html>"
# Each name a test's URL may hold, and where it points: every one of them is refused but loopback.
NAMES = {
    "localhost": ["127.0.0.1"],
    "intranet.test": ["10.1.2.3"],
    "metadata.test": ["169.254.169.254"],
    "group.test": ["224.0.0.1"],
    "reserved.test": ["240.0.0.1"],
    "nowhere.test": ["0.0.0.0"],
    "mapped.test": ["::ffff:10.0.0.1"],
    "twofaced.test": ["127.0.0.1", "10.0.0.1"],
}


def drip(handler) -> None:
    """A byte a tenth of a second, for ever: within each read's time-out, never done."""
    handler.send_response(200)
    handler.send_header("Content-Type", "text/plain")
    handler.end_headers()
    try:
        while True:
            handler.wfile.write(b"x")
            handler.wfile.flush()
            time.sleep(0.1)
    except OSError:
        return


def endless(handler) -> None:
    """A body sent in chunks with no length given, far longer than any limit."""
    handler.send_response(200)
    handler.send_header("Content-Type", "text/plain")
    handler.send_header("Transfer-Encoding", "chunked")
    handler.end_headers()
    block = b"y" * 65536
    try:
        for _ in range(1000):  # 64 MB
            handler.wfile.write(b"%x\r\n%s\r\n" % (len(block), block))
        handler.wfile.write(b"0\r\n\r\n")
    except OSError:
        return


def silent(handler) -> None:
    time.sleep(3)  # past the test's URL_TIMEOUT of 1 s, then nothing


@pytest.fixture
def site():
    routes = {
        "/papers/test.pdf": (200, {"Content-Type": "application/pdf"}, PDF.read_bytes()),
        "/download?id=7": (
            200,
            {"Content-Type": "application/octet-stream", "Content-Disposition": 'attachment; filename="test.docx"'},
            DOCX.read_bytes(),
        ),
        "/pond": (200, {"Content-Type": "text/html; charset=utf-8"}, PAGE),
        "/data.csv": (200, {"Content-Type": "text/plain"}, b"pond,birds\nNorth,12\nSouth,7\n"),
        "/moved": (302, {"Location": "/papers/test.pdf"}, b""),
        "/to-intranet": (302, {"Location": "http://intranet.test/secret"}, b""),
        "/loop": (302, {"Location": "/loop"}, b""),
        "/big": (200, {"Content-Type": "text/plain", "Content-Length": str(2 << 20)}, b""),
        "/endless": endless,
        "/bomb": (200, {"Content-Type": "text/plain", "Content-Encoding": "gzip"}, gzip.compress(b"z" * (3 << 20))),
        "/drip": drip,
        "/silent": silent,
        "/empty": (200, {"Content-Type": "text/plain"}, b""),
        "/broken": (500, {}, b"oops"),
        "/gone": (410, {}, b""),
    }
    with Site(routes) as served:
        yield served


@pytest.fixture
def fenced(monkeypatch):
    """The resolver's table in place of DNS, and the fence: the addresses it refused."""
    monkeypatch.setattr(fetch, "resolve", resolver(NAMES))
    return fence(monkeypatch)


def local(tmp_path, **settings) -> Services:
    """Services that may reach the loopback server (URL_ALLOW), a private cache and the test's limits."""
    return Services(make_settings(tmp_path / "cache", **{"url_allow": ("127.0.0.1",), "url_timeout": 1, **settings}))


def refused(url: str, services: Services) -> ReaderError:
    with pytest.raises(ReaderError) as caught:
        read_file(url, services=services)
    return caught.value


def test_a_url_is_read_as_the_same_file_on_disk_and_named_by_its_url(site, fenced, tmp_path, shared_services):
    services = local(tmp_path)
    for url, path in ((site.url("/papers/test.pdf"), PDF), (site.url("/download?id=7"), DOCX)):
        fetched, on_disk = read_file(url, services=services), read_file(path, services=shared_services)
        assert (fetched.kind, fetched.sha256, fetched.page_count) == (on_disk.kind, on_disk.sha256, on_disk.page_count)
        assert [page.text for page in fetched.pages] == [page.text for page in on_disk.pages]
        assert fetched.name == url and fetched.as_text() == on_disk.as_text()
        assert fetched.chunks()[0].citation == on_disk.chunks()[0].citation.replace(path.name, url)
    assert fenced == []


def test_the_content_type_says_what_a_page_is_and_a_vague_one_leaves_it_to_the_url(site, fenced, tmp_path):
    services = local(tmp_path)
    page = read_file(site.url("/pond"), services=services)
    assert page.kind == "html" and "# Pond notes" in page.as_text() and "The heron came back" in page.as_text()
    table = read_file(site.url("/data.csv"), services=services)
    assert table.kind == "csv" and "| North | 12 |" in table.as_text()
    moved = read_file(site.url("/moved"), services=services)
    assert moved.kind == "pdf" and moved.name == site.url("/moved") and site.hits["/papers/test.pdf"] == 1


def test_a_printed_page_fetches_none_of_its_stylesheets_or_pictures(site, fenced, tmp_path):
    """Chromium prints what was fetched and asks for nothing more, allowed or not."""
    reading = read_file(site.url("/pond"), services=local(tmp_path), multimodal=True)
    assert reading.pages[0].image is not None and "The heron came back" in reading.pages[0].text
    assert site.hits["/style.css"] == site.hits["/heron.png"] == 0


def test_loopback_is_refused_unless_allowed_and_always_in_public_mode(site, fenced, tmp_path):
    url = site.url("/papers/test.pdf")
    error = refused(url, Services(make_settings(tmp_path / "plain")))
    assert error.code == "URL_REFUSED" and error.message == (
        f"{url} is refused: 127.0.0.1 is a loopback address (this machine); ReadLens reads only public "
        "addresses unless URL_ALLOW names the host or its network."
    )
    public = refused(url, local(tmp_path, public=True))
    assert public.code == "URL_REFUSED" and public.message.endswith("this server reads only public addresses.")
    by_name = read_file(url.replace("127.0.0.1", "localhost"), services=local(tmp_path, url_allow=("localhost",)))
    assert by_name.kind == "pdf"
    assert site.hits["/papers/test.pdf"] == 1  # only the read allowed reached the server
    assert fenced == []


@pytest.mark.parametrize(
    "host, kind",
    [
        ("intranet.test", "10.1.2.3, a private address"),
        ("metadata.test", "169.254.169.254, a link-local address"),
        ("group.test", "224.0.0.1, a multicast address"),
        ("reserved.test", "240.0.0.1, a reserved address"),
        ("nowhere.test", "0.0.0.0, a reserved address"),
        ("mapped.test", "::ffff:10.0.0.1, a private address"),
        ("twofaced.test", "10.0.0.1, a private address"),  # one address refused refuses the name
    ],
)
def test_addresses_that_are_not_public_are_refused_before_anything_is_sent(fenced, tmp_path, host, kind):
    error = refused(f"http://{host}/report.pdf", local(tmp_path))
    assert error.code == "URL_REFUSED" and f"{host} is at {kind}; ReadLens reads only public" in error.message
    assert fenced == []


def test_a_redirect_is_checked_again_and_at_most_five_are_followed(site, fenced, tmp_path):
    services = local(tmp_path)
    error = refused(site.url("/to-intranet"), services)
    assert error.code == "URL_REFUSED" and error.message.startswith(
        f"{site.url('/to-intranet')} (redirected to http://intranet.test/secret) is refused: intranet.test is at "
        "10.1.2.3, a private address"
    )
    loop = refused(site.url("/loop"), services)
    assert loop.code == "URL_REFUSED" and loop.message.endswith("it redirects more than 5 times.")
    assert site.hits["/loop"] == 6 and fenced == []


@pytest.mark.parametrize(
    "url, code, says",
    [
        ("ftp://127.0.0.1/report.pdf", "URL_REFUSED", "ReadLens fetches only http:// and https:// URLs, not ftp://"),
        ("file:///etc/passwd", "URL_REFUSED", "not file://"),
        ("http://user:secret@127.0.0.1/x.pdf", "URL_REFUSED", "carries a user name or password"),
        ("http:///x.pdf", "URL_REFUSED", "names no host"),
        ("https://unknown.test/x.pdf", "FETCH_FAILED", "its host unknown.test was not found"),
    ],
)
def test_what_is_no_http_url_of_a_known_host_is_refused(fenced, tmp_path, url, code, says):
    error = refused(url, local(tmp_path))
    assert error.code == code and says in error.message and "secret" not in error.message
    assert fenced == []


def test_more_than_max_file_mb_is_refused_or_cut_off_as_it_streams(site, fenced, tmp_path):
    services = local(tmp_path, max_file_mb=1)
    told = refused(site.url("/big"), services)
    assert told.code == "FILE_TOO_LARGE" and told.message.endswith("is 2.0 MB; the limit is 1 MB (MAX_FILE_MB).")
    for path in ("/endless", "/bomb"):  # 64 MB sent without a length; 3 MB inflated from 3 KB of gzip
        error = refused(site.url(path), services)
        assert error.code == "FILE_TOO_LARGE" and error.message.endswith(
            "is larger than 1 MB, the limit (MAX_FILE_MB)."
        )
    assert not [name for name in os.listdir(services.store.root) if name.startswith(".download-")]


def test_a_server_that_stalls_or_drips_is_given_up_on(site, fenced, tmp_path):
    services = local(tmp_path, url_download_timeout=2)
    start = time.monotonic()
    silent_error = refused(site.url("/silent"), services)
    assert (
        silent_error.code == "FETCH_FAILED"
        and "the server did not answer in time (URL_TIMEOUT)" in silent_error.message
    )
    drip_error = refused(site.url("/drip"), services)
    assert drip_error.code == "FETCH_FAILED" and "it took longer than 2 s (URL_DOWNLOAD_TIMEOUT)" in drip_error.message
    assert time.monotonic() - start < 30


def test_the_download_deadline_holds_over_every_hop_and_between_them_and_closes_the_connection(
    site, fenced, tmp_path, monkeypatch
):
    table, closed = resolver(NAMES), threading.Event()

    def resolve(host: str, port: int) -> list[str]:
        if host == "slow.test":  # the deadline passes while the next hop's name resolves
            time.sleep(3)
            return ["127.0.0.1"]
        return table(host, port)

    def dripping(handler) -> None:
        drip(handler)
        closed.set()  # the client closed its end: the drip could write no more

    monkeypatch.setattr(fetch, "resolve", resolve)
    port = site.server.server_address[1]
    site.routes["/drip-for-ever"] = dripping
    site.routes["/to-slow"] = (302, {"Location": f"http://slow.test:{port}/drip-for-ever"}, b"")
    services = local(tmp_path, url_download_timeout=2, url_allow=("127.0.0.1", "slow.test"))
    started = time.monotonic()
    error = refused(site.url("/to-slow"), services)
    assert error.code == "FETCH_FAILED" and "it took longer than 2 s (URL_DOWNLOAD_TIMEOUT)" in error.message
    assert time.monotonic() - started < 2 + BOUNDED_SECONDS
    monkeypatch.setattr(fetch, "resolve", table)
    site.routes["/to-drip"] = (302, {"Location": "/drip-for-ever"}, b"")
    error = refused(site.url("/to-drip"), services)
    assert error.code == "FETCH_FAILED" and "URL_DOWNLOAD_TIMEOUT" in error.message
    assert closed.wait(BOUNDED_SECONDS), "the connection stayed open after the fetch ended"


def test_http_errors_and_empty_answers_say_so(site, fenced, tmp_path):
    services = local(tmp_path)
    assert refused(site.url("/gone"), services).code == "FILE_NOT_FOUND"
    assert refused(site.url("/nothing-here"), services).message.endswith("was not found on its server (HTTP 404).")
    broken = refused(site.url("/broken"), services)
    assert broken.code == "FETCH_FAILED" and "the server answered HTTP 500 Internal Server Error" in broken.message
    assert refused(site.url("/empty"), services).code == "EMPTY_FILE"
    with socket.socket() as held:  # a port the test holds, where nothing listens
        held.bind(("127.0.0.1", 0))
        refused_connection = refused(f"http://127.0.0.1:{held.getsockname()[1]}/x.pdf", services)
    assert refused_connection.code == "FETCH_FAILED" and "refused the connection" in refused_connection.message


def test_https_is_checked_against_the_urls_host(tmp_path, fenced, monkeypatch):
    """A certificate for localhost, trusted by the test: https://localhost/ is read, and the same
    server reached as 127.0.0.1, a name its certificate does not carry, is refused."""
    from testkit.fixtures.certificates import serve_tls

    with serve_tls(tmp_path, PDF.read_bytes(), monkeypatch) as port:
        services = local(tmp_path, url_allow=("localhost", "127.0.0.1"))
        assert read_file(f"https://localhost:{port}/test.pdf", services=services).kind == "pdf"
        error = refused(f"https://127.0.0.1:{port}/test.pdf", services)
        assert error.code == "FETCH_FAILED" and "its certificate is not valid for 127.0.0.1" in error.message


def test_url_allow_takes_names_and_networks_and_refuses_anything_else():
    settings = Settings.from_env({"URL_ALLOW": "Localhost, 10.0.0.0/8, 192.168.1.5"}, env_file="/nonexistent")
    assert settings.url_allow == ("localhost", "10.0.0.0/8", "192.168.1.5")
    with pytest.raises(ValueError, match="URL_ALLOW takes host names, addresses and networks"):
        replace(settings, url_allow=("http://intranet/",))


def test_the_command_line_reads_a_url(site, tmp_path):
    env = {**os.environ, "READLENS_CACHE_DIR": str(tmp_path / "cache"), "VISION_PROVIDER": "none"}
    run = lambda url, **extra: subprocess.run(
        [sys.executable, "-m", "readers", url],
        cwd=ROOT,
        env={**env, **extra},
        capture_output=True,
        text=True,
        timeout=120,
    )
    done = run(site.url("/pond"), URL_ALLOW="127.0.0.1")
    assert done.returncode == 0 and done.stdout.startswith("[PAGE 1]\n# Pond notes"), done.stderr
    refused_run = run(site.url("/pond"))
    assert refused_run.returncode == 2 and refused_run.stderr.startswith(f"error: URL_REFUSED: {site.url('/pond')}")
