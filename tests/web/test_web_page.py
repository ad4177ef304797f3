"""The page at ``/`` in Debian's Chromium, at a desktop and a phone size: the force builder, the
board and its checks, editing by mouse and keyboard, the best split, the dice and Explain.

These tests never write into the tree; ``python tests/web/screenshots.py`` takes the pictures in
docs/img/ with the same steps.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed (pip install .[web])")
pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")

from playwright.sync_api import expect

from allocator.core.library import folder, names
from allocator.core.reader import read_text
from allocator.games.crossfire import service
from allocator.games.crossfire.battle import load_battle, load_organisation
from allocator.games.crossfire.rules import RULES
from allocator.games.crossfire.schema import Building

pytestmark = pytest.mark.browser

SEED = "guide-2hmg-1squad-v-4"
#: The example's legal line: the company HMG pairs with the squad, the battalion HMG fights alone.
LEGAL_COMBATS = {"A": ["d1", "h1"], "B": ["h2"]}
LEGAL_ATTACK = {"A": ["a1", "a2"], "B": ["a3", "a4"]}
#: The fight the builder tests set up from two organisations of the library.
DEFENDERS = ["su-1plt-sq1", "su-1plt-sq2", "su-1plt-pc"]
ATTACKERS = ["de-1plt-sq1", "de-1plt-sq2", "de-1plt-sq3", "de-1plt-pc"]
BOTH_SIZES = pytest.mark.parametrize("viewport", ["desktop", "phone"], indirect=True)
STRANDED_PC = (
    "title: A PC far from his squads\n"
    "defender:\n  units: [{id: p, kind: platoon}]\n"
    "  stands: [{id: d1, type: rifle, unit: p}]\n"
    "attacker:\n  units: [{id: q, kind: platoon}]\n"
    "  stands: [{id: a1, type: rifle, unit: q}, {id: apc, type: pc, unit: q, rating: 1}]\n"
)


# ------------------------------------------------------------------ steps a player takes


def open_example(page: Any, *, empty: bool = False) -> None:
    """Pick the guide's example from the list; with ``empty``, clear its allocation."""
    page.get_by_test_id("scenario-select").select_option(SEED)
    expect(page.locator("body")).not_to_have_attribute("data-loading", "true")
    expect(page.get_by_test_id("building-name")).to_contain_text("2 HMGs and 1 rifle squad")
    expect_status(page, "legal")
    if empty:
        page.get_by_test_id("clear").click()
        expect(page.get_by_test_id("combats").get_by_test_id("counter-d1")).to_have_count(0)
        expect_settled(page)


def open_rule_case(page: Any, name: str) -> None:
    """Pick one of the rules' own cases from their folded picker."""
    box = page.get_by_test_id("rules-scenarios")
    if box.get_attribute("open") is None:
        box.locator("summary").click()
    page.get_by_test_id("rules-select").select_option(name)
    expect(page.get_by_test_id("scenario-select")).to_have_value("")


def put(page: Any, stand: str, combat: str) -> None:
    """Click a counter, then a combat box (``"new"``: the New combat box)."""
    page.get_by_test_id(f"counter-{stand}").click()
    target = "new-combat" if combat == "new" else f"combat-{combat}"
    page.get_by_test_id(target).click()


def expect_status(page: Any, state: str) -> None:
    expect(page.get_by_test_id("check-status")).to_have_attribute("data-state", state)


def expect_settled(page: Any) -> None:
    expect(page.get_by_test_id("check-status")).not_to_have_attribute("data-state", "pending")


def build_legal_combats(page: Any) -> None:
    """The example's legal defender combats (steps 1-3), by clicks only."""
    put(page, "d1", "new")
    put(page, "h1", "A")
    put(page, "h2", "new")


def build_illegal_line(page: Any) -> None:
    """The example with both HMGs in the squad's combat (rule 2b broken), by clicks only."""
    open_example(page, empty=True)
    put(page, "d1", "new")
    put(page, "h1", "A")
    put(page, "h2", "A")
    expect_status(page, "illegal")


def build_legal_line(page: Any) -> None:
    """The example's legal allocation, step by step, by clicks only."""
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


def focused(page: Any) -> str | None:
    result: str | None = page.evaluate("() => document.activeElement?.dataset?.testid ?? null")
    return result


def builder_yaml(page: Any) -> str:
    """The builder's YAML once the server has written it for the latest change."""
    expect(page.get_by_test_id("builder-use")).to_be_enabled()
    text: str = page.get_by_test_id("builder-yaml").inner_text()
    return text


