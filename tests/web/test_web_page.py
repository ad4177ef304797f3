"""The page at ``/`` in Debian's Chromium: clicks build allocations, the API checks each step.

The screenshots in docs/img/ (shown by docs/web.md) are taken here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed (pip install .[web])")
pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")

from playwright.sync_api import expect

pytestmark = pytest.mark.browser

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "img"
SEED = "guide-2hmg-1squad-v-4"
#: The seed's legal line: the company HMG pairs with the squad, the battalion HMG fights alone.
LEGAL_COMBATS = {"A": ["d1", "h1"], "B": ["h2"]}
LEGAL_ATTACK = {"A": ["a1", "a2"], "B": ["a3", "a4"]}


def screenshot(page: Any, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / name), full_page=True)


def open_seed(page: Any, *, empty: bool = False) -> None:
    """Pick the seed example from the list; with ``empty``, clear its allocation."""
    page.get_by_test_id("scenario-select").select_option(SEED)
    expect(page.get_by_test_id("building-name")).to_contain_text("2 HMGs and 1 rifle squad")
    expect(page.get_by_test_id("check-status")).to_have_attribute("data-state", "legal")
    if empty:
        page.get_by_test_id("clear").click()
        expect(page.get_by_test_id("combats").get_by_test_id("counter-d1")).to_have_count(0)


def put(page: Any, stand: str, combat: str) -> None:
    """Click a counter, then a combat box (``"new"``: the New combat box)."""
    page.get_by_test_id(f"counter-{stand}").click()
    target = "new-combat" if combat == "new" else f"combat-{combat}"
    page.get_by_test_id(target).click()


def expect_status(page: Any, state: str) -> None:
    expect(page.get_by_test_id("check-status")).to_have_attribute("data-state", state)


def build_legal_combats(page: Any) -> None:
    """The seed's legal defender combats (steps 1-3), by clicks only."""
    put(page, "d1", "new")
    put(page, "h1", "A")
    put(page, "h2", "new")


def build_legal_line(page: Any) -> None:
    """The seed's legal allocation, step by step, by clicks only."""
    build_legal_combats(page)
    expect_status(page, "legal")
    page.get_by_test_id("step-2").click()
    for combat, attackers in LEGAL_ATTACK.items():
        for stand in attackers:
            put(page, stand, combat)
    expect_status(page, "legal")
    page.get_by_test_id("step-3").click()
    expect_status(page, "legal")


def combat_members(page: Any, combat: str) -> list[str]:
    counters = page.get_by_test_id(f"combat-{combat}").locator("[data-testid^=counter-]")
    return sorted(
        t.removeprefix("counter-")
        for t in counters.evaluate_all("nodes => nodes.map(n => n.dataset.testid)")
    )


def test_page_shows_the_building_and_both_forces_as_counters(page: Any) -> None:
    open_seed(page, empty=True)
    hmg = page.get_by_test_id("defender-pool").get_by_test_id("counter-h1")
    expect(hmg).to_contain_text("HMG")
    expect(hmg).to_contain_text("1coy")
    expect(hmg).to_have_attribute("aria-label", "defender HMG h1 (crew-served weapon), unit 1coy")
    for stand in ("a1", "a2", "a3", "a4"):
        expect(
            page.get_by_test_id("attacker-pool").get_by_test_id(f"counter-{stand}")
        ).to_be_visible()
    expect(page.get_by_test_id("building-meta")).to_contain_text("holds 3")


def test_illegal_allocation_shows_the_broken_rule_beside_the_stands(page: Any) -> None:
    open_seed(page, empty=True)
    put(page, "d1", "new")
    put(page, "h1", "A")
    put(page, "h2", "A")
    expect_status(page, "illegal")
    violation = page.locator("[data-testid=violation][data-rule='2b']")
    expect(violation).to_contain_text("h1, h2")
    for stand in ("h1", "h2"):
        expect(page.get_by_test_id(f"badge-{stand}")).to_have_text("2b")
    in_box = page.get_by_test_id("combat-A").get_by_test_id("box-violation")
    expect(in_box).to_contain_text("at most one weapon")
    screenshot(page, "page-check.png")

    put(page, "h2", "new")
    expect_status(page, "legal")
    expect(page.get_by_test_id("badge-h2")).to_have_count(0)


