"""What every rule family shares: the rule record, the family interface, small helpers.

A *family* is one module of :mod:`allocator.games.crossfire.rules` that owns a group of rules:
their ids, statements and step titles, the plain checks (solver-agnostic, yielding
:class:`~allocator.core.violations.Violation` objects), the teaching prose that says what each
step asks of a given battle and, for the families whose rules the CP-SAT model enforces, the
variables and constraints that encode the same rules on the :class:`SharedModel` (which
:class:`~allocator.games.crossfire.model.RulesModel` assembles from those families).

>>> RULE = Rule("2b", 2, "At most one crew-served weapon joins any one squad (or CC/BC).")
>>> RULE.breach("Two weapons in one combat.", ["h2", "h1", "h1"]).stands
['h1', 'h2']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from allocator.core.violations import Violation
from allocator.games.crossfire.battle import Battle, Role
from allocator.games.crossfire.schema import Allocation

if TYPE_CHECKING:
    from allocator.core.budget import Budget
    from allocator.core.cpsat import BoolLiteral, BoolVar, Expr, cp_model

#: How far into the procedure a rules model reaches (its ``depth``): the families whose
#: variables it builds, the grouping's (steps 1-3), then the attack's (4-5), then the
#: reallocation's (6); as many of the allocation's parts as it decides.
GROUPING, ATTACK, REALLOCATION = 1, 2, 3


@dataclass(frozen=True)
class Rule:
    """One rule: its id (as in docs/rules.md), its step and its statement.

    ``checked`` rules are about legal allocations (each has a passing and a failing scenario);
    the others are about scoring and resolution and show in the odds.
    """

    id: str
    step: int
    statement: str
    checked: bool = True

    def breach(self, message: str, stands: Iterable[str]) -> Violation:
        """A violation of this rule, naming the stands involved (sorted, once each)."""
        return Violation(rule=self.id, step=self.step, message=message, stands=sorted(set(stands)))


class TooManyLines(Exception):
    """An enumeration of lines of play would be larger than its bound."""


Counts = tuple[int, ...]
"""How many stands of each class (of one side) a combat or a state holds."""


@dataclass(frozen=True)
class StandClass:
    """Interchangeable stands of one side, in file order, and what the rules look at."""

    index: int
    members: tuple[str, ...]
    role: Role
    commander: bool
    platoon_leader: bool


class SharedModel:
    """What the families' CP-SAT parts share: the model, the stands, the combat slots and the
    helpers that make variables.

    The families make their variables here and return them in containers of their own (see
    :class:`Family`); :class:`~allocator.games.crossfire.model.RulesModel` assembles the
    families on it, keeps their containers and reads its solutions. ``model`` is the
    ``cp_model.CpModel`` given (this module never imports OR-Tools); ``budget`` bounds the time
    spent building.
    """

    def __init__(
        self,
        battle: Battle,
        model: cp_model.CpModel,
        depth: int,
        slots: int | None = None,
        budget: Budget | None = None,
    ):
        self.battle = battle
        self.depth = depth
        self.budget = budget
        self.model = model
        self.defenders = battle.defender.ids()
        self.all_attackers = battle.attacker.ids()
        self.attackers = [
            a for a in self.all_attackers if battle.role(a) in (Role.squad, Role.leader)
        ]
        self.slots = list(range(slots if slots is not None else len(self.defenders)))
        self.of_role = {role: battle.defender.ids(role) for role in Role}
        self.commanders = [s for s in self.of_role[Role.leader] if battle.is_commander(s)]

    # --- helpers for the families ---------------------------------------------------------

    def tick(self) -> None:
        """Keep building within the budget: the families call this in their long loops."""
        if self.budget is not None:
            self.budget.check("the rules model")

    def new_bool(self, name: str) -> BoolVar:
        self.tick()  # every family makes its variables here: a large model stops in time
        return self.model.new_bool_var(name)

    def reify_or(self, literals: Sequence[BoolLiteral], name: str) -> BoolVar:
        if not literals:
            return self.model.new_constant(0)
        flag = self.new_bool(name)
        self.model.add_bool_or(literals).only_enforce_if(flag)
        for lit in literals:
            self.model.add_implication(lit, flag)
        return flag

    def reify_and(self, literals: Sequence[BoolLiteral], name: str) -> BoolVar:
        flag = self.new_bool(name)
        self.model.add_bool_and(literals).only_enforce_if(flag)
        self.model.add_bool_or([lit.negated() for lit in literals]).only_enforce_if(flag.negated())
        return flag

    def reify_at_least(self, expr: Expr, bound: int, name: str) -> BoolVar:
        flag = self.new_bool(name)
        self.model.add(expr >= bound).only_enforce_if(flag)
        self.model.add(expr < bound).only_enforce_if(flag.negated())
        return flag


class Family(Protocol):
    """The interface every rule family module offers (modules are its instances).

    A family whose rules the CP-SAT model enforces also has ``variables``, which creates its
    variables and returns them in a container defined in its module (a frozen dataclass typed
    with OR-Tools' types, compared by identity since ``==`` on variables makes a constraint),
    and ``constrain``, which adds its rules' constraints. Each takes the :class:`SharedModel`
    and the containers of the families before it that it builds on, so that their signatures
    differ from family to family and :class:`~allocator.games.crossfire.model.RulesModel` calls
    each by name.
    """

    STEPS: dict[int, str]
    RULES: tuple[Rule, ...]

    def check(self, battle: Battle, allocation: Allocation) -> Iterator[Violation]:
        """Every breach of this family's rules in ``allocation`` (given as far as it needs)."""
        ...

    def requirements(self, battle: Battle, step: int) -> list[str]:
        """What ``step`` asks of this battle's stands, in plain words."""
        ...


def book(rules: Iterable[Rule]) -> dict[str, Rule]:
    """A family's rules by id."""
    return {rule.id: rule for rule in rules}


def combat_names(count: int) -> list[str]:
    """The names of ``count`` new combats: A, B, C, ... Z, then C27, C28, ...

    >>> combat_names(3), combat_names(28)[-2:]
    (['A', 'B', 'C'], ['C27', 'C28'])
    """
    return [chr(ord("A") + i) if i < 26 else f"C{i + 1}" for i in range(count)]


def compositions(total: int, parts: int) -> Iterator[Counts]:
    """Every way to split ``total`` interchangeable stands over ``parts`` places, most first.

    >>> list(compositions(2, 2))
    [(2, 0), (1, 1), (0, 2)]
    """
    if parts == 1:
        yield (total,)
        return
    for first in range(total, -1, -1):
        for rest in compositions(total - first, parts - 1):
            yield (first, *rest)


def names(ids: Iterable[str]) -> str:
    return ", ".join(sorted(ids))


def combats_text(names_: Sequence[str]) -> str:
    return f"Combat{'s' if len(names_) > 1 else ''} {names(names_)}"


def by_role(battle: Battle, ids: Iterable[str]) -> dict[Role, list[str]]:
    groups: dict[Role, list[str]] = {role: [] for role in Role}
    for stand in ids:
        groups[battle.role(stand)].append(stand)
    return groups


def troops_in_building(battle: Battle, leader: str) -> list[str]:
    """The squads and crew-served weapons of the leader's side subordinate to ``leader``."""
    return battle.troops(leader)
