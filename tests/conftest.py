import time
from pathlib import Path

import pytest

from readers import Services, Settings
from testkit import make_settings  # importing testkit turns Gradio's analytics off before a test imports Gradio
from testkit.fake_openai import FakeOpenAI

# A bound on work that, unbounded, runs for minutes or never ends (a stalled parser, a hung
# LibreOffice or Chromium, workers that outlive their reader): generous, so that a machine busy with
# other work passes too. How fast things are is measured by `make bench`, never asserted here.
BOUNDED_SECONDS = 60


def eventually(check, seconds: float = BOUNDED_SECONDS) -> bool:
    """Whether ``check()`` comes true within ``seconds`` (asked every 50 ms)."""
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


@pytest.fixture
def settings(tmp_path) -> Settings:
    return make_settings(tmp_path / "cache")


@pytest.fixture
def services(settings) -> Services:
    return Services(settings)


@pytest.fixture(scope="session")
def shared_services(tmp_path_factory) -> Services:
    """One cache for the session, so LibreOffice converts and Chromium prints each document once."""
    return Services(make_settings(tmp_path_factory.mktemp("cache")))


@pytest.fixture(scope="session")
def ray_nodes():
    """Ray's multi-node cluster on this machine, a head and two worker nodes (``testkit.raycluster``),
    started once for the session and shut down at its end, every process it started checked gone."""
    from testkit.raycluster import cluster

    with cluster(workers=2) as nodes:
        yield nodes


@pytest.fixture
def fake_openai():
    server = FakeOpenAI().start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def app():
    """The app as ``python app.py`` runs it, its vision model the fake one (``tests.test_ui_server``)."""
    from tests.test_ui_server import running_app

    return running_app()


@pytest.fixture(scope="module")
def ocr_app(tmp_path_factory):
    """The app as a new user starts it: nothing configured, so local OCR describes the figures."""
    from testkit.server import ARTIFACTS, launch_app, stop

    url, process = launch_app(
        {"READLENS_CACHE_DIR": str(tmp_path_factory.mktemp("ocr-app") / "cache")}, ARTIFACTS / "app-ocr.log"
    )
    yield url
    stop(process)


@pytest.fixture(scope="module")
def chromium():
    """Debian's Chromium, driven by Playwright: each test opens its own page at its own size."""
    from playwright.sync_api import sync_playwright

    from tests.test_browser import CHROMIUM, CHROMIUM_ARGS

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(scope="module")
def client(app):
    """A ``gradio_client`` of ``app``."""
    from gradio_client import Client

    return Client(app.url, verbose=False)


@pytest.fixture(scope="session")
def spoken(tmp_path_factory) -> dict[str, Path]:
    """The same spoken sentence in every accepted audio format (``testkit.fixtures.audio``)."""
    from testkit.fixtures.audio import spoken_files

    return spoken_files(tmp_path_factory.mktemp("spoken"))
