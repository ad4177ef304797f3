"""Answers never go stale silently (Chromium): once the board changes, the best split, the
walkthrough and the dice rolled say they are for the earlier board, with a control to compute
them again; Undo back to their board and they are current again."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright", reason="Playwright is not installed")
from playwright.sync_api import expect

from web.test_web_page import BOTH_SIZES, open_example

pytestmark = pytest.mark.browser
PANELS = ("solve", "explain", "roll")


def answer_everything(page: Any) -> None:
    page.get_by_test_id("solve-defender").click()
    expect(page.get_by_test_id("solve-status")).to_be_visible()
    page.get_by_test_id("explain").click()
    expect(page.get_by_test_id("explain-step").first).to_be_visible()
    page.get_by_test_id("seed").fill("7")
    page.get_by_test_id("roll").click()
    expect(page.get_by_test_id("seed-used")).to_be_visible()


@BOTH_SIZES
def test_a_changed_board_marks_every_old_answer_stale(page: Any) -> None:
    open_example(page)
    answer_everything(page)
    for panel in PANELS:
        expect(page.get_by_test_id(f"stale-{panel}")).to_have_count(0)
    page.get_by_test_id("clear").click()
    for panel in PANELS:
        note = page.get_by_test_id(f"stale-{panel}")
        expect(note).to_be_visible()
        expect(note).to_contain_text("For the earlier board")
        expect(page.get_by_test_id(f"{panel}-result")).to_have_class("stale")
    # Undo: the board is the one they were computed for again.
    page.get_by_test_id("undo").click()
    for panel in PANELS:
        expect(page.get_by_test_id(f"stale-{panel}")).to_have_count(0)
    page.get_by_test_id("clear").click()
    page.get_by_test_id("recompute-solve").click()
    expect(page.get_by_test_id("solve-status")).to_be_visible()
    expect(page.get_by_test_id("stale-solve")).to_have_count(0)
    expect(page.get_by_test_id("stale-explain")).to_be_visible()
    page.get_by_test_id("recompute-explain").click()
    expect(page.get_by_test_id("stale-explain")).to_have_count(0)
    expect(page.get_by_test_id("explain-result")).to_contain_text("Nothing placed yet")
    # The dice cannot decide an empty board: said for this board, no longer stale.
    page.get_by_test_id("recompute-roll").click()
    expect(page.get_by_test_id("roll-error")).to_contain_text("Finish the allocation first")
    expect(page.get_by_test_id("stale-roll")).to_have_count(0)


def test_a_best_split_put_on_the_board_is_current(page: Any) -> None:
    open_example(page, empty=True)
    page.get_by_test_id("solve-attacker").click()
    page.get_by_test_id("apply-solution").click()
    expect(page.get_by_test_id("combats").get_by_test_id("counter-a1")).to_be_visible()
    expect(page.get_by_test_id("stale-solve")).to_have_count(0)
    page.get_by_test_id("clear").click()
    expect(page.get_by_test_id("stale-solve")).to_be_visible()
