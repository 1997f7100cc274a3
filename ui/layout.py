"""``build_ui()``: the page, part by part (the masthead, the inputs and the list of files, the four
tabs, the settings and the cache), and the wiring between them and the handlers.

The named API endpoints are declared here once, on hidden components; every event that only
serves the page is private, so the API page lists exactly those.
"""

from __future__ import annotations

import atexit
import filecmp
import shutil
import signal
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import gradio as gr
from starlette.middleware import Middleware

from readers import ReadOptions, Services, Settings
from readers.kinds import SUPPORTED
from readers.render import sandbox

from .api import Endpoints
from .browser import CSS, head
from .chunks import chunks_tab
from .export_tab import export_tab
from .handlers import (
    MAX_FILES,
    backends_line,
    cache_summary,
    clear_cache,
    discard_upload,
    limits_table,
    parse_page,
    read_uploads,
    visitor,
)
from .pages import question_note, show_entries, show_files, status_line, without
from .payload_tab import payload_tab, payload_views
from .report import write_reading, write_report
from .search import search_results
from .server import App, OwnOriginOnly, mend_api_page, mend_downloads, mend_uploads

ASSETS = Path(__file__).resolve().parent.parent / "assets"
EXAMPLES = ["chart-report.pdf", "short-deck.pptx", "sales.xlsx", "web-page.html", "diagram.png", "recording.wav"]
UPLOAD_LIMIT_FACTOR = 2
RENDERED, RAW = "Rendered", "Raw — exactly what the model receives"
MCP_ENVELOPE_BYTES = 64 * 1024  # a tool call's JSON around its file_base64
PUBLIC_NOTE = (
    "**Public mode:** each upload is deleted from the server once read, the shared cache cannot be cleared from here, "
    "and each visitor may ask the vision model {calls} times a minute."
)
NO_WALLS_NOTE = (
    "**This server cannot wall LibreOffice and Chromium in** (bubblewrap cannot make namespaces here), so it runs "
    "neither: legacy Office and ODF files are refused, and Office files and web pages are read without page images."
)
READ_CONCURRENCY = 8  # six people reading at once, plus API clients, all start without waiting
PRIVATE = {"api_visibility": "private"}


@dataclass
class Inputs:
    """What the person gives: files, and how to read them."""

    files: gr.File
    address: gr.Textbox
    multimodal: gr.Checkbox
    page_start: gr.Number
    page_end: gr.Number
    question: gr.Textbox
    unanswered: gr.Markdown
    hotwords: gr.Textbox
    status: gr.Markdown


def examples_row(files: gr.File, folder: Path, elem_id: str) -> gr.Row:
    """A button for each example: what an empty tab offers; a click reads the example as an upload would,
    from a copy in the app's folder (Gradio serves only files under it, the temporary folder or the cwd)."""

    def pick(name: str) -> list[str]:
        copy = folder / "examples" / name
        if not copy.exists():
            copy.parent.mkdir(exist_ok=True)
            shutil.copyfile(ASSETS / name, copy)
        return [str(copy)]

    with gr.Row(elem_id=elem_id) as row:
        for name in (name for name in EXAMPLES if (ASSETS / name).is_file()):  # an installed package has no assets/
            button = gr.Button(f"Try {name}", size="sm", variant="secondary", min_width=120)
            button.click(lambda name=name: pick(name), outputs=files, **PRIVATE)
    return row


