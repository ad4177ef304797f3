"""``cfalloc plan``: the best commitment and garrison, held to a brute force over every subset.

The oracle below tries every subset of the side's available stands (no classes, no pruning)
and values each by the brute-force whole fight of :func:`oracle.fight_value`; the plan, which
searches each class of interchangeable stands once and solves with the game search, must give
the same curve, best value and target answer, and the stands it names must be worth what it
says.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator
from fractions import Fraction
from itertools import combinations
from pathlib import Path
from typing import Any

import oracle
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import scenarios
from typer.testing import CliRunner

from allocator.cli.app import app
from allocator.core.errors import InputError, TimeLimitError
from allocator.core.library import folder
from allocator.games.crossfire.battle import Battle, Role, battle_from_data, load_battle
from allocator.games.crossfire.plan import plan_answer, plan_assault

SCENARIOS = folder("scenarios")
TOGETHER = SCENARIOS / "fight-together-or-apart.yaml"
DIP = SCENARIOS / "plan-leave-the-suppressed-squad-out.yaml"
FRENCH = SCENARIOS / "org-french-platoon-v-german-squads.yaml"


def subsets(battle: Battle, side: str) -> Iterator[tuple[str, ...]]:
    """Every subset of the side's available stands that may fight, by brute force."""
    pool = battle.available(side)  # type: ignore[arg-type]
    for size in range(1, len(pool) + 1):
        for chosen in combinations(pool, size):
            roles = [battle.role(s) for s in chosen]
            if side == "attacker":
                if Role.squad in roles or any(battle.is_commander(s) for s in chosen):
                    yield chosen
            elif sum(r in (Role.squad, Role.weapon) for r in roles) <= battle.capacity:
                yield chosen


def squads(battle: Battle, stands: tuple[str, ...]) -> int:
    return sum(battle.role(s) == Role.squad for s in stands)


def brute_force(battle: Battle, side: str) -> dict[tuple[str, ...], Fraction]:
    """P(take) of every choice of ``side``: the attacker's against all the defenders, the
    defender's against the attacker's best subset."""
    defenders = tuple(battle.defender.ids())

    def take(d: tuple[str, ...], a: tuple[str, ...]) -> Fraction:
        return oracle.fight_value(battle.only([*d, *a]))

    if side == "attacker":
        return {a: take(defenders, a) for a in subsets(battle, "attacker")}
    attackers = list(subsets(battle, "attacker"))
    return {d: max(take(d, a) for a in attackers) for d in subsets(battle, "defender")}


def oracle_curve(battle: Battle, side: str) -> dict[int, Fraction]:
    pick = max if side == "attacker" else min
    found: dict[int, list[Fraction]] = {}
    for stands, value in brute_force(battle, side).items():
        found.setdefault(squads(battle, stands), []).append(value)
    return {k: pick(values) for k, values in sorted(found.items())}


def assert_matches_oracle(battle: Battle, side: str) -> None:
    plan = plan_assault(battle, side, time_limit=60)  # type: ignore[arg-type]
    assert plan.proven
    expected = oracle_curve(battle, side)
    assert {c.squads: c.value for c in plan.curve} == expected
    pick = max if side == "attacker" else min
    assert plan.best.value == pick(expected.values())
    for choice in plan.curve:  # the stands named are worth what the plan says
        assert squads(battle, choice.stands) == choice.squads
        d, a = (
            (choice.against, choice.stands)
            if side == "attacker"
            else (choice.stands, choice.against)
        )
        assert oracle.fight_value(battle.only([*d, *a])) == choice.value
    dips = [
        k
        for (before, b), (k, v) in zip(expected.items(), list(expected.items())[1:], strict=False)
        if (v < b if side == "attacker" else v > b)
    ]
    assert [d.squads for d in plan.dips] == dips


