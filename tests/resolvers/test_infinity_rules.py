"""Infinity N4 and N5: +1 SD, saves, every skill and ammunition, wound states and orders.

The dice with special dice are checked against an enumeration of every roll (the discard made
explicitly) and against icepool's keep-highest pools; the saves against a plain convolution of
each save's own distribution; the orders against a second, step-by-step walk of the states.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from fractions import Fraction
from itertools import pairwise, product
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from allocator.core.errors import InputError, LimitError
from allocator.core.limits import Limits
from allocator.core.validation import validate
from allocator.games.answer import resolve_answer
from allocator.games.infinity.calculator import close_combat, menus
from allocator.games.infinity.details import InfinityDetails
from allocator.games.infinity.dice import CRITICAL, face_to_face, roll_counts, roll_value
from allocator.games.infinity.profile import InfinityProfile, default_profile
from allocator.games.infinity.rolls import InfinityResolver
from allocator.games.infinity.saves import SaveRoll, failed_saves, fails_on
from allocator.games.infinity.states import Target, joint_order, orders_chain
from allocator.games.infinity.troopers import InfinityEngagement

# --- independent references -------------------------------------------------------------------


def kept_after_cancelling(mine: list[int], theirs: list[int]) -> tuple[int, int]:
    """(criticals, other successes) of ``mine`` left after the Face to Face cancelling."""
    their_crit = CRITICAL in theirs
    kept = [
        v
        for v in mine
        if v
        and not (their_crit and (v < CRITICAL or CRITICAL in mine))
        and (v == CRITICAL or all(v > t for t in theirs if t < CRITICAL))
    ]
    return kept.count(CRITICAL), len(kept) - kept.count(CRITICAL)


def enumerate_rolls(a_sv, a_burst, a_extra, r_sv, r_burst, r_extra) -> dict[tuple, Fraction]:
    """Every one of the 20^dice rolls, each side discarding its lowest extra dice."""
    counts: Counter = Counter()
    a_dice, r_dice = a_burst + a_extra, r_burst + r_extra
    for rolls in product(range(1, 21), repeat=a_dice + r_dice):
        active = sorted((roll_value(r, a_sv) for r in rolls[:a_dice]), reverse=True)[:a_burst]
        reactive = sorted((roll_value(r, r_sv) for r in rolls[a_dice:]), reverse=True)[:r_burst]
        for side, mine, theirs in (("active", active, reactive), ("reactive", reactive, active)):
            kept = kept_after_cancelling(mine, theirs)
            if sum(kept):
                counts[(side, *kept)] += 1
    total = 20 ** (a_dice + r_dice)
    return {key: Fraction(n, total) for key, n in counts.items()}


def flat(odds) -> dict[tuple, Fraction]:
    return {
        **{("active", *key): p for key, p in odds.active.items()},
        **{("reactive", *key): p for key, p in odds.reactive.items()},
    }


def one_save(save: SaveRoll, cap: int) -> dict[int, Fraction]:
    """One save's failures: Bernoulli, or geometric for Continuous Damage (cap: or more)."""
    p = save.failure
    if not save.continuous:
        return {0: 1 - p, 1: p} if p else {0: Fraction(1)}
    found = {k: p**k * (1 - p) for k in range(cap)}
    found[cap] = p**cap
    return found


def convolve(a: dict[int, Fraction], b: dict[int, Fraction], cap: int) -> dict[int, Fraction]:
    out: defaultdict[int, Fraction] = defaultdict(Fraction)
    for i, p in a.items():
        for j, q in b.items():
            out[min(i + j, cap)] += p * q
    return dict(out)


def reference_failures(survivors, per_hit, per_critical, cap) -> list[Fraction]:
    """The failed saves of every survivor count, one save at a time."""
    result = [Fraction(0)] * (cap + 1)
    result[0] = 1 - sum(survivors.values(), Fraction(0))
    for (crits, plain), chance in survivors.items():
        dist = {0: Fraction(1)}
        for save in list(per_hit) * (crits + plain) + list(per_critical) * crits:
            dist = convolve(dist, one_save(save, cap), cap)
        for k, p in dist.items():
            result[k] += chance * p
    return result


def resolve(data: dict[str, Any]):
    engagement = validate(InfinityEngagement, data)
    resolution = InfinityResolver().resolve(engagement)
    assert isinstance(resolution.details, InfinityDetails)
    return resolution, resolution.details


