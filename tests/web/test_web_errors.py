"""The web API's error body: every problem listed, as ``cfalloc ... --json`` lists them, and strict
request fields (no true/false or text for a number)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from contract import assert_error

pytest.importorskip("fastapi", reason="the web extra is not installed (pip install .[web])")

import jsonschema
from fastapi.testclient import TestClient

from allocator.core.library import folder
from allocator.web.app import create_app
from allocator.web.settings import WebSettings

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "data" / "hostile"
ERROR_SCHEMA = json.loads((ROOT / "models" / "schema" / "error-answer.schema.json").read_text())
BASE: dict[str, Any] = yaml.safe_load(
    (folder("scenarios") / "guide-2hmg-1squad-v-4.yaml").read_text("utf-8")
)


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(WebSettings()), base_url="http://127.0.0.1:8000")


def errors_of(response: Any, status: int = 422) -> list[dict[str, Any]]:
    """Every problem of a refusal, its body checked against the committed error schema."""
    assert_error(response, status)
    jsonschema.Draft202012Validator(ERROR_SCHEMA).validate(response.json())
    errors: list[dict[str, Any]] = response.json()["errors"]
    return errors


def corpus(name: str) -> Any:
    return yaml.safe_load((CORPUS / name).read_text("utf-8"))


@pytest.mark.parametrize("path", ["/api/check", "/api/board", "/api/explain"])
def test_a_typo_is_named_with_the_key_it_should_be(client: TestClient, path: str) -> None:
    errors = errors_of(client.post(path, json=corpus("typo-at-the-top.yaml")))
    assert [(e["place"], e["kind"], e["suggestion"]) for e in errors] == [
        ("defnder", "extra_forbidden", "defender"),
        ("defender", "missing", None),
    ]


def test_every_problem_of_a_scenario_is_listed(client: TestClient) -> None:
    errors = errors_of(client.post("/api/check", json=corpus("many-problems.yaml")))
    assert len(errors) == 5 and errors[3]["suggestion"] == "type"


def test_a_typo_in_a_house_rule_is_named_too(client: TestClient) -> None:
    [error] = errors_of(client.post("/api/check", json=corpus("typo-in-a-ruleset-override.yaml")))
    assert (error["place"], error["suggestion"]) == ("ruleset.overrides.sqad", "squad")


def test_a_stand_repeated_ten_thousand_times_is_one_short_refusal(client: TestClient) -> None:
    scenario = {**BASE, "allocation": {"combats": {"A": ["d1"] * 10_000 + ["h1"], "B": ["h2"]}}}
    response = client.post("/api/check", json=scenario)
    [error] = errors_of(response)
    assert error["place"] == "allocation.combats.A[1]" and "10,000 times" in error["problem"]
    assert len(response.content) < 1000


def test_twenty_thousand_empty_combats_are_one_short_refusal(client: TestClient) -> None:
    combats = {f"C{i}": [] for i in range(20_000)}
    response = client.post("/api/check", json={**BASE, "allocation": {"combats": combats}})
    [error] = errors_of(response)
    assert error["place"] == "allocation.combats" and len(response.content) < 1000


@pytest.mark.parametrize(
    ("path", "fields", "place"),
    [
        ("/api/solve", {"side": "attacker", "objective": "take", "rounds": True}, "body.rounds"),
        ("/api/solve", {"side": "attacker", "objective": "take", "rounds": "2"}, "body.rounds"),
        ("/api/solve", {"side": "attacker", "objective": "take", "rounds": 2.5}, "body.rounds"),
        ("/api/simulate", {"seed": "5"}, "body.seed"),
        ("/api/simulate", {"seed": True}, "body.seed"),
        ("/api/solve", {"side": 1}, "body.side"),
    ],
    ids=["rounds-true", "rounds-text", "rounds-fraction", "seed-text", "seed-true", "side-number"],
)
def test_request_fields_are_strict(
    client: TestClient, path: str, fields: dict[str, Any], place: str
) -> None:
    errors = errors_of(client.post(path, json={"scenario": BASE, **fields}))
    assert errors[0]["place"] == place


@pytest.mark.parametrize(
    ("path", "fields"),
    [
        ("/api/solve", {"side": "attacker", "objective": "take", "rounds": 2}),
        ("/api/simulate", {"seed": 5}),
    ],
)
def test_numbers_as_numbers_are_taken(
    client: TestClient, path: str, fields: dict[str, Any]
) -> None:
    assert client.post(path, json={"scenario": BASE, **fields}).status_code == 200


def test_a_misspelt_request_field_is_named_with_the_field_it_should_be(client: TestClient) -> None:
    errors = errors_of(client.post("/api/solve", json={"scenario": BASE, "sidee": "attacker"}))
    assert [(e["place"], e["suggestion"]) for e in errors] == [
        ("body.sidee", "side"),
        ("body.side", None),
    ]


@pytest.mark.parametrize(
    ("method", "path", "body", "status"),
    [
        ("post", "/api/check", b"{", 400),
        ("get", "/api/scenarios/no-such", None, 404),
        ("get", "/api/check", None, 405),
        ("post", "/api/check?x=1", "text", 415),
    ],
)
def test_every_refusal_has_the_one_error_body(
    client: TestClient, method: str, path: str, body: Any, status: int
) -> None:
    headers = {"content-type": "application/json" if status != 415 else "text/plain"}
    response = client.request(method, path, content=body, headers=headers)
    [error] = errors_of(response, status)
    assert error["kind"] == "input"


def test_a_defect_is_500_in_the_one_error_body(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_: Any, **__: Any) -> Any:
        raise ZeroDivisionError

    monkeypatch.setattr("allocator.games.crossfire.service.check_answer", broken)
    client = TestClient(
        create_app(WebSettings()), base_url="http://127.0.0.1:8000", raise_server_exceptions=False
    )
    [error] = errors_of(client.post("/api/check", json=BASE), 500)
    assert error["kind"] == "internal" and "ZeroDivisionError" in error["problem"]
