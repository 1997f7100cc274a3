"""Gradio's own behaviour, mended where it reaches a client or leaves files behind (gradio 6.31):
``App`` words its refusal of a file that was not uploaded without the server's paths, and
``mend_uploads`` leaves nothing behind in the upload folder."""

from __future__ import annotations

from pathlib import Path

import gradio as gr
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
