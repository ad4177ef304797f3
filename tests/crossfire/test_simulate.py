"""Rolling the dice: empirical rates match the exact odds, seeds repeat, fights end."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from allocator.games.crossfire import simulate as simulation
from allocator.games.crossfire.battle import Battle, battle_from_data, load_battle
from allocator.games.crossfire.objectives import objective_named

#: These tests roll rounds: where the file has no allocation both sides play the one-round best
#: (``cfalloc simulate --objective sweep``); the whole fight's trials are in test_fight.py.
ONE_ROUND = objective_named("sweep")


def simulate(*args: Any, **kwargs: Any) -> dict[str, Any]:
    """The simulation's answer, as ``cfalloc simulate --objective sweep --json`` prints it."""
    return simulation.simulate(*args, objective=ONE_ROUND, **kwargs).to_json()


def trials(*args: Any, **kwargs: Any) -> dict[str, Any]:
    """The trials' answer, as ``cfalloc simulate --trials K --objective sweep --json`` prints."""
    return simulation.trials(*args, objective=ONE_ROUND, **kwargs).to_json()


ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "models" / "scenarios"
SEED = SCENARIOS / "guide-2hmg-1squad-v-4.yaml"
TRIALS = 4000


def with_ruleset(path: Path, overrides: dict[str, Any]) -> Battle:
    import yaml

    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["ruleset"] = {"base": "crossfire", "overrides": overrides}
    return battle_from_data(data, str(path), path.parent)


def within_4_standard_errors(rate: float, p: float, n: int) -> bool:
    if p in (0.0, 1.0):
        return rate == p
    return abs(rate - p) <= 4 * math.sqrt(p * (1 - p) / n)


BATTLES = {
    "guide-2hmg-reroll": lambda: load_battle(SEED),
    "guide-2hmg-ties-defender": lambda: with_ruleset(SEED, {"ties": "defender"}),
    "guide-2hmg-ties-attacker": lambda: with_ruleset(SEED, {"ties": "attacker"}),
    "guide-2hmg-pool": lambda: with_ruleset(SEED, {"dice_mode": "pool"}),
    "five-squads-3-and-2": lambda: load_battle(SCENARIOS / "guide-5-squads-v-2-three-and-two.yaml"),
    "rifle-and-cc": lambda: load_battle(SCENARIOS / "guide-rifle-and-cc-v-2-smg-legal.yaml"),
}


@pytest.mark.parametrize("make", BATTLES.values(), ids=BATTLES.keys())
def test_trial_rates_match_the_exact_odds(make: Any) -> None:
    data = trials(make(), TRIALS, seed=11)
    assert data["trials"] == TRIALS
    for combat in data["combats"]:
        assert within_4_standard_errors(
            combat["attacker_win_rate"], combat["p_attacker_wins"], TRIALS
        ), combat
    assert within_4_standard_errors(data["sweep_rate"], data["p_sweep"], TRIALS), data


def test_trials_without_an_allocation_roll_the_optimal_line() -> None:
    battle = load_battle(ROOT / "bench" / "platoon-v-squad-hmg-pc.yaml")
    data = trials(battle, TRIALS, seed=5)
    assert data["p_sweep"] == pytest.approx(273 / 496)
    assert within_4_standard_errors(data["sweep_rate"], data["p_sweep"], TRIALS)


def test_a_building_that_breaks_b1_or_b2_is_played_as_given_and_says_so() -> None:
    manor = load_battle(SCENARIOS / "rule-b2-fail.yaml")  # capacity 4, no allocation
    for answer in (simulate(manor, 1, seed=1), trials(manor, 10, seed=1)):
        assert [w[:3] for w in answer["warnings"]] == ["B2:"], answer
        assert answer["warnings"][0].endswith("Solved as given.")
    crowded = battle_from_data(
        load_battle(SCENARIOS / "rule-b1-fail.yaml").scenario.model_dump(
            mode="json", exclude_none=True, exclude={"allocation"}
        )
    )
    assert simulate(crowded, 1, seed=1)["warnings"][0].startswith("B1: ")
    assert simulate(load_battle(SEED), 1, seed=1)["warnings"] == []


