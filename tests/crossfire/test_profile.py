"""Ruleset profiles: the shipped Crossfire profile, house-rule overrides, and profiles by path."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml

from allocator.core.errors import InputError
from allocator.core.library import folder
from allocator.games.crossfire.battle import battle_from_data, load_battle
from allocator.games.crossfire.odds import combat_odds, win_probability
from allocator.games.crossfire.profile import load_ruleset

PROFILE = folder("rulesets") / "crossfire.yaml"

#: The defaults of docs/rules.md (the combat model), and its readings of the open points.
DEFAULTS = {
    "dice_mode": "single",
    "ties": "reroll",
    "squad": 1,
    "weapon": 1,
    "crew": -2,
    "smg": 1,
    "green": -1,
    "regular": 0,
    "veteran": 1,
    "suppressed": -2,
    "surprise": -1,
    "commander_as_squad": 1,
    "commissar_rating": 2,
    "leader_bonus": "best",
    "lone_noncombatant_loses": True,
    "later_rounds_all_near": True,
}


def test_shipped_profile_loads_with_the_rules_defaults() -> None:
    ruleset = load_ruleset("crossfire")
    assert ruleset.name == "crossfire"
    assert {key: ruleset.value(key) for key in DEFAULTS} == DEFAULTS


def test_every_value_says_whether_it_is_verified_and_where_it_comes_from() -> None:
    raw = yaml.safe_load(PROFILE.read_text(encoding="utf-8"))
    for key, entry in raw["values"].items():
        assert isinstance(entry["verified"], bool), key
        assert isinstance(entry["source"], str) and len(entry["source"]) > 10, key
        if isinstance(entry["value"], str):
            assert entry["value"] in entry.get("choices", [entry["value"]]), key


def test_the_numeric_model_is_unverified() -> None:
    """The combat model of docs/rules.md: every number is an unverified default."""
    ruleset = load_ruleset("crossfire")
    for key in ("dice_mode", "ties", "squad", "weapon", "crew", "smg", "suppressed"):
        assert ruleset.values[key].verified is False, key


SCENARIO: dict[str, Any] = {
    "defender": {
        "units": [
            {
                "id": "coy",
                "kind": "company",
                "units": [{"id": "p", "kind": "platoon"}],
            }
        ],
        "stands": [
            {"id": "d1", "type": "rifle", "unit": "p"},
            {"id": "dpc", "type": "pc", "unit": "p", "rating": 1},
            {"id": "dcc", "type": "cc", "unit": "coy", "rating": 1},
        ],
    },
    "attacker": {
        "units": [{"id": "q", "kind": "platoon"}],
        "stands": [
            {"id": "a1", "type": "rifle", "unit": "q"},
            {"id": "a2", "type": "rifle", "unit": "q"},
        ],
    },
}


def odds_with(overrides: dict[str, Any] | None = None, attackers: tuple[str, ...] = ("a1",)):
    data = dict(SCENARIO)
    if overrides is not None:
        data["ruleset"] = {"base": "crossfire", "overrides": overrides}
    battle = battle_from_data(data)
    return combat_odds(battle, "A", ["d1", "dpc", "dcc"], list(attackers))


def test_override_changes_the_value_and_marks_it_a_house_rule() -> None:
    ruleset = load_ruleset({"base": "crossfire", "overrides": {"ties": "defender"}})
    assert ruleset.value("ties") == "defender"
    assert ruleset.values["ties"].verified is False
    assert "house rule" in ruleset.values["ties"].source
    assert load_ruleset("crossfire").value("ties") == "reroll", "the base profile is unchanged"


def test_default_odds() -> None:
    # defender: squad +1, best leader +1 = 2; attacker: one squad = 1; behind by 1
    odds = odds_with()
    assert (odds.attacker.total, odds.defender.total) == (1, 2)
    assert odds.p_attacker_wins == 1 - Fraction(21, 31)


@pytest.mark.parametrize(
    ("ties", "expected"),
    [("reroll", Fraction(10, 31)), ("defender", Fraction(10, 36)), ("attacker", Fraction(15, 36))],
)
def test_ties_override_moves_the_odds(ties: str, expected: Fraction) -> None:
    assert odds_with({"ties": ties}).p_attacker_wins == expected


def test_leader_bonus_sum_moves_the_odds() -> None:
    odds = odds_with({"leader_bonus": "sum"})
    assert odds.defender.total == 3  # squad +1, PC +1, CC +1
    assert odds.p_attacker_wins == 1 - Fraction(13, 16)


def test_dice_pool_moves_the_odds() -> None:
    best = odds_with(attackers=("a1", "a2"))
    pool = odds_with({"dice_mode": "pool"}, attackers=("a1", "a2"))
    # two attacking dice against one (squad and leaders' modifiers: 0 v +1)
    assert pool.p_attacker_wins == win_probability(-1, "pool", "reroll", (2, 1))
    assert best.p_attacker_wins == Fraction(1, 2)
    assert pool.p_attacker_wins != best.p_attacker_wins


def test_numeric_override_moves_the_total() -> None:
    odds = odds_with({"squad": 2})
    assert (odds.attacker.total, odds.defender.total) == (2, 3)


@pytest.mark.parametrize(
    ("overrides", "problem"),
    [
        ({"tie": "defender"}, "unknown ruleset value 'tie'"),
        ({"squad": "one"}, "'squad' must be a whole number"),
        ({"squad": True}, "'squad' must be a whole number"),
        ({"lone_noncombatant_loses": 1}, "'lone_noncombatant_loses' must be true or false"),
        ({"ties": "coin"}, "'ties' must be one of reroll, defender, attacker"),
        ({"dice_mode": "three"}, "'dice_mode' must be one of single, pool"),
        ({"leader_bonus": "max"}, "'leader_bonus' must be one of best, sum"),
    ],
)
def test_bad_override_is_an_input_error(overrides: dict[str, Any], problem: str) -> None:
    with pytest.raises(InputError) as caught:
        load_ruleset({"base": "crossfire", "overrides": overrides})
    assert problem in str(caught.value)
    data = dict(SCENARIO, ruleset={"base": "crossfire", "overrides": overrides})
    with pytest.raises(InputError) as caught:
        battle_from_data(data, file="house.yaml")
    assert str(caught.value).startswith("house.yaml: ruleset.overrides.")


def test_unknown_profile_name_is_an_input_error() -> None:
    with pytest.raises(InputError) as caught:
        battle_from_data(dict(SCENARIO, ruleset="crossfyre"), file="x.yaml")
    assert str(caught.value) == (
        "x.yaml: ruleset: no shipped Crossfire ruleset 'crossfyre' (did you mean 'crossfire'?)"
    )


def test_unknown_base_is_an_input_error() -> None:
    with pytest.raises(InputError, match="no shipped Crossfire ruleset 'nope'"):
        load_ruleset({"base": "nope", "overrides": {}})


def house_profile(folder: Path, ties: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    raw = yaml.safe_load(PROFILE.read_text(encoding="utf-8"))
    raw["name"] = f"house-{ties}"
    raw["values"]["ties"]["value"] = ties
    path = folder / "house.yaml"
    path.write_text(yaml.safe_dump(raw, sort_keys=False), encoding="utf-8")
    return path


def write_scenario(folder: Path, ruleset: Any) -> Path:
    path = folder / "scenario.yaml"
    path.write_text(yaml.safe_dump(dict(SCENARIO, ruleset=ruleset)), encoding="utf-8")
    return path


def test_profile_by_path_relative_to_the_scenario(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    house_profile(tmp_path / "rules", "attacker")
    scenario = write_scenario(tmp_path, "rules/house.yaml")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)  # the path is read from the scenario's folder, not the cwd
    battle = load_battle(scenario)
    assert battle.ruleset.name == "house-attacker"
    assert battle.ruleset.value("ties") == "attacker"
    odds = combat_odds(battle, "A", ["d1", "dpc", "dcc"], ["a1"])
    assert odds.p_attacker_wins == Fraction(15, 36)


def test_profile_by_path_as_the_base_of_overrides(tmp_path: Path) -> None:
    house_profile(tmp_path / "rules", "defender")
    scenario = write_scenario(
        tmp_path, {"base": "rules/house.yaml", "overrides": {"leader_bonus": "sum"}}
    )
    battle = load_battle(scenario)
    assert battle.ruleset.value("ties") == "defender"
    assert battle.ruleset.value("leader_bonus") == "sum"


def test_missing_profile_path_is_an_input_error(tmp_path: Path) -> None:
    scenario = write_scenario(tmp_path, "rules/absent.yaml")
    with pytest.raises(InputError) as caught:
        load_battle(scenario)
    assert "absent.yaml" in str(caught.value)
    assert "no such file" in str(caught.value)


def test_invalid_profile_file_is_an_input_error(tmp_path: Path) -> None:
    (tmp_path / "broken.yaml").write_text("name: broken\nvalues: {ties: {value: reroll}}\n")
    scenario = write_scenario(tmp_path, "broken.yaml")
    with pytest.raises(InputError) as caught:
        load_battle(scenario)
    assert "broken.yaml" in str(caught.value)