def launch_options(settings: Settings) -> dict:
    """What ``launch()`` needs besides host and port: the server's upload limit, the look and the script.

    The server takes files up to twice the reading limit, so that a client that sends a file somewhat
    over it (gradio_client, MCP) has it refused by name while the rest of its batch is read; the page
    never sends a file over the limit at all (``ui.browser``). show_error lets Gradio's own refusals (a
    request that is no valid call) reach clients as sentences, a path that was not uploaded as
    ``ui.server.NOT_UPLOADED``; the handlers already turn every other exception into a gr.Error
    without its text. Every answer carries the app's Content-Security-Policy (``ui.server.OwnOriginOnly``).
    """
    return {
        "max_file_size": UPLOAD_LIMIT_FACTOR * settings.max_file_bytes,
        "show_error": True,
        "mcp_server": settings.mcp_server,
        "theme": gr.themes.Soft(primary_hue="indigo"),
        "css": CSS,
        "head": head(settings.max_file_bytes),
        "footer_links": ["api"],
        "app_kwargs": {"middleware": [Middleware(OwnOriginOnly)]},
    }


def preload() -> None:
    """Import the slow libraries while the app starts, so the first upload does not wait for them
    (the readers import what a kind needs on first use)."""
    import av  # noqa: F401 - audio
    import faster_whisper  # noqa: F401 - audio

    import readers.describe.vision  # noqa: F401 - descriptions
    import readers.pdf.pages  # noqa: F401 - pdfplumber and pdfium, for every paged kind


def start(demo: gr.Blocks, settings: Settings, **options) -> None:
    """Start the app with ``launch_options`` (and ``options``) without waiting for it to stop.

    The MCP server's requests are limited to 4 MiB by the MCP SDK, less than a file sent inline
    as base64 (4/3 of its size) may take: the limit is raised so that, as with uploads, a file up
    to twice MAX_FILE_MB arrives and is refused by name, and a bigger request is refused whole.
    """
    demo.launch(prevent_thread_lock=True, **launch_options(settings), **options)
    if demo.mcp_server_obj is not None:
        demo.mcp_server_obj.manager.asgi_app.max_body_size = (
            UPLOAD_LIMIT_FACTOR * settings.max_file_bytes * 4 // 3 + MCP_ENVELOPE_BYTES
        )


def launch(demo: gr.Blocks, settings: Settings) -> None:
    """Start the app and block until it is stopped. Containers and Spaces stop it with SIGTERM:
    exiting normally lets it remove its temporary folder (atexit) instead of leaving it behind."""
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(0))
    start(demo, settings)
    demo.block_thread()


def _api(endpoints: Endpoints) -> None:
    """The named endpoints, on components the page never shows."""
    with gr.Column(visible=False):
        file = gr.File(label="file", type="filepath")
        page_start = gr.Number(label="page_start", precision=0, value=None)
        page_end = gr.Number(label="page_end", precision=0, value=None)
        page = gr.Number(label="page", precision=0, value=1)
        describe = gr.Textbox(label="describe", value="")
        question = gr.Textbox(label="question", value="")
        multimodal = gr.Checkbox(label="multimodal", value=False)
        document = gr.Checkbox(label="document", value=False)
        line_numbers = gr.Checkbox(label="line_numbers", value=False)
        hotwords = gr.Textbox(label="hotwords", value="")
        chunk_tokens = gr.Number(label="chunk_tokens", precision=0, value=0)
        reading, transcript = gr.JSON(label="reading"), gr.JSON(label="transcript")
        image = gr.Image(label="page image", type="filepath", format="png")
        answer = gr.Textbox(label="answer")
        inline = [gr.Textbox(label="file_base64", value=""), gr.Textbox(label="file_name", value="")]
        budget = [gr.Number(label="max_tokens", precision=0, value=None), gr.Textbox(label="cursor", value="")]
        search = [gr.Textbox(label="query", value=""), gr.Checkbox(label="regex", value=False)]
        around = [gr.Number(label="context", precision=0, value=2), gr.Number(label="max_hits", precision=0, value=20)]
        outline, found = gr.JSON(label="outline"), gr.JSON(label="found")
        url = gr.Textbox(label="url", value="")
        provider = gr.Textbox(label="provider", value="openai")
        files = gr.File(label="files", file_count="multiple", type="filepath")
    shared = {"triggers": [], "concurrency_id": "read", "concurrency_limit": READ_CONCURRENCY}
    inputs = [
        file,
        page_start,
        page_end,
        describe,
        multimodal,
        document,
        line_numbers,
        *inline,
        hotwords,
        *budget,
        chunk_tokens,
        provider,
        url,
        files,
    ]
    gr.on(fn=endpoints.read_file, inputs=inputs, outputs=reading, api_name="read_file", **shared)
    gr.on(fn=endpoints.render_page, inputs=[file, page, *inline, url], outputs=image, api_name="render_page", **shared)
    gr.on(
        fn=endpoints.describe,
        inputs=[file, page, question, *inline, url],
        outputs=answer,
        api_name="describe",
        **shared,
    )
    gr.on(
        fn=endpoints.transcribe,
        inputs=[file, *inline, hotwords, url],
        outputs=transcript,
        api_name="transcribe",
        **shared,
    )
    gr.on(
        fn=endpoints.outline,
        inputs=[file, page_start, page_end, *inline, url],
        outputs=outline,
        api_name="outline",
        **shared,
    )
    gr.on(
        fn=endpoints.find,
        inputs=[file, *search, page_start, page_end, *around, *inline, url],
        outputs=found,
        api_name="find",
        **shared,
    )


