"""The same fight under two or more rulesets: what each gives, and which number makes it differ.

Each profile (a shipped one, a file of your own, or a base with house rules) is put in the
battle's place of its ruleset; the fight is then solved for the one round (``sweep``) and the
whole fight (``take``), both sides at their best, and the values and best lines set side by
side. What makes them differ is said twice: the ruleset values that differ from the first
profile's, and, for each of them, what the values become when the first profile changes that
value alone (so a change that moves nothing is told apart from the one that moves it all).

>>> from allocator.core.library import folder
>>> from allocator.games.crossfire.battle import load_battle
>>> from allocator.games.crossfire.profile import profile_from_spec
>>> battle = load_battle(folder("scenarios") / "rule-1a-pass.yaml")
>>> profiles = {name: profile_from_spec(name) for name in ("crossfire", "crossfire:ties=defender")}
>>> result = compare_rulesets(battle, profiles)
>>> [(run.name, str(run.one_round.value)) for run in result.runs]
[('crossfire', '1/4'), ('crossfire:ties=defender', '25/144')]
>>> [(effect.key, str(effect.one_round)) for effect in result.effects]
[('ties', '25/144')]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from allocator.core.budget import Budget
from allocator.core.errors import InputError, MemoryLimitError, TimeLimitError, WorkCancelled
from allocator.games.crossfire.answers import (
    CompareAnswer,
    CompareChange,
    CompareEffect,
    CompareLine,
    CompareProfile,
)
from allocator.games.crossfire.battle import Battle
from allocator.games.crossfire.objectives import OBJECTIVES, Objective
from allocator.games.crossfire.profile import Ruleset
from allocator.games.crossfire.schema import Allocation

DEFAULT_TIME_LIMIT = 30.0
#: The two questions each profile answers: the round alone and the whole fight.
ONE_ROUND, WHOLE_FIGHT = OBJECTIVES["sweep"], OBJECTIVES["take"]
#: The most profiles one comparison sets side by side.
MOST_PROFILES = 8


@dataclass(frozen=True)
class Solved:
    """One objective's optimum under one ruleset: its value and the defender's best line."""

    value: Fraction
    allocation: Allocation


@dataclass(frozen=True)
class Run:
    name: str
    ruleset: Ruleset
    one_round: Solved
    whole_fight: Solved


@dataclass(frozen=True)
class Effect:
    """The first profile with one value changed to another profile's, and what it gives."""

    profile: str
    key: str
    before: Any
    after: Any
    one_round: Fraction
    whole_fight: Fraction


@dataclass
class Comparison:
    runs: list[Run]
    changed: dict[str, dict[str, Any]]
    effects: list[Effect]
    proven: bool
    warnings: list[str] = field(default_factory=list)


class _Solver:
    """Every solve of a comparison, each given an even share of what is left of one budget."""

    def __init__(self, battle: Battle, budget: Budget, solves: int):
        self.battle, self.budget, self.left, self.solves = battle, budget, solves, solves
        self.proven = True
        #: The solves' warnings about the fight, each once (most are the same under every one).
        self.warnings: dict[str, None] = {}

    def solve(self, ruleset: Ruleset, objective: Objective, under: str) -> Solved:
        """The defender's best line for ``objective`` under ``ruleset`` (named ``under`` in a
        message), in its share of the budget."""
        from allocator.games.crossfire.search.solve import solve

        share = self.budget.share(1 / max(1, self.left))
        self.left -= 1
        try:
            outcome = solve(self.battle.with_ruleset(ruleset), "defender", objective, budget=share)
        except (MemoryLimitError, WorkCancelled):
            raise
        except TimeLimitError as stopped:
            fight = "one round" if objective is ONE_ROUND else "the whole fight"
            raise TimeLimitError(
                stopped.seconds,
                f"{fight} under {under} (one of the {self.solves} fights compared, each in an "
                "even share of the time)",
            ) from None
        self.proven &= outcome.proven
        self.warnings.update(dict.fromkeys(outcome.warnings))
        return Solved(outcome.line.value, outcome.line.allocation())


