"""Who is near whom in the builder, by shortcuts (Chromium): everyone within one stand width
of everyone, all of one platoon beside a leader, or nobody; the server says the result."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright", reason="Playwright is not installed")
from playwright.sync_api import expect

from web.test_web_page import build_two_organisations

pytestmark = pytest.mark.browser
SQUADS = "de-1plt-sq1, de-1plt-sq2 and de-1plt-sq3"


def near_line(page: Any, leader: str) -> Any:
    return page.locator(f"[data-testid=builder-near-line][data-leader={leader}]")


def test_near_shortcuts_put_a_platoon_or_everyone_beside_the_leaders(page: Any) -> None:
    build_two_organisations(page)
    page.get_by_test_id("builder-stand-de-coy-cc").check()
    cc = near_line(page, "de-coy-cc")
    expect(cc).to_have_text("de-coy-cc is within one stand width of nobody who fights.")
    expect(page.get_by_test_id("builder-near-de-coy-cc-unit-1plt")).to_contain_text("1st Platoon")
    page.get_by_test_id("builder-near-de-coy-cc-unit-1plt").click()
    expect(cc).to_have_text(f"de-coy-cc is within one stand width of {SQUADS}.")
    page.get_by_test_id("builder-near-de-coy-cc-none").click()
    expect(cc).to_have_text("de-coy-cc is within one stand width of nobody who fights.")
    page.get_by_test_id("builder-near-everyone").click()
    expect(cc).to_have_text(f"de-coy-cc is within one stand width of {SQUADS}.")
    expect(near_line(page, "de-1plt-pc")).to_have_text(
        "de-1plt-pc is within one stand width of de-1plt-sq1, de-1plt-sq2, de-1plt-sq3 and "
        "de-coy-cc."
    )
    expect(page.get_by_test_id("builder-near-de-1plt-pc-de-1plt-sq2")).to_be_checked()


def test_the_tokens_on_the_table_go_by_their_counter_labels(page: Any) -> None:
    build_two_organisations(page)
    page.get_by_test_id("builder-positions").check()
    token = page.get_by_test_id("builder-token-de-1plt-sq2")
    expect(token).to_have_text("1/2 Sqd")
    expect(token).to_have_attribute("title", "1st Platoon, 2nd Squad (de-1plt-sq2)")
    expect(page.get_by_test_id("builder-token-de-1plt-pc")).to_have_text("1 Plt PC")
