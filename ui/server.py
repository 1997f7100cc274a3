"""Gradio's own behaviour, mended where it reaches a client or leaves files behind (gradio 6.31):
``App`` words its refusal of a file that was not uploaded without the server's paths,
``mend_uploads`` leaves nothing behind in the upload folder, ``mend_downloads`` fetches a file
given by its URL with ``readers.intake.fetch``, ``mend_api_page`` makes the API page's examples
send a file, and ``OwnOriginOnly`` gives every answer a Content-Security-Policy that lets the
browser load nothing from elsewhere. docs/architecture.md says why each is needed and which test holds it."""

from __future__ import annotations

import asyncio
import os
import shutil
from pathlib import Path
from urllib.parse import urlsplit

import gradio as gr
from gradio import processing_utils, routes
from gradio.exceptions import InvalidPathError
from gradio.route_utils import GradioMultiPartParser
from gradio.utils import NamedString
from gradio_client import utils as client_utils

from readers import ReaderError, Services
from readers.intake.fetch import fetch

# The app's own origin only: a page read shows no picture, and runs no script, from anywhere else (a tracking
# pixel in a document is never requested by the viewer's browser). Gradio's page needs its inline scripts and
# styles and evaluates the events' js; pictures the app makes come as its own files, data: and blob: URLs.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' 'unsafe-eval'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data: blob:; media-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; "
    "frame-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'"
)
POLICY_HEADER = b"content-security-policy"
NOT_UPLOADED = (
    "That file was not uploaded to this app: send the file itself (upload it, or send its bytes as file_base64). "
    "A path on the server is never read."
)


class App(gr.Blocks):
    """The app's Blocks: Gradio's refusal of a file reference that was not uploaded names the
    path it resolved (a relative one against the server's working directory); a client gets
    ``NOT_UPLOADED`` instead."""

    async def preprocess_data(self, *args, **kwargs):
        try:
            return await super().preprocess_data(*args, **kwargs)
        except InvalidPathError:
            raise gr.Error(NOT_UPLOADED) from None


def mend_uploads() -> None:
    """Make Gradio leave nothing behind in its upload folder (once for the process; the page, the
    API and MCP alike): an upload cut off by its client is removed (Gradio removes an upload's part
    only after a refusal of its own, so a client gone mid-upload left a partial or 0-byte ``tmp…``
    file for good), and a file input no longer makes an empty temporary file for each file it is
    given, which Gradio's File made and dropped (one for every upload, read or refused)."""
    parse = GradioMultiPartParser.parse
    if getattr(parse, "mended", False):
        return

    async def parse_and_clean(self):
        try:
            return await parse(self)
        except BaseException:  # the client gone (ClientDisconnect), or anything else before the upload ended
            for file in self._files_to_close_on_error:
                file.close()
                Path(file.name).unlink(missing_ok=True)
            raise

    process = gr.File._process_single_file

    def uploaded_path(self, f):
        if self.type == "filepath" and not self.file_types:  # what Gradio's returns, without its empty file
            return NamedString(f.path)
        return process(self, f)

    parse_and_clean.mended = True
    GradioMultiPartParser.parse = parse_and_clean
    gr.File._process_single_file = uploaded_path


def _is_file(example) -> bool:
    return isinstance(example, dict) and (example.get("meta") or {}).get("_type") == "gradio.FileData"


class OwnOriginOnly:
    """ASGI middleware: every HTTP answer carries ``CONTENT_SECURITY_POLICY`` (in place of any other)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def with_policy(message):
            if message["type"] == "http.response.start":
                kept = [(name, value) for name, value in message.get("headers", []) if name.lower() != POLICY_HEADER]
                message = {**message, "headers": [*kept, (POLICY_HEADER, CONTENT_SECURITY_POLICY.encode())]}
            await send(message)

        return await self.app(scope, receive, with_policy)


_fetching: list[Services] = []  # the app's services, which mend_downloads' fetches use


def mend_downloads(services: Services) -> None:
    """Make Gradio fetch a file given by its URL (an MCP client's file input takes one) with
    ``readers.intake.fetch`` and ``services``' settings (its limits, its deadline over every hop, the
    connection closed when it ends), never with its own downloader, which held a whole body of any
    size in memory before the size was refused and kept a trickling server's connection open. Its
    refusals reach the client as the readers' sentences (once for the process, the latest app's
    services)."""
    _fetching[:] = [services]
    if getattr(processing_utils.async_ssrf_protected_download, "mended", False):
        return

    async def fetched(url: str, cache_dir: str) -> str:
        services = _fetching[0]
        try:
            found = await asyncio.to_thread(fetch, url, services.settings, services.store)
        except ReaderError as error:
            raise gr.Error(error.message) from None
        folder = Path(cache_dir) / processing_utils.hash_url(url)  # where Gradio keeps what it downloads
        folder.mkdir(parents=True, exist_ok=True)
        name = client_utils.strip_invalid_filename_characters(Path(urlsplit(url).path.rstrip("/")).name)
        target = folder / (name or found.name)
        try:
            os.link(found, target)
        except FileExistsError:
            pass
        except OSError:  # another file system
            shutil.copyfile(found, target)
        return str(target)

    def fetched_now(url: str, cache_dir: str) -> str:
        return client_utils.synchronize_async(fetched, url, cache_dir)

    fetched.mended = True
    processing_utils.async_ssrf_protected_download = fetched
    processing_utils.ssrf_protected_download = processing_utils.save_url_to_cache = fetched_now


def mend_api_page() -> None:
    """Make the API page's code examples send a file (once for the process): Gradio writes each
    parameter that has a default as that default, so every endpoint's example read ``file=None`` (a
    call that sends nothing) beside the inline ``file_base64``; a file parameter is written with its
    example instead, ``handle_file('https://…/sample_file.pdf')``. Only the examples change: the
    parameters' defaults that ``gradio_client`` reads are the same."""
    generate = routes.generate_code_snippets
    if getattr(generate, "mended", False):
        return

    def with_files(name: str, info: dict, *args, **kwargs) -> dict:
        parameters = [
            {**parameter, "parameter_has_default": False} if _is_file(parameter.get("example_input")) else parameter
            for parameter in info.get("parameters", [])
        ]
        return generate(name, {**info, "parameters": parameters}, *args, **kwargs)

    with_files.mended = True
    routes.generate_code_snippets = with_files