@pytest.mark.parametrize("path", [TOGETHER, DIP, FRENCH], ids=lambda p: p.stem)
@pytest.mark.parametrize("side", ["attacker", "defender"])
def test_the_plan_matches_brute_force_over_subsets(path: Path, side: str) -> None:
    assert_matches_oracle(load_battle(path), side)


@settings(max_examples=25, suppress_health_check=list(HealthCheck))
@given(scenarios(max_defenders=2, max_attackers=3), st.sampled_from(["attacker", "defender"]))
def test_the_plan_matches_brute_force_on_random_fights(scenario: Any, side: str) -> None:
    try:
        battle = battle_from_data(scenario)
    except InputError:
        return
    assert_matches_oracle(battle, side)


def test_a_suppressed_squad_makes_the_curve_dip() -> None:
    plan = plan_assault(load_battle(DIP), "attacker")
    assert [(c.squads, c.value, c.stands) for c in plan.curve] == [
        (1, Fraction(1, 2), ("a1",)),
        (2, Fraction(10, 31), ("a1", "a2")),
    ]
    assert plan.best.stands == ("a1",)
    assert [(d.squads, d.value, d.previous) for d in plan.dips] == [
        (2, Fraction(10, 31), Fraction(1, 2))
    ]


def test_the_target_is_reached_with_the_fewest_stands() -> None:
    battle = load_battle(TOGETHER)
    expected = brute_force(battle, "attacker")
    for target in (Fraction(11, 20), Fraction(3, 5), Fraction(1, 2), Fraction(319, 512)):
        plan = plan_assault(battle, "attacker", target)
        reaching = [s for s, v in expected.items() if v >= target]
        assert plan.reaching is not None
        assert len(plan.reaching.stands) == min(map(len, reaching))
        assert plan.reaching.value >= target
    assert plan_assault(battle, "attacker", Fraction(7, 10)).reaching is None
    held = plan_assault(battle, "defender", Fraction(2, 3))
    assert held.reaching is not None and held.reaching.value <= Fraction(2, 3)
    assert len(held.reaching.stands) == 1  # the CC alone keeps it to 41/62


def test_interchangeable_stands_are_searched_once() -> None:
    """Four like squads are four choices (one to four of them), not fifteen subsets."""
    rifles = [{"id": f"a{i}", "type": "rifle", "unit": "q"} for i in range(4)]
    battle = battle_from_data(
        {
            "defender": {
                "units": [{"id": "p", "kind": "platoon"}],
                "stands": [{"id": "d1", "type": "rifle", "unit": "p"}],
            },
            "attacker": {"units": [{"id": "q", "kind": "platoon"}], "stands": rifles},
        }
    )
    plan = plan_assault(battle, "attacker")
    assert (plan.choices, plan.valued, plan.fights) == (4, 4, 4)
    assert [c.stands for c in plan.curve] == [
        ("a0",),
        ("a0", "a1"),
        ("a0", "a1", "a2"),
        ("a0", "a1", "a2", "a3"),
    ]
    assert [c.value for c in plan.curve] == sorted(c.value for c in plan.curve)


def test_available_limits_the_choice() -> None:
    battle = load_battle(FRENCH)
    scenario = battle.scenario.model_dump(mode="json", exclude_none=True)
    scenario["attacker"]["available"] = ["fr-1plt-gc1", "fr-1plt-gc2"]
    plan = plan_assault(battle_from_data(scenario), "attacker")
    assert {s for c in plan.curve for s in c.stands} <= {"fr-1plt-gc1", "fr-1plt-gc2"}
    assert plan.choices == 2  # the two rifle squads are interchangeable: one or both


@pytest.mark.parametrize(
    ("available", "place", "words"),
    [
        (["nobody"], "attacker.available[0]", "not one of the attacker's stands"),
        (["fr-1plt-gc1", "fr-1plt-gc1"], "attacker.available[1]", "named twice"),
        ([], "attacker.available", "nothing to choose from"),
        (["de-2plt-sq1"], "attacker.available[0]", "not one of the attacker's stands"),
    ],
)
def test_a_bad_available_list_is_named(available: list[str], place: str, words: str) -> None:
    scenario = load_battle(FRENCH).scenario.model_dump(mode="json", exclude_none=True)
    scenario["attacker"]["available"] = available
    with pytest.raises(InputError) as caught:
        battle_from_data(scenario, file="f.yaml")
    assert caught.value.place == place and words in caught.value.problem


