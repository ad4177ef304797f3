"""``cfalloc play``: the dice rolled at the table applied to a file's allocation, the survivors,
the next round's scenario (which ``cfalloc check`` reads), to the end of the fight."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from allocator.cli import crossfire as crossfire_cli
from allocator.cli.app import app
from allocator.core.errors import InputError
from allocator.core.reader import read_file
from allocator.games.crossfire.battle import battle_from_data, load_battle
from allocator.games.crossfire.play import dice_of, next_scenario, play_round, rolls_of
from allocator.games.crossfire.simulate import simulate

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "models" / "scenarios"
#: d1 and h1 (total 0) against a1 and a2 (2) in A; h2 alone (-1) against a3 and a4 (2) in B.
GUIDE = SCENARIOS / "guide-2hmg-1squad-v-4.yaml"
runner = CliRunner()


def play(*args: str, code: int = 0, given: str | None = None) -> Any:
    result = runner.invoke(app, ["play", *args], input=given)
    assert result.exit_code == code, result.output
    return result


def played_json(*args: str) -> dict[str, Any]:
    answer: dict[str, Any] = json.loads(play(*args, "--json").stdout)
    return answer


def with_allocation(path: Path, allocation: dict[str, Any]) -> None:
    data = read_file(path) | {"allocation": allocation}
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")


def test_dice_decide_each_combat_and_the_losers_are_removed() -> None:
    answer = played_json(str(GUIDE), "--dice", "A:4-3,B:1-5")
    assert [(c["name"], c["winner"]) for c in answer["combats"]] == [
        ("A", "attacker"),
        ("B", "defender"),
    ]
    assert [(r["attacker_score"], r["defender_score"]) for r in answer["combats"][0]["rolls"]] == [
        (6, 3)
    ]
    assert answer["dice"] == {
        "A": [{"attacker": [4], "defender": [3]}],
        "B": [{"attacker": [1], "defender": [5]}],
    }
    assert answer["removed"] == {"attacker": ["a3", "a4"], "defender": ["d1", "h1"]}
    assert answer["left"] == {"attacker": ["a1", "a2"], "defender": ["h2"]}
    assert answer["over"] is False and answer["winner"] is None
    assert "round 2 starts again from step 1" in answer["result"]
    assert answer["fight"]["p_attacker_takes"] == "10/11"  # two squads against a lone HMG


def test_the_next_rounds_scenario_passes_check_and_keeps_the_survivors(tmp_path: Path) -> None:
    printed = play(str(GUIDE), "--dice", "A:4-3,B:1-5").stdout
    following = tmp_path / "round-2.yaml"
    following.write_text(printed, encoding="utf-8")
    assert runner.invoke(app, ["check", str(following)]).exit_code == 0
    data = read_file(following)
    assert data["round"] == 2 and "allocation" not in data and "expect" not in data
    assert [s["id"] for s in data["defender"]["stands"]] == ["h2"]
    assert [s["id"] for s in data["attacker"]["stands"]] == ["a1", "a2"]
    assert data["building"] == read_file(GUIDE)["building"]
    written = tmp_path / "written.yaml"
    report = play(str(GUIDE), "--dice", "A:4-3,B:1-5", "--out", str(written)).stdout
    assert written.read_text(encoding="utf-8") == printed
    assert "Round 2's scenario: " in report and "combat A: attacker wins" in report


def test_the_json_carries_the_next_scenario_as_a_scenario_file_holds_it() -> None:
    answer = played_json(str(GUIDE), "--dice", "A:4-3,B:1-5")
    schema = json.loads((ROOT / "models" / "schema" / "scenario.schema.json").read_text("utf-8"))
    jsonschema.validate(answer["next_scenario"], schema)
    assert battle_from_data(answer["next_scenario"]).scenario.round == 2


@pytest.mark.parametrize(
    ("dice", "winner", "holds"),
    [("A:5-1", "attacker", "the attacker takes"), ("A:1-6", "defender", "the defender holds")],
)
def test_a_fight_played_to_the_end_says_who_holds_the_building(
    tmp_path: Path, dice: str, winner: str, holds: str
) -> None:
    following = tmp_path / "round-2.yaml"
    following.write_text(play(str(GUIDE), "--dice", "A:4-3,B:1-5").stdout, encoding="utf-8")
    best = json.loads(runner.invoke(app, ["solve", str(following), "--json"]).stdout)
    with_allocation(following, best["allocation"])
    assert best["allocation"]["combats"] == {"A": ["h2"]}
    answer = played_json(str(following), "--dice", dice)
    assert answer["over"] is True and answer["winner"] == winner and answer["round"] == 2
    assert "next_scenario" not in answer and "fight" not in answer
    result = play(str(following), "--dice", dice)
    assert f"The fight is over: {holds} the building" in result.stdout
    assert "round: " not in result.stdout and "Round 3" not in result.stdout  # no next round


def test_the_next_round_replaces_a_link_named_never_the_file_it_leads_to(tmp_path: Path) -> None:
    kept = tmp_path / "notes.txt"
    kept.write_text("my notes\n", encoding="utf-8")
    link = tmp_path / "round-2.yaml"
    link.symlink_to(kept)
    play(str(GUIDE), "--dice", "A:4-3,B:1-5", "--out", str(link))
    assert kept.read_text(encoding="utf-8") == "my notes\n"
    assert not link.is_symlink() and "defender:" in link.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("dice", "problem"),
    [
        ("A:4-3,B:1-5,C:2-2", "there is no combat 'C' this round (its combats: A, B)"),
        ("A:4-3,B:7-5", "combat B: 7 is not a face of a die (1 to 6)"),
        ("A:4-3,B:0-5", "combat B: 0 is not a face of a die (1 to 6)"),
        ("A:4-3,B:002-5", "combat B: 2-5 is a tie (4 against 4)"),
        ("A:4-3,B:1-" + "5" * 5000, "combat B: '555555555555555...' is not a face of a die"),
        ("A:4-3", "combat B has no dice: give one die each, e.g. B:4-3"),
        ("A:4-3,B:4 1-5", "combat B: the attacker rolls 1 die here (one die each), not 2"),
        ("A:4-3,B:four-5", "combat B: 'four-5' is not a roll"),
        ("A:4-3,B:2-5", "combat B: 2-5 is a tie (4 against 4), which is rolled again"),
        ("A:4-3,B:6-1/2-5", "combat B: roll 2 follows a roll that decided the combat"),
        ("A:4-3,A:6-1", "combat A is given dice twice"),
        ("4-3", "'4-3' names no combat"),
    ],
)
def test_bad_dice_are_one_clear_error_naming_the_combat(dice: str, problem: str) -> None:
    result = play(str(GUIDE), "--dice", dice, code=2)
    assert f"error: --dice: {problem}" in " ".join(result.stderr.split())
    assert "Traceback" not in result.output
    error = json.loads(play(str(GUIDE), "--dice", dice, "--json", code=2).stdout)
    assert error["errors"][0]["place"] == "--dice"
    assert problem in error["errors"][0]["problem"]


def test_every_problem_of_the_dice_is_listed() -> None:
    error = json.loads(play(str(GUIDE), "--dice", "A:9-3,B:1-0,Z:1-1", "--json", code=2).stdout)
    said = [p["problem"] for p in error["errors"]]
    assert len(said) == 3 and said[0].startswith("there is no combat 'Z'")
    assert any(p.startswith("combat A: 9") for p in said)
    assert any(p.startswith("combat B: 0") for p in said)


def test_a_tie_is_rerolled_after_a_slash() -> None:
    answer = played_json(str(GUIDE), "--dice", "A:4-3,B:2-5/6-1")
    rolled = answer["combats"][1]["rolls"]
    assert [(r["attacker_score"], r["defender_score"]) for r in rolled] == [(4, 4), (8, 0)]
    assert answer["combats"][1]["winner"] == "attacker"


def test_without_dice_and_without_a_terminal_it_is_a_usage_error() -> None:
    result = play(str(GUIDE), code=2)
    assert 'give the dice rolled at the table with --dice (e.g. --dice "A:4-3,B:6-1")' in (
        " ".join(result.stderr.split())
    )


def test_in_a_terminal_each_combat_is_asked_and_a_bad_answer_asked_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(crossfire_cli, "terminal_attached", lambda: True)
    result = play(str(GUIDE), "--json", given="9-3\n4-3\n2-5\n1-5\n")
    asked = " ".join(result.stderr.split())
    assert "Combat A: a1, a2 against d1, h1 (one die each)" in asked
    assert "9 is not a face of a die" in asked and "2-5 is a tie" in asked
    answer = json.loads(result.stdout[result.stdout.index("{") :])  # after the answers echoed
    assert answer["dice"]["A"] == [{"attacker": [4], "defender": [3]}]
    assert answer["dice"]["B"] == [{"attacker": [1], "defender": [5]}]


def test_input_that_ends_at_the_prompt_plays_nothing_and_says_so(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(crossfire_cli, "terminal_attached", lambda: True)
    written = tmp_path / "round-2.yaml"
    result = play(str(GUIDE), "--out", str(written), given="4-3\n", code=2)  # Ctrl+D at B
    message = " ".join(result.stderr.split())
    assert "error: the input ended before the dice of combat B were given: nothing is played" in (
        message
    )
    assert not written.exists() and "Traceback" not in result.output


def test_a_file_without_a_complete_allocation_cannot_be_played(tmp_path: Path) -> None:
    result = play(str(SCENARIOS / "fight-together-or-apart.yaml"), "--dice", "A:1-1", code=2)
    assert "no complete allocation to play" in result.stderr
    broken = play(
        str(SCENARIOS / "guide-2hmg-1squad-v-4-both-pair.yaml"), "--dice", "A:1-1", code=2
    )
    assert "the allocation breaks rule" in broken.stderr


def test_with_a_pool_each_side_rolls_one_die_per_fighting_stand() -> None:
    data = read_file(GUIDE) | {"ruleset": {"base": "crossfire", "overrides": {"dice_mode": "pool"}}}
    battle = battle_from_data(data)
    with pytest.raises(InputError, match=r"combat A: the defender rolls 2 dice here"):
        play_round(battle, dice_of("A:4 2-3,B:1 1-5"))
    answer = play_round(battle, dice_of("A:4 2-3 5,B:1 1-5"))
    # a pool: each stand's die replaces its +1; the best die counts (A: 4 against 5 - 2 crew)
    assert [(r.attacker_score, r.defender_score) for r in answer.combats[0].rolls] == [(4, 3)]
    assert answer.dice["A"][0].defender == [3, 5]


def test_dice_rolled_here_are_the_dice_simulate_rolls_for_the_same_seed() -> None:
    battle = load_battle(GUIDE)
    for seed in range(20):
        rolled = play_round(battle, seed=seed)
        assert rolled.seed == seed
        assert rolled.combats == simulate(battle, 1, seed=seed).rounds[0].combats


def test_the_next_scenario_keeps_places_present_stands_and_a_profile_of_ones_own(
    tmp_path: Path,
) -> None:
    profile = read_file(ROOT / "models" / "rulesets" / "crossfire.yaml")
    profile["values"]["ties"]["value"] = "defender"
    (tmp_path / "house.yaml").write_text(yaml.safe_dump(profile), encoding="utf-8")
    scenario = {
        "ruleset": "house.yaml",
        "defender": {
            "organisation": "german-rifle-company",
            "present": ["de-1plt-sq1", {"id": "de-1plt-sq2", "quality": "veteran"}],
        },
        "attacker": {
            "units": [{"id": "q", "kind": "platoon"}],
            "stands": [
                {"id": "a1", "type": "rifle", "unit": "q", "position": [1, 2]},
                {"id": "a2", "type": "rifle", "unit": "q", "position": [3, 4]},
            ],
        },
        "allocation": {
            "combats": {"A": ["de-1plt-sq1"], "B": ["de-1plt-sq2"]},
            "attack": {"A": ["a1"], "B": ["a2"]},
            "reallocate": {},
        },
    }
    file = tmp_path / "fight.yaml"
    file.write_text(yaml.safe_dump(scenario), encoding="utf-8")
    answer = play_round(load_battle(file), dice_of("A:3-3,B:6-1"))  # a tie: the defender's
    assert [c.winner for c in answer.combats] == ["defender", "attacker"]
    following = answer.next_scenario
    assert following is not None
    written = following.model_dump(mode="json", exclude_unset=True)
    assert written["ruleset"] == {"base": "crossfire", "overrides": {"ties": "defender"}}
    assert written["defender"]["present"] == ["de-1plt-sq1"]
    assert written["attacker"]["stands"] == [scenario["attacker"]["stands"][1]]  # where it stood
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "round-2.yaml").write_text(json.dumps(written), encoding="utf-8")
    assert load_battle(elsewhere / "round-2.yaml").ruleset.value("ties") == "defender"


def test_rolls_are_read_as_written() -> None:
    assert [(r.attacker, r.defender) for r in rolls_of("A", " 6 2 - 3 /4-4")] == [
        ((6, 2), (3,)),
        ((4,), (4,)),
    ]
    with pytest.raises(InputError, match="at most 50"):
        rolls_of("A", "/".join(["1-1"] * 51))
    with pytest.raises(InputError, match="characters of dice"):
        dice_of("A:" + "1" * 20_000)


def test_next_scenario_of_an_organisation_without_present_lists_the_survivors() -> None:
    battle = battle_from_data(
        {
            "defender": {"organisation": "german-rifle-company"},
            "attacker": {
                "units": [{"id": "q", "kind": "platoon"}],
                "stands": [{"id": "a1", "type": "rifle", "unit": "q"}],
            },
        }
    )
    everyone = list(battle.defender.stands)
    following = next_scenario(battle, {"defender": everyone[1:], "attacker": ["a1"]})
    assert following.defender.present == everyone[1:]


def test_a_combat_decided_without_a_roll_takes_no_dice() -> None:
    lone = str(SCENARIOS / "rule-3a-pass-lone-fo.yaml")  # a lone FO loses without a roll
    refused = play(lone, "--dice", "A:1-2", code=2)
    assert "combat A takes no dice: the defender has no fighting stand" in refused.stderr
    answer = played_json(lone, "--dice", "")
    assert answer["dice"] == {} and answer["combats"][0]["rolls"] == []
    assert answer["over"] is True and answer["winner"] == "attacker"
    assert json.loads(play(lone, "--json").stdout) == answer  # no dice to ask for


def test_the_next_round_is_written_where_it_can_be(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-folder" / "round-2.yaml"
    result = play(str(GUIDE), "--dice", "A:4-3,B:1-5", "--out", str(missing), code=2)
    assert f"error: --out: no folder {missing.parent} to write round-2.yaml in" in result.stderr
    pipe = tmp_path / "pipe.yaml"
    os.mkfifo(pipe)  # written, it would wait for a reader for ever
    for named in (pipe, Path("/dev/null")):
        refused = play(str(GUIDE), "--dice", "A:4-3,B:1-5", "--out", str(named), code=2)
        assert f"error: --out: {named} is there and is not a regular file" in refused.stderr
    copy = tmp_path / "fight.yaml"
    copy.write_text(GUIDE.read_text(encoding="utf-8"), encoding="utf-8")
    itself = play(str(copy), "--dice", "A:4-3,B:1-5", "--out", str(copy), code=2)
    assert "this is the file being played" in itself.stderr
    assert copy.read_text(encoding="utf-8") == GUIDE.read_text(encoding="utf-8")
    lone = str(SCENARIOS / "rule-3a-pass-lone-fo.yaml")
    nowhere = tmp_path / "round-2.yaml"
    assert "is not written" in " ".join(play(lone, "--out", str(nowhere)).stdout.split())
    assert not nowhere.exists()


@pytest.mark.parametrize(
    ("dice", "problem"),
    [
        ("A:4-3,,B:1-5,", None),
        ("A\x1b[31m:4-3,B:1-5", r"'A\x1b[31m' is not the name of a combat (A, B, ...)"),
    ],
)
def test_the_dice_line_skips_empty_entries_and_names_no_control_characters(
    dice: str, problem: str | None
) -> None:
    if problem is None:
        assert list(dice_of(dice)) == ["A", "B"]
    else:
        with pytest.raises(InputError) as raised:
            dice_of(dice)
        assert raised.value.problem == problem


def test_the_round_is_played_when_the_time_limit_allows_no_odds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from allocator.core.errors import TimeLimitError
    from allocator.games.crossfire.search import solve

    def too_slow(*args: Any, **kwargs: Any) -> Any:
        raise TimeLimitError(0.1)

    monkeypatch.setattr(solve, "solve", too_slow)
    answer = play_round(load_battle(GUIDE), dice_of("A:4-3,B:1-5"), odds_time_limit=0.1)
    assert answer.fight is None and answer.next_scenario is not None


def playable() -> list[Path]:
    """The shipped scenarios whose allocation is complete and legal: rounds that can be played."""
    from allocator.games.crossfire.play import round_combats

    found = []
    for path in sorted(SCENARIOS.glob("*.yaml")):
        try:
            round_combats(load_battle(path))
        except InputError:
            continue
        found.append(path)
    return found


@pytest.mark.parametrize("path", playable(), ids=lambda p: p.stem)
def test_any_dice_leave_the_losers_out_and_a_next_round_check_accepts(path: Path) -> None:
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from allocator.games.crossfire.check import check_battle
    from allocator.games.crossfire.play import CombatDice, TableDice, round_combats

    battle = load_battle(path)
    combats = [c for c in round_combats(battle) if not c.decided]

    def roll_of(dice: CombatDice) -> Any:
        faces = st.integers(min_value=1, max_value=6)
        return st.builds(
            TableDice,
            st.tuples(*[faces] * dice.attacker),
            st.tuples(*[faces] * dice.defender),
        )

    def decided(dice: CombatDice, roll: TableDice) -> list[TableDice]:
        """The roll, and after a tie a re-roll that decides (the highest die against the
        lowest, one way or the other)."""
        attacker, defender = dice.scores(roll)
        if attacker != defender:
            return [roll]
        high = TableDice((6,) * dice.attacker, (1,) * dice.defender)
        low = TableDice((1,) * dice.attacker, (6,) * dice.defender)
        rerolled = high if len(set(dice.scores(high))) == 2 else low
        return [roll, rerolled]

    shapes = {c.name: CombatDice.of(battle.ruleset, c) for c in combats}

    @settings(max_examples=15, deadline=None)
    @given(st.fixed_dictionaries({name: roll_of(dice) for name, dice in shapes.items()}))
    def check(rolls: dict[str, TableDice]) -> None:
        answer = play_round(battle, {n: decided(shapes[n], r) for n, r in rolls.items()})
        for combat in answer.combats:
            losers = combat.defenders if combat.winner == "attacker" else combat.attackers
            side = "defender" if combat.winner == "attacker" else "attacker"
            assert set(losers) <= set(answer.removed[side])
            assert not set(losers) & set(answer.left[side])
        if answer.over:
            assert answer.next_scenario is None and answer.winner is not None
            return
        following = battle_from_data(answer.to_json()["next_scenario"])
        assert sorted(following.defender.stands) == answer.left["defender"]
        assert sorted(following.attacker.stands) == answer.left["attacker"]
        assert check_battle(following).legal

    check()


#: Dice as a hostile or careless hand writes them: mostly the characters of dice, some others.
DICE_TEXT = st.text(
    alphabet=st.one_of(
        st.sampled_from("0123456789-/:, AB"),
        st.sampled_from("\x1b\x00\u202e\u0663\uff0d\t\n"),
        st.characters(),
    ),
    max_size=120,
) | st.builds(lambda n, rest: "A:" + "9" * n + rest, st.integers(1, 6000), st.text(max_size=5))


@settings(max_examples=300, deadline=None)
@given(DICE_TEXT)
def test_any_dice_text_is_read_or_refused_in_words(text: str) -> None:
    battle = load_battle(GUIDE)
    try:
        play_round(battle, dice_of(text))
    except InputError as error:
        assert all(problem.problem for problem in error.problems())
