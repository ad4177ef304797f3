"""Matched dice: the published Risk numbers, the tie rule as written, the chain, legality."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from allocator.core.budget import Budget
from allocator.core.errors import InputError, TimeLimitError
from allocator.games.matched_dice.assault import (
    ATTACKER_WINS,
    BreakOnLoss,
    GridBase,
    MatchedDiceEngagement,
    MatchedDiceResolver,
    check_assault,
    default_profile,
    match_dice,
    no_break_test,
    roll_outcomes,
    run_assault,
    strength_that_matters,
)
from allocator.games.matched_dice.details import MatchedDiceDetails


def test_published_risk_three_v_two():
    outcomes = roll_outcomes(3, 2, "defender")
    assert [outcomes[0, 2], outcomes[1, 1], outcomes[2, 0]] == [
        Fraction(2890, 7776),
        Fraction(2611, 7776),
        Fraction(2275, 7776),
    ]


def test_published_ties_cancel_defender_still_loses_two_in_2890():
    assert roll_outcomes(3, 2, "cancel")[0, 2] == Fraction(2890, 7776)


@pytest.mark.parametrize("ties", ["cancel", "defender"])
@pytest.mark.parametrize("attacker, defender", [(a, d) for a in (1, 2, 3) for d in (1, 2)])
def test_brute_force_over_all_dice(attacker, defender, ties):
    counts = Counter(
        match_dice(dice[:attacker], dice[attacker:], ties)
        for dice in product(range(1, 7), repeat=attacker + defender)
    )
    total = 6 ** (attacker + defender)
    expected = {losses: Fraction(n, total) for losses, n in counts.items()}
    assert roll_outcomes(attacker, defender, ties) == expected
    assert sum(expected.values()) == 1


def test_equal_dice_are_symmetric_without_the_tie_rule():
    outcomes = roll_outcomes(2, 2, "cancel")
    assert all(outcomes[a, d] == outcomes[d, a] for a, d in outcomes)


def test_chain_sums_to_one_and_wipes_out_within_rounds():
    assault = run_assault(6, 4, 4, default_profile(), "cancel")
    assert sum(assault.ends.values()) == 1
    more = run_assault(6, 4, 8, default_profile(), "cancel")
    assert more.chance("defender_wiped_out") > assault.chance("defender_wiped_out")


def test_one_round_chain_equals_one_roll():
    assault = run_assault(1, 1, 1, default_profile(), "defender")
    assert assault.chance("defender_wiped_out") == Fraction(15, 36)
    assert assault.chance("attacker_wiped_out") == Fraction(21, 36)


def reference_chain(attacker, defender, rounds, ties, break_test):
    """The chain of rounds in plain fractions, state by state, as the rule reads."""
    profile = default_profile()
    ends, states = Counter(), Counter({(attacker, defender): Fraction(1)})
    for _ in range(rounds):
        following = Counter()
        for (a, d), chance in states.items():
            dice = min(a, profile.max_attacker_dice), min(d, profile.max_defender_dice)
            for (a_lost, d_lost), p in roll_outcomes(*dice, ties).items():
                left, q = (a - a_lost, d - d_lost), chance * p
                if left[1] == 0:
                    ends["defender_wiped_out", *left] += q
                elif left[0] == 0:
                    ends["attacker_wiped_out", *left] += q
                else:
                    ab = break_test("attacker", a_lost, left[0])
                    db = break_test("defender", d_lost, left[1])
                    ends["both_broke", *left] += q * ab * db
                    ends["attacker_broke", *left] += q * ab * (1 - db)
                    ends["defender_broke", *left] += q * (1 - ab) * db
                    following[left] += q * (1 - ab) * (1 - db)
        states = following
    for (a, d), chance in states.items():
        ends["undecided", a, d] += chance
    return {key: p for key, p in ends.items() if p}


@pytest.mark.parametrize(
    "break_test",
    [
        no_break_test,
        BreakOnLoss(attacker="1/6", defender="1/3"),
        BreakOnLoss(attacker=1, defender=0),
    ],
    ids=["none", "sixth-third", "attacker-always"],
)
@pytest.mark.parametrize("ties", ["cancel", "defender"])
def test_integer_chain_equals_the_chain_in_fractions(break_test, ties):
    fast = run_assault(5, 4, 4, default_profile(), ties, break_test)
    assert fast.ends == reference_chain(5, 4, 4, ties, break_test)
    assert sum(fast.ends.values()) == 1


def test_break_test_is_pluggable():
    always = BreakOnLoss(attacker=Fraction(1), defender=Fraction(0))
    assault = run_assault(3, 3, 3, default_profile(), "defender", always)
    assert assault.chance("undecided") < 1 and assault.chance("attacker_broke") > 0
    assert sum(assault.ends.values()) == 1

    def never(side, lost, left):
        return Fraction(0)

    assert run_assault(3, 3, 3, default_profile(), "cancel", never).chance("attacker_broke") == 0


def test_the_chain_looks_at_its_time_limit_all_through():
    """At every state of every round and at every ending, so that a chain of integers of
    thousands of digits stops within its time limit wherever it is."""
    calls = 0

    def count() -> None:
        nonlocal calls
        calls += 1

    break_test = BreakOnLoss(attacker="1/6", defender="1/3")
    assault = run_assault(6, 5, 6, default_profile(), "cancel", break_test, count)
    assert calls > 6 + 2 * len(assault.ends)
    for stop_at in (1, calls // 2, calls):
        left = stop_at

        def stop() -> None:
            nonlocal left
            left -= 1
            if left == 0:
                raise TimeLimitError(1.0, "the exact answer")

        with pytest.raises(TimeLimitError):
            run_assault(6, 5, 6, default_profile(), "cancel", break_test, stop)


def test_a_resolution_and_a_plan_end_at_their_time_limit():
    budget = Budget(0.0)
    resolver, chain = MatchedDiceResolver(), MatchedDiceEngagement(attacker=3, defender=3, rounds=5)
    with pytest.raises(TimeLimitError, match="the exact answer was not found"):
        resolver.resolve(chain, lambda: budget.check("the exact answer"))
    with pytest.raises(TimeLimitError, match="the plan was not found"):
        resolver.plan(chain, Fraction(1, 2), lambda: budget.check("the plan"))


def test_quality_caps_the_rounds():
    resolver = MatchedDiceResolver()
    veteran = MatchedDiceEngagement(attacker=4, defender=4, quality="veteran", rounds=9)
    assert resolver.resolve(veteran).details.rounds == 4
    with pytest.raises(InputError, match="no attack limit"):
        resolver.resolve(MatchedDiceEngagement(attacker=4, defender=4, quality="heroic"))


def bases(*specs) -> list[GridBase]:
    return [
        GridBase(name=name, square=square, unwounded_sps=sps, battalion_command=command)
        for name, square, sps, command in specs
    ]


def rules(engagement) -> list[str]:
    return [violation.rule for violation in check_assault(engagement)]


def test_several_bases_need_a_battalion_command_base():
    two = bases(("a", (1, 2), 2, False), ("b", (3, 2), 2, False))
    assert rules(MatchedDiceEngagement(attacking_bases=two, defender=2, position=(2, 2))) == [
        "MD-command"
    ]
    with_hq = [*two, *bases(("hq", (2, 1), 1, True))]
    assert rules(MatchedDiceEngagement(attacking_bases=with_hq, defender=2, position=(2, 2))) == []


def test_assaults_are_orthogonal_only():
    diagonal = bases(("a", (1, 1), 2, False))
    assert rules(MatchedDiceEngagement(attacking_bases=diagonal, defender=2, position=(2, 2))) == [
        "MD-orthogonal"
    ]
    beside = bases(("a", (2, 1), 2, False))
    assert rules(MatchedDiceEngagement(attacking_bases=beside, defender=2, position=(2, 2))) == []


def test_a_base_without_unwounded_sp_cannot_fight():
    spent = bases(("a", (2, 1), 0, False))
    assert rules(MatchedDiceEngagement(attacking_bases=spent, defender=2, position=(2, 2))) == [
        "MD-unwounded"
    ]


def test_bases_give_the_sp_count():
    engagement = MatchedDiceEngagement(
        attacking_bases=bases(("a", (2, 1), 2, False), ("hq", (1, 2), 2, True)),
        defending_bases=bases(("d", (2, 2), 1, False)),
        position=(2, 2),
    )
    assert (engagement.sps("attacker"), engagement.sps("defender")) == (4, 1)


def test_sps_must_be_given_exactly_once():
    with pytest.raises(ValueError, match="exactly one of attacker"):
        MatchedDiceEngagement(defender=2)


def test_sps_are_bounded_per_side():
    with pytest.raises(ValueError, match="at most 50 a side"):
        MatchedDiceEngagement(
            attacker=2,
            defending_bases=bases(*((f"d{i}", (2, 2), 20, False) for i in range(3))),
        )
    with pytest.raises(ValueError, match="less than or equal to 50"):
        MatchedDiceEngagement(attacker=51, defender=2)


def test_rounds_over_the_limit_are_refused():
    from allocator.core.errors import LimitError
    from allocator.core.limits import Limits

    resolver = MatchedDiceResolver(limits=Limits(max_rounds=3))
    with pytest.raises(LimitError, match="4 rounds, over the limit of 3"):
        resolver.resolve(MatchedDiceEngagement(attacker=4, defender=4, rounds=4))
    with pytest.raises(LimitError, match="4 rounds"):
        resolver.resolve(MatchedDiceEngagement(attacker=4, defender=4, quality="veteran"))
    assert resolver.resolve(MatchedDiceEngagement(attacker=4, defender=4, rounds=3)).details


def test_the_command_violation_names_the_bases():
    two = bases(("a", (1, 2), 2, False), ("b", (3, 2), 2, False))
    (violation,) = check_assault(
        MatchedDiceEngagement(attacking_bases=two, defender=2, position=(2, 2))
    )
    assert "(a and b)" in violation.message


# --- the plan: the fewest attacking SPs that win the chain -------------------------------------


def plan_of(defender, rounds, target, ties="cancel", break_test=None, quality=None):
    engagement = MatchedDiceEngagement(
        attacker=0, defender=defender, rounds=rounds, ties=ties, quality=quality
    )
    resolution = MatchedDiceResolver(break_test=break_test).plan(engagement, Fraction(target))
    details = resolution.details_of(MatchedDiceDetails)
    assert details.plan is not None
    return resolution, details, details.plan


def reference_wins(attacker, defender, rounds, ties, break_test=no_break_test):
    ends = reference_chain(attacker, defender, rounds, ties, break_test)
    return sum(p for (end, _, _), p in ends.items() if end in ATTACKER_WINS)


@pytest.mark.parametrize(
    "break_test", [None, BreakOnLoss(attacker="1/6", defender="1/3")], ids=["none", "breaks"]
)
@pytest.mark.parametrize("ties", ["cancel", "defender"])
def test_plan_curve_is_the_reference_chain_at_each_strength(ties, break_test):
    _, _, plan = plan_of(3, 3, 1, ties, break_test)
    assert [point.attacker_sps for point in plan.curve] == list(range(1, plan.most_sps + 1))
    for point in plan.curve:
        expected = reference_wins(point.attacker_sps, 3, 3, ties, break_test or no_break_test)
        assert point.chance.exact == expected, point.attacker_sps


@pytest.mark.parametrize("ties", ["cancel", "defender"])
@pytest.mark.parametrize("defender, rounds", [(1, 1), (2, 4), (4, 3), (6, 8)])
def test_more_sps_never_win_less_without_a_break_test(defender, rounds, ties):
    _, _, plan = plan_of(defender, rounds, 1, ties)
    chances = [point.chance.exact for point in plan.curve]
    assert chances == sorted(chances) and chances[0] < chances[-1]


@pytest.mark.parametrize(
    "break_test",
    [no_break_test, BreakOnLoss(attacker="1/6", defender="1/3")],
    ids=["no-break-test", "break-on-loss"],
)
def test_past_the_strength_that_matters_more_sps_win_the_same(break_test):
    _, _, plan = plan_of(2, 2, 1, "cancel", break_test)
    assert plan.most_sps == strength_that_matters(2, default_profile()) == 7
    assert plan.more_adds_nothing and plan.fewest_sps is None
    assert plan.curve[-1].chance.exact == reference_wins(12, 2, 2, "cancel", break_test)


@pytest.mark.parametrize("target", ["1/10", "1/2", "3/4", "9/10"])
def test_the_plan_is_the_first_strength_that_reaches_the_target(target):
    resolution, details, plan = plan_of(3, 10, target)
    *below, reached = [point.chance.exact for point in plan.curve]
    assert all(chance < Fraction(target) for chance in below) and reached >= Fraction(target)
    assert plan.fewest_sps == len(plan.curve) == details.attacker_sps
    won = resolution.distribution["defender_wiped_out"]
    assert won == reached == reference_wins(details.attacker_sps, 3, 10, "cancel")


def test_a_target_of_nothing_is_one_sp_and_of_certainty_is_not_reached():
    assert plan_of(2, 3, 0)[2].fewest_sps == 1
    _, details, plan = plan_of(2, 3, 1)
    assert plan.fewest_sps is None and details.attacker_sps == plan.most_sps


def test_the_plan_chains_the_rounds_of_the_attack_limit():
    _, details, _ = plan_of(2, None, "1/2", quality="veteran")
    assert details.rounds == 4


def test_a_plan_needs_a_chain_of_rounds():
    with pytest.raises(InputError, match="give --rounds N or --quality Q"):
        plan_of(2, None, "1/2")
