"""The Infinity calculator at ``/infinity`` in Debian's Chromium, at a desktop and a phone size:
both trooper cards filled from the server's menus, the odds worked out and shown as a chart and
tables, the share link that reopens them, saved results compared side by side, their CSV, and
one readable message for a link that cannot be opened.

``python tests/web/screenshots.py`` takes the page's picture for docs/web.md with the same steps.
"""

from __future__ import annotations

import base64
import csv
import io
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed (pip install .[web])")
pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")

import httpx
from playwright.sync_api import expect

from allocator.games.infinity.calculator import menus
from web.conftest import VIEWPORTS

pytestmark = pytest.mark.browser

BOTH_SIZES = pytest.mark.parametrize("viewport", ["desktop", "phone"], indirect=True)
STATIC = Path(__file__).resolve().parents[2] / "allocator" / "web" / "static"
#: What the cards are filled with in the tests (from empty cards), and the engagement the page
#: must send for it.
N5_CARDS = {
    "inf-rules": "n5",
    "inf-example": "",
    "inf-active-cc": "15",
    "inf-active-burst": "2",
    "inf-active-ps": "8",
    "inf-active-ammo": "DA",
    "inf-active-vita": "1",
    "inf-active-skill-martial_arts": "3",
    "inf-reactive-cc": "14",
    "inf-reactive-ps": "7",
    "inf-reactive-armour": "2",
    "inf-reactive-vita": "2",
    "inf-reactive-wounds": "1",
    "inf-reactive-skill-natural_born_warrior": "true",
    "inf-reactive-skill-dogged": "true",
}
N5_ENGAGEMENT = {
    "rules": "n5",
    "active": {
        "attribute": 15,
        "burst": 2,
        "ps": 8,
        "ammunition": "DA",
        "vita": 1,
        "skills": {"martial_arts": 3},
    },
    "reactive": {
        "attribute": 14,
        "ps": 7,
        "armour": 2,
        "vita": 2,
        "wounds_taken": 1,
        "skills": {"natural_born_warrior": True, "dogged": True},
    },
}


@pytest.fixture
def calculator(browser: Any, live_server: str, viewport: str) -> Iterator[Any]:
    """A fresh page at ``/infinity``, its menus loaded and its first example worked out; fails
    the test on a script error or a request to another host."""
    context = browser.new_context(
        viewport=VIEWPORTS[viewport],
        is_mobile=viewport == "phone",
        has_touch=viewport == "phone",
        permissions=["clipboard-read", "clipboard-write"],
    )
    context.set_default_timeout(15_000)
    page = context.new_page()
    script_errors: list[str] = []
    foreign: list[str] = []
    page.on("pageerror", lambda error: script_errors.append(str(error)))
    page.on(
        "request",
        lambda r: (
            None if r.url.startswith((live_server, "data:", "blob:")) else foreign.append(r.url)
        ),
    )
    page.goto(f"{live_server}/infinity")
    settled(page)
    yield page
    context.close()
    assert script_errors == [], "the page raised script errors"
    assert foreign == [], "the page fetched something from another host"


def settled(page: Any) -> None:
    expect(page.locator("body")).to_have_attribute("data-loading", "false")
    expect(page.locator("body")).not_to_have_attribute("data-busy", "true")


def shown(page: Any) -> int:
    return int(page.get_by_test_id("inf-result").get_attribute("data-shown") or 0)


def fill_cards(page: Any, values: dict[str, str]) -> None:
    for testid, value in values.items():
        control = page.get_by_test_id(testid)
        if control.evaluate("node => node.tagName") == "SELECT":
            control.select_option(value)
        else:
            control.fill(value)


def work_out(page: Any) -> dict[str, Any]:
    """Click the button; the engagement the page sent, once its answer is shown."""
    before = shown(page)
    with page.expect_request("**/api/infinity/roll") as request:
        page.get_by_test_id("inf-roll").click()
    expect(page.get_by_test_id("inf-result")).not_to_have_attribute("data-shown", str(before))
    settled(page)
    sent: dict[str, Any] = json.loads(request.value.post_data or "{}")
    return sent


def served(live_server: str, engagement: dict[str, Any]) -> dict[str, Any]:
    answer: dict[str, Any] = httpx.post(f"{live_server}/api/infinity/roll", json=engagement).json()
    return answer


def table_texts(page: Any) -> list[list[str]]:
    """The rows of every table shown, cell by cell."""
    texts: list[list[str]] = page.get_by_test_id("inf-tables").evaluate(
        "box => [...box.querySelectorAll('tr')].map("
        "row => [...row.children].map(cell => cell.textContent.trim()))"
    )
    return texts