def trooper(side: str, details: InfinityDetails):
    return next(t for t in details.troopers if t.side == side)


def states(side: str, details: InfinityDetails) -> dict[str, Fraction]:
    found: dict[str, Fraction] = {}
    for row in trooper(side, details).states:
        name = f"wounded {row.wounds_left}" if row.state == "wounded" else row.state
        found[name] = row.chance.exact
    return found


def notes(details: InfinityDetails) -> str:
    return " | ".join(change.note for change in details.modifiers)


# --- +1 Special Die ---------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    "case",
    [
        (12, 1, 1, 12, 1, 0),
        (12, 1, 1, 12, 1, 1),
        (14, 1, 1, 11, 1, 1),
        (23, 1, 1, 15, 2, 0),
        (9, 2, 0, 16, 1, 1),
        (20, 1, 2, 19, 1, 0),
        (0, 1, 1, 12, 1, 1),
    ],
)
def test_special_dice_agree_with_every_roll_enumerated(case):
    a_sv, a_burst, a_extra, r_sv, r_burst, r_extra = case
    odds = face_to_face(a_sv, a_burst, r_sv, r_burst, active_extra=a_extra, reactive_extra=r_extra)
    assert flat(odds) == enumerate_rolls(*case)


def icepool_rolls(a_sv, a_burst, a_extra, r_sv, r_burst, r_extra) -> dict[tuple, Fraction]:
    """The same roll as icepool's keep-highest pools under a multiset evaluator."""
    icepool = pytest.importorskip("icepool")
    from icepool.order import Order, UnsupportedOrder

    class FaceToFace(icepool.MultisetEvaluator):
        def next_state(self, state, order, outcome, mine, theirs):
            if order != Order.Ascending:
                raise UnsupportedOrder()
            my_crit, my_hits, their_crit, their_hits = state or (0, 0, 0, 0)
            if outcome == CRITICAL:
                my_crit, their_crit = my_crit + mine, their_crit + theirs
                if mine:
                    their_hits = 0
                if theirs:
                    my_hits = 0
                if mine and theirs:
                    my_crit = their_crit = 0
            elif outcome > 0:
                my_hits, their_hits = my_hits + mine, their_hits + theirs
                if mine:
                    their_hits = 0
                if theirs:
                    my_hits = 0
            return my_crit, my_hits, their_crit, their_hits

    active = icepool.d20.map(lambda roll: roll_value(roll, a_sv)).pool(a_burst + a_extra)
    reactive = icepool.d20.map(lambda roll: roll_value(roll, r_sv)).pool(r_burst + r_extra)
    result = FaceToFace().evaluate(active.highest(a_burst), reactive.highest(r_burst))
    total = result.denominator()
    found: Counter = Counter()
    for (a_crit, a_hits, r_crit, r_hits), n in result.items():
        if a_crit + a_hits:
            found["active", a_crit, a_hits] += n
        if r_crit + r_hits:
            found["reactive", r_crit, r_hits] += n
    return {key: Fraction(n, total) for key, n in found.items()}


@pytest.mark.parametrize(
    "case", [(15, 3, 1, 13, 2, 1), (22, 2, 1, 14, 3, 0), (11, 4, 1, 17, 1, 1), (13, 2, 2, 13, 2, 0)]
)
def test_special_dice_agree_with_icepool_keep_highest(case):
    a_sv, a_burst, a_extra, r_sv, r_burst, r_extra = case
    odds = face_to_face(a_sv, a_burst, r_sv, r_burst, active_extra=a_extra, reactive_extra=r_extra)
    assert flat(odds) == icepool_rolls(*case)


# --- saves ------------------------------------------------------------------------------------


def test_n4_and_n5_saves():
    assert fails_on("damage_minus_armour", 13, 3) == 10  # fails on 1..10
    assert fails_on("armour_plus_ps", 8, 3) == 9  # passes on 1..11
    assert fails_on("armour_plus_ps", 8, 15) == 0 and fails_on("damage_minus_armour", 40, 0) == 20


