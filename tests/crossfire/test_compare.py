"""``cfalloc compare``: one fight under several rulesets, on profiles whose difference is known.

One rifle squad against one, one d6 each: the attacker wins on a higher score, and a tie is
rolled again (1/2), the defender's (15/36 = 5/12) or the attacker's (21/36 = 7/12). A single
combat ends the fight (7b: one side is gone), so the whole fight gives the same.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from allocator.cli.app import app
from allocator.core.budget import Budget
from allocator.core.errors import InputError, TimeLimitError
from allocator.core.library import folder
from allocator.games.crossfire.battle import battle_from_data
from allocator.games.crossfire.compare import compare_answer, compare_rulesets
from allocator.games.crossfire.profile import profile_from_spec

DUEL = {
    "title": "Duel",
    "defender": {
        "units": [{"id": "p", "kind": "platoon"}],
        "stands": [{"id": "d1", "type": "rifle", "unit": "p"}],
    },
    "attacker": {
        "units": [{"id": "q", "kind": "platoon"}],
        "stands": [{"id": "a1", "type": "rifle", "unit": "q"}],
    },
}
TIES = {"reroll": Fraction(1, 2), "defender": Fraction(5, 12), "attacker": Fraction(7, 12)}


def profiles(*specs: str) -> dict[str, Any]:
    return {spec: profile_from_spec(spec) for spec in specs}


def test_the_ties_rule_gives_the_known_odds() -> None:
    specs = [f"crossfire:ties={ties}" for ties in TIES]
    found = compare_rulesets(battle_from_data(DUEL), profiles(*specs))
    assert [run.one_round.value for run in found.runs] == list(TIES.values())
    assert [run.whole_fight.value for run in found.runs] == list(TIES.values())
    assert found.changed == {"ties": dict(zip(specs, TIES, strict=True))}
    assert found.proven


def test_each_change_alone_says_which_number_moves_the_odds() -> None:
    found = compare_answer(
        battle_from_data(DUEL), profiles("crossfire", "crossfire:ties=defender,leader_bonus=sum")
    )
    effects = {e.key: (e.before, e.after, e.one_round_exact) for e in found.effects}
    assert effects == {
        "ties": ("reroll", "defender", Fraction(5, 12)),
        "leader_bonus": ("best", "sum", Fraction(1, 2)),  # no leader in the fight
    }
    assert {c.key for c in found.changed} == {"ties", "leader_bonus"}
    assert any(
        s.startswith("ties reroll -> defender alone") and "moves" in s for s in found.summary
    )
    assert any(
        "leader_bonus best -> sum alone" in s and "changes nothing" in s for s in found.summary
    )


def test_a_quality_modifier_moves_the_veterans_odds() -> None:
    """A veteran attacker, +1 (21/36 wins and 5/36 ties: 21/31) or +2 (26/36 and 4/36: 13/16)."""
    duel = json.loads(json.dumps(DUEL))
    duel["attacker"]["stands"][0]["quality"] = "veteran"
    found = compare_rulesets(battle_from_data(duel), profiles("crossfire", "crossfire:veteran=2"))
    assert [run.whole_fight.value for run in found.runs] == [Fraction(21, 31), Fraction(13, 16)]
    assert [(e.key, e.before, e.after) for e in found.effects] == [("veteran", 1, 2)]


def test_the_same_profile_twice_changes_nothing() -> None:
    found = compare_answer(battle_from_data(DUEL), profiles("crossfire", "crossfire:ties=reroll"))
    assert found.changed == [] and found.effects == [] and found.summary == []
    assert found.profiles[0].whole_fight == found.profiles[1].whole_fight


def run(*args: str) -> Any:
    return CliRunner().invoke(app, ["compare", *args])


@pytest.fixture
def duel(tmp_path: Path) -> Path:
    path = tmp_path / "duel.yaml"
    path.write_text(yaml.safe_dump(DUEL), encoding="utf-8")
    return path


def test_the_json_answer_is_exact_and_deterministic(duel: Path) -> None:
    args = [str(duel), "--profile", "crossfire", "--profile", "crossfire:ties=attacker", "--json"]
    first, second = run(*args), run(*args)
    assert first.exit_code == 0, first.output
    assert first.stdout == second.stdout
    answer = json.loads(first.stdout)
    assert [p["whole_fight"]["value_exact"] for p in answer["profiles"]] == ["1/2", "7/12"]
    assert answer["profiles"][1]["ruleset"] == "crossfire"
    assert answer["changed"][0]["values"] == {
        "crossfire": "reroll",
        "crossfire:ties=attacker": "attacker",
    }


def test_a_profile_file_of_ones_own(
    duel: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mine = yaml.safe_load((folder("rulesets") / "crossfire.yaml").read_text("utf-8"))
    mine["name"] = "our-club"
    mine["values"]["ties"]["value"] = "defender"
    (tmp_path / "club.yaml").write_text(yaml.safe_dump(mine), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = run(str(duel), "--profile", "crossfire", "--profile", "club.yaml", "--json")
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert answer["profiles"][1]["ruleset"] == "our-club"
    assert answer["profiles"][1]["one_round"]["value_exact"] == "5/12"


def test_the_text_sets_the_profiles_side_by_side(duel: Path) -> None:
    result = run(str(duel), "--profile", "crossfire", "--profile", "crossfire:ties=defender")
    assert result.exit_code == 0, result.output
    assert "5/12 (41.7%)" in result.output and "Ruleset values that differ" in result.output
    assert "ties reroll -> defender alone" in " ".join(result.output.split())


@pytest.mark.parametrize(
    ("profiles_given", "words"),
    [
        (["crossfire"], "--profile: compare needs 2 to 8 profiles, not 1"),
        (["crossfire", "crossfire"], "--profile: 'crossfire' is given twice"),
        (["crossfire", "crossfire:tie=x"], "unknown ruleset value 'tie' (did you mean 'ties'?)"),
        (["crossfire", "crossfire:squad=many"], "'squad' must be a whole number, not 'many'"),
        (["crossfire", "crossfire:ties"], "'ties' needs a value"),
        (["crossfire", "chess"], "no shipped Crossfire ruleset 'chess'"),
    ],
)
def test_bad_profiles_are_refused(duel: Path, profiles_given: list[str], words: str) -> None:
    result = run(str(duel), *[a for p in profiles_given for a in ("--profile", p)])
    assert result.exit_code == 2, result.output
    assert words in " ".join(result.stderr.split())


def test_a_bad_value_is_refused_by_the_profile() -> None:
    with pytest.raises(InputError, match="must be one of reroll, defender, attacker"):
        profile_from_spec("crossfire:ties=never")


def test_a_fight_not_solved_in_its_share_of_the_time_is_named() -> None:
    """Each fight gets an even share of the limit: the message says which one ran out, and
    that it had a share, since the command stops before its whole limit has passed."""
    with pytest.raises(TimeLimitError, match=r"one round under crossfire \(one of the 4 fights"):
        compare_rulesets(
            battle_from_data(DUEL),
            profiles("crossfire", "crossfire:ties=defender"),
            budget=Budget(0.0),
        )
