"""The Infinity calculator's API: ``GET /api/infinity/menus`` is the profiles' menus, and
``POST /api/infinity/roll`` answers what ``cfalloc resolve infinity --json`` prints for the same
troopers, with what the page shows of it; hostile bodies get a 4xx naming the place, never a
5xx; the page itself is served with its files."""

from __future__ import annotations

import doctest
import json
import posixpath
import re
from pathlib import Path, PurePosixPath
from typing import Any

import pytest
from contract import assert_error

pytest.importorskip("fastapi", reason="the web extra is not installed (pip install .[web])")

import jsonschema
from fastapi.testclient import TestClient
from typer.testing import CliRunner

import allocator.web.infinity
from allocator.cli.app import app as cli_app
from allocator.core.limits import Limits
from allocator.games.infinity.calculator import menus
from allocator.web.app import create_app
from allocator.web.settings import WebSettings

ROOT = Path(__file__).resolve().parents[2]
BASE_URL = "http://127.0.0.1:8000"
LIMITS = Limits(max_body_bytes=16 * 1024, max_depth=8, max_burst=24)
#: Troopers of every kind the page sends: N4 and N5, skills, ammunition, wounds, PH damage.
ENGAGEMENTS: list[dict[str, Any]] = [
    {"active": {"attribute": 12}, "reactive": {"attribute": 12}},
    {
        "rules": "n5",
        "active": {
            "name": "swordsman",
            "attribute": 21,
            "ps": 8,
            "ammunition": "DA",
            "vita": 2,
            "skills": {"martial_arts": 3, "immunity": ["shock"]},
        },
        "reactive": {
            "attribute": 17,
            "ps": 8,
            "armour": 1,
            "vita": 2,
            "wounds_taken": 1,
            "traits": ["continuous"],
            "skills": {"natural_born_warrior": True, "dogged": True, "berserk": 3},
        },
    },
    {
        "rules": "n4",
        "active": {
            "attribute": 13,
            "damage": "PH",
            "ph": 14,
            "ammunition": "AP",
            "vita": 1,
            "skills": {"berserk": True},
        },
        "reactive": {
            "attribute": 15,
            "modifiers": [-3],
            "damage": 13,
            "armour": 3,
            "vita": 2,
            "type": "HI",
            "skills": {"martial_arts": 2, "no_wound_incapacitation": True},
        },
    },
    {
        "rules": "n4",
        "active": {"attribute": 14, "burst": 3, "allies": 1, "damage": 13, "ammunition": "E/M"},
        "reactive": {"attribute": 11, "action": "dodge", "bts": 3, "vita": 1, "type": "TAG"},
    },
]


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(WebSettings(limits=LIMITS)), base_url=BASE_URL)


def roll(client: TestClient, body: Any) -> Any:
    response = client.post("/api/infinity/roll", json=body)
    assert response.status_code == 200, response.text
    return response.json()


def committed(name: str) -> jsonschema.Draft202012Validator:
    path = ROOT / "models" / "schema" / f"{name}.schema.json"
    return jsonschema.Draft202012Validator(json.loads(path.read_text(encoding="utf-8")))


def test_the_module_examples_run() -> None:
    result = doctest.testmod(allocator.web.infinity)
    assert result.failed == 0 and result.attempted > 0


def test_the_menus_are_the_profiles_menus(client: TestClient) -> None:
    served = client.get("/api/infinity/menus").json()
    assert served == menus().model_dump(mode="json")
    assert list(committed("infinity-menus").iter_errors(served)) == []
    assert [ruleset["name"] for ruleset in served["rulesets"]] == ["n4", "n5"]
    n5 = served["rulesets"][1]
    assert n5["strength"] == "ps" and n5["vita"] == "VITA"
    assert {"martial_arts", "special_die", "dogged", "berserk"} <= {s["name"] for s in n5["skills"]}
    labels = {field["name"]: field["label"] for field in served["fields"]}
    assert (labels["attribute"], labels["burst"], labels["armour"]) == ("CC", "B", "ARM")
    assert served["start"] in {example["name"] for example in served["examples"]}
    assert all(example["engagement"]["melee"] is None for example in served["examples"])