@pytest.mark.parametrize(
    ("per_hit", "per_critical"),
    [
        ([SaveRoll(9)], [SaveRoll(9)]),
        ([SaveRoll(9), SaveRoll(9)], [SaveRoll(9)]),
        ([SaveRoll(12), SaveRoll(5)], [SaveRoll(12)]),  # PLASMA: ARM and BTS differ
        ([SaveRoll(9, continuous=True)], [SaveRoll(9)]),
        ([SaveRoll(20, continuous=True), SaveRoll(3)], [SaveRoll(20)]),
        ([], []),
    ],
)
def test_failed_saves_agree_with_one_save_at_a_time(per_hit, per_critical):
    counts = roll_counts(16, 3, 13, 1, active_extra=1)
    survivors = {key: Fraction(n, counts.active_total) for key, n in counts.active.items()}
    for cap in (1, 3, 9):
        ours = failed_saves(counts.active, counts.active_total, per_hit, per_critical, cap=cap)
        assert ours.chances() == reference_failures(survivors, per_hit, per_critical, cap)


def test_n5_resolution_agrees_with_enumeration_and_plain_saves():
    """N5: a trooper with +1 SD (Martial Arts L3) and DA; the wound table, end to end."""
    resolution, details = resolve(
        {
            "rules": "n5",
            "active": {"attribute": 14, "ps": 8, "ammunition": "DA", "skills": {"martial_arts": 3}},
            "reactive": {"attribute": 14, "ps": 7, "armour": 3},
        }
    )
    assert (details.active.success_value, details.reactive.success_value) == (17, 11)
    rolls = enumerate_rolls(17, 1, 1, 11, 1, 0)
    survivors = {(c, p): q for (side, c, p), q in rolls.items() if side == "active"}
    saves = [SaveRoll(fails_on("armour_plus_ps", 8, 3))] * 2
    expected = reference_failures(survivors, saves, saves[:1], 6)
    on_reactive = next(w for w in details.wounds if w.target == "reactive")
    assert {c.wounds: c.exactly.exact for c in on_reactive.counts} == {
        k: p for k, p in enumerate(expected) if p
    }
    assert resolution.distribution["active_wins"] == sum(survivors.values())


# --- skills -----------------------------------------------------------------------------------


def test_n4_martial_arts_attack_opponent_damage_and_burst():
    resolution, details = resolve(
        {
            "active": {"attribute": 14, "damage": "PH", "ph": 12, "skills": {"martial_arts": 5}},
            "reactive": {"attribute": 13, "damage": 12, "armour": 1},
        }
    )
    assert details.active.success_value == 17 and details.reactive.success_value == 10
    assert details.active.burst == 2
    on_reactive = next(w for w in details.wounds if w.target == "reactive")
    assert "DAM 15 with ARM 1" in " ".join(resolution.steps)
    assert max(c.wounds for c in on_reactive.counts) == 4  # 2 hits, 2 criticals
    assert "Martial Arts L5 gives +3 to its roll" in notes(details)


def test_n5_martial_arts_levels_as_the_chart():
    chart = {
        1: (0, -3, 0, 0),
        2: (3, -3, 0, 0),
        3: (3, -3, 0, 1),
        4: (3, -3, 1, 0),
        5: (3, -3, 1, 1),
    }
    for level, (attack, opponent, burst, special) in chart.items():
        _, details = resolve(
            {
                "rules": "n5",
                "active": {"attribute": 12, "skills": {"martial_arts": level}},
                "reactive": {"attribute": 12},
            }
        )
        assert details.active.success_value == 12 + attack
        assert details.reactive.success_value == 12 + opponent
        assert details.active.burst == 1 + burst
        assert details.special_dice.get("active", 0) == special


def test_n4_natural_born_warrior_a_cancels_the_enemy_skills_b_adds():
    _, cancelled = resolve(
        {
            "active": {"attribute": 14, "skills": {"martial_arts": 3, "natural_born_warrior": "B"}},
            "reactive": {"attribute": 14, "skills": {"natural_born_warrior": "A"}},
        }
    )
    assert (cancelled.active.success_value, cancelled.reactive.success_value) == (14, 14)
    assert "Natural Born Warrior A cancels its close-combat skills" in notes(cancelled)
    _, bonus = resolve(
        {
            "active": {"attribute": 14, "damage": "PH", "ph": 11},
            "reactive": {"attribute": 14, "skills": {"natural_born_warrior": "B"}},
        }
    )
    assert bonus.reactive.success_value == 17


def test_n5_natural_born_warrior_ignores_negative_mods_only():
    _, details = resolve(
        {
            "rules": "n5",
            "active": {"attribute": 14, "skills": {"martial_arts": 2}},
            "reactive": {"attribute": 14, "skills": {"natural_born_warrior": True}},
        }
    )
    assert (details.active.success_value, details.reactive.success_value) == (17, 14)
    assert "Natural Born Warrior ignores -3 from the active trooper's Martial Arts L2" in notes(
        details
    )


