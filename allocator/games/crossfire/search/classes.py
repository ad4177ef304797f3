"""Classes of interchangeable stands, and the states of a fight as counts per class.

Two stands of one side are interchangeable when every rule and every odds treat them alike:
same type, unit, rating, quality and suppression, and the same standing (within one stand
width or not) towards every other stand. The classes are found by refining the plain attributes
by the near relation until stable; a class whose members are not all alike towards some other
class is split into single stands, so that inside a class any two members can always be
swapped. A *state* of the fight is then a count per class: which stands are left matters only up
to swapping interchangeable ones.

>>> from allocator.games.crossfire.battle import battle_from_data
>>> b = battle_from_data({
...     "defender": {"units": [{"id": "p", "kind": "platoon"}],
...                  "stands": [{"id": "d1", "type": "rifle", "unit": "p"}]},
...     "attacker": {"units": [{"id": "q", "kind": "platoon"}], "stands": [
...         {"id": "a1", "type": "rifle", "unit": "q"}, {"id": "a2", "type": "rifle", "unit": "q"},
...         {"id": "pc", "type": "pc", "unit": "q", "rating": 1, "near": ["a1"]}]},
... })
>>> [c.members for c in Classes.of(b).attacker]
[('a1',), ('a2',), ('pc',)]
>>> [c.members for c in Classes.of(b.next_round(["d1", "a1", "a2", "pc"])).attacker]
[('a1', 'a2'), ('pc',)]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from allocator.games.crossfire.battle import Battle, Role
from allocator.games.crossfire.rules.base import Counts, StandClass
from allocator.games.crossfire.schema import SideName


def _attributes(battle: Battle, stand: str) -> tuple[Any, ...]:
    info = battle.stand(stand)
    return (info.type, info.unit, info.rating, info.quality, info.suppressed)


def _refine(battle: Battle, stands: list[str], tick: Callable[[], None]) -> list[list[str]]:
    """Group ``stands`` by attributes, then by whom they are near, until the grouping is stable."""
    label: dict[str, Any] = {s: _attributes(battle, s) for s in stands}
    while True:
        index = {key: i for i, key in enumerate(sorted(set(label.values()), key=repr))}
        current = {s: index[label[s]] for s in stands}
        refined = {
            s: (current[s], tuple(sorted(current[o] for o in _near_ones(battle, s, stands, tick))))
            for s in stands
        }
        if len(set(refined.values())) == len(set(current.values())):
            break
        label = refined
    groups: dict[int, list[str]] = {}
    for s in stands:
        groups.setdefault(current[s], []).append(s)
    return sorted(groups.values(), key=lambda group: stands.index(group[0]))


def _near(battle: Battle, a: str, b: str) -> bool:
    """Nearness that a rule looks at: an attacking leader and another attacking stand (5a)."""
    if battle.side_of(a) != "attacker" or battle.side_of(b) != "attacker":
        return False
    if Role.leader not in (battle.role(a), battle.role(b)):
        return False
    return battle.near(a, b)


def _near_ones(
    battle: Battle, stand: str, stands: list[str], tick: Callable[[], None]
) -> Iterator[str]:
    for other in stands:
        tick()
        if other != stand and _near(battle, stand, other):
            yield other


def _alike_everywhere(
    battle: Battle, group: list[str], everyone: list[str], tick: Callable[[], None]
) -> bool:
    """Whether all members stand the same way towards every other stand and each other."""
    if len(group) == 1:
        return True
    inside: set[bool] = set()
    for i, a in enumerate(group):
        for b in group[i + 1 :]:
            tick()
            inside.add(_near(battle, a, b))
    if len(inside) > 1:
        return False
    members = set(group)
    for other in everyone:
        tick()
        if other not in members and len({_near(battle, m, other) for m in group}) > 1:
            return False
    return True


@dataclass(frozen=True)
class Classes:
    """The classes of both sides of one battle view (a round's battle)."""

    battle: Battle
    defender: tuple[StandClass, ...]
    attacker: tuple[StandClass, ...]

    @classmethod
    def of(cls, battle: Battle, tick: Callable[[], None] = lambda: None) -> Classes:
        """The classes of ``battle``'s stands; ``tick`` is called at every pair of stands
        compared (a budget's :meth:`~allocator.core.budget.Budget.ticker`)."""
        sides: dict[SideName, tuple[StandClass, ...]] = {}
        for side in ("defender", "attacker"):
            stands = battle.side(side).ids()
            groups: list[list[str]] = []
            for group in _refine(battle, stands, tick):
                if _alike_everywhere(battle, group, stands, tick):
                    groups.append(group)
                else:
                    groups.extend([s] for s in group)
            sides[side] = tuple(
                StandClass(
                    index=i,
                    members=tuple(group),
                    role=battle.role(group[0]),
                    commander=battle.is_commander(group[0]),
                    platoon_leader=battle.role(group[0]) == Role.leader
                    and battle.platoon_leader(group[0]),
                )
                for i, group in enumerate(groups)
            )
        return cls(battle, sides["defender"], sides["attacker"])

    def side(self, name: SideName) -> tuple[StandClass, ...]:
        return self.defender if name == "defender" else self.attacker

    @cached_property
    def class_of(self) -> dict[str, StandClass]:
        return {s: c for side in (self.defender, self.attacker) for c in side for s in c.members}

    def counts(self, side: SideName, stands: Iterable[str]) -> Counts:
        """How many of ``stands`` are in each class of ``side``."""
        counts = [0] * len(self.side(side))
        for s in stands:
            counts[self.class_of[s].index] += 1
        return tuple(counts)

    def members(self, side: SideName, counts: Sequence[int]) -> list[str]:
        """Representative stands for ``counts``: the first of each class, in file order."""
        return [s for c, n in zip(self.side(side), counts, strict=True) for s in c.members[:n]]

    @cached_property
    def near(self) -> tuple[tuple[bool, ...], ...]:
        """``near[i][j]``: a stand of attacker class i is within one stand width of another
        stand of class j (5a); within one class, two of its members."""

        def between(i: StandClass, j: StandClass) -> bool:
            if i is j:
                return len(i.members) > 1 and self.battle.near(i.members[0], i.members[1])
            return self.battle.near(i.members[0], j.members[0])

        return tuple(tuple(between(i, j) for j in self.attacker) for i in self.attacker)

    @cached_property
    def commands(self) -> tuple[tuple[bool, ...], ...]:
        """``commands[i][j]``: attacker class j is among the troops of class i (5b)."""
        b = self.battle
        return tuple(
            tuple(b.commands(i.members[0], j.members[0]) for j in self.attacker)
            for i in self.attacker
        )