def _masthead(services: Services) -> None:
    gr.Markdown(
        "# ReadLens\nSee every file the way your model will: the text, the tables, each page as an image, "
        "and — for models that cannot see — a description of its visuals."
    )
    if services.settings.public:
        gr.Markdown(PUBLIC_NOTE.format(calls=services.settings.vision_calls_per_minute), elem_id="public-mode")
        if not sandbox.available():  # readers.render.sandbox.engine_allowed: neither engine runs
            gr.Markdown(NO_WALLS_NOTE, elem_id="no-walls")
    gr.Markdown(backends_line(services), elem_id="backends", elem_classes="rl-source")


def _controls(settings: Settings) -> tuple:
    """The right column: the mode, the pages, the question and the hotwords."""
    multimodal = gr.Checkbox(
        label="Multimodal model",
        value=settings.multimodal,
        elem_id="multimodal",
        info="On: the model gets each page as an image. Off: text plus a description of each page's visuals.",
    )
    with gr.Row():
        page_start = gr.Number(
            label="First page", precision=0, minimum=0, value=None, info="0: from the first", elem_id="page-start"
        )
        page_end = gr.Number(
            label="Last page", precision=0, minimum=0, value=None, info="0: to the last", elem_id="page-end"
        )
    question = gr.Textbox(
        label="Describe — ask about the visuals",
        placeholder="e.g. What are the exact percentages in the pie chart?",
        submit_btn="Ask",
        elem_id="question",
    )
    unanswered = gr.Markdown(visible=False, elem_id="question-note", elem_classes="rl-error")
    hotwords = gr.Textbox(
        label="Hotwords (audio)",
        placeholder="Names and terms, e.g. Kubernetes, ReadLens",
        info="Transcription expects these words and spells them so; Enter re-reads.",
        submit_btn="Use",
        elem_id="hotwords",
    )
    return multimodal, page_start, page_end, question, unanswered, hotwords


