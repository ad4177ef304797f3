"""The counters on the board (Chromium, desktop and 390x844): a stand from an organisation goes
by its short label on one line, its readable name on hover; attacking weapons wait apart in
their pool, as taking no part in the assault (4d)."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright", reason="Playwright is not installed")
from playwright.sync_api import expect

from web.test_web_page import BOTH_SIZES, expect_status, open_rule_case

pytestmark = pytest.mark.browser


@BOTH_SIZES
def test_counters_have_short_labels_and_weapons_wait_apart(page: Any) -> None:
    open_rule_case(page, "rule-4d-pass")
    expect(page.locator("body")).not_to_have_attribute("data-loading", "true")
    expect_status(page, "legal")
    squad = page.get_by_test_id("counter-jp-1plt-sq1")
    expect(squad.locator(".c-id")).to_have_text("1/1 Sqd")
    expect(squad).to_have_attribute("title", "1st Platoon, 1st Squad (jp-1plt-sq1)")
    label = page.get_by_test_id("counter-jp-bn-jhmg1").locator(".c-id")
    one_line = label.evaluate("n => parseFloat(getComputedStyle(n).lineHeight) * 1.5")
    assert label.evaluate("n => n.getBoundingClientRect().height") < one_line
    apart = page.get_by_test_id("attacker-pool").get_by_test_id("not-fighting")
    expect(apart).to_contain_text("Not in the assault")
    expect(apart.get_by_test_id("rule-link")).to_have_text("4d")
    expect(apart.get_by_test_id("counter-jp-bn-gun")).to_be_visible()
    expect(apart.get_by_test_id("counter-jp-bn-jhmg1")).to_have_count(0)
