"""The benchmarks still run (on their small inputs), so that they cannot rot."""

from __future__ import annotations

import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench"
sys.path.insert(0, str(BENCH))

import bench_check  # noqa: E402
import bench_solve  # noqa: E402

from allocator.games.crossfire.battle import load_battle  # noqa: E402


def test_check_bench_times_both_views() -> None:
    assert 0 < bench_check.plain_check_seconds(repeat=3) < 1
    assert 0 < bench_check.model_check_seconds(repeat=1) < 5


def test_solve_bench_measures_the_oracle_on_case_a() -> None:
    battle = load_battle(bench_solve.CASES["a"])
    seconds, how = bench_solve.oracle_seconds(battle, "sweep")
    assert how == "measured" and seconds > 0


def test_solve_bench_counts_the_oracle_lines_of_case_b() -> None:
    battle = load_battle(bench_solve.CASES["b"])
    grouping = {"A": ["d-sq1"], "B": ["d-sq2"], "C": ["d-hmg"]}
    assert bench_solve.candidate_attacks(battle, grouping) == 3**9 * 4**4
