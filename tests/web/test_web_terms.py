"""What /api/terms serves the page, each from its one source: the stages from the parts of an
allocation, the fields' defaults and bounds from the scenario's JSON Schema, the limits from the
server's settings, the rounding digits from the command line's."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed (pip install .[web])")

from fastapi.testclient import TestClient

from allocator.core.limits import Limits
from allocator.core.text import PERCENT_DIGITS, SIGNED_DIGITS
from allocator.games.crossfire.explain import PART_OF_STEP
from allocator.games.crossfire.rules import RULES, STEP_TITLES
from allocator.games.crossfire.schema import Building, Scenario, Stand, StandType
from allocator.web.app import create_app
from allocator.web.settings import WebSettings

LIMITS = Limits(max_stands_per_side=33)


@pytest.fixture(scope="module")
def terms() -> Any:
    client = TestClient(create_app(WebSettings(limits=LIMITS)), base_url="http://127.0.0.1")
    return client.get("/api/terms").json()


def test_the_stages_are_the_parts_of_an_allocation_in_order(terms: Any) -> None:
    stages = terms["stages"]
    assert [s["stage"] for s in stages] == [1, 2, 3]
    assert [s["part"] for s in stages] == list(dict.fromkeys(PART_OF_STEP.values()))
    for stage in stages:
        assert stage["steps"] == [n for n, part in PART_OF_STEP.items() if part == stage["part"]]
        assert str(stage["steps"][0]) in stage["procedure"]
    assert [s["side"] for s in stages] == ["defender", "attacker", "defender"]


def test_the_fields_are_what_the_scenario_schema_says(terms: Any) -> None:
    fields = terms["fields"]
    rating = Stand.model_json_schema()["properties"]["rating"]["anyOf"][0]
    assert (fields["rating"]["minimum"], fields["rating"]["maximum"]) == (
        rating["minimum"],
        rating["maximum"],
    )
    capacity = Building.model_fields["capacity"]
    assert fields["capacity"]["default"] == capacity.default == Building().capacity
    assert fields["building_name"]["default"] == Building().name
    assert fields["ruleset"]["default"] == Scenario.model_fields["ruleset"].default
    assert fields["surprise"]["description"] == Scenario.model_fields["surprise"].description
    assert fields["stand_type"]["default"] in {kind.value for kind in StandType}
    for field in fields.values():
        assert set(field["rules"]) <= set(RULES)
    assert fields["near"]["rules"] == ["5a"]


def test_the_limits_are_this_servers_and_the_digits_the_command_lines(terms: Any) -> None:
    assert terms["limits"] == LIMITS.model_dump(mode="json")
    assert terms["numbers"] == {"percent_digits": PERCENT_DIGITS, "signed_digits": SIGNED_DIGITS}


def test_the_steps_and_stand_types_are_the_rules(terms: Any) -> None:
    assert {s["step"]: s["title"] for s in terms["steps"]} == STEP_TITLES
    fights = {t["type"] for t in terms["stand_types"] if t["fights"]}
    assert fights == {"rifle", "smg", "engineer", "jhmg", "cc", "bc"}


def test_the_board_says_what_each_step_asks(terms: Any) -> None:
    client = TestClient(create_app(), base_url="http://127.0.0.1")
    scenario = client.get("/api/scenarios/guide-2hmg-1squad-v-4").json()
    board = client.post("/api/board", json=scenario).json()
    assert [s["step"] for s in board["steps"]] == list(STEP_TITLES)
    assert all(s["says"] for s in board["steps"])
    assert "(1a)" in board["steps"][1]["says"][0]
