"""ReadLens in the browser, its API for gradio_client and the same API as MCP tools (also the Hugging
Face Space entry point; an installed package starts the same app with ``readlens app``).

``demo`` is module level so ``gradio app.py`` can reload it; ``python app.py`` launches it on
GRADIO_SERVER_NAME / GRADIO_SERVER_PORT (Gradio reads both), by default http://127.0.0.1:7860, with
the MCP server at http://127.0.0.1:7860/gradio_api/mcp/ (Gradio prints it).
"""

# The PDF reader's worker processes re-import this file as "__mp_main__". They need the readers,
# not a second app: importing Gradio and building the page there would make the first PDF wait ~9 s.
if __name__ != "__mp_main__":
    from readers import Services, Settings
    from ui import build_ui, launch
    from ui.layout import preload

    preload()
    services = Services(Settings.from_env())
    demo = build_ui(services)

if __name__ == "__main__":
    launch(demo, services.settings)
