"""A file named by its URL: fetched once, within the rules below, into the cache, then read as a file
on disk is (``read_file`` of an ``http(s)://`` name; the app's address box and the API's ``url``
call ``fetch`` themselves, so that a file read more than once is fetched once).

The rules, each refusal a ``ReaderError`` naming the URL:

- http and https only, a URL of at most ``MAX_URL_CHARS`` with no user name or password in it
  (``URL_REFUSED``);
- the host is resolved once (``resolve``, which tests replace) and every address it has is checked
  before anything is sent: loopback, private, link-local, multicast, reserved and every other
  address that is not public are refused (``URL_REFUSED``), an IPv6 address that carries an IPv4
  one (mapped, 6to4, NAT64) as that address too, unless ``URL_ALLOW`` names the host or a network
  holding the address; in public mode (``READLENS_PUBLIC``) every address that is not public is
  refused whatever ``URL_ALLOW`` says. The connection goes to an address so checked, never to the
  name resolved again (a name that answers differently the second time reaches nothing new), with
  the URL's host in the request and in TLS's certificate check;
- at most ``MAX_REDIRECTS`` redirects, each new URL checked from the start;
- ``URL_TIMEOUT`` seconds to connect and to wait for each piece of the answer, and
  ``URL_DOWNLOAD_TIMEOUT`` for the whole of it, every hop and what stands between them (resolving
  the next name, connecting to it) included (``FETCH_FAILED``), so a server that sends a byte a
  second, or redirects to one, stalls nothing; the connection is closed when the fetch ends;
- at most ``MAX_FILE_MB``: a larger Content-Length is refused before the body, and a body is
  streamed and cut off once past the limit (``FILE_TOO_LARGE``), a compressed one counted as it
  is decompressed.

A 404 or 410 is ``FILE_NOT_FOUND``, an empty body ``EMPTY_FILE``, any other failure (an HTTP error,
a name that does not resolve, a refused connection, a certificate that does not match)
``FETCH_FAILED``. What comes back is stored as ``files/<sha256>/download<suffix>`` in the cache, the
suffix from its Content-Type (or, where that says little, from its Content-Disposition name or the
URL's path): a hint for the detection from its bytes, as a file's name is.
"""

from __future__ import annotations

import hashlib
import http.client
import ipaddress
import mimetypes
import os
import re
import socket
import ssl
import tempfile
import threading
import time
import zlib
from pathlib import Path, PurePosixPath
from urllib.parse import quote, urljoin, urlsplit, urlunsplit

from ..errors import ReaderError
from ..settings import Settings
from ..storage.files import DOWNLOAD, Store
from .names import label, safe_suffix

SCHEMES = {"http": 80, "https": 443}
URL_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
MAX_URL_CHARS = 2048  # what browsers and sitemaps keep to; a longer one is no link a person gives
MAX_REDIRECTS = 5
REDIRECTS = {301, 302, 303, 307, 308}
GONE = {404, 410}
CHUNK = 1 << 16
USER_AGENT = "ReadLens (+https://github.com/readlens)"
# Types that say nothing of the format: the name the server gives, or the URL's path, hints better.
VAGUE_TYPES = {"", "application/octet-stream", "text/plain", "binary/octet-stream", "application/download"}
NAT64 = ipaddress.ip_network("64:ff9b::/96")
URL_SAFE = (
    "/%:@!$&'()*+,;=~"  # characters a path or query may hold as they are (RFC 3986), "%" for escapes already made
)


def is_url(path) -> bool:
    """Whether ``path`` is a URL (``scheme://...``) rather than a path on disk."""
    return isinstance(path, str) and URL_SCHEME.match(path) is not None


def url_name(url: str) -> str:
    """The name a URL's reading goes by: the URL without a user name, a password or a fragment, in
    printable characters."""
    try:
        parts = urlsplit(url)
        netloc = parts.netloc.rpartition("@")[2]
        return label(urlunsplit((parts.scheme, netloc, parts.path, parts.query, "")))
    except ValueError:
        return label(url)


def resolve(host: str, port: int) -> list[str]:
    """The addresses ``host`` resolves to, each once, in the resolver's order (tests replace this)."""
    found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]) for info in found))


