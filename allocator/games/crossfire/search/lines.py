"""A line of play (the three choices of the procedure) and its exact value.

>>> from fractions import Fraction
>>> Line({"A": ["d1"]}, {"A": ["a1"]}, {}, Fraction(1, 2)).allocation().combats
{'A': ['d1']}
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from allocator.games.crossfire.battle import Battle
from allocator.games.crossfire.objectives import RoundObjective
from allocator.games.crossfire.odds import round_odds
from allocator.games.crossfire.schema import Allocation

Combats = dict[str, list[str]]
Attack = dict[str, list[str]]
Reallocation = dict[str, str]


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


def evaluate(
    battle: Battle,
    objective: RoundObjective,
    combats: Combats,
    attack: Attack,
    reallocate: Reallocation,
) -> Fraction:
    """The exact one-round value of a line."""
    return objective.of_round(round_odds(battle, combats, attack, reallocate))
