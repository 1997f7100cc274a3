"""ReadLens in the browser, its API for gradio_client and the same API as MCP tools (also the Hugging
Face Space entry point).

``demo`` is module level so ``gradio app.py`` can reload it; ``python app.py`` launches it on
GRADIO_SERVER_NAME / GRADIO_SERVER_PORT (Gradio reads both), by default http://127.0.0.1:7860, with
the MCP server at http://127.0.0.1:7860/gradio_api/mcp/ (Gradio prints it).
"""

# The PDF reader's worker processes re-import this file as "__mp_main__". They need the readers,
# not a second app: importing Gradio and building the page there would make the first PDF wait ~9 s.
if __name__ != "__mp_main__":
    # The readers import what a kind needs on first use; the app imports the slow libraries while
    # it starts, so the first upload does not wait for them.
    import av  # noqa: F401 - audio
    import faster_whisper  # noqa: F401 - audio

    import readers.describe.vision  # noqa: F401 - descriptions
    import readers.pdf.pages  # noqa: F401 - pdfplumber and pdfium, for every paged kind
    from readers import Services, Settings
    from ui import build_ui, launch

    services = Services(Settings.from_env())
    demo = build_ui(services)

if __name__ == "__main__":
    import signal
    import sys

    # Containers and Spaces stop the app with SIGTERM: exiting normally lets the app remove its
    # temporary folder (atexit) instead of leaving it behind.
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(0))
    launch(demo, services.settings)
