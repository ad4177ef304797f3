"""What every rule family shares: the rule record, the family interface, small helpers.

A *family* is one module of :mod:`allocator.games.crossfire.rules` that owns a group of rules:
their ids, statements and step titles, the plain checks (solver-agnostic, yielding
:class:`~allocator.core.violations.Violation` objects), the CP-SAT constraints that encode the
same rules on the :class:`SharedModel` (which
:class:`~allocator.games.crossfire.model.RulesModel` assembles from every family), and the
teaching prose that says what each step asks of a given battle.

>>> RULE = Rule("2b", 2, "At most one crew-served weapon joins any one squad (or CC/BC).")
>>> RULE.breach("Two weapons in one combat.", ["h2", "h1", "h1"]).stands
['h1', 'h2']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from allocator.core.violations import Violation
from allocator.games.crossfire.battle import Battle, Role
from allocator.games.crossfire.schema import Allocation

if TYPE_CHECKING:
    from allocator.core.budget import Budget

#: How far into the procedure a family reaches: the allocation part it needs, and the model
#: depth that builds its variables.
BUILDING, GROUPING, ATTACK, REALLOCATION, RESOLUTION = 0, 1, 2, 3, 4


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


Literal = Any  # a CP-SAT literal or linear expression (OR-Tools has no public type for them)


class SharedModel:
    """The CP-SAT model the families build together: the stands, the combat slots, every
    family's variables and the helpers that make them.

    Each family creates its variables here (``variables``) and constrains them and the others'
    (``constrain``); :class:`~allocator.games.crossfire.model.RulesModel` assembles the
    families on it and reads its solutions. ``model`` is the ``cp_model.CpModel`` given (this
    module never imports OR-Tools); ``budget`` bounds the time spent building.
    """

    x: dict[tuple[str, int], Literal]
    used: dict[int, Literal]
    has_squad: dict[int, Literal]
    has_weapon: dict[int, Literal]
    head: dict[tuple[str, int], Literal]
    has_commander: dict[int, Literal]
    commander_head: dict[int, Literal]
    y: dict[tuple[str, int], Literal]
    covered: dict[int, Literal]
    opposed: dict[int, Literal]
    fewer: Literal
    acting: dict[tuple[str, int], Literal]
    z: dict[tuple[str, int], Literal]
    stay: dict[tuple[str, int], Literal]
    leave: dict[tuple[str, int], Literal]
    moves: dict[str, Literal]
    final: dict[tuple[str, int], Literal]

    def __init__(
        self,
        battle: Battle,
        model: Any,
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

    def new_bool(self, name: str) -> Literal:
        self.tick()  # every family makes its variables here: a large model stops in time
        return self.model.new_bool_var(name)

    def reify_or(self, literals: Sequence[Literal], name: str) -> Literal:
        if not literals:
            return self.model.new_constant(0)
        flag = self.new_bool(name)
        self.model.add_bool_or(literals).only_enforce_if(flag)
        for lit in literals:
            self.model.add_implication(lit, flag)
        return flag

    def reify_and(self, literals: Sequence[Literal], name: str) -> Literal:
        flag = self.new_bool(name)
        self.model.add_bool_and(literals).only_enforce_if(flag)
        self.model.add_bool_or([lit.negated() for lit in literals]).only_enforce_if(flag.negated())
        return flag

    def reify_at_least(self, expr: Literal, bound: int, name: str) -> Literal:
        flag = self.new_bool(name)
        self.model.add(expr >= bound).only_enforce_if(flag)
        self.model.add(expr < bound).only_enforce_if(flag.negated())
        return flag


class Family(Protocol):
    """The interface every rule family module offers (modules are its instances)."""

    DEPTH: int
    STEPS: dict[int, str]
    RULES: tuple[Rule, ...]

    def check(self, battle: Battle, allocation: Allocation) -> Iterator[Violation]:
        """Every breach of this family's rules in ``allocation`` (given as far as it needs)."""
        ...

    def variables(self, model: SharedModel) -> None:
        """Create this family's decision variables and their definitions in ``model``."""
        ...

    def constrain(self, model: SharedModel) -> None:
        """Add the CP-SAT constraints of this family's rules to ``model``."""
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
