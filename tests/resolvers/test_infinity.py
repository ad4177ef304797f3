"""Infinity: published numbers, identities, brute force, saves and melee legality."""

from __future__ import annotations

import re
from collections import Counter
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from allocator.core.errors import InputError
from allocator.core.validation import validate
from allocator.games.infinity.allocate import (
    AllocationProblem,
    EnemyTarget,
    FreeTrooper,
    allocate,
    wound_chance,
)
from allocator.games.infinity.details import InfinityDetails
from allocator.games.infinity.rolls import (
    CRITICAL,
    InfinityEngagement,
    InfinityProfile,
    InfinityResolver,
    Melee,
    MeleeModel,
    Roller,
    at_least,
    burst_bonus,
    check_melee,
    default_profile,
    face_to_face,
    parse_roller,
    roll_value,
    save_failure,
    wound_distribution,
)

success_values = st.integers(-12, 40)


def brute_force(active_sv: int, active_burst: int, reactive_sv: int, reactive_burst: int):
    """Every one of the 20^(a+b) rolls, cancelled die by die as the rule reads."""
    counts: Counter = Counter()
    for rolls in product(range(1, 21), repeat=active_burst + reactive_burst):
        values = [roll_value(r, active_sv) for r in rolls[:active_burst]]
        answers = [roll_value(r, reactive_sv) for r in rolls[active_burst:]]
        kept = []
        for mine, theirs in ((values, answers), (answers, values)):
            theirs_crit = CRITICAL in theirs
            survivors = [
                v
                for v in mine
                if v
                and not (theirs_crit and (v < CRITICAL or CRITICAL in mine))
                and (v == CRITICAL or all(v > t for t in theirs if t < CRITICAL))
            ]
            kept.append((survivors.count(CRITICAL), len(survivors) - survivors.count(CRITICAL)))
        for side, (crits, plain) in zip(("active", "reactive"), kept, strict=True):
            if crits + plain:
                counts[side, crits, plain] += 1
    total = 20 ** (active_burst + reactive_burst)
    return {key: Fraction(n, total) for key, n in counts.items()}


def flat(odds) -> dict:
    return {
        **{("active", *key): p for key, p in odds.active.items()},
        **{("reactive", *key): p for key, p in odds.reactive.items()},
    }


def test_published_sv12_b1_neither_is_76_of_400():
    assert face_to_face(12, 1, 12, 1).neither == Fraction(76, 400)


@pytest.mark.parametrize("sv", range(1, 21))
def test_published_equal_sv_b1_neither_formula(sv):
    assert face_to_face(sv, 1, sv, 1).neither == Fraction((20 - sv) ** 2 + sv, 400)


@pytest.mark.parametrize(
    "case",
    [
        (12, 2, 12, 1),
        (23, 2, 15, 2),
        (5, 1, 25, 3),
        (0, 2, 12, 2),
        (20, 3, 19, 1),
        (39, 2, 21, 1),
        (-3, 1, 40, 2),
        (13, 3, 13, 0),
    ],
)
def test_brute_force_matches_the_fast_count(case):
    assert flat(face_to_face(*case)) == brute_force(*case)


@settings(max_examples=60, deadline=None)
@given(success_values, st.integers(0, 12), success_values, st.integers(0, 12))
def test_outcomes_sum_to_exactly_one(a_sv, a_b, r_sv, r_b):
    odds = face_to_face(a_sv, a_b, r_sv, r_b)
    assert odds.active_wins + odds.reactive_wins + odds.neither == 1
    assert odds.neither >= 0


@settings(max_examples=40, deadline=None)
@given(success_values, st.integers(0, 12), success_values, st.integers(0, 12))
def test_swapping_sides_swaps_the_result(a_sv, a_b, r_sv, r_b):
    odds, swapped = face_to_face(a_sv, a_b, r_sv, r_b), face_to_face(r_sv, r_b, a_sv, a_b)
    assert (odds.active, odds.reactive) == (swapped.reactive, swapped.active)