def expected_rows(view: dict[str, Any]) -> list[list[str]]:
    return [row for table in view["tables"] for row in [table["columns"], *table["rows"]]]


def link_to(value: Any) -> str:
    text = json.dumps(value).encode()
    return "#s=" + base64.urlsafe_b64encode(text).decode().rstrip("=")


# ------------------------------------------------------------------ the page and its menus


@BOTH_SIZES
def test_both_cards_are_built_from_the_menus_with_every_test_id(calculator: Any) -> None:
    page = calculator
    rules = page.get_by_test_id("inf-rules")
    assert rules.evaluate("s => [...s.options].map(o => o.value)") == ["n4", "n5"]
    for name in ("n4", "n5"):
        rules.select_option(name)
        menu = menus().ruleset(name)  # type: ignore[arg-type]
        for side in ("active", "reactive"):
            for key in ("cc", "burst", "ammo"):
                expect(page.get_by_test_id(f"inf-{side}-{key}")).to_be_visible()
            ammo = page.get_by_test_id(f"inf-{side}-ammo")
            assert ammo.evaluate("s => [...s.options].map(o => o.value)") == [
                item.name for item in menu.ammunition
            ]
            for skill in menu.skills:
                select = page.get_by_test_id(f"inf-{side}-skill-{skill.name}")
                expect(select).to_be_visible()
                assert select.evaluate("s => [...s.options].map(o => o.textContent)") == [
                    option.label for option in skill.options
                ]
        strength = "inf-active-ps" if menu.strength == "ps" else "inf-active-damage"
        expect(page.get_by_test_id(strength)).to_be_visible()
        expect(page.locator("label[for=inf-active-vita]")).to_have_text(menu.vita)
    for testid in ("inf-roll", "inf-chart", "inf-share", "inf-compare-add", "inf-csv"):
        expect(page.get_by_test_id(testid)).to_have_count(1)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], "the page is wider than the screen"