def build_two_organisations(page: Any) -> None:
    """New fight: a Soviet platoon holds a farmhouse, a German platoon assaults it."""
    page.get_by_test_id("new-fight").click()
    page.get_by_test_id("builder-building").fill("Farmhouse")
    page.get_by_test_id("builder-capacity").fill("3")
    page.get_by_test_id("builder-org-defender").select_option("soviet-rifle-company")
    for stand in DEFENDERS:
        page.get_by_test_id(f"builder-stand-{stand}").check()
    page.get_by_test_id("builder-org-attacker").select_option("german-rifle-company")
    for stand in ATTACKERS:
        page.get_by_test_id(f"builder-stand-{stand}").check()
    # Her PC is near the first squad, by a tick.
    page.get_by_test_id("builder-near-de-1plt-pc-de-1plt-sq1").check()
    expect(page.get_by_test_id("builder-near-result")).to_contain_text(
        "de-1plt-pc is within one stand width of de-1plt-sq1."
    )


def use_built_fight(page: Any, name: str = "Farmhouse") -> None:
    page.get_by_test_id("builder-use").click()
    expect(page.get_by_test_id("builder")).to_be_hidden()
    expect(page.get_by_test_id("building-name")).to_have_text(name)
    expect_settled(page)


def text_has_no_raw_data(text: str) -> None:
    assert "{" not in text and "}" not in text, text
    assert not re.search(r"\d\.\d{5,}", text), "an unrounded float is shown"
    assert "p_attacker" not in text and "_exact" not in text and '"' not in text.replace("“", "")


# ------------------------------------------------------------------ the first minutes (item 8)


@BOTH_SIZES
def test_a_legal_example_opens_first_and_new_fight_is_in_sight(page: Any) -> None:
    expect_status(page, "legal")
    chosen = page.get_by_test_id("scenario-select").input_value()
    assert chosen.startswith("guide-")
    expect(page.get_by_test_id("new-fight")).to_be_in_viewport()
    groups = page.locator("[data-testid=scenario-select] optgroup").evaluate_all(
        "nodes => nodes.map(n => n.label)"
    )
    assert groups[:2] == ["Examples from the guide", "More scenarios"]
    # the rules' own cases are folded away in a picker of their own
    expect(page.get_by_test_id("rules-scenarios")).not_to_have_attribute("open", "")
    cases = page.locator("[data-testid=rules-select] optgroup").evaluate_all(
        "nodes => nodes.map(n => n.label)"
    )
    assert cases == ["Rule by rule (a legal and a broken case of each)", "Edge cases"]
    guide = page.locator("optgroup[label='Examples from the guide'] option")
    values = guide.evaluate_all("nodes => nodes.map(n => n.value)")
    assert values and all(v.startswith("guide-") for v in values)


#: A pasted scenario with a stand type the game does not know.
TANK_SCENARIO = (
    "building: {name: Barn}\n"
    "defender:\n  units: [{id: p, kind: platoon}]\n"
    "  stands: [{id: d1, type: tank, unit: p}]\n"
    "attacker:\n  units: [{id: q, kind: platoon}]\n"
    "  stands: [{id: a1, type: rifle, unit: q}]\n"
)


def test_the_paste_box_is_wide_and_monospaced_and_errors_fit(page: Any) -> None:
    page.get_by_text("Paste or upload your own").click()
    box = page.get_by_test_id("scenario-text")
    assert box.bounding_box()["width"] >= 900
    style = box.evaluate(
        "n => [getComputedStyle(n).fontFamily, getComputedStyle(n).whiteSpace, n.wrap]"
    )
    assert "mono" in style[0].lower() and style[1] == "pre" and style[2] == "off"
    box.fill(TANK_SCENARIO)
    page.get_by_test_id("use-text").click()
    error = page.get_by_test_id("scenario-error")
    expect(error.get_by_test_id("error-place")).to_have_text("defender.stands[0].type")
    expect(error).to_contain_text("got 'tank'")
    assert error.evaluate("n => n.scrollWidth <= n.clientWidth")


@pytest.mark.parametrize("viewport", ["phone"], indirect=True)
def test_a_long_error_fits_its_box_on_a_phone(page: Any) -> None:
    page.get_by_text("Paste or upload your own").click()
    page.get_by_test_id("scenario-text").fill("building: {name: " + "x" * 300 + "}\n")
    page.get_by_test_id("use-text").click()
    error = page.get_by_test_id("scenario-error")
    expect(error.get_by_test_id("error-problem")).to_be_visible()
    assert error.evaluate("n => n.scrollWidth <= n.clientWidth")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390


def test_uploaded_yaml_file_becomes_the_board_and_joins_your_own(page: Any, tmp_path: Path) -> None:
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
    own = page.locator("optgroup[label='Your own'] option")
    expect(own).to_have_text(["Uploaded barn"])
    page.get_by_test_id("scenario-select").select_option(SEED)
    expect(page.get_by_test_id("building-name")).to_contain_text("2 HMGs")
    page.get_by_test_id("scenario-select").select_option(label="Uploaded barn")
    expect(page.get_by_test_id("building-name")).to_have_text("Uploaded barn")