def test_i_kohl_lowers_the_enemy_but_not_a_structure_and_works_when_dodging():
    base = {"attribute": 14, "skills": {"i_kohl": 2}}
    _, person = resolve({"active": {"attribute": 15}, "reactive": base})
    _, machine = resolve(
        {"active": {"attribute": 15, "structure": True, "vita": 2}, "reactive": base}
    )
    _, dodging = resolve({"active": {"attribute": 15}, "reactive": {**base, "action": "dodge"}})
    assert person.active.success_value == 9 and machine.active.success_value == 15
    assert dodging.active.success_value == 9
    assert "does nothing to a trooper with STR" in notes(machine)


def test_n4_guard_and_protheion_levels():
    _, details = resolve(
        {
            "active": {"attribute": 13, "skills": {"guard": 3, "protheion": 1}},
            "reactive": {"attribute": 13},
        }
    )
    assert details.active.success_value == 16 and details.active.burst == 2
    assert details.reactive.success_value == 10


def test_n4_berserk_makes_two_normal_rolls_where_both_are_hit():
    resolution, details = resolve(
        {
            "active": {"attribute": 12, "damage": 13, "skills": {"berserk": True}, "vita": 1},
            "reactive": {"attribute": 12, "damage": 13, "skills": {"martial_arts": 1}, "vita": 1},
        }
    )
    assert details.roll == "normal_rolls" and details.active.success_value == 18
    assert set(resolution.distribution) == {
        "only_active_succeeds",
        "only_reactive_succeeds",
        "both_succeed",
        "neither_succeeds",
    }
    assert details.reactive.success_value == 12  # no Opponent MOD outside a Face to Face Roll
    hit = {"active": Fraction(18, 20), "reactive": Fraction(12, 20)}
    assert resolution.distribution["both_succeed"] == hit["active"] * hit["reactive"]
    assert sum(resolution.distribution.values()) == 1
    assert trooper("active", details).orders[0].out_of_the_fight.exact > 0
    assert trooper("reactive", details).orders[0].out_of_the_fight.exact > 0


def test_n5_berserk_takes_the_mod_in_brackets_and_stays_face_to_face():
    _, details = resolve(
        {
            "rules": "n5",
            "active": {"attribute": 12, "skills": {"berserk": 3}},
            "reactive": {"attribute": 12},
        }
    )
    assert details.roll == "face_to_face" and details.active.success_value == 15


def test_special_die_skill_and_no_stacking():
    _, details = resolve(
        {
            "rules": "n5",
            "active": {"attribute": 12, "skills": {"martial_arts": 3, "special_die": True}},
            "reactive": {"attribute": 12},
        }
    )
    assert details.special_dice == {"active": 1}
    assert "special dice do not add up" in notes(details)


def test_a_dodge_wounds_nothing_and_uses_no_own_skill():
    _, details = resolve(
        {
            "rules": "n5",
            "active": {"attribute": 14, "ps": 8, "vita": 1},
            "reactive": {
                "attribute": 12,
                "action": "dodge",
                "ps": 8,
                "skills": {"martial_arts": 4},
            },
        }
    )
    assert details.reactive.success_value == 12 and details.reactive.burst == 1
    assert [w.target for w in details.wounds] == ["reactive"]


def test_a_fireteam_gives_nothing_in_cc_and_says_so():
    _, details = resolve(
        {"active": {"attribute": 12, "fireteam": 4}, "reactive": {"attribute": 12}}
    )
    assert "a Fireteam of 4 gives no bonus to a CC Attack in Infinity N4" in notes(details)


def test_the_file_mods_and_the_cap_are_listed():
    _, details = resolve(
        {
            "active": {"attribute": 10, "modifiers": [6, 6], "skills": {"martial_arts": 2}},
            "reactive": {"attribute": 12},
        }
    )
    assert details.active.success_value == 22
    assert "the MODs add up to +15, capped at +12" in notes(details)


# --- ammunition -------------------------------------------------------------------------------


def n4_attack(ammunition: str, traits: tuple[str, ...] = (), **reactive: Any) -> InfinityDetails:
    return resolve(
        {
            "active": {"attribute": 15, "damage": 14, "ammunition": ammunition, "traits": traits},
            "reactive": {"attribute": 0, "burst": 0, "armour": 3, "bts": 6, **reactive},
        }
    )[1]


