"""Share links of the page at ``/`` that cannot be opened: each is one readable message in the
scenario's error box, never a script error, and a link whose shape is wrong makes no request.

A link is checked part by part before any of it is used (``js/link.js`` and the parts of
``LINK_PARTS`` in ``js/scenarios.js``), then its allocation against the scenario's stands.
"""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed (pip install .[web])")
pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")

from playwright.sync_api import expect

pytestmark = pytest.mark.browser

SEED = "guide-2hmg-1squad-v-4"


def link_to(value: Any) -> str:
    text = json.dumps(value).encode()
    return "#s=" + base64.urlsafe_b64encode(text).decode().rstrip("=")


def of_the_guide(**parts: Any) -> str:
    return link_to({"name": SEED, **parts})


#: Links whose shape is wrong (refused before any request), and the words of their message.
MALFORMED = {
    "not-base64": ("#s=%%%not-a-link", "link", "its end was cut off or changed"),
    "cut-short": ("#s=" + "A" * 7, "link", "its end was cut off or changed"),
    "null": (link_to(None), "link", "the link holds no scenario"),
    "a-list": (link_to([1, 2, 3]), "link", "the link holds no scenario"),
    "name-a-number": (link_to({"name": 5}), "name", "name should be a text, not a number"),
    "no-scenario": (link_to({"allocation": None}), "link", "it should hold one scenario"),
    "two-scenarios": (link_to({"name": SEED, "scenario": {}}), "link", "one scenario"),
    "scenario-a-list": (link_to({"scenario": []}), "scenario", "should be an object"),
    "combats-not-lists": (
        of_the_guide(allocation={"combats": {"A": "d1"}}),
        "allocation.combats.A",
        "allocation.combats.A should be a list, not a text",
    ),
    "combats-a-list": (
        of_the_guide(allocation={"combats": [["d1"]]}),
        "allocation.combats",
        "should be an object, not a list",
    ),
    "stand-a-number": (
        of_the_guide(allocation={"combats": {"A": ["d1", 7]}}),
        "allocation.combats.A[1]",
        "should be a text, not a number",
    ),
    "move-a-list": (
        of_the_guide(allocation={"combats": {"A": ["d1"]}, "reallocate": {"d1": ["B"]}}),
        "allocation.reallocate.d1",
        "should be a text, not a list",
    ),
    "allocation-a-text": (of_the_guide(allocation="A"), "allocation", "not a text"),
    "step-a-text": (of_the_guide(step="2"), "step", "step should be a whole number from 1 to"),
    "step-far-off": (of_the_guide(step=99), "step", "a whole number from 1 to"),
    "unknown-part": (of_the_guide(colour="red"), "colour", "a part this page does not know"),
    "unknown-part-of-the-allocation": (
        of_the_guide(allocation={"combats": {"A": ["d1"]}, "moves": {}}),
        "allocation.moves",
        "a part this page does not know (allocation.moves)",
    ),
    "prototype": (
        "#s=" + base64.urlsafe_b64encode(b'{"name": "x", "__proto__": {"a": 1}}').decode(),
        "__proto__",
        "a part this page does not know",
    ),
}
#: Links of the right shape whose allocation places stands the scenario does not have.
UNFIT = {
    "unknown-stand": (
        of_the_guide(allocation={"combats": {"A": ["d1", "zz"]}}),
        "allocation.combats.A[1]",
        '"zz", which is not one of this scenario\'s defenders',
    ),
    "attacker-in-a-combat": (
        of_the_guide(allocation={"combats": {"A": ["a1"]}}),
        "allocation.combats.A[0]",
        "not one of this scenario's defenders",
    ),
    "defender-attacking": (
        of_the_guide(allocation={"combats": {"A": ["d1"]}, "attack": {"A": ["h1"]}}),
        "allocation.attack.A[0]",
        "not one of this scenario's attackers",
    ),
    "unknown-move": (
        of_the_guide(allocation={"combats": {"A": ["d1"]}, "reallocate": {"q9": "A"}}),
        "allocation.reallocate.q9",
        "not one of this scenario's defenders",
    ),
}


def settled(page: Any, building: str = "2 HMGs") -> None:
    """The page has drawn the scenario of ``building`` and checked it."""
    expect(page.get_by_test_id("building-name")).to_contain_text(building)
    expect(page.locator("body")).not_to_have_attribute("data-loading", "true")
    expect(page.get_by_test_id("check-status")).not_to_have_attribute("data-state", "pending")


def expect_one_message(page: Any, place: str, words: str) -> None:
    box = page.get_by_test_id("scenario-error")
    expect(box).to_be_visible()
    expect(box).to_contain_text("This link cannot be opened.")
    expect(box.get_by_test_id("error-problem")).to_have_count(1)
    expect(box.get_by_test_id("error-problem")).to_contain_text(words)
    expect(box.get_by_test_id("error-place")).to_have_text(place)
    expect(page.locator("[role=alert]:visible")).to_have_count(1)


def open_link(page: Any, fragment: str) -> list[str]:
    """Follow ``fragment`` on the open page: the requests it made (once its message is shown)."""
    requests: list[str] = []

    def record(request: Any) -> None:
        requests.append(f"{request.method} {request.url}")

    page.on("request", record)
    # the box of the link before is hidden first, so that the one seen next is this link's
    page.evaluate(
        "(fragment) => { document.getElementById('scenario-error').hidden = true; "
        "location.hash = fragment; }",
        fragment,
    )
    return requests


def test_a_malformed_link_is_one_message_and_no_request(page: Any) -> None:
    settled(page)
    for name, (fragment, place, words) in MALFORMED.items():
        requests = open_link(page, fragment)
        expect_one_message(page, place, words)
        expect(page.get_by_test_id("building-name")).to_contain_text("2 HMGs")  # still open
        assert requests == [], name


def test_a_link_placing_stands_the_scenario_has_not_is_one_message(page: Any) -> None:
    settled(page)
    page.get_by_test_id("scenario-select").select_option("rule-1a-pass")
    settled(page, "1a legal")
    for name, (fragment, place, words) in UNFIT.items():
        requests = open_link(page, fragment)
        expect_one_message(page, place, words)
        # the scenario was asked for, to know its stands; nothing was drawn or checked with them
        expect(page.get_by_test_id("building-name")).to_contain_text("1a legal")
        assert not [r for r in requests if "/api/check" in r], name


@pytest.mark.parametrize("name", ["null", "combats-not-lists", "unknown-part"])
def test_a_page_opened_with_a_malformed_link_says_so_and_opens_the_first_example(
    browser: Any, live_server: str, name: str
) -> None:
    fragment, place, words = MALFORMED[name]
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{live_server}/{fragment}")
        settled(page)
        expect(page.get_by_test_id("building-name")).to_contain_text("2 HMGs")
        expect_one_message(page, place, words)
    finally:
        context.close()
    assert errors == []


def test_a_good_link_after_a_broken_one_opens(page: Any) -> None:
    settled(page)
    open_link(page, MALFORMED["combats-not-lists"][0])
    expect(page.get_by_test_id("scenario-error")).to_be_visible()
    allocation = {"combats": {"A": ["d1", "h1", "h2"]}}
    open_link(page, of_the_guide(allocation=allocation, step=1))
    expect(page.get_by_test_id("scenario-error")).to_be_hidden()
    settled(page)
    combat = page.get_by_test_id("combat-A")
    for stand in ("d1", "h1", "h2"):
        expect(combat.get_by_test_id(f"counter-{stand}")).to_be_visible()
