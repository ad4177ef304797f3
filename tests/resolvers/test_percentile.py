"""Percentile close assault: eligibility, orders, both branches, pillbox, escalation."""

from __future__ import annotations

from fractions import Fraction

import pytest

from allocator.core.errors import InputError
from allocator.games.percentile.procedure import (
    AssaultBand,
    AssaultingInfantry,
    DefendingUnit,
    FireBand,
    PercentileEngagement,
    PercentileResolver,
    PercentileTables,
    band_chances,
    example_tables,
)


def engagement(attacker: dict | None = None, **defender) -> PercentileEngagement:
    fields = {"name": "sqd", "distance_in": 4, "firepower": 4, **(attacker or {})}
    return PercentileEngagement(
        attacker=AssaultingInfantry(**fields),
        defender=DefendingUnit(**{"name": "def", "kind": "infantry", "firepower": 2, **defender}),
    )


def resolve(case: PercentileEngagement):
    return PercentileResolver().resolve(case)


def test_every_resolution_sums_to_one():
    for case in (engagement(), engagement(kind="afv", category="medium"), engagement(pillbox=True)):
        assert sum(resolve(case).distribution.values()) == 1


@pytest.mark.parametrize(
    "scale, terrain, inside, outside",
    [
        ("standard", "open", 6, 6.5),
        ("1/285", "open", 3, 3.5),
        ("standard", "woods", 3, 3.5),
        ("1/285", "woods", 1.5, 2),
    ],
)
def test_eligibility_by_distance_scale_and_terrain(scale, terrain, inside, outside):
    def case(distance):
        return PercentileEngagement(
            scale=scale,
            attacker=AssaultingInfantry(
                name="sqd", distance_in=distance, terrain=terrain, firepower=4
            ),
            defender=DefendingUnit(name="def", kind="infantry", firepower=2),
        )

    assert PercentileResolver().check(case(inside)) == []
    assert [v.rule for v in PercentileResolver().check(case(outside))] == ["PCT-range"]
    assert resolve(case(outside)).distribution == {}


def test_uphill_halves_the_reach():
    assert [v.rule for v in PercentileResolver().check(engagement({"uphill": True}))] == [
        "PCT-range"
    ]


def test_defender_with_its_own_assault_goes_first_on_over_50():
    result = resolve(engagement(orders="assault_other")).distribution
    assert result["defender_assaults_first"] == Fraction(1, 2)
    plain = resolve(engagement()).distribution
    assert result["defender_kia"] == plain["defender_kia"] / 2


def test_non_afv_melee_runs_until_a_kia():
    result = resolve(engagement())
    # attacker kills 20%, defender 10% each exchange: the melee ends in the ratio of the turns
    assert result.distribution == {
        "defender_kia": Fraction(9, 14),
        "attacker_kia": Fraction(2, 7),
        "both_kia": Fraction(1, 14),
    }
    assert result.details.melee.exact == Fraction(72, 100)
    assert result.details.expected_melee_turns.exact == 1 / (1 - Fraction(8, 10) * Fraction(9, 10))


def test_suppressed_defender_gets_no_defensive_fire_but_fights_the_melee():
    awake, asleep = resolve(engagement()), resolve(engagement(suppressed=True))
    assert asleep.distribution["defender_kia"] > awake.distribution["defender_kia"]
    assert asleep.distribution["attacker_kia"] > 0


def test_pillbox_adds_eight_against_the_defender():
    assert resolve(engagement(pillbox=True)).distribution["defender_kia"] < Fraction(9, 14)
    kills = example_tables().fire(4, 8)["kia"]
    assert kills == Fraction(12, 100)


def test_afv_branch_fire_then_at_weapons_then_table():
    result = resolve(
        engagement({"at_weapons": [Fraction(1, 4)]}, kind="afv", category="medium")
    ).distribution
    assert result["attacker_kia"] == Fraction(1, 10)
    assert result["afv_destroyed_by_fire"] == Fraction(9, 10) * Fraction(1, 4)
    left = Fraction(9, 10) * Fraction(3, 4)
    assert result["afv_destroyed"] == left * Fraction(15, 100)
    assert result["afv_immobilized"] == left * Fraction(15, 100)