def test_the_page_solves_a_company_assault(page: Any) -> None:
    """No page-only limit: a full company attacks, as on the command line."""
    page.get_by_test_id("new-fight").click()
    page.get_by_test_id("builder-org-defender").select_option("soviet-rifle-company")
    for stand in ("su-1plt-sq1", "su-1plt-sq2"):
        page.get_by_test_id(f"builder-stand-{stand}").check()
    page.get_by_test_id("builder-org-attacker").select_option("german-rifle-company")
    for unit in ("bn", "coy", "1plt", "2plt", "3plt", "mg-coy"):
        page.get_by_test_id(f"builder-unit-attacker-{unit}").click()
    builder_yaml(page)
    use_built_fight(page, Building().name)  # the file format's default name
    expect(page.get_by_test_id("attacker-pool").locator("[data-testid^=counter-]")).to_have_count(
        18
    )
    page.get_by_test_id("solve-defender").click()
    expect(page.get_by_test_id("solve-status")).to_contain_text("Best split (proven)")


# ------------------------------------------------------------------ the board and its checks


def test_page_shows_the_building_and_both_forces_as_counters(page: Any) -> None:
    open_example(page, empty=True)
    hmg = page.get_by_test_id("defender-pool").get_by_test_id("counter-h1")
    expect(hmg).to_contain_text("HMG")
    expect(hmg).to_contain_text("1coy")
    expect(hmg).to_have_attribute("aria-label", "defender HMG h1 (crew-served weapon), unit 1coy")
    for stand in ("a1", "a2", "a3", "a4"):
        expect(
            page.get_by_test_id("attacker-pool").get_by_test_id(f"counter-{stand}")
        ).to_be_visible()
    expect(page.get_by_test_id("building-meta")).to_contain_text("holds at most 3")
    expect(page.get_by_test_id("building-meta")).to_contain_text("the defender has 3 there")


@BOTH_SIZES
def test_illegal_allocation_shows_the_broken_rule_beside_the_stands(page: Any) -> None:
    build_illegal_line(page)
    violation = page.locator("[data-testid=violation][data-rule='2b']")
    expect(violation).to_contain_text("h1, h2")
    for stand in ("h1", "h2"):
        expect(page.get_by_test_id(f"badge-{stand}")).to_have_text("2b")
    in_box = page.get_by_test_id("combat-A").get_by_test_id("box-violation")
    expect(in_box).to_contain_text("at most one weapon")
    put(page, "h2", "new")
    expect_status(page, "legal")
    expect(page.get_by_test_id("badge-h2")).to_have_count(0)


@BOTH_SIZES
def test_legal_line_shows_the_odds_and_what_makes_each_total(page: Any) -> None:
    open_example(page, empty=True)
    build_legal_line(page)
    assert combat_members(page, "A") == ["a1", "a2", "d1", "h1"]
    assert combat_members(page, "B") == ["a3", "a4", "h2"]
    expect(page.get_by_test_id("combats").get_by_test_id("odds-bar")).to_have_count(2)
    combat = page.get_by_test_id("combat-A")
    expect(combat.get_by_test_id("parts-attacker")).to_have_text(
        "Attacker 2 = a1 squad +1, a2 squad +1"
    )
    expect(combat.get_by_test_id("parts-defender")).to_have_text(
        "Defender 0 = d1 squad +1, h1 weapon +1, h1 crew -2"
    )
    expect(combat).to_contain_text("Attacker 81.3% (13/16)")
    expect(page.get_by_test_id("round-odds")).to_contain_text("65/88 (73.9%)")


def test_attacker_breaking_step_4_is_reported(page: Any) -> None:
    open_example(page, empty=True)
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
    expect_settled(page)
    page.get_by_test_id(f"counter-{stand}").drag_to(page.get_by_test_id(target))
    landed = page.get_by_test_id(lands_in or target).get_by_test_id(f"counter-{stand}")
    expect(landed).to_be_visible()
    expect_settled(page)


def test_counters_are_dragged_into_combats_and_back(page: Any) -> None:
    open_example(page, empty=True)
    drag(page, "d1", "new-combat", lands_in="combat-A")
    drag(page, "h1", "combat-A")
    drag(page, "h1", "defender-pool")
    drag(page, "h2", "new-combat", lands_in="combat-B")
    drag(page, "h1", "combat-A")
    page.get_by_test_id("step-2").click()
    for combat, attackers in LEGAL_ATTACK.items():
        for attacker in attackers:
            drag(page, attacker, f"combat-{combat}")
    expect_status(page, "legal")


def test_status_names_the_stands_still_to_place(page: Any) -> None:
    open_example(page, empty=True)
    put(page, "d1", "new")
    status = page.get_by_test_id("check-status")
    expect(status).to_have_text("Not legal yet: 2 broken rules; h1 and h2 are still to place.")
    put(page, "h1", "A")
    expect(status).to_have_text("Not legal yet: 1 broken rule; h2 is still to place.")
    put(page, "h2", "A")
    expect(status).to_have_text("Not legal: 1 broken rule.")


