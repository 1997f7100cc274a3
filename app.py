"""ReadLens in the browser, and its API for gradio_client (also the Hugging Face Space entry point).

``demo`` is module level so ``gradio app.py`` can reload it; ``python app.py`` launches it on
GRADIO_SERVER_NAME / GRADIO_SERVER_PORT (Gradio reads both), by default http://127.0.0.1:7860.
"""

from readers import Services, Settings
from ui import build_ui, launch_options

services = Services(Settings.from_env())
demo = build_ui(services)

if __name__ == "__main__":
    demo.launch(**launch_options(services.settings))
