"""The force builder fits the table (Chromium, desktop and 390x844): a building too full is an
error that names how many to leave outside, with a tick to choose who stays out, and "Use this
fight" waits until it fits; the stands go by their readable names."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright", reason="Playwright is not installed")
from playwright.sync_api import expect

from allocator.core.reader import read_text
from web.test_web_page import BOTH_SIZES, builder_yaml

pytestmark = pytest.mark.browser
SQUADS = ["su-1plt-sq1", "su-1plt-sq2", "su-1plt-sq3", "su-1plt-sq4"]


def build_a_full_house(page: Any) -> None:
    """Four Soviet squads in a farmhouse that holds two; two German squads assault it."""
    page.get_by_test_id("new-fight").click()
    page.get_by_test_id("builder-building").fill("Farmhouse")
    page.get_by_test_id("builder-capacity").fill("2")
    page.get_by_test_id("builder-org-defender").select_option("soviet-rifle-company")
    for stand in SQUADS:
        page.get_by_test_id(f"builder-stand-{stand}").check()
    page.get_by_test_id("builder-org-attacker").select_option("german-rifle-company")
    for stand in ["de-1plt-sq1", "de-1plt-sq2"]:
        page.get_by_test_id(f"builder-stand-{stand}").check()


@BOTH_SIZES
def test_a_building_too_full_is_refused_with_a_way_out(page: Any) -> None:
    build_a_full_house(page)
    error = page.get_by_test_id("builder-capacity-error")
    expect(error).to_contain_text("its capacity is 2: leave 2 outside")
    expect(error).to_contain_text("1st Rifle Platoon, 4th Squad (su-1plt-sq4)")
    expect(page.get_by_test_id("builder-use")).to_be_disabled()
    page.get_by_test_id("builder-outside-su-1plt-sq3").check()
    expect(error).to_contain_text("leave 1 outside")
    expect(page.get_by_test_id("builder-use")).to_be_disabled()
    page.get_by_test_id("builder-outside-su-1plt-sq4").check()
    expect(page.get_by_test_id("builder-capacity-error")).to_have_count(0)
    kept = page.get_by_test_id("builder-outside-kept")
    expect(kept).to_contain_text("1st Rifle Platoon, 3rd Squad")
    data = read_text(builder_yaml(page), syntax="yaml")
    assert data["defender"]["present"] == ["su-1plt-sq1", "su-1plt-sq2"]
    # Brought back in: refused again.
    page.get_by_test_id("builder-outside-su-1plt-sq4").uncheck()
    expect(page.get_by_test_id("builder-capacity-error")).to_contain_text("leave 1 outside")
    expect(page.get_by_test_id("builder-use")).to_be_disabled()
    page.get_by_test_id("builder-outside-su-1plt-sq4").check()
    page.get_by_test_id("builder-use").click()
    expect(page.get_by_test_id("building-name")).to_contain_text("Farmhouse")
    expect(page.get_by_test_id("counter-su-1plt-sq1")).to_be_visible()
    expect(page.get_by_test_id("counter-su-1plt-sq3")).to_have_count(0)


def test_the_builder_names_stands_and_organisations_for_people(page: Any) -> None:
    build_a_full_house(page)
    row = page.get_by_test_id("builder-stand-su-1plt-sq2").locator("xpath=..")
    expect(row).to_contain_text("1st Rifle Platoon, 2nd Squad")
    expect(page.get_by_test_id("builder-org-defender").locator("option:checked")).not_to_have_text(
        "soviet-rifle-company"
    )


TOO_FULL = (
    "title: Too full\n"
    "building: {name: Barn, capacity: 1}\n"
    "defender:\n  units: [{id: p, kind: platoon}]\n"
    "  stands: [{id: d1, type: rifle, unit: p}, {id: d2, type: rifle, unit: p}]\n"
    "attacker:\n  units: [{id: q, kind: platoon}]\n"
    "  stands: [{id: a1, type: rifle, unit: q}]\n"
    "allocation: {combats: {A: [d1], B: [d2]}}\n"
)


def test_a_pasted_building_too_full_gets_a_way_out_on_the_board(page: Any) -> None:
    page.get_by_text("Paste or upload your own").click()
    page.get_by_test_id("scenario-text").fill(TOO_FULL)
    page.get_by_test_id("use-text").click()
    error = page.get_by_test_id("board-capacity-error")
    expect(error).to_contain_text("its capacity is 1: leave 1 outside")
    leave = page.get_by_test_id("board-leave-outside")
    expect(leave).to_be_disabled()
    page.get_by_test_id("board-outside-d2").check()
    leave.click()
    expect(page.get_by_test_id("scenario-select")).to_contain_text("Too full (without d2)")
    expect(page.get_by_test_id("board-capacity-error")).to_have_count(0)
    expect(page.get_by_test_id("counter-d2")).to_have_count(0)
    # d1 keeps his combat
    expect(page.get_by_test_id("combat-A").get_by_test_id("counter-d1")).to_be_visible()
