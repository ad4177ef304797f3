"""Benchmark: `solve` against the brute-force oracle of the tests, in the same process.

(a) a 2-capacity building with squad, HMG and PC against a platoon;
(b) a 3-capacity building with two squads and an HMG, two PCs and a CC, against a full company
    (nine squads, three PCs, a CC, all within one stand width).
Goals (issue 3): (a) under 50 ms; (b) under 1 s and at least 20 times faster than brute force.
The oracle tries every line of play; on (b) that is millions of lines, so it is timed on a
sample and the full time extrapolated from the exact count of lines (printed as such).

    python bench/bench_solve.py [--objective sweep|exchange]
"""

from __future__ import annotations

import argparse
import sys
import time
from itertools import islice
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import oracle  # noqa: E402
from oracle import check_attack  # noqa: E402
from timing import median_seconds  # noqa: E402

from allocator.games.crossfire.battle import Battle, Role, load_battle  # noqa: E402
from allocator.games.crossfire.objectives import objective_named  # noqa: E402
from allocator.games.crossfire.search.solve import solve  # noqa: E402

CASES = {
    "a": ROOT / "bench" / "platoon-v-squad-hmg-pc.yaml",
    "b": ROOT / "bench" / "company-v-town-house.yaml",
}
SAMPLE = 20_000


def candidate_attacks(battle: Battle, combats: dict[str, list[str]]) -> int:
    """How many attacks the oracle tries for one grouping (before the legality filter)."""
    k = len(combats)
    squads = len(battle.attacker.ids(Role.squad))
    leaders = len(battle.attacker.ids(Role.leader))
    return k**squads * (k + 1) ** leaders


def oracle_seconds(battle: Battle, objective: str) -> tuple[float, str]:
    """The oracle's time: measured when small, else extrapolated from a timed sample."""
    groupings = list(oracle.legal_groupings(battle))
    total = sum(candidate_attacks(battle, g) for g in groupings)
    if total <= SAMPLE:
        start = time.perf_counter()
        oracle.game_value(battle, objective)
        return time.perf_counter() - start, "measured"
    grouping = max(groupings, key=len)
    names = list(grouping)
    squads = battle.attacker.ids(Role.squad)
    leaders = battle.attacker.ids(Role.leader)

    def attacks():  # the oracle's own enumeration order, cut to the sample
        from itertools import product

        for squad_targets in product(names, repeat=len(squads)):
            for leader_targets in product([*names, None], repeat=len(leaders)):
                attack: dict[str, list[str]] = {}
                for stand, target in zip(
                    squads + leaders, squad_targets + leader_targets, strict=True
                ):
                    if target is not None:
                        attack.setdefault(target, []).append(stand)
                yield attack

    start = time.perf_counter()
    for attack in islice(attacks(), SAMPLE):
        if not list(check_attack(battle, grouping, attack)):
            oracle.value(battle, objective, grouping, attack, {})
    per_attack = (time.perf_counter() - start) / SAMPLE
    return per_attack * total, f"extrapolated from {SAMPLE:,} of {total:,} attacks"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--objective", default="sweep", choices=["sweep", "exchange"])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    for case, path in CASES.items():
        battle = load_battle(path)
        objective = objective_named(args.objective)
        solve(battle, "defender", objective)  # warm up: imports, caches
        ours = median_seconds(lambda b=battle, o=objective: solve(b, "defender", o), args.repeat)
        brute, how = oracle_seconds(battle, args.objective)
        print(f"({case}) {path.name} [{args.objective}]")
        print(f"    solve, median of {args.repeat}: {ours * 1000:9.1f} ms")
        print(f"    brute-force oracle:     {brute * 1000:9.1f} ms  ({how})")
        print(f"    ratio oracle / solve:   {brute / ours:9.1f} x")


if __name__ == "__main__":
    main()