def test_legal_allocation_built_step_by_step_shows_the_odds(page: Any) -> None:
    open_seed(page, empty=True)
    build_legal_line(page)
    assert combat_members(page, "A") == ["a1", "a2", "d1", "h1"]
    assert combat_members(page, "B") == ["a3", "a4", "h2"]
    bars = page.get_by_test_id("combats").get_by_test_id("odds-bar")
    expect(bars).to_have_count(2)
    expect(page.get_by_test_id("round-odds")).to_contain_text("65/88")
    screenshot(page, "page-legal.png")


def test_attacker_breaking_step_4_is_reported(page: Any) -> None:
    open_seed(page, empty=True)
    build_legal_combats(page)
    page.get_by_test_id("step-2").click()
    for stand in ("a1", "a2", "a3", "a4"):
        put(page, stand, "A")
    expect_status(page, "illegal")
    expect(page.locator("[data-testid=violation][data-rule='4a']")).to_be_visible()
    expect(page.get_by_test_id("combat-B")).to_contain_text("no attacker")


def drag(page: Any, stand: str, target: str, lands_in: str | None = None) -> None:
    """Drag a counter onto a box, see it land (in ``lands_in``, by default the box itself),
    then wait for the page's check of the move.

    The drag starts only once the previous check is in: its answer redraws the board, and a
    counter redrawn between the press and the first move of the mouse never starts dragging.
    """
    settled = page.get_by_test_id("check-status")
    expect(settled).not_to_have_attribute("data-state", "pending")
    page.get_by_test_id(f"counter-{stand}").drag_to(page.get_by_test_id(target))
    landed = page.get_by_test_id(lands_in or target).get_by_test_id(f"counter-{stand}")
    expect(landed).to_be_visible()
    expect(settled).not_to_have_attribute("data-state", "pending")


def test_counters_are_dragged_into_combats_and_back(page: Any) -> None:
    open_seed(page, empty=True)
    drag(page, "d1", "new-combat", lands_in="combat-A")
    drag(page, "h1", "combat-A")
    drag(page, "h1", "defender-pool")
    drag(page, "h2", "new-combat", lands_in="combat-B")
    drag(page, "h1", "combat-A")
    page.get_by_test_id("step-2").click()
    for combat, attackers in LEGAL_ATTACK.items():
        for attacker in attackers:
            drag(page, attacker, f"combat-{combat}")
    expect(page.get_by_test_id("check-status")).to_have_attribute("data-state", "legal")


def test_stand_goes_back_to_its_pool(page: Any) -> None:
    open_seed(page, empty=True)
    put(page, "d1", "new")
    page.get_by_test_id("counter-d1").click()
    page.get_by_test_id("unplace-defender").click()
    expect(page.get_by_test_id("combat-A")).to_have_count(0)
    expect(page.get_by_test_id("defender-pool").get_by_test_id("counter-d1")).to_be_visible()


def test_shared_link_reopens_the_scenario_and_allocation(page: Any, browser: Any) -> None:
    open_seed(page, empty=True)
    put(page, "d1", "new")
    put(page, "h1", "A")
    put(page, "h2", "A")
    expect_status(page, "illegal")
    page.get_by_test_id("share").click()
    link = page.get_by_test_id("share-link").input_value()
    assert "#s=" in link

    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        reopened = context.new_page()
        reopened.goto(link)
        expect(reopened.get_by_test_id("building-name")).to_contain_text("2 HMGs")
        expect_status(reopened, "illegal")
        assert combat_members(reopened, "A") == ["d1", "h1", "h2"]
        expect(reopened.get_by_test_id("badge-h2")).to_have_text("2b")
        expect(reopened.get_by_test_id("step-1")).to_have_attribute("aria-current", "step")
    finally:
        context.close()


