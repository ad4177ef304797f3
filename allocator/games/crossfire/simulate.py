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
import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from allocator.core.budget import Budget
from allocator.core.errors import InputError
from allocator.core.limits import default_limits
from allocator.games.crossfire.answers import (
    PlayedRound,
    Roll,
    RolledCombat,
    SimulateAnswer,
    TrialCombat,
    TrialsAnswer,
)
from allocator.games.crossfire.battle import SIDES, Battle
from allocator.games.crossfire.objectives import DEFAULT_OBJECTIVE, FightObjective, Objective
from allocator.games.crossfire.odds import CombatOdds, round_answer, round_odds
from allocator.games.crossfire.rules import check, resolution
from allocator.games.crossfire.schema import Allocation, SideName

if TYPE_CHECKING:
    from allocator.games.crossfire.search.solve import SolveOutcome

#: Seeds are drawn from this range when the player gives none (small enough to type back in).
SEED_RANGE = 1_000_000


def fresh_seed() -> int:
    """A new seed for dice nobody asked to repeat."""
    return secrets.randbelow(SEED_RANGE)


def roll_side(rng: random.Random, dice: int) -> int:
    return max(rng.randint(1, 6) for _ in range(max(dice, 1)))


def roll_combat(battle: Battle, combat: CombatOdds, rng: random.Random) -> RolledCombat:
    """Roll one combat as the profile says; the loser's stands are all removed."""
    rolls: list[Roll] = []
    winner: SideName
    if combat.decided:
        winner = "attacker" if combat.p_attacker_wins == 1 else "defender"
    else:
        ruleset = battle.ruleset
        pool = ruleset.value("dice_mode") == "pool"
        att_dice = combat.attacker.fighters if pool else 1
        def_dice = combat.defender.fighters if pool else 1
        # With a pool, each fighting stand's +1 is its die: the best die replaces them.
        att_mod = combat.attacker.total - (combat.attacker.fighters if pool else 0)
        def_mod = combat.defender.total - (combat.defender.fighters if pool else 0)
        while True:
            a, d = roll_side(rng, att_dice), roll_side(rng, def_dice)
            rolls.append(
                Roll(attacker=a, defender=d, attacker_score=a + att_mod, defender_score=d + def_mod)
            )
            if a + att_mod != d + def_mod:
                winner = "attacker" if a + att_mod > d + def_mod else "defender"
                break
            ties = ruleset.value("ties")
            if ties != "reroll":
                winner = ties
                break
    return RolledCombat(
        name=combat.name,
        attackers=list(combat.attackers),
        defenders=list(combat.defenders),
        attacker_total=combat.attacker.total,
        defender_total=combat.defender.total,
        attacker_parts=list(combat.attacker.parts),
        defender_parts=list(combat.defender.parts),
        rolls=rolls,
        winner=winner,
        note=combat.decided,
    )


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

    One time budget bounds every solve the plan makes.
    """

    battle: Battle
    objective: Objective
    time_limit: float | None
    rounds: int | None = None
    given: Allocation | None = field(init=False)
    _fight: SolveOutcome | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        from allocator.games.crossfire.search.solve import DEFAULT_TIME_LIMIT

        self.budget = Budget.of_answer(self.time_limit or DEFAULT_TIME_LIMIT)
        self.given = _given_allocation(self.battle)

    def whole_fight(self) -> SolveOutcome:
        """The fight objective's best line of the battle, with its playbook of later rounds."""
        from allocator.games.crossfire.search.solve import solve

        if self._fight is None:
            self._fight = solve(
                self.battle, "defender", self.objective, rounds=self.rounds, budget=self.budget
            )
        return self._fight

    def __call__(self, current: Battle, round_number: int) -> Allocation:
        if round_number == 1 and self.given is not None:
            return self.given
        if isinstance(self.objective, FightObjective):
            playbook = self.whole_fight().playbook
            if playbook is not None:
                return playbook.allocation(current, round_number)
        from allocator.games.crossfire.search.solve import solve

        return solve(current, "defender", self.objective, budget=self.budget).line.allocation()


def _given_allocation(battle: Battle) -> Allocation | None:
    allocation = battle.allocation
    if allocation is None or allocation.attack is None:
        return None
    broken = check(battle)
    if broken:
        raise InputError(
            f"the allocation breaks rule {broken[0].rule}: {broken[0].message} "
            "(run `cfalloc check` for the full report)",
            file=battle.file,
            place="allocation",
        )
    return allocation


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
    seed = fresh_seed() if seed is None else seed
    history, left, winner = play(
        battle, rounds, random.Random(seed), Plan(battle, objective, time_limit)
    )
    return SimulateAnswer(
        seed=seed,
        rounds=history,
        left={side: sorted(ids) for side, ids in left.items()},
        winner=winner,
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
    allocation_of = Plan(battle, objective, time_limit, rounds)
    p_take = None
    if isinstance(objective, FightObjective):
        fight = allocation_of.whole_fight()
        p_take = fight.line.value
        if fight.playbook is not None and allocation_of.given is not None:
            # the trials play the file's round 1: the exact chance is that line's (worked out
            # before they start, so that every state they reach has its line ready)
            p_take = fight.playbook.value_of(allocation_of.given)
    first = allocation_of(battle, 1)
    odds = round_odds(battle, first.combats or {}, first.attack or {}, first.reallocate or {})
    wins = dict.fromkeys((c.name for c in odds), 0)
    sweeps = takes = played = 0
    longest = rounds or default_limits().max_rounds
    while played < count and not (played and played % 64 == 0 and budget.expired()):
        played += 1
        if isinstance(objective, FightObjective):
            history, _, winner = play(battle, longest, rng, allocation_of)
            results = [c.winner for c in history[0].combats]
            takes += winner == "attacker"
        else:
            results = [roll_combat(battle, c, rng).winner for c in odds]
        for combat, winner_of in zip(odds, results, strict=True):
            wins[combat.name] += winner_of == "attacker"
        sweeps += all(w == "attacker" for w in results)
    p_sweep = round_answer(odds).sweep.exact
    return TrialsAnswer(
        trials=played,
        asked=count,
        seed=seed,
        objective=objective,
        rounds=rounds,
        file_allocation=allocation_of.given is not None,
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
        take_rate=None if p_take is None else takes / played,
        p_take=None if p_take is None else float(p_take),
        p_take_exact=p_take,
        note=None
        if played == count
        else f"the time limit ({budget.seconds:g} s) ended the trials after {played:,} of "
        f"{count:,}: give more time with --time-limit",
    )