def test_the_same_seed_gives_the_same_result() -> None:
    battle = load_battle(SEED)
    assert simulate(battle, 10, seed=42) == simulate(battle, 10, seed=42)
    assert trials(battle, 300, seed=42) == trials(battle, 300, seed=42)


def test_different_seeds_give_different_rolls() -> None:
    battle = load_battle(SEED)
    rolls = {str(simulate(battle, 1, seed=s)["rounds"][0]["combats"]) for s in range(1, 10)}
    assert len(rolls) > 1


def test_ties_not_rerolled_take_one_roll() -> None:
    battle = with_ruleset(SEED, {"ties": "defender"})
    for seed in range(1, 30):
        for combat in simulate(battle, 1, seed=seed)["rounds"][0]["combats"]:
            assert len(combat["rolls"]) == 1


def test_a_rolled_combat_is_won_by_the_higher_total() -> None:
    battle = load_battle(SEED)
    for seed in range(1, 30):
        for combat in simulate(battle, 1, seed=seed)["rounds"][0]["combats"]:
            last = combat["rolls"][-1]
            attacker = last["attacker"] + combat["attacker_total"]
            defender = last["defender"] + combat["defender_total"]
            for earlier in combat["rolls"][:-1]:  # ties are re-rolled
                assert (
                    earlier["attacker"] + combat["attacker_total"]
                    == earlier["defender"] + combat["defender_total"]
                )
            assert combat["winner"] == ("attacker" if attacker > defender else "defender")


@pytest.mark.parametrize("seed", range(1, 9))
def test_later_rounds_run_until_one_side_is_gone(seed: int) -> None:
    battle = load_battle(SEED)
    data = simulate(battle, 50, seed=seed)
    rounds = data["rounds"]
    assert [r["round"] for r in rounds] == list(range(1, len(rounds) + 1))
    assert len(rounds) < 50, "the fight must end long before 50 rounds"
    gone: dict[str, set[str]] = {"attacker": set(), "defender": set()}
    for played in rounds:
        fighting = {
            "defender": {s for c in played["combats"] for s in c["defenders"]},
            "attacker": {s for c in played["combats"] for s in c["attackers"]},
        }
        for side in gone:
            assert not fighting[side] & gone[side], "a removed stand fights again"
            assert set(played["removed"][side]) <= fighting[side]
            gone[side] |= set(played["removed"][side])
        assert any(played["removed"].values()), "every round removes someone"
    left = data["left"]
    assert not (set(left["defender"]) & gone["defender"])
    assert not left["defender"] or not left["attacker"]
    assert data["winner"] == ("attacker" if not left["defender"] else "defender")


def test_one_round_only_when_asked() -> None:
    data = simulate(load_battle(SEED), 1, seed=3)
    assert len(data["rounds"]) == 1


def test_attacker_left_with_only_a_pc_has_lost() -> None:
    battle = battle_from_data(
        {
            "defender": {
                "units": [{"id": "p", "kind": "platoon"}],
                "stands": [{"id": "d1", "type": "rifle", "unit": "p"}],
            },
            "attacker": {
                "units": [{"id": "q", "kind": "platoon"}],
                "stands": [
                    {"id": "a1", "type": "rifle", "unit": "q"},
                    {"id": "apc", "type": "pc", "unit": "q", "rating": 1},  # near no one
                ],
            },
        }
    )
    endings = [simulate(battle, 20, seed=s) for s in range(1, 15)]
    held = [d for d in endings if d["left"]["defender"]]
    assert held, "with these seeds the defender wins some fights"
    for data in held:
        assert data["left"]["attacker"] == ["apc"]
        assert data["winner"] == "defender"


def test_later_rounds_go_on_after_a_leader_loses_the_squads_he_was_near() -> None:
    """Round 1 removes squads named in a surviving leader's `near`: round 2 must still run."""
    battle = load_battle(ROOT / "bench" / "company-v-town-house.yaml")
    result = simulate(battle, rounds=5, seed=7)
    assert len(result["rounds"]) >= 2
    assert result["winner"] == "attacker"  # seed 7: the attacker takes the house in round 2
    assert result["left"]["defender"] == []
