"""A local HTTP server that speaks the OpenAI API, standing in for the remote vision and
transcription services (the only stand-in the project allows). Tests reach it through the real
``openai`` SDK by pointing ``*_BASE_URL`` at ``server.base_url``.

A test sets ``server.routes[path] = handler``; a handler gets the ``Request`` and returns
``(status, json_body)`` or ``(status, json_body, headers)``. Every request is recorded in
``server.requests``; ``server.in_flight_peak`` is the most requests handled at once.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Request:
    path: str
    headers: dict
    body: bytes
    json: dict | None = None
    received_at: float = field(default_factory=time.monotonic)


def chat_reply(text: str, prompt_tokens: int = 100, completion_tokens: int = 20) -> dict:
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": "test-model",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }


class FakeOpenAI:
    def __init__(self):
        self.requests: list[Request] = []
        self.routes: dict = {
            "/v1/chat/completions": lambda request: (200, chat_reply("A bar chart of sales by quarter."))
        }
        self.delay = 0.0
        self.in_flight = 0
        self.in_flight_peak = 0
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def start(self) -> FakeOpenAI:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def calls(self, path: str) -> list[Request]:
        return [r for r in self.requests if r.path == path]

    def _handler_class(self):
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                parsed = None
                if "json" in (self.headers.get("Content-Type") or ""):
                    parsed = json.loads(body or b"{}")
                request = Request(self.path, dict(self.headers), body, parsed)
                with fake._lock:
                    fake.requests.append(request)
                    fake.in_flight += 1
                    fake.in_flight_peak = max(fake.in_flight_peak, fake.in_flight)
                try:
                    if fake.delay:
                        time.sleep(fake.delay)
                    handler = fake.routes.get(self.path)
                    result = handler(request) if handler else (404, {"error": {"message": f"no route {self.path}"}})
                finally:
                    with fake._lock:
                        fake.in_flight -= 1
                if result is None:  # the handler chose to drop the connection
                    self.close_connection = True
                    return
                status, payload, *rest = result
                data = (
                    json.dumps(payload).encode()
                    if not isinstance(payload, (bytes, str))
                    else (payload.encode() if isinstance(payload, str) else payload)
                )
                try:
                    self.send_response(status)
                    self.send_header(
                        "Content-Type", "application/json" if not isinstance(payload, (bytes, str)) else "text/plain"
                    )
                    self.send_header("Content-Length", str(len(data)))
                    for key, value in (rest[0] if rest else {}).items():
                        self.send_header(key, value)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        return Handler
