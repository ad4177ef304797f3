"""Fixtures of the web tests: a live server, and Debian's Chromium at a desktop or phone size."""

from __future__ import annotations

import socket
import threading
import time
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
    """The app served by uvicorn on a free loopback port, in a background thread."""
    uvicorn = pytest.importorskip("uvicorn", reason="the web extra is not installed")
    from allocator.web.app import create_app
    from allocator.web.settings import WebSettings

    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(WebSettings()), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            pytest.fail("the web server did not start within 10 s")
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)
    listener.close()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's Chromium driven by Playwright (never Playwright's own browser download)."""
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing: install Debian's Chromium (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")
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
