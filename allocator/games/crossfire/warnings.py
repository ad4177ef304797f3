"""Warnings about a battle that is legal but probably not what the player meant.

>>> from allocator.games.crossfire.battle import battle_from_data
>>> b = battle_from_data({
...     "defender": {"units": [{"id": "p", "kind": "platoon"}],
...                  "stands": [{"id": "d1", "type": "rifle", "unit": "p"}]},
...     "attacker": {"units": [{"id": "q", "kind": "platoon"}], "stands": [
...         {"id": "a1", "type": "rifle", "unit": "q"},
...         {"id": "pc", "type": "pc", "unit": "q", "rating": 1}]},
... })
>>> print(battle_warnings(b)[0])  # doctest: +ELLIPSIS
pc is within one stand width of no attacking squad, so he can join no combat (5a): list ...
"""

from __future__ import annotations

from allocator.games.crossfire.battle import Battle, Role
from allocator.games.crossfire.rules.attack import near_troops
from allocator.games.crossfire.rules.capacity import check as capacity_check


def leaders_near(battle: Battle) -> dict[str, list[str]]:
    """Each attacking leader and the attacking squads, CCs and BCs within one stand width (5a)."""
    return {leader: near_troops(battle, leader) for leader in battle.attacker.ids(Role.leader)}


def stranded_leaders(battle: Battle) -> list[str]:
    """Attacking leaders near no squad and no CC/BC: 5a keeps them out of every combat."""
    return [leader for leader, near in leaders_near(battle).items() if not near]


def battle_warnings(battle: Battle) -> list[str]:
    """Every warning about ``battle`` in plain words, each with its fix."""
    found = []
    squads = battle.attacker.ids(Role.squad)
    for leader in stranded_leaders(battle):
        example = ", ".join(squads[:3])
        fix = (
            f"list the squads beside him in his `near` (for example `near: [{example}]`), or "
            "give him a `position` within one stand width of one"
        )
        also = (
            " He can still fight as a squad where the attacker has fewer squads than combats (4b)."
            if battle.is_commander(leader)
            else ""
        )
        found.append(
            f"{leader} is within one stand width of no attacking squad, so he can join no combat "
            f"(5a): {fix}.{also}"
        )
    return found


def solve_warnings(battle: Battle) -> list[str]:
    """The warnings of a solve (and of a simulation, a sweep's cell): the building's rules it
    breaks (solved as given), then the rest."""
    return _building_warnings(battle, "Solved") + battle_warnings(battle)


def plan_warnings(battle: Battle) -> list[str]:
    """The warnings of a plan: as a solve's, but B1 is the plan's own bound (the defender
    garrisons within the capacity; the attacker's plan refuses a defender over it)."""
    return _building_warnings(battle, "Planned", bound="B1") + battle_warnings(battle)


def _building_warnings(battle: Battle, done: str, bound: str | None = None) -> list[str]:
    """The building's rules ``battle`` breaks (B1, B2) but ``bound``, each ``done`` as given."""
    return [
        f"{v.rule}: {v.message} {done} as given." for v in capacity_check(battle) if v.rule != bound
    ]
