"""The benchmarks still run (on their small inputs), so that they cannot rot."""

from __future__ import annotations

import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench"
sys.path.insert(0, str(BENCH))

import bench_check  # noqa: E402
import bench_fight  # noqa: E402
import bench_hostile  # noqa: E402
import bench_solve  # noqa: E402

from allocator.games.crossfire.battle import battle_from_data, load_battle  # noqa: E402


def test_check_bench_times_both_views() -> None:
    assert bench_check.plain_check_seconds(repeat=3) > 0
    assert bench_check.model_check_seconds(repeat=1) > 0


def test_solve_bench_measures_the_oracle_on_case_a() -> None:
    battle = load_battle(bench_solve.CASES["a"])
    seconds, how = bench_solve.oracle_seconds(battle, "sweep")
    assert how == "measured" and seconds > 0


def test_solve_bench_counts_the_oracle_lines_of_case_b() -> None:
    battle = load_battle(bench_solve.CASES["b"])
    grouping = {"A": ["d-sq1"], "B": ["d-sq2"], "C": ["d-hmg"]}
    assert bench_solve.candidate_attacks(battle, grouping) == 3**9 * 4**4


def test_fight_bench_reads_the_json_of_a_cold_run() -> None:
    arguments = ["solve", str(bench_fight.TAKE_CASE.parent / "platoon-v-squad-hmg-pc.yaml")]
    seconds, answer = bench_fight.cold([*arguments, "--objective", "take", "--json"], 1)
    assert seconds > 0 and answer["status"] == "optimal" and "fight" in answer


def test_fight_bench_picks_its_cases_among_the_property_tests_draws() -> None:
    cases = bench_fight.largest_random_cases(2, drawn_count=6)
    assert len(cases) == 2
    assert all(battle_from_data(case).defender.ids() for case in cases)


def test_fight_bench_draws_its_larger_cases_with_the_bounds_asked() -> None:
    cases = bench_fight.largest_random_cases(2, drawn_count=4, most=(2, 2))
    assert len(cases) == 2
    assert all(len(case["defender"]["stands"]) <= 2 for case in cases)
    assert all(len(case["attacker"]["stands"]) <= 2 for case in cases)


def test_hostile_bench_measures_a_process_and_writes_stress_files(tmp_path: Path) -> None:
    seconds, peak, code = bench_hostile.timed(["--version"])
    assert seconds > 0 and peak > 0 and code == 0
    path = bench_hostile.stress_file(tmp_path, 3, 2)
    battle = load_battle(path)
    assert (len(battle.defender.ids()), len(battle.attacker.ids())) == (3, 2)


def test_plan_bench_finds_the_same_best_with_fewer_fights() -> None:
    import bench_plan

    case = bench_plan.ROOT / "models" / "scenarios" / "fight-together-or-apart.yaml"
    subsets, by_subsets = bench_plan.every_subset(case)
    choices, by_plan = bench_plan.planned(case)
    assert by_subsets == by_plan and (choices, subsets) == (5, 7)  # a1 and a2 swap
