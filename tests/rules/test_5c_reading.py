"""The sharpened reading of 5c: an attacking CC or BC who joins at step 5 counts only as a
leader (his rating under L3), never as a squad, also beside a CC or BC who takes the combat as a
squad (4b); the defender's two CC/BC heads folded together still count twice. It must hold
alike in the checker, the odds, CP-SAT, the enumeration, the whole fight, explain, the dice and
the brute-force oracle."""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path
from unittest import mock

import oracle
import pytest

from allocator.games.crossfire.battle import Battle, battle_from_data, load_battle
from allocator.games.crossfire.check import check_battle
from allocator.games.crossfire.explain import explain
from allocator.games.crossfire.objectives import objective_named
from allocator.games.crossfire.odds import side_total
from allocator.games.crossfire.schema import Allocation
from allocator.games.crossfire.search import solve as solve_module
from allocator.games.crossfire.search.solve import solve
from allocator.games.crossfire.simulate import roll_round

SCENARIOS = Path(__file__).resolve().parents[2] / "models" / "scenarios"
LEADER_ONLY = SCENARIOS / "edge-odds-a-second-commander-is-a-leader-only.yaml"
BESIDE = SCENARIOS / "rule-5c-pass-commander-beside-a-commander.yaml"
DEFENDING_HEADS = SCENARIOS / "edge-odds-two-defending-heads-count-as-two-squads.yaml"


def without_allocation(path: Path) -> Battle:
    return load_battle(path).with_allocation(None)


def test_a_rating_0_bc_and_cc_against_one_rifle_squad_is_one_half() -> None:
    answer = check_battle(load_battle(LEADER_ONLY))
    assert answer.legal and answer.odds is not None
    (combat,) = answer.odds.combats
    assert (combat.attacker_total, combat.defender_total) == (1, 1)
    assert combat.p_attacker_wins_exact == Fraction(1, 2)  # not 21/31: one squad's worth
    assert dict(combat.attacker_parts) == {"acc fights as a squad": 1}


def test_only_one_attacking_commander_fights_as_a_pool_die() -> None:
    battle = load_battle(LEADER_ONLY)
    total = side_total(battle, ["acc", "abc"], attacking=True)
    assert (total.total, total.fighters, total.can_fight) == (1, 1, True)


def test_the_defenders_folded_heads_still_count_twice() -> None:
    answer = check_battle(load_battle(DEFENDING_HEADS))
    assert answer.odds is not None
    (combat,) = answer.odds.combats
    assert (combat.attacker_total, combat.defender_total) == (1, 2)
    assert combat.p_attacker_wins_exact == 1 - Fraction(21, 31)


@pytest.mark.parametrize("engine", ["enumeration", "cp-sat"])
@pytest.mark.parametrize("name", ["sweep", "exchange"])
def test_both_searches_and_the_oracle_read_it_alike(engine: str, name: str) -> None:
    for path in (LEADER_ONLY, BESIDE):
        battle = without_allocation(path)
        with mock.patch.object(solve_module, "ENUMERATION", engine == "enumeration"):
            found = solve(battle, "defender", objective_named(name))
        assert found.status == "optimal"
        assert found.line.value == oracle.game_value(battle, name), path.name


def test_the_best_attack_needs_no_second_commander() -> None:
    """1/2 whichever commander goes in: the search keeps the line without the BC as good."""
    battle = without_allocation(LEADER_ONLY)
    found = solve(battle, "defender", objective_named("sweep"))
    assert found.line.value == Fraction(1, 2)
    assert len(found.line.attack["A"]) == 1


def test_the_whole_fight_is_the_oracles() -> None:
    battle = without_allocation(BESIDE)
    found = solve(battle, "defender", objective_named("take"))
    assert found.line.value == oracle.fight_value(battle)


def test_explain_says_the_second_commander_is_a_leader_only() -> None:
    steps = explain(load_battle(BESIDE)).steps
    text = " ".join(steps[5].text)
    assert "acc takes combat B as a squad (4b)" in text
    assert "abc joins him there as a leader only, not as a squad (5c)" in text
    assert (
        "abc may join a combat only beside a squad, or a CC or BC taking it as a squad (4b), "
        "within one stand width: acc (5a)." in steps[5].text
    )
    assert any("a leader only, his rating and not a second squad (5c)" in t for t in steps[5].text)


def test_the_dice_roll_the_same_totals() -> None:
    battle = load_battle(LEADER_ONLY)
    allocation = battle.allocation
    assert allocation is not None
    combats, _ = roll_round(battle, allocation, random.Random(3))
    assert [(c.attacker_total, c.defender_total) for c in combats] == [(1, 1)]


def test_the_oracle_reads_it_from_the_rules_text() -> None:
    battle = load_battle(LEADER_ONLY)
    first = Allocation(combats={"A": ["d1"]}, attack={"A": ["acc", "abc"]}, reallocate={})
    assert oracle.p_attacker_wins(battle, ["d1"], ["acc", "abc"]) == Fraction(1, 2)
    assert oracle.value(battle, "sweep", first.combats or {}, first.attack or {}, {}) == Fraction(
        1, 2
    )


@pytest.mark.parametrize("engine", ["enumeration", "cp-sat"])
def test_a_commissar_beside_the_cc_who_takes_the_combat_adds_his_rating(engine: str) -> None:
    """He is no CC or BC, so he cannot head the combat himself: the search keeps him beside the
    CC who does (1 + 2 against 1: 13/16), not only the CC alone (1/2)."""
    battle = battle_from_data(
        {
            "defender": {
                "units": [{"id": "p", "kind": "platoon"}],
                "stands": [{"id": "d1", "type": "rifle", "unit": "p"}],
            },
            "attacker": {
                "units": [{"id": "c", "kind": "company"}],
                "stands": [
                    {"id": "cc", "type": "cc", "unit": "c", "rating": 0},
                    {"id": "kom", "type": "commissar", "unit": "c", "near": ["cc"]},
                ],
            },
        }
    )
    with mock.patch.object(solve_module, "ENUMERATION", engine == "enumeration"):
        found = solve(battle, "defender", objective_named("sweep"))
    assert found.line.value == oracle.game_value(battle, "sweep") == Fraction(13, 16)
    assert sorted(found.line.attack["A"]) == ["cc", "kom"]
