"""Each file as the page shows it: its pages side by side with their text, tables and visual
content, or its transcript, or why it could not be read; and the status line over them."""

from __future__ import annotations

import dataclasses
import html
from pathlib import Path

import gradio as gr

from readers import Reading
from readers.intake.detect import FORMATS_LISTED
from readers.notices import Code, Described
from readers.payload.citations import CITED_UNITS, clock

from .api import reading_json
from .handlers import Entry
from .report import furniture_note, outlined_image, page_image, page_title, write_reading

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


def _show_page(reading: Reading, page, folder: Path, raw: bool, anchor: str | None) -> None:
    key = f"{reading.sha256}-{page.number}-{page.section}"
    label = page_title(reading, page)
    with gr.Row(equal_height=False, elem_id=anchor):
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
            elif page.described == Described.TEXT_ONLY:
                gr.Markdown(
                    "<span class='rl-source'>No figures on this page: nothing to describe beyond its text.</span>",
                    key=f"{key}-text-only",
                )
            if page.error:
                gr.Markdown(f"⚠️ {page.error}", elem_classes="rl-error")


# A transcript row clicked plays its file's recording from the row's start, on the media element Gradio's
# player plays (wavesurfer's, in a shadow root; the plain <audio> beside it is hidden and has no source);
# while it plays, the row being spoken is marked.
SEEK = """element.addEventListener('click', event => {
  const row = event.target.closest('tr[data-start]');
  const block = row && document.getElementById(row.closest('[data-player]').dataset.player);
  if (!block) return;
  const nodes = [block, ...block.querySelectorAll('*')].map(node => node.shadowRoot || node);
  const media = nodes.flatMap(node => [...node.querySelectorAll('audio, video')]).find(media => media.currentSrc);
  if (!media) return;
  const rows = [...element.querySelectorAll('tr[data-start]')];
  if (!media.rlFollowed) {
    media.rlFollowed = true;
    media.addEventListener('timeupdate', () => rows.forEach(row => row.classList.toggle('rl-playing',
      +row.dataset.start <= media.currentTime && media.currentTime < +row.dataset.end)));
  }
  media.currentTime = +row.dataset.start;
  media.play();
});"""


def transcript_table(segments, player: str | None) -> str:
    """The timed transcript as an HTML table whose rows play ``player`` (an element id) from their start;
    with no player (the recording deleted), rows that play nothing."""

    def row(s) -> str:
        when, text = f"{clock(s.start)} → {clock(s.end)}", f"<td>{html.escape(s.text.strip())}</td>"
        if player is None:
            return f"<tr><td>{when}</td>{text}</tr>"
        return (
            f'<tr data-start="{s.start:.2f}" data-end="{s.end:.2f}"><td><button type="button" class="rl-seek" '
            f'title="Play from {clock(s.start)}">{when}</button></td>{text}</tr>'
        )

    return (
        f'<table class="rl-transcript" data-player="{player or ""}"><thead><tr><th>Time</th><th>Text</th></tr></thead>'
        f"<tbody>{''.join(row(s) for s in segments)}</tbody></table>"
    )


def _show_transcript(entry: Entry, player: str) -> None:
    t = entry.reading.transcript
    playable = Path(entry.path).exists()
    if playable:
        gr.Audio(entry.path, label=entry.name, interactive=False, elem_id=player)
    else:
        gr.Markdown(
            "The recording was deleted from the server once transcribed (public mode), so it cannot be played here."
        )
    gr.Markdown(
        f"**Language:** {t.language or 'unknown'} · **Duration:** {clock(t.duration)} ({t.duration:.1f} s) · {t.source}"
    )
    if t.segments:
        gr.HTML(transcript_table(t.segments, player if playable else None), js_on_load=SEEK)
    else:
        gr.Markdown(t.text or "(no speech found)")


