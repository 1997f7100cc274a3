"""Each file as the page shows it: its pages side by side with their text, tables and visual
content (each block of text linked to its box on the render), or its transcript, or why it could
not be read; the list of files over them; and the status line."""

from __future__ import annotations

import dataclasses
import hashlib
import html
import json
import re
from pathlib import Path

import gradio as gr

from readers import BlockKind, Page, Reading
from readers.intake.detect import FORMATS_LISTED
from readers.intake.fetch import is_url
from readers.kinds import kind_of
from readers.notices import CACHED, Code, Described
from readers.payload.citations import CITED_UNITS, clock

from .handlers import Entry, parse_range
from .report import furniture_note, outlined_image, page_image, page_title, preview_image, table_csv

EMPTY = (
    "**Each page will appear here** as soon as it is read: its render, figures outlined, beside its text, tables, "
    "tokens and visual description. Or try an example:"
)
BOX_SCALE = 10_000  # a box's fractions, as whole numbers in a class name
# A picture a page's text names by its address, as Markdown writes one and as HTML does.
MARKDOWN_PICTURE = re.compile(r"!\[([^\]]*)\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
HTML_PICTURE = re.compile(r"<img\b[^>]*>", re.IGNORECASE)
HTML_ATTRIBUTE = re.compile(r"""\b(src|alt)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""", re.IGNORECASE)
AUTOLINKED = re.compile(r"\b(?:https?://|www\.)", re.IGNORECASE)  # where GitHub Markdown starts a link it makes
LINKED = "Point at a paragraph or a table and its place lights on the page; click the page and its text is shown."
UNSURE = "⚠️ **This table may be read wrong** — check it against the page (the file's notices say why)."


def _source_line(page) -> str:
    source = page.description_source or "description"
    cached = source.endswith(CACHED)
    label = source.removesuffix(CACHED).strip()
    return f"<span class='rl-source'>Visual content from **{label}**{' · cache hit ✓' if cached else ''}</span>"


def token_line(reading: Reading, page) -> str:
    """The page's tokens alone, in both modes (o200k_base; an image by OpenAI's rule)."""
    text_only, multimodal = (
        dataclasses.replace(reading, pages=[page], multimodal=mode).tokens("openai") for mode in (False, True)
    )
    seen = f" · **{multimodal:,}** multimodal (OpenAI, with its image)" if page.image else ""
    return f"Tokens of this {CITED_UNITS.get(reading.kind, 'page')}: **{text_only:,}** text-only{seen}"


def _placeholder(alt: str, address: str) -> str:
    shown = f"Picture: {alt}" if alt.strip() else "Picture"
    return f"[{shown} — `{address}`, not loaded]" if address and not address.startswith("data:") else f"[{shown}]"


def unfetched(markdown: str) -> str:
    """``markdown`` as the app shows it: each picture it names by its address (``![alt](address)``,
    ``<img src=…>``) a placeholder naming the address, so the viewer's browser requests nothing a
    document links to (a tracking pixel); the app's Content-Security-Policy stops anything else
    (``ui.server.CONTENT_SECURITY_POLICY``). What the model receives keeps them as they are."""

    def from_html(tag: re.Match) -> str:
        found = {name.lower(): next(filter(None, values), "") for name, *values in HTML_ATTRIBUTE.findall(tag[0])}
        return _placeholder(html.unescape(found.get("alt", "")), html.unescape(found.get("src", "")))

    return HTML_PICTURE.sub(from_html, MARKDOWN_PICTURE.sub(lambda found: _placeholder(found[1], found[2]), markdown))


def linked_text(page: Page) -> str:
    """The page's text as Markdown with each block that has a box (``readers.markup.blocks.Block``) inside
    a ``div`` whose class carries its box in ten-thousandths of the page (``rl-box-1070-786-6361-1089``:
    Gradio's sanitizer keeps a class, not a data attribute), for the page's script to light on the
    render (``ui.browser``); each table the reader is unsure of (``Page.unsure_tables``) inside an
    ``rl-unsure`` one, under a line that says so."""
    text, parts, at, table = page.text, [], 0, -1
    for block, span in zip(page.blocks, page.spans()):
        table += block.kind == BlockKind.TABLE
        unsure = block.kind == BlockKind.TABLE and table in page.unsure_tables
        if span is None or (block.box is None and not unsure):
            continue
        shown = f'<div class="rl-unsure">\n\n{UNSURE}\n\n{block.text}\n\n</div>' if unsure else block.text
        if block.box is not None:
            box = "-".join(str(round(value * BOX_SCALE)) for value in block.box)
            shown = f'<div class="rl-block rl-box-{box}">\n\n{shown}\n\n</div>'
        parts += [text[at : span[0]], shown]
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
                    unfetched(linked_text(page)) or "*(no text on this page)*",
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
                    f"{_source_line(page)}\n\n{unfetched(page.description.strip())}",
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
                unfetched(page.text.strip()) or "*(its text comes with the rest of the file)*",
                container=True,
                max_height=480,
                elem_classes="rl-rendered",  # its tables as wide as they need, as when the file is read
            )


