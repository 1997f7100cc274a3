"""The Model payload tab: exactly what the model receives for the files the page holds, in the
current mode (``ui.payload`` makes each view), and with PDFs sent as themselves, in the form of the
provider chosen (OpenAI, Anthropic or Gemini).

``payload_views`` is a plain function over the entries; ``payload_tab`` lays out its components.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import gradio as gr

from readers import Reading

from .handlers import Entry
from .payload import (
    DOCUMENT_NOTE,
    PROVIDER_NAMES,
    TOKENS_NOTE,
    abbreviate,
    document_payloads,
    estimate_table,
    message_payload,
    text_payload,
    usage_line,
)
from .report import write_document_payload, write_payload

MESSAGES_WHAT = "message content (images abbreviated)"
DOCUMENT_WHAT = "message content, PDF sent as itself (base64 abbreviated)"
EMPTY = (
    "**What the model receives will appear here** once a file is read: the text-only string (or, in "
    "multimodal mode, the provider's message parts with each page's image), its size, and "
    "its tokens in every mode. Upload files above, or try an example:"
)


def document_views(
    readings: list[Reading],
    folder: Path,
    done: bool,
    payloads: dict[str, list[dict]],
    problems: list[str],
    provider: str = "openai",
):
    """The third form, PDFs sent as themselves (``document_payloads``): a note (what is sent, what
    cannot be), ``provider``'s JSON, and the download of every provider's; hidden when no file has a PDF."""
    if not any(reading.pdf for reading in readings):
        return gr.update(visible=False), gr.update(visible=False), gr.update(value=None, visible=False)
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
    view = (
        gr.update(value=abbreviate(payloads[provider]), visible=True, label=_label(provider, DOCUMENT_WHAT))
        if provider in payloads
        else gr.update(value="", visible=False)
    )
    download = write_document_payload(payloads, folder) if done else None
    return gr.update(value="\n\n".join(lines), visible=True), view, gr.update(value=download, visible=bool(payloads))


def payload_views(entries: list[Entry], multimodal: bool, folder: Path, provider: str = "openai"):
    """Estimate table, the text-only string, ``provider``'s JSON, the payload's download, then the
    PDF-document form's note, JSON and download: ``payload_tab``'s components, in its order."""
    readings = [entry.reading for entry in entries if entry.reading is not None]
    if not readings:
        return (
            EMPTY,
            gr.update(value="", visible=True),
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
    table = f"{estimate_table(readings, multimodal, payloads)}\n\n{usage_line(readings)}\n\n{note}"
    done = all(entry.done for entry in entries)
    download = write_payload(readings, multimodal, folder) if done else None
    documents = document_views(readings, folder, done, payloads, problems, provider)
    if multimodal:
        messages = abbreviate(message_payload(readings, provider))
        return (
            table,
            gr.update(visible=False),
            gr.update(value=messages, visible=True, label=_label(provider, MESSAGES_WHAT)),
            download,
            *documents,
        )
    return (
        table,
        gr.update(value=text_payload(readings), visible=True),
        gr.update(visible=False),
        download,
        *documents,
    )


def _label(provider: str, what: str) -> str:
    return f"{PROVIDER_NAMES[provider]} {what}"


def payload_tab(examples: Callable[[], gr.Row]) -> tuple[gr.Row, gr.Radio, list]:
    """The tab's components, inside ``gr.Tabs``: the ``examples`` row it offers while empty, the
    provider's choice, then the components in the order ``payload_views`` fills them."""
    with gr.Tab("Model payload", elem_id="payload-tab"):
        estimates = gr.Markdown(EMPTY, elem_id="estimates")
        offered = examples()
        provider = gr.Radio(
            [(name, key) for key, name in PROVIDER_NAMES.items()],
            value="openai",
            label="Provider",
            info="The form of the message parts and of the PDF sent as itself; the table counts every provider.",
            elem_id="payload-provider",
        )
        text_view = gr.Code(
            label="Text-only string — exactly what a text-only model receives",
            language="markdown",
            max_lines=30,
            wrap_lines=True,
            elem_id="payload-text",
        )
        messages_view = _json_view(MESSAGES_WHAT, "payload-messages")
        payload_file = gr.File(label="Complete payload (with full images, every provider)", interactive=False)
        document_note = gr.Markdown(visible=False, elem_id="payload-document-note")
        document_view = _json_view(DOCUMENT_WHAT, "payload-document")
        document_file = gr.File(
            label="Complete payload with the PDFs (full base64, every provider)", interactive=False, visible=False
        )
    return (
        offered,
        provider,
        [estimates, text_view, messages_view, payload_file, document_note, document_view, document_file],
    )


def _json_view(what: str, elem_id: str) -> gr.Code:
    """A provider's JSON, hidden until there is something to show."""
    return gr.Code(
        label=_label("openai", what), language="json", max_lines=30, wrap_lines=True, visible=False, elem_id=elem_id
    )
