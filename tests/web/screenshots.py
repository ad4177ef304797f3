"""Take the page's pictures for docs/tutorial.md and docs/web.md (docs/img/page-*.png).

Not a test: run it on purpose after changing the page, then look at the pictures and commit them.

    python tests/web/screenshots.py            # writes docs/img/page-*.png
    python tests/web/screenshots.py --out DIR  # somewhere else
    python tests/web/screenshots.py --only page-infinity.png  # one picture

It serves the app on a free loopback port and drives Debian's Chromium (/usr/bin/chromium) with
the same steps as the browser tests (tests/web/test_web_page.py).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # the browser tests import their helpers as `web.`

from playwright.sync_api import expect, sync_playwright  # noqa: E402

from allocator.web.server import background  # noqa: E402
from allocator.web.settings import WebSettings  # noqa: E402
from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS, VIEWPORTS  # noqa: E402
from tests.web.test_web_page import (  # noqa: E402
    TANK_SCENARIO,
    build_illegal_line,
    build_legal_line,
    build_two_organisations,
    expect_settled,
    open_example,
    put,
    rolled,
    use_built_fight,
)
from tests.web.test_web_page_play import enter_dice  # noqa: E402


def builder(page: Any) -> Any:
    build_two_organisations(page)
    page.get_by_test_id("builder-title").fill("Tonight's fight")
    page.get_by_test_id("builder-quality-su-1plt-sq2").select_option("veteran")
    expect(page.get_by_test_id("builder-yaml")).to_contain_text("veteran")
    expect(page.get_by_test_id("builder-use")).to_be_enabled()
    page.evaluate("() => document.activeElement.blur()")
    return page.get_by_test_id("builder")


def builder_table(page: Any) -> Any:
    build_two_organisations(page)
    page.get_by_test_id("builder-near-de-1plt-pc-de-1plt-sq1").uncheck()
    page.get_by_test_id("builder-positions").check()
    token = page.get_by_test_id("builder-token-de-1plt-pc")
    expect(token).to_be_visible()
    token.focus()
    for key in ("ArrowRight", "ArrowRight", "ArrowRight", "ArrowRight", "ArrowDown"):
        page.keyboard.press(key)
    expect(page.get_by_test_id("builder-near-result")).to_contain_text("de-1plt-sq1.")
    return page.locator(".builder-side.attacker")


def check(page: Any) -> Any:
    build_illegal_line(page)
    return page.locator(".layout")


def legal(page: Any) -> Any:
    open_example(page, empty=True)
    build_legal_line(page)
    return page.locator(".board-area")


def notice(page: Any) -> Any:
    open_example(page)
    page.get_by_test_id("step-1").click()
    expect_settled(page)
    put(page, "h2", "A")
    expect(page.get_by_test_id("notice")).to_be_visible()
    expect_settled(page)
    return page.locator(".board-area")


def solve(page: Any) -> Any:
    open_example(page, empty=True)
    page.get_by_test_id("objective").select_option("sweep")
    page.get_by_test_id("solve-defender").click()
    expect(page.get_by_test_id("solve-status")).to_contain_text("proven")
    return page.locator(".tools")


def fight(page: Any) -> Any:
    open_example(page, empty=True)
    page.get_by_test_id("solve-defender").click()
    expect(page.get_by_test_id("fight-odds")).to_be_visible()
    return page.get_by_test_id("solve-result")


def dice(page: Any) -> Any:
    open_example(page)
    page.get_by_test_id("roll").click()
    rolled(page)
    return page.get_by_test_id("roll-result")


def rounds(page: Any) -> Any:
    """The guide's example played to its end: round 1 with the table's dice, round 2 rolled."""
    open_example(page)
    enter_dice(page, {"A": "4-3", "B": "1-5"})
    page.get_by_test_id("next-round").click()
    expect(page.get_by_test_id("counter-d1")).to_have_count(0)
    expect_settled(page)
    page.get_by_test_id("solve-defender").click()
    page.get_by_test_id("apply-solution").click()
    expect(page.get_by_test_id("check-status")).to_have_attribute("data-state", "legal")
    page.get_by_test_id("seed").fill("1")
    page.get_by_test_id("roll").click()
    expect(page.get_by_test_id("fight-over")).to_be_visible()
    return page.locator("section[aria-labelledby=dice-heading]")


def explain(page: Any) -> Any:
    open_example(page)
    page.get_by_test_id("explain").click()
    expect(page.get_by_test_id("explain-step")).to_have_count(8)
    return page.get_by_test_id("explain-result")


def scenario_error(page: Any) -> Any:
    page.get_by_text("Paste or upload your own").click()
    page.get_by_test_id("scenario-text").fill(TANK_SCENARIO)
    page.get_by_test_id("use-text").click()
    expect(page.get_by_test_id("error-place")).to_be_visible()
    return page.locator(".scenario-bar")


def open_calculator(page: Any) -> None:
    """The Infinity calculator, on its opening example worked out."""
    page.goto(urljoin(page.url, "/infinity"))
    expect(page.locator("body")).to_have_attribute("data-loading", "false")
    expect(page.get_by_test_id("inf-title")).not_to_be_empty()


def infinity(page: Any) -> Any:
    open_calculator(page)
    page.get_by_test_id("inf-compare-add").click()
    return page.get_by_test_id("inf-result")


def infinity_phone(page: Any) -> Any:
    open_calculator(page)
    return page.get_by_test_id("inf-card-reactive")


def phone(page: Any) -> None:
    build_two_organisations(page)
    use_built_fight(page)
    put(page, "su-1plt-sq1", "new")
    page.get_by_test_id("counter-su-1plt-pc").click()
    expect(page.get_by_test_id("place-A")).to_be_visible()
    page.get_by_test_id("step-help").scroll_into_view_if_needed()
    page.evaluate(
        "() => window.scrollBy(0, document.querySelector('.steps').getBoundingClientRect().top - 8)"
    )


#: Each picture: its file, the viewport, and the steps (returning the element to picture, or
#: None for the screen as it is).
PICTURES: list[tuple[str, str, Callable[[Any], Any]]] = [
    ("page-builder.png", "desktop", builder),
    ("page-builder-table.png", "desktop", builder_table),
    ("page-check.png", "desktop", check),
    ("page-legal.png", "desktop", legal),
    ("page-notice.png", "desktop", notice),
    ("page-solve.png", "desktop", solve),
    ("page-fight.png", "desktop", fight),
    ("page-dice.png", "desktop", dice),
    ("page-rounds.png", "desktop", rounds),
    ("page-explain.png", "desktop", explain),
    ("page-scenario-error.png", "desktop", scenario_error),
    ("page-phone.png", "phone", phone),
    ("page-infinity.png", "desktop", infinity),
    ("page-infinity-phone.png", "phone", infinity_phone),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img")
    parser.add_argument(
        "--only", action="append", metavar="FILE", help="take only this picture (repeatable)"
    )
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with background(WebSettings()) as (url, _), sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        for name, size, steps in PICTURES:
            if args.only and name not in args.only:
                continue
            context = browser.new_context(viewport=VIEWPORTS[size], is_mobile=size == "phone")
            page = context.new_page()
            page.goto(f"{url}/")
            expect_settled(page)
            shown = steps(page)
            target = args.out / name
            if shown is None:
                page.screenshot(path=str(target))
            else:
                shown.screenshot(path=str(target))
            print(f"wrote {target}")
            context.close()
        browser.close()


if __name__ == "__main__":
    main()