def show_entries(entries: list[Entry], folder: Path, raw: bool = False, files: gr.File | None = None) -> None:
    """Lay out the list of files (each with a link to its card, a page box and a button that removes it
    from ``files``), then each file: a header, its error or warnings, then its pages side by side (their
    text rendered, or ``raw`` as the model receives it) or its audio."""
    if not entries:
        gr.Markdown(EMPTY, elem_id="pages-empty")
    elif files is not None:
        _file_list(entries, files, folder)
    for index, entry in enumerate(entries):
        with gr.Column(elem_classes="rl-file", elem_id=f"rl-file-{index}"):
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
                _show_transcript(entry, f"rl-player-{index}")
            anchored = set()
            for page in reading.pages:
                anchor = None if page.number in anchored else f"rl-file-{index}-page-{page.number}"
                anchored.add(page.number)
                _show_page(reading, page, folder, raw, anchor)
            if not entry.done:
                gr.Markdown("Reading the remaining pages…")


# Scrolls to the page a box names (a number past the file's first or last page: that page), in the file the
# box belongs to (the browser does it: no round trip); again a moment later, once the renders above it that
# were still loading have taken their height. A text box: Gradio's number box shows 0 when empty.
JUMP = """(typed) => {{
  const number = Math.min({last}, Math.max({first}, Math.round(parseFloat(typed)) || {first}));
  const go = () => document.getElementById('rl-file-{index}-page-' + number)?.scrollIntoView();
  go();
  setTimeout(go, 500);
  return typed;
}}"""


def _file_list(entries: list[Entry], files: gr.File, folder: Path) -> None:
    """One line per file: its name linking to its card, what was read, a page box for a long one, its
    reading to download as Markdown and as the API's JSON, and Remove."""
    with gr.Column(elem_id="file-list"):
        for index, entry in enumerate(entries):
            reading = entry.reading
            unit = CITED_UNITS.get(reading.kind, "page") if reading else "page"
            if reading is None:
                what = "not read" if entry.error else "reading…"
            elif reading.transcript is not None:
                what = f"a recording of {clock(reading.transcript.duration)}"
            else:
                what = f"{len(reading.pages)} {unit}{'s' * (len(reading.pages) != 1)}"
            with gr.Row(equal_height=False, elem_classes="rl-file-row"):
                gr.Markdown(
                    f"[{entry.name}](#rl-file-{index}) · {what}", min_width=160, scale=3, elem_classes="rl-name"
                )
                if reading and len(reading.pages) > 1:
                    first, last = reading.pages[0].number, reading.pages[-1].number
                    box = gr.Textbox(
                        label=f"Go to {unit}",
                        placeholder=f"{first}–{last}",
                        max_lines=1,
                        min_width=100,
                        scale=1,
                        elem_classes="rl-goto",
                        html_attributes=gr.InputHTMLAttributes(autocomplete="off", enterkeyhint="go"),
                    )
                    box.submit(None, box, None, js=JUMP.format(index=index, first=first, last=last))
                if reading and entry.done:
                    markdown, answer = write_reading(entry, reading_json(reading), folder)
                    gr.DownloadButton("Markdown", markdown, size="sm", min_width=90, scale=0, elem_classes="rl-md")
                    gr.DownloadButton("JSON", answer, size="sm", min_width=70, scale=0, elem_classes="rl-json")
                remove = gr.Button("Remove", size="sm", variant="secondary", min_width=80, scale=0)
                remove.click(
                    lambda current, path=entry.path: [kept for kept in current or [] if kept != path],
                    files,
                    files,
                    api_visibility="private",
                )


def card_error(error: str) -> str:
    """The API's sentence, with the list of formats (given once, under the upload) pointed to rather than repeated."""
    sentence, listed, _ = error.partition(FORMATS_LISTED)
    return f"{sentence} (see *Formats ReadLens reads*, under the upload)." if listed else error


def card_warnings(reading: Reading) -> list[str]:
    """A file's warnings but the unanswered question's, which ``question_note`` says once beside the question."""
    return [notice.text for notice in reading.notices if notice.code != Code.NOT_ANSWERED]


def question_note(entries: list[Entry]) -> dict:
    """The note under the Describe box: why the question was not answered (no vision model), once for all files."""
    for entry in entries:
        for notice in entry.reading.notices if entry.reading else ():
            if notice.code == Code.NOT_ANSWERED:
                return gr.update(value=f"⚠️ {notice.text}", visible=True)
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
