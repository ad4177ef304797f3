"""Bench: how fast the Infinity calculator page is answered, against the same work in-process.

Run ``python bench/bench_infinity_page.py [--repeat N]`` (the web extra serves it). It serves the
app on a real uvicorn server on a free loopback port and prints, for each roll:

* the in-process work (``close_combat``, its typed answer and the page's view), the baseline;
* ``POST /api/infinity/roll`` for the same troopers, from a client that keeps its connection
  (as the page's browser does), and its ratio to the baseline: the cost of HTTP, the JSON, the
  body's reader and the pool;
* whether the endpoint is within the page's goal of 200 ms;

and ``GET /api/infinity/menus`` (the page's first request). The rolls are the page's opening
example (N5 Martial Arts L3 against Natural Born Warrior and Dogged) and the heaviest of
``bench_infinity.py``: 12 v 12 with every skill of each ruleset and Continuous Damage.
"""

from __future__ import annotations

import argparse
from typing import Any

import httpx
from bench_infinity import SKILLS, _fighter
from timing import median_seconds

from allocator.games.answer import resolve_answer
from allocator.games.infinity.calculator import close_combat, menus
from allocator.games.infinity.dice import _winning_rolls
from allocator.games.infinity.view import infinity_view
from allocator.web.server import background
from allocator.web.settings import WebSettings

GOAL_MS = 200


def rolls() -> dict[str, dict[str, Any]]:
    """The engagements timed, by a short name."""
    start = next(e for e in menus().examples if e.name == menus().start)
    found = {"the opening example (N5)": start.engagement.model_dump(mode="json")}
    for rules in ("n4", "n5"):
        active, reactive = SKILLS[rules]
        found[f"{rules} B12 v B12, every skill, EXP continuous"] = {
            "rules": rules,
            "active": _fighter(rules, "EXP", True, active),
            "reactive": _fighter(rules, "DA", True, reactive),
        }
    return found


def in_process(engagement: dict[str, Any]) -> Any:
    """What the endpoint computes, called directly (from a cold cache of the dice)."""
    _winning_rolls.cache_clear()
    resolution = close_combat(
        engagement["active"], engagement["reactive"], rules=engagement.get("rules")
    )
    return resolve_answer(resolution).to_json(), infinity_view(resolution)


def endpoint(client: httpx.Client, url: str, engagement: dict[str, Any]) -> Any:
    """``POST /api/infinity/roll`` (the server's dice cache cleared first, in this process)."""
    _winning_rolls.cache_clear()
    response = client.post(f"{url}/api/infinity/roll", json=engagement)
    response.raise_for_status()
    return response.json()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15, help="runs of each timing (median)")
    args = parser.parse_args()
    with background(WebSettings()) as (url, _), httpx.Client(timeout=30) as client:
        endpoint(client, url, next(iter(rolls().values())))  # the server's first answer: warm
        menus_time = median_seconds(
            lambda: client.get(f"{url}/api/infinity/menus").raise_for_status(), args.repeat
        )
        print(f"GET /api/infinity/menus: {menus_time * 1000:7.2f} ms")
        for name, engagement in rolls().items():
            ours = median_seconds(lambda e=engagement: in_process(e), args.repeat)
            served = median_seconds(lambda e=engagement: endpoint(client, url, e), args.repeat)
            verdict = "within" if served * 1000 <= GOAL_MS else "OVER"
            print(
                f"{name:45}: in-process {ours * 1000:7.2f} ms, POST /api/infinity/roll"
                f" {served * 1000:7.2f} ms ({served / ours:4.2f}x the in-process call),"
                f" {verdict} the {GOAL_MS} ms goal"
            )


if __name__ == "__main__":
    main()
