"""The page's check status names the stands still to place as the server's check says: never an
attacking crew-served weapon, FO or sniper (4d), nor a leader, who may stay out (4e)."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed (pip install .[web])")
pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")

from playwright.sync_api import expect

from web.test_web_page import open_rule_case

pytestmark = pytest.mark.browser


def put(page: Any, stand: str, combat: str) -> None:
    page.get_by_test_id(f"counter-{stand}").click()
    page.get_by_test_id("new-combat" if combat == "new" else f"combat-{combat}").click()


def test_the_status_never_asks_to_place_the_attackers_gun(page: Any) -> None:
    open_rule_case(page, "rule-4d-pass")
    expect(page.locator("body")).not_to_have_attribute("data-loading", "true")
    expect(page.get_by_test_id("check-status")).to_have_attribute("data-state", "legal")
    page.get_by_test_id("clear").click()
    status = page.get_by_test_id("check-status")
    put(page, "us-1plt-sq1", "new")
    expect(status).to_contain_text("us-1plt-sq2 is still to place.")
    put(page, "us-1plt-sq2", "new")
    page.get_by_test_id("step-2").click()
    put(page, "jp-1plt-sq1", "A")
    expect(status).to_have_text("Not legal yet: 1 broken rule; jp-bn-jhmg1 is still to place.")
    put(page, "jp-bn-jhmg1", "B")
    expect(status).to_have_attribute("data-state", "legal")