@pytest.mark.parametrize("engagement", ENGAGEMENTS, ids=["plain", "n5", "n4-berserk", "em-dodge"])
def test_a_roll_answers_what_the_command_line_prints(
    client: TestClient, tmp_path: Path, engagement: dict[str, Any]
) -> None:
    answered = roll(client, engagement)
    assert set(answered) == {"answer", "view"}
    path = tmp_path / "engagement.json"
    path.write_text(json.dumps(engagement), encoding="utf-8")
    printed = CliRunner().invoke(cli_app, ["resolve", "infinity", str(path), "--json"])
    assert printed.exit_code == 0, printed.output
    assert answered["answer"] == json.loads(printed.stdout)
    assert list(committed("resolve-answer").iter_errors(answered["answer"])) == []
    assert list(committed("infinity-view").iter_errors(answered["view"])) == []


def test_the_quick_roll_flags_answer_the_same(client: TestClient) -> None:
    flags = [
        "--rules", "n5", "--active", "21/1", "--active-name", "swordsman",
    ]  # fmt: skip
    del flags[-2:]  # the quick roll has no name; the rest of ENGAGEMENTS[1], flag by flag
    flags += [
        "--active-ps", "8", "--active-ammo", "DA", "--active-vita", "2",
        "--active-skill", "martial_arts=3", "--active-skill", "immunity=shock",
        "--reactive", "17/1", "--reactive-ps", "8", "--reactive-armour", "1",
        "--reactive-vita", "2", "--reactive-wounds-taken", "1", "--reactive-trait", "continuous",
        "--reactive-skill", "natural_born_warrior", "--reactive-skill", "dogged",
        "--reactive-skill", "berserk=3",
    ]  # fmt: skip
    engagement = json.loads(json.dumps(ENGAGEMENTS[1]))
    del engagement["active"]["name"]
    printed = CliRunner().invoke(cli_app, ["resolve", "infinity", *flags, "--json"])
    assert printed.exit_code == 0, printed.output
    assert roll(client, engagement)["answer"] == json.loads(printed.stdout)


def test_the_view_says_the_answer_in_the_reports_words(client: TestClient) -> None:
    answered = roll(client, ENGAGEMENTS[1])
    answer, view = answered["answer"], answered["view"]
    assert view["title"] == "Infinity close combat: Face to Face roll"
    assert view["rolls"].startswith("Active: SV 24, Burst 1, +1 SD.")
    outcomes = view["tables"][0]
    assert outcomes["title"] == "Outcomes"
    assert [row[2] for row in outcomes["rows"]] == [o["exact"] for o in answer["outcomes"].values()]
    titles = [table["title"] for table in view["tables"]]
    assert "Modifiers applied" in titles and "Reactive trooper: VITA 2, 1 taken" in titles
    wins = view["chart"][0]
    assert [bar["chance"] for bar in wins["bars"]] == list(answer["outcomes"].values())
    assert [bar["side"] for bar in wins["bars"]] == ["active", "reactive", None]
    groups = {group["title"] for group in view["chart"]}
    assert {"Hits that get through", "Wounds", "After the roll"} <= groups
    keys = [measure["key"] for measure in view["summary"]]
    assert keys[:3] == list(answer["outcomes"])
    assert {"reactive.dead", "reactive.out_of_the_fight", "active.wounds"} <= set(keys)


def test_two_normal_rolls_are_titled_and_charted_as_such(client: TestClient) -> None:
    view = roll(client, ENGAGEMENTS[2])["view"]
    assert view["title"] == "Infinity close combat: two Normal Rolls under Berserk"
    assert view["chart"][0]["title"] == "Who succeeds"
    assert [bar["side"] for bar in view["chart"][0]["bars"]] == [
        "active",
        "reactive",
        None,
        None,
    ]


def test_the_page_is_served_with_its_files(client: TestClient) -> None:
    page = client.get("/infinity")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert 'data-testid="inf-rules"' in page.text
    assert client.get("/static/infinity.css").status_code == 200
    # every module the page's script imports, followed import by import from its main module
    seen, waiting = set(), ["js/infinity/main.js"]
    while waiting:
        file = waiting.pop()
        answer = client.get(f"/static/{file}")
        assert answer.status_code == 200, file
        seen.add(file)
        folder = PurePosixPath(file).parent
        for imported in re.findall(r'from "(\.{1,2}/[^"]+)"', answer.text):
            name = posixpath.normpath(str(folder / imported))
            if name not in seen:
                waiting.append(name)
    assert {"js/infinity/cards.js", "js/infinity/result.js", "js/link.js"} <= seen
    assert 'href="/infinity"' in client.get("/").text


