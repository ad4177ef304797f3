"""Benchmark: checking a complete allocation, in process and from a cold start.

Prints the median time of the plain checker beside the CP-SAT model's verdict on the same
allocation (the baseline, run in the same process), and the cold start of `cfalloc check`.
Goals (issue 2): in-process check under 5 ms; cold start under 1 s.

    python bench/bench_check.py
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from timing import median_seconds

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = ROOT / "models" / "scenarios" / "guide-2hmg-1squad-v-4.yaml"
#: An illegal scenario: its check also computes the nearest legal allocation with CP-SAT.
ILLEGAL = ROOT / "models" / "scenarios" / "guide-5-squads-v-2-five-and-none.yaml"


def plain_check_seconds(repeat: int = 200) -> float:
    from allocator.games.crossfire.battle import load_battle
    from allocator.games.crossfire.check import check_battle

    battle = load_battle(SCENARIO)
    return median_seconds(lambda: check_battle(battle), repeat)


def model_check_seconds(repeat: int = 20) -> float:
    from allocator.games.crossfire.battle import load_battle
    from allocator.games.crossfire.model import REALLOCATION, RulesModel, SlotNames

    battle = load_battle(SCENARIO)
    allocation = battle.allocation

    def verdict() -> str:
        names = SlotNames(list(allocation.combats))
        model = RulesModel(battle, depth=REALLOCATION, slots=len(names.names))
        model.fix(allocation, names)
        return model.solve_status()

    return median_seconds(verdict, repeat)


def cold_start_seconds(scenario: Path = SCENARIO, repeat: int = 5) -> float:
    command = [sys.executable, "-m", "allocator.cli", "check", str(scenario)]
    return median_seconds(lambda: subprocess.run(command, capture_output=True), repeat)


def main() -> None:
    plain = plain_check_seconds()
    model = model_check_seconds()
    cold = cold_start_seconds()
    cold_illegal = cold_start_seconds(ILLEGAL)
    print(f"in-process check (plain rules): {plain * 1000:8.3f} ms   goal < 5 ms")
    print(f"same verdict from CP-SAT model:  {model * 1000:8.3f} ms   (baseline)")
    print(f"ratio model / plain:             {model / plain:8.1f} x")
    print(f"cold start `cfalloc check`:      {cold * 1000:8.1f} ms   goal < 1000 ms")
    print(f"  the same, illegal (CP-SAT):    {cold_illegal * 1000:8.1f} ms   goal < 1000 ms")


if __name__ == "__main__":
    main()