@pytest.mark.parametrize("sv, burst", [(12, 1), (17, 5), (25, 12)])
def test_equal_sides_are_symmetric(sv, burst):
    odds = face_to_face(sv, burst, sv, burst)
    assert odds.active == odds.reactive


def test_normal_roll_reading_of_success_values():
    assert [roll_value(r, 12) for r in (11, 12, 13)] == [11, CRITICAL, 0]
    assert roll_value(20, 0) == 0 and roll_value(1, -5) == 0
    assert [roll_value(r, 23) for r in (1, 16, 17, 20)] == [4, 19, CRITICAL, CRITICAL]
    assert face_to_face(23, 1, 0, 0).active_wins == 1
    assert face_to_face(23, 1, 0, 0).active == {(0, 1): Fraction(16, 20), (1, 0): Fraction(4, 20)}
    assert face_to_face(0, 3, 0, 0).active_wins == 0


def test_modifiers_are_capped_at_twelve():
    profile = default_profile()
    assert Roller(attribute=13, modifiers=[9, 9]).success_value(profile) == 25
    assert Roller(attribute=13, modifiers=[-9, -9]).success_value(profile) == 1


def test_success_value_outside_the_range_is_input_error():
    engagement = InfinityEngagement(
        active=Roller(attribute=41), reactive=Roller(attribute=12, modifiers=[3])
    )
    with pytest.raises(InputError, match=r"outside -12\.\.40"):
        InfinityResolver().resolve(engagement)


def test_save_failure_and_wounds():
    assert save_failure(13, 3) == Fraction(1, 2)
    assert save_failure(10, 14) == 0 and save_failure(30, 0) == 1
    # one critical with DA: 2 saves + 1 for the critical, each fails for sure
    assert wound_distribution({(1, 0): Fraction(1)}, Fraction(1), 2, 1) == {3: Fraction(1)}
    distribution = wound_distribution({(0, 1): Fraction(1, 2)}, Fraction(1, 2), 1, 1)
    assert distribution == {0: Fraction(3, 4), 1: Fraction(1, 4)}
    assert at_least(distribution) == {1: Fraction(1, 4)}


def test_resolver_wounds_sum_to_one_and_match_expectation():
    engagement = InfinityEngagement(
        active=Roller(attribute=14, burst=2, damage=14, ammunition="EXP"),
        reactive=Roller(attribute=12, armour=3, damage=12),
    )
    details = InfinityResolver().resolve(engagement).details
    assert isinstance(details, InfinityDetails)
    (on_reactive,) = [wounds for wounds in details.wounds if wounds.target == "reactive"]
    assert sum(count.exactly.exact for count in on_reactive.counts) == 1
    expected = sum(count.wounds * count.exactly.exact for count in on_reactive.counts)
    assert on_reactive.expected.exact == expected
    at_least = {count.wounds: count.at_least.exact for count in on_reactive.counts}
    assert at_least[0] == 1 and at_least[1] == 1 - on_reactive.counts[0].exactly.exact


def test_parse_roller():
    assert Roller(**parse_roller("11+3-1/2")) == Roller(attribute=11, modifiers=[3, -1], burst=2)
    for text in ("eleven/2", "9" * 5000 + "/1", "12/1" + "+1" * 30):
        with pytest.raises(InputError):
            parse_roller(text)


def test_a_side_without_damage_gets_no_wounds_and_burst_zero_is_a_normal_roll():
    engagement = InfinityEngagement(
        active=Roller(attribute=15, damage=13), reactive=Roller(attribute=12, burst=0)
    )
    resolution = InfinityResolver().resolve(engagement)
    assert resolution.distribution["active_wins"] == Fraction(3, 4)
    assert [w.target for w in resolution.details.wounds] == ["reactive"]
    assert "Normal Roll" in resolution.steps[-2] and "does not roll" in resolution.steps[1]


