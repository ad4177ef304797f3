"""Every endpoint's answer is its declared model: valid against the schema ``/openapi.json``
documents for it, against the committed schema of models/schema/ where there is one, and the
same JSON as the command line's ``--json`` for the same input.

The endpoints are taken from ``app.routes``: an endpoint without requests here fails
:func:`test_every_endpoint_has_requests`.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed (pip install .[web])")
import jsonschema
from fastapi import FastAPI
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from allocator.cli.app import app as cli_app
from allocator.core.library import folder
from allocator.core.reader import read_file
from allocator.games import format_model, formats
from allocator.web.app import create_app
from web.endpoints import api_routes

ROOT = Path(__file__).resolve().parents[2]
SEED = folder("scenarios") / "guide-2hmg-1squad-v-4.yaml"
UNALLOCATED = folder("scenarios") / "fight-together-or-apart.yaml"
BASE_URL = "http://127.0.0.1:8000"


def seed(allocation: Any = ...) -> dict[str, Any]:
    """The guide's example, with another allocation (None: without one)."""
    data: dict[str, Any] = read_file(SEED)
    if allocation is None:
        del data["allocation"]
    elif allocation is not ...:
        data["allocation"] = allocation
    return data


#: Requests to every endpoint, by (method, path): what the test client sends.
REQUESTS: dict[tuple[str, str], list[dict[str, Any]]] = {
    ("POST", "/api/check"): [
        {"json": seed()},
        {"json": seed({"combats": {"A": ["d1", "h1", "h2"]}})},
        {"json": seed({"combats": {"A": ["d1", "h1"], "B": ["h2"]}})},
        {"json": seed(None)},
    ],
    ("POST", "/api/explain"): [
        {"json": seed()},
        {"json": seed(None), "params": {"objective": "sweep"}},
        {"json": read_file(UNALLOCATED)},
    ],
    ("POST", "/api/solve"): [
        {"json": {"scenario": seed(None), "side": "defender"}},
        {"json": {"scenario": read_file(UNALLOCATED), "side": "attacker", "objective": "take"}},
        {"json": {"scenario": seed(None), "side": "attacker", "objective": "exchange"}},
    ],
    ("POST", "/api/simulate"): [{"json": {"scenario": seed(), "seed": 7}}],
    ("POST", "/api/play"): [{"json": {"scenario": seed(), "dice": {"A": "4-3", "B": "1-5"}}}],
    ("POST", "/api/plan"): [
        {"json": {"scenario": read_file(UNALLOCATED), "side": "attacker", "target": "11/20"}},
        {"json": {"scenario": read_file(UNALLOCATED), "side": "defender"}},
    ],
    ("POST", "/api/compare"): [
        {"json": {"scenario": read_file(UNALLOCATED), "profile": "crossfire:ties=defender"}},
    ],
    ("POST", "/api/parse"): [{"content": SEED.read_text(encoding="utf-8")}],
    ("GET", "/api/scenarios"): [{}],
    ("GET", "/api/scenarios/{name}"): [{"name": SEED.stem}, {"name": UNALLOCATED.stem}],
    ("GET", "/api/terms"): [{}],
    ("GET", "/api/organisations"): [{}],
    ("GET", "/api/organisations/{name}"): [{"name": "german-rifle-company"}],
    ("GET", "/api/profiles"): [{}],
    ("POST", "/api/board"): [{"json": seed()}, {"json": read_file(UNALLOCATED)}],
    ("POST", "/api/scenario-yaml"): [{"json": seed()}],
    ("GET", "/api/infinity/menus"): [{}],
    ("POST", "/api/infinity/roll"): [
        {"json": read_file(folder("scenarios") / "infinity" / name)}
        for name in ("martial-arts.yaml", "berserk.yaml", "melee.yaml")
    ],
}
#: The command line's runs that answer what an endpoint answers for the same request.
SAME_AS_COMMAND = {
    ("POST", "/api/check"): lambda path, body, params: ["check", path],
    ("POST", "/api/explain"): lambda path, body, params: ["explain", path, *objective(params)],
    ("POST", "/api/solve"): lambda path, body, params: [
        "solve",
        path,
        "--side",
        body["side"],
        *(["--objective", body["objective"]] if "objective" in body else []),  # same default
    ],
    ("POST", "/api/simulate"): lambda path, body, params: ["simulate", path, "--seed", "7"],
    ("POST", "/api/play"): lambda path, body, params: [
        "play",
        path,
        "--dice",
        ",".join(f"{name}:{dice}" for name, dice in body["dice"].items()),
    ],
    ("POST", "/api/plan"): lambda path, body, params: [
        "plan",
        path,
        "--side",
        body["side"],
        *(["--target", body["target"]] if "target" in body else []),
    ],
    ("POST", "/api/compare"): lambda path, body, params: [
        "compare",
        path,
        "--profile",
        "crossfire",
        "--profile",
        body["profile"],
    ],
}


def objective(params: dict[str, str] | None) -> list[str]:
    return ["--objective", params["objective"]] if params else []


