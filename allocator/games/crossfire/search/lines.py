"""A line of play (the three choices of the procedure) and its exact value.

>>> from fractions import Fraction
>>> Line({"A": ["d1"]}, {"A": ["a1"]}, {}, Fraction(1, 2)).allocation().combats
{'A': ['d1']}
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction

from allocator.core.errors import InputError
from allocator.games.crossfire.battle import Battle
from allocator.games.crossfire.odds import OBJECTIVES, CombatOdds, round_odds
from allocator.games.crossfire.schema import Allocation

Combats = dict[str, list[str]]
Attack = dict[str, list[str]]
Reallocation = dict[str, str]
ONE_ROUND_OBJECTIVES = ("sweep", "exchange")


@dataclass
class Line:
    """A whole line of play and its exact value."""

    combats: Combats
    attack: Attack
    reallocate: Reallocation
    value: Fraction

    def allocation(self) -> Allocation:
        return Allocation(combats=self.combats, attack=self.attack, reallocate=self.reallocate)


@dataclass
class Choices:
    """The deciding side's other choices: how many reach the optimum's value (and whether that
    count is complete), and the best one that does not (the runner-up)."""

    alternatives: int
    complete: bool
    runner_up: Line | None


def objective_function(objective: str) -> Callable[[Iterable[CombatOdds]], Fraction]:
    """The one-round objective ``objective`` as a function of the round's combat odds."""
    if objective not in OBJECTIVES:
        raise InputError(f"unknown objective '{objective}' (known: {', '.join(OBJECTIVES)})")
    return OBJECTIVES[objective]


def evaluate(
    battle: Battle, objective: str, combats: Combats, attack: Attack, reallocate: Reallocation
) -> Fraction:
    """The exact one-round value of a line."""
    return objective_function(objective)(round_odds(battle, combats, attack, reallocate))
