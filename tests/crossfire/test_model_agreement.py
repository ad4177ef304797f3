"""The plain checker and the CP-SAT model never disagree (issue 2, item 4)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from strategies import allocations, near_legal_allocations, scenarios

from allocator.games.crossfire.battle import battle_from_data
from allocator.games.crossfire.model import REALLOCATION, RulesModel, SlotNames
from allocator.games.crossfire.rules import check
from allocator.games.crossfire.schema import Allocation

pytestmark = pytest.mark.slow


def model_accepts(battle: Any, allocation: Allocation) -> bool:
    """Whether the model, with the given part of ``allocation`` fixed, has a solution."""
    names = SlotNames.for_proposal(
        list(allocation.combats or {}),
        max(len(allocation.combats or {}), len(battle.defender.stands)),
    )
    model = RulesModel(battle, depth=REALLOCATION, slots=len(names.names))
    if not model.fix(allocation, names):
        return False
    return model.solve_status() in ("OPTIMAL", "FEASIBLE")


@st.composite
def cases(draw: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    scenario = draw(scenarios())
    if draw(st.booleans()):
        return scenario, draw(near_legal_allocations(scenario))
    return scenario, draw(allocations(scenario))


@settings(max_examples=2000, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_checker_and_model_agree(case: tuple[dict[str, Any], dict[str, Any]]) -> None:
    scenario, allocation = case
    battle = battle_from_data({**scenario, "allocation": allocation})
    broken = [v for v in check(battle) if v.step > 0]
    assert model_accepts(battle, battle.allocation) == (not broken), broken


@settings(
    max_examples=300, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]
)
@given(cases())
def test_nearest_legal_is_legal(case: tuple[dict[str, Any], dict[str, Any]]) -> None:
    from allocator.games.crossfire.check import nearest_legal

    scenario, allocation = case
    battle = battle_from_data({**scenario, "allocation": allocation})
    assume([v for v in check(battle) if v.step > 0])
    nearest = nearest_legal(battle, battle.allocation)
    assert nearest is not None
    assert [v for v in check(battle, nearest) if v.step > 0] == []


# most drawn allocations break a rule or are complete: the few legal partial ones are the cases
@settings(
    max_examples=300, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]
)
@given(cases())
def test_a_legal_leading_part_is_completed_without_moving_it(
    case: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    from allocator.games.crossfire.check import check_battle, is_complete

    scenario, allocation = case
    battle = battle_from_data({**scenario, "allocation": allocation})
    given_part = battle.allocation
    assume(not [v for v in check(battle) if v.step > 0] and not is_complete(given_part))
    completion = check_battle(battle).completion
    assert completion is not None
    assert [v for v in check(battle, completion) if v.step > 0] == []
    for part in ("combats", "attack", "reallocate"):
        given = getattr(given_part, part)
        if given is not None:
            assert normal(given) == normal(getattr(completion, part)), part


def normal(part: dict[str, Any]) -> dict[str, Any]:
    """A part of an allocation without empty entries, lists sorted."""
    return {k: sorted(v) if isinstance(v, list) else v for k, v in part.items() if v}
