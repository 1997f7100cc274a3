"""The Chunks tab: the readings the page holds cut into chunks (``Reading.chunks``, no new read), one
card per chunk under a summary line, and a chosen chunk's page render with its boxes outlined.

The handlers are plain functions; ``chunks_tab`` only lays out the components and wires them.
"""

from __future__ import annotations

import hashlib
import html
from collections.abc import Callable
from pathlib import Path

import gradio as gr

from readers import Page, ReaderError, Reading
from readers.payload.chunks import MIN_TOKENS, Chunk, check_sizes

from .handlers import Entry
from .report import REPORT_CHUNK_TOKENS, outlined_image, page_image

EMPTY = (
    "**No chunks yet.** Once a file is read, what a retriever indexes appears here: one card per chunk "
    "with its tokens, pages and heading path, and beside it the chunk's page. Upload files above, or try an example:"
)


def entry_chunks(entries: list[Entry], max_tokens) -> tuple[list[tuple[Entry, list[Chunk]]], list[str]]:
    """Each read entry's chunks, and a sentence per entry (or for the limit) that cannot be chunked."""
    size = int(max_tokens) if isinstance(max_tokens, (int, float)) and float(max_tokens).is_integer() else max_tokens
    found, problems = [], []
    try:
        check_sizes(size, 0)
    except ReaderError as error:
        return [], [error.message]
    for entry in entries:
        if entry.reading is None:
            continue
        try:
            found.append((entry, entry.reading.chunks(size)))
        except ReaderError as error:
            problems.append(f"{entry.name}: {error.message}")
    return found, problems


def tables_kept_whole(reading: Reading, chunks: list[Chunk]) -> int:
    """How many of the reading's tables stand whole in one chunk (a table cut between rows does not)."""
    return sum(
        1
        for page in reading.pages
        for table in page.tables
        if table.strip() and any(table.strip() in chunk.text for chunk in chunks)
    )


def summary_line(found: list[tuple[Entry, list[Chunk]]]) -> str:
    """ "8 chunks · largest 72 tokens · 1 table kept whole"."""
    chunks = [chunk for _, entry_chunks_ in found for chunk in entry_chunks_]
    if not chunks:
        return EMPTY
    whole = sum(tables_kept_whole(entry.reading, entry_chunks_) for entry, entry_chunks_ in found)
    return (
        f"{len(chunks)} chunk{'s' * (len(chunks) != 1)} · largest {max(chunk.tokens for chunk in chunks)} tokens · "
        f"{whole} table{'s' * (whole != 1)} kept whole"
    )


def card(chunk: Chunk, choice: str) -> str:
    """One chunk as HTML, ``choice`` ("entry index:chunk number") in its ``data-choice``: number, kind, tokens,
    where in its file (``Chunk.where``: pages, lines or times; its citation for a file of one page) and heading
    path, then its text."""
    where = chunk.where or chunk.citation
    heading = " › ".join(chunk.headings) or "(no heading)"
    return (
        f'<div class="rl-card" data-choice="{choice}" tabindex="0" title="Show its page">'
        f"<p><strong>Chunk {chunk.number}</strong> · {chunk.kind} · {chunk.tokens} tokens · "
        f"{html.escape(where)} · {html.escape(heading)}</p><pre><code>{html.escape(chunk.text)}</code></pre></div>"
    )


# A card clicked (or Enter on it) names its chunk to the server, which sets "Show chunk" to it.
PICK = """element.addEventListener('click', event => {
  const card = event.target.closest('[data-choice]');
  if (card && !getSelection().toString()) trigger('click', {choice: card.dataset.choice});
});
element.addEventListener('keydown', event => {
  if (event.key === 'Enter' && event.target.dataset.choice) trigger('click', {choice: event.target.dataset.choice});
});"""
# The card of the chunk shown is marked, whichever way it was chosen; the page stays where it is, the clicked
# card in view, and the chunk's page beside it (below it on a phone, at the top of the screen: ui.browser).
MARK = """(choice) => {
  document.querySelectorAll('#chunk-cards .rl-card').forEach(card =>
    card.classList.toggle('rl-chosen', card.dataset.choice === choice));
  return choice;
}"""


