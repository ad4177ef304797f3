"""The page's Plan panel: which stands to commit or garrison, the curve drawn as SVG; the compare
toggle: the fight under house rules side by side."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright", reason="the test extra is not installed")
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def open_scenario(page: Any, name: str) -> None:
    page.get_by_test_id("scenario-select").select_option(name)
    expect(page.locator("body")).not_to_have_attribute("data-loading", "true")


def test_the_attackers_plan_draws_the_curve_and_names_the_best(page: Any) -> None:
    open_scenario(page, "fight-together-or-apart")
    page.get_by_test_id("plan-side").select_option("attacker")
    page.get_by_test_id("plan-target").fill("55%")
    page.get_by_test_id("plan-run").click()
    best = page.get_by_test_id("plan-best")
    expect(best).to_have_attribute("data-exact", "319/512")
    expect(best).to_contain_text("a1, a2, acc (2 squads)")
    curve = page.get_by_test_id("plan-curve")
    points = curve.locator("circle")
    expect(points).to_have_count(3)
    assert [points.nth(i).get_attribute("data-exact") for i in range(3)] == [
        "1/2",
        "19/32",
        "319/512",
    ]
    expect(curve.locator("line.target")).to_have_count(1)
    expect(page.get_by_test_id("plan-reaching")).to_contain_text("a1, acc")


def test_the_defenders_plan_and_a_dip(page: Any) -> None:
    open_scenario(page, "fight-together-or-apart")
    page.get_by_test_id("plan-side").select_option("defender")
    page.get_by_test_id("plan-run").click()
    expect(page.get_by_test_id("plan-best")).to_contain_text("d1, cc1 (1 squad)")
    open_scenario(page, "plan-leave-the-suppressed-squad-out")
    page.get_by_test_id("plan-side").select_option("attacker")
    page.get_by_test_id("plan-target").fill("")
    page.get_by_test_id("plan-run").click()
    expect(page.get_by_test_id("plan-dip")).to_contain_text("with 2 squads the best is 32.3%")
    expect(page.get_by_test_id("plan-curve").locator("circle.dip")).to_have_count(1)


def test_a_bad_target_is_named(page: Any) -> None:
    open_scenario(page, "fight-together-or-apart")
    page.get_by_test_id("plan-target").fill("most")
    page.get_by_test_id("plan-run").click()
    expect(page.get_by_test_id("plan-error")).to_contain_text("target")


def test_the_compare_toggle_shows_the_fight_under_house_rules_side_by_side(page: Any) -> None:
    open_scenario(page, "fight-together-or-apart")
    expect(page.get_by_test_id("compare-profile")).to_be_hidden()  # folded until toggled
    page.get_by_test_id("compare-toggle").locator("summary").click()
    page.get_by_test_id("compare-profile").fill("crossfire:ties=defender")
    page.get_by_test_id("compare-run").click()
    table = page.get_by_test_id("compare-table")
    expect(table.locator("th[scope=col]")).to_have_text(["crossfire", "crossfire:ties=defender"])
    one_round = page.get_by_test_id("compare-one-round").locator("td")
    whole_fight = page.get_by_test_id("compare-whole-fight").locator("td")
    expect(one_round.first).to_have_attribute("data-exact", "3/16")
    expect(one_round.nth(1)).to_have_attribute("data-exact", "1/6")
    expect(whole_fight.first).to_have_attribute("data-exact", "319/512")
    expect(whole_fight.nth(1)).to_have_attribute("data-exact", "517/972")
    expect(one_round.first).to_contain_text("A: d1, cc1 against a1; B: pc2 against a2")
    expect(whole_fight.first).to_contain_text("C: pc2, not attacked")
    expect(page.get_by_test_id("compare-summary")).to_contain_text(
        "ties reroll -> defender alone (crossfire:ties=defender) moves"
    )


@pytest.mark.parametrize("viewport", ["phone"], indirect=True)
def test_the_comparison_fits_a_phone(page: Any) -> None:
    open_scenario(page, "fight-together-or-apart")
    page.get_by_test_id("compare-toggle").locator("summary").click()
    page.get_by_test_id("compare-profile").fill("crossfire:ties=defender,leader_bonus=sum")
    page.get_by_test_id("compare-run").click()
    table = page.get_by_test_id("compare-table").bounding_box()
    room = page.get_by_test_id("compare-result").bounding_box()
    assert table is not None and room is not None
    assert table["x"] + table["width"] <= room["x"] + room["width"] + 0.5


@pytest.mark.parametrize(
    "profile, named",
    [("crossfire", "the scenario's own ruleset"), ("crossfire:ties=odd", "ties")],
)
def test_a_bad_compare_profile_is_named(page: Any, profile: str, named: str) -> None:
    open_scenario(page, "fight-together-or-apart")
    page.get_by_test_id("compare-toggle").locator("summary").click()
    page.get_by_test_id("compare-profile").fill(profile)
    page.get_by_test_id("compare-run").click()
    expect(page.get_by_test_id("compare-error")).to_contain_text(named)
