"""Headless Chromium (Debian's, through Playwright) printing a web page to PDF, with JavaScript
off and every request refused, so nothing is fetched while reading a file."""

from __future__ import annotations

import shutil

from ..storage.files import write_atomic

PRINT_TIMEOUT_MS = 60_000


def chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


def print_page(html: str, target) -> None:
    """Print ``html`` to the PDF ``target`` with headless Chromium, JavaScript off, nothing fetched."""
    from playwright.sync_api import sync_playwright  # only when a page is printed: it starts a driver process

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium(), args=["--no-sandbox"], timeout=PRINT_TIMEOUT_MS)
        try:
            context = browser.new_context(java_script_enabled=False, offline=True)
            context.route("**/*", lambda route: route.abort())  # stylesheets, images, frames: nothing remote or local is loaded
            page = context.new_page()
            page.set_default_timeout(PRINT_TIMEOUT_MS)
            page.set_content(html, wait_until="load")
            data = page.pdf(format="A4", print_background=True)
        finally:
            browser.close()
    write_atomic(target, data)
