"""The answers of the Crossfire commands, shared by the command line and the web API.

Each function takes a resolved :class:`~allocator.games.crossfire.battle.Battle` and returns
the typed answer that ``cfalloc ... --json`` prints and the web returns.

>>> from allocator.core.library import folder
>>> from allocator.games.crossfire.battle import load_battle
>>> check_answer(load_battle(folder("scenarios") / "guide-2hmg-1squad-v-4.yaml")).legal
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from allocator.core.budget import Budget
from allocator.games.crossfire.answers import (
    CheckAnswer,
    ExplainAnswer,
    LineAnswer,
    SimulateAnswer,
    SolveAnswer,
    TrialsAnswer,
)
from allocator.games.crossfire.battle import Battle
from allocator.games.crossfire.fight import fight_answer
from allocator.games.crossfire.objectives import DEFAULT_OBJECTIVE, Objective
from allocator.games.crossfire.search.lines import Line

if TYPE_CHECKING:
    from allocator.games.crossfire.search.solve import SolveOutcome


def check_answer(battle: Battle, time_limit: float | None = None) -> CheckAnswer:
    from allocator.games.crossfire.check import NEAREST_TIME_LIMIT, check_battle

    return check_battle(battle, Budget.of_answer(time_limit or NEAREST_TIME_LIMIT))


def line_answer(line: Line) -> LineAnswer:
    return LineAnswer(value=float(line.value), value_exact=line.value, allocation=line.allocation())


def solve_answer(
    battle: Battle,
    side: str,
    objective: Objective = DEFAULT_OBJECTIVE,
    time_limit: float | None = None,
    rounds: int | None = None,
) -> SolveAnswer:
    from allocator.games.crossfire.search.solve import DEFAULT_TIME_LIMIT, solve

    outcome = solve(battle, side, objective, time_limit or DEFAULT_TIME_LIMIT, rounds)
    return answer_of(outcome)


def answer_of(outcome: SolveOutcome) -> SolveAnswer:
    """The JSON answer of a solve: its data, and the words about it."""
    from allocator.games.crossfire.words import not_proven_note, why

    runner = outcome.choices.runner_up
    return SolveAnswer(
        status=outcome.status,
        side=outcome.side,
        objective=outcome.objective,
        value=float(outcome.line.value),
        value_exact=outcome.line.value,
        allocation=outcome.line.allocation(),
        combats=[c.answer() for c in outcome.odds],
        alternatives=outcome.choices.alternatives,
        alternatives_complete=outcome.choices.complete and outcome.proven,
        runner_up=None if runner is None else line_answer(runner),
        why=why(outcome),
        warnings=outcome.warnings,
        note=None if outcome.proven else not_proven_note(outcome.bounds, outcome.objective),
        fight=None if outcome.objective.one_round else fight_answer(outcome),
    )


def explain_answer(
    battle: Battle, objective: Objective = DEFAULT_OBJECTIVE, time_limit: float | None = None
) -> ExplainAnswer:
    from allocator.games.crossfire.explain import explain

    return explain(battle, objective, time_limit)


def simulate_answer(
    battle: Battle,
    rounds: int = 1,
    seed: int | None = None,
    objective: Objective = DEFAULT_OBJECTIVE,
    time_limit: float | None = None,
) -> SimulateAnswer:
    from allocator.games.crossfire.simulate import simulate

    return simulate(battle, rounds, seed, objective, time_limit)


def trials_answer(
    battle: Battle,
    count: int,
    seed: int | None = None,
    objective: Objective = DEFAULT_OBJECTIVE,
    time_limit: float | None = None,
    rounds: int | None = None,
) -> TrialsAnswer:
    from allocator.games.crossfire.simulate import trials

    return trials(battle, count, seed, objective, time_limit, rounds)
