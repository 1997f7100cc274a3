"""Each file as the page shows it: its pages side by side with their text, tables and visual
content (each block of text linked to its box on the render), or its transcript, or why it could
not be read; the list of files over them; and the status line."""

from __future__ import annotations

import dataclasses
import hashlib
import html
from pathlib import Path

import gradio as gr

from readers import BlockKind, Page, Reading
from readers.intake.detect import FORMATS_LISTED
from readers.intake.fetch import is_url
from readers.kinds import kind_of
from readers.notices import Code, Described
from readers.payload.citations import CITED_UNITS, clock

from .handlers import Entry, parse_range
from .report import furniture_note, outlined_image, page_image, page_title, preview_image, table_csv

EMPTY = (
    "**Each page will appear here** once a file is read: its render on the left, figures outlined; on the "
    "right its text, tables, tokens and the description of its visuals. Reading starts as soon as you "
    "upload (each page shows as soon as it is read)."
)
BOX_SCALE = 10_000  # a box's fractions, as whole numbers in a class name
LINKED = "Point at a paragraph or a table and its place lights on the page; click the page and its text is shown."


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


def linked_text(page: Page) -> str:
    """The page's text as Markdown with each block that has a box (``readers.markup.blocks.Block``) inside
    a ``div`` whose class carries its box in ten-thousandths of the page (``rl-box-1070-786-6361-1089``:
    Gradio's sanitizer keeps a class, not a data attribute), for the page's script to light on the
    render (``ui.browser``)."""
    text, parts, at = page.text, [], 0
    for block, span in zip(page.blocks, page.spans()):
        if span is None or block.box is None:
            continue
        box = "-".join(str(round(value * BOX_SCALE)) for value in block.box)
        parts += [text[at : span[0]], f'<div class="rl-block rl-box-{box}">\n\n{block.text}\n\n</div>']
        at = span[1]
    return "".join([*parts, text[at:]]).strip()


def _render(image: str | None, label: str, key: str) -> None:
    if image:
        gr.Image(
            image,
            label=label,
            type="filepath",
            interactive=False,
            scale=1,
            key=f"{key}-image",
            buttons=["download", "fullscreen"],
            elem_classes="rl-render",
        )


def _tables(reading: Reading, page: Page, folder: Path, key: str) -> None:
    """Each table of the page from its cells (``Block.rows``): full width in a table of its own, which opens
    full screen, and as CSV."""
    tables = [block for block in page.blocks if block.kind == BlockKind.TABLE and len(block.rows) > 1]
    for number, table in enumerate(tables, 1):
        header, *rows = table.grid()
        width = max(len(row) for row in [header, *rows])
        with gr.Accordion(
            f"Table {number}: {len(rows)} rows × {width} columns",
            open=False,
            key=f"{key}-table-{number}",
            elem_classes="rl-table",
        ):
            gr.Dataframe(
                [row + [""] * (width - len(row)) for row in rows],
                headers=header + [""] * (width - len(header)),
                interactive=False,
                wrap=True,
                buttons=["fullscreen", "copy"],
                key=f"{key}-table-{number}-cells",
            )
            gr.DownloadButton(
                "Download CSV",
                table_csv(reading, page, number, table, folder),
                size="sm",
                key=f"{key}-table-{number}-csv",
            )


