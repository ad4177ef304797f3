"""Rolling the dice: one round of a complete allocation, later rounds played optimally, trials.

>>> import random
>>> from allocator.core.library import folder
>>> from allocator.games.crossfire.battle import load_battle
>>> b = load_battle(folder("scenarios") / "guide-2hmg-1squad-v-4.yaml")
>>> played = roll_round(b, b.allocation, random.Random(1))
>>> sorted(c.winner for c in played[0])
['attacker', 'defender']
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from allocator.core.budget import Budget
from allocator.core.errors import InputError, TimeLimitError
from allocator.core.limits import default_limits
from allocator.games.crossfire.answers import (
    PlayedRound,
    RolledCombat,
    SimulateAnswer,
    TrialCombat,
    TrialsAnswer,
)
from allocator.games.crossfire.battle import SIDES, Battle
from allocator.games.crossfire.objectives import DEFAULT_OBJECTIVE, FightObjective, Objective
from allocator.games.crossfire.odds import round_answer, round_odds
from allocator.games.crossfire.play import fresh_seed, given_allocation, roll_combat
from allocator.games.crossfire.rules import resolution
from allocator.games.crossfire.schema import Allocation, SideName
from allocator.games.crossfire.warnings import solve_warnings

if TYPE_CHECKING:
    from allocator.games.crossfire.search.solve import SolveOutcome


def roll_round(
    battle: Battle, allocation: Allocation, rng: random.Random
) -> tuple[list[RolledCombat], dict[SideName, list[str]]]:
    """The rolled combats of one round and the stands each side loses."""
    odds = round_odds(
        battle, allocation.combats or {}, allocation.attack or {}, allocation.reallocate or {}
    )
    combats = [roll_combat(battle, c, rng) for c in odds]
    lost: dict[SideName, list[str]] = {
        "attacker": sorted(a for c in combats if c.winner != "attacker" for a in c.attackers),
        "defender": sorted(d for c in combats if c.winner != "defender" for d in c.defenders),
    }
    return combats, lost


@dataclass
class Plan:
    """How each round is played: the file's complete allocation in round 1 (when it has one),
    and otherwise both sides' best line for the objective (a fight objective: the whole fight,
    searched once, when a round first needs it: :meth:`whole_fight`).

    One time budget bounds every solve the plan makes: once it has run out, a round whose line
    is not known yet raises :class:`TimeLimitError` rather than being searched.
    """

    battle: Battle
    objective: Objective
    budget: Budget
    rounds: int | None = None
    given: Allocation | None = field(init=False)
    #: Whether every line the plan has played so far was proven optimal.
    proven: bool = field(init=False, default=True)
    _fight: SolveOutcome | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        self.given = given_allocation(self.battle)

    def whole_fight(self) -> SolveOutcome:
        """The fight objective's best line of the battle, with its playbook of later rounds."""
        if self._fight is None:
            self._fight = self._solve(self.battle, 1)
        return self._fight

    def __call__(self, current: Battle, round_number: int) -> Allocation:
        if round_number == 1 and self.given is not None:
            return self.given
        if isinstance(self.objective, FightObjective):
            fight = self.whole_fight()
            if fight.playbook is not None:
                return fight.playbook.allocation(current, round_number)
            if round_number == 1:
                return fight.line.allocation()
        return self._solve(current, round_number).line.allocation()

    def _solve(self, current: Battle, round_number: int) -> SolveOutcome:
        """The best line from round ``round_number`` on (for a fight objective, over the
        rounds left of the plan's)."""
        from allocator.games.crossfire.search.solve import solve

        self.budget.check(f"the line of round {round_number}")
        rounds = None if self.rounds is None else self.rounds - round_number + 1
        outcome = solve(current, "defender", self.objective, rounds=rounds, budget=self.budget)
        self.proven = self.proven and outcome.proven
        return outcome


def play(
    battle: Battle, rounds: int, rng: random.Random, allocation_of: Plan
) -> tuple[list[PlayedRound], dict[SideName, list[str]], SideName | None]:
    """Play up to ``rounds`` rounds: each round's rolls, the stands left, the winner if any."""
    history = []
    current = battle
    winner: SideName | None = None
    left: dict[SideName, list[str]] = {side: list(battle.side(side).stands) for side in SIDES}
    for number in range(1, rounds + 1):
        allocation = allocation_of(current, number)
        combats, removed = roll_round(current, allocation, rng)
        history.append(
            PlayedRound(round=number, allocation=allocation, combats=combats, removed=removed)
        )
        left = {
            side: [s for s in current.side(side).stands if s not in removed[side]] for side in SIDES
        }
        winner = resolution.winner(current, left)
        if winner is not None:
            break
        current = current.next_round(left["defender"] + left["attacker"])
    return history, left, winner