def _inputs(settings: Settings, entries: gr.State, ranges: gr.State, folder: Path) -> Inputs:
    """The first screen: the upload box, and under it the status line and the list of files (each
    with its progress while it is read); the controls beside them."""
    with gr.Row():
        with gr.Column(scale=3):
            files = gr.File(
                label=f"Files — up to {MAX_FILES}, {settings.max_file_mb:g} MB each (documents, spreadsheets, "
                "web pages, e-books, e-mail, archives, images, audio, text)",
                file_count="multiple",
                type="filepath",
                height=150,
                elem_id="uploads",
            )
            address = gr.Textbox(
                label="Or web addresses",
                placeholder="https://example.com/report.pdf — a page or a file; several separated by spaces",
                submit_btn="Read",
                elem_id="address",
            )
            status = gr.Markdown(elem_id="status", visible=False)
            # The file a line's Remove drops, set in the page: the list's buttons are drawn anew as files are read,
            # and an event of a list drawn over is unknown to the server by the time it comes (a busy machine).
            removed = gr.Textbox(visible="hidden")
            removed.change(without, [removed, files], [files, removed], show_progress="hidden", **PRIVATE)

            @gr.render(inputs=[entries], triggers=[entries.change], concurrency_limit=None, show_progress="hidden")
            def _files(current):
                show_files(current, removed, ranges, folder, write_reading)

            with gr.Accordion("Formats ReadLens reads", open=False, elem_id="formats"):
                gr.Markdown(f"{SUPPORTED}.")
        with gr.Column(scale=2):
            controls = _controls(settings)
    return Inputs(files, address, *controls, status)


def _pages_tab(demo: gr.Blocks, entries: gr.State, inputs: Inputs, folder: Path, max_pages: int) -> tuple[gr.Row, list]:
    """Each page's render beside its text, the search over the files read, and the examples while empty; the
    examples' row, and what only serves files read (the text's form, the search), hidden while empty, so that
    the first screen shows what to do."""
    with gr.Tab("Pages", elem_id="pages-tab"):
        text_mode = gr.Radio(
            [RENDERED, RAW],
            value=RENDERED,
            label="Each page's text",
            info="The model receives the raw text (Markdown); rendered shows it as a reader sees it.",
            elem_id="text-mode",
            visible=False,
        )
        with gr.Group(visible=False) as search:
            query = gr.Textbox(
                label="Search the files read",
                placeholder="A word, a phrase, or a regular expression",
                submit_btn="Find",
                elem_id="search",
            )
            regex = gr.Checkbox(label="Regular expression", value=False)
        found = gr.Markdown(elem_id="search-results", visible=False)
        gr.on(
            [query.submit, regex.change, entries.change],
            lambda current, asked, pattern: search_results(current, asked, pattern, max_pages),
            [entries, query, regex],
            found,
            show_progress="hidden",
            trigger_mode="always_last",  # the last query asked is the one answered, even while one is searched
            **PRIVATE,
        )

        @gr.render(
            inputs=[entries, text_mode],
            triggers=[demo.load, entries.change, text_mode.change],
            concurrency_limit=None,
            show_progress="hidden",
        )
        def _pages(current, mode):
            show_entries(current, folder, raw=mode == RAW)

        return examples_row(inputs.files, folder, "pages-examples"), [text_mode, search, found]


def _settings_and_cache(services: Services) -> gr.Markdown:
    """The limits in force, and the cache's size (cleared here, but not in public mode), to fill on load."""
    with gr.Accordion("Settings in force", open=False, elem_id="settings"):
        gr.Markdown(
            f"{backends_line(services)}\n\n{limits_table(services.settings)}\n\nSet them in the environment or "
            "`.env` (see docs/configuration.md) and restart the app."
        )
    with gr.Accordion("Cache", open=False):
        cache_info = gr.Markdown()
        if not services.settings.public:  # every visitor shares the cache
            clear_button = gr.Button("Clear cache", variant="secondary", size="sm")
            clear_button.click(lambda: clear_cache(services), outputs=cache_info, **PRIVATE)
    return cache_info


def _discard(settings: Settings):
    """Public mode's deletion of a visitor's file once read (None otherwise); never the examples' copies in
    Gradio's cache, which a visitor can name, or reach by sending an example's bytes (their folder is named by
    content)."""
    if not settings.public:
        return None

    def discard(path: str) -> None:
        example = ASSETS / Path(path).name
        if not (
            example.name in EXAMPLES
            and example.is_file()
            and Path(path).is_file()
            and filecmp.cmp(path, example, shallow=False)
        ):
            discard_upload(path)

    return discard


