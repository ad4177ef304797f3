"""The page's Plan panel: which stands to commit or garrison, the curve drawn as SVG."""

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