def test_ap_halves_arm_rounded_up_and_t2_doubles_wounds():
    assert "AP halves its ARM 3 to 2 (rounded up)" in notes(n4_attack("AP"))
    t2 = next(w for w in n4_attack("T2").wounds)
    assert [c.wounds for c in t2.counts] == [0, 2, 4]


def test_plasma_saves_against_arm_and_bts_and_a_critical_against_arm():
    details = n4_attack("PLASMA")
    survivors = {(c, p): q for (c, p), q in face_to_face(15, 1, 0, 0).active.items()}
    expected = reference_failures(survivors, [SaveRoll(11), SaveRoll(8)], [SaveRoll(11)], 3)
    rows = {c.wounds: c.exactly.exact for c in details.wounds[0].counts}
    assert rows == {k: p for k, p in enumerate(expected) if p}


def test_shock_kills_a_w1_trooper_outright_unless_str_w2_or_immune():
    assert set(states("reactive", n4_attack("Shock", vita=1))) == {"unhurt", "dead"}
    assert "wounded 1" in states("reactive", n4_attack("Shock", vita=2))
    structure = n4_attack("Shock", vita=1, structure=True)
    immune = n4_attack("Shock", vita=1, skills={"immunity": ["shock"]})
    for spared in (structure, immune):
        assert "unconscious" in states("reactive", spared)
    assert "Shock does not kill it outright (it has STR)" in notes(structure)


def test_monofilament_kills_whatever_the_wounds_and_ignores_armour():
    details = n4_attack("Monofilament", vita=3)
    assert set(states("reactive", details)) == {"unhurt", "dead"}
    assert "Monofilament: it saves with ARM 0, not 3" in notes(details)
    assert "Monofilament has a fixed DAM of 12" in notes(details)


def test_e_m_and_stun_put_the_target_in_states_and_wound_nothing():
    em = n4_attack("E/M", vita=2, type="HI")
    assert em.wounds == []
    (affected,) = [row for row in trooper("reactive", em).states if row.state == "affected"]
    assert affected.effects == ["Isolated", "Immobilised-2"]
    assert "E/M halves its BTS 6 to 3 (rounded up)" in notes(em)
    stun = n4_attack("Stun", vita=1)
    assert [row.effects for row in trooper("reactive", stun).states if row.effects] == [["Stunned"]]


def test_viral_saves_against_bts():
    assert "with BTS 6" in " ".join(
        step
        for step in InfinityResolver()
        .resolve(
            validate(
                InfinityEngagement,
                {
                    "active": {"attribute": 15, "damage": 14, "ammunition": "Viral"},
                    "reactive": {"attribute": 0, "burst": 0, "bts": 6},
                },
            )
        )
        .steps
    )


def test_total_immunity_treats_da_as_normal_and_critical_immunity_drops_the_extra_save():
    details = n4_attack("DA", skills={"immunity": ["total"]})
    assert "DA counts as N against it" in notes(details)
    assert max(c.wounds for c in details.wounds[0].counts) == 2  # one save and a critical's
    _, n5 = resolve(
        {
            "rules": "n5",
            "active": {"attribute": 15, "ps": 8},
            "reactive": {"attribute": 0, "burst": 0, "skills": {"immunity": ["critical"]}},
        }
    )
    assert max(c.wounds for c in n5.wounds[0].counts) == 1


def test_continuous_damage_lumps_the_last_row_and_keeps_the_expectation_exact():
    details = n4_attack("N", ("continuous",))
    on = details.wounds[0]
    assert on.counts[-1].lumped and on.counts[-1].wounds == 24
    p = Fraction(11, 20)  # DAM 14 - ARM 3
    hit = Fraction(15, 20)  # a success or a critical (SV 15)
    crit = Fraction(1, 20)
    assert on.expected is not None and on.expected.exact == hit * p / (1 - p) + crit * p
    always = n4_attack("N", ("continuous",), armour=0)
    assert always.wounds[0].expected is not None
    never_passes = resolve(
        {
            "active": {"attribute": 15, "damage": 40, "traits": ["continuous"]},
            "reactive": {"attribute": 0, "burst": 0},
        }
    )[1]
    assert never_passes.wounds[0].expected is None


# --- wound states and orders ------------------------------------------------------------------


