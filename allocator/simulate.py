"""Rolling the dice: one round of a complete allocation, later rounds played optimally, trials.

>>> from allocator.battle import load_battle
>>> b = load_battle("models/scenarios/seed-2hmg-1squad-v-4.yaml")
>>> result = roll_round(b, b.allocation, random.Random(1))
>>> sorted(c["winner"] for c in result["combats"])
['attacker', 'defender']
"""

from __future__ import annotations

import random
from typing import Any

from allocator.battle import Battle, Role
from allocator.errors import InputError
from allocator.odds import CombatOdds, round_odds, sweep
from allocator.rules import check
from allocator.schema import Allocation, Force


def roll_side(rng: random.Random, dice: int) -> int:
    return max(rng.randint(1, 6) for _ in range(max(dice, 1)))


def roll_combat(battle: Battle, combat: CombatOdds, rng: random.Random) -> dict[str, Any]:
    """Roll one combat as the profile says; the loser's stands are all removed."""
    record: dict[str, Any] = {
        "name": combat.name,
        "attackers": list(combat.attackers),
        "defenders": list(combat.defenders),
        "attacker_total": combat.attacker.total,
        "defender_total": combat.defender.total,
        "rolls": [],
    }
    if combat.decided:
        record["winner"] = "attacker" if combat.p_attacker_wins == 1 else "defender"
        record["note"] = combat.decided
        return record
    ruleset = battle.ruleset
    pool = ruleset.value("dice_mode") == "pool"
    att_dice = combat.attacker.fighters if pool else 1
    def_dice = combat.defender.fighters if pool else 1
    att_mod = combat.attacker.total - (combat.attacker.fighters if pool else 0)
    def_mod = combat.defender.total - (combat.defender.fighters if pool else 0)
    while True:
        a, d = roll_side(rng, att_dice), roll_side(rng, def_dice)
        record["rolls"].append({"attacker": a, "defender": d})
        if a + att_mod != d + def_mod:
            record["winner"] = "attacker" if a + att_mod > d + def_mod else "defender"
            return record
        ties = ruleset.value("ties")
        if ties != "reroll":
            record["winner"] = ties
            return record


def roll_round(battle: Battle, allocation: Allocation, rng: random.Random) -> dict[str, Any]:
    odds = round_odds(
        battle, allocation.combats or {}, allocation.attack or {}, allocation.reallocate or {}
    )
    combats = [roll_combat(battle, c, rng) for c in odds]
    lost = {
        side: sorted(s for c in combats if c["winner"] != side for s in c[f"{side}s"])
        for side in ("attacker", "defender")
    }
    return {"combats": combats, "removed": lost}


def survivors(battle: Battle, left: dict[str, list[str]]) -> Battle:
    """The battle of the next round (7b): only the survivors, nearness among survivors only."""
    from allocator.battle import battle_from_scenario

    forces = {}
    for side in ("defender", "attacker"):
        force = battle.side(side)
        alive = set(left[side])
        stands = [
            stand.model_copy(update={"near": [n for n in stand.near if n in alive]})
            for stand_id, stand in force.stands.items()
            if stand_id in alive
        ]
        forces[side] = Force(units=force.units, stands=stands)
    scenario = battle.scenario.model_copy(
        update={
            "defender": forces["defender"],
            "attacker": forces["attacker"],
            "allocation": None,
            "round": battle.scenario.round + 1,
            "expect": None,
        }
    )
    return battle_from_scenario(scenario, battle.file)


def fight_over(battle: Battle, left: dict[str, list[str]]) -> str | None:
    """The winner once a side has nothing left that can fight on in the building (7b)."""
    if not left["defender"]:
        return "attacker"
    if not any(battle.role(s) == Role.squad or battle.is_commander(s) for s in left["attacker"]):
        return "defender"
    return None


def first_allocation(battle: Battle, objective: str) -> Allocation:
    allocation = battle.allocation
    if allocation is None or allocation.attack is None:
        from allocator.solve import solve

        return solve(battle, "defender", objective).line.allocation()
    broken = check(battle)
    if broken:
        raise InputError(
            f"the allocation breaks rule {broken[0].rule}: {broken[0].message} "
            "(run `cfalloc check` for the full report)",
            file=battle.file,
            place="allocation",
        )
    return allocation


def simulate(battle: Battle, rounds: int, seed: int, objective: str = "sweep") -> dict[str, Any]:
    """Roll up to ``rounds`` rounds; after the first both sides play the optimal line."""
    rng = random.Random(seed)
    history = []
    allocation = first_allocation(battle, objective)
    current = battle
    for number in range(1, rounds + 1):
        result = roll_round(current, allocation, rng)
        history.append(
            {"round": number, "allocation": allocation.model_dump(mode="json"), **result}
        )
        left = {
            side: [s for s in current.side(side).stands if s not in result["removed"][side]]
            for side in ("defender", "attacker")
        }
        winner = fight_over(current, left)
        if winner is not None or number == rounds:
            break
        current = survivors(current, left)
        from allocator.solve import solve

        allocation = solve(current, "defender", objective).line.allocation()
    return {
        "seed": seed,
        "rounds": history,
        "left": {k: sorted(v) for k, v in left.items()},
        "winner": winner,
    }


def trials(battle: Battle, count: int, seed: int, objective: str = "sweep") -> dict[str, Any]:
    """Empirical win rates of each combat over ``count`` rolls of the first round."""
    rng = random.Random(seed)
    allocation = first_allocation(battle, objective)
    odds = round_odds(
        battle, allocation.combats or {}, allocation.attack or {}, allocation.reallocate or {}
    )
    wins = dict.fromkeys((c.name for c in odds), 0)
    sweeps = 0
    for _ in range(count):
        results = [roll_combat(battle, c, rng)["winner"] for c in odds]
        for combat, winner in zip(odds, results, strict=True):
            wins[combat.name] += winner == "attacker"
        sweeps += all(w == "attacker" for w in results)
    return {
        "trials": count,
        "seed": seed,
        "combats": [
            {
                "name": c.name,
                "attacker_win_rate": wins[c.name] / count,
                "p_attacker_wins": float(c.p_attacker_wins),
            }
            for c in odds
        ],
        "sweep_rate": sweeps / count,
        "p_sweep": float(sweep(odds)),
    }