def test_stand_goes_back_to_its_pool(page: Any) -> None:
    open_example(page, empty=True)
    put(page, "d1", "new")
    page.get_by_test_id("counter-d1").click()
    page.get_by_test_id("unplace-defender").click()
    expect(page.get_by_test_id("combat-A")).to_have_count(0)
    expect(page.get_by_test_id("defender-pool").get_by_test_id("counter-d1")).to_be_visible()


def test_shared_link_reopens_the_scenario_and_allocation(page: Any, browser: Any) -> None:
    build_illegal_line(page)
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


# ------------------------------------------------------------------ editing keeps work (item 7)


def test_a_move_that_dissolves_a_combat_says_so_and_can_be_undone(page: Any) -> None:
    open_example(page)
    page.get_by_test_id("step-1").click()
    expect_settled(page)
    put(page, "h2", "A")
    notice = page.get_by_test_id("notice")
    expect(notice).to_contain_text("Putting h2 into combat A also changed other steps")
    expect(notice).to_contain_text("combat B is gone")
    expect(notice).to_contain_text("a3 and a4 went back to the attackers' pool")
    expect(page.get_by_test_id("combat-B")).to_have_count(0)
    page.get_by_test_id("undo").click()
    expect(notice).to_have_text("Undone.")
    assert combat_members(page, "B") == ["a3", "a4", "h2"]
    assert combat_members(page, "A") == ["a1", "a2", "d1", "h1"]
    expect(page.get_by_test_id("step-1")).to_have_attribute("aria-current", "step")


def test_the_nearest_legal_allocation_keeps_names_and_later_steps(page: Any) -> None:
    open_example(page)
    page.get_by_test_id("step-1").click()
    put(page, "h1", "B")
    expect_status(page, "illegal")
    page.get_by_test_id("apply-nearest").click()
    expect_status(page, "legal")
    # A and B keep their names and their attackers; the nearest line moves one HMG.
    assert {"a1", "a2", "d1"} <= set(combat_members(page, "A"))
    assert {"a3", "a4"} <= set(combat_members(page, "B"))
    expect(page.get_by_test_id("notice")).to_contain_text("The nearest legal allocation")
    page.get_by_test_id("undo").click()
    expect_status(page, "illegal")
    assert combat_members(page, "B") == ["a3", "a4", "h1", "h2"]


def test_the_keyboard_moves_counters_and_keeps_the_focus(page: Any) -> None:
    open_example(page, empty=True)
    attackers = page.get_by_test_id("attacker-pool").locator("[data-testid^=counter-]")
    assert set(attackers.evaluate_all("ns => ns.map(n => n.tabIndex)")) == {-1}
    page.get_by_test_id("counter-d1").focus()
    page.keyboard.press("Tab")
    assert focused(page) == "counter-h1"  # the next counter that moves, one Tab away
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("counter-d1")).to_have_attribute("aria-pressed", "true")
    assert focused(page) == "new-combat"
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("combat-A").get_by_test_id("counter-d1")).to_be_visible()
    expect_settled(page)
    assert focused(page) == "counter-d1"
    page.get_by_test_id("counter-h1").focus()
    page.keyboard.press("Enter")
    assert focused(page) == "place-A"
    page.keyboard.press("Escape")
    expect(page.get_by_test_id("counter-h1")).to_have_attribute("aria-pressed", "false")
    assert focused(page) == "counter-h1"
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("combat-A").get_by_test_id("counter-h1")).to_be_visible()
    expect_settled(page)
    assert focused(page) == "counter-h1"


def test_focus_looks_different_from_picked_up(page: Any) -> None:
    open_example(page, empty=True)
    look = "n => { const s = getComputedStyle(n); return [s.outlineStyle, s.boxShadow]; }"
    page.get_by_test_id("counter-d1").click()
    picked = page.get_by_test_id("counter-d1")
    page.get_by_test_id("counter-h1").focus()
    page.keyboard.press("Tab")  # keyboard focus on another counter
    assert focused(page) == "counter-h2"
    focused_look = page.get_by_test_id("counter-h2").evaluate(look)
    picked_look = picked.evaluate(look)
    assert focused_look[0] == "dashed" and picked_look[0] == "none"
    assert picked_look[1] != "none" and focused_look[1] != picked_look[1]
    expect(picked).to_contain_text("picked up")
    expect(picked).to_have_attribute("aria-pressed", "true")


# ------------------------------------------------------------------ warnings (item 2)


def test_a_leader_who_can_join_no_combat_is_named_with_the_fix(page: Any) -> None:
    page.get_by_text("Paste or upload your own").click()
    page.get_by_test_id("scenario-text").fill(STRANDED_PC)
    page.get_by_test_id("use-text").click()
    expect(page.get_by_test_id("building-name")).to_have_text("A PC far from his squads")
    warning = page.locator("#check-warnings [data-testid=warning]")
    expect(warning).to_contain_text("apc is within one stand width of no attacking squad")
    expect(warning).to_contain_text(
        "list the squads beside him in his near (for example near: [a1])"
    )
    expect(warning.locator("code").first).to_have_text("near")
    expect(warning.locator("[data-testid=rule-link][data-rule='5a']")).to_be_visible()
    assert "`" not in warning.inner_text()
    page.get_by_test_id("explain").click()
    expect(page.get_by_test_id("explain-result").get_by_test_id("warning")).to_contain_text(
        "apc is within one stand width"
    )
    page.get_by_test_id("solve-defender").click()
    expect(page.get_by_test_id("solve-result").get_by_test_id("warning")).to_contain_text(
        "apc is within one stand width"
    )


