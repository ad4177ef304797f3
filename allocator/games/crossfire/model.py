"""The CP-SAT model of the legal allocation space: one model, assembled from the rule families.

Combats are *slots*; ``x[s, c]`` puts defending stand ``s`` in slot ``c`` (steps 1-3),
``y[a, c]`` sends attacking stand ``a`` against it (steps 4-5) and ``z[s, c]`` moves a stand of
an unopposed combat into it (step 6). Each family of :mod:`allocator.games.crossfire.rules`
that the model enforces creates its variables on the
:class:`~allocator.games.crossfire.rules.base.SharedModel` this model is and returns them in its
own typed container, which the model keeps: ``grouping``
(:class:`~allocator.games.crossfire.rules.grouping.GroupingVariables`), ``attack``
(:class:`~allocator.games.crossfire.rules.attack.AttackVariables`) and ``reallocation``
(:class:`~allocator.games.crossfire.rules.reallocation.ReallocationVariables`), as far as its
depth reaches; then each family adds its constraints on its own container and those of the
families before it. A model can leave a family's constraints out (``families=``), so that each
family's constraints can be tested on their own. OR-Tools is imported only by this module and
its users, which are themselves imported lazily.

>>> from allocator.games.crossfire.battle import battle_from_data
>>> b = battle_from_data({
...     "defender": {"units": [{"id": "p", "kind": "platoon"}], "stands": [
...         {"id": "d1", "type": "rifle", "unit": "p"},
...         {"id": "d2", "type": "rifle", "unit": "p"}]},
...     "attacker": {"units": [{"id": "q", "kind": "platoon"}],
...                  "stands": [{"id": "a1", "type": "rifle", "unit": "q"}]},
... })
>>> m = RulesModel(b, depth=REALLOCATION, slots=2)
>>> m.solve_status() in ("OPTIMAL", "FEASIBLE")
True
>>> sorted(m.attack.y)
[('a1', 0), ('a1', 1)]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from allocator.core.budget import Budget
from allocator.core.cpsat import cp_model, new_solver
from allocator.games.crossfire.battle import Battle
from allocator.games.crossfire.rules import FAMILIES, attack, grouping, reallocation
from allocator.games.crossfire.rules.attack import AttackVariables
from allocator.games.crossfire.rules.base import (
    ATTACK,
    GROUPING,
    REALLOCATION,
    Family,
    SharedModel,
    combat_names,
)
from allocator.games.crossfire.rules.reallocation import ReallocationVariables
from allocator.games.crossfire.schema import Allocation

if TYPE_CHECKING:
    from allocator.core.cpsat import BoolVar, Expr

__all__ = ["ATTACK", "GROUPING", "REALLOCATION", "RulesModel", "SlotNames"]


@dataclass
class SlotNames:
    """Slot index <-> combat name: the proposal's names first, then fresh ones."""

    names: list[str]

    @classmethod
    def for_proposal(cls, proposal: Sequence[str], slots: int) -> SlotNames:
        """The proposal's names, then new ones as the player would write them (A, B, ...)."""
        names = list(proposal)
        fresh = (n for n in combat_names(len(names) + slots) if n not in names)
        names += [next(fresh) for _ in range(slots - len(names))]
        return cls(names)

    def index(self, name: str) -> int | None:
        return self.names.index(name) if name in self.names else None