def test_profile_numbers_are_bounded_and_complete():
    shipped = default_profile().model_dump()
    for change, place in (
        ({"ammunition": {"DA": 2}}, "ammunition needs N"),
        ({"ammunition": {"N": 1, "DA": 2}}, "immunity total names unknown ammunition"),
        ({"ammunition": {**shipped["ammunition"], "N": 10**6}}, "ammunition.N"),
        ({"success_value_range": [40, -12]}, "upside down"),
        ({"max_burst": 10**6}, "max_burst"),
        ({"contact_limits": [{"min_base_mm": 0, "max_models": 10**6, "rule": "X"}]}, "max_models"),
    ):
        with pytest.raises(InputError, match=re.escape(place)):
            validate(InfinityProfile, {**shipped, **change})


# --- several troopers -------------------------------------------------------------------------


def melee(**changes) -> Melee:
    """Active a1 attacks reactive t; a2 touches t; r1 touches a1 and answers; r2 touches a1."""
    models = {
        "a1": MeleeModel(name="a1", side="active"),
        "a2": MeleeModel(name="a2", side="active"),
        "t": MeleeModel(name="t", side="reactive"),
        "r2": MeleeModel(name="r2", side="reactive"),
    }
    models.update(changes.pop("models", {}))
    fields = {
        "models": list(models.values()),
        "contacts": [("a1", "t"), ("a2", "t"), ("r2", "a1")],
        "active_trooper": "a1",
        "active_target": "t",
        "reactive_attacker": "t",
    }
    return Melee(**{**fields, **changes})


def rules(violations) -> list[str]:
    return [violation.rule for violation in violations]


def test_active_turn_bonus_counts_allies_touching_the_target():
    assert burst_bonus(melee(), "a1", default_profile()) == ["a2"]


def test_null_or_immobilized_ally_adds_nothing():
    null = MeleeModel(name="a2", side="active", state="null")
    assert burst_bonus(melee(models={"a2": null}), "a1", default_profile()) == []


def test_reactive_bonus_counts_allies_engaged_with_the_active_trooper():
    assert burst_bonus(melee(), "t", default_profile()) == ["r2"]
    dodging = MeleeModel(name="r2", side="reactive", declared="dodge")
    assert burst_bonus(melee(models={"r2": dodging}), "t", default_profile()) == []


def test_wording_switch_n4_needs_the_engaged_state():
    not_engaged = {"r2": MeleeModel(name="r2", side="reactive", engaged=False)}
    assert burst_bonus(melee(models=not_engaged), "t", default_profile()) == []
    later = melee(models=not_engaged, wording="silhouette")
    assert burst_bonus(later, "t", default_profile()) == ["r2"]


@pytest.mark.parametrize(("base_mm", "limit"), [(25, 4), (40, 6)])
def test_contact_limit_passes_at_the_limit_fails_above(base_mm: int, limit: int) -> None:
    others = [MeleeModel(name=f"e{i}", side="active") for i in range(limit + 1)]
    target = MeleeModel(name="t", side="reactive", base_mm=base_mm)
    for count, expected in ((limit, []), (limit + 1, [f"INF-contact-{base_mm}mm"])):
        scene = Melee(
            models=[target, *others],
            contacts=[(f"e{i}", "t") for i in range(count)],
            active_trooper="e0",
            active_target="t",
        )
        assert rules(check_melee(scene, default_profile())) == expected


def test_claimed_ally_eligible_passes_ineligible_fails():
    assert check_melee(melee(claimed_allies={"a1": ["a2"]}), default_profile()) == []
    bad = check_melee(melee(claimed_allies={"a1": ["a2", "r2"]}), default_profile())
    assert rules(bad) == ["INF-ally"] and "not an ally" in bad[0].message


def test_attacker_must_touch_its_foe():
    assert check_melee(melee(), default_profile()) == []
    far = melee(contacts=[("a2", "t"), ("r2", "a1"), ("t", "a2")])
    assert set(rules(check_melee(far, default_profile()))) == {"INF-attacker"}


def test_melee_bonus_reaches_the_roll():
    engagement = InfinityEngagement(
        active=Roller(attribute=13), reactive=Roller(attribute=13), melee=melee()
    )
    details = InfinityResolver().resolve(engagement).details
    assert details.active.burst == 2 and details.reactive.burst == 2
    assert (details.active.allies, details.reactive.allies) == (["a2"], ["r2"])