def test_states_follow_w_and_the_wounds_already_taken():
    fresh = states("reactive", n4_attack("DA", vita=2))
    hurt = states("reactive", n4_attack("DA", vita=2, wounds_taken=1))
    assert set(fresh) == {"unhurt", "wounded 1", "unconscious", "dead"}
    assert set(hurt) == {"wounded 1", "unconscious", "dead"}
    assert sum(fresh.values()) == sum(hurt.values()) == 1
    assert hurt["wounded 1"] == fresh["unhurt"]


def test_no_wound_incapacitation_fights_on_at_zero():
    details = n4_attack("N", vita=1, skills={"no_wound_incapacitation": True})
    assert "fighting_on" in states("reactive", details)
    reactive = trooper("reactive", details)
    assert reactive.fights_on == "No Wound Incapacitation"
    assert reactive.orders[0].out_of_the_fight.exact == reactive.orders[0].dead.exact


def step_by_step(targets, joint, orders) -> list[dict]:
    """A second walk of the states: one trooper's state at a time, then both."""
    start = tuple((t.taken if t else 0) for t in (targets["active"], targets["reactive"]))
    walk = [{start: Fraction(1)}]
    for number in range(orders):
        nxt: Counter = Counter()
        for state, p in walk[-1].items():
            alive = all(
                t is None or (s != -1 and (s < t.vita or (s == t.vita and t.fights_on)))
                for t, s in zip((targets["active"], targets["reactive"]), state, strict=True)
            )
            if number and not alive:
                nxt[state] += p
                continue
            for (ia, ir), q in joint.items():
                new = []
                for t, s, inc in zip(
                    (targets["active"], targets["reactive"]), state, (ia, ir), strict=True
                ):
                    if t is None:
                        new.append(0)
                    elif s == -1 or inc == -1:
                        new.append(-1)
                    else:
                        new.append(min(s + inc, t.vita + 1))
                nxt[tuple(new)] += p * q
        walk.append(dict(nxt))
    return walk[1:]


def test_the_orders_chain_agrees_with_a_step_by_step_walk():
    targets = {"active": Target(2, False, 0, None), "reactive": Target(1, False, 0, "Dogged")}
    on_active = {0: Fraction(3, 4), 1: Fraction(1, 8), 3: Fraction(1, 8)}
    on_reactive = {0: Fraction(1, 2), 1: Fraction(1, 4), -1: Fraction(1, 4)}
    for independent in (False, True):
        joint = joint_order(on_active, on_reactive, independent)
        chain = [weights.chances() for weights in orders_chain(targets, joint, 5)]
        assert chain == step_by_step(targets, joint, 5)


def test_the_chance_within_k_orders_only_grows():
    details = resolve(
        {
            "rules": "n5",
            "active": {"attribute": 14, "ps": 8, "vita": 2},
            "reactive": {"attribute": 13, "ps": 8, "vita": 2, "armour": 2},
        }
    )[1]
    for side in ("active", "reactive"):
        orders = trooper(side, details).orders
        assert [o.orders for o in orders] == [1, 2, 3, 4, 5]
        for before, after in pairwise(orders):
            assert before.out_of_the_fight.exact <= after.out_of_the_fight.exact
            assert before.dead.exact <= after.dead.exact


# --- the page's entry points ------------------------------------------------------------------


def test_close_combat_takes_two_troopers_and_a_ruleset():
    answer = resolve_answer(
        close_combat(
            {"attribute": 15, "ps": 8, "vita": 1}, {"attribute": 13, "ps": 8, "vita": 1}, rules="n5"
        )
    )
    assert answer.details is not None and answer.details.rules == "n5"
    with pytest.raises(InputError, match=r"^active\.burst: Input should be greater than"):
        close_combat({"attribute": 15, "burst": -1}, {"attribute": 13})


def test_menus_list_each_ruleset_from_its_profile():
    shown = menus()
    n4, n5 = shown.ruleset("n4"), shown.ruleset("n5")
    assert (n4.strength, n5.strength, n4.vita, n5.vita) == ("damage", "ps", "W", "VITA")
    assert {
        "N",
        "AP",
        "DA",
        "EXP",
        "T2",
        "Shock",
        "PLASMA",
        "E/M",
        "Monofilament",
        "Viral",
        "Stun",
    } <= {item.name for item in n5.ammunition}
    assert [o.value for o in n4.skill("natural_born_warrior").options] == [0, "A", "B"]
    assert [o.value for o in n5.skill("natural_born_warrior").options] == [False, True]
    assert "i_kohl" in {s.name for s in n4.skills} and "i_kohl" not in {s.name for s in n5.skills}
    assert n5.skill("special_die").kind == "flag" and n4.skill("martial_arts").kind == "level"


