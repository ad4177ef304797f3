"""``POST /api/play``: the dice rolled at the table (or rolled here) applied to a scenario's
allocation, the next round's scenario, to the end of the fight; bad dice are a 422 naming the
combat, never a 500."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed (pip install .[web])")
from fastapi.testclient import TestClient

from allocator.core.library import folder
from allocator.core.reader import read_file
from allocator.games.crossfire import service
from allocator.games.crossfire.battle import battle_from_data
from allocator.web.app import create_app

GUIDE = folder("scenarios") / "guide-2hmg-1squad-v-4.yaml"


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(), base_url="http://127.0.0.1:8000")


def guide() -> dict[str, Any]:
    data: dict[str, Any] = read_file(GUIDE)
    return data


def played(client: TestClient, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post("/api/play", json=body)
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def refused(client: TestClient, body: dict[str, Any], status: int = 422) -> dict[str, Any]:
    response = client.post("/api/play", json=body)
    assert response.status_code == status, response.text
    error: dict[str, Any] = response.json()["error"]
    return error


def test_the_table_dice_are_applied_and_the_fight_played_to_its_end(client: TestClient) -> None:
    first = played(client, {"scenario": guide(), "dice": {"A": "4-3", "B": "1-5"}})
    assert [c["winner"] for c in first["combats"]] == ["attacker", "defender"]
    assert first["over"] is False and first["fight"]["p_attacker_takes"] == "10/11"
    following = first["next_scenario"]
    assert following["round"] == 2
    best = service.solve_answer(battle_from_data(following), "defender").allocation
    following["allocation"] = best.model_dump(mode="json")
    last = played(client, {"scenario": following, "seed": 5})
    assert last["round"] == 2 and last["seed"] == 5 and last["over"] is True
    assert last["winner"] in ("attacker", "defender") and "next_scenario" not in last
    check = client.post("/api/check", json=first["next_scenario"])
    assert check.status_code == 200 and check.json()["legal"] is True


def test_dice_rolled_here_repeat_with_their_seed_as_simulate_rolls_them(
    client: TestClient,
) -> None:
    answer = played(client, {"scenario": guide(), "seed": 11})
    assert answer == played(client, {"scenario": guide(), "seed": 11})
    simulated = client.post("/api/simulate", json={"scenario": guide(), "seed": 11}).json()
    assert answer["combats"] == simulated["rounds"][0]["combats"]
    assert answer["removed"] == simulated["rounds"][0]["removed"]


@pytest.mark.parametrize(
    ("dice", "place", "problem"),
    [
        ({"A": "4-3", "B": "7-1"}, "dice", "combat B: 7 is not a face of a die"),
        ({"A": "4-3"}, "dice", "combat B has no dice"),
        ({"A": "4-3", "B": "1-5", "Q": "1-1"}, "dice", "there is no combat 'Q' this round"),
        ({"A": "4-3", "B": "one-five"}, "dice.B", "combat B: 'one-five' is not a roll"),
        ({"A": "4-3", "B": "2-5"}, "dice", "combat B: 2-5 is a tie (4 against 4)"),
        ({"A": "4-3", "B": "1" * 5000 + "-5"}, "dice.B", "combat B: '1111"),
    ],
)
def test_bad_dice_are_a_422_naming_the_combat(
    client: TestClient, dice: dict[str, str], place: str, problem: str
) -> None:
    error = refused(client, {"scenario": guide(), "dice": dice})
    assert error["place"] == place and problem in error["problem"]


@pytest.mark.parametrize(
    ("body", "place"),
    [
        ({"dice": {"A": 4}}, "body.dice.A"),
        ({"dice": {"A": ""}}, "body.dice.A"),
        ({"dice": ["4-3"]}, "body.dice"),
        ({"seed": "7"}, "body.seed"),
        ({"seed": -1}, "body.seed"),
        ({"rounds": 2}, "body.rounds"),
        ({"dice": {"A": "4-3", "B": "1-5"}, "seed": 3}, "seed"),
    ],
)
def test_the_body_is_strict(client: TestClient, body: dict[str, Any], place: str) -> None:
    assert refused(client, {"scenario": guide(), **body})["place"] == place


def test_a_scenario_without_a_complete_allocation_is_refused(client: TestClient) -> None:
    scenario = guide()
    del scenario["allocation"]
    error = refused(client, {"scenario": scenario, "seed": 1})
    assert error["place"] == "allocation" and "no complete allocation" in error["problem"]
    broken = read_file(folder("scenarios") / "guide-2hmg-1squad-v-4-both-pair.yaml")
    assert "breaks rule" in refused(client, {"scenario": broken, "seed": 1})["problem"]
