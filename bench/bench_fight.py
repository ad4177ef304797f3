"""Benchmark: the whole fight (`take`), the one-round search with an FO and a sniper, and the
solver against the brute-force oracle on its largest random cases.

(b) take, --side defender: bench (b)'s house (2 rifle squads, an HMG, 2 PCs, a CC) against a
    full company, whole process and cold. Goal: status optimal in under 5 s. Baseline, in the
    same run: the cold one-round `sweep` solve of the same file, and the start-up alone.
(c) exchange, each side: the same house with an FO and a sniper added. Goal: under 2 s a side,
    whole process and cold. Baseline: the same solve through CP-SAT only (the search before the
    enumeration), in this process.
(o) the random cases on which the oracle (`tests/oracle.py`) takes longest: `solve` against it
    on each objective, first among the property tests' draws (up to 3 defenders and 4
    attackers), then among larger draws of the same strategy (up to 5 and 6) that the oracle
    still enumerates. Goal: never slower (every ratio >= 1).

    python bench/bench_fight.py [--repeat 3] [--cases 8] [--larger 3]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from timing import least_cpu_seconds, median_seconds  # noqa: E402

from allocator.games.crossfire.battle import battle_from_data, load_battle  # noqa: E402
from allocator.games.crossfire.objectives import objective_named  # noqa: E402
from allocator.games.crossfire.search import solve as solve_module  # noqa: E402

TAKE_CASE = ROOT / "bench" / "company-v-town-house.yaml"
EXCHANGE_CASE = ROOT / "bench" / "company-v-town-house-fo-sniper.yaml"


def cold(arguments: list[str], repeat: int) -> tuple[float, dict[str, Any]]:
    """Median seconds of a whole `cfalloc` process, and the JSON it printed."""
    command = [sys.executable, "-m", "allocator.cli", *arguments]
    printed: dict[str, Any] = {}

    def once() -> None:
        nonlocal printed
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        printed = json.loads(done.stdout) if done.stdout.startswith("{") else {}

    return median_seconds(once, repeat), printed


def take_case(repeat: int) -> None:
    file = str(TAKE_CASE)
    solve = ["solve", file, "--side", "defender", "--json", "--objective"]
    take, answer = cold([*solve, "take"], repeat)
    sweep, _ = cold([*solve, "sweep"], repeat)
    start_up, _ = cold(["--version"], repeat)
    fight = answer.get("fight", {})
    print(f"(b) {TAKE_CASE.name}: take, --side defender, cold, median of {repeat}")
    print(f"    take:       {take:6.2f} s  status {answer.get('status')}   goal optimal < 5 s")
    print(f"    value {answer.get('value_exact')}, {fight.get('states')} states of the fight")
    print(
        f"    sweep:      {sweep:6.2f} s  (baseline: one round)   ratio take / sweep "
        f"{take / sweep:5.1f} x"
    )
    print(f"    start-up:   {start_up:6.2f} s  (baseline: `cfalloc --version`)")


def exchange_case(repeat: int) -> None:
    battle = load_battle(EXCHANGE_CASE)
    print(f"(c) {EXCHANGE_CASE.name}: exchange, cold, median of {repeat}")
    for side in ("defender", "attacker"):
        arguments = ["solve", str(EXCHANGE_CASE), "--side", side, "--objective", "exchange"]
        ours, answer = cold([*arguments, "--json"], repeat)
        with mock.patch.object(solve_module, "ENUMERATION", False):
            start = time.perf_counter()
            baseline = solve_module.solve(battle, side, objective_named("exchange"), 120.0)
            cp_sat = time.perf_counter() - start
        same = baseline.line.value == _fraction(answer.get("value_exact", ""))
        print(
            f"    {side:8}: {ours:6.2f} s  status {answer.get('status')}   goal < 2 s;   "
            f"CP-SAT only {cp_sat:6.2f} s (baseline, in process, {baseline.status}, "
            f"{'same value' if same else 'DIFFERENT VALUE'})   ratio {cp_sat / ours:5.1f} x"
        )


def _fraction(text: str) -> Any:
    from allocator.core.exact import parse_fraction

    return parse_fraction(text) if text else None


#: The larger draws of (o): (most defenders, most attackers) and how many are drawn.
LARGER = (5, 6)
LARGER_DRAWN = 30


def largest_random_cases(
    count: int, drawn_count: int = 200, most: tuple[int, int] | None = None
) -> list[dict[str, Any]]:
    """The ``count`` random scenarios on which the oracle takes longest over the whole fight,
    among ``drawn_count`` drawn as the solver-versus-oracle property tests draw them (the same
    every run), with at most ``most`` defenders and attackers (default: as the tests)."""
    import oracle
    from hypothesis import HealthCheck, Phase, given, settings
    from search.test_solve_oracle import SMALL
    from strategies import scenarios

    drawn: list[dict[str, Any]] = []

    @settings(
        max_examples=drawn_count,
        database=None,
        derandomize=True,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(SMALL if most is None else scenarios(max_defenders=most[0], max_attackers=most[1]))
    def collect(scenario: dict[str, Any]) -> None:
        drawn.append(scenario)

    collect()

    def oracle_time(scenario: dict[str, Any]) -> float:
        battle = battle_from_data(scenario)
        start = time.perf_counter()
        oracle.fight_value(battle)
        return time.perf_counter() - start

    return sorted(drawn, key=oracle_time, reverse=True)[:count]


def oracle_cases(cases: list[dict[str, Any]], title: str, repeat: int) -> tuple[float, float]:
    """Print solve against the oracle on each case and objective; the smallest ratios, of one
    round (``sweep``, ``exchange``) and of the whole fight (``take``)."""
    import oracle

    objectives = {
        "sweep": lambda b: oracle.game_value(b, "sweep"),
        "exchange": lambda b: oracle.game_value(b, "exchange"),
        "take": oracle.fight_value,
    }
    print(f"    {title}: solve --side defender vs the oracle, the least CPU time of {repeat}")
    for objective in objectives:  # warm up: imports and the shipped profile, read once
        solve_module.solve(battle_from_data(cases[-1]), "defender", objective_named(objective))
    slowest = {"round": float("inf"), "fight": float("inf")}
    for index, scenario in enumerate(cases):
        cells = []
        for objective, brute in objectives.items():
            expected = brute(battle_from_data(scenario))
            # a fresh battle for each run: no cache is shared between runs or with the oracle
            brute_seconds = least_cpu_seconds(
                lambda b=brute, s=scenario: b(battle_from_data(s)), repeat
            )
            ours = least_cpu_seconds(
                lambda s=scenario, o=objective: solve_module.solve(
                    battle_from_data(s), "defender", objective_named(o)
                ),
                repeat,
            )
            found = solve_module.solve(
                battle_from_data(scenario), "defender", objective_named(objective)
            )
            assert found.line.value == expected, (index, objective)
            kind = "fight" if objective == "take" else "round"
            slowest[kind] = min(slowest[kind], brute_seconds / ours)
            cells.append(f"{objective} {ours * 1000:6.2f} vs {brute_seconds * 1000:7.2f} ms")
        stands = len(scenario["defender"]["stands"]) + len(scenario["attacker"]["stands"])
        print(f"      case {index} ({stands} stands): " + ";  ".join(cells))
    return slowest["round"], slowest["fight"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cases", type=int, default=8)
    parser.add_argument("--larger", type=int, default=3)
    parser.add_argument(
        "--tiny-repeat", type=int, default=15, help="runs of each random case (the least CPU)"
    )
    args = parser.parse_args()
    take_case(args.repeat)
    exchange_case(args.repeat)
    print("(o) the random cases on which the oracle takes longest")
    small = oracle_cases(
        largest_random_cases(args.cases), f"the property tests' {args.cases}", args.tiny_repeat
    )
    larger = oracle_cases(
        largest_random_cases(args.larger, LARGER_DRAWN, LARGER),
        f"{args.larger} of {LARGER_DRAWN} larger draws (up to {LARGER[0]} defenders, "
        f"{LARGER[1]} attackers)",
        args.tiny_repeat,
    )
    for kind, at in (("one round", 0), ("the whole fight", 1)):
        goal = "   goal >= 1 (never slower)" if at == 0 else ""
        print(
            f"    smallest ratio oracle / solve, {kind}: {small[at]:.2f} x on the property "
            f"tests' cases, {larger[at]:.2f} x on the larger{goal}"
        )


if __name__ == "__main__":
    main()
