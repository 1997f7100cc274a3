"""Gradio's own behaviour, mended where it reaches a client or leaves files behind (gradio 6.31):
``App`` words its refusal of a file that was not uploaded without the server's paths,
``mend_uploads`` leaves nothing behind in the upload folder, and ``mend_api_page`` makes the API
page's examples send a file. docs/architecture.md says why each is needed and which test holds it."""

from __future__ import annotations

from pathlib import Path

import gradio as gr
from gradio import routes
from gradio.exceptions import InvalidPathError
from gradio.route_utils import GradioMultiPartParser
from gradio.utils import NamedString

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
