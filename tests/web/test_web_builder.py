"""The page's own endpoints (allocator.web.builder): the library, the words, the board, the YAML."""

from __future__ import annotations

import doctest
import json
from pathlib import Path
from typing import Any

import pytest
from contract import assert_error

pytest.importorskip("fastapi", reason="the web extra is not installed (pip install .[web])")

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import allocator.web.builder
from allocator.cli.app import app as cli_app
from allocator.core.library import folder, names
from allocator.core.limits import Limits
from allocator.core.reader import read_file, read_text
from allocator.games.crossfire import service
from allocator.games.crossfire.battle import ROLES, battle_from_data, load_organisation
from allocator.games.crossfire.profile import crossfire_profiles, shipped_profile
from allocator.games.crossfire.rules import RULES
from allocator.games.crossfire.schema import Scenario, StandType
from allocator.web.app import create_app
from allocator.web.settings import WebSettings
from web.endpoints import scenario_paths

SCENARIOS = sorted(p for p in folder("scenarios").iterdir() if p.suffix in {".yaml", ".json"})
SEED = folder("scenarios") / "guide-2hmg-1squad-v-4.yaml"
LIMITS = WebSettings(limits=Limits(max_stands_per_side=20, max_values=5_000))


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(
        create_app(LIMITS), base_url="http://127.0.0.1", raise_server_exceptions=False
    )


def two_organisations() -> dict[str, Any]:
    """A fight built as the page builds one: a Soviet platoon holds, a German platoon assaults."""
    return {
        "title": "Tonight's fight",
        "building": {"name": "Farmhouse", "capacity": 3},
        "surprise": True,
        "ruleset": {"base": "crossfire", "overrides": {"dice_mode": "pool"}},
        "defender": {
            "organisation": "soviet-rifle-company",
            "present": [
                "su-1plt-sq1",
                {"id": "su-1plt-sq2", "quality": "veteran"},
                "su-1plt-pc",
            ],
        },
        "attacker": {
            "organisation": "german-rifle-company",
            "present": [
                {"id": "de-1plt-sq1", "position": [0, 0]},
                {"id": "de-1plt-sq2", "position": [6, 0], "suppressed": True},
                {"id": "de-1plt-pc", "position": [1.5, 0.5]},
                {"id": "de-coy-cc", "near": ["de-1plt-sq2"]},
            ],
        },
    }


def test_doctests() -> None:
    assert doctest.testmod(allocator.web.builder).failed == 0


