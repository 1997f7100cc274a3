"""A web server on loopback for the files read by URL (``Site``), and a fence that keeps every
connection made in the test process on loopback (``fence``): with names resolved by a table
(``resolver``), nothing a test of the URL rules does, even through a bug in them, can send a packet
anywhere else.
"""

from __future__ import annotations

import http.server
import ipaddress
import socket
import threading
from collections import Counter
from collections.abc import Callable

Route = tuple[int, dict[str, str], bytes] | Callable[[http.server.BaseHTTPRequestHandler], None]


class Site:
    """Serves ``routes`` (a path: its status, headers and body, or a function that answers the
    request itself) on 127.0.0.1 and a free port, counting the requests for each path in ``hits``."""

    def __init__(self, routes: dict[str, Route]):
        self.routes, self.hits = routes, Counter()
        site = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):
                site.hits[self.path] += 1
                route = site.routes.get(self.path, (404, {}, b"not here"))
                if callable(route):
                    route(self)
                    return
                status, headers, body = route
                self.send_response(status)
                for name, value in {"Content-Length": str(len(body)), **headers}.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(body)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}{path}"

    def __enter__(self) -> Site:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()


def resolver(table: dict[str, list[str]]) -> Callable[[str, int], list[str]]:
    """A stand-in for ``readers.intake.fetch.resolve``: names from ``table``, addresses as written,
    and no other name (nothing is asked of a DNS server)."""

    def resolve(host: str, port: int) -> list[str]:
        if host in table:
            return table[host]
        try:
            return [str(ipaddress.ip_address(host))]
        except ValueError:
            raise socket.gaierror(socket.EAI_NONAME, f"{host} is not in the test's table") from None

    return resolve


def fence(monkeypatch) -> list:
    """Refuse every connection to an address that is not loopback in this process, and record it:
    the list that comes back holds each address refused (a test asserts it stays empty)."""
    refused: list = []
    connect = socket.socket.connect

    def fenced(self, address):
        host = address[0] if isinstance(address, tuple) else None
        if host is not None and not ipaddress.ip_address(host.split("%", 1)[0]).is_loopback:
            refused.append(host)
            raise OSError(f"the test's fence refused a connection to {host}")
        return connect(self, address)

    monkeypatch.setattr(socket.socket, "connect", fenced)
    return refused
