"""The whole evening with a fight of the player's own (Chromium, desktop and 390x844): built in
the builder from two organisations and a building, used, given a legal allocation, played to
the end with the table's dice for round 1 and the page's for round 2 on, its history and who
holds the building on the page; after a reload it is among the saved fights."""

from __future__ import annotations

import re
from typing import Any

import pytest

pytest.importorskip("playwright", reason="Playwright is not installed")
from playwright.sync_api import expect

from web.test_web_page import (
    BOTH_SIZES,
    build_two_organisations,
    expect_settled,
    expect_status,
    use_built_fight,
)
from web.test_web_page_play import enter_dice, history
from web.test_web_page_saved import saved

pytestmark = pytest.mark.browser
#: The most rounds the fight is played before the test gives up on its ending.
MOST_ROUNDS = 12


def place_the_best_allocation(page: Any) -> None:
    page.get_by_test_id("solve-defender").click()
    expect(page.get_by_test_id("apply-solution")).to_be_enabled()
    page.get_by_test_id("apply-solution").click()
    expect_status(page, "legal")


def table_dice_for_every_combat(page: Any) -> dict[str, str]:
    """The attacker wins the first combat and loses the others, so that the fight goes on."""
    panel = page.get_by_test_id("table-dice")
    if panel.get_attribute("open") is None:
        panel.locator("summary").click()
    entries = page.locator("[data-testid^=dice-entry-]").evaluate_all(
        "ns => ns.map(n => n.dataset.testid)"
    )
    combats = [testid.removeprefix("dice-entry-") for testid in entries]
    assert combats, "no combat takes the table's dice"
    return {combat: "6-1" if i == 0 else "1-6" for i, combat in enumerate(combats)}


@BOTH_SIZES
def test_a_built_fight_is_played_to_the_end_and_kept(page: Any, live_server: str) -> None:
    build_two_organisations(page)
    use_built_fight(page)
    place_the_best_allocation(page)
    enter_dice(page, table_dice_for_every_combat(page))
    result = page.get_by_test_id("roll-result")
    expect(result.get_by_test_id("table-dice-used")).to_be_visible()
    expect(history(page)).to_have_count(1)
    expect(history(page).first).to_have_attribute("data-round", "1")
    expect(history(page).first).to_contain_text("dice from the table")
    page.get_by_test_id("seed").fill("7")
    for played in range(2, MOST_ROUNDS + 1):
        if page.get_by_test_id("fight-over").count():
            break
        page.get_by_test_id("next-round").click()
        expect(page.locator("body")).not_to_have_attribute("data-loading", "true")
        expect(page.get_by_test_id("step-1")).to_have_attribute("aria-current", "step")
        expect_settled(page)
        place_the_best_allocation(page)
        page.get_by_test_id("roll").click()
        expect(history(page)).to_have_count(played)
    rounds = history(page).evaluate_all("ns => ns.map(n => n.dataset.round)")
    assert len(rounds) >= 2 and rounds == [str(n) for n in range(1, len(rounds) + 1)]
    expect(history(page).nth(1)).to_contain_text("rolled here")
    over = page.get_by_test_id("fight-over")
    expect(over).to_have_count(1)
    expect(over).to_have_attribute("data-winner", re.compile("attacker|defender"))
    # Reloaded, the fight the player built is among the saved fights and opens again.
    page.goto(f"{live_server}/")
    names = saved(page).evaluate_all("ns => ns.map(n => n.dataset.name)")
    assert "Farmhouse" in names
    page.get_by_test_id(f"saved-open-{names.index('Farmhouse')}").click()
    expect(page.get_by_test_id("building-name")).to_have_text("Farmhouse")
    expect(page.get_by_test_id("counter-su-1plt-sq1")).to_be_visible()