def _show_page(reading: Reading, page, folder: Path, raw: bool, anchor: str | None) -> None:
    key = f"{reading.sha256}-{page.number}-{page.section}"
    label = page_title(reading, page)
    with gr.Row(equal_height=False, elem_id=anchor, elem_classes="rl-page"):
        if page.image:
            outlined = page.figures and not kind_of(reading.kind).picture  # an image file is its own one figure
            _render(
                outlined_image(reading, page, folder) if outlined else page_image(reading, page, folder),
                f"{label} — figures outlined" if outlined else label,
                key,
            )
        with gr.Column(scale=1):
            if raw or page.line is not None:  # a text file's lines are shown as they are
                gr.Textbox(
                    (page.text if page.line is not None else page.text.strip()) or "(no text on this page)",
                    label=f"{label} — raw text, exactly as the model receives it",
                    lines=4,
                    max_lines=18,
                    interactive=False,
                    buttons=["copy"],
                    key=f"{key}-raw",
                    elem_classes="rl-page-text rl-raw",
                )
            else:
                boxed = any(block.box for block in page.blocks)
                hint = f" · <span class='rl-hint'>{LINKED}</span>" if boxed and page.image else ""
                gr.Markdown(f"**{label} — text, rendered** (the model receives it raw){hint}", key=f"{key}-label")
                gr.Markdown(
                    linked_text(page) or "*(no text on this page)*",
                    container=True,
                    max_height=480,
                    key=f"{key}-rendered",
                    elem_classes="rl-page-text rl-rendered",
                )
                _tables(reading, page, folder, key)
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


def _show_preview(entry: Entry, page: Page, folder: Path, anchor: str) -> None:
    """A page read while the rest of its file is: its render and the text it gives alone."""
    with gr.Row(equal_height=False, elem_id=anchor, elem_classes="rl-page"):
        _render(preview_image(page, folder), f"Page {page.number}", f"{entry.path}-{page.number}")
        with gr.Column(scale=1):
            gr.Markdown(f"**Page {page.number}** — read; its tokens and description come with the rest of the file")
            gr.Markdown(
                page.text.strip() or "*(its text comes with the rest of the file)*",
                container=True,
                max_height=480,
                elem_classes="rl-rendered",  # its tables as wide as they need, as when the file is read
            )


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
    steered = f" · steered by the hotwords **{entry.hotwords}**" if entry.hotwords else ""
    gr.Markdown(
        f"**Language:** {t.language or 'unknown'} · **Duration:** {clock(t.duration)} ({t.duration:.1f} s) · "
        f"{t.source}{steered}",
        elem_classes="rl-heard",
    )
    if t.segments:
        gr.HTML(transcript_table(t.segments, player if playable else None), js_on_load=SEEK)
    else:
        gr.Markdown(t.text or "(no speech found)")


def show_entries(entries: list[Entry], folder: Path, raw: bool = False) -> None:
    """Each file: a header, its error or warnings, then its pages side by side (their text rendered,
    or ``raw`` as the model receives it; while it is read, the pages read so far) or its audio."""
    if not entries:
        gr.Markdown(EMPTY, elem_id="pages-empty")
    for index, entry in enumerate(entries):
        refused = ["rl-refused"] if entry.error else []  # the page's script brings the first file read into view
        with gr.Column(elem_classes=["rl-file", file_class(entry), *refused], elem_id=f"rl-file-{index}"):
            reading = entry.reading
            if reading is None:
                gr.Markdown(f"### {entry.name}")
                if entry.error:
                    gr.Markdown(f"⚠️ {card_error(entry.error)}", elem_classes="rl-error")
                    continue
                gr.Markdown(f"Reading… {entry.progress}", elem_classes="rl-source rl-progress")
                for page in entry.pages:
                    _show_preview(entry, page, folder, f"rl-file-{index}-page-{page.number}")
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
# Remove hides the file's line and its card at once, before the server answers with the list without them: a rule
# on the file's own class (Gradio may draw another file in the same element), dropped once no element has it.
DROP = """(current) => {{
  const rule = document.createElement('style');
  rule.textContent = '.{key} {{display: none !important;}}';
  document.head.append(rule);
  const gone = setInterval(() => document.querySelector('.{key}') || (rule.remove(), clearInterval(gone)), 500);
  return [current];  // the inputs, as a list: the files are a list themselves
}}"""


def file_class(entry: Entry) -> str:
    """The class of a file's line and card, its own (not its place in the list, which changes)."""
    return "rl-f-" + hashlib.sha1(str(entry.path).encode()).hexdigest()[:12]