class RulesModel(SharedModel):
    """The legal allocations of a battle up to ``depth``, over ``slots`` combat slots.

    ``depth`` (``GROUPING``, ``ATTACK`` or ``REALLOCATION``, the default) says whose variables
    are created: the grouping's always, the attack's from ``ATTACK`` on, the reallocation's at
    ``REALLOCATION``. ``families`` (default: all) are the families whose constraints are added.
    ``budget`` bounds the time spent building.

    Attributes
    ----------
    grouping : GroupingVariables
        The variables of steps 1-3.
    attack : AttackVariables
        The variables of steps 4-5 (an ``AttributeError`` below depth ``ATTACK``).
    reallocation : ReallocationVariables
        The variables of step 6 (an ``AttributeError`` below depth ``REALLOCATION``).
    """

    def __init__(
        self,
        battle: Battle,
        depth: int = REALLOCATION,
        slots: int | None = None,
        families: Iterable[Family] | None = None,
        budget: Budget | None = None,
    ):
        super().__init__(battle, cp_model.CpModel(), depth, slots, budget)
        self.grouping = grouping.variables(self)
        self._attack = attack.variables(self, self.grouping) if depth >= ATTACK else None
        self._reallocation = (
            reallocation.variables(self, self.grouping, self.attack)
            if depth >= REALLOCATION
            else None
        )
        chosen = {id(family) for family in (FAMILIES if families is None else families)}
        if id(grouping) in chosen:
            grouping.constrain(self, self.grouping)
        if self._attack is not None and id(attack) in chosen:
            attack.constrain(self, self.grouping, self._attack)
        if self._reallocation is not None and id(reallocation) in chosen:
            reallocation.constrain(self, self.grouping, self.attack, self._reallocation)

    @property
    def attack(self) -> AttackVariables:
        return _built(self._attack, "attack", ATTACK, self.depth)

    @property
    def reallocation(self) -> ReallocationVariables:
        return _built(self._reallocation, "reallocation", REALLOCATION, self.depth)

    # --- fixing, distances, reading ---------------------------------------------------------

    def fix(self, allocation: Allocation, names: SlotNames) -> bool:
        """Constrain the model to ``allocation``; False when it cannot even be expressed."""
        return self._match(allocation, names, fix=True) is not None

    def distance_to(self, allocation: Allocation, names: SlotNames) -> Expr:
        """The number of stands placed differently from ``allocation`` (a linear expression)."""
        distance = self._match(allocation, names, fix=False)
        assert distance is not None, "only fixing refuses an allocation"
        return distance

    def _match(self, allocation: Allocation, names: SlotNames, fix: bool) -> Expr | None:
        m = self.model
        terms: list[Expr] = []

        def place(
            var_of: Mapping[tuple[str, int], BoolVar], stand: str, target: str | None
        ) -> bool:
            index = None if target is None else names.index(target)
            if target is not None and index is None:
                if fix:
                    return False
                terms.append(1)
                return True
            for c in self.slots:
                want = 1 if c == index else 0
                if fix:
                    m.add(var_of[stand, c] == want)
                elif want:
                    terms.append(1 - var_of[stand, c])
            return True

        if allocation.combats is not None:
            where: dict[str, list[str]] = {}
            for name, ids in allocation.combats.items():
                for s in ids:
                    where.setdefault(s, []).append(name)
                if fix and (index := names.index(name)) is not None:
                    m.add(self.grouping.used[index] == 1)
            for s in self.defenders:
                targets = where.get(s, [])
                if fix and len(targets) != 1:
                    return None
                if not targets:
                    terms.append(1)
                elif not place(self.grouping.x, s, targets[0]):
                    return None
        if allocation.attack is not None and self.depth >= ATTACK:
            sent: dict[str, list[str]] = {}
            for name, ids in allocation.attack.items():
                for a in ids:
                    sent.setdefault(a, []).append(name)
            if fix and any(len(targets) != 1 for targets in sent.values()):
                return None
            for a in self.all_attackers:
                targets = sent.get(a, [])
                if not place(self.attack.y, a, targets[0] if targets else None):
                    return None
                if not fix and not targets:
                    terms.append(sum(self.attack.y[a, c] for c in self.slots))
        if allocation.reallocate is not None and self.depth >= REALLOCATION:
            for s in self.defenders:
                target = allocation.reallocate.get(s)
                if not place(self.reallocation.z, s, target):
                    return None
                if not fix and target is None:
                    terms.append(sum(self.reallocation.z[s, c] for c in self.slots))
        return sum(terms) if not fix else 0

    def read(self, solver: cp_model.CpSolver, names: SlotNames, depth: int) -> Allocation:
        """The allocation a solved model holds, named by ``names``, up to ``depth``."""
        x = self.grouping.x
        used = [c for c in self.slots if solver.value(self.grouping.used[c])]
        combats = {
            names.names[c]: [s for s in self.defenders if solver.value(x[s, c])] for c in used
        }
        attack = None
        reallocate = None
        if depth >= ATTACK:
            y = self.attack.y
            attack = {
                names.names[c]: [a for a in self.attackers if solver.value(y[a, c])] for c in used
            }
            attack = {n: ids for n, ids in attack.items() if ids}
        if depth >= REALLOCATION:
            z = self.reallocation.z
            reallocate = {
                s: names.names[c]
                for s in self.defenders
                for c in self.slots
                if solver.value(z[s, c])
            }
        return Allocation(combats=combats, attack=attack, reallocate=reallocate)

    def solve_status(self, time_limit: float | None = None) -> str:
        solver = new_solver(self.model, time_limit)
        status: str = solver.status_name(solver.solve(self.model))
        return status


Variables = TypeVar("Variables")


def _built(variables: Variables | None, family: str, needed: int, depth: int) -> Variables:
    """A family's variables, which a model of depth ``needed`` or more has built."""
    if variables is None:
        raise AttributeError(
            f"a rules model of depth {depth} has no {family} variables: they need depth {needed}"
        )
    return variables