# --- hostile input ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "place", "problem"),
    [
        (
            {"active": {"attribute": 12, "ammunition": "Nuke", "damage": 13}},
            "active.ammunition",
            "no ammunition 'Nuke'",
        ),
        (
            {"reactive": {"attribute": 12, "wounds_taken": -1, "vita": 2}},
            "reactive.wounds_taken",
            "greater than or equal to 0",
        ),
        ({"reactive": {"attribute": 12, "wounds_taken": 3, "vita": 2}}, "reactive", "it is Dead"),
        (
            {"active": {"attribute": 12, "skills": {"i_kohl": 1}}, "rules": "n5"},
            "active.skills.i_kohl",
            "i-Kohl is not in the n5 ruleset",
        ),
        (
            {"active": {"attribute": 12, "skills": {"martial_arts": 7}}},
            "active.skills.martial_arts",
            "is 1, 2, 3, 4, 5, not 7",
        ),
        (
            {"active": {"attribute": 12, "skills": {"natural_born_warrior": True}}},
            "active.skills.natural_born_warrior",
            "is A, B, not true",
        ),
        (
            {"active": {"attribute": 12, "skills": {"kung_fu": 3}}},
            "active.skills.kung_fu",
            "unknown key 'kung_fu'",
        ),
        (
            {"active": {"attribute": 12, "skills": {"immunity": ["everything"]}}},
            "active.skills.immunity[0]",
            "no immunity",
        ),
        (
            {"active": {"attribute": 12, "traits": ["sticky"]}},
            "active.traits[0]",
            "no weapon trait",
        ),
        ({"active": {"attribute": 12, "ps": 8}}, "active.ps", "saves against DAM: give damage"),
        (
            {"rules": "n5", "active": {"attribute": 12, "damage": 13}},
            "active.damage",
            "saves against PS: give ps",
        ),
        ({"active": {"attribute": 12, "damage": "PH"}}, "active", "a damage of PH needs ph"),
        ({"active": {"attribute": 12, "allies": 2}, "melee": "x"}, "melee", "valid dictionary"),
    ],
)
def test_bad_troopers_are_one_input_error_naming_the_place(data, place, problem):
    full = {"active": {"attribute": 12}, "reactive": {"attribute": 12}, **data}
    with pytest.raises(InputError) as refusal:
        InfinityResolver().resolve(validate(InfinityEngagement, full))
    assert refusal.value.place == place and problem in refusal.value.problem


def test_skill_bursts_over_the_limit_are_refused_before_any_roll():
    engagement = validate(
        InfinityEngagement,
        {
            "rules": "n5",
            "active": {"attribute": 12, "burst": 12, "allies": 2, "skills": {"martial_arts": 4}},
            "reactive": {"attribute": 12},
        },
    )
    with pytest.raises(LimitError, match=r"a Burst of 15 \(2 from allies, 1 from skills\)"):
        InfinityResolver(limits=Limits(max_burst=14)).resolve(engagement)
    with pytest.raises(LimitError, match=r"15 dice \(Burst 14 and 1 special\)"):
        engagement.active.skills.martial_arts = 5
        engagement.active.burst = 11
        InfinityResolver(limits=Limits(max_burst=14)).resolve(engagement)


def test_a_profile_of_the_other_edition_is_refused():
    engagement = validate(
        InfinityEngagement,
        {"rules": "n5", "active": {"attribute": 12}, "reactive": {"attribute": 12}},
    )
    with pytest.raises(InputError, match="asks for n5 but the profile given is n4"):
        InfinityResolver(default_profile("n4")).resolve(engagement)


def test_an_older_profile_with_save_counts_still_reads():
    shipped = default_profile().model_dump()
    older = {**shipped, "ammunition": {"N": 1, "DA": 2, "EXP": 3}, "immunities": {}}
    assert validate(InfinityProfile, older).ammunition["EXP"].rolls == ["ARM"] * 3


# --- properties -------------------------------------------------------------------------------

burst = st.integers(1, 3)
attribute = st.integers(5, 22)
AMMUNITION = [
    "N",
    "AP",
    "DA",
    "EXP",
    "T2",
    "Shock",
    "PLASMA",
    "E/M",
    "Monofilament",
    "Viral",
    "Stun",
]