# ------------------------------------------------------------------ best split


@BOTH_SIZES
def test_best_split_takes_the_building_by_default(page: Any, live_server: str) -> None:
    open_example(page, empty=True)
    expect(page.get_by_test_id("objective")).to_have_value("take")
    labels = page.locator("[data-testid=objective] option").all_inner_texts()
    assert labels == [
        "take the building (whole fight)",
        "win every combat this round",
        "exchange: stands removed, theirs minus ours",
    ]
    page.get_by_test_id("solve-defender").click()
    result = page.get_by_test_id("solve-result")
    odds = result.get_by_test_id("fight-odds")
    scenario = page.request.get(f"{live_server}/api/scenarios/{SEED}").json()
    del scenario["allocation"]
    answer = page.request.post(
        f"{live_server}/api/solve",
        data={"scenario": scenario, "side": "defender", "objective": "take"},
    ).json()
    fight = answer["fight"]
    expect(odds).to_have_attribute("data-exact", fight["p_attacker_takes"])
    expect(odds).to_contain_text(f"88.0% ({fight['p_attacker_takes']})")
    expect(odds).to_contain_text(f"12.0% ({fight['p_defender_holds']})")
    losses = result.get_by_test_id("fight-losses")
    expect(losses).to_contain_text(
        f"the attacker {fight['expected_stands_lost']['attacker']:.2f} stands, "
        f"the defender {fight['expected_stands_lost']['defender']:.2f} stands"
    )
    outcomes = result.get_by_test_id("fight-outcome")
    expect(outcomes).to_have_count(len(fight["outcomes"]))
    expect(outcomes.last).to_contain_text("The attacker takes it with 4 stands left")
    expect(outcomes.last).to_contain_text("44.7% 3549/7936")
    expect(result.get_by_test_id("fight-one-round")).to_contain_text(fight["one_round"]["exact"])
    beside = result.get_by_test_id("one-round")
    expect(beside.get_by_test_id("solve-combat")).to_have_count(len(answer["combats"]))
    text_has_no_raw_data(result.inner_text())
    fractions = result.locator(".exact:not(.long)")
    assert fractions.count() >= 2 + len(fight["outcomes"])
    lines = fractions.evaluate_all(
        """spans => spans.map(span => {
            const range = document.createRange();
            range.selectNodeContents(span);
            return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size;
        })"""
    )
    assert set(lines) == {1}, "a fraction broke across lines"


def test_best_split_shows_each_combats_odds(page: Any) -> None:
    open_example(page, empty=True)
    page.get_by_test_id("objective").select_option("sweep")
    page.get_by_test_id("solve-defender").click()
    result = page.get_by_test_id("solve-result")
    expect(result.get_by_test_id("solve-status")).to_contain_text("proven")
    expect(result.get_by_test_id("solve-status")).to_contain_text("44.7% (3549/7936)")
    bars = result.get_by_test_id("odds-bar")
    expect(bars.first).to_be_visible()
    assert bars.count() == result.get_by_test_id("solve-combat").count() >= 1
    expect(result.get_by_test_id("parts-attacker").first).to_contain_text("squad +1")
    page.get_by_test_id("apply-solution").click()
    expect(page.get_by_test_id("step-3")).to_have_attribute("aria-current", "step")
    expect_status(page, "legal")
    page.get_by_test_id("undo").click()
    expect(page.get_by_test_id("combat-A")).to_have_count(0)


def test_best_answer_for_the_attacker_keeps_the_defender_combats(page: Any) -> None:
    open_example(page, empty=True)
    build_legal_combats(page)
    page.get_by_test_id("objective").select_option("sweep")
    page.get_by_test_id("solve-attacker").click()
    page.get_by_test_id("apply-solution").click()
    expect_status(page, "legal")
    assert "d1" in combat_members(page, "A") and "h2" in combat_members(page, "B")


# ------------------------------------------------------------------ dice (item 5)


def rolled(page: Any) -> dict[str, Any]:
    """What the roll panel shows: the seed, and each combat's dice faces and scores."""
    result = page.get_by_test_id("roll-result")
    expect(result.get_by_test_id("roll-combat").first).to_be_visible()
    seed = int(result.get_by_test_id("seed-used").inner_text().removeprefix("Seed "))
    faces = result.locator(".die").evaluate_all("ns => ns.map(n => Number(n.dataset.face))")
    scores = result.locator(".score").evaluate_all(
        "ns => ns.map(n => Number(n.textContent.replace('scores ', '')))"
    )
    return {"seed": seed, "faces": faces, "scores": scores}


