"""The Model payload tab: exactly what the model receives for the files the page holds, in the
current mode (``ui.payload`` makes each view), and with PDFs sent as themselves.

``payload_views`` is a plain function over the entries; ``payload_tab`` lays out its components.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import gradio as gr

from readers import Reading
from readers.payload.text import files_text

from .handlers import Entry
from .payload import (
    DOCUMENT_NOTE,
    PROVIDER_NAMES,
    TOKENS_NOTE,
    abbreviate,
    document_payloads,
    estimate_table,
    message_payload,
    usage_line,
)
from .report import write_document_payload, write_payload

SIDEWAYS = "<p class='rl-sideways'>Tokens first; the table scrolls sideways for images, size and characters →</p>"
EMPTY = (
    "**What the model receives will appear here** once a file is read: the text-only string (or, in "
    "multimodal mode, the OpenAI and Anthropic message parts with each page's image), its size, and "
    "its tokens in every mode. Upload files above, or try an example:"
)


def document_views(
    readings: list[Reading], folder: Path, done: bool, payloads: dict[str, list[dict]], problems: list[str]
):
    """The third form, PDFs sent as themselves (``document_payloads``): a note (what is sent, what
    cannot be), the OpenAI and Anthropic JSON, and the download; hidden when no file has a PDF."""
    if not any(reading.pdf for reading in readings):
        return (
            gr.update(visible=False),
            gr.update(visible=False),
            gr.update(visible=False),
            gr.update(value=None, visible=False),
        )
    others = [reading.name for reading in readings if not reading.pdf]
    lines = [
        "**PDF sent as itself** — each file that has a PDF as one document "
        "part of exactly the pages read, after a line naming them."
    ]
    if others:
        lines.append(
            f"{', '.join(others)} {'has no PDF and is' if len(others) == 1 else 'have no PDF and are'} "
            "sent as page images."
        )
    lines += [f"⚠️ {problem}" for problem in problems]
    views = [
        gr.update(value=abbreviate(payloads[provider]), visible=True)
        if provider in payloads
        else gr.update(value="", visible=False)
        for provider in ("openai", "anthropic")
    ]
    download = write_document_payload(payloads, folder) if done else None
    return gr.update(value="\n\n".join(lines), visible=True), *views, gr.update(value=download, visible=bool(payloads))


def payload_views(entries: list[Entry], multimodal: bool, folder: Path):
    """Estimate table, the text-only string, the OpenAI and Anthropic JSON, the payload's download, then
    the PDF-document form's note, JSON and download: ``payload_tab``'s components, in its order."""
    readings = [entry.reading for entry in entries if entry.reading is not None]
    if not readings:
        return (
            EMPTY,
            gr.update(value="", visible=True),
            gr.update(value="", visible=False),
            gr.update(value="", visible=False),
            None,
            *document_views([], folder, False, {}, []),
        )
    note = TOKENS_NOTE
    if multimodal:
        note += (
            " In multimodal mode pages are described only to answer a question, "
            "so the text-only row counts no descriptions until you switch."
        )
    if any(reading.pdf for reading in readings):
        note += f" {DOCUMENT_NOTE}"
    payloads, problems = document_payloads(readings)  # cuts and encodes the PDFs: once for the table and the views
    table = f"{SIDEWAYS}\n\n{estimate_table(readings, multimodal, payloads)}\n\n{usage_line(readings)}\n\n{note}"
    done = all(entry.done for entry in entries)
    download = write_payload(readings, multimodal, folder) if done else None
    documents = document_views(readings, folder, done, payloads, problems)
    if multimodal:
        return (
            table,
            gr.update(visible=False),
            gr.update(value=abbreviate(message_payload(readings, "openai")), visible=True),
            gr.update(value=abbreviate(message_payload(readings, "anthropic")), visible=True),
            download,
            *documents,
        )
    return (
        table,
        gr.update(value=files_text(readings), visible=True),
        gr.update(visible=False),
        gr.update(visible=False),
        download,
        *documents,
    )


def _json_views(what: str, prefix: str) -> tuple[gr.Code, gr.Code]:
    """The OpenAI and Anthropic JSON side by side, hidden until there is something to show."""
    with gr.Row():
        return tuple(
            gr.Code(
                label=f"{PROVIDER_NAMES[provider]} {what}",
                language="json",
                max_lines=30,
                wrap_lines=True,
                visible=False,
                elem_id=f"{prefix}-{provider}",
            )
            for provider in ("openai", "anthropic")
        )


def payload_tab(examples: Callable[[], gr.Row]) -> tuple[gr.Row, list]:
    """The tab's components, inside ``gr.Tabs``: the ``examples`` row it offers while empty, then the
    components in the order ``payload_views`` fills them."""
    with gr.Tab("Model payload", elem_id="payload-tab"):
        estimates = gr.Markdown(EMPTY, elem_id="estimates")
        offered = examples()
        text_view = gr.Code(
            label="Text-only string — exactly what a text-only model receives",
            language="markdown",
            max_lines=30,
            wrap_lines=True,
            elem_id="payload-text",
        )
        openai_view, anthropic_view = _json_views("message content (images abbreviated)", "payload")
        payload_file = gr.File(label="Complete payload (with full images)", interactive=False, elem_id="payload-file")
        document_note = gr.Markdown(visible=False, elem_id="payload-document-note")
        document_openai, document_anthropic = _json_views(
            "message content, PDF sent as itself (base64 abbreviated)", "payload-document"
        )
        document_file = gr.File(label="Complete payload with the PDFs (full base64)", interactive=False, visible=False)
    return offered, [
        estimates,
        text_view,
        openai_view,
        anthropic_view,
        payload_file,
        document_note,
        document_openai,
        document_anthropic,
        document_file,
    ]