@st.composite
def fighters(draw, rules: str) -> dict[str, Any]:
    side = {
        "attribute": draw(attribute),
        "burst": draw(burst),
        "ammunition": draw(st.sampled_from(AMMUNITION)),
        "armour": draw(st.integers(0, 6)),
        "bts": draw(st.integers(0, 6)),
        "vita": draw(st.integers(1, 3)),
        "type": draw(st.sampled_from(["LI", "HI"])),
        "traits": draw(st.sampled_from([[], ["continuous"]])),
    }
    side["wounds_taken"] = draw(st.integers(0, side["vita"] - 1))
    if rules == "n4":
        side["damage"] = draw(st.integers(10, 16))
    else:
        side["ps"] = draw(st.integers(5, 9))
    return side


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(["n4", "n5"]).flatmap(lambda r: st.tuples(st.just(r), fighters(r), fighters(r)))
)
def test_every_distribution_sums_to_one(case):
    rules, active, reactive = case
    resolution, details = resolve({"rules": rules, "active": active, "reactive": reactive})
    assert sum(resolution.distribution.values()) == 1
    for wounds in details.wounds:
        assert sum(c.exactly.exact for c in wounds.counts) == 1
    for outcome in details.troopers:
        assert sum(row.chance.exact for row in outcome.states) == 1


HELPFUL = {
    "n4": [
        {"martial_arts": 3},
        {"martial_arts": 5},
        {"guard": 4},
        {"natural_born_warrior": "B"},
        {"protheion": 5},
    ],
    "n5": [
        {"martial_arts": 1},
        {"martial_arts": 3},
        {"martial_arts": 5},
        {"special_die": True},
        {"natural_born_warrior": True},
    ],
}


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(["n4", "n5"]).flatmap(
        lambda r: st.tuples(st.just(r), fighters(r), fighters(r), st.sampled_from(HELPFUL[r]))
    )
)
def test_skills_that_only_help_never_lower_a_troopers_chances(case):
    rules, active, reactive, skill = case
    reactive["skills"] = {"martial_arts": 1} if rules == "n5" else {"i_kohl": 1}
    without, plain = resolve({"rules": rules, "active": active, "reactive": reactive})
    with_skill, helped = resolve(
        {"rules": rules, "active": {**active, "skills": skill}, "reactive": reactive}
    )
    assert with_skill.distribution["active_wins"] >= without.distribution["active_wins"]
    assert with_skill.distribution["reactive_wins"] <= without.distribution["reactive_wins"]
    before, after = trooper("active", plain), trooper("active", helped)
    assert after.orders[0].out_of_the_fight.exact <= before.orders[0].out_of_the_fight.exact
    assert (
        trooper("reactive", helped).orders[0].out_of_the_fight.exact
        >= trooper("reactive", plain).orders[0].out_of_the_fight.exact
    )


@settings(max_examples=25, deadline=None)
@given(
    st.sampled_from(["n4", "n5"]).flatmap(lambda r: st.tuples(st.just(r), fighters(r), fighters(r)))
)
def test_immunity_to_shock_and_fighting_on_never_hurt_the_target(case):
    rules, active, reactive = case
    plain = resolve({"rules": rules, "active": active, "reactive": reactive})[1]
    immune = resolve(
        {
            "rules": rules,
            "active": active,
            "reactive": {**reactive, "skills": {"immunity": ["shock"], "dogged": True}},
        }
    )[1]
    before, after = trooper("reactive", plain).orders[0], trooper("reactive", immune).orders[0]
    assert after.out_of_the_fight.exact <= before.out_of_the_fight.exact


def test_total_immunity_turns_viral_to_normal_even_where_that_costs_the_target():
    """The profile's reading: the ammunition Total Immunity lists counts as N whether or not that
    helps, so a trooper with BTS 5 and ARM 0 saves worse against Viral with it than without."""
    active = {"attribute": 13, "burst": 1, "ammunition": "Viral", "damage": 13}
    target = {"attribute": 11, "burst": 1, "armour": 0, "bts": 5, "vita": 1, "damage": 13}
    plain = resolve({"rules": "n4", "active": active, "reactive": target})[1]
    immune = resolve(
        {
            "rules": "n4",
            "active": active,
            "reactive": {**target, "skills": {"immunity": ["total"]}},
        }
    )[1]
    before, after = trooper("reactive", plain).orders[0], trooper("reactive", immune).orders[0]
    assert after.out_of_the_fight.exact > before.out_of_the_fight.exact
    assert any("counts as N" in change.note for change in immune.modifiers)
