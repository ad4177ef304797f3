"""Step 7, resolution: 7a (each combat rolled, the loser's stands removed) and 7b (repeat).

The numbers of a roll are the profile's (:mod:`allocator.games.crossfire.odds`); the whole fight
of 7b is searched by :mod:`allocator.games.crossfire.search.game`, which asks :func:`winner`'s
rule (:func:`keeps_fighting`) of every state, as the dice of :mod:`..simulate` do of every round.

>>> [r.id for r in RULES]
['7a', '7b']
>>> from allocator.games.crossfire.battle import battle_from_data
>>> b = battle_from_data({
...     "defender": {"units": [{"id": "p", "kind": "platoon"}],
...                  "stands": [{"id": "d1", "type": "rifle", "unit": "p"}]},
...     "attacker": {"units": [{"id": "q", "kind": "platoon"}], "stands": [
...         {"id": "a1", "type": "rifle", "unit": "q"}, {"id": "pc", "type": "pc", "unit": "q"}]},
... })
>>> winner(b, {"defender": ["d1"], "attacker": ["pc"]}), winner(b, {"defender": [], "attacker": []})
('defender', 'attacker')
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping

from allocator.core.violations import Violation
from allocator.games.crossfire.battle import Battle, Role
from allocator.games.crossfire.rules.base import Rule
from allocator.games.crossfire.schema import Allocation, SideName

STEPS = {7: "Step 7 - each combat is rolled"}
RULES = (
    Rule(
        "7a",
        7,
        "Each combat is resolved on its own; the losing side's stands in it are all removed, "
        "its leaders and FOs included.",
        checked=False,
    ),
    Rule(
        "7b",
        7,
        "While both sides still have stands in the building the procedure runs again from "
        "step 1 with the survivors; the attacker takes the building when no defender is left, "
        "the defender holds it when the attacker has no squad, CC or BC left.",
        checked=False,
    ),
)


def keeps_fighting(role: Role, commander: bool) -> bool:
    """7b: whether an attacking stand keeps the fight going, so that the building is not held.

    Squads and CCs/BCs do (a CC or BC may assault alone, 4b); crew-served weapons (4d), PCs
    (5b), FOs and snipers cannot assault without them.

    Parameters
    ----------
    role : Role
        The stand's role.
    commander : bool
        Whether it is a CC or BC.

    Returns
    -------
    bool
    """
    return role == Role.squad or commander


def fights_on(battle: Battle, attackers: Iterable[str]) -> bool:
    """7b: whether any of these attacking stands keeps the fight going (:func:`keeps_fighting`)."""
    return any(keeps_fighting(battle.role(s), battle.is_commander(s)) for s in attackers)


def winner(battle: Battle, left: Mapping[SideName, Iterable[str]]) -> SideName | None:
    """7b: who has won once a round is resolved, from the stands each side has ``left``.

    Parameters
    ----------
    battle : Battle
        The round's battle (it knows every stand ``left`` names).
    left : mapping of side name to stand ids
        The stands of each side still in the building.

    Returns
    -------
    ``"attacker"`` (no defending stand left: he takes the building), ``"defender"`` (the
    attacker has no squad, CC or BC left: the building is held) or None (the fight goes on
    from step 1 with the survivors).
    """
    if not list(left["defender"]):
        return "attacker"
    if not fights_on(battle, left["attacker"]):
        return "defender"
    return None


def check(battle: Battle, allocation: Allocation) -> Iterator[Violation]:
    """Resolution rules: nothing for an allocation to break."""
    return iter(())


def requirements(battle: Battle, step: int) -> list[str]:
    surprise = (
        " The attacker is surprised by hidden defenders this round." if battle.surprised() else ""
    )
    return [
        "Each combat is rolled on its own (7a): the side with the higher total wins and the "
        "loser's stands in that combat are all removed." + surprise,
        "If both sides still have stands in the building, the procedure runs again from step 1 "
        "with the survivors (7b), until one side has nothing left.",
    ]
