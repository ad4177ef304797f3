"""The search as a whole: the best allocation for one side, exactly, within one time budget.

Two searches reach the same exact optimum (property tests hold both to the brute-force oracle):

* the enumeration (:mod:`.game`), for every battle whose lines it can count: it values every
  line, so it is the only one for the whole fight (``take``) and the faster one wherever it
  fits (its bounds are in :mod:`.enumeration`; beyond them it says
  :class:`~allocator.games.crossfire.rules.base.TooManyLines`);
* CP-SAT (:mod:`.stages`), for the one-round objectives of battles too large to enumerate.

>>> from allocator.core.library import folder
>>> from allocator.games.crossfire.battle import load_battle
>>> from allocator.games.crossfire.objectives import objective_named
>>> battle = load_battle(folder("scenarios") / "guide-2hmg-1squad-v-4.yaml")
>>> outcome = solve(battle, "defender", objective_named("sweep"))
>>> outcome.status, outcome.line.value
('optimal', Fraction(3549, 7936))
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

from allocator.core.budget import Budget
from allocator.core.errors import InputError, TimeLimitError, WorkCancelled
from allocator.games.crossfire.battle import Battle, Role
from allocator.games.crossfire.objectives import (
    DEFAULT_OBJECTIVE,
    FightObjective,
    Objective,
    RoundObjective,
)
from allocator.games.crossfire.odds import CombatOdds, round_odds
from allocator.games.crossfire.rules.base import TooManyLines
from allocator.games.crossfire.rules.grouping import check as check_grouping
from allocator.games.crossfire.schema import Allocation
from allocator.games.crossfire.search.lines import Choices, Combats, Line
from allocator.games.crossfire.warnings import solve_warnings

if TYPE_CHECKING:
    from allocator.games.crossfire.search.engine import Engine
    from allocator.games.crossfire.search.game import FightStats, Playbook

DEFAULT_TIME_LIMIT = 10.0
#: Whether to try the enumeration first (tests switch it off to hold CP-SAT to the oracle).
ENUMERATION = True
#: The share of the time limit the search may use: the rest is kept to find at least a legal
#: line of play when the search found none in time.
SEARCH_SHARE = 0.8


@dataclass
class SolveOutcome:
    """The result of a solve, as data: the best line, its odds, the other choices, warnings.

    For a fight objective (``take``), ``fight`` says how the whole fight goes; ``one_round`` is
    what the one-round optimum's grouping is worth over the whole fight; ``bounds`` brackets the
    optimum when the time limit stopped the search.
    """

    side: str
    objective: Objective
    proven: bool
    line: Line
    odds: list[CombatOdds]
    choices: Choices
    searched: int = 0
    warnings: list[str] = field(default_factory=list)
    fight: FightStats | None = None
    bounds: tuple[Fraction, Fraction] | None = None
    one_round: Fraction | None = None
    rounds: int | None = None
    playbook: Playbook | None = None

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
    battle: Battle,
    side: str,
    objective: Objective = DEFAULT_OBJECTIVE,
    time_limit: float = DEFAULT_TIME_LIMIT,
    rounds: int | None = None,
    budget: Budget | None = None,
    after: SolveOutcome | None = None,
) -> SolveOutcome:
    """The best allocation for ``side``, exactly, with the whole line of play.

    Parameters
    ----------
    battle : Battle
        The fight; with ``side="attacker"`` and legal combats in its file, the attacker answers
        those combats.
    side : str
        ``"attacker"`` or ``"defender"``: whose best line.
    objective : Objective
        What the attacker plays for (:mod:`~allocator.games.crossfire.objectives`).
    time_limit : float
        Seconds for all the work, when no ``budget`` is given.
    rounds : int or None
        Bounds the fight of a fight objective (None: until one side is gone; 1 gives exactly
        the value of its first round's objective).
    budget : Budget or None
        The deadline to keep to, shared with other work of the same answer.
    after : SolveOutcome or None
        A proven whole-fight solve of the same battle, whose states this one takes as searched.

    Returns
    -------
    SolveOutcome
        ``status`` ``optimal``, or ``feasible`` when the time limit stopped the search.

    Raises
    ------
    InputError
        An unknown side, or ``rounds`` with a round objective.
    TimeLimitError
        When not even a legal line was found in time.
    """
    if side not in ("attacker", "defender"):
        raise InputError(f"unknown side '{side}' (attacker or defender)")
    if rounds is not None and objective.one_round:
        raise InputError(
            f"--rounds bounds the whole fight: it does not apply to --objective {objective}"
        )
    budget = budget or Budget.of_answer(time_limit)
    if budget.remaining() <= 0:  # spent before the search (a slow start-up): nothing to start
        raise budget.ran_out()
    warnings = solve_warnings(battle)
    given = given_grouping(battle, warnings) if side == "attacker" else None
    search = budget.share(SEARCH_SHARE)
    try:
        if ENUMERATION:
            try:
                searched = None
                if after is not None and after.proven and after.playbook is not None:
                    searched = after.playbook.root.engine
                return _by_enumeration(
                    battle, side, objective, rounds, search, given, warnings, searched
                )
            except TooManyLines:
                pass
        if isinstance(objective, FightObjective):
            return _fight_beyond_reach(battle, side, objective, rounds, search, given, warnings)
        # a round objective is its own first round
        return _by_cp_sat(battle, side, objective.first_round, search, given, warnings)
    except WorkCancelled:
        raise  # nobody waits for a legal line
    except TimeLimitError:
        return _any_legal_line(battle, side, objective, rounds, budget, given, warnings)


def _by_enumeration(
    battle: Battle,
    side: str,
    objective: Objective,
    rounds: int | None,
    budget: Budget,
    given: Combats | None,
    warnings: list[str],
    searched: Engine | None = None,
) -> SolveOutcome:
    from allocator.games.crossfire.search.game import solve_game

    game = solve_game(battle, side, objective, rounds, budget, given, searched)
    line = game.line
    return SolveOutcome(
        side,
        objective,
        game.proven,
        line,
        round_odds(battle, line.combats, line.attack, line.reallocate),
        game.choices,
        game.states,
        warnings,
        fight=game.fight,
        bounds=game.bounds,
        one_round=game.one_round,
        rounds=rounds,
        playbook=game.playbook,
    )


def _fight_beyond_reach(
    battle: Battle,
    side: str,
    objective: FightObjective,
    rounds: int | None,
    budget: Budget,
    given: Combats | None,
    warnings: list[str],
) -> SolveOutcome:
    """Too many lines to search the whole fight: the first round's best, with what it bounds."""
    first = objective.first_round
    found = _by_cp_sat(battle, side, first, budget, given, warnings)
    least, most = _bounds_of(objective)
    if found.proven and found.line.value == most:  # a lower bound at the most it can be
        return _taken_in_round_one(battle, side, objective, found, rounds)
    low = found.line.value if found.proven else least
    warnings.append(
        "The whole fight has too many lines to search: this is the best line for the first "
        f"round alone ({first.title}), and its value is a lower bound of the whole fight's."
    )
    return SolveOutcome(
        side,
        objective,
        False,
        found.line,
        found.odds,
        found.choices,
        found.searched,
        warnings,
        bounds=(low, most),
        rounds=rounds,
    )


def _taken_in_round_one(
    battle: Battle, side: str, objective: FightObjective, found: SolveOutcome, rounds: int | None
) -> SolveOutcome:
    """The whole fight when the attacker wins every combat of round 1 for certain against
    every grouping (the first round's proven optimum is 1): the building is taken in round 1,
    so the fight's value is exactly 1 without a search of the fight. The attacker's other
    answers worth 1 over the whole fight are not all counted, nor is there a runner-up."""
    from allocator.games.crossfire.search.game import FightStats

    choices = found.choices
    if side == "attacker":
        choices = Choices(choices.alternatives, False, None)
    attackers = sum(1 for s in battle.attacker.ids() if battle.role(s) in (Role.squad, Role.leader))
    defenders = len(battle.defender.ids())
    fight = FightStats(
        Fraction(1),
        Fraction(1),
        {"attacker": Fraction(0), "defender": Fraction(defenders)},
        {(attackers, 0): Fraction(1)},
        0,
    )
    return SolveOutcome(
        side,
        objective,
        True,
        found.line,
        found.odds,
        choices,
        0,
        found.warnings,
        fight=fight,
        one_round=Fraction(1),
        rounds=rounds,
    )


def _bounds_of(objective: FightObjective) -> tuple[Fraction, Fraction]:
    bounds = objective.bounds
    assert bounds is not None, "a fight objective's values are bounded: its states end somewhere"
    return bounds


def _by_cp_sat(
    battle: Battle,
    side: str,
    objective: RoundObjective,
    budget: Budget,
    given: Combats | None,
    warnings: list[str],
) -> SolveOutcome:
    from allocator.games.crossfire.search.choices import attacker_choices, defender_choices
    from allocator.games.crossfire.search.runner import Runner
    from allocator.games.crossfire.search.stages import Stages

    stages = Stages(battle, objective, Runner(budget))
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
        raise budget.ran_out()
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


def _any_legal_line(
    battle: Battle,
    side: str,
    objective: Objective,
    rounds: int | None,
    budget: Budget,
    given: Combats | None,
    warnings: list[str],
) -> SolveOutcome:
    """A legal line of play from the rules model alone, when the search found none in time."""
    budget.check()
    from allocator.games.crossfire.check import nearest_legal
    from allocator.games.crossfire.search.lines import evaluate

    allocation = nearest_legal(
        battle, Allocation(combats=given), depth=3, budget=budget, what="a line of play"
    )
    if allocation is None:
        raise budget.ran_out()
    combats, attack = allocation.combats or {}, allocation.attack or {}
    reallocate = allocation.reallocate or {}
    first = objective.first_round
    line = Line(combats, attack, reallocate, evaluate(battle, first, combats, attack, reallocate))
    if isinstance(objective, FightObjective):
        warnings.append(
            "The whole fight was not searched in time: this is a legal line of play, and its "
            f"value is that of the first round alone ({first.title})."
        )
    return SolveOutcome(
        side,
        objective,
        False,
        line,
        round_odds(battle, combats, attack, reallocate),
        Choices(0, False, None),
        0,
        warnings,
        bounds=_bounds_of(objective) if isinstance(objective, FightObjective) else None,
        rounds=rounds,
    )
