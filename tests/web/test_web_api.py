"""The JSON API: the command line's answers over HTTP, and 4xx (never 500) for bad input."""

from __future__ import annotations

import doctest
import json
from pathlib import Path
from typing import Any

import pytest
from contract import assert_error

from web.endpoints import api_routes, json_body_paths, scenario_paths

pytest.importorskip("fastapi", reason="the web extra is not installed (pip install .[web])")

import yaml
from fastapi.testclient import TestClient
from pydantic import ValidationError
from typer.testing import CliRunner

import allocator.web.app
import allocator.web.errors
import allocator.web.guards
import allocator.web.server
import allocator.web.settings
import allocator.web.work
from allocator.cli.app import app as cli_app
from allocator.core.library import folder
from allocator.core.limits import Limits, default_limits
from allocator.core.reader import read_file as read_data
from allocator.games.crossfire import service
from allocator.games.crossfire.battle import battle_from_data
from allocator.web.app import create_app
from allocator.web.settings import WebSettings

SCENARIOS = sorted(
    p for p in (folder("scenarios")).iterdir() if p.suffix in {".yaml", ".yml", ".json"}
)
SEED = folder("scenarios") / "guide-2hmg-1squad-v-4.yaml"
LIMITS = Limits(max_stands_per_side=8, max_body_bytes=64 * 1024, max_values=2_000)
#: The address the test client names in its Host header (the server answers only to its own).
BASE_URL = "http://127.0.0.1:8000"


APP = create_app(WebSettings(limits=LIMITS))
#: The endpoints whose body is a scenario, and those that take any JSON body.
SCENARIO_PATHS = scenario_paths(APP)
JSON_BODY_PATHS = json_body_paths(APP)


@pytest.fixture(scope="module")
def client() -> TestClient:
    """The app with small limits; a defect raises in the test instead of answering 500."""
    return TestClient(APP, base_url=BASE_URL)


@pytest.fixture
def seed() -> dict[str, Any]:
    return read_data(SEED)


def big_force(count: int) -> dict[str, Any]:
    return {
        "units": [{"id": "coy", "kind": "company"}],
        "stands": [{"id": f"a{i}", "type": "rifle", "unit": "coy"} for i in range(count)],
    }


# ------------------------------------------------------------------ page, docs, shipped scenarios