def test_unknown_model_is_rejected():
    with pytest.raises(ValueError, match="unknown models: zz"):
        melee(contacts=[("a1", "zz")])


# --- allocate ---------------------------------------------------------------------------------


def test_allocate_puts_everyone_on_the_target_and_picks_the_best_attacker():
    problem = AllocationProblem(
        target="t",
        troopers=[
            FreeTrooper(name="a", attribute=13, damage=13, reach=["t", "u"]),
            FreeTrooper(name="b", attribute=16, damage=14, reach=["t"]),
            FreeTrooper(name="c", attribute=11, damage=12, reach=["t", "u"]),
        ],
        targets=[
            EnemyTarget(name="t", armour=2, touching=1, reaction=Roller(attribute=14)),
            EnemyTarget(name="u"),
        ],
    )
    plan = allocate(problem)
    assert plan.contacts == {"a": "t", "b": "t", "c": "t"}
    assert plan.attacker == "b" and plan.burst == 3
    best = max(
        wound_chance(trooper, 3, problem.enemy("t"), default_profile())
        for trooper in problem.troopers
    )
    assert plan.wound_chance == best


def test_allocate_respects_the_contact_limit():
    troopers = [FreeTrooper(name=f"a{i}", attribute=13, damage=13, reach=["t"]) for i in range(5)]
    problem = AllocationProblem(
        target="t", troopers=troopers, targets=[EnemyTarget(name="t", touching=2)]
    )
    plan = allocate(problem)
    assert len(plan.contacts) == 2 and plan.burst == 2


def test_allocate_full_target_is_input_error():
    problem = AllocationProblem(
        target="t",
        troopers=[FreeTrooper(name="a", attribute=13, damage=13, reach=["t"])],
        targets=[EnemyTarget(name="t", touching=4)],
    )
    with pytest.raises(InputError, match="no room"):
        allocate(problem)


def test_allocation_names_are_unique_and_allies_are_among_the_touching():
    trooper = {"name": "a", "attribute": 13, "damage": 13, "reach": ["t"]}
    with pytest.raises(InputError, match="two troopers share a name"):
        validate(
            AllocationProblem,
            {"target": "t", "troopers": [trooper, trooper], "targets": [{"name": "t"}]},
        )
    with pytest.raises(InputError, match=r"targets\[0\]: .*allies_touching \(2\) is more"):
        validate(
            AllocationProblem,
            {
                "target": "t",
                "troopers": [trooper],
                "targets": [{"name": "t", "touching": 1, "allies_touching": 2}],
            },
        )


def test_allocation_over_the_stands_limit_is_refused_before_the_solver(monkeypatch):
    from allocator.core.errors import LimitError
    from allocator.core.limits import Limits
    from allocator.games.infinity import allocate as module

    monkeypatch.setattr(module, "wound_chance", None)  # any call would fail
    troopers = [FreeTrooper(name=f"a{i}", attribute=13, damage=13, reach=["t"]) for i in range(3)]
    problem = AllocationProblem(target="t", troopers=troopers, targets=[EnemyTarget(name="t")])
    with pytest.raises(LimitError, match="3 troopers, over the limit of 2") as refusal:
        allocate(problem, limits=Limits(max_stands_per_side=2))
    assert refusal.value.limit == "max_stands_per_side"


def test_allocation_resolution_recomputes_the_chance_exactly():
    from allocator.games.infinity.allocate import allocation_resolution

    problem = AllocationProblem(
        target="t",
        troopers=[FreeTrooper(name="a", attribute=13, damage=13, reach=["t"])],
        targets=[EnemyTarget(name="t", armour=1)],
    )
    resolution = allocation_resolution(problem)
    expected = wound_chance(problem.troopers[0], 1, problem.enemy("t"), default_profile())
    assert resolution.distribution == {"at_least_one_wound": expected}
    assert resolution.details.contacts == {"a": "t"} and resolution.details.burst == 1