def chunk_views(entries: list[Entry], max_tokens) -> tuple[str, str, dict]:
    """The summary line, the cards (HTML) and the dropdown update naming each chunk."""
    found, problems = entry_chunks(entries, max_tokens)
    summary = "\n\n".join([summary_line(found), *(f"> {problem}" for problem in problems)])
    parts, choices = [], []
    for index, (entry, chunks) in enumerate(found):
        parts.append(f"<h3>{html.escape(entry.name)}</h3>")
        parts += [card(chunk, f"{index}:{chunk.number}") for chunk in chunks]
        choices += [
            (f"{entry.name} · chunk {chunk.number} ({chunk.kind})", f"{index}:{chunk.number}") for chunk in chunks
        ]
    return summary, "\n".join(parts), gr.update(choices=choices, value=None)


def chunk_marks(entry: Entry, chunk: Chunk) -> tuple[Page | None, list[tuple[tuple, str]]]:
    """The page a chunk is shown on (its first box's page, else its first) and what is outlined there:
    the boxes of the blocks and figures it holds (``Chunk.boxes``) on that page."""
    first = chunk.boxes[0].page if chunk.boxes else chunk.pages[0]
    label = f"Chunk {chunk.number} · {chunk.kind}"
    marks = [(box.box, label) for box in chunk.boxes if box.page == first]
    page = next((page for page in entry.reading.pages if page.number == first and page.section == chunk.section), None)
    return page, marks


def chunk_image(entries: list[Entry], max_tokens, choice: str | None, folder: Path) -> str | None:
    """The chosen chunk's page render ("entry index:chunk number"), with every box it holds outlined
    (its figures, its paragraphs and tables); None when the chunk has no page with an image."""
    if not choice:
        return None
    found, _ = entry_chunks(entries, max_tokens)
    index, number = (int(part) for part in choice.split(":"))
    if index >= len(found):
        return None
    entry, chunks = found[index]
    chunk = next((chunk for chunk in chunks if chunk.number == number), None)
    if chunk is None or not chunk.pages:
        return None
    page, marks = chunk_marks(entry, chunk)
    if page is None or not page.image:
        return None
    if not marks:
        return page_image(entry.reading, page, folder)
    digest = hashlib.sha256(repr(marks).encode()).hexdigest()[:12]
    return outlined_image(entry.reading, page, folder, marks, tag=f"chunk-{digest}")


def picked(event: gr.EventData) -> str:
    """The chunk a card names when clicked ("entry index:chunk number")."""
    return event.choice


def chunks_tab(entries: gr.State, folder: Path, examples: Callable[[], gr.Row], **private) -> gr.Row:
    """The tab's components, inside ``gr.Tabs``, re-chunked when the entries or the limit change; returns
    the ``examples`` row it offers while empty."""
    with gr.Tab("Chunks", elem_id="chunks-tab"):
        limit = gr.Number(
            label="Token limit",
            value=REPORT_CHUNK_TOKENS,
            precision=0,
            minimum=MIN_TOKENS,
            elem_id="chunk-limit",
            info=(
                "What a retriever indexes: chunks of at most this many o200k_base "
                "tokens, from the reading already made."
            ),
        )
        summary = gr.Markdown(EMPTY, elem_id="chunk-summary")
        offered = examples()
        with gr.Row():
            with gr.Column(scale=3):
                cards = gr.HTML(elem_id="chunk-cards", js_on_load=PICK)
            with gr.Column(scale=2, elem_id="chunk-side"):
                choice = gr.Dropdown(label="Show chunk", choices=[], value=None, elem_id="chunk-choice")
                render = gr.Image(
                    label="Its page, its boxes outlined",
                    type="filepath",
                    interactive=False,
                    elem_id="chunk-render",
                    elem_classes="rl-render",
                )
    gr.on(
        [entries.change, limit.change],
        chunk_views,
        [entries, limit],
        [summary, cards, choice],
        show_progress="hidden",
        **private,
    )
    cards.click(picked, None, choice, show_progress="hidden", **private)
    choice.change(None, choice, None, js=MARK, **private)
    choice.change(
        lambda current, size, picked: chunk_image(current, size, picked, folder),
        [entries, limit, choice],
        render,
        show_progress="hidden",
        **private,
    )
    return offered