def test_the_routes_are_documented(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    for route in allocator.web.builder.router.routes:
        assert getattr(route, "path", None) in paths


# ------------------------------------------------------------------ the words and the library


def test_terms_label_every_stand_type_and_state_every_rule(client: TestClient) -> None:
    terms = client.get("/api/terms").json()
    by_type = {t["type"]: t for t in terms["stand_types"]}
    assert set(by_type) == {kind.value for kind in StandType}
    assert by_type["hmg"] == {
        "type": "hmg",
        "label": "HMG",
        "role": "weapon",
        "role_label": "crew-served weapon",
        "commander": False,
        "rated": False,
        "fights": False,
    }
    assert by_type["cc"]["commander"] and by_type["pc"]["rated"] and not by_type["pc"]["commander"]
    assert all(t["role"] == ROLES[StandType(t["type"])].value for t in terms["stand_types"])
    assert [r["id"] for r in terms["rules"]] == list(RULES)
    assert {r["id"]: r["statement"] for r in terms["rules"]}["4b"] == RULES["4b"].statement
    assert [s["step"] for s in terms["steps"]] == list(range(8))
    assert terms["qualities"] == ["green", "regular", "veteran"]


def test_library_groups_every_organisation_by_nation(client: TestClient) -> None:
    nations = client.get("/api/organisations").json()["nations"]
    listed = [org["name"] for nation in nations for org in nation["organisations"]]
    assert sorted(listed) == names("orgs")
    assert [n["nation"] for n in nations] == sorted(n["nation"] for n in nations)
    for nation in nations:
        for org in nation["organisations"]:
            shipped = load_organisation(org["name"])
            assert shipped.nation == nation["nation"]
            assert org["stands"] == len(shipped.stands)


@pytest.mark.parametrize("name", names("orgs"))
def test_organisation_lists_each_stand_once_under_its_unit(client: TestClient, name: str) -> None:
    detail = client.get(f"/api/organisations/{name}").json()
    shipped = load_organisation(name)
    listed = [(s["id"], unit["id"]) for unit in detail["units"] for s in unit["stands"]]
    assert sorted(listed) == sorted((s.id, s.unit) for s in shipped.stands)
    seen: set[str] = set()
    for unit in detail["units"]:  # tree order: a parent comes before its units
        assert unit["parent"] is None or unit["parent"] in seen
        seen.add(unit["id"])
    first = detail["units"][0]
    assert (first["depth"], first["parent"]) == (0, None)
    leaders = [s for u in detail["units"] for s in u["stands"] if s["role"] == "leader"]
    assert leaders and all(s["rating"] is not None for s in leaders)


@pytest.mark.parametrize("name", ["no-such-org", "...", "german-rifle-company.yaml", "x" * 300])
def test_unknown_organisation_is_404(client: TestClient, name: str) -> None:
    error = assert_error(client.get(f"/api/organisations/{name}"), 404, "name")
    assert "german-rifle-company" in error["problem"]


def test_profiles_offer_every_value_as_a_switch(client: TestClient) -> None:
    profiles = client.get("/api/profiles").json()["profiles"]
    assert [p["name"] for p in profiles] == crossfire_profiles()
    crossfire = next(p for p in profiles if p["name"] == "crossfire")
    switches = {s["key"]: s for s in crossfire["switches"]}
    assert set(switches) == set(shipped_profile("crossfire").values)
    assert switches["dice_mode"]["kind"] == "choice"
    assert switches["dice_mode"]["choices"] == ["single", "pool"]
    assert switches["surprise_later_rounds"]["kind"] == "bool"
    assert switches["near_centres"]["kind"] == "int"
    assert switches["near_centres"]["range"] == [0, 1000]


# ------------------------------------------------------------------ the board


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_board_of_every_shipped_scenario(client: TestClient, path: Path) -> None:
    data = read_file(path)
    board = client.post("/api/board", json=data).json()
    battle = battle_from_data(data)
    assert [s["id"] for s in board["defender"]] == list(battle.defender.stands)
    assert [s["id"] for s in board["attacker"]] == list(battle.attacker.stands)
    assert board["building"] == battle.scenario.building.model_dump()
    assert board["warnings"] == service.check_answer(battle).warnings
    assert board["combat_names"][:2] == ["A", "B"]
    assert len(set(board["combat_names"])) == len(battle.defender.stands) + 1


def test_board_counts_what_the_building_holds_and_labels_the_stands(client: TestClient) -> None:
    board = client.post("/api/board", json=read_file(SEED)).json()
    assert board["inside"] == 3
    assert "holds at most 3 squads and crew-served weapons" in board["building_text"]
    hmg = board["defender"][1]
    assert (hmg["id"], hmg["label"], hmg["role"]) == ("h1", "HMG", "weapon")
    assert hmg["description"] == "defender HMG h1 (crew-served weapon), unit 1coy"
    assert board["near"] == {}


def test_board_says_who_is_near_whom_by_positions_and_lists(client: TestClient) -> None:
    board = client.post("/api/board", json=two_organisations()).json()
    # The PC's centre is 1.6 stand widths from sq1 (near: at most 2) and 4.5 from sq2.
    assert board["near"] == {"de-1plt-pc": ["de-1plt-sq1"], "de-coy-cc": ["de-1plt-sq2"]}
    assert board["warnings"] == []
    leader = next(s for s in board["attacker"] if s["id"] == "de-1plt-pc")
    assert leader["description"] == (
        "attacker 1st Platoon commander, PC de-1plt-pc (leader), unit 1plt, rating +2"
    )
    assert (leader["name"], leader["counter_label"]) == ("1st Platoon commander", "1 Plt PC")


def test_board_warns_of_a_leader_near_nobody(client: TestClient) -> None:
    fight = two_organisations()
    fight["attacker"]["present"][2] = "de-1plt-pc"
    board = client.post("/api/board", json=fight).json()
    assert board["near"]["de-1plt-pc"] == []
    [warning] = board["warnings"]
    assert warning.startswith("de-1plt-pc is within one stand width of no attacking squad")
    assert "near: [" in warning and "`position` within one stand width" in warning


def test_board_refuses_bad_scenarios_with_the_place(client: TestClient) -> None:
    fight = two_organisations()
    fight["attacker"]["present"].append("de-9plt-sq1")
    error = assert_error(client.post("/api/board", json=fight), 422, "attacker.present[4]")
    assert "has no stand 'de-9plt-sq1'" in error["problem"]
    fight = two_organisations()
    fight["attacker"]["organisation"] = "soviet-rifle-company"
    fight["attacker"]["present"] = ["su-1plt-sq1"]
    error = assert_error(client.post("/api/board", json=fight), 422)
    assert "duplicate stand id 'su-1plt-sq1'" in error["problem"]
    fight = two_organisations()
    fight["defender"]["organisation"] = "../orgs/german-rifle-company"
    assert_error(client.post("/api/board", json=fight), 422, "defender.organisation")
    fight = two_organisations()
    fight["ruleset"] = "../rulesets/crossfire.yaml"
    assert_error(client.post("/api/board", json=fight), 422, "ruleset")
    assert_error(client.post("/api/board", json=[1, 2]), 422)


def test_board_and_yaml_keep_the_limits(client: TestClient) -> None:
    big = {
        "defender": {
            "units": [{"id": "p", "kind": "platoon"}],
            "stands": [{"id": "d1", "type": "rifle", "unit": "p"}],
        },
        "attacker": {
            "units": [{"id": "q", "kind": "company"}],
            "stands": [{"id": f"a{i}", "type": "rifle", "unit": "q"} for i in range(21)],
        },
    }
    for path in scenario_paths(client.app):
        error = assert_error(client.post(path, json=big), 413, "attacker")
        assert "CFALLOC_MAX_STANDS_PER_SIDE" in error["problem"]


# ------------------------------------------------------------------ the scenario file


def yaml_of(client: TestClient, data: dict[str, Any]) -> dict[str, Any]:
    response = client.post("/api/scenario-yaml", json=data)
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_yaml_of_every_shipped_scenario_reads_back_the_same(client: TestClient, path: Path) -> None:
    data = read_file(path)
    text = yaml_of(client, data)["yaml"]
    assert Scenario.model_validate(read_text(text, syntax="yaml")) == Scenario.model_validate(data)


def test_built_fight_as_yaml_is_what_cfalloc_check_reads(
    client: TestClient, tmp_path: Path
) -> None:
    fight = two_organisations()
    fight["allocation"] = {"combats": {"A": ["su-1plt-sq1", "su-1plt-pc"], "B": ["su-1plt-sq2"]}}
    answer = yaml_of(client, fight)
    assert answer["file_name"] == "tonight-s-fight.yaml"
    text = answer["yaml"]
    assert text.startswith(
        "title: Tonight's fight\nruleset: {base: crossfire, overrides: {dice_mode: pool}}\n"
        "surprise: true\nbuilding: {name: Farmhouse, capacity: 3}\ndefender:\n"
    )
    assert "  organisation: german-rifle-company\n" in text
    assert "    - {id: de-1plt-pc, position: [1.5, 0.5]}\n" in text
    written = tmp_path / answer["file_name"]
    written.write_bytes(text.encode("utf-8"))
    printed = CliRunner().invoke(cli_app, ["check", str(written), "--json"])
    assert printed.exit_code == 0, printed.output
    assert json.loads(printed.stdout) == client.post("/api/check", json=fight).json()
    assert yaml_of(client, read_file(written))["yaml"] == text


def test_yaml_refuses_what_a_file_may_not_say(client: TestClient) -> None:
    fight = two_organisations()
    fight["building"]["capacity"] = 0
    assert_error(client.post("/api/scenario-yaml", json=fight), 422, "building.capacity")
    fight = two_organisations()
    fight["defender"]["extra"] = 1
    assert_error(client.post("/api/scenario-yaml", json=fight), 422, "defender.extra")


#: Any text, and texts made of what YAML treats specially (breaks, quotes, indicators, BOM).
TEXTS = st.one_of(
    st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=120),
    st.text(st.sampled_from(list(" \t\n\r\x85\u2028ab:#'\"-?>|{}[],&*!%@`\\\ufeff")), max_size=120),
)


@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    title=TEXTS,
    description=st.one_of(TEXTS, st.text(max_size=400)),
    building=TEXTS,
    x=st.floats(-1000, 1000, allow_nan=False),
    y=st.integers(-1000, 1000),
)
def test_any_texts_and_positions_read_back_the_same(
    client: TestClient, title: str, description: str, building: str, x: float, y: int
) -> None:
    fight = two_organisations()
    fight |= {"title": title, "description": description, "building": {"name": building}}
    fight["attacker"]["present"][0] = {"id": "de-1plt-sq1", "position": [x, y]}
    text = yaml_of(client, fight)["yaml"]
    assert Scenario.model_validate(read_text(text, syntax="yaml")) == Scenario.model_validate(fight)
