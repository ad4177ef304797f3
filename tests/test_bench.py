"""The benchmarks still run (on their small inputs), so that they cannot rot."""

from __future__ import annotations

import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench"
sys.path.insert(0, str(BENCH))

import bench_check  # noqa: E402
import bench_fight  # noqa: E402
import bench_hostile  # noqa: E402
import bench_scale  # noqa: E402
import bench_solve  # noqa: E402
import bench_sweep  # noqa: E402
import scale_cases  # noqa: E402

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


def test_scale_bench_writes_every_row_and_reads_a_cold_run(tmp_path: Path) -> None:
    rows = bench_scale.rows(tmp_path)
    assert [row.stands for row in rows[:5]] == [5, 9, 14, 28, 42]
    assert all(row.path.exists() for row in rows)
    platoon = rows[0]
    run, baseline = bench_scale.measure(platoon, 1)
    assert run.answer["status"] == "optimal" and run.answer["fight"]["states"] > 0
    assert baseline.answer["objective"] == "sweep" and run.cpu > 0 and run.peak > 0
    assert "optimal" in bench_scale.line(platoon, run, baseline)


def test_two_companies_take_the_house_for_certain_without_a_search_of_the_fight() -> None:
    """Beyond the enumeration: the first round's proven optimum is 1, so the fight's is."""
    from allocator.games.crossfire.objectives import objective_named
    from allocator.games.crossfire.rules import check
    from allocator.games.crossfire.search.solve import solve

    battle = battle_from_data(scale_cases.attack_on_house("two companies"))
    for side in ("defender", "attacker"):
        outcome = solve(battle, side, objective_named("take"))
        assert outcome.status == "optimal" and outcome.line.value == 1
        assert outcome.fight is not None and outcome.fight.states == 0
        assert outcome.fight.p_attacker_takes == 1 and outcome.choices.runner_up is None
        assert check(battle, outcome.line.allocation()) == []


def test_a_company_takes_the_house_for_certain_from_a_proof_of_few_states() -> None:
    """Its value is 1 but its first round is not won for certain: the proof that every
    grouping meets an attack whose every outcome is taken for certain needs a handful of
    states, not the 3,479 of its whole fight."""
    from allocator.games.crossfire.objectives import objective_named
    from allocator.games.crossfire.rules import check
    from allocator.games.crossfire.search.solve import solve

    battle = battle_from_data(scale_cases.attack_on_house("company"))
    outcome = solve(battle, "defender", objective_named("take"))
    assert outcome.status == "optimal" and outcome.line.value == 1
    assert outcome.fight is not None and 0 < outcome.fight.states <= 10
    assert outcome.fight.p_attacker_takes == 1
    assert check(battle, outcome.line.allocation()) == []


def test_sweep_bench_times_the_shipped_grid_serially() -> None:
    work = bench_sweep.tasks(2)
    assert len(work) == 2 * 108
    rate, busy = bench_sweep.cells_per_second(work[:3])
    assert rate > 0 and 0 < busy <= 1.5


def test_hostile_bench_keeps_the_worst_ratio_and_the_worst_peak() -> None:
    worst = bench_hostile.Worst()
    worst.add("a", 1.0, 2.0, 100)
    worst.add("b", 3.0, 2.0, 50)
    worst.add("c", 0.5, 2.0, 200)
    assert (worst.ratio, worst.ratio_of, worst.peak, worst.peak_of) == (1.5, "b", 200, "c")
    assert set(bench_hostile.CRAFTED) == {
        "fo-in-own-units-6-v-49",
        "own-units-6-v-8",
        "120-a-side",
        "distinct-8-v-8",
        "60-a-side-crafted",
        "chain-of-nested-units",
        "unopposed-19-v-1-and-leaders",
        "pool-dice-8-v-a-battalion",
    }


def test_scale_bench_draws_the_cost_by_size_from_its_rows(tmp_path: Path) -> None:
    rows = bench_scale.rows(tmp_path)
    fight = {"status": "optimal", "fight": {"states": 53}}
    measured = [
        (row, bench_scale.Run(0.5 * k + 1, 2.0, 2**26, fight), bench_scale.Run(1.0, 1.5, 2**26, {}))
        for k, row in enumerate(rows)
    ]
    for suffix in (".png", ".svg"):
        picture = tmp_path / f"scale{suffix}"
        bench_scale.plot(measured, 0.5, picture)
        assert picture.stat().st_size > 1000
    assert picture.read_text().lstrip().startswith("<?xml")


def test_plan_bench_finds_the_same_best_with_fewer_fights() -> None:
    import bench_plan

    case = bench_plan.ROOT / "models" / "scenarios" / "fight-together-or-apart.yaml"
    subsets, by_subsets = bench_plan.every_subset(case)
    choices, by_plan = bench_plan.planned(case)
    assert by_subsets == by_plan and (choices, subsets) == (5, 7)  # a1 and a2 swap


def test_a_measured_process_counts_its_own_memory_not_its_parents() -> None:
    from processes import measured

    held = b"\x01" * (512 << 20)  # a test run that has grown: its children inherit its peak
    done = measured([sys.executable, "-c", "pass"])
    del held
    assert done.code == 0 and done.cpu > 0
    assert done.peak < 256 << 20, f"peak {done.peak >> 20} MiB"
