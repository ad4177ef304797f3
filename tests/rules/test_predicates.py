"""The decisions the rule families export, which every other module asks instead of deriving
them again: who takes a combat as a squad (4b, 5c), who a leader may join beside (5a), which
stands are still to place (1c, 4e, 6a), who counts as a squad in the odds, and 7b."""

from __future__ import annotations

from typing import Any

import pytest

from allocator.games.crossfire.battle import Battle, Role, battle_from_data
from allocator.games.crossfire.rules import still_to_place
from allocator.games.crossfire.rules.attack import (
    acting_commander,
    assault_troops,
    near_troops,
    unplaced_squads,
)
from allocator.games.crossfire.rules.grouping import unplaced_defenders
from allocator.games.crossfire.rules.leaders import as_squads
from allocator.games.crossfire.rules.reallocation import unmoved
from allocator.games.crossfire.rules.resolution import fights_on, keeps_fighting, winner
from allocator.games.crossfire.schema import RATINGS, Allocation


def battle(
    attackers: list[dict[str, Any]], defenders: list[dict[str, Any]] | None = None
) -> Battle:
    return battle_from_data(
        {
            "defender": {
                "units": [
                    {
                        "id": "bn",
                        "kind": "battalion",
                        "units": [
                            {
                                "id": "coy",
                                "kind": "company",
                                "units": [{"id": "p", "kind": "platoon"}],
                            }
                        ],
                    }
                ],
                "stands": defenders
                or [
                    {"id": "d1", "type": "rifle", "unit": "p"},
                    {"id": "d2", "type": "rifle", "unit": "p"},
                ],
            },
            "attacker": {
                "units": [
                    {
                        "id": "abn",
                        "kind": "battalion",
                        "units": [
                            {
                                "id": "acoy",
                                "kind": "company",
                                "units": [{"id": "q", "kind": "platoon"}],
                            }
                        ],
                    }
                ],
                "stands": attackers,
            },
        }
    )


A1 = {"id": "a1", "type": "rifle", "unit": "q"}
A2 = {"id": "a2", "type": "rifle", "unit": "q"}
PC = {"id": "pc", "type": "pc", "unit": "q", "rating": 1, "near": ["a1"]}
CC = {"id": "cc", "type": "cc", "unit": "acoy", "rating": 1}
BC = {"id": "bc", "type": "bc", "unit": "abn", "rating": 2, "near": ["cc"]}
HMG = {"id": "hmg", "type": "hmg", "unit": "acoy"}
FO = {"id": "fo", "type": "fo", "unit": "acoy"}


# --- 4b and 5c: who takes a combat as a squad ----------------------------------------------


def test_nobody_takes_a_combat_as_a_squad_where_a_squad_attacks() -> None:
    b = battle([A1, CC, BC])
    assert acting_commander(b, ["a1", "cc", "bc"]) is None
    assert acting_commander(b, []) is None


def test_one_cc_or_bc_takes_a_combat_without_squads_the_one_the_others_stand_near() -> None:
    b = battle([A1, CC, BC, {"id": "bc2", "type": "bc", "unit": "abn", "near": ["cc"]}])
    assert acting_commander(b, ["cc"]) == "cc"
    assert acting_commander(b, ["bc", "bc2", "cc"]) == "cc"


def test_the_odds_count_one_attacking_commander_as_a_squad_and_every_defending_one() -> None:
    defenders = [
        {"id": "dcc", "type": "cc", "unit": "coy"},
        {"id": "dbc", "type": "bc", "unit": "bn"},
        {"id": "d1", "type": "rifle", "unit": "p"},
    ]
    b = battle([A1, CC, BC], defenders)
    assert as_squads(b, ["cc", "bc"], attacking=True) == ["cc"]
    assert as_squads(b, ["a1", "cc", "bc"], attacking=True) == []
    assert as_squads(b, ["dcc", "dbc"], attacking=False) == ["dcc", "dbc"]
    assert as_squads(b, ["d1", "dcc"], attacking=False) == []


# --- 5a: who a leader may join beside --------------------------------------------------------


def test_a_leader_joins_beside_squads_and_commanders_he_stands_near() -> None:
    b = battle([A1, A2, PC, CC, BC, HMG])
    assert assault_troops(b) == ["a1", "a2", "cc", "bc"]
    assert near_troops(b, "pc") == ["a1"]
    assert near_troops(b, "bc") == ["cc"]
    assert near_troops(b, "cc") == ["bc"]  # read both ways


# --- which stands are still to place ---------------------------------------------------------


def test_attacking_weapons_fos_and_leaders_are_never_still_to_place() -> None:
    b = battle([A1, A2, PC, HMG, FO])
    assert unplaced_squads(b, {"A": ["a1", "pc"]}) == ["a2"]
    combats = {"A": ["d1"], "B": ["d2"]}
    assert still_to_place(b, Allocation(combats=combats, attack={"A": ["a1"]})) == ["a2"]
    both = Allocation(combats=combats, attack={"A": ["a1"], "B": ["a2"]})
    assert still_to_place(b, both) == []


def test_the_defender_is_placed_first_then_the_attacker_then_the_moves() -> None:
    b = battle([A1])
    assert still_to_place(b, Allocation()) == []
    assert unplaced_defenders(b, {"A": ["d1"]}) == ["d2"]
    assert still_to_place(b, Allocation(combats={"A": ["d1"]}, attack={"A": ["a1"]})) == ["d2"]
    combats = {"A": ["d1"], "B": ["d2"]}
    assert still_to_place(b, Allocation(combats=combats, attack={})) == []
    attack = {"A": ["a1"]}
    assert still_to_place(b, Allocation(combats=combats, attack=attack)) == []
    assert unmoved(combats, attack, {}) == ["d2"]
    assert still_to_place(b, Allocation(combats=combats, attack=attack, reallocate={})) == ["d2"]
    moved = Allocation(combats=combats, attack=attack, reallocate={"d2": "A"})
    assert still_to_place(b, moved) == []


def test_nothing_moves_where_no_combat_is_attacked() -> None:
    assert unmoved({"A": ["d1"]}, {}, {}) == []


# --- 7b: who has won ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("role", "commander", "fights"),
    [
        (Role.squad, False, True),
        (Role.leader, True, True),
        (Role.leader, False, False),
        (Role.weapon, False, False),
        (Role.noncombatant, False, False),
    ],
)
def test_squads_ccs_and_bcs_keep_a_fight_going(role: Role, commander: bool, fights: bool) -> None:
    assert keeps_fighting(role, commander) is fights


def test_the_fight_ends_when_a_side_has_nothing_left_to_fight_with() -> None:
    b = battle([A1, PC, CC, HMG, FO])
    assert winner(b, {"defender": [], "attacker": ["a1"]}) == "attacker"
    assert winner(b, {"defender": ["d1"], "attacker": ["pc", "hmg", "fo"]}) == "defender"
    assert winner(b, {"defender": ["d1"], "attacker": ["cc"]}) is None
    assert winner(b, {"defender": ["d1"], "attacker": ["a1", "pc"]}) is None
    assert fights_on(b, ["cc"]) and not fights_on(b, ["pc", "hmg"])


def test_a_rating_keeps_within_its_bounds() -> None:
    least, most = RATINGS
    assert (least, most) == (0, 3)
    battle([A1, {**PC, "rating": most}])
    with pytest.raises(Exception, match="rating"):
        battle([A1, {**PC, "rating": most + 1}])
