"""The page is served, not copied: its rules, stages, defaults, bounds and limits are the server's,
and every request that fails is said to the player in words (requests made to fail by
Playwright's route interception), at a desktop and a phone size."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from allocator.games.crossfire.rules import RULES, STEP_TITLES

STATIC = Path(__file__).resolve().parents[2] / "allocator" / "web" / "static"
SCRIPTS = sorted(STATIC.rglob("*.js"))
#: Modules whose words other work serves next (the objectives, "still to place", rule 7b).
NOT_YET_SERVED = {"solve.js", "check.js", "dice.js"}


def script_text() -> str:
    return "\n".join(p.read_text("utf-8") for p in SCRIPTS if p.name not in NOT_YET_SERVED)


def test_the_scripts_hold_no_rule_statement_nor_step_title() -> None:
    text = " ".join(script_text().split())
    for rule in RULES.values():
        words = " ".join(rule.statement.split())
        assert words[:40] not in text, rule.id
    for title in STEP_TITLES.values():
        assert title.startswith("The") or title not in text, title  # "The building": too short


def test_the_scripts_hold_no_bound_of_the_file_format() -> None:
    """Bounds and defaults (a rating's 0 to 3, a capacity's 1 to 100, the default name) come from
    /api/terms; the HTML gives none either."""
    text = script_text() + (STATIC / "index.html").read_text("utf-8")
    assert not re.search(r"\b(min|max|maxlength)[=:]\s*\"?\d", text)
    assert '"House"' not in text and '"crossfire"' not in text and '"regular"' not in text


pytest.importorskip("fastapi", reason="the web extra is not installed (pip install .[web])")
pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")

from playwright.sync_api import expect  # noqa: E402

from web.test_web_page import DEFENDERS, build_two_organisations, open_example  # noqa: E402

BOTH_SIZES = pytest.mark.parametrize("viewport", ["desktop", "phone"], indirect=True)


def fail(page: Any, pattern: str, status: int | None = None) -> None:
    """Make every request to ``pattern`` fail: no answer at all, or ``status`` with no body."""
    if status is None:
        page.route(pattern, lambda route: route.abort())
    else:
        page.route(pattern, lambda route: route.fulfill(status=status, body="oops"))


@pytest.mark.browser
@BOTH_SIZES
def test_an_organisation_that_does_not_arrive_is_said_in_the_builder(page: Any) -> None:
    fail(page, "**/api/organisations/*")
    page.get_by_test_id("new-fight").click()
    page.get_by_test_id("builder-org-defender").select_option("soviet-rifle-company")
    error = page.get_by_test_id("builder-error-box")
    expect(error).to_contain_text("the server cannot be reached")
    expect(page.get_by_test_id("builder-status")).to_contain_text("cannot be used yet")
    expect(page.get_by_test_id("builder-use")).to_be_disabled()


@pytest.mark.browser
@BOTH_SIZES
def test_a_refused_board_is_said_and_the_next_change_asks_again(page: Any) -> None:
    build_two_organisations(page)
    expect(page.get_by_test_id("builder-use")).to_be_enabled()
    fail(page, "**/api/board", status=503)
    page.get_by_test_id("builder-title").fill("Tonight")
    error = page.get_by_test_id("builder-error-box")
    expect(error).to_contain_text("the server answered 503")
    expect(page.get_by_test_id("builder-use")).to_be_disabled()
    page.unroute("**/api/board")
    page.get_by_test_id("builder-title").fill("Tonight's fight")
    expect(page.get_by_test_id("builder-use")).to_be_enabled()
    expect(error).to_have_count(0)


@pytest.mark.browser
def test_a_builder_whose_library_does_not_arrive_says_so(page: Any) -> None:
    fail(page, "**/api/profiles")
    page.get_by_test_id("new-fight").click()
    expect(page.get_by_test_id("builder-status")).to_contain_text("cannot open")
    expect(page.get_by_test_id("builder-error-box")).to_contain_text("cannot be reached")


@pytest.mark.browser
@BOTH_SIZES
def test_a_check_that_fails_is_said_beside_the_board(page: Any) -> None:
    open_example(page)
    fail(page, "**/api/check")
    page.get_by_test_id("clear").click()
    expect(page.get_by_test_id("check-error")).to_contain_text("the server cannot be reached")


@pytest.mark.browser
def test_an_upload_that_cannot_be_read_is_said(page: Any, tmp_path: Path) -> None:
    fail(page, "**/api/parse", status=500)
    upload = tmp_path / "fight.yaml"
    upload.write_text("title: x\n", encoding="utf-8")
    page.get_by_text("Paste or upload your own").click()
    page.get_by_test_id("scenario-file").set_input_files(str(upload))
    expect(page.get_by_test_id("scenario-error")).to_contain_text("the server answered 500")


@pytest.mark.browser
def test_the_page_starts_without_its_words_and_says_why(page: Any, live_server: str) -> None:
    page.route("**/api/terms", lambda route: route.abort())
    page.goto(f"{live_server}/")
    expect(page.get_by_test_id("scenario-error")).to_contain_text("the server cannot be reached")


@pytest.mark.browser
@BOTH_SIZES
def test_the_stages_and_what_they_ask_are_the_servers(page: Any, live_server: str) -> None:
    terms = page.request.get(f"{live_server}/api/terms").json()
    open_example(page, empty=True)
    for stage in terms["stages"]:
        button = page.get_by_test_id(f"step-{stage['stage']}")
        expect(button).to_contain_text(stage["title"])
        expect(button).to_contain_text(stage["procedure"])
    asks = page.get_by_test_id("step-asks")
    asks.locator("summary").click()
    expect(asks).to_contain_text("Every squad is a combat of its own")
    expect(asks.locator("[data-testid=rule-link][data-rule='1a']")).to_be_visible()
    page.get_by_test_id("step-2").click()
    expect(asks).to_contain_text("They must cover every defending combat")  # still open


@pytest.mark.browser
@BOTH_SIZES
def test_the_builders_defaults_and_bounds_are_the_file_formats(page: Any, live_server: str) -> None:
    fields = page.request.get(f"{live_server}/api/terms").json()["fields"]
    page.get_by_test_id("new-fight").click()
    expect(page.get_by_test_id("builder-building")).to_have_value(
        fields["building_name"]["default"]
    )
    capacity = page.get_by_test_id("builder-capacity")
    expect(capacity).to_have_value(str(fields["capacity"]["default"]))
    expect(capacity).to_have_attribute("max", str(fields["capacity"]["maximum"]))
    expect(page.locator("#builder-capacity-label")).to_contain_text(
        fields["capacity"]["description"]
    )
    page.get_by_test_id("builder-close").click()
    build_two_organisations(page)
    rating = page.get_by_test_id("builder-rating-de-1plt-pc")
    expect(rating).to_have_attribute("max", str(fields["rating"]["maximum"]))
    expect(rating).to_have_attribute("min", str(fields["rating"]["minimum"]))
    note = page.get_by_test_id("builder-rule-note")
    expect(note).to_contain_text(RULES["5a"].statement)
    expect(note.locator("[data-testid=rule-link][data-rule='5a']")).to_be_visible()
    expect(page.get_by_test_id("builder-status")).to_contain_text(
        f"{len(DEFENDERS)} defending and 4 attacking stands (at most 120 a side)"
    )