def test_mg_outside_45_degrees_gives_no_defensive_fire():
    result = resolve(engagement(kind="afv", category="medium", mg_in_arc=False)).distribution
    assert "attacker_kia" not in result


def test_escalation_takes_ten_off_each_further_turn():
    one = resolve(engagement(kind="afv", category="heavy", firepower=None)).distribution
    two_turns = engagement(kind="afv", category="heavy", firepower=None).model_copy(
        update={"turns": 2}
    )
    two = resolve(two_turns).distribution
    no_effect = 1 - Fraction(15, 100)
    assert two["afv_destroyed"] == one["afv_destroyed"] + no_effect * Fraction(15, 100)


def test_open_topped_from_height_defends_one_category_lower():
    high = {"height_advantage": True}
    lower = resolve(
        engagement(high, kind="afv", category="medium", open_topped=True, firepower=None)
    )
    assert lower.distribution["afv_destroyed"] == Fraction(30, 100)


def test_band_with_no_top_is_input_error():
    with pytest.raises(InputError, match="no band"):
        band_chances([FireBand(upto=50, result="kia")], 0)


def test_endless_melee_is_input_error():
    harmless = PercentileTables(
        firepower={1: [FireBand(upto=999, result="no_effect")]},
        assault={"any": [AssaultBand(upto=999, result="no_effect")]},
    )
    with pytest.raises(InputError, match="never end"):
        PercentileResolver(harmless).resolve(engagement(firepower=1))


def test_transport_meets_the_attack_with_its_infantry():
    carried = resolve(engagement(kind="transport"))
    assert carried.distribution == resolve(engagement()).distribution
    assert any("dismount" in step for step in carried.steps)


def test_a_melee_factor_of_zero_is_zero_not_the_fire_factor():
    tables = PercentileTables(
        firepower={
            0: [FireBand(upto=999, result="no_effect")],
            2: [FireBand(upto=50, result="kia"), FireBand(upto=999, result="no_effect")],
        },
        assault={"any": [AssaultBand(upto=999, result="no_effect")]},
    )
    case = engagement({"firepower": 2, "melee_firepower": 0}, firepower=2)
    result = PercentileResolver(tables).resolve(case)
    # in melee only the defender can kill: everything that reaches melee ends with the attacker
    into_melee = Fraction(1, 2) * Fraction(1, 2)
    assert result.distribution["attacker_kia"] == Fraction(1, 4) + into_melee


def test_at_weapons_are_probabilities():
    for bad in ("3/2", "-1/4", "1/0", 2):
        with pytest.raises(ValueError, match=r"probab|zero"):
            AssaultingInfantry(name="sqd", distance_in=1, firepower=2, at_weapons=[bad])
    assert AssaultingInfantry(
        name="s", distance_in=1, firepower=2, at_weapons=[0.25]
    ).at_weapons == [Fraction(1, 4)]


def test_turns_over_the_limit_are_refused():
    from allocator.core.errors import LimitError
    from allocator.core.limits import Limits

    case = engagement(kind="afv", category="medium").model_copy(update={"turns": 4})
    with pytest.raises(LimitError, match="4 turns, over the limit of 3"):
        PercentileResolver(limits=Limits(max_rounds=3)).resolve(case)


def test_bands_must_rise():
    with pytest.raises(ValueError, match="must rise"):
        PercentileTables(
            firepower={1: [FireBand(upto=50, result="kia"), FireBand(upto=10, result="no_effect")]},
            assault={"any": [AssaultBand(upto=999, result="no_effect")]},
        )


def test_the_answer_names_both_units_and_the_reach():
    result = resolve(engagement())
    assert (result.details.attacker, result.details.defender) == ("sqd", "def")
    assert result.details.reach_in == 6 and result.details.eligible
    far = resolve(engagement({"distance_in": 9}))
    assert not far.details.eligible and far.distribution == {}
