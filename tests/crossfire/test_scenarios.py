"""Every worked scenario in models/scenarios/ is checked against what it claims (issue 2, item 6).

Each file carries ``expect: {legal, rules}``. The tests hold ``cfalloc check --json`` to it: the
verdict, the exact set of rule ids reported, and that every violation of a rule about stands
names the stands involved; the rules model, the totals and the solve values to what a scenario
claims of them. Each rule's own ``rule-<id>-pass.yaml`` / ``rule-<id>-fail.yaml`` are held to
its family's plain check by the rule's test in ``tests/rules/test_<family>.py``.
"""

from __future__ import annotations

import json
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from allocator.cli.app import app
from allocator.core.reader import read_file as read_data
from allocator.games.crossfire.battle import Battle, load_battle
from allocator.games.crossfire.rules import CHECKED_RULES as RULES

SCENARIO_DIR = Path(__file__).resolve().parents[2] / "models" / "scenarios"
SCENARIOS = sorted(p for p in SCENARIO_DIR.iterdir() if p.suffix in {".yaml", ".yml", ".json"})

#: Rules about the building as a whole: their violations name no stands.
BUILDING_RULES = {"B2"}


def _id(path: Path) -> str:
    return path.stem


@cache
def battle_of(path: Path) -> Battle:
    return load_battle(path)


@cache
def report_of(path: Path) -> tuple[int, dict[str, Any]]:
    """Exit code and JSON of ``cfalloc check FILE --json``, run in-process."""
    result = CliRunner().invoke(app, ["check", str(path), "--json"])
    assert result.exit_code in (0, 1), (
        f"{path.name}: exit {result.exit_code}\n{result.output}\n{result.exception!r}"
    )
    return result.exit_code, json.loads(result.stdout)


def expected(path: Path) -> Any:
    expect = battle_of(path).scenario.expect
    assert expect is not None, f"{path.name} has no `expect`"
    return expect


def test_there_are_scenarios() -> None:
    assert len(SCENARIOS) >= 2 * len(RULES)


@pytest.mark.parametrize("path", SCENARIOS, ids=_id)
def test_scenario_loads_and_is_documented(path: Path) -> None:
    battle = battle_of(path)
    scenario = battle.scenario
    assert scenario.title, f"{path.name} needs a title"
    assert scenario.description and len(scenario.description) > 80, (
        f"{path.name} needs a description a new player can follow"
    )
    assert scenario.expect is not None
    for rule in scenario.expect.rules:
        assert rule in RULES, f"{path.name}: unknown rule id {rule!r} in expect.rules"
    if scenario.expect.legal:
        assert not scenario.expect.rules, f"{path.name}: a legal scenario lists no broken rules"
    else:
        assert scenario.expect.rules, f"{path.name}: an illegal scenario names the rules it breaks"


@pytest.mark.parametrize("path", SCENARIOS, ids=_id)
def test_check_agrees_with_expect(path: Path) -> None:
    expect = expected(path)
    code, report = report_of(path)
    reported = [v["rule"] for v in report["violations"]]
    assert report["legal"] is expect.legal, (
        f"{path.name}: expected legal={expect.legal}, the check says {report['legal']} ({reported})"
    )
    assert code == (0 if expect.legal else 1)
    assert set(reported) == set(expect.rules), (
        f"{path.name}: expected rules {sorted(expect.rules)}, reported {sorted(set(reported))}"
    )
    assert set(expect.stands) <= set(expect.rules), f"{path.name}: stands of rules not expected"
    for rule, stands in expect.stands.items():
        named = {s for v in report["violations"] if v["rule"] == rule for s in v["stands"]}
        assert named == set(stands), f"{path.name}: {rule} names {sorted(named)}, not {stands}"
    if expect.legal:
        assert report["violations"] == []
        assert report["nearest_legal"] is None


@pytest.mark.parametrize("path", SCENARIOS, ids=_id)
def test_violations_name_their_stands(path: Path) -> None:
    battle = battle_of(path)
    known = set(battle.defender.stands) | set(battle.attacker.stands)
    _, report = report_of(path)
    for violation in report["violations"]:
        assert violation["rule"] in RULES
        assert violation["step"] == RULES[violation["rule"]].step
        assert violation["message"].strip()
        assert set(violation["stands"]) <= known, f"{path.name}: {violation} names unknown stands"
        if violation["rule"] not in BUILDING_RULES:
            assert violation["stands"], f"{path.name}: {violation['rule']} names no stands"


