"""Battlesystem buildings: one test per predicate, with a case that holds and one that fails."""

from __future__ import annotations

import pytest

from allocator.core.library import folder
from allocator.core.validation import load_file
from allocator.games.battlesystem.details import BattlesystemDetails
from allocator.games.battlesystem.plan import (
    BattlesystemPlan,
    BattlesystemResolver,
    charisma_bonus,
    default_profile,
    facing,
    formation,
    in_command,
    indoor_spacing,
    squeezing_in,
)

GATEHOUSE = folder("scenarios") / "battlesystem" / "keep-gatehouse.yaml"


@pytest.fixture
def plan() -> BattlesystemPlan:
    return load_file(BattlesystemPlan, GATEHOUSE)


def moved(plan: BattlesystemPlan, stand: str, **changes) -> BattlesystemPlan:
    stands = [s.model_copy(update=changes) if s.name == stand else s for s in plan.stands]
    return BattlesystemPlan.model_validate({**plan.model_dump(), "stands": stands})


def test_in_command_by_diameter_or_same_structure(plan):
    assert in_command(plan, default_profile(), "spear-1").holds
    answer = in_command(plan, default_profile(), "archer-1")
    assert answer.holds and "same structure" in answer.reason
    outside = moved(plan, "archer-1", room="outside", x=30, y=30)
    assert not in_command(outside, default_profile(), "archer-1").holds


def test_charisma_bonus_needs_diameter_and_no_wall(plan):
    assert charisma_bonus(plan, default_profile(), "spear-1").reason == "+2 from Captain"
    # 3.2" away through the open arch to the stair: no wall between them
    assert charisma_bonus(moved(plan, "archer-2", x=5, y=4.5), default_profile(), "archer-2").holds
    behind_door = moved(plan, "archer-1", x=4, y=5)
    answer = charisma_bonus(behind_door, default_profile(), "archer-1")
    assert not answer.holds and "wall, door or breach" in answer.reason


def test_squeezing_in_by_stand_or_single_bases(plan):
    assert squeezing_in(plan, "spear-1").holds
    # a 4-figure stand is 3" wide: not as a stand in a 2" x 6" stair... it fits lengthwise
    tight = moved(plan, "archer-3", figures=4, room="stair")
    assert squeezing_in(tight, "archer-3").holds
    crowded = moved(plan, "archer-3", figures=9)
    answer = squeezing_in(crowded, "archer-3")
    assert not answer.holds and "single-base places" in answer.reason


def test_single_bases_let_a_stand_squeeze_in(plan):
    closet = plan.rooms[1].model_copy(update={"width_in": 1.6, "depth_in": 1.6})
    alone = moved(plan, "archer-1", room="hall").model_copy(
        update={"rooms": [plan.rooms[0], closet, plan.rooms[2]]}
    )
    three = moved(alone, "archer-3", figures=3)
    answer = squeezing_in(three, "archer-3")
    assert answer.holds and "single bases" in answer.reason
    assert not squeezing_in(moved(alone, "archer-3", figures=5), "archer-3").holds


def test_formation_regular_only_with_room_for_two_ranks(plan):
    assert formation(plan, "spearmen").holds
    cramped = plan.model_copy(
        update={"rooms": [plan.rooms[0].model_copy(update={"depth_in": 1.0}), *plan.rooms[1:]]}
    )
    answer = formation(cramped, "spearmen")
    assert not answer.holds and "two ranks" in answer.reason
    assert [v.rule for v in BattlesystemResolver().check(cramped)] == ["BS-formation", "BS-spacing"]


def test_indoor_spacing_one_inch_per_figure(plan):
    assert indoor_spacing(plan, default_profile(), "spearmen").holds
    assert not indoor_spacing(plan, default_profile(), "archers").holds
    # archer-2 (2 figures) 1.25" from archer-1's edge: within 2"
    close = moved(plan, "archer-2", room="guardroom", x=10, y=2.9)
    assert indoor_spacing(close, default_profile(), "archers").holds


def test_facing_front_then_flank(plan):
    answers = facing(plan, "spear-1")
    assert [a.holds for a in answers] == [True, True, False]
    assert [a.holds for a in facing(plan, "spear-2")] == [False]
    assert facing(plan, "archer-1") == []


def test_resolver_lists_every_answer_and_the_violations(plan):
    resolution = BattlesystemResolver().resolve(plan)
    assert resolution.distribution == {}
    assert isinstance(resolution.details, BattlesystemDetails)
    assert len(resolution.details.answers) == 23 and resolution.details.profile_unverified
    assert [v.rule for v in resolution.violations] == ["BS-spacing"]
    assert resolution.violations[0].message == (
        "too far apart, in 2 groups: archer-1 and archer-3; archer-2"
    )
    assert resolution.steps[0].startswith("in command:")


def test_plan_names_are_unique_and_outside_is_not_a_room(plan):
    data = plan.model_dump()
    with pytest.raises(ValueError, match="two stands share a name"):
        BattlesystemPlan.model_validate({**data, "stands": [*data["stands"], data["stands"][0]]})
    outside = {"name": "outside", "structure": "yard", "width_in": 9, "depth_in": 9}
    with pytest.raises(ValueError, match="'outside' is not a room"):
        BattlesystemPlan.model_validate({**data, "rooms": [*data["rooms"], outside]})


def test_too_many_stands_are_refused_before_any_answer(plan):
    from allocator.core.errors import LimitError
    from allocator.core.limits import Limits

    with pytest.raises(LimitError, match="5 stands, over the limit of 4"):
        BattlesystemResolver(limits=Limits(max_stands_per_side=4)).resolve(plan)


def test_unknown_room_is_rejected(plan):
    with pytest.raises(ValueError, match="unknown rooms: cellar"):
        moved(plan, "archer-1", room="cellar")
