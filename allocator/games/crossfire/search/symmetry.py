"""Interchangeable stands: stands with equal signatures are searched once.

Two stands of one side are interchangeable when they agree on everything any rule or the odds
look at: type, unit, rating, quality, suppression, and whom they stand near.

>>> from allocator.games.crossfire.battle import battle_from_data
>>> b = battle_from_data({
...     "defender": {"units": [{"id": "p", "kind": "platoon"}], "stands": [
...         {"id": "d1", "type": "rifle", "unit": "p"},
...         {"id": "d2", "type": "rifle", "unit": "p"}]},
...     "attacker": {"units": [{"id": "q", "kind": "platoon"}],
...                  "stands": [{"id": "a1", "type": "rifle", "unit": "q"}]},
... })
>>> stand_signature(b, "d1") == stand_signature(b, "d2")
True
"""

from __future__ import annotations

from typing import Any

from allocator.core.budget import Budget
from allocator.games.crossfire.battle import Battle
from allocator.games.crossfire.model import RulesModel


def stand_signature(battle: Battle, stand: str) -> tuple[Any, ...]:
    """What every rule and the odds look at in ``stand``: stands with equal signatures are
    interchangeable.

    Parameters
    ----------
    battle
        The fight the stand is in.
    stand
        A stand's id.

    Returns
    -------
    tuple
        Its type, unit, rating, quality, suppression and the sorted ids of the stands of its
        side it stands near (see the module's example).
    """
    info = battle.stand(stand)
    side = battle.side(battle.side_of(stand))
    near = {other for other in side.stands if other != stand and battle.near(stand, other)}
    return (info.type, info.unit, info.rating, info.quality, info.suppressed, tuple(sorted(near)))


def stand_signatures(battle: Battle, budget: Budget) -> dict[str, tuple[Any, ...]]:
    """Every stand's signature: groupings with equal signatures differ only by swaps.

    Parameters
    ----------
    battle
        The fight.
    budget
        Checked at every stand, since each signature looks at every stand of its side.

    Returns
    -------
    dict
        The signature (:func:`stand_signature`) of every stand of both sides, by id.

    Raises
    ------
    TimeLimitError
        When ``budget`` runs out.
    """
    signatures = {}
    for side in (battle.defender, battle.attacker):
        for s in side.stands:
            budget.check()
            signatures[s] = stand_signature(battle, s)
    return signatures


def order_identical_attackers(rules: RulesModel) -> None:
    """In a CP-SAT model: interchangeable attackers take combats in a fixed order, so that no
    attack is searched twice under a swap of two of them.

    Parameters
    ----------
    rules
        The model of the round; each pair of attackers with equal signatures gets one
        constraint, the first in file order in the earlier combat (or both out).

    Raises
    ------
    TimeLimitError
        When the model's budget runs out.
    """
    out, y = len(rules.slots), rules.attack.y
    index = {
        a: sum(c * y[a, c] for c in rules.slots) + out * (1 - sum(y[a, c] for c in rules.slots))
        for a in rules.attackers
    }
    previous: dict[tuple[Any, ...], str] = {}
    for a in rules.attackers:
        rules.tick()
        key = stand_signature(rules.battle, a)
        if key in previous:
            rules.model.add(index[previous[key]] <= index[a])
        previous[key] = a
