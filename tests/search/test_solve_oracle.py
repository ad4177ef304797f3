"""`solve` reaches exactly the brute-force oracle's value, and returns only legal lines.

Both searches are held to the oracle: the enumeration (what `solve` uses wherever the lines fit)
and CP-SAT (what it uses beyond), the latter by forcing it on the same small battles.
"""

from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Any
from unittest import mock

import oracle
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import scenarios

from allocator.games.crossfire.battle import battle_from_data, load_battle
from allocator.games.crossfire.objectives import objective_named
from allocator.games.crossfire.rules import check
from allocator.games.crossfire.search import solve as solve_module
from allocator.games.crossfire.search.solve import solve

SMALL = scenarios(max_defenders=3, max_attackers=4)


def assert_legal(battle: Any, line: Any) -> None:
    broken = check(battle, line.allocation())
    assert broken == [], broken


def search(name: str) -> AbstractContextManager[Any]:
    """The search `solve` uses: as it chooses, or CP-SAT forced."""
    if name == "cp-sat":
        return mock.patch.object(solve_module, "ENUMERATION", False)
    return nullcontext()


def matches_oracle(scenario: dict[str, Any], objectives: list[str], data: st.DataObject) -> None:
    battle = battle_from_data(scenario)
    groupings = list(oracle.legal_groupings(battle))
    for objective in objectives:
        defender = solve(battle, "defender", objective_named(objective))
        assert defender.status == "optimal"
        assert defender.line.value == oracle.game_value(battle, objective)
        assert_legal(battle, defender.line)
        grouping = data.draw(st.sampled_from(groupings))
        given_battle = battle_from_data({**scenario, "allocation": {"combats": grouping}})
        attacker = solve(given_battle, "attacker", objective_named(objective))
        assert attacker.line.value == oracle.attacker_value(battle, objective, grouping)
        assert_legal(battle, attacker.line)
        # the runner-up is legal and strictly worse for the side that chose it
        if defender.choices.runner_up is not None:
            assert defender.choices.runner_up.value > defender.line.value
            assert_legal(battle, defender.choices.runner_up)
        if attacker.choices.runner_up is not None:
            assert attacker.choices.runner_up.value < attacker.line.value
            assert_legal(battle, attacker.choices.runner_up)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(SMALL, st.sampled_from(["sweep", "exchange"]), st.data())
def test_enumeration_matches_oracle(scenario: dict[str, Any], objective: str, data: Any) -> None:
    matches_oracle(scenario, [objective], data)


@pytest.mark.slow
@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(SMALL, st.sampled_from(["sweep", "exchange"]), st.data())
def test_cp_sat_matches_oracle(scenario: dict[str, Any], objective: str, data: Any) -> None:
    with search("cp-sat"):
        matches_oracle(scenario, [objective], data)


@pytest.mark.parametrize("engine", ["enumeration", "cp-sat"])
@pytest.mark.parametrize("objective", ["sweep", "exchange"])
def test_guide_example_matches_oracle(objective: str, engine: str) -> None:
    battle = load_battle(
        Path(__file__).resolve().parents[2] / "models" / "scenarios" / "guide-2hmg-1squad-v-4.yaml"
    )
    with search(engine):
        found = solve(battle, "defender", objective_named(objective))
        assert found.line.value == oracle.game_value(battle, objective)
