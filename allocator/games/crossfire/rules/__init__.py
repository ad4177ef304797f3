"""The rules of Crossfire close combat in a building, one module per family.

Where is rule 4b? In :mod:`~allocator.games.crossfire.rules.attack`, with its statement, its
plain check, its CP-SAT constraints and its teaching prose. The families, in the order of the
procedure:

* :mod:`~allocator.games.crossfire.rules.capacity`: B1, B2 (the building, step 0);
* :mod:`~allocator.games.crossfire.rules.grouping`: 1a-3d (the defender's combats, steps 1-3);
* :mod:`~allocator.games.crossfire.rules.attack`: 4a-5c (the attacker's answer, steps 4-5);
* :mod:`~allocator.games.crossfire.rules.reallocation`: 6a-6c (step 6);
* :mod:`~allocator.games.crossfire.rules.leaders`: L1-L3 (the leader bonuses);
* :mod:`~allocator.games.crossfire.rules.resolution`: 7a, 7b (rolling, and the next round).

:func:`check` runs every family on whatever leading part of the allocation is given;
:func:`still_to_place` says which stands that part must still place. The families whose rules
the CP-SAT model enforces (grouping, attack, reallocation) each create their variables in a
typed container of their own (:class:`~allocator.games.crossfire.rules.grouping.GroupingVariables`,
:class:`~allocator.games.crossfire.rules.attack.AttackVariables`,
:class:`~allocator.games.crossfire.rules.reallocation.ReallocationVariables`), which
:class:`~allocator.games.crossfire.model.RulesModel` keeps.

>>> from allocator.games.crossfire.battle import battle_from_data
>>> b = battle_from_data({
...     "defender": {"units": [{"id": "p", "kind": "platoon"}], "stands": [
...         {"id": "d1", "type": "rifle", "unit": "p"},
...         {"id": "d2", "type": "rifle", "unit": "p"}]},
...     "attacker": {"units": [{"id": "q", "kind": "platoon"}],
...                  "stands": [{"id": "a1", "type": "rifle", "unit": "q"}]},
...     "allocation": {"combats": {"A": ["d1", "d2"]}},
... })
>>> [v.rule for v in check(b)]
['1a']
>>> RULES["4b"].step, family_of("4b").__name__
(4, 'allocator.games.crossfire.rules.attack')
"""

from __future__ import annotations

from types import ModuleType
from typing import cast

from allocator.core.violations import Violation
from allocator.games.crossfire.battle import Battle
from allocator.games.crossfire.rules import (
    attack,
    capacity,
    grouping,
    leaders,
    reallocation,
    resolution,
)
from allocator.games.crossfire.rules.attack import unplaced_squads
from allocator.games.crossfire.rules.base import Family, Rule
from allocator.games.crossfire.rules.grouping import unplaced_defenders
from allocator.games.crossfire.rules.reallocation import unmoved
from allocator.games.crossfire.schema import Allocation

#: The families in the order of the procedure (and of the model's variables).
FAMILIES: tuple[Family, ...] = cast(
    tuple[Family, ...], (capacity, grouping, attack, reallocation, leaders, resolution)
)
#: Every rule by id, in the order of the procedure.
RULES: dict[str, Rule] = {rule.id: rule for family in FAMILIES for rule in family.RULES}
#: The rules a legal allocation must follow (each has a passing and a failing scenario).
CHECKED_RULES: dict[str, Rule] = {i: rule for i, rule in RULES.items() if rule.checked}
#: The title of every step, 0 (the building) to 7 (resolution).
STEP_TITLES: dict[int, str] = dict(
    sorted((step, title) for family in FAMILIES for step, title in family.STEPS.items())
)


def family_of(rule_id: str) -> ModuleType:
    """The module that owns rule ``rule_id``."""
    for family in FAMILIES:
        if any(rule.id == rule_id for rule in family.RULES):
            return cast(ModuleType, family)
    raise KeyError(rule_id)


def step_rules(step: int) -> list[str]:
    """The ids of the rules of one step."""
    return [rule.id for rule in RULES.values() if rule.step == step]


def check(battle: Battle, allocation: Allocation | None = None) -> list[Violation]:
    """Every violation of the building and of the given leading part of the allocation."""
    allocation = allocation if allocation is not None else battle.allocation
    given = allocation or Allocation()
    found = [v for family in FAMILIES for v in family.check(battle, given)]
    return sorted(found, key=Violation.sort_key)


def still_to_place(battle: Battle, allocation: Allocation | None = None) -> list[str]:
    """The stands the deepest part of the allocation given must still place, in file order.

    Nothing before the first combat is made; then the defending stands in no combat (1c); once
    they are all placed and the attack sends somebody, the attacking squads it sends nowhere
    (4e: leaders may stay out, and 4d keeps crew-served weapons, FOs and snipers out); once
    they are all sent and the reallocation is given, the stands of unopposed combats that do
    not move yet (6a).

    Parameters
    ----------
    battle : Battle
    allocation : Allocation or None
        A leading part of the procedure's choices (default: the battle's own).

    Returns
    -------
    list of str

    Examples
    --------
    >>> from allocator.games.crossfire.battle import battle_from_data
    >>> b = battle_from_data({
    ...     "defender": {"units": [{"id": "p", "kind": "platoon"}], "stands": [
    ...         {"id": "d1", "type": "rifle", "unit": "p"},
    ...         {"id": "d2", "type": "rifle", "unit": "p"}]},
    ...     "attacker": {"units": [{"id": "q", "kind": "platoon"}], "stands": [
    ...         {"id": "a1", "type": "rifle", "unit": "q"},
    ...         {"id": "hmg", "type": "hmg", "unit": "q"}]},
    ... })
    >>> still_to_place(b, Allocation(combats={"A": ["d1"]}))
    ['d2']
    >>> still_to_place(b, Allocation(combats={"A": ["d1"], "B": ["d2"]}, attack={"B": []}))
    []
    >>> still_to_place(b, Allocation(combats={"A": ["d1"], "B": ["d2"]}, attack={"B": ["a1"]},
    ...                              reallocate={}))
    ['d1']
    """
    allocation = allocation if allocation is not None else battle.allocation
    if allocation is None or not allocation.combats:
        return []
    left = unplaced_defenders(battle, allocation.combats)
    attack = allocation.attack
    if left or attack is None or not any(attack.values()):
        return left
    left = unplaced_squads(battle, attack)
    if left or allocation.reallocate is None:
        return left
    return unmoved(allocation.combats, attack, allocation.reallocate)
