"""Real-browser tests: Playwright driving the system Chromium against a live server."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator

import pytest

from tests.conftest import IN_CI

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
# Playwright's sync API runs an event loop in this thread; the ORM calls the
# tests make between browser steps are still plain synchronous calls.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    if not os.path.exists(CHROMIUM):
        if IN_CI:
            pytest.fail("CI=true but chromium is not installed")
        pytest.skip("browser tests need the chromium package (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield browser
        browser.close()


class Page:
    """A browser page that remembers every console message, to catch CSP violations."""

    def __init__(self, page: object) -> None:
        self.page = page
        self.console: list[str] = []
        page.on("console", lambda message: self.console.append(message.text))

    def csp_violations(self) -> list[str]:
        return [m for m in self.console if "Content Security Policy" in m]


@pytest.fixture
def page(browser, live_server) -> Iterator[Page]:
    context = browser.new_context(base_url=live_server.url)
    wrapped = Page(context.new_page())
    yield wrapped
    context.close()