# A transcript row clicked plays its file's recording from the row's start, on the media element Gradio's
# player plays (wavesurfer's, in a shadow root; the plain <audio> beside it is hidden and has no source);
# while it plays, the row being spoken is marked. The player, while it starts up, puts the recording
# back to 0:00 (wavesurfer's "ready" stops it; Gradio's position then overrides the first seek it did not
# hear), so until it has played a moment past the row's start (or for five seconds at most), a jump back
# before that start is undone and a pause it made is resumed.
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
    const hold = () => {
      const wanted = media.rlWanted;
      if (!wanted) return;
      if (performance.now() > wanted.until || media.currentTime > wanted.start + 0.3) {
        media.rlWanted = null;
        return;
      }
      if (media.currentTime < wanted.start - 0.25) media.currentTime = wanted.start;
      if (media.paused) media.play();
    };
    ['timeupdate', 'seeked', 'pause'].forEach(name => media.addEventListener(name, hold));
    media.addEventListener('timeupdate', () => rows.forEach(row => row.classList.toggle('rl-playing',
      +row.dataset.start <= media.currentTime && media.currentTime < +row.dataset.end)));
  }
  media.rlWanted = {start: +row.dataset.start, until: performance.now() + 5000};
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
                gr.Markdown(f"### {unlinked(entry.name)}")
                if entry.error:
                    gr.Markdown(f"⚠️ {card_error(entry.error)}", elem_classes="rl-error")
                    continue
                gr.Markdown(f"Reading… {entry.progress}", elem_classes="rl-source rl-progress")
                for page in entry.pages:
                    _show_preview(entry, page, folder, f"rl-file-{index}-page-{page.number}")
                continue
            unit = CITED_UNITS.get(reading.kind, "page") + "s"
            shown = f"{len(reading.pages)} of {reading.page_count} {unit}" if reading.page_count > 1 else ""
            gr.Markdown(
                f"### {unlinked(entry.name)}\n{' · '.join(filter(None, [reading.kind.upper(), reading.mime, shown]))}"
            )
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
DROP = """() => {{
  const rule = document.createElement('style');
  rule.textContent = '.{key} {{display: none !important;}}';
  document.head.append(rule);
  const gone = setInterval(() => document.querySelector('.{key}') || (rule.remove(), clearInterval(gone)), 500);
  return {path};
}}"""


def without(path: str, current: list[str] | None):
    """The files with ``path`` dropped (a line's Remove), and the request cleared; nothing when cleared."""
    if not path:
        return gr.skip(), gr.skip()
    return [kept for kept in current or [] if kept != path], ""


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