def compare_rulesets(
    battle: Battle,
    profiles: dict[str, Ruleset],
    time_limit: float = DEFAULT_TIME_LIMIT,
    budget: Budget | None = None,
) -> Comparison:
    """The fight under each profile, and what differs between them.

    Parameters
    ----------
    battle : Battle
        The fight (its own ruleset is replaced by each profile's).
    profiles : dict of str to Ruleset
        Two or more profiles by the names they are shown with; the first is the reference
        the others are compared with.
    time_limit : float
        Seconds for all the work, when no ``budget`` is given.
    budget : Budget or None
        The deadline to keep to (a sweep's cell shares its own).

    Returns
    -------
    Comparison

    Raises
    ------
    InputError
        Fewer than two profiles, or more than :data:`MOST_PROFILES`.
    TimeLimitError
        When a fight could not be solved at all in its share of the time.
    """
    if not 2 <= len(profiles) <= MOST_PROFILES:
        raise InputError(
            f"compare needs 2 to {MOST_PROFILES} profiles, not {len(profiles)}: give --profile "
            "once for each",
            place="--profile",
        )
    names = list(profiles)
    reference = profiles[names[0]]
    changed = _changed(profiles)
    single = [(n, k) for n in names[1:] for k in changed if _differs(reference, profiles[n], k)]
    changes = {n: sum(name == n for name, _ in single) for n in names}
    solves = 2 * len(profiles) + 2 * sum(changes[n] > 1 for n, _ in single)
    solver = _Solver(battle, budget or Budget(time_limit), solves)
    runs = [
        Run(n, r, solver.solve(r, ONE_ROUND, n), solver.solve(r, WHOLE_FIGHT, n))
        for n, r in profiles.items()
    ]
    by_name = {run.name: run for run in runs}
    effects = []
    for name, key in single:
        after = profiles[name].value(key)
        if changes[name] == 1:  # the profile's only change: its own run says what it does
            one, whole = by_name[name].one_round.value, by_name[name].whole_fight.value
        else:
            alone = reference.with_overrides({key: after}, source=name)
            only = f"{name}'s {key} alone"
            one = solver.solve(alone, ONE_ROUND, only).value
            whole = solver.solve(alone, WHOLE_FIGHT, only).value
        effects.append(Effect(name, key, reference.value(key), after, one, whole))
    return Comparison(runs, changed, effects, solver.proven, list(solver.warnings))


def _differs(one: Ruleset, other: Ruleset, key: str) -> bool:
    return bool(one.value(key) != other.value(key))


def _changed(profiles: dict[str, Ruleset]) -> dict[str, dict[str, Any]]:
    """Each ruleset value that is not the same in every profile: its value in each."""
    first = next(iter(profiles.values()))
    return {
        key: {name: profile.value(key) for name, profile in profiles.items()}
        for key in first.values
        if len({repr(profile.value(key)) for profile in profiles.values()}) > 1
    }


def compare_answer(
    battle: Battle,
    profiles: dict[str, Ruleset],
    time_limit: float | None = None,
    budget: Budget | None = None,
) -> CompareAnswer:
    """The JSON answer of :func:`compare_rulesets` (what ``cfalloc compare --json`` prints)."""
    from allocator.games.crossfire.words import NOT_PROVEN

    found = compare_rulesets(battle, profiles, time_limit or DEFAULT_TIME_LIMIT, budget)
    first = found.runs[0]
    summary = []
    for run in found.runs[1:]:
        for label, mine, theirs in (
            ("one round", first.one_round, run.one_round),
            ("whole fight", first.whole_fight, run.whole_fight),
        ):
            if mine.value != theirs.value:
                summary.append(
                    f"{label}: {run.name} gives {_percent(theirs.value)} against "
                    f"{_percent(mine.value)} under {first.name}"
                )
            if mine.allocation != theirs.allocation:
                summary.append(f"{label}: the defender's best line differs under {run.name}")
    for effect in found.effects:
        moved = effect.whole_fight != first.whole_fight.value
        moved_round = effect.one_round != first.one_round.value
        verb = "moves" if moved or moved_round else "changes nothing"
        summary.append(
            f"{effect.key} {effect.before} -> {effect.after} alone ({effect.profile}) {verb}: "
            f"one round {_percent(effect.one_round)}, whole fight {_percent(effect.whole_fight)}"
        )
    return CompareAnswer(
        status="optimal" if found.proven else "feasible",
        profiles=[
            CompareProfile(
                name=run.name,
                ruleset=run.ruleset.name,
                one_round=_line(run.one_round),
                whole_fight=_line(run.whole_fight),
            )
            for run in found.runs
        ],
        changed=[
            CompareChange(key=key, values=values, source=_source(found, key))
            for key, values in found.changed.items()
        ],
        effects=[
            CompareEffect(
                profile=e.profile,
                key=e.key,
                before=e.before,
                after=e.after,
                one_round=float(e.one_round),
                one_round_exact=e.one_round,
                whole_fight=float(e.whole_fight),
                whole_fight_exact=e.whole_fight,
            )
            for e in found.effects
        ],
        summary=summary,
        warnings=found.warnings,
        note=None if found.proven else NOT_PROVEN,
    )


def _line(solved: Solved) -> CompareLine:
    return CompareLine(
        value=float(solved.value), value_exact=solved.value, allocation=solved.allocation
    )


def _source(found: Comparison, key: str) -> str:
    """Where the first profile's value comes from (the profile file's own words)."""
    return found.runs[0].ruleset.values[key].source


def _percent(value: Fraction) -> str:
    from allocator.core.text import odds_text

    return odds_text(value)
