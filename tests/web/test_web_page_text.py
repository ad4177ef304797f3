"""The fight as text for a club chat (Chromium): the building, both sides by name, each combat
with its odds, the check, the best split, the rounds played and the link, on the clipboard."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright", reason="Playwright is not installed")
from playwright.sync_api import expect

from web.test_web_page import open_example

pytestmark = pytest.mark.browser


def copied(page: Any) -> str:
    page.get_by_test_id("copy-text").click()
    expect(page.get_by_test_id("share-note")).to_contain_text("paste it in your club's chat")
    text: str = page.evaluate("navigator.clipboard.readText()")
    assert text == page.get_by_test_id("chat-text").input_value()
    return text


def test_copy_as_text_gives_the_setup_and_the_result(page: Any) -> None:
    open_example(page)
    page.get_by_test_id("solve-defender").click()
    expect(page.get_by_test_id("solve-status")).to_be_visible()
    page.get_by_test_id("seed").fill("7")
    page.get_by_test_id("roll").click()
    expect(page.get_by_test_id("round-history")).to_be_visible()
    lines = copied(page).splitlines()
    assert "2 HMGs and 1 rifle squad" in lines[0]
    assert lines[2].startswith("Defender: ") and "d1 (Rifle)" in lines[2]
    assert lines[3].startswith("Attacker: ")
    assert any(
        line.startswith("Combat A: d1 and h1 against a1 and a2: the attacker wins ")
        for line in lines
    ), lines
    assert "Legal: no rule broken." in lines
    assert any(line.startswith("Best split (proven): ") for line in lines), lines
    assert any(line.startswith("Round 1 (rolled here)") for line in lines), lines
    assert "/#s=" in lines[-1]
    # An answer for an earlier board is left out, also while the new board's check is on its way.
    held: list[Any] = []
    page.route("**/api/check", lambda route: held.append(route))
    page.get_by_test_id("clear").click()
    expect(page.get_by_test_id("stale-solve")).to_be_visible()
    text = copied(page)
    assert held, "the check of the cleared board was not held"
    assert "Best split" not in text, text
    assert "Combat A: d1 and h1" not in text, text
    for route in held:
        route.continue_()
    page.unroute("**/api/check")
    expect(page.get_by_test_id("check-status")).to_have_attribute("data-state", "legal")
    assert "Combat A: d1 and h1" not in copied(page)