def simulate(
    battle: Battle,
    rounds: int,
    seed: int | None = None,
    objective: Objective = DEFAULT_OBJECTIVE,
    time_limit: float | None = None,
) -> SimulateAnswer:
    """Roll up to ``rounds`` rounds; after the first both sides play their best line."""
    from allocator.games.crossfire.search.solve import DEFAULT_TIME_LIMIT

    seed = fresh_seed() if seed is None else seed
    plan = Plan(battle, objective, Budget.of_answer(time_limit or DEFAULT_TIME_LIMIT))
    history, left, winner = play(battle, rounds, random.Random(seed), plan)
    return SimulateAnswer(
        seed=seed,
        rounds=history,
        left={side: sorted(ids) for side, ids in left.items()},
        winner=winner,
        warnings=solve_warnings(battle),
    )


def trials(
    battle: Battle,
    count: int,
    seed: int | None = None,
    objective: Objective = DEFAULT_OBJECTIVE,
    time_limit: float | None = None,
    rounds: int | None = None,
) -> TrialsAnswer:
    """Empirical rates over ``count`` plays: each combat of the first round, every combat won,
    and for a fight objective the whole fight played to its end (both sides at their best)."""
    from allocator.games.crossfire.search.solve import DEFAULT_TIME_LIMIT

    if rounds is not None and objective.one_round:
        raise InputError(
            f"--rounds with --trials bounds whole fights: it does not apply to --objective "
            f"{objective} (its trials roll the first round only)"
        )
    seed = fresh_seed() if seed is None else seed
    rng = random.Random(seed)
    budget = Budget.of_answer(time_limit or DEFAULT_TIME_LIMIT)
    plan = Plan(battle, objective, budget, rounds)
    fight_objective = isinstance(objective, FightObjective)
    p_take = None
    if fight_objective:
        fight = plan.whole_fight()
        if fight.playbook is not None:  # else the search was cut short: its value is a bound
            # the trials play the file's round 1 when it has one: the exact chance is then that
            # line's (worked out before they start, so that every state they reach has its line)
            given = plan.given
            p_take = fight.line.value if given is None else fight.playbook.value_of(given)
    first = plan(battle, 1)
    odds = round_odds(battle, first.combats or {}, first.attack or {}, first.reallocate or {})
    wins = dict.fromkeys((c.name for c in odds), 0)
    sweeps = takes = played = 0
    longest = rounds or default_limits().max_rounds
    while played < count and not budget.expired():
        if fight_objective:
            try:
                history, _, winner = play(battle, longest, rng, plan)
            except TimeLimitError:
                break  # a fight the time limit cut short is not counted
            results = [c.winner for c in history[0].combats]
            takes += winner == "attacker"
        else:
            results = [roll_combat(battle, c, rng).winner for c in odds]
        played += 1
        for combat, winner_of in zip(odds, results, strict=True):
            wins[combat.name] += winner_of == "attacker"
        sweeps += all(w == "attacker" for w in results)
    if not played:
        raise TimeLimitError(budget.seconds or 0.0, "a trial's line of play")
    p_sweep = round_answer(odds).sweep.exact
    notes = []
    if played < count:
        notes.append(
            f"the time limit ({budget.seconds:g} s) ended the trials after {played:,} of "
            f"{count:,}: give more time with --time-limit"
        )
    if not plan.proven:
        notes.append("the lines played are the best found in the time limit, not proven optimal")
    return TrialsAnswer(
        trials=played,
        asked=count,
        seed=seed,
        objective=objective,
        rounds=rounds,
        file_allocation=plan.given is not None,
        combats=[
            TrialCombat(
                name=c.name,
                attacker_win_rate=wins[c.name] / played,
                p_attacker_wins=float(c.p_attacker_wins),
                p_attacker_wins_exact=c.p_attacker_wins,
            )
            for c in odds
        ],
        sweep_rate=sweeps / played,
        p_sweep=float(p_sweep),
        p_sweep_exact=p_sweep,
        take_rate=takes / played if fight_objective else None,
        p_take=None if p_take is None else float(p_take),
        p_take_exact=p_take,
        note="; ".join(notes) or None,
        warnings=solve_warnings(battle),
    )