def test_pasted_scenario_with_an_error_names_the_place(page: Any) -> None:
    page.get_by_text("Paste or upload your own").click()
    page.get_by_test_id("scenario-text").fill(
        "building: {name: Barn}\n"
        "defender:\n  units: [{id: p, kind: platoon}]\n"
        "  stands: [{id: d1, type: tank, unit: p}]\n"
        "attacker:\n  units: [{id: q, kind: platoon}]\n"
        "  stands: [{id: a1, type: rifle, unit: q}]\n"
    )
    page.get_by_test_id("use-text").click()
    error = page.get_by_test_id("scenario-error")
    expect(error.get_by_test_id("error-place")).to_have_text("defender.stands[0].type")
    expect(error).to_contain_text("got 'tank'")
    screenshot(page, "page-scenario-error.png")


def test_uploaded_yaml_file_becomes_the_board(page: Any, tmp_path: Path) -> None:
    upload = tmp_path / "barn.yaml"
    upload.write_text(
        "title: Uploaded barn\n"
        "defender:\n  units: [{id: p, kind: platoon}]\n"
        "  stands: [{id: d1, type: smg, unit: p}, {id: pc1, type: pc, unit: p, rating: 1}]\n"
        "attacker:\n  units: [{id: q, kind: platoon}]\n"
        "  stands: [{id: a1, type: rifle, unit: q}]\n",
        encoding="utf-8",
    )
    page.get_by_text("Paste or upload your own").click()
    page.get_by_test_id("scenario-file").set_input_files(str(upload))
    expect(page.get_by_test_id("building-name")).to_have_text("Uploaded barn")
    expect(page.get_by_test_id("counter-pc1")).to_contain_text("+1")
    expect(page.get_by_test_id("scenario-error")).to_be_hidden()


def test_best_split_shows_each_combats_odds(page: Any) -> None:
    open_seed(page, empty=True)
    page.get_by_test_id("solve-defender").click()
    result = page.get_by_test_id("solve-result")
    expect(result.get_by_test_id("solve-status")).to_contain_text("proven")
    bars = result.get_by_test_id("odds-bar")
    expect(bars.first).to_be_visible()
    assert bars.count() == result.get_by_test_id("solve-combat").count() >= 1
    for p in bars.evaluate_all("nodes => nodes.map(n => Number(n.dataset.p))"):
        assert 0 <= p <= 1

    page.get_by_test_id("apply-solution").click()
    expect(page.get_by_test_id("step-3")).to_have_attribute("aria-current", "step")
    expect_status(page, "legal")
    screenshot(page, "page-solve.png")


def test_best_answer_for_the_attacker_keeps_the_defender_combats(page: Any) -> None:
    open_seed(page, empty=True)
    build_legal_combats(page)
    page.get_by_test_id("solve-attacker").click()
    page.get_by_test_id("apply-solution").click()
    expect_status(page, "legal")
    assert "d1" in combat_members(page, "A") and "h2" in combat_members(page, "B")


def test_rolling_the_dice_says_who_won_each_combat(page: Any) -> None:
    open_seed(page, empty=True)
    build_legal_line(page)
    page.get_by_test_id("seed").fill("7")
    page.get_by_test_id("roll").click()
    outcomes = page.get_by_test_id("roll-result").get_by_test_id("roll-combat")
    expect(outcomes).to_have_count(2)
    winners = outcomes.evaluate_all("nodes => nodes.map(n => n.dataset.winner)")
    assert set(winners) <= {"attacker", "defender"}
    expect(outcomes.first).to_contain_text("wins")
    screenshot(page, "page-dice.png")


def test_rolling_an_incomplete_allocation_explains_why_not(page: Any) -> None:
    open_seed(page, empty=True)
    put(page, "d1", "new")
    page.get_by_test_id("roll").click()
    expect(page.get_by_test_id("roll-error")).to_be_visible()


def test_explain_walks_through_the_steps(page: Any) -> None:
    open_seed(page)
    page.get_by_test_id("explain").click()
    expect(page.get_by_test_id("explain-step").first).to_be_visible()
