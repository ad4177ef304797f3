"""`solve` reaches exactly the brute-force oracle's value, and returns only legal lines."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import oracle
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import scenarios

from allocator.games.crossfire.battle import battle_from_data, load_battle
from allocator.games.crossfire.rules import check
from allocator.games.crossfire.search.solve import solve

SMALL = scenarios(max_defenders=3, max_attackers=4)


def assert_legal(battle: Any, result: Any) -> None:
    broken = check(battle, result.line.allocation())
    assert broken == [], broken


@settings(max_examples=500, suppress_health_check=[HealthCheck.too_slow])
@given(
    SMALL, st.sampled_from(["sweep", "exchange"]), st.sampled_from(["sweep", "exchange"]), st.data()
)
def test_solve_matches_oracle(
    scenario: dict[str, Any], first: str, second: str, data: st.DataObject
) -> None:
    battle = battle_from_data(scenario)
    groupings = list(oracle.legal_groupings(battle))
    for objective in dict.fromkeys((first, second)):
        defender = solve(battle, "defender", objective)
        assert defender.status == "optimal"
        assert defender.line.value == oracle.game_value(battle, objective)
        assert_legal(battle, defender)
        grouping = data.draw(st.sampled_from(groupings))
        given_battle = battle_from_data({**scenario, "allocation": {"combats": grouping}})
        attacker = solve(given_battle, "attacker", objective)
        assert attacker.line.value == oracle.attacker_value(battle, objective, grouping)
        assert_legal(battle, attacker)


@pytest.mark.parametrize("objective", ["sweep", "exchange"])
def test_seed_example_matches_oracle(objective: str) -> None:
    battle = load_battle(
        Path(__file__).resolve().parent.parent
        / "models"
        / "scenarios"
        / "guide-2hmg-1squad-v-4.yaml"
    )
    assert solve(battle, "defender", objective).line.value == oracle.game_value(battle, objective)