def test_page_and_its_files_are_served(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert "text/html" in page.headers["content-type"]
    assert "default-src 'self'" in page.headers["content-security-policy"]
    for path in ("/static/app.js", "/static/style.css"):
        assert client.get(path).status_code == 200


def test_openapi_documents_every_endpoint(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    documented = {(m.upper(), path) for path, methods in paths.items() for m in methods}
    assert documented == set(api_routes(APP))
    assert {"/api/check", "/api/board"} <= set(SCENARIO_PATHS)
    assert {"/api/solve", "/api/simulate"} <= set(JSON_BODY_PATHS) - set(SCENARIO_PATHS)


def test_every_json_answer_is_documented_with_its_fields(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    schemas = spec["components"]["schemas"]

    def resolve(schema: dict[str, Any]) -> dict[str, Any]:
        if "$ref" in schema:
            return resolve(schemas[schema["$ref"].removeprefix("#/components/schemas/")])
        if schema.get("type") == "array":
            return resolve(schema["items"])
        return schema

    operations = [(p, m, op) for p, methods in spec["paths"].items() for m, op in methods.items()]
    assert len(operations) == len(api_routes(APP))
    for path, method, operation in operations:
        answers = operation["responses"]
        answer = resolve(answers["200"]["content"]["application/json"]["schema"])
        # every field is documented; a parsed document is a mapping of any JSON values
        assert answer.get("properties") or answer.get("additionalProperties"), (method, path)
        refusals = [status for status in answers if status.startswith("4")]
        assert refusals, (method, path)
        for status in refusals:
            error = resolve(answers[status]["content"]["application/json"]["schema"])
            assert set(error["properties"]) == {"error", "errors"}, (method, path, status)


def test_scenario_list_names_every_shipped_file(client: TestClient) -> None:
    listing = client.get("/api/scenarios").json()
    assert [item["name"] for item in listing] == [p.stem for p in SCENARIOS]
    assert all(set(item) == {"name", "title", "expect"} for item in listing)


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_every_shipped_scenario_is_served_drawn_and_checked(client: TestClient, path: Path) -> None:
    data = client.get(f"/api/scenarios/{path.stem}").json()
    assert data == json.loads(json.dumps(read_data(path)))
    forces = client.post("/api/board", json=data)
    assert forces.status_code == 200
    check = client.post("/api/check", json=data)
    assert check.status_code == 200
    assert check.json() == service.check_answer(battle_from_data(data)).to_json()


def test_check_answers_what_the_command_line_prints(client: TestClient) -> None:
    printed = CliRunner().invoke(cli_app, ["check", str(SEED), "--json"])
    assert json.loads(printed.stdout) == client.post("/api/check", json=read_data(SEED)).json()


def test_unknown_scenario_is_404(client: TestClient) -> None:
    assert_error(client.get("/api/scenarios/no-such-fight"), 404, "name")


def test_board_expands_the_stands_of_both_sides(client: TestClient, seed: dict[str, Any]) -> None:
    forces = client.post("/api/board", json=seed).json()
    assert forces["building"] == {"name": "Town house", "capacity": 3}
    assert [s["id"] for s in forces["defender"]] == ["d1", "h1", "h2"]
    hmg = forces["defender"][1]
    assert (hmg["type"], hmg["unit"], hmg["role"]) == ("hmg", "1coy", "weapon")


def test_check_takes_a_partial_allocation(client: TestClient, seed: dict[str, Any]) -> None:
    seed["allocation"] = {"combats": {"A": ["d1", "h1", "h2"]}}
    report = client.post("/api/check", json=seed).json()
    assert not report["legal"]
    assert {v["rule"] for v in report["violations"]} == {"2b"}


# ------------------------------------------------------------------ bad input: 4xx, never 500


def test_malformed_json_is_400_naming_the_line(client: TestClient) -> None:
    response = client.post(
        "/api/check", content=b'{"defender": ', headers={"content-type": "application/json"}
    )
    assert "not valid JSON" in assert_error(response, 400, "line 1, column 14")["problem"]


@pytest.mark.parametrize(
    ("change", "place"),
    [
        (lambda s: s.update(colour="red"), "colour"),
        (lambda s: s["defender"]["stands"][0].update(armour=2), "defender.stands[0].armour"),
        (lambda s: s["defender"]["stands"][0].update(type="tank"), "defender.stands[0].type"),
        (lambda s: s["defender"]["stands"][0].update(unit="9plt"), "defender.stands[0].unit"),
        (lambda s: s["allocation"]["combats"]["A"].append("x9"), "allocation.combats.A[2]"),
        (lambda s: s.update(ruleset="../../etc/house.yaml"), "ruleset"),
        (lambda s: s["attacker"].update(organisation="/tmp/x"), "attacker.organisation"),
    ],
    ids=[
        "unknown-field",
        "unknown-stand-field",
        "bad-stand-type",
        "dangling-unit",
        "dangling-stand",
        "ruleset-path",
        "organisation-path",
    ],
)
def test_bad_scenario_is_422_naming_the_place(
    client: TestClient, seed: dict[str, Any], change: Any, place: str
) -> None:
    change(seed)
    for path in SCENARIO_PATHS:
        assert_error(client.post(path, json=seed), 422, place)


@pytest.mark.parametrize("body", [[], "text", 3, None], ids=["list", "string", "number", "null"])
def test_a_body_that_is_no_scenario_is_4xx(client: TestClient, body: Any) -> None:
    for path in JSON_BODY_PATHS:
        response = client.post(path, json=body)
        assert 400 <= response.status_code < 500, (path, response.text)
        assert "error" in response.json()


@pytest.mark.parametrize(
    "body",
    [
        {"side": "attacker"},
        {"scenario": {}, "side": "north"},
        {"scenario": {}, "side": "attacker", "objective": "glory"},
        {"scenario": {}, "side": "attacker", "extra": 1},
        {"scenario": {}, "side": "attacker", "objective": "take", "rounds": 0},
        {"scenario": {}, "side": "attacker", "objective": "take", "rounds": 10**6},
    ],
    ids=["no-scenario", "bad-side", "bad-objective", "unknown-field", "no-rounds", "rounds"],
)
def test_bad_solve_request_is_422_listing_every_problem(client: TestClient, body: Any) -> None:
    response = client.post("/api/solve", json=body)
    assert_error(response, 422)
    assert response.json()["errors"]


def test_simulate_needs_an_integer_seed(client: TestClient, seed: dict[str, Any]) -> None:
    response = client.post("/api/simulate", json={"scenario": seed, "seed": "lucky"})
    assert_error(response, 422, "body.seed")


def test_a_force_over_the_limit_is_413_naming_the_limit(
    client: TestClient, seed: dict[str, Any]
) -> None:
    seed["attacker"] = big_force(LIMITS.max_stands_per_side + 1)
    seed.pop("allocation")
    error = assert_error(
        client.post("/api/solve", json={"scenario": seed, "side": "defender"}), 413, "attacker"
    )
    assert "over the limit of 8" in error["problem"]
    assert "CFALLOC_MAX_STANDS_PER_SIDE" in error["problem"]
    for path in SCENARIO_PATHS:
        assert_error(client.post(path, json=seed), 413, "attacker")
    simulate = client.post("/api/simulate", json={"scenario": seed, "seed": 1})
    assert_error(simulate, 413, "attacker")


def test_body_over_the_limit_is_413(client: TestClient) -> None:
    padding = {"description": "x" * LIMITS.max_body_bytes}
    assert_error(client.post("/api/check", json=padding), 413, "body")


def test_streamed_body_over_the_limit_is_413(client: TestClient) -> None:
    chunks = iter([b'{"description": "', b"x" * LIMITS.max_body_bytes, b'"}'])
    response = client.post(
        "/api/check", content=chunks, headers={"content-type": "application/json"}
    )
    assert_error(response, 413, "body")


# ------------------------------------------------------------------ pasted text: /api/parse


def test_parse_reads_yaml_and_json(client: TestClient) -> None:
    text = SEED.read_text(encoding="utf-8")
    assert client.post("/api/parse", content=text).json() == yaml.safe_load(text)
    as_json = json.dumps(yaml.safe_load(text))
    assert client.post("/api/parse", content=as_json).json() == yaml.safe_load(text)


@pytest.mark.parametrize(
    ("text", "status", "place"),
    [
        ("defender: [\n  d1", 422, "line 3, column 1"),
        ("", 422, "body"),
        ("- just\n- a list", 422, "body"),
        ("a: !!python/object/apply:os.system [ls]", 422, "line 1, column 4"),
        ("a: !!binary aGVsbG8=", 422, "line 1, column 4"),
        ("a: b\x00", 422, "line 1"),
        ("a: &a [*a]", 422, "line 1, column 8"),
        (
            "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
            "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c]",
            413,
            "line 4, column 9",
        ),
        ("[" * 5000, 413, "body"),
        ("a: [" + "[" * 40 + "]" * 40 + "]", 413, "line 1, column 35"),
        ('title: "\\ud800"', 422, None),
        ("title: " + "x" * 20_000, 413, "line 1, column 8"),
    ],
    ids=[
        "yaml-error",
        "empty",
        "not-a-mapping",
        "python-tag",
        "binary-tag",
        "nul",
        "recursive",
        "alias-bomb",
        "deep-json",
        "deep-yaml",
        "surrogate",
        "long-text",
    ],
)
def test_parse_refuses_bad_text(
    client: TestClient, text: str, status: int, place: str | None
) -> None:
    assert_error(client.post("/api/parse", content=text), status, place)


def test_parse_refuses_bytes_that_are_not_utf8(client: TestClient) -> None:
    error = assert_error(client.post("/api/parse", content=b"title: \xff\xfe"), 422, "body")
    assert "not UTF-8" in error["problem"]


# ------------------------------------------------------------------ solve, explain, simulate


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_every_shipped_scenario_solves_or_says_why_not(client: TestClient, path: Path) -> None:
    data = read_data(path)
    for side in ("defender", "attacker"):
        response = client.post("/api/solve", json={"scenario": data, "side": side})
        if response.status_code != 200:
            assert_error(response, 422)
            continue
        answer = response.json()
        assert answer["side"] == side and answer["objective"] == "take"  # the default
        assert answer["status"] in {"optimal", "feasible"}
        assert 0 <= answer["value"] <= 1
        for combat in answer["combats"]:
            assert 0 <= combat["p_attacker_wins"] <= 1


@pytest.mark.parametrize(
    ("objective", "rounds"), [("sweep", None), ("exchange", None), ("take", None), ("take", 1)]
)
def test_solve_answers_what_the_command_line_prints(
    client: TestClient, objective: str, rounds: int | None
) -> None:
    body = {"scenario": read_data(SEED), "side": "defender", "objective": objective}
    options = ["--side", "defender", "--objective", objective, "--json"]
    if rounds is not None:
        body["rounds"] = rounds
        options += ["--rounds", str(rounds)]
    answer = client.post("/api/solve", json=body).json()
    printed = CliRunner().invoke(cli_app, ["solve", str(SEED), *options])
    assert answer == json.loads(printed.stdout)


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_every_shipped_scenario_is_explained(client: TestClient, path: Path) -> None:
    data = read_data(path)
    response = client.post("/api/explain", json=data)
    assert response.status_code in (200, 422), response.text
    if response.status_code == 200:
        assert response.json() == json.loads(
            json.dumps(service.explain_answer(battle_from_data(data)).to_json())
        )


@pytest.mark.parametrize("objective", [None, "sweep", "exchange", "take"])
def test_explain_walks_the_line_of_the_aim_asked(client: TestClient, objective: str | None) -> None:
    """As `cfalloc explain --objective O` (by default take, as on the command line)."""
    path = folder("scenarios") / "fight-together-or-apart.yaml"
    query = "" if objective is None else f"?objective={objective}"
    response = client.post(f"/api/explain{query}", json=read_data(path))
    assert response.status_code == 200, response.text
    options = [] if objective is None else ["--objective", objective]
    printed = CliRunner().invoke(cli_app, ["explain", str(path), *options, "--json"])
    assert response.json() == json.loads(printed.stdout)
    assert response.json()["objective"] == (objective or "take")


def test_explain_refuses_an_aim_it_does_not_know(client: TestClient, seed: dict[str, Any]) -> None:
    error = assert_error(client.post("/api/explain?objective=hold", json=seed), 422)
    assert "objective" in (error["place"] or "")


def test_simulate_with_a_seed_repeats_the_same_dice(
    client: TestClient, seed: dict[str, Any]
) -> None:
    first = client.post("/api/simulate", json={"scenario": seed, "seed": 7})
    assert first.status_code == 200, first.text
    assert first.json() == client.post("/api/simulate", json={"scenario": seed, "seed": 7}).json()
    assert first.json() == json.loads(
        json.dumps(service.simulate_answer(battle_from_data(seed), seed=7).to_json())
    )


# ------------------------------------------------------------------ settings


def test_settings_bind_to_loopback_and_share_the_command_line_limits() -> None:
    settings = WebSettings()
    assert (settings.host, settings.port) == ("127.0.0.1", 8000)
    assert settings.limits == default_limits()
    assert settings.solve_time_limit == 10.0


def test_settings_refuse_a_time_limit_over_the_shared_limit() -> None:
    with pytest.raises(ValidationError, match="CFALLOC_MAX_TIME_LIMIT"):
        WebSettings(limits=Limits(max_time_limit=5), solve_time_limit=6)


@pytest.mark.parametrize("name", ["a b", "*", "*.", "[zz]", "a..b", "x" * 70, "[/x]"])
def test_settings_refuse_a_name_that_no_host_header_carries(name: str) -> None:
    with pytest.raises(ValidationError, match="not a host name"):
        WebSettings(allowed_hosts=(name,))


def test_settings_write_allowed_names_as_host_headers_do() -> None:
    names = WebSettings(allowed_hosts=("Club.LAN", "::1", "*.Example.org")).allowed_hosts
    assert names == ("club.lan", "[::1]", "*.example.org")


@pytest.mark.parametrize(
    "module",
    [
        allocator.web.app,
        allocator.web.errors,
        allocator.web.guards,
        allocator.web.server,
        allocator.web.settings,
        allocator.web.work,
    ],
)
def test_docstring_examples(module: Any) -> None:
    result = doctest.testmod(module)
    assert result.failed == 0 and result.attempted > 0


def test_api_docs_are_served_without_a_cdn(client: TestClient) -> None:
    """Swagger UI 5, which reads the OpenAPI 3.1 of /openapi.json (tests/web/test_web_page_docs.py
    opens it in Chromium)."""
    page = client.get("/docs")
    assert page.status_code == 200
    assert "/docs-assets/swagger-ui-bundle.js" in page.text
    assert "cdn" not in page.text.lower() and "validatorUrl" in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]
    bundle = client.get("/docs-assets/swagger-ui-bundle.js")
    assert bundle.status_code == 200 and '"5.' in bundle.text
    assert client.get("/docs-assets/swagger-ui.css").status_code == 200
    spec = client.get("/openapi.json").json()
    assert spec["info"]["title"] == "cfalloc" and spec["openapi"].startswith("3.1")


def test_redoc_is_not_served(client: TestClient) -> None:
    """One viewer of the API is enough: Swagger UI at /docs."""
    assert_error(client.get("/redoc"), 404, "path")


@pytest.mark.parametrize(
    "profile, place, problem",
    [
        ("crossfire", "profile", "crossfire is the scenario's own ruleset"),
        ("no-such-rules", "profile", "no shipped Crossfire ruleset 'no-such-rules'"),
        ("crossfire:ties=odd", "profile.ties", "ties"),
        ("crossfire:glory=1", "profile.glory", "unknown ruleset value 'glory'"),
        ("../../etc/passwd", "profile", "is a path; here only shipped names are accepted"),
    ],
    ids=["own", "unknown", "bad-value", "unknown-value", "a-path"],
)
def test_a_bad_compare_profile_is_422_naming_it(
    client: TestClient, seed: dict[str, Any], profile: str, place: str, problem: str
) -> None:
    response = client.post("/api/compare", json={"scenario": seed, "profile": profile})
    assert problem in assert_error(response, 422, place)["problem"]


def test_compare_sets_the_house_rule_beside_the_scenarios_own(
    client: TestClient, seed: dict[str, Any]
) -> None:
    seed.pop("allocation")
    response = client.post(
        "/api/compare", json={"scenario": seed, "profile": "crossfire:ties=defender"}
    )
    assert response.status_code == 200, response.text
    answer = response.json()
    assert [p["name"] for p in answer["profiles"]] == ["crossfire", "crossfire:ties=defender"]
    assert [(c["key"], c["values"]) for c in answer["changed"]][:1] == [
        ("ties", {"crossfire": "reroll", "crossfire:ties=defender": "defender"})
    ]