def _wire_reading(inputs: Inputs, entries: gr.State, ranges: gr.State, services: Services) -> None:
    """A change to the files or to how to read them reads what needs reading again, into ``entries``."""
    settings, discard = services.settings, _discard(services.settings)

    def read(paths, start, end, ask, mode, heard, addresses, current, chosen, request: gr.Request):
        options = ReadOptions(
            parse_page(start),
            parse_page(end),
            ask or None,
            mode,
            hotwords=heard or None,
            visitor=visitor(request, settings.forwarded_allow_ips),
        )
        yield from read_uploads(paths, options, services, current, discard, chosen, addresses or "")

    controls = [inputs.multimodal, inputs.page_start, inputs.page_end]
    gr.on(
        [
            inputs.files.change,
            *(control.change for control in controls),
            inputs.question.submit,
            inputs.hotwords.submit,
            inputs.address.submit,
            ranges.change,
        ],
        read,
        inputs=[
            inputs.files,
            inputs.page_start,
            inputs.page_end,
            inputs.question,
            inputs.multimodal,
            inputs.hotwords,
            inputs.address,
            entries,
            ranges,
        ],
        outputs=entries,
        show_progress="hidden",
        trigger_mode="always_last",
        concurrency_id="read",
        concurrency_limit=READ_CONCURRENCY,
        **PRIVATE,
    )


def build_ui(services: Services | None = None) -> gr.Blocks:
    """The ReadLens app over one ``Services`` (one cache, one vision client, one transcriber per process)."""
    services = services or Services(Settings.from_env())
    mend_uploads()
    mend_downloads(services)
    mend_api_page()
    folder = Path(tempfile.mkdtemp(prefix="readlens-app-"))
    atexit.register(shutil.rmtree, folder, True)
    with App(title="ReadLens", delete_cache=(3600, 86400)) as demo:
        _masthead(services)
        entries, ranges = gr.State([]), gr.State({})
        inputs = _inputs(services.settings, entries, ranges, folder)
        with gr.Tabs(overflow_behavior="wrap"):
            pages_examples, pages_tools = _pages_tab(demo, entries, inputs, folder, services.settings.max_pages)
            payload_examples, provider, payload_outputs = payload_tab(
                lambda: examples_row(inputs.files, folder, "payload-examples")
            )
            report_file = export_tab(entries, folder, **PRIVATE)
            chunks_examples = chunks_tab(
                entries, folder, lambda: examples_row(inputs.files, folder, "chunks-examples"), **PRIVATE
            )
        cache_info = _settings_and_cache(services)
        _wire_reading(inputs, entries, ranges, services)
        views = [entries, inputs.multimodal, provider]
        # The payload is drawn one request at a time, in the order asked: a drawing asked for before the provider
        # changed (the files still being read) never lands after the new provider's.
        payload = {"concurrency_id": "payload", "concurrency_limit": 1}
        entries.change(
            lambda current, mode, chosen: (
                *[gr.update(visible=not current)] * 3,
                *[gr.update(visible=bool(current))] * len(pages_tools),
                gr.update(value=status_line(current), visible=bool(current)),
                question_note(current),
                write_report(current, folder) if current and all(entry.done for entry in current) else None,
                *payload_views(current, mode, folder, chosen),
            ),
            views,
            [
                pages_examples,
                payload_examples,
                chunks_examples,
                *pages_tools,
                inputs.status,
                inputs.unanswered,
                report_file,
                *payload_outputs,
            ],
            show_progress="hidden",
            **payload,
            **PRIVATE,
        )
        provider.change(
            lambda current, mode, chosen: payload_views(current, mode, folder, chosen),
            views,
            payload_outputs,
            show_progress="hidden",
            **payload,
            **PRIVATE,
        )
        demo.load(lambda: cache_summary(services), outputs=cache_info, **PRIVATE)
        _api(Endpoints(services, folder, _discard(services.settings)))
    return demo.queue(max_size=64, default_concurrency_limit=16)
