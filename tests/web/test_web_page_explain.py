"""Explain that teaches (Chromium, desktop and 390x844): a stepper beside the board, one step at
a time, that lights on the board the stands each step places or moves, says why, and opens at
the first step an allocation breaks."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright", reason="Playwright is not installed")
from playwright.sync_api import expect

from web.test_web_page import BOTH_SIZES, build_illegal_line, open_example

pytestmark = pytest.mark.browser


def lit(page: Any) -> list[str]:
    ids: list[str] = page.locator(".board-area .counter.lit").evaluate_all(
        "ns => ns.map(n => n.dataset.testid.replace('counter-', '')).sort()"
    )
    return ids


def shown(page: Any) -> Any:
    return page.locator("[data-testid=explain-step]:visible")


@BOTH_SIZES
def test_the_stepper_shows_one_step_and_lights_its_stands(page: Any, viewport: str) -> None:
    open_example(page)
    page.get_by_test_id("explain").click()
    box = page.get_by_test_id("explain-box")
    expect(box).to_be_visible()
    expect(shown(page)).to_have_count(1)
    expect(shown(page)).to_have_attribute("data-step", "0")
    expect(page.get_by_test_id("explain-prev")).to_be_disabled()
    expect(page.get_by_test_id("explain-where")).to_have_text("1 of 8")
    assert lit(page) == ["d1", "h1", "h2"]  # what counts against the capacity
    page.get_by_test_id("explain-next").click()
    expect(shown(page)).to_have_attribute("data-step", "1")
    expect(page.locator(".board-area .counter.lit")).to_have_count(1)
    assert lit(page) == ["d1"]
    expect(page.get_by_test_id("counter-d1")).to_have_attribute(
        "aria-label", "defender Rifle d1 (squad), unit 1plt; in the step explained"
    )
    page.get_by_test_id("explain-next").click()
    expect(shown(page)).to_have_attribute("data-step", "2")
    expect(page.locator(".board-area .counter.lit")).to_have_count(2)
    assert lit(page) == ["h1", "h2"]
    page.get_by_test_id("explain-goto-4").click()
    expect(shown(page)).to_contain_text("The attack: A: a1, a2; B: a3, a4.")
    assert lit(page) == ["a1", "a2", "a3", "a4"]
    page.get_by_test_id("explain-prev").click()
    expect(shown(page)).to_have_attribute("data-step", "3")
    page.get_by_test_id("explain-goto-7").click()
    expect(page.get_by_test_id("explain-next")).to_be_disabled()
    # In the main area beside the board on a desktop, the whole width on a phone.
    board = page.locator("main.board-area").bounding_box()
    stepper = box.bounding_box()
    assert stepper["x"] >= board["x"] and stepper["width"] <= board["width"]
    if viewport == "phone":
        assert stepper["width"] >= 0.85 * 390
    # A change of the board puts the lights out; Close puts the walkthrough away.
    page.get_by_test_id("clear").click()
    expect(page.locator(".board-area .counter.lit")).to_have_count(0)
    expect(page.get_by_test_id("stale-explain")).to_be_visible()
    page.get_by_test_id("explain-close").click()
    expect(box).to_be_hidden()


def test_the_best_line_says_why_and_states_its_status_once(page: Any) -> None:
    open_example(page, empty=True)
    page.get_by_test_id("explain").click()
    expect(page.get_by_test_id("explain-result").locator(".explain-mode")).to_contain_text(
        "the best line of play"
    )
    expect(page.get_by_test_id("explain-status")).to_have_count(0)
    page.get_by_test_id("explain-goto-1").click()
    expect(shown(page)).to_contain_text("grouping for the defender")
    assert lit(page) == ["d1"]


def test_the_stepper_opens_at_the_step_broken(page: Any) -> None:
    build_illegal_line(page)
    page.get_by_test_id("explain").click()
    expect(shown(page)).to_have_attribute("data-status", "broken")
    expect(shown(page).locator("[data-testid=rule-link][data-rule='2b']").first).to_be_visible()
