"""The first screen (Chromium, desktop and 390x844): the page opens on a legal guide example at
step 1 with the board in view; on a phone the current step, the board and the dice follow each
other within one screen."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright", reason="Playwright is not installed")
from playwright.sync_api import expect

from web.test_web_page import BOTH_SIZES, expect_status

pytestmark = pytest.mark.browser


def top(page: Any, selector: str) -> float:
    box = page.locator(selector).bounding_box()
    assert box is not None, f"{selector} is not drawn"
    return float(box["y"])


@BOTH_SIZES
def test_the_page_opens_on_a_legal_example_at_step_1_with_the_board_in_view(
    page: Any, viewport: str
) -> None:
    expect_status(page, "legal")
    assert page.get_by_test_id("scenario-select").input_value().startswith("guide-")
    expect(page.get_by_test_id("step-1")).to_have_attribute("aria-current", "step")
    expect(page.get_by_test_id("step-help")).to_contain_text("Steps 1–3, the defender")
    expect(page.get_by_test_id("building-name")).to_be_in_viewport()
    if viewport == "desktop":
        expect(page.locator(".combats-area")).to_be_in_viewport()
        expect(page.get_by_test_id("roll")).to_be_in_viewport()


@pytest.mark.parametrize("viewport", ["phone"], indirect=True)
def test_on_a_phone_the_step_the_board_and_the_dice_are_a_screen_apart(page: Any) -> None:
    expect_status(page, "legal")
    screen = page.viewport_size["height"]
    step, board, dice = (top(page, s) for s in ("#step-help", ".combats-area", "#dice-section"))
    assert step < board < dice, "the current step, the board and the dice are out of order"
    assert board - step <= screen, f"the board is {board - step:.0f} px below the current step"
    assert dice - board <= screen, f"the dice are {dice - board:.0f} px below the board"
    # nothing is wider than the phone
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
