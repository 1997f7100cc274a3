"""Each file as the page shows it: its pages side by side with their text, tables and visual
content, or its transcript, or why it could not be read; and the status line over them."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import gradio as gr

from readers import Reading
from readers.describe.vision import TEXT_ONLY, UNANSWERED
from readers.intake.detect import FORMATS_LISTED
from readers.markup.tables import markdown_table
from readers.payload.citations import CITED_UNITS, clock

from .handlers import Entry
from .report import furniture_note, outlined_image, page_image, page_title

EMPTY = (
    "**Each page will appear here** once a file is read: its render on the left, figures outlined; on the "
    "right its text, tables, tokens and the description of its visuals. Reading starts as soon as you "
    "upload (the first page shows while the rest are read)."
)


def _source_line(page) -> str:
    source = page.description_source or "description"
    cached = "(cached)" in source
    label = source.replace("(cached)", "").strip()
    return f"<span class='rl-source'>Visual content from **{label}**{' · cache hit ✓' if cached else ''}</span>"


def token_line(reading: Reading, page) -> str:
    """The page's tokens alone, in both modes (o200k_base; an image by OpenAI's rule)."""
    text_only, multimodal = (
        dataclasses.replace(reading, pages=[page], multimodal=mode).tokens("openai") for mode in (False, True)
    )
    seen = f" · **{multimodal:,}** multimodal (OpenAI, with its image)" if page.image else ""
    return f"Tokens of this {CITED_UNITS.get(reading.kind, 'page')}: **{text_only:,}** text-only{seen}"


def _show_page(reading: Reading, page, folder: Path, raw: bool) -> None:
    key = f"{reading.sha256}-{page.number}"
    label = page_title(reading, page)
    with gr.Row(equal_height=False):
        if page.image:
            outlined = page.figures and reading.kind != "image"  # an image file is its own one figure
            gr.Image(
                outlined_image(reading, page, folder) if outlined else page_image(reading, page, folder),
                label=f"{label} — figures outlined" if outlined else label,
                type="filepath",
                interactive=False,
                scale=1,
                key=f"{key}-image",
                buttons=["download", "fullscreen"],
                elem_classes="rl-render",
            )
        with gr.Column(scale=1):
            content = page.content.strip()
            if raw or page.line is not None:  # a text file's lines are shown as they are
                gr.Textbox(
                    content or "(no text on this page)",
                    label=f"{label} — raw text, exactly as the model receives it",
                    lines=4,
                    max_lines=18,
                    interactive=False,
                    buttons=["copy"],
                    key=f"{key}-raw",
                    elem_classes="rl-page-text rl-raw",
                )
            else:
                gr.Markdown(f"**{label} — text, rendered** (the model receives it raw)", key=f"{key}-label")
                gr.Markdown(
                    content or "*(no text on this page)*",
                    container=True,
                    max_height=480,
                    key=f"{key}-rendered",
                    elem_classes="rl-page-text rl-rendered",
                )
            gr.Markdown(token_line(reading, page), key=f"{key}-tokens", elem_classes="rl-source rl-tokens")
            if note := furniture_note(page):  # what the page shows round its text, which the text leaves out
                gr.Markdown(note, key=f"{key}-furniture", elem_classes="rl-source")
            if page.description:
                # line_breaks: OCR keeps each line of a figure as it stands, not joined into one run.
                gr.Markdown(
                    f"{_source_line(page)}\n\n{page.description.strip()}",
                    container=True,
                    line_breaks=True,
                    key=f"{key}-description",
                    elem_classes="rl-description",
                )
            elif page.description_source == TEXT_ONLY:
                gr.Markdown(
                    "<span class='rl-source'>No figures on this page: nothing to describe beyond its text.</span>",
                    key=f"{key}-text-only",
                )
            if page.error:
                gr.Markdown(f"⚠️ {page.error}", elem_classes="rl-error")


def _show_transcript(entry: Entry) -> None:
    t = entry.reading.transcript
    if Path(entry.path).exists():
        gr.Audio(entry.path, label=entry.name, interactive=False)
    else:
        gr.Markdown(
            "The recording was deleted from the server once transcribed (public mode), so it cannot be played here."
        )
    gr.Markdown(
        f"**Language:** {t.language or 'unknown'} · **Duration:** {clock(t.duration)} ({t.duration:.1f} s) · {t.source}"
    )
    rows = [["Time", "Text"]] + [[f"{clock(s.start)} → {clock(s.end)}", s.text.strip()] for s in t.segments]
    gr.Markdown(markdown_table(rows) if t.segments else t.text or "(no speech found)")


def show_entries(entries: list[Entry], folder: Path, raw: bool = False) -> None:
    """Lay out each file: a header, its error or warnings, then its pages side by side (their text
    rendered, or ``raw`` as the model receives it) or its audio."""
    if not entries:
        gr.Markdown(EMPTY, elem_id="pages-empty")
    for entry in entries:
        with gr.Column(elem_classes="rl-file"):
            reading = entry.reading
            if reading is None:
                gr.Markdown(f"### {entry.name}")
                gr.Markdown(
                    f"⚠️ {card_error(entry.error)}" if entry.error else "Reading…",
                    elem_classes="rl-error" if entry.error else None,
                )
                continue
            unit = CITED_UNITS.get(reading.kind, "page") + "s"
            shown = f"{len(reading.pages)} of {reading.page_count} {unit}" if reading.page_count > 1 else ""
            gr.Markdown(f"### {entry.name}\n{' · '.join(filter(None, [reading.kind.upper(), reading.mime, shown]))}")
            for warning in [entry.note, *card_warnings(reading)] if entry.note else card_warnings(reading):
                gr.Markdown(f"ℹ️ {warning}")
            if reading.transcript is not None:
                _show_transcript(entry)
            for page in reading.pages:
                _show_page(reading, page, folder, raw)
            if not entry.done:
                gr.Markdown("Reading the remaining pages…")


def card_error(error: str) -> str:
    """The API's sentence, with the list of formats (given once, under the upload) pointed to rather than repeated."""
    sentence, listed, _ = error.partition(FORMATS_LISTED)
    return f"{sentence} (see *Formats ReadLens reads*, under the upload)." if listed else error


def card_warnings(reading: Reading) -> list[str]:
    """A file's warnings but the unanswered question's, which ``question_note`` says once beside the question."""
    return [warning for warning in reading.warnings if not warning.startswith(UNANSWERED)]


def question_note(entries: list[Entry]) -> dict:
    """The note under the Describe box: why the question was not answered (no vision model), once for all files."""
    for entry in entries:
        for warning in entry.reading.warnings if entry.reading else ():
            if warning.startswith(UNANSWERED):
                return gr.update(value=f"⚠️ {warning}", visible=True)
    return gr.update(value="", visible=False)


def status_line(entries: list[Entry]) -> str:
    if not entries:
        return ""
    read = [e for e in entries if e.reading is not None and e.done]
    failed = [e for e in entries if e.error]
    pending = [e for e in entries if not e.done]
    parts = [f"{len(read)} of {len(entries)} files read"]
    if failed:
        parts.append(f"⚠️ not read: {', '.join(e.name for e in failed)}")
    if pending:
        parts.append(f"reading {', '.join(e.name for e in pending)}…")
    return " · ".join(parts)
