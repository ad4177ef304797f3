"""Fights saved in the browser (Chromium, desktop and 390x844): a fight built on the page is
kept over a reload, beside the share link; saved fights are renamed, deleted, and opened as
links are (a damaged one is refused in words)."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright", reason="Playwright is not installed")
from playwright.sync_api import expect

from web.test_web_page import BOTH_SIZES, build_two_organisations, open_example, use_built_fight

pytestmark = pytest.mark.browser


def saved(page: Any) -> Any:
    box = page.get_by_test_id("saved-fights")
    if box.get_attribute("open") is None:
        box.locator("summary").click()
    return box.get_by_test_id("saved-fight")


@BOTH_SIZES
def test_a_built_fight_is_found_again_after_a_reload(page: Any, live_server: str) -> None:
    build_two_organisations(page)
    use_built_fight(page)
    page.goto(f"{live_server}/")
    expect(page.get_by_test_id("building-name")).not_to_have_text("Farmhouse")
    expect(saved(page)).to_have_count(1)
    expect(saved(page).first).to_have_attribute("data-name", "Farmhouse")
    page.get_by_test_id("saved-open-0").click()
    expect(page.get_by_test_id("building-name")).to_have_text("Farmhouse")
    expect(page.get_by_test_id("counter-su-1plt-sq1")).to_be_visible()
    # Renamed, it keeps the new name over a reload.
    page.get_by_test_id("saved-name-0").fill("Farmhouse, Tuesday")
    page.get_by_test_id("saved-name-0").press("Enter")
    expect(page.get_by_test_id("saved-note")).to_contain_text('Renamed "Farmhouse, Tuesday"')
    page.goto(f"{live_server}/")
    expect(saved(page).first).to_have_attribute("data-name", "Farmhouse, Tuesday")


def test_save_this_fight_keeps_the_allocation_and_delete_forgets_it(
    page: Any, live_server: str
) -> None:
    open_example(page, empty=True)
    page.get_by_test_id("save-fight").click()
    page.get_by_test_id("save-fight").click()
    names = saved(page).evaluate_all("ns => ns.map(n => n.dataset.name)")
    assert len(names) == 2 and names[0] == f"{names[1]} (2)"
    page.get_by_test_id("saved-delete-0").click()
    expect(saved(page)).to_have_count(1)
    page.goto(f"{live_server}/")
    expect(page.get_by_test_id("combats").get_by_test_id("counter-d1")).to_be_visible()
    expect(saved(page)).to_have_count(1)
    page.get_by_test_id("saved-open-0").click()
    # the saved fight had nothing placed
    expect(page.get_by_test_id("combats").get_by_test_id("counter-d1")).to_have_count(0)
    expect(page.get_by_test_id("defender-pool").get_by_test_id("counter-d1")).to_be_visible()


def test_what_the_browser_holds_is_checked_as_a_link(page: Any, live_server: str) -> None:
    page.evaluate(
        "localStorage.setItem('cfalloc-saved-fights', JSON.stringify("
        "[{name: 'Cut short', link: '#s=eyJuYW1l'}, {name: 7}, 'junk']))"
    )
    page.goto(f"{live_server}/")
    expect(saved(page)).to_have_count(1)
    expect(page.get_by_test_id("building-name")).not_to_have_text("No scenario loaded")
    page.get_by_test_id("saved-open-0").click()
    expect(page.get_by_test_id("scenario-error")).to_contain_text("This link cannot be opened.")
    page.evaluate("localStorage.setItem('cfalloc-saved-fights', '{not json')")
    page.goto(f"{live_server}/")
    expect(page.get_by_test_id("saved-fights")).to_contain_text("(0 fights)")