def _what(entry: Entry) -> str:
    """What the file list says of a file: what was read, how far its reading is, or why it was not read."""
    reading = entry.reading
    if entry.error:
        return f"not read — {entry.reason}"
    if reading is None:
        return f"reading… {entry.progress}".strip()
    if reading.transcript is not None:
        return f"a recording of {clock(reading.transcript.duration)}"
    unit, count = CITED_UNITS.get(reading.kind, "page"), len(reading.pages)
    if 0 < count < reading.page_count:
        first, last = reading.pages[0].number, reading.pages[-1].number
        return (
            f"{unit}s {first}–{last} of {reading.page_count}"
            if count > 1
            else f"{unit} {first} of {reading.page_count}"
        )
    return f"{count} {unit}{'s' * (count != 1)}"


def show_files(entries: list[Entry], files: gr.File, ranges: gr.State, folder: Path, write_reading) -> None:
    """One line per file: its name linking to its card and what was read (or how far its reading is,
    or why it was not read), the pages to read of it (the controls' range unless typed here), a page
    box for a long one, its reading to download as Markdown and as the API's JSON, and Remove."""
    with gr.Column(elem_id="file-list"):
        for index, entry in enumerate(entries):
            reading = entry.reading
            unit = CITED_UNITS.get(reading.kind, "page") if reading else "page"
            with gr.Row(equal_height=False, elem_classes=["rl-file-row", file_class(entry)]):
                gr.Markdown(
                    f"[{entry.name}](#rl-file-{index}) · {_what(entry)}", min_width=160, scale=3, elem_classes="rl-name"
                )
                uploaded = not is_url(entry.name)  # an address is the address box's to change
                if uploaded and reading and reading.page_count > 1:
                    pages = gr.Textbox(
                        label=f"Read {unit}s",
                        show_label=False,
                        placeholder=f"Read {unit}s 1–{reading.page_count}",
                        max_lines=1,
                        min_width=150,
                        scale=1,
                        key=f"range-{entry.path}",
                        elem_classes="rl-range",
                        html_attributes=gr.InputHTMLAttributes(autocomplete="off", enterkeyhint="go"),
                    )
                    pages.submit(
                        lambda typed, current, path=entry.path: own_range(current, path, typed),
                        [pages, ranges],
                        ranges,
                        api_visibility="private",
                    )
                if reading and len(reading.pages) > 1:
                    first, last = reading.pages[0].number, reading.pages[-1].number
                    box = gr.Textbox(
                        label=f"Go to {unit}",
                        show_label=False,
                        placeholder=f"Go to {unit} {first}–{last}",
                        max_lines=1,
                        min_width=150,
                        scale=1,
                        elem_classes="rl-goto",
                        html_attributes=gr.InputHTMLAttributes(autocomplete="off", enterkeyhint="go"),
                    )
                    box.submit(None, box, None, js=JUMP.format(index=index, first=first, last=last))
                if reading and entry.done and entry.answer is not None:
                    markdown, answer = write_reading(entry, folder)
                    gr.DownloadButton("Markdown", markdown, size="sm", min_width=90, scale=0, elem_classes="rl-md")
                    gr.DownloadButton("JSON", answer, size="sm", min_width=70, scale=0, elem_classes="rl-json")
                if uploaded:
                    remove = gr.Button("Remove", size="sm", variant="secondary", min_width=80, scale=0)
                    remove.click(
                        lambda current, path=entry.path: [kept for kept in current or [] if kept != path],
                        files,
                        files,
                        js=DROP.format(key=file_class(entry)),
                        api_visibility="private",
                    )


def own_range(ranges: dict, path: str, typed: str) -> dict:
    """``ranges`` with ``path``'s own pages as typed ("3–5"; empty: the controls' range again)."""
    chosen = dict(ranges or {})
    parsed = parse_range(typed or "")
    if parsed is None:
        chosen.pop(path, None)
    else:
        chosen[path] = parsed
    return chosen


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
        parts.append(f"⚠️ not read: {', '.join(f'{e.name} ({e.reason})' for e in failed)}")
    if pending:
        parts.append(f"reading {', '.join(e.name for e in pending)}…")
    return " · ".join(parts)