@pytest.fixture(scope="module")
def app() -> FastAPI:
    return create_app()


@pytest.fixture(scope="module")
def client(app: FastAPI) -> TestClient:
    return TestClient(app, base_url=BASE_URL)


def call(client: TestClient, method: str, path: str, request: dict[str, Any]) -> Any:
    request = dict(request)
    url = path.replace("{name}", request.pop("name", ""))
    response = client.request(method, url, **request)
    assert response.status_code == 200, (method, url, response.text)
    return response.json()


@cache
def committed(name: str) -> Any:
    schema = json.loads((ROOT / "models" / "schema" / f"{name}.schema.json").read_text("utf-8"))
    return jsonschema.Draft202012Validator(schema)


def documented(spec: dict[str, Any], method: str, path: str) -> Any:
    """A validator of the answer ``/openapi.json`` documents for an endpoint (its references
    resolved in the document's components)."""
    answer = spec["paths"][path][method.lower()]["responses"]["200"]["content"]["application/json"]
    schema = {**answer["schema"], "components": spec["components"]}
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def problems(validator: Any, answer: Any) -> list[str]:
    return [
        f"{'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message}"
        for e in validator.iter_errors(answer)
    ]


def test_every_endpoint_has_requests(app: FastAPI) -> None:
    assert sorted(api_routes(app)) == sorted(REQUESTS)


def test_every_endpoint_declares_a_documented_answer(app: FastAPI) -> None:
    spec = app.openapi()
    for (method, path), route in api_routes(app).items():
        assert route.response_model is not None, (method, path)
        operation = spec["paths"][path][method.lower()]
        assert "200" in operation["responses"], (method, path)
        assert any(status.startswith("4") for status in operation["responses"]), (method, path)


CASES = [(key, i) for key, requests in REQUESTS.items() for i in range(len(requests))]


@pytest.mark.parametrize(("key", "index"), CASES, ids=[f"{m} {p} {i}" for (m, p), i in CASES])
def test_every_answer_obeys_its_documented_and_committed_schemas(
    app: FastAPI, client: TestClient, key: tuple[str, str], index: int
) -> None:
    method, path = key
    answer = call(client, method, path, REQUESTS[key][index])
    assert problems(documented(app.openapi(), method, path), answer) == []
    model = api_routes(app)[key].response_model
    named = [name for name in formats() if format_model(name) is model]
    for name in named:
        assert problems(committed(name), answer) == [], name
    answers_of_commands = {
        "/api/check",
        "/api/explain",
        "/api/solve",
        "/api/simulate",
        "/api/play",
        "/api/plan",
        "/api/compare",
    }
    formats_served = {"/api/scenarios/{name}", "/api/infinity/menus"}
    assert bool(named) == (path in answers_of_commands or path in formats_served)


@pytest.mark.parametrize("key", sorted(SAME_AS_COMMAND), ids=" ".join)
def test_the_answer_is_what_the_command_line_prints(
    client: TestClient, tmp_path: Path, key: tuple[str, str]
) -> None:
    for request in REQUESTS[key]:
        body = request["json"]
        scenario = body.get("scenario", body)
        file = tmp_path / "scenario.json"
        file.write_text(json.dumps(scenario), encoding="utf-8")
        args = SAME_AS_COMMAND[key](str(file), body, request.get("params"))
        result = CliRunner().invoke(cli_app, [*args, "--json"])
        assert result.exit_code in (0, 1), result.output
        assert call(client, *key, request) == json.loads(result.stdout), args


def test_a_shipped_scenario_is_served_and_listed_as_in_its_file(client: TestClient) -> None:
    listing = {e["name"]: e for e in call(client, "GET", "/api/scenarios", {})}
    for path in sorted(folder("scenarios").glob("*.yaml")):
        data = json.loads(json.dumps(read_file(path)))
        served = call(client, "GET", "/api/scenarios/{name}", {"name": path.stem})
        assert served == data, path.stem
        entry = {"name": path.stem, "title": data.get("title"), "expect": data.get("expect")}
        assert listing[path.stem] == entry


def test_parse_answers_the_document_as_it_is(client: TestClient) -> None:
    """Not a scenario yet: unknown keys come back as they were (/api/board refuses them)."""
    answer = call(client, "POST", "/api/parse", {"content": "colour: red\nn: [1, 2.5, true]\n"})
    assert answer == {"colour": "red", "n": [1, 2.5, True]}


@pytest.mark.parametrize(
    ("text", "data"),
    [
        ("1: a", {"1": "a"}),
        ("on: yes", {"true": True}),
        ("a: {2.5: b, null: c}", {"a": {"2.5": "b", "null": "c"}}),
        ("title: 2024-01-01", {"title": "2024-01-01"}),
    ],
    ids=["number-key", "yes-key", "nested-keys", "date"],
)
def test_parse_writes_keys_that_are_no_text_as_json_does(
    client: TestClient, text: str, data: Any
) -> None:
    assert call(client, "POST", "/api/parse", {"content": text}) == data
