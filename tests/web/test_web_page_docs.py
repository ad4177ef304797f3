"""The API's documentation at ``/docs`` in Debian's Chromium: Swagger UI 5 reads the OpenAPI 3.1
of ``/openapi.json`` and lists every operation, with nothing fetched from another host (the
``page`` fixture fails a test on a script error or a foreign request).

(Named to run after test_web_load.py: once the session's Playwright has started, its event loop
runs in the main thread, where those tests call asyncio.run.)"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed (pip install .[web])")
pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")

from playwright.sync_api import expect

from allocator.web.app import create_app
from web.endpoints import api_routes

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("viewport", ["desktop", "phone"], indirect=True)
def test_docs_list_every_operation(page: Any, live_server: str) -> None:
    page.goto(f"{live_server}/docs")
    operations = page.locator(".opblock-summary")
    routes = api_routes(create_app())
    expect(operations).to_have_count(len(routes))
    for method, path in routes:
        operation = page.locator(f".opblock-{method.lower()}", has_text=path).first
        expect(operation).to_be_visible()
    expect(page.locator(".errors-wrapper")).to_have_count(0)  # Swagger UI's parser errors
    expect(page.locator(".title")).to_contain_text("cfalloc")


def test_an_operation_opens_with_its_answer_documented(page: Any, live_server: str) -> None:
    page.goto(f"{live_server}/docs")
    check = page.locator(".opblock-post", has_text="/api/check").first
    check.locator(".opblock-summary").click()
    answers = check.locator(".responses-wrapper")
    expect(answers).to_contain_text("422")
    expect(answers.locator(".model-example").first).to_contain_text("nearest_legal")
