"""The search as a whole: the best allocation for one side, exactly, within one time budget.

Two searches reach the same exact optimum (property tests hold both to the brute-force oracle):

* the enumeration (:mod:`.game`), for every battle whose lines it can count: it values every
  line, so it is the only one for the whole fight (``take``) and the faster one wherever it
  fits (its bounds are in :mod:`.enumeration`; beyond them it says
  :class:`~allocator.games.crossfire.rules.base.TooManyLines`);
* CP-SAT (:mod:`.stages`), for the one-round objectives of battles too large to enumerate.

>>> from allocator.core.library import folder
>>> from allocator.games.crossfire.battle import load_battle
>>> outcome = solve(load_battle(folder("scenarios") / "guide-2hmg-1squad-v-4.yaml"), "defender")
>>> outcome.status, outcome.line.value
('optimal', Fraction(3549, 7936))
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

from allocator.core.budget import Budget
from allocator.core.errors import InputError, TimeLimitError
from allocator.games.crossfire.battle import Battle
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
OBJECTIVES = ("sweep", "exchange", "take")
#: Whether to try the enumeration first (tests switch it off to hold CP-SAT to the oracle).
ENUMERATION = True
#: The share of the time limit the search may use: the rest is kept to find at least a legal
#: line of play when the search found none in time.
SEARCH_SHARE = 0.8


@dataclass
class SolveOutcome:
    """The result of a solve, as data: the best line, its odds, the other choices, warnings.

    For ``take``, ``fight`` says how the whole fight goes; ``one_round`` is what the one-round
    optimum's grouping is worth over the whole fight; ``bounds`` brackets the optimum when the
    time limit stopped the search.
    """

    side: str
    objective: str
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
    objective: str = "sweep",
    time_limit: float = DEFAULT_TIME_LIMIT,
    rounds: int | None = None,
    budget: Budget | None = None,
    after: SolveOutcome | None = None,
) -> SolveOutcome:
    """The best allocation for ``side``, exactly, with the whole line of play.

    ``rounds`` bounds the fight of ``take`` (None: until one side is gone; 1 gives exactly the
    value of ``sweep``). ``after``: a proven whole-fight solve of the same battle, whose states
    this one takes as searched.
    """
    if side not in ("attacker", "defender"):
        raise InputError(f"unknown side '{side}' (attacker or defender)")
    if objective not in OBJECTIVES:
        raise InputError(f"unknown objective '{objective}' (known: {', '.join(OBJECTIVES)})")
    if rounds is not None and objective != "take":
        raise InputError("--rounds bounds the whole fight: use it with --objective take")
    budget = budget or Budget(time_limit)
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
        if objective == "take":
            return _take_beyond_reach(battle, side, rounds, search, given, warnings)
        return _by_cp_sat(battle, side, objective, search, given, warnings)
    except TimeLimitError:
        return _any_legal_line(battle, side, objective, rounds, budget, given, warnings)


def _by_enumeration(
    battle: Battle,
    side: str,
    objective: str,
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


def _take_beyond_reach(
    battle: Battle,
    side: str,
    rounds: int | None,
    budget: Budget,
    given: Combats | None,
    warnings: list[str],
) -> SolveOutcome:
    """Too many lines to search the whole fight: the one-round best, with what it bounds."""
    sweep = _by_cp_sat(battle, side, "sweep", budget, given, warnings)
    low = sweep.line.value if sweep.proven else Fraction(0)
    warnings.append(
        "The whole fight has too many lines to search: this is the best line for winning every "
        "combat of the first round, and the chance of taking the building is at least its value."
    )
    return SolveOutcome(
        side,
        "take",
        False,
        sweep.line,
        sweep.odds,
        sweep.choices,
        sweep.searched,
        warnings,
        bounds=(low, Fraction(1)),
        rounds=rounds,
    )


def _by_cp_sat(
    battle: Battle,
    side: str,
    objective: str,
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
        raise TimeLimitError(budget.seconds or 0.0)
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
    objective: str,
    rounds: int | None,
    budget: Budget,
    given: Combats | None,
    warnings: list[str],
) -> SolveOutcome:
    """A legal line of play from the rules model alone, when the search found none in time."""
    from allocator.games.crossfire.check import nearest_legal
    from allocator.games.crossfire.search.lines import evaluate

    allocation = nearest_legal(
        battle, Allocation(combats=given), depth=3, budget=budget, what="a line of play"
    )
    if allocation is None:
        raise TimeLimitError(budget.seconds or 0.0)
    combats, attack = allocation.combats or {}, allocation.attack or {}
    reallocate = allocation.reallocate or {}
    one_round = "sweep" if objective == "take" else objective
    line = Line(
        combats, attack, reallocate, evaluate(battle, one_round, combats, attack, reallocate)
    )
    if objective == "take":
        warnings.append(
            "The whole fight was not searched in time: this is a legal line of play, and its "
            "value is its chance of winning every combat of the first round."
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
        bounds=(Fraction(0), Fraction(1)) if objective == "take" else None,
        rounds=rounds,
    )