@BOTH_SIZES
def test_dice_roll_anew_each_time_and_a_seed_replays_them(page: Any) -> None:
    open_example(page)
    page.get_by_test_id("roll").click()
    first = rolled(page)
    page.get_by_test_id("roll").click()
    expect(page.get_by_test_id("seed-used")).not_to_have_text(f"Seed {first['seed']}")
    second = rolled(page)
    assert all(1 <= face <= 6 for face in first["faces"] + second["faces"])
    page.get_by_test_id("replay").click()
    expect(page.get_by_test_id("seed")).to_have_value(str(second["seed"]))
    page.get_by_test_id("roll").click()
    expect(page.get_by_test_id("roll-result")).to_contain_text("the dice of this seed")
    assert rolled(page) == second
    outcomes = page.get_by_test_id("roll-result").get_by_test_id("roll-combat")
    expect(outcomes).to_have_count(2)
    assert set(outcomes.evaluate_all("ns => ns.map(n => n.dataset.winner)")) <= {
        "attacker",
        "defender",
    }


def test_a_roll_says_whether_the_fight_ends_or_goes_on(page: Any) -> None:
    battle = load_battle(folder("scenarios") / f"{SEED}.yaml")
    seeds: dict[bool, int] = {}
    for seed in range(200):  # the first seed that ends the fight, and the first that does not
        seeds.setdefault(service.simulate_answer(battle, seed=seed).winner is None, seed)
    assert set(seeds) == {True, False}
    open_example(page)
    result = page.get_by_test_id("roll-result")
    page.get_by_test_id("seed").fill(str(seeds[True]))
    page.get_by_test_id("roll").click()
    expect(result.get_by_test_id("fight-goes-on")).to_contain_text("start again from step 1")
    expect(result.locator("[data-testid=rule-link][data-rule='7b']")).to_be_visible()
    expect(result.get_by_test_id("fight-ends")).to_have_count(0)
    page.get_by_test_id("seed").fill(str(seeds[False]))
    page.get_by_test_id("roll").click()
    expect(result.get_by_test_id("fight-ends")).to_contain_text("The fight ends")
    expect(result.get_by_test_id("fight-goes-on")).to_have_count(0)


def test_pool_dice_show_the_scores_the_server_compared(page: Any, live_server: str) -> None:
    scenario = page.request.get(f"{live_server}/api/scenarios/{SEED}").json()
    scenario["ruleset"] = {"base": "crossfire", "overrides": {"dice_mode": "pool"}}
    page.get_by_text("Paste or upload your own").click()
    page.get_by_test_id("scenario-text").fill(json.dumps(scenario))
    page.get_by_test_id("use-text").click()
    expect(page.get_by_test_id("scenario-select")).to_have_value("own:0")
    expect_status(page, "legal")
    page.get_by_test_id("seed").fill("11")
    page.get_by_test_id("roll").click()
    shown = rolled(page)
    answer = page.request.post(
        f"{live_server}/api/simulate", data={"scenario": scenario, "seed": 11}
    ).json()
    rolls = [roll for combat in answer["rounds"][0]["combats"] for roll in combat["rolls"]]
    assert shown["faces"] == [face for r in rolls for face in (r["attacker"], r["defender"])]
    assert shown["scores"] == [
        score for r in rolls for score in (r["attacker_score"], r["defender_score"])
    ]
    # Under a pool the score is not the die plus the total: the page shows the server's.
    assert any(
        r["attacker_score"] != r["attacker"] + c["attacker_total"]
        for c in answer["rounds"][0]["combats"]
        for r in c["rolls"]
    )


def test_rolling_an_incomplete_allocation_explains_why_not(page: Any) -> None:
    open_example(page, empty=True)
    put(page, "d1", "new")
    page.get_by_test_id("roll").click()
    expect(page.get_by_test_id("roll-error")).to_be_visible()


# ------------------------------------------------------------------ Explain (item 6)


@BOTH_SIZES
def test_explain_reads_in_english_with_rules_linked(page: Any) -> None:
    open_example(page)
    page.get_by_test_id("explain").click()
    result = page.get_by_test_id("explain-result")
    steps = result.get_by_test_id("explain-step")
    expect(steps).to_have_count(8)
    expect(result).to_contain_text("Your allocation, step by step.")
    statuses = result.get_by_test_id("explain-status").all_inner_texts()
    assert set(statuses) == {"Your allocation follows this step."}
    expect(steps.nth(7)).to_contain_text("13/16 (81.3%)")
    expect(steps.nth(7).get_by_test_id("parts-defender").first).to_contain_text("h1 crew -2")
    text_has_no_raw_data(result.inner_text())
    page.get_by_test_id("explain-goto-4").click()
    link = steps.nth(4).locator("[data-testid=rule-link][data-rule='4b']").first
    link.click()
    entry = page.locator("#rule-4b")
    expect(entry).to_be_visible()
    expect(entry).to_contain_text(RULES["4b"].statement)
    assert focused(page) is None and page.evaluate("() => document.activeElement.id") == "rule-4b"


