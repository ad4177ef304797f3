"""The fight at the table on the page (Chromium, desktop and 390x844): a player opens a guide
example, enters the dice rolled at the table for round 1, plays on, rolls round 2 on the page,
and sees the history of the rounds and who holds the building, also after reopening the link."""

from __future__ import annotations

import re
from typing import Any

import pytest

pytest.importorskip("playwright", reason="Playwright is not installed")
from playwright.sync_api import expect

from web.test_web_page import BOTH_SIZES, SEED, expect_status, open_example


def history(page: Any) -> Any:
    return page.get_by_test_id("round-history").get_by_test_id("history-round")


def enter_dice(page: Any, dice: dict[str, str]) -> None:
    panel = page.get_by_test_id("table-dice")
    if panel.get_attribute("open") is None:
        panel.locator("summary").click()
    for combat, rolled in dice.items():
        page.get_by_test_id(f"dice-entry-{combat}").fill(rolled)
    page.get_by_test_id("dice-apply").click()


@BOTH_SIZES
def test_a_player_plays_a_guide_example_to_the_end(page: Any) -> None:
    open_example(page)
    # Round 1 at the table: a die that is not a die is refused, naming its combat.
    enter_dice(page, {"A": "4-3", "B": "7-1"})
    expect(page.get_by_test_id("dice-error")).to_contain_text("combat B: 7 is not a face of a die")
    enter_dice(page, {"A": "4-3", "B": "1-5"})
    result = page.get_by_test_id("roll-result")
    expect(result.get_by_test_id("table-dice-used")).to_be_visible()
    winners = result.get_by_test_id("roll-combat")
    expect(winners).to_have_count(2)
    assert winners.evaluate_all("ns => ns.map(n => n.dataset.winner)") == ["attacker", "defender"]
    expect(result.get_by_test_id("fight-goes-on")).to_be_visible()
    expect(result.get_by_test_id("fight-now")).to_contain_text(
        "the attacker now takes the building 90.9%"
    )
    expect(history(page)).to_have_count(1)
    page.get_by_test_id("next-round").click()
    # Round 2: the losers are gone, the survivor keeps his combat, step 1 again (7b).
    expect(page.locator("body")).not_to_have_attribute("data-loading", "true")
    expect(page.get_by_test_id("counter-d1")).to_have_count(0)
    expect(page.get_by_test_id("counter-a3")).to_have_count(0)
    expect(page.get_by_test_id("combat-B").get_by_test_id("counter-h2")).to_be_visible()
    expect(page.get_by_test_id("step-1")).to_have_attribute("aria-current", re.compile("."))
    expect(page.get_by_test_id("scenario-select")).to_contain_text("round 2")
    expect(page.get_by_test_id("fight-now")).to_contain_text("90.9%")
    expect(history(page)).to_have_count(1)
    expect(history(page).first).to_have_attribute("data-round", "1")
    page.get_by_test_id("solve-defender").click()
    page.get_by_test_id("apply-solution").click()
    expect_status(page, "legal")
    page.get_by_test_id("roll").click()
    expect(page.get_by_test_id("roll-result").get_by_test_id("fight-ends")).to_be_visible()
    expect(history(page)).to_have_count(2)
    assert history(page).evaluate_all("ns => ns.map(n => n.dataset.round)") == ["1", "2"]
    over = page.get_by_test_id("fight-over")
    expect(over).to_have_count(1)
    expect(over).to_have_text(
        re.compile(r"The fight is over: the (attacker takes|defender holds) the building\.")
    )
    first = history(page).first
    expect(first).to_contain_text("dice 4 against 3")
    expect(first).to_contain_text("dice from the table")
    expect(history(page).last).to_contain_text("rolled here")
    # The link keeps the fight: reopened, the history and who holds the building are there.
    holder = over.inner_text()
    link = page.url
    assert "#s=" in link
    page.goto("about:blank")
    page.goto(link)
    expect(history(page)).to_have_count(2)
    expect(page.get_by_test_id("fight-over")).to_have_text(holder)


def test_a_damaged_history_in_a_link_is_left_out_and_said(page: Any, live_server: str) -> None:
    import base64
    import json

    saved = {"name": SEED, "step": 1, "rounds": [{"round": 7, "combats": "lots"}]}
    encoded = base64.urlsafe_b64encode(json.dumps(saved).encode()).decode().rstrip("=")
    expect_status(page, "legal")  # the first example drawn, then the link opened over it
    page.goto(f"{live_server}/#s={encoded}")
    expect(page.get_by_test_id("history-damaged")).to_be_visible()
    expect(history(page)).to_have_count(0)
    expect(page.get_by_test_id("building-name")).to_contain_text("2 HMGs and 1 rifle squad")


def test_dice_cannot_be_entered_before_the_allocation_is_complete(page: Any) -> None:
    open_example(page, empty=True)
    page.get_by_test_id("table-dice").locator("summary").click()
    expect(page.get_by_test_id("dice-apply")).to_be_disabled()
    expect(page.get_by_test_id("dice-entry-A")).to_have_count(0)