def _resolved(host: str, port: int) -> list[str] | Exception:
    try:
        return resolve(host, port)
    except (OSError, UnicodeError) as error:
        return error


def _kind(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> str | None:
    """What sort of address that is not public ``address`` is, or None for a public one."""
    carried: list[ipaddress.IPv4Address | ipaddress.IPv6Address | None] = [address]
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:  # IPv4 written as IPv6: it goes there
        carried = [address.ipv4_mapped]
    elif isinstance(address, ipaddress.IPv6Address):
        carried += [address.sixtofour, *(address.teredo or ())]
        if address in NAT64:
            carried.append(ipaddress.IPv4Address(int(address) & 0xFFFFFFFF))
    for ip in [ip for ip in carried if ip is not None]:
        if ip.is_loopback:
            return "a loopback address (this machine)"
        if ip.is_link_local:
            return "a link-local address"
        if ip.is_multicast:
            return "a multicast address"
        if ip.is_reserved or ip.is_unspecified:
            return "a reserved address"
        if ip.is_private:
            return "a private address"
        if not ip.is_global:  # shared (100.64.0.0/10) and the like
            return "a reserved address"
    return None


def _allowed(host: str, address, settings: Settings) -> bool:
    """Whether ``URL_ALLOW`` lets ``host`` at ``address`` be reached though it is not public (never in public mode)."""
    if settings.public:
        return False
    for entry in settings.url_allow:
        if entry.lower() == host.lower():
            return True
        try:
            if address in ipaddress.ip_network(entry, strict=False):
                return True
        except (ValueError, TypeError):  # a host name, or a network of the other IP version
            continue
    return False


class _Target:
    """One URL to fetch, checked: its parts, and the addresses it may be fetched from."""

    def __init__(self, url: str, shown: str, settings: Settings, deadline: _Deadline):
        what = shown if url == shown else f"{shown} (redirected to {url_name(url)})"
        try:
            parts = urlsplit(url)
            port = parts.port
        except ValueError:
            raise ReaderError("URL_REFUSED", f"{what} is not a valid URL. Check it and try again.") from None
        scheme = parts.scheme.lower()
        if scheme not in SCHEMES:
            raise ReaderError(
                "URL_REFUSED", f"{what} is refused: ReadLens fetches only http:// and https:// URLs, not {scheme}://."
            )
        if len(url) > MAX_URL_CHARS:
            raise ReaderError(
                "URL_REFUSED", f"{what[:80]}… is {len(url):,} characters long; at most {MAX_URL_CHARS:,}."
            )
        if parts.username is not None or parts.password is not None:
            raise ReaderError(
                "URL_REFUSED", f"{what} carries a user name or password; ReadLens sends none. Give the URL without it."
            )
        try:
            host = (parts.hostname or "").encode("idna").decode("ascii")  # a name in other scripts, as DNS spells it
        except UnicodeError:
            raise ReaderError("URL_REFUSED", f"{what} is not a valid URL: its host cannot be a name.") from None
        if not host:
            raise ReaderError("URL_REFUSED", f"{what} names no host. Check it and try again.")
        self.what, self.scheme, self.host = what, scheme, host
        self.port = port or SCHEMES[scheme]
        path, query = quote(parts.path or "/", safe=URL_SAFE), quote(parts.query, safe=URL_SAFE + "?")
        self.path = urlunsplit(("", "", path, query, ""))  # spaces and letters outside ASCII, %-escaped
        self.file_name = PurePosixPath(parts.path).name
        self.addresses = self._checked(settings, deadline)

    def _checked(self, settings: Settings, deadline: _Deadline) -> list[str]:
        found: list = []  # the addresses, or the error, resolving gives: within the download's time left
        resolving = threading.Thread(target=lambda: found.append(_resolved(self.host, self.port)), daemon=True)
        resolving.start()
        resolving.join(deadline.left())
        if not found:
            raise _failed(self, TimeoutError(), deadline.expire())
        if isinstance(addresses := found[0], Exception):
            raise ReaderError(
                "FETCH_FAILED", f"{self.what} could not be fetched: its host {self.host} was not found."
            ) from None
        for address in addresses:
            ip = ipaddress.ip_address(address.split("%", 1)[0])
            kind = _kind(ip)
            if kind and not _allowed(self.host, ip, settings):
                rule = (
                    "this server reads only public addresses"
                    if settings.public
                    else "ReadLens reads only public addresses unless URL_ALLOW names the host or its network"
                )
                where = f"{address} is" if address == self.host else f"{self.host} is at {address},"
                raise ReaderError("URL_REFUSED", f"{self.what} is refused: {where} {kind}; {rule}.")
        if not addresses:
            raise ReaderError("FETCH_FAILED", f"{self.what} could not be fetched: its host {self.host} has no address.")
        return addresses


class _Deadline:
    """Shuts the connection under way (the last one ``watch`` was given) once the whole download has
    taken ``seconds``, and any connection made after that as soon as it is."""

    def __init__(self, seconds: float):
        self.seconds, self.expired = seconds, False
        self.sock: socket.socket | None = None
        self.ends = time.monotonic() + seconds
        self.timer = threading.Timer(seconds, self.expire)
        self.timer.daemon = True

    def left(self) -> float:
        return max(0.0, self.ends - time.monotonic())

    def expire(self) -> _Deadline:
        self.expired = True
        self._shut(self.sock)
        return self

    def watch(self, sock: socket.socket) -> socket.socket:
        self.sock = sock
        if self.expired:  # it expired while this connection was being made
            self._shut(sock)
        return sock

    @staticmethod
    def _shut(sock: socket.socket | None) -> None:
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


class _Pinned(http.client.HTTPConnection):
    """A connection to the address checked (``address``), whatever the host's name resolves to now,
    made within the download's time left and watched by its deadline from its first moment."""

    def __init__(self, target: _Target, address: str, timeout: float, deadline: _Deadline):
        super().__init__(target.host, target.port, timeout=timeout)
        self.address, self.deadline = address, deadline

    def connect(self):
        self.sock = self.deadline.watch(
            socket.create_connection((self.address, self.port), min(self.timeout, self.deadline.left()))
        )


class _PinnedTLS(http.client.HTTPSConnection):
    """``_Pinned`` over TLS: the certificate is checked against the URL's host."""

    def __init__(self, target: _Target, address: str, timeout: float, deadline: _Deadline):
        super().__init__(target.host, target.port, timeout=timeout, context=ssl.create_default_context())
        self.address, self.deadline = address, deadline

    def connect(self):
        sock = self.deadline.watch(
            socket.create_connection((self.address, self.port), min(self.timeout, self.deadline.left()))
        )
        self.sock = self.deadline.watch(self._context.wrap_socket(sock, server_hostname=self.host))


def _failed(target: _Target, error: Exception, deadline: _Deadline) -> ReaderError:
    if deadline.expired:
        why = f"it took longer than {deadline.seconds:g} s (URL_DOWNLOAD_TIMEOUT)"
    elif isinstance(error, TimeoutError):
        why = "the server did not answer in time (URL_TIMEOUT)"
    elif isinstance(error, ssl.SSLCertVerificationError):
        why = f"its certificate is not valid for {target.host}"
    elif isinstance(error, ConnectionRefusedError):
        why = "the server refused the connection"
    else:
        why = f"the connection failed ({type(error).__name__})"
    return ReaderError("FETCH_FAILED", f"{target.what} could not be fetched: {why}. Check the URL and try again.")


def _open(target: _Target, settings: Settings, deadline: _Deadline):
    """The connection and the server's answer to a GET of ``target``, from the first of its checked
    addresses that connects."""
    kind = _PinnedTLS if target.scheme == "https" else _Pinned
    for index, address in enumerate(target.addresses):
        connection = kind(target, address, settings.url_timeout, deadline)
        try:
            if deadline.expired:
                raise TimeoutError
            connection.request(
                "GET",
                target.path,
                headers={"User-Agent": USER_AGENT, "Accept": "*/*", "Accept-Encoding": "gzip, deflate"},
            )
            return connection, connection.getresponse()
        except (OSError, http.client.HTTPException) as error:
            connection.close()
            if deadline.expired or index == len(target.addresses) - 1 or not isinstance(error, ConnectionError):
                raise _failed(target, error, deadline) from None
    raise AssertionError("unreachable: a target has an address")


def _suffix(response: http.client.HTTPResponse, target: _Target) -> str:
    """The extension to store the body under: from its Content-Type, else the name it is sent
    under or the URL's path."""
    content_type = (response.getheader("Content-Type") or "").split(";")[0].strip().lower()
    by_type = mimetypes.guess_extension(content_type) or "" if content_type not in VAGUE_TYPES else ""
    named = safe_suffix(response.msg.get_filename() or "") or safe_suffix(target.file_name)
    return by_type or named or (".txt" if content_type == "text/plain" else "")


def _save(response: http.client.HTTPResponse, target: _Target, settings: Settings, store: Store, deadline) -> Path:
    """The body, streamed into the cache and cut off past ``MAX_FILE_MB``; its path there."""
    limit = settings.max_file_bytes
    too_large = ReaderError(
        "FILE_TOO_LARGE", f"{target.what} is larger than {settings.max_file_mb:g} MB, the limit (MAX_FILE_MB)."
    )
    length = response.getheader("Content-Length")
    if length and length.strip().isdigit() and int(length) > limit:
        raise ReaderError(
            "FILE_TOO_LARGE",
            f"{target.what} is {int(length) / 1048576:.1f} MB; the limit is {settings.max_file_mb:g} MB (MAX_FILE_MB).",
        )
    encoding = (response.getheader("Content-Encoding") or "identity").strip().lower()
    if encoding not in ("identity", "gzip", "x-gzip", "deflate"):
        raise ReaderError(
            "FETCH_FAILED", f"{target.what} could not be fetched: the server sent it encoded as {encoding}."
        )
    decoder = zlib.decompressobj(zlib.MAX_WBITS | 32) if encoding != "identity" else None  # gzip or zlib, told apart
    store.root.mkdir(parents=True, exist_ok=True)
    digest, size = hashlib.sha256(), 0
    handle, temporary = tempfile.mkstemp(dir=store.root, prefix=".download-", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            while chunk := response.read1(CHUNK):
                if decoder is not None:
                    chunk = decoder.decompress(chunk, limit - size + 1)
                    if decoder.unconsumed_tail:
                        raise too_large
                size += len(chunk)
                if size > limit:
                    raise too_large
                digest.update(chunk)
                out.write(chunk)
        if deadline.expired:  # its connection was shut: what came is not the whole
            raise _failed(target, TimeoutError(), deadline)
        if size == 0:
            raise ReaderError("EMPTY_FILE", f"{target.what} is empty: the server sent no content.")
        path = store.path(digest.hexdigest(), DOWNLOAD, _suffix(response, target).lstrip("."))
        path.parent.mkdir(parents=True, exist_ok=True)
        os.replace(temporary, path)
        return path
    except (OSError, http.client.HTTPException, zlib.error) as error:
        raise _failed(target, error, deadline) from None
    finally:
        Path(temporary).unlink(missing_ok=True)


def fetch(url: str, settings: Settings, store: Store) -> Path:
    """Fetch ``url`` within the rules above into ``store``; the path of the file there.

    Raises ``ReaderError``: ``URL_REFUSED``, ``FETCH_FAILED``, ``FILE_NOT_FOUND``, ``FILE_TOO_LARGE``, ``EMPTY_FILE``.
    """
    shown, current = url_name(url), url.strip()
    deadline = _Deadline(settings.url_download_timeout)
    deadline.timer.start()
    try:
        for _ in range(MAX_REDIRECTS + 1):
            target = _Target(current, shown, settings, deadline)
            connection, response = _open(target, settings, deadline)
            try:
                location = response.getheader("Location")
                if response.status in REDIRECTS and location:
                    current = urljoin(current, location.strip())
                    continue
                if response.status in GONE:
                    raise ReaderError(
                        "FILE_NOT_FOUND", f"{target.what} was not found on its server (HTTP {response.status})."
                    )
                if response.status != 200:
                    raise ReaderError(
                        "FETCH_FAILED",
                        f"{target.what} could not be fetched: the server answered HTTP {response.status} "
                        f"{response.reason}.",
                    )
                return _save(response, target, settings, store, deadline)
            finally:
                response.close()
                connection.close()
        raise ReaderError("URL_REFUSED", f"{shown} is refused: it redirects more than {MAX_REDIRECTS} times.")
    finally:
        deadline.timer.cancel()