@BOTH_SIZES
def test_filled_cards_are_worked_out_as_a_chart_and_tables(
    calculator: Any, live_server: str
) -> None:
    page = calculator
    fill_cards(page, N5_CARDS)
    sent = work_out(page)
    assert sent == N5_ENGAGEMENT
    answer = served(live_server, sent)
    view = answer["view"]
    expect(page.get_by_test_id("inf-title")).to_have_text(view["title"])
    expect(page.get_by_test_id("inf-rolls")).to_have_text(view["rolls"])
    assert table_texts(page) == expected_rows(view)
    bars = page.get_by_test_id("inf-chart").get_by_test_id("inf-bar")
    expected = [bar for group in view["chart"] for bar in group["bars"]]
    expect(bars).to_have_count(len(expected))
    sides = bars.evaluate_all("bars => bars.map(bar => bar.dataset.side)")
    assert sides == [bar["side"] or "none" for bar in expected]
    chart_text = page.get_by_test_id("inf-chart").text_content() or ""
    for group in view["chart"]:
        assert group["title"].split()[0] in chart_text
        for bar in group["bars"]:
            assert bar["percent"] in chart_text
    widths = bars.evaluate_all("bars => bars.map(bar => Number(bar.getAttribute('width')))")
    first = [bar["chance"]["value"] for bar in view["chart"][0]["bars"]]
    assert sorted(range(len(first)), key=first.__getitem__) == sorted(
        range(len(first)), key=widths[: len(first)].__getitem__
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


def test_the_page_opens_on_the_servers_first_example(calculator: Any, live_server: str) -> None:
    page = calculator
    start = next(e for e in menus().examples if e.name == menus().start)
    expect(page.get_by_test_id("inf-example")).to_have_value(start.name)
    expect(page.get_by_test_id("inf-active-name")).to_have_value(start.engagement.active.name)
    view = served(live_server, start.engagement.model_dump(mode="json"))["view"]
    expect(page.get_by_test_id("inf-title")).to_have_text(view["title"])
    assert table_texts(page) == expected_rows(view)


def test_an_example_of_the_other_ruleset_opens_with_its_ruleset(calculator: Any) -> None:
    page = calculator
    before = shown(page)
    page.get_by_test_id("inf-example").select_option("berserk")
    expect(page.get_by_test_id("inf-result")).not_to_have_attribute("data-shown", str(before))
    expect(page.get_by_test_id("inf-rules")).to_have_value("n4")
    expect(page.get_by_test_id("inf-active-damage-ph")).to_be_checked()
    expect(page.get_by_test_id("inf-title")).to_have_text(
        "Infinity close combat: two Normal Rolls under Berserk"
    )


def test_switching_the_ruleset_says_what_it_leaves_out(calculator: Any) -> None:
    page = calculator
    fill_cards(page, N5_CARDS)
    page.get_by_test_id("inf-active-skill-special_die").select_option("true")
    page.get_by_test_id("inf-rules").select_option("n4")
    expect(page.get_by_test_id("inf-note")).to_contain_text("Not in Infinity N4")
    expect(page.get_by_test_id("inf-note")).to_contain_text("active.skills.special_die")
    expect(page.get_by_test_id("inf-active-skill-martial_arts")).to_have_value("3")
    sent = work_out(page)
    assert sent["rules"] == "n4" and "ps" not in sent["active"]
    assert sent["reactive"]["skills"] == {"dogged": True}


@BOTH_SIZES
def test_a_bad_value_is_said_and_its_control_marked(calculator: Any) -> None:
    page = calculator
    page.get_by_test_id("inf-active-burst").fill("13")
    page.get_by_test_id("inf-roll").click()
    error = page.get_by_test_id("inf-error")
    expect(error).to_be_visible()
    expect(error.get_by_test_id("error-place")).to_have_text("active.burst")
    expect(error.get_by_test_id("error-problem")).to_contain_text("largest Burst")
    expect(page.get_by_test_id("inf-active-burst")).to_have_attribute("aria-invalid", "true")
    page.get_by_test_id("inf-active-burst").fill("2")
    work_out(page)
    expect(error).to_be_hidden()
    expect(page.get_by_test_id("inf-active-burst")).not_to_have_attribute("aria-invalid", "true")


# ------------------------------------------------------------------ the link


@BOTH_SIZES
def test_the_share_link_reopens_the_troopers_and_the_answer(
    calculator: Any, browser: Any, viewport: str
) -> None:
    page = calculator
    fill_cards(page, {**N5_CARDS, "inf-active-name": "swordsman"})
    work_out(page)
    page.get_by_test_id("inf-share").click()
    link = page.get_by_test_id("inf-share-link")
    expect(link).to_be_visible()
    url = link.input_value()
    assert re.search(r"/infinity#s=[A-Za-z0-9_-]+$", url)
    expect(page.get_by_test_id("inf-note")).to_contain_text("reopens")
    rows = table_texts(page)
    other = browser.new_context(viewport=VIEWPORTS[viewport], is_mobile=viewport == "phone")
    try:
        again = other.new_page()
        again.goto(url)
        settled(again)
        expect(again.get_by_test_id("inf-link-error")).to_be_hidden()
        for testid, value in {**N5_CARDS, "inf-active-name": "swordsman"}.items():
            expect(again.get_by_test_id(testid)).to_have_value(value)
        expect(again.get_by_test_id("inf-title")).to_have_text(
            page.get_by_test_id("inf-title").text_content() or ""
        )
        assert table_texts(again) == rows
    finally:
        other.close()


#: Links that cannot be opened, and what the one message about each says.
BROKEN_LINKS = [
    ("#s=%%%not-a-link", ["link", "damaged"]),
    ("#s=" + "A" * 7, ["link", "damaged"]),
    (link_to([1, 2]), ["link", "no roll of two troopers"]),
    (
        link_to({"rules": "n5", "active": {"attribute": "x"}, "reactive": {"attribute": 1}}),
        ["active.attribute", "valid integer"],
    ),
    (
        link_to({"active": {"attribute": 12, "burst": 500}, "reactive": {"attribute": 12}}),
        ["active.burst"],
    ),
    (
        link_to({"active": {"attribute": 12, "fireteam": 3}, "reactive": {"attribute": 12}}),
        ["link", "cannot show", "active.fireteam"],
    ),
]


@BOTH_SIZES
def test_a_link_that_cannot_be_opened_is_one_message(
    browser: Any, live_server: str, viewport: str
) -> None:
    context = browser.new_context(viewport=VIEWPORTS[viewport], is_mobile=viewport == "phone")
    errors: list[str] = []
    try:
        for number, (fragment, needles) in enumerate(BROKEN_LINKS):
            page = context.new_page()
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(f"{live_server}/infinity{fragment}")
            settled(page)
            message = page.get_by_test_id("inf-link-error")
            expect(message).to_be_visible()
            expect(message).to_contain_text("This link cannot be opened")
            expect(message.get_by_test_id("error-problem")).to_have_count(1)
            for needle in needles:
                expect(message).to_contain_text(needle)
            expect(page.locator("[role=alert]:visible")).to_have_count(1)
            expect(page.get_by_test_id("inf-result")).to_be_hidden()
            if number == 0:
                work_out(page)  # the page still works: its cards hold the first example
                expect(message).to_be_hidden()
            page.close()
    finally:
        context.close()
    assert errors == []


# ------------------------------------------------------------------ saved results and CSV


def save(page: Any) -> None:
    page.get_by_test_id("inf-compare-add").click()
    expect(page.get_by_test_id("inf-note")).to_contain_text("Saved as result")


@BOTH_SIZES
def test_two_saved_results_are_compared_side_by_side_and_kept(
    calculator: Any, live_server: str
) -> None:
    page = calculator
    fill_cards(page, N5_CARDS)
    first = served(live_server, work_out(page))["view"]
    save(page)
    page.get_by_test_id("inf-active-skill-martial_arts").select_option("5")
    second = served(live_server, work_out(page))["view"]
    save(page)
    rows = [page.get_by_test_id(f"inf-compare-row-{n}") for n in (1, 2)]
    for row, view in zip(rows, (first, second), strict=True):
        expect(row).to_be_visible()
        for measure in view["summary"]:
            expect(row).to_contain_text(measure["text"])
    assert first["summary"][0]["text"] != second["summary"][0]["text"]
    page.reload()
    settled(page)
    expect(page.get_by_test_id("inf-compare-row-2")).to_be_visible()
    page.get_by_test_id("inf-compare-open-1").click()
    expect(page.get_by_test_id("inf-active-skill-martial_arts")).to_have_value("3")
    settled(page)
    expect(page.get_by_test_id("inf-rolls")).to_have_text(first["rolls"])
    page.get_by_test_id("inf-compare-remove-1").click()
    expect(page.get_by_test_id("inf-compare-row-2")).to_have_count(0)
    expect(page.get_by_test_id("inf-compare-row-1")).to_contain_text(second["summary"][0]["text"])


def test_the_csv_holds_every_saved_result_exactly(calculator: Any, live_server: str) -> None:
    page = calculator
    fill_cards(page, {**N5_CARDS, "inf-active-name": "=HYPERLINK(1)"})
    first = served(live_server, work_out(page))["view"]
    save(page)
    page.get_by_test_id("inf-reactive-skill-natural_born_warrior").select_option("false")
    second = served(live_server, work_out(page))["view"]
    save(page)
    with page.expect_download() as download:
        page.get_by_test_id("inf-csv").click()
    assert download.value.suggested_filename == "infinity-results.csv"
    text = Path(download.value.path()).read_text(encoding="utf-8")
    table = list(csv.reader(io.StringIO(text)))
    head, rows = table[0], table[1:]
    assert head[:4] == ["result", "ruleset", "troopers", "rolls"] and len(rows) == 2
    for row, view in zip(rows, (first, second), strict=True):
        assert row[1] == "Infinity N5" and row[3] == view["rolls"]
        assert row[2].startswith("'=HYPERLINK(1)")  # never run as a formula
        for measure in view["summary"]:
            column = head.index(measure["label"])
            assert row[column + 1] == measure["value"]["exact"]
            assert float(row[column]) == measure["value"]["value"]


def test_the_main_page_links_to_the_calculator(page: Any) -> None:
    page.get_by_test_id("infinity-link").click()
    expect(page).to_have_url(re.compile(r"/infinity(#s=[A-Za-z0-9_-]+)?$"))
    settled(page)
    expect(page.get_by_test_id("inf-title")).not_to_be_empty()


# ------------------------------------------------------------------ nothing of the rules copied


def test_the_scripts_hold_none_of_the_rules_words() -> None:
    """Ammunition, skills, immunities, outcome and state words come from the API."""
    text = "\n".join(
        p.read_text("utf-8") for p in sorted((STATIC / "js" / "infinity").glob("*.js"))
    )
    text += (STATIC / "infinity.html").read_text("utf-8")
    words = {"VITA", "ARM", "BTS", "PS", "DAM", "Burst", "Dogged", "Unconscious", "Dead"}
    for menu in menus().rulesets:
        words |= {item.name for item in menu.ammunition if len(item.name) > 1}
        words |= {skill.name for skill in menu.skills} | {skill.title for skill in menu.skills}
        words |= {item.name for item in menu.immunities} | set(menu.trooper_types)
    found = sorted(w for w in words if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", text))
    assert found == []
