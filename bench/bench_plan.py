"""Benchmark: `cfalloc plan`'s cost against the number of subsets.

The plan values one choice per count of each class of interchangeable stands; the baseline,
run in the same process on the same fight, solves the whole fight of every subset of the
side's stands. Prints both times, the choices against the subsets, and the ratio (the saving
of never searching symmetric subsets twice). Goal: a ratio of times above 1 that grows with the
ratio of counts; it stays below it, since the subsets only the baseline solves are mostly the
small, cheap ones (measured: 31 subsets against 9 choices, 2.1 x faster).

    python bench/bench_plan.py
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations
from pathlib import Path

from timing import median_seconds

ROOT = Path(__file__).resolve().parent.parent
#: Five attacking rifle squads (four of one platoon, one of another) against two.
CASE = ROOT / "models" / "scenarios" / "guide-5-squads-v-2-three-and-two.yaml"


def every_subset(path: Path = CASE) -> tuple[int, Fraction]:
    """The baseline: the whole fight of every attacking subset that can assault, and the best."""
    from allocator.games.crossfire.battle import can_assault, load_battle
    from allocator.games.crossfire.plan import TAKE
    from allocator.games.crossfire.search.solve import solve

    battle = load_battle(path)
    pool, defenders = battle.available("attacker"), battle.defender.ids()
    best, count = Fraction(0), 0
    for size in range(1, len(pool) + 1):
        for chosen in combinations(pool, size):
            if can_assault(battle.stand(s) for s in chosen):
                count += 1
                fight = battle.only([*defenders, *chosen])
                best = max(best, solve(fight, "attacker", TAKE, time_limit=60).line.value)
    return count, best


def planned(path: Path = CASE) -> tuple[int, Fraction]:
    from allocator.games.crossfire.battle import load_battle
    from allocator.games.crossfire.plan import plan_assault

    plan = plan_assault(load_battle(path), "attacker", time_limit=600)
    assert plan.proven
    return plan.choices, plan.best.value


def main(path: Path = CASE, repeat: int = 3) -> None:
    subsets, by_subsets = every_subset(path)
    choices, by_plan = planned(path)
    assert by_subsets == by_plan, (by_subsets, by_plan)
    baseline = median_seconds(lambda: every_subset(path), repeat)
    plan = median_seconds(lambda: planned(path), repeat)
    print(f"{path.name}: best P(take) {by_plan} ({float(by_plan):.1%}), the same both ways")
    print(f"every subset (baseline): {subsets:6d} fights {baseline:8.2f} s")
    print(f"plan, by classes:        {choices:6d} fights {plan:8.2f} s")
    print(f"ratio of counts:         {subsets / choices:8.2f} x")
    print(f"ratio of times:          {baseline / plan:8.2f} x   goal > 1")


if __name__ == "__main__":
    main()