def show_files(entries: list[Entry], removed: gr.Textbox, ranges: gr.State, folder: Path, write_reading) -> None:
    """One line per file: its name linking to its card and what was read (or how far its reading is,
    or why it was not read), the pages to read of it (the controls' range unless typed here), a page
    box for a long one, its reading to download as Markdown (with citations) and as the API's JSON (the Export
    tab's), and Remove."""
    with gr.Column(elem_id="file-list"):
        for index, entry in enumerate(entries):
            reading = entry.reading
            unit = CITED_UNITS.get(reading.kind, "page") if reading else "page"
            uploaded = not is_url(entry.name)  # an address is the address box's to change
            ranged = uploaded and reading is not None and reading.page_count > 1
            jumps = reading is not None and len(reading.pages) > 1
            downloads = reading is not None and entry.done and entry.answer is not None
            with gr.Row(equal_height=False, elem_classes=["rl-file-row", file_class(entry)]):
                gr.Markdown(f"[{entry.name}](#rl-file-{index}) · {_what(entry)}", elem_classes="rl-name")
                with gr.Row(elem_classes="rl-file-tools"):  # under the name as a whole when the line is full
                    if ranged or jumps:
                        with gr.Row(elem_classes="rl-file-pages"):
                            if ranged:
                                _range_box(entry.path, unit, reading.page_count, ranges)
                            if jumps:
                                first, last = reading.pages[0].number, reading.pages[-1].number
                                box = _page_box(f"Go to {unit}", f"Go to {unit} {first}–{last}", "rl-goto")
                                box.submit(None, box, None, js=JUMP.format(index=index, first=first, last=last))
                    if downloads or uploaded:
                        with gr.Row(elem_classes="rl-file-buttons"):  # together: no Remove on a line of its own
                            if downloads:
                                for label, ending in (("Markdown", "md"), ("JSON", "json")):
                                    gr.DownloadButton(
                                        label,
                                        write_reading(entry, folder, ending),
                                        size="sm",
                                        scale=0,
                                        elem_classes=f"rl-{ending}",
                                    )
                            if uploaded:
                                remove = gr.Button("Remove", size="sm", variant="secondary", scale=0)
                                remove.click(
                                    None,
                                    None,
                                    removed,
                                    js=DROP.format(key=file_class(entry), path=json.dumps(entry.path)),
                                )


def _page_box(label: str, placeholder: str, elem_class: str, **options) -> gr.Textbox:
    """A file's own box for pages, as wide as its placeholder needs (``ui.browser.CSS``)."""
    return gr.Textbox(
        label=label,
        show_label=False,
        placeholder=placeholder,
        max_lines=1,
        elem_classes=["rl-page-box", elem_class],
        html_attributes=gr.InputHTMLAttributes(autocomplete="off", enterkeyhint="go"),
        **options,
    )


def _range_box(path: str, unit: str, count: int, ranges: gr.State) -> None:
    """The pages of this file to read, typed ("3–5"), over the controls' range."""
    pages = _page_box(f"Read {unit}s", f"Read {unit}s 1–{count}", "rl-range", key=f"range-{path}")
    pages.submit(
        lambda typed, current, path=path: own_range(current, path, typed),
        [pages, ranges],
        ranges,
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


def unlinked(text: str) -> str:
    """``text`` as Markdown shows it, but for the web addresses in it, which GitHub Markdown would make links
    of: their ":" (or "www.") written as a character reference, so that an address refused or not fetched is
    named, never offered to click."""
    return AUTOLINKED.sub(lambda found: found.group().replace(":", "&#58;").replace(".", "&#46;", 1), text)


def card_error(error: str) -> str:
    """The API's sentence, its addresses not made links, with the list of formats (given once, under the upload)
    pointed to rather than repeated."""
    sentence, listed, _ = unlinked(error).partition(FORMATS_LISTED)
    return f"{sentence} (see *Formats ReadLens reads*, under the upload)." if listed else sentence


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
    """How many files are read, each not read by name with why in a few words (``Entry.reason``), and those
    still read; no name a link."""
    if not entries:
        return ""
    read = [e for e in entries if e.reading is not None and e.done]
    failed = [e for e in entries if e.error]
    pending = [e for e in entries if not e.done]
    parts = [f"{len(read)} of {len(entries)} files read"]
    if failed:
        parts.append(f"⚠️ not read: {', '.join(f'{unlinked(e.name)} ({e.reason})' for e in failed)}")
    if pending:
        parts.append(f"reading {', '.join(unlinked(e.name) for e in pending)}…")
    return " · ".join(parts)
