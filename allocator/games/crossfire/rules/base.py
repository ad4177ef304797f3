"""What every rule family shares: the rule record, the family interface, small helpers.

A *family* is one module of :mod:`allocator.games.crossfire.rules` that owns a group of rules:
their ids, statements and step titles, the plain checks (solver-agnostic, yielding
:class:`~allocator.core.violations.Violation` objects), the CP-SAT constraints that encode the
same rules in :class:`~allocator.games.crossfire.model.RulesModel`, and the teaching prose that
says what each step asks of a given battle.

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
    from allocator.games.crossfire.model import RulesModel

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


class Family(Protocol):
    """The interface every rule family module offers (modules are its instances)."""

    DEPTH: int
    STEPS: dict[int, str]
    RULES: tuple[Rule, ...]

    def check(self, battle: Battle, allocation: Allocation) -> Iterator[Violation]:
        """Every breach of this family's rules in ``allocation`` (given as far as it needs)."""
        ...

    def variables(self, model: RulesModel) -> None:
        """Create this family's decision variables and their definitions in ``model``."""
        ...

    def constrain(self, model: RulesModel) -> None:
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