@pytest.mark.parametrize(
    "stem",
    [
        "guide-2hmg-1squad-v-4",
        "guide-2hmg-1squad-v-4-both-pair",
        "guide-5-squads-v-2-four-and-one",
        "guide-5-squads-v-2-three-and-two",
        "guide-5-squads-v-2-five-and-none",
        "guide-rifle-and-cc-v-2-smg-legal",
        "guide-rifle-and-cc-v-2-smg-illegal",
    ],
)
def test_the_guides_examples_are_shipped(stem: str) -> None:
    assert (SCENARIO_DIR / f"{stem}.yaml").is_file()


def test_shipped_organisations_are_used_on_both_sides() -> None:
    users: dict[str, list[str]] = {"defender": [], "attacker": []}
    for path in SCENARIOS:
        data = read_data(path)
        for side in users:
            if data[side].get("organisation") and data[side].get("present"):
                users[side].append(path.name)
    assert users["defender"] and users["attacker"], users
    assert len(set(users["defender"]) | set(users["attacker"])) >= 2


@pytest.mark.parametrize(
    "path", [p for p in SCENARIOS if read_data(p).get("allocation") is not None], ids=_id
)
def test_rules_model_agrees_with_expect(path: Path) -> None:
    """The CP-SAT model completes the given allocation exactly when the scenario is legal.

    Building capacity (B1, B2) is a fact about the scenario, not a choice of the allocation, so
    a scenario that breaks only those still has an allocation the model accepts.
    """
    from allocator.games.crossfire.model import REALLOCATION, RulesModel, SlotNames

    battle = battle_of(path)
    allocation = battle.allocation
    assert allocation is not None
    expect = expected(path)
    proposal = list(allocation.combats or {})
    names = SlotNames.for_proposal(proposal, max(len(proposal), len(battle.defender.stands)))
    model = RulesModel(battle, depth=REALLOCATION, slots=len(names.names))
    accepted = model.fix(allocation, names) and model.solve_status() in ("OPTIMAL", "FEASIBLE")
    assert accepted == (expect.legal or set(expect.rules) <= {"B1", "B2"}), (
        f"{path.name}: the rules model {'accepts' if accepted else 'rejects'} the allocation"
    )


@pytest.mark.parametrize(
    "path", [p for p in SCENARIOS if read_data(p).get("expect", {}).get("totals")], ids=_id
)
def test_scenario_totals_are_what_it_claims(path: Path) -> None:
    """Each combat's (attacker, defender) totals, as the odds of ``cfalloc check`` give them."""
    _, report = report_of(path)
    totals = {
        c["name"]: (c["attacker_total"], c["defender_total"]) for c in report["odds"]["combats"]
    }
    assert totals == expected(path).totals


def test_the_corrected_readings_have_their_scenarios() -> None:
    """Commanders joining a lone weapon, company HQ weapons, attached units, commanders as
    squads: each reading has a scenario that passes and one that fails or differs."""
    names = {p.stem for p in SCENARIOS}
    assert {
        "rule-3b-pass-bc-joins-lone-hmg",
        "rule-2a-fail-bc-with-lone-hmg-no-squad",
        "rule-2a-pass-company-hq-weapon",
        "rule-2a-fail-company-hq-weapon",
        "rule-2a-pass-attached-at-top",
        "rule-2a-fail-attached-to-a-company",
        "edge-odds-two-attacking-commanders-count-as-one-squad",
        "edge-odds-a-second-commander-is-a-leader-only",
        "edge-odds-two-defending-heads-count-as-two-squads",
        "edge-odds-commanders-beside-a-squad",
        "rule-5c-pass-commander-beside-a-commander",
        "rule-5c-fail-commanders-are-not-squads",
    } <= names


@pytest.mark.parametrize(
    "path", [p for p in SCENARIOS if read_data(p).get("expect", {}).get("solve")], ids=_id
)
def test_scenario_solves_to_what_it_claims(path: Path) -> None:
    """Each objective named in ``expect.solve``: `cfalloc solve --json` reaches that exact value,
    for the defender and for the attacker answering the defender's best grouping."""
    for objective, value in expected(path).solve.items():
        for side in ("defender", "attacker"):
            result = CliRunner().invoke(
                app, ["solve", str(path), "--side", side, "--objective", objective, "--json"]
            )
            assert result.exit_code == 0, result.output
            answer = json.loads(result.stdout)
            assert answer["status"] == "optimal"
            assert Fraction(answer["value_exact"]) == value, (objective, side)
