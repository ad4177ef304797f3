"""Stands, units and combats named like JavaScript's built-ins (``__proto__``, ``constructor``,
``toString``, ``hasOwnProperty``) on the page, in Debian's Chromium: every part of the allocation
is keyed by such names, and the page holds them as its own keys, never as the prototype's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed (pip install .[web])")
pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")

from playwright.sync_api import expect

from tests.web.test_web_page import combat_members, expect_settled, expect_status, put

pytestmark = pytest.mark.browser

TITLE = "Stands named like JavaScript's built-ins"
#: Every id a JavaScript object answers without holding it, as stands, units and combats.
BUILTIN_NAMES = (
    f"title: {TITLE}\n"
    "building: {name: Prototype house, capacity: 3}\n"
    "defender:\n"
    "  units:\n"
    "    - {id: constructor, kind: company, units: [{id: __proto__, kind: platoon}]}\n"
    "  stands:\n"
    "    - {id: __proto__, type: rifle, unit: __proto__}\n"
    "    - {id: constructor, type: rifle, unit: constructor}\n"
    "    - {id: toString, type: rifle, unit: __proto__}\n"
    "attacker:\n"
    "  units: [{id: valueOf, kind: platoon}]\n"
    "  stands:\n"
    "    - {id: hasOwnProperty, type: rifle, unit: valueOf}\n"
    "    - {id: valueOf, type: rifle, unit: valueOf}\n"
)
#: A legal line whose every part is keyed by built-in names: combat toString, unopposed, folds
#: into combat __proto__.
WITH_ALLOCATION = BUILTIN_NAMES + (
    "allocation:\n"
    "  combats: {__proto__: [__proto__], constructor: [constructor], toString: [toString]}\n"
    "  attack: {__proto__: [hasOwnProperty], constructor: [valueOf]}\n"
    "  reallocate: {toString: __proto__}\n"
)


def upload(page: Any, tmp_path: Path, text: str) -> None:
    scenario = tmp_path / "builtins.yaml"
    scenario.write_text(text, encoding="utf-8")
    page.get_by_text("Paste or upload your own").click()
    page.get_by_test_id("scenario-file").set_input_files(str(scenario))
    expect(page.get_by_test_id("building-name")).to_have_text(TITLE)
    expect(page.get_by_test_id("scenario-error")).to_be_hidden()
    expect_settled(page)


def test_a_file_keyed_by_builtin_names_opens_with_its_allocation(page: Any, tmp_path: Path) -> None:
    upload(page, tmp_path, WITH_ALLOCATION)
    expect_status(page, "legal")
    assert combat_members(page, "__proto__") == ["__proto__", "hasOwnProperty", "toString"]
    assert combat_members(page, "constructor") == ["constructor", "valueOf"]
    expect(page.get_by_test_id("combat-toString")).to_contain_text("no attacker")
    for pool in ("defender-pool", "attacker-pool"):
        expect(page.get_by_test_id(pool).locator("[data-testid^=counter-]")).to_have_count(0)
    # The move back to its own combat takes the reallocation out again.
    put(page, "toString", "toString")
    expect_status(page, "illegal")
    assert combat_members(page, "__proto__") == ["__proto__", "hasOwnProperty"]


def test_builtin_names_are_placed_moved_and_taken_back(page: Any, tmp_path: Path) -> None:
    upload(page, tmp_path, BUILTIN_NAMES)
    expect(page.get_by_test_id("defender-pool").locator("[data-testid^=counter-]")).to_have_count(3)
    for stand in ("__proto__", "toString", "constructor"):
        put(page, stand, "new")
    assert [combat_members(page, name) for name in "ABC"] == [
        ["__proto__"],
        ["toString"],
        ["constructor"],
    ]
    expect_status(page, "legal")
    page.get_by_test_id("step-2").click()
    put(page, "hasOwnProperty", "A")
    put(page, "valueOf", "C")
    expect_status(page, "legal")
    expect(page.get_by_test_id("attacker-pool").locator("[data-testid^=counter-]")).to_have_count(0)
    page.get_by_test_id("counter-valueOf").click()
    page.get_by_test_id("unplace-attacker").click()
    expect(page.get_by_test_id("attacker-pool").get_by_test_id("counter-valueOf")).to_be_visible()
    assert combat_members(page, "C") == ["constructor"]
    page.get_by_test_id("solve-defender").click()
    expect(page.get_by_test_id("solve-status")).to_contain_text("Best split")
