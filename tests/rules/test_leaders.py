"""Rules L1-L3 (``rules/leaders.py``, the leader bonuses), one test each.

These rules score a combat: no allocation breaks them, so they have no passing and failing
scenarios. Each test takes one side of a combat where the rule decides the bonus and holds both
forms the family gives it to the bonus the rule says: the plain scorer (``bonus_parts``, which
the odds add up) and the CP-SAT expression (``bonus_expression``, which the odds inside the
model use), the latter with every stand of the side in or out of the combat as given.
"""

from __future__ import annotations

from typing import Any

import pytest

from allocator.core.cpsat import cp_model, new_solver
from allocator.games.crossfire.battle import Battle, battle_from_data
from allocator.games.crossfire.rules.base import REALLOCATION, SharedModel
from allocator.games.crossfire.rules.leaders import bonus_expression, bonus_parts

#: A battalion of two companies; the first has platoons p1 and p2, the second p3.
UNITS = [
    {
        "id": "bn",
        "kind": "battalion",
        "units": [
            {
                "id": "coy",
                "kind": "company",
                "units": [{"id": "p1", "kind": "platoon"}, {"id": "p2", "kind": "platoon"}],
            },
            {"id": "coy2", "kind": "company", "units": [{"id": "p3", "kind": "platoon"}]},
        ],
    }
]
#: A squad of each platoon, a weapon of p1, and a leader of each level, rated 1, 2 and 3.
STANDS = [
    {"id": "d1", "type": "rifle", "unit": "p1"},
    {"id": "d2", "type": "rifle", "unit": "p2"},
    {"id": "d3", "type": "rifle", "unit": "p3"},
    {"id": "h1", "type": "hmg", "unit": "p1"},
    {"id": "pc", "type": "pc", "unit": "p1", "rating": 1},
    {"id": "cc", "type": "cc", "unit": "coy", "rating": 2},
    {"id": "bc", "type": "bc", "unit": "bn", "rating": 3},
]


def defence(**ruleset: Any) -> Battle:
    """The defender of :data:`STANDS` (under the shipped profile, or with ``ruleset``'s
    overrides) against one rifle squad."""
    return battle_from_data(
        {
            "defender": {"units": UNITS, "stands": STANDS},
            "attacker": {
                "units": [{"id": "q", "kind": "platoon"}],
                "stands": [{"id": "a1", "type": "rifle", "unit": "q"}],
            },
            **({"ruleset": {"base": "crossfire", "overrides": ruleset}} if ruleset else {}),
        }
    )


def bonuses(battle: Battle, ids: list[str]) -> tuple[int, int]:
    """The defender's leader bonus in a combat of the stands ``ids``: by the plain scorer, and
    by the CP-SAT expression solved with every defending stand's membership fixed."""
    plain = sum(rating for _, rating in bonus_parts(battle, ids))
    model = cp_model.CpModel()
    shared = SharedModel(battle, model, depth=REALLOCATION)
    members = {}
    for stand in battle.defender.ids():
        members[stand] = model.new_bool_var(stand)
        model.add(members[stand] == int(stand in ids))
    bonus = bonus_expression(
        shared,
        members,
        lambda stands, tag: shared.reify_or([members[s] for s in stands], tag),
        "d",
    )
    solver = new_solver(model)
    assert solver.solve(model) == cp_model.OPTIMAL
    return plain, solver.value(bonus)


@pytest.mark.parametrize(
    ("ids", "bonus"),
    [
        (["d1", "pc"], 1),  # a squad of his platoon
        (["h1", "pc"], 1),  # a weapon of his platoon
        (["d2", "pc"], 0),  # a squad of another platoon of his company
        (["pc"], 0),
    ],
)
def test_l1_a_pcs_rating_counts_only_beside_troops_of_his_platoon(
    ids: list[str], bonus: int
) -> None:
    assert bonuses(defence(), ids) == (bonus, bonus)


@pytest.mark.parametrize(
    ("ids", "bonus"),
    [
        (["d3", "cc"], 2),  # a squad of another company
        (["cc"], 2),  # heading a combat of his own (1b)
        (["d1", "bc"], 3),
        (["bc"], 3),
    ],
)
def test_l2_a_ccs_or_bcs_rating_always_counts(ids: list[str], bonus: int) -> None:
    assert bonuses(defence(), ids) == (bonus, bonus)


@pytest.mark.parametrize(
    ("ids", "best", "summed"),
    [
        (["d1", "pc", "cc"], 2, 1 + 2),
        (["d1", "pc", "cc", "bc"], 3, 1 + 2 + 3),
        (["d2", "pc", "cc"], 2, 2),  # the PC is not eligible (L1), summed or not
    ],
)
def test_l3_the_best_eligible_rating_counts_or_with_the_profiles_switch_their_sum(
    ids: list[str], best: int, summed: int
) -> None:
    assert bonuses(defence(), ids) == (best, best)
    assert bonuses(defence(leader_bonus="sum"), ids) == (summed, summed)