def test_the_attacker_plan_needs_a_garrison_within_capacity() -> None:
    scenario = load_battle(FRENCH).scenario.model_dump(mode="json", exclude_none=True)
    scenario["building"]["capacity"] = 1
    with pytest.raises(InputError, match="--side defender"):
        plan_assault(battle_from_data(scenario), "attacker")


def test_a_building_that_breaks_b2_is_planned_as_given_and_says_so() -> None:
    manor = load_battle(folder("scenarios") / "rule-b2-fail.yaml")  # capacity 4
    for side in ("attacker", "defender"):
        warnings = plan_answer(manor, side).warnings
        assert [w[:3] for w in warnings] == ["B2:"] and warnings[0].endswith("Planned as given.")
    assert plan_answer(load_battle(FRENCH), "defender").warnings == []


def test_the_time_limit_bounds_the_plan() -> None:
    """The defender's plan of this fight solves 188 whole fights (seconds); in 0.8 s it is
    the best found of the garrisons valued, or no answer."""
    battle = load_battle(SCENARIOS / "org-soviet-smg-platoon-v-german-squads.yaml")
    started = time.monotonic()
    try:
        answer = plan_answer(battle, "defender", time_limit=0.8)
    except TimeLimitError:
        return
    finally:
        assert time.monotonic() - started < 3
    assert answer.status == "feasible" and answer.valued < answer.choices
    assert "not proven optimal" in (answer.note or "") and answer.warnings


def run(*args: str) -> Any:
    return CliRunner().invoke(app, ["plan", *args])


def test_the_json_answer_is_exact_and_deterministic() -> None:
    first, second = (
        run(str(DIP), "--json", "--target", "40%"),
        run(str(DIP), "--json", "--target", "2/5"),
    )
    assert first.exit_code == 0, first.output
    assert first.stdout == second.stdout
    answer = json.loads(first.stdout)
    assert answer["side"] == "attacker" and answer["target_exact"] == "2/5"
    assert [(p["squads"], p["value_exact"], p["stands"]) for p in answer["curve"]] == [
        (1, "1/2", ["a1"]),
        (2, "10/31", ["a1", "a2"]),
    ]
    assert answer["best"]["stands"] == ["a1"] and answer["reaching"]["stands"] == ["a1"]
    assert answer["dips"] == [
        {"squads": 2, "value": 10 / 31, "value_exact": "10/31", "previous": 0.5,
         "previous_exact": "1/2"}
    ]  # fmt: skip


def test_the_text_shows_the_table_the_chart_and_the_dip() -> None:
    result = run(str(DIP), "--target", "0.9")
    assert result.exit_code == 0, result.output
    assert "10/31 (32.3%)" in result.output and "█" in result.output
    assert "Dip: with 2 squads" in result.output
    assert "No choice reaches the target of 90.0%" in result.output


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--target", "1.5"], "--target: '1.5' is not a chance"),
        (["--target", "most"], "--target: 'most' is not a chance"),
        (["--plot", "curve.gif"], "--plot: a picture is a .png or .svg file"),
        (["--side", "both"], "--side"),
    ],
)
def test_bad_options_are_refused(args: list[str], words: str) -> None:
    result = run(str(DIP), *args)
    assert result.exit_code == 2 and words in result.stderr


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_the_plot_is_written(tmp_path: Path, suffix: str) -> None:
    pytest.importorskip("matplotlib")
    picture = tmp_path / f"curve{suffix}"
    result = run(str(DIP), "--plot", str(picture), "--target", "0.4")
    assert result.exit_code == 0, result.output
    data = picture.read_bytes()
    assert data.startswith(b"\x89PNG") if suffix == ".png" else b"<svg" in data
    if suffix == ".svg":
        assert b"dip" in data and b"squads committed" in data
        again = tmp_path / "again.svg"
        assert run(str(DIP), "--plot", str(again), "--target", "0.4").exit_code == 0
        assert again.read_bytes() == data  # deterministic