def test_explain_walks_the_line_of_the_chosen_aim(page: Any) -> None:
    open_example(page, empty=True)
    result = page.get_by_test_id("explain-result")
    for aim, words in (("take", "take the building"), ("sweep", "win every combat")):
        page.get_by_test_id("objective").select_option(aim)
        page.get_by_test_id("explain").click()
        expect(result.locator(".explain-mode")).to_contain_text(f"the attacker's aim: {words}")
    text_has_no_raw_data(result.inner_text())


def test_explain_of_a_broken_allocation_says_which_step(page: Any) -> None:
    build_illegal_line(page)
    page.get_by_test_id("explain").click()
    broken = page.locator("[data-testid=explain-step][data-status=broken]")
    expect(broken).to_have_count(1)
    expect(broken.get_by_test_id("explain-status")).to_have_text(
        "Your allocation breaks this step."
    )
    expect(broken.locator("[data-testid=rule-link][data-rule='2b']").first).to_be_visible()
    text_has_no_raw_data(page.get_by_test_id("explain-result").inner_text())


# ------------------------------------------------------------------ the force builder (item 1)


@BOTH_SIZES
def test_builder_makes_a_fight_from_two_organisations(page: Any, live_server: str) -> None:
    build_two_organisations(page)
    page.get_by_test_id("builder-title").fill("Tonight's fight")
    page.get_by_test_id("builder-surprise").check()
    page.get_by_test_id("builder-quality-su-1plt-sq2").select_option("veteran")
    page.get_by_test_id("builder-suppressed-de-1plt-sq3").check()
    page.get_by_test_id("builder-rating-de-1plt-pc").fill("1")
    page.locator("details.house-rules > summary").click()
    page.get_by_test_id("builder-rule-dice_mode").select_option("pool")
    expect(page.get_by_test_id("builder-yaml")).to_contain_text("dice_mode: pool")
    text = builder_yaml(page)
    data = read_text(text, syntax="yaml")
    assert data["title"] == "Tonight's fight" and data["surprise"] is True
    assert data["building"] == {"name": "Farmhouse", "capacity": 3}
    assert data["ruleset"] == {"base": "crossfire", "overrides": {"dice_mode": "pool"}}
    assert data["defender"]["organisation"] == "soviet-rifle-company"
    assert {"id": "su-1plt-sq2", "quality": "veteran"} in data["defender"]["present"]
    assert {"id": "de-1plt-sq3", "suppressed": True} in data["attacker"]["present"]
    assert {"id": "de-1plt-pc", "rating": 1, "near": ["de-1plt-sq1"]} in data["attacker"]["present"]
    written = page.request.post(f"{live_server}/api/scenario-yaml", data=data).json()
    assert written["yaml"] == text
    use_built_fight(page, "Tonight's fight")
    for stand in DEFENDERS:
        expect(
            page.get_by_test_id("defender-pool").get_by_test_id(f"counter-{stand}")
        ).to_be_visible()
    expect(page.get_by_test_id("counter-de-1plt-sq3")).to_contain_text("suppressed")
    expect_status(page, "legal")
    expect(page.locator("optgroup[label='Your own'] option")).to_have_text(["Tonight's fight"])


def test_builder_options_are_grouped_by_nation_and_valued_by_name(page: Any) -> None:
    page.get_by_test_id("new-fight").click()
    groups = page.locator("[data-testid=builder-org-defender] optgroup")
    nations = sorted({str(load_organisation(name).nation) for name in names("orgs")})
    expect(groups).to_have_count(len(nations))
    assert groups.evaluate_all("ns => ns.map(n => n.label)") == nations
    values = page.locator("[data-testid=builder-org-attacker] optgroup option").evaluate_all(
        "ns => ns.map(n => n.value)"
    )
    assert "japanese-rifle-company" in values and "us-rifle-company-1944" in values


def test_builder_near_by_positions_dragged_on_the_table(page: Any) -> None:
    build_two_organisations(page)
    page.get_by_test_id("builder-near-de-1plt-pc-de-1plt-sq1").uncheck()
    page.get_by_test_id("builder-positions").check()
    result = page.get_by_test_id("builder-near-result")
    expect(result).to_contain_text("de-1plt-pc is within one stand width of nobody who fights")
    expect(result.get_by_test_id("warning")).to_contain_text("within one stand width of one")
    token = page.get_by_test_id("builder-token-de-1plt-pc")
    squad = page.get_by_test_id("builder-token-de-1plt-sq2")
    start, goal = token.bounding_box(), squad.bounding_box()
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    page.mouse.down()
    # Drop him one and a half stand widths below the second squad: near it, far from the rest.
    page.mouse.move(goal["x"] + goal["width"] / 2, goal["y"] + goal["height"] * 2, steps=8)
    page.mouse.up()
    expect(result).to_contain_text("de-1plt-pc is within one stand width of de-1plt-sq2.")
    expect(result.get_by_test_id("warning")).to_have_count(0)
    assert focused(page) == "builder-token-de-1plt-pc"
    for _ in range(6):  # the arrow keys move him away again, half a stand width a press
        page.keyboard.press("ArrowDown")
    expect(result).to_contain_text("nobody who fights")
    data = read_text(builder_yaml(page), syntax="yaml")
    placed = {e["id"]: e for e in data["attacker"]["present"] if isinstance(e, dict)}
    assert set(placed) == set(ATTACKERS) and all("position" in e for e in placed.values())


