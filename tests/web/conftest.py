"""Fixtures of the web tests: a live server, and Debian's Chromium at a desktop or phone size."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
#: The viewports the page is tried at: a club laptop, and a phone beside the table.
VIEWPORTS = {"desktop": {"width": 1400, "height": 1000}, "phone": {"width": 390, "height": 844}}


@pytest.fixture(scope="session")
def live_server() -> Iterator[str]:
    """The app served as `cfalloc serve` serves it, on a free loopback port, in a thread."""
    pytest.importorskip("uvicorn", reason="the web extra is not installed")
    from allocator.web.server import background
    from allocator.web.settings import WebSettings

    with background(WebSettings()) as (url, _):
        yield url


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's Chromium driven by Playwright (never Playwright's own browser download)."""
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing: install Debian's Chromium (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")
    # as the actions' default below: a machine shared with other work can take seconds to draw
    sync_api.expect.set_options(timeout=15_000)
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        yield chromium
        chromium.close()


@pytest.fixture
def viewport(request: pytest.FixtureRequest) -> str:
    """The page's size: ``desktop`` unless a test is parametrised with ``phone`` (indirect)."""
    return str(getattr(request, "param", "desktop"))


@pytest.fixture
def page(browser: Any, live_server: str, viewport: str) -> Iterator[Any]:
    """A fresh page at ``/``; fails the test on a script error or a request to another host."""
    context = browser.new_context(
        viewport=VIEWPORTS[viewport],
        is_mobile=viewport == "phone",
        has_touch=viewport == "phone",
        permissions=["clipboard-read", "clipboard-write"],
    )
    context.set_default_timeout(15_000)
    new_page = context.new_page()
    script_errors: list[str] = []
    foreign_requests: list[str] = []
    new_page.on("pageerror", lambda error: script_errors.append(str(error)))
    new_page.on(
        "request",
        lambda request: (
            None
            if request.url.startswith((live_server, "data:"))
            else foreign_requests.append(request.url)
        ),
    )
    new_page.goto(f"{live_server}/")
    yield new_page
    context.close()
    assert script_errors == [], "the page raised script errors"
    assert foreign_requests == [], "the page fetched something from another host"