# --- hostile bodies ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "status", "place", "needle"),
    [
        ({"active": {"attribute": 12, "burst": 300}}, 422, "active.burst", "200"),
        ({"active": {"attribute": 12, "burst": 13}}, 422, "active.burst", "largest Burst, 12"),
        (
            {"active": {"attribute": 12, "burst": 12, "allies": 20}},
            413,
            "active.burst",
            "CFALLOC_MAX_BURST",
        ),
        ({"active": {"attribute": 12, "skills": {"kung_fu": 1}}}, 422, "active.skills.kung_fu", ""),
        (
            {"rules": "n5", "active": {"attribute": 12, "skills": {"i_kohl": 1}}},
            422,
            "active.skills.i_kohl",
            "not in the n5 ruleset",
        ),
        ({"active": {"attribute": 12, "skills": {"martial_arts": 9}}}, 422, None, "not 9"),
        ({"active": {"attribute": "twelve"}}, 422, "active.attribute", "valid integer"),
        ({"active": {"attribute": 12, "vita": "two"}}, 422, "active.vita", "valid integer"),
        ({"active": {"attribute": 12, "skills": ["guard"]}}, 422, "active.skills", "dictionary"),
        ({"active": {"attribute": 12, "traits": "continuous"}}, 422, "active.traits", ""),
        ({"active": {"attribute": 12, "ammunition": "Nuke"}}, 422, "active.ammunition", "Nuke"),
        ({"active": {"attribute": 12}}, 422, "reactive", "Field required"),
        ({"rules": "n6", "active": {"attribute": 1}}, 422, "rules", "'n4' or 'n5'"),
        ({"active": {"attribute": 1}, "reactive": {"attribute": 1}, "extra": 1}, 422, "extra", ""),
        ({"active": {"attribute": 12, "name": "x" * 500}}, 422, "active.name", "80"),
        ([], 422, "body", "dictionary"),
        ("troopers", 422, "body", "dictionary"),
    ],
    ids=lambda value: None,
)
def test_a_hostile_body_is_a_4xx_naming_the_place(
    client: TestClient, body: Any, status: int, place: str | None, needle: str
) -> None:
    if isinstance(body, dict) and "reactive" not in body and "Field required" not in needle:
        body = {**body, "reactive": {"attribute": 12}}
    error = assert_error(client.post("/api/infinity/roll", json=body), status, place)
    assert needle in error["problem"]


def test_bodies_that_are_no_json_document_are_refused(client: TestClient) -> None:
    url = "/api/infinity/roll"
    headers = {"content-type": "application/json"}
    cut = assert_error(client.post(url, content=b'{"active": ', headers=headers), 400)
    assert cut["place"] == "line 1, column 12" and "not valid JSON" in cut["problem"]
    duplicate = b'{"active": {"attribute": 1}, "active": {"attribute": 2}}'
    twice = assert_error(client.post(url, content=duplicate, headers=headers), 400)
    assert "duplicate key 'active'" in twice["problem"]
    assert_error(client.post(url, content=b"null", headers=headers), 422, "body")
    assert_error(client.post(url, content=b"rules: n5", headers={"content-type": "text/yaml"}), 415)
    deep = {"active": {"attribute": 1, "skills": {"immunity": [[[[[[["shock"]]]]]]]}}}
    assert_error(client.post(url, json=deep), 413, "body")
    assert_error(client.post(url, json={"x": "y" * LIMITS.max_body_bytes}), 413, "body")
    assert_error(client.get(url), 405, "method")


def test_a_roll_over_the_servers_time_limit_is_a_422_saying_so() -> None:
    hurried = TestClient(create_app(WebSettings(solve_time_limit=1e-9)), base_url=BASE_URL)
    response = hurried.post("/api/infinity/roll", json=ENGAGEMENTS[1])
    error = assert_error(response, 422, "time limit")
    assert "the exact close combat" in error["problem"]