def test_builder_takes_units_and_stands_of_your_own(page: Any) -> None:
    page.get_by_test_id("new-fight").click()
    page.get_by_test_id("builder-org-defender").select_option("japanese-rifle-company")
    page.get_by_test_id("builder-stand-jp-1plt-sq1").check()
    page.get_by_test_id("builder-own-attacker").click()
    page.get_by_test_id("builder-add-unit-attacker").click()
    page.get_by_test_id("builder-own-unit-attacker-0").fill("raiders")
    page.get_by_test_id("builder-own-unit-attacker-0").press("Tab")
    page.get_by_test_id("builder-add-stand-attacker").click()
    page.get_by_test_id("builder-add-stand-attacker").click()
    page.get_by_test_id("builder-own-type-attacker-1").select_option("smg")
    data = read_text(builder_yaml(page), syntax="yaml")
    assert data["attacker"] == {
        "units": [{"id": "raiders", "kind": "platoon"}],
        "stands": [
            {"id": "a1", "type": "rifle", "unit": "raiders"},
            {"id": "a2", "type": "smg", "unit": "raiders"},
        ],
    }
    use_built_fight(page, Building().name)  # the file format's default name
    expect(page.get_by_test_id("counter-a2")).to_contain_text("SMG")


def test_builder_shows_the_servers_problem(page: Any) -> None:
    page.get_by_test_id("new-fight").click()
    page.get_by_test_id("builder-org-defender").select_option("german-rifle-company")
    page.get_by_test_id("builder-stand-de-1plt-sq1").check()
    expect(page.get_by_test_id("builder-status")).to_contain_text("Tick the stands of the attacker")
    page.get_by_test_id("builder-org-attacker").select_option("german-rifle-company")
    page.get_by_test_id("builder-stand-de-1plt-sq1").nth(1).check()
    error = page.get_by_test_id("builder-error-box")
    expect(error).to_contain_text("duplicate stand id 'de-1plt-sq1'")
    expect(page.get_by_test_id("builder-use")).to_be_disabled()


def test_builder_yaml_copies_and_downloads(page: Any) -> None:
    build_two_organisations(page)
    text = builder_yaml(page)
    page.get_by_test_id("builder-copy").click()
    expect(page.get_by_test_id("builder-note")).to_contain_text("Copied")
    assert page.evaluate("() => navigator.clipboard.readText()") == text
    with page.expect_download() as download:
        page.get_by_test_id("builder-download").click()
    assert download.value.suggested_filename == "farmhouse.yaml"
    assert Path(download.value.path()).read_text(encoding="utf-8") == text


def test_a_built_fight_goes_into_the_share_link(page: Any, browser: Any) -> None:
    build_two_organisations(page)
    use_built_fight(page)
    put(page, "su-1plt-sq1", "new")
    page.get_by_test_id("share").click()
    link = page.get_by_test_id("share-link").input_value()
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        reopened = context.new_page()
        reopened.goto(link)
        expect(reopened.get_by_test_id("building-name")).to_have_text("Farmhouse")
        assert combat_members(reopened, "A") == ["su-1plt-sq1"]
        expect(reopened.get_by_test_id("counter-de-1plt-pc")).to_be_visible()
    finally:
        context.close()


# ------------------------------------------------------------------ the whole evening (done when)


@BOTH_SIZES
def test_a_player_builds_a_fight_and_plays_it_through(page: Any) -> None:
    build_two_organisations(page)
    use_built_fight(page)
    expect_status(page, "legal")
    page.get_by_test_id("solve-defender").click()
    expect(page.get_by_test_id("solve-status")).to_contain_text("proven")
    expect(page.get_by_test_id("fight-odds")).to_contain_text("The attacker takes the building:")
    page.get_by_test_id("apply-solution").click()
    expect_status(page, "legal")
    page.get_by_test_id("roll").click()
    first = rolled(page)
    page.get_by_test_id("roll").click()
    expect(page.get_by_test_id("seed-used")).not_to_have_text(f"Seed {first['seed']}")
    page.get_by_test_id("explain").click()
    result = page.get_by_test_id("explain-result")
    expect(result.get_by_test_id("explain-step")).to_have_count(8)
    text_has_no_raw_data(result.inner_text())
