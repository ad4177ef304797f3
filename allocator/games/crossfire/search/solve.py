"""The search as a whole: the best allocation for one side, exactly, within one time budget.

>>> from allocator.core.library import folder
>>> from allocator.games.crossfire.battle import load_battle
>>> outcome = solve(load_battle(folder("scenarios") / "guide-2hmg-1squad-v-4.yaml"), "defender")
>>> outcome.status, outcome.line.value
('optimal', Fraction(3549, 7936))
"""

from __future__ import annotations

from dataclasses import dataclass, field

from allocator.core.budget import Budget
from allocator.core.errors import InputError, TimeLimitError
from allocator.games.crossfire.battle import Battle
from allocator.games.crossfire.odds import CombatOdds, round_odds
from allocator.games.crossfire.rules.grouping import check as check_grouping
from allocator.games.crossfire.schema import Allocation
from allocator.games.crossfire.search.choices import attacker_choices, defender_choices
from allocator.games.crossfire.search.lines import ONE_ROUND_OBJECTIVES, Choices, Combats, Line
from allocator.games.crossfire.search.runner import Runner
from allocator.games.crossfire.search.stages import Stages
from allocator.games.crossfire.warnings import solve_warnings

DEFAULT_TIME_LIMIT = 10.0


@dataclass
class SolveOutcome:
    """The result of a solve, as data: the best line, its odds, the other choices, warnings."""

    side: str
    objective: str
    proven: bool
    line: Line
    odds: list[CombatOdds]
    choices: Choices
    searched: int = 0
    warnings: list[str] = field(default_factory=list)

    @property
    def status(self) -> str:
        return "optimal" if self.proven else "feasible"


def given_grouping(battle: Battle, warnings: list[str]) -> Combats | None:
    """The file's combats, when they are legal (the attacker then answers them)."""
    allocation = battle.allocation
    if allocation is None or allocation.combats is None:
        return None
    wrong = list(check_grouping(battle, Allocation(combats=allocation.combats)))
    if wrong:
        warnings.append(
            f"The file's combats break rule {wrong[0].rule} ({wrong[0].message}); the "
            "attacker answers the defender's best grouping instead. Run `cfalloc check` "
            "for the full report."
        )
        return None
    return allocation.combats


def solve(
    battle: Battle, side: str, objective: str = "sweep", time_limit: float = DEFAULT_TIME_LIMIT
) -> SolveOutcome:
    """The best allocation for ``side``, exactly, with the whole line of play."""
    if side not in ("attacker", "defender"):
        raise InputError(f"unknown side '{side}' (attacker or defender)")
    if objective not in ONE_ROUND_OBJECTIVES:
        raise InputError(
            f"unknown objective '{objective}' (known: {', '.join(ONE_ROUND_OBJECTIVES)})"
        )
    budget = Budget(time_limit)
    warnings = solve_warnings(battle)
    stages = Stages(battle, objective, Runner(budget))
    given = given_grouping(battle, warnings) if side == "attacker" else None
    results: list[Line] = []
    try:
        groupings = [given] if given is not None else stages.groupings()
        for combats in groupings:
            if budget.expired() and results:
                stages.runner.proven = False
                break
            line = stages.attacker_best(combats)
            if line is not None:
                results.append(line)
    except TimeLimitError:
        stages.runner.proven = False
    if not results:
        raise TimeLimitError(time_limit)
    if side == "defender":
        best = min(results, key=lambda line: line.value)
        choices = defender_choices(results, best, stages.runner.proven)
    else:
        best = results[0] if given is not None else min(results, key=lambda line: line.value)
        try:
            choices = attacker_choices(stages, best.combats, best)
        except TimeLimitError:
            choices = Choices(0, False, None)
    odds = round_odds(battle, best.combats, best.attack, best.reallocate)
    return SolveOutcome(
        side, objective, stages.runner.proven, best, odds, choices, stages.searched, warnings
    )