def test_the_plot_without_matplotlib_names_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    result = run(str(DIP), "--plot", str(tmp_path / "curve.png"))
    assert result.exit_code == 2
    assert "pip install 'cfalloc[plot]'" in result.stderr
    assert not (tmp_path / "curve.png").exists()


def test_the_choices_are_counted_as_they_are_generated() -> None:
    from allocator.core.budget import Budget
    from allocator.games.crossfire.plan import _Side

    battle = load_battle(SCENARIOS / "org-soviet-smg-platoon-v-german-squads.yaml")
    for side in ("attacker", "defender"):
        chosen = _Side(battle, side, battle.available(side), Budget(None))  # type: ignore[arg-type]
        listed = list(chosen.choices())
        assert len(listed) == len(set(listed)) == chosen.count() > 1
        assert set(listed) <= set(subsets(battle, side))


def test_an_attacker_who_cannot_assault_is_refused() -> None:
    scenario = load_battle(TOGETHER).scenario.model_dump(mode="json", exclude_none=True)
    scenario["attacker"]["stands"].append({"id": "fo", "type": "fo", "unit": "ap1"})
    scenario["attacker"]["available"] = ["fo"]
    battle = battle_from_data(scenario)
    for side in ("attacker", "defender"):
        with pytest.raises(InputError, match="no squad and no CC or BC"):
            plan_assault(battle, side)  # type: ignore[arg-type]


def test_a_force_of_many_unlike_stands_is_bounded_by_the_time_limit() -> None:
    """2^60 choices: counted at once, valued only as far as the time limit goes."""
    stands = [
        {"id": f"a{i}", "type": "rifle", "unit": "q", "quality": q, "suppressed": s}
        for i, (q, s) in enumerate(
            (q, s) for q in ("green", "regular", "veteran") for s in (False, True)
        )
    ]
    units = [{"id": "q", "kind": "platoon", "units": [
        {"id": f"u{i}", "kind": "attached"} for i in range(10)
    ]}]  # fmt: skip
    many = [dict(s, id=f"{s['id']}u{u}", unit=f"u{u}") for s in stands for u in range(10)]
    battle = battle_from_data(
        {
            "defender": {
                "units": [{"id": "p", "kind": "platoon"}],
                "stands": [{"id": "d1", "type": "rifle", "unit": "p"}],
            },
            "attacker": {"units": units, "stands": many},
        }
    )
    try:
        plan = plan_assault(battle, "attacker", time_limit=1.0)
    except TimeLimitError:
        return
    assert plan.choices == 2**60 - 1 and plan.valued < plan.choices and not plan.proven


def test_rounds_bound_every_fight_of_the_plan() -> None:
    """With one round, taking the building is winning every combat of it."""
    battle = load_battle(TOGETHER)
    plan = plan_assault(battle, "attacker", rounds=1)
    for choice in plan.curve:
        fight = battle.only([*choice.against, *choice.stands])
        assert choice.value == oracle.fight_value(fight, rounds=1)
    assert {c.squads: c.value for c in plan.curve} == oracle_curve_rounds(battle, 1)
    result = run(str(TOGETHER), "--rounds", "1", "--json")
    assert json.loads(result.stdout)["rounds"] == 1


def oracle_curve_rounds(battle: Battle, rounds: int) -> dict[int, Fraction]:
    found: dict[int, Fraction] = {}
    defenders = battle.defender.ids()
    for stands in subsets(battle, "attacker"):
        value = oracle.fight_value(battle.only([*defenders, *stands]), rounds=rounds)
        k = squads(battle, stands)
        found[k] = max(found.get(k, value), value)
    return found
