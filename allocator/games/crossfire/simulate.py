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

from allocator.core.errors import InputError
from allocator.games.crossfire.answers import (
    PlayedRound,
    Roll,
    RolledCombat,
    SimulateAnswer,
    TrialCombat,
    TrialsAnswer,
)
from allocator.games.crossfire.battle import SIDES, Battle, Role
from allocator.games.crossfire.odds import CombatOdds, round_odds, sweep
from allocator.games.crossfire.rules import check
from allocator.games.crossfire.schema import Allocation, SideName

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


def fight_over(battle: Battle, left: dict[SideName, list[str]]) -> SideName | None:
    """The winner once a side has nothing left that can fight on in the building (7b)."""
    if not left["defender"]:
        return "attacker"
    if not any(battle.role(s) == Role.squad or battle.is_commander(s) for s in left["attacker"]):
        return "defender"
    return None


def first_allocation(battle: Battle, objective: str, time_limit: float | None) -> Allocation:
    allocation = battle.allocation
    if allocation is None or allocation.attack is None:
        from allocator.games.crossfire.search.solve import DEFAULT_TIME_LIMIT, solve

        return solve(
            battle, "defender", objective, time_limit or DEFAULT_TIME_LIMIT
        ).line.allocation()
    broken = check(battle)
    if broken:
        raise InputError(
            f"the allocation breaks rule {broken[0].rule}: {broken[0].message} "
            "(run `cfalloc check` for the full report)",
            file=battle.file,
            place="allocation",
        )
    return allocation


def simulate(
    battle: Battle,
    rounds: int,
    seed: int | None = None,
    objective: str = "sweep",
    time_limit: float | None = None,
) -> SimulateAnswer:
    """Roll up to ``rounds`` rounds; after the first both sides play the optimal line."""
    seed = fresh_seed() if seed is None else seed
    rng = random.Random(seed)
    history = []
    allocation = first_allocation(battle, objective, time_limit)
    current = battle
    winner: SideName | None = None
    left: dict[SideName, list[str]] = {side: list(battle.side(side).stands) for side in SIDES}
    for number in range(1, rounds + 1):
        combats, removed = roll_round(current, allocation, rng)
        history.append(
            PlayedRound(round=number, allocation=allocation, combats=combats, removed=removed)
        )
        left = {
            side: [s for s in current.side(side).stands if s not in removed[side]] for side in SIDES
        }
        winner = fight_over(current, left)
        if winner is not None or number == rounds:
            break
        current = current.next_round(left["defender"] + left["attacker"])
        from allocator.games.crossfire.search.solve import DEFAULT_TIME_LIMIT, solve

        allocation = solve(
            current, "defender", objective, time_limit or DEFAULT_TIME_LIMIT
        ).line.allocation()
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
    objective: str = "sweep",
    time_limit: float | None = None,
) -> TrialsAnswer:
    """Empirical win rates of each combat over ``count`` rolls of the first round."""
    seed = fresh_seed() if seed is None else seed
    rng = random.Random(seed)
    allocation = first_allocation(battle, objective, time_limit)
    odds = round_odds(
        battle, allocation.combats or {}, allocation.attack or {}, allocation.reallocate or {}
    )
    wins = dict.fromkeys((c.name for c in odds), 0)
    sweeps = 0
    for _ in range(count):
        results = [roll_combat(battle, c, rng).winner for c in odds]
        for combat, winner in zip(odds, results, strict=True):
            wins[combat.name] += winner == "attacker"
        sweeps += all(w == "attacker" for w in results)
    return TrialsAnswer(
        trials=count,
        seed=seed,
        objective=objective,
        combats=[
            TrialCombat(
                name=c.name,
                attacker_win_rate=wins[c.name] / count,
                p_attacker_wins=float(c.p_attacker_wins),
            )
            for c in odds
        ],
        sweep_rate=sweeps / count,
        p_sweep=float(sweep(odds)),
    )
