"""What the API serves so that the page copies no rule: the objectives' names and words and the
default objective (``/api/terms``), the bounds of a rating from their one home, and the stands
still to place (``/api/check``)."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed (pip install .[web])")

from fastapi.testclient import TestClient

from allocator.core.library import folder
from allocator.core.reader import read_file
from allocator.games.crossfire.objectives import DEFAULT_OBJECTIVE, OBJECTIVES
from allocator.games.crossfire.schema import RATINGS
from allocator.web.app import create_app
from allocator.web.settings import WebSettings


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(WebSettings()), base_url="http://127.0.0.1:8000")


def test_terms_serve_every_objective_with_its_words(client: TestClient) -> None:
    terms = client.get("/api/terms").json()
    assert [o["name"] for o in terms["objectives"]] == list(OBJECTIVES)
    assert terms["default_objective"] == DEFAULT_OBJECTIVE.name == "take"
    for served in terms["objectives"]:
        objective = OBJECTIVES[served["name"]]
        assert served == {
            "name": objective.name,
            "title": objective.title,
            "words": objective.words,
            "label": objective.label,
            "unit": objective.unit,
            "whole_fight": not objective.one_round,
        }


def test_the_bounds_of_a_rating_are_served_from_their_one_home(client: TestClient) -> None:
    rating = client.get("/api/terms").json()["fields"]["rating"]
    assert (rating["minimum"], rating["maximum"]) == RATINGS


def test_solve_and_explain_take_the_building_by_default(client: TestClient) -> None:
    scenario = read_file(folder("scenarios") / "fight-together-or-apart.yaml")
    solved = client.post("/api/solve", json={"scenario": scenario, "side": "defender"}).json()
    explained = client.post("/api/explain", json=scenario).json()
    assert solved["objective"] == explained["objective"] == "take"
    assert solved["value_exact"] == explained["fight"]["p_attacker_takes"] == "319/512"


def test_check_names_the_attacking_squads_still_to_place_not_the_gun(client: TestClient) -> None:
    scenario = read_file(folder("scenarios") / "rule-4d-pass.yaml")
    scenario["allocation"]["attack"] = {"A": ["jp-1plt-sq1"]}
    answer = client.post("/api/check", json=scenario).json()
    assert answer["legal"] is False
    assert answer["still_to_place"] == ["jp-bn-jhmg1"]
    scenario["allocation"] = {"combats": {"A": ["us-1plt-sq1"]}}
    assert client.post("/api/check", json=scenario).json()["still_to_place"] == ["us-1plt-sq2"]
