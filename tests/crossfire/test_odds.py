"""Exact combat odds (the combat model of docs/rules.md) against the table and brute force."""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from crafted import write as write_crafted

from allocator.core.budget import Budget
from allocator.core.errors import TimeLimitError
from allocator.games.crossfire import cp_odds
from allocator.games.crossfire.battle import Battle, battle_from_data, load_battle
from allocator.games.crossfire.cp_odds import OddsTerms
from allocator.games.crossfire.model import RulesModel
from allocator.games.crossfire.objectives import objective_named
from allocator.games.crossfire.odds import (
    combat_odds,
    round_odds,
    round_outcome,
    side_total,
    win_probability,
)
from allocator.games.crossfire.search.enumeration import Odds

ROOT = Path(__file__).resolve().parents[2]
SEED = ROOT / "models" / "scenarios" / "guide-2hmg-1squad-v-4.yaml"

#: docs/rules.md (the combat model): P(the side ahead by d wins), one d6 each, ties re-rolled.
TABLE = {
    0: Fraction(1, 2),
    1: Fraction(21, 31),
    2: Fraction(13, 16),
    3: Fraction(10, 11),
    4: Fraction(33, 34),
    5: Fraction(1),
}


def test_single_die_reroll_table() -> None:
    for d, p in TABLE.items():
        assert win_probability(d, "single", "reroll") == p, d
    for d in (6, 7, 12):
        assert win_probability(d, "single", "reroll") == 1


@pytest.mark.parametrize("d", range(-8, 9))
def test_single_die_reroll_symmetry(d: int) -> None:
    assert win_probability(-d, "single", "reroll") == 1 - win_probability(d, "single", "reroll")


def brute_force(diff: int, ties: str, attacker_dice: int = 1, defender_dice: int = 1) -> Fraction:
    """Every roll of every die: highest die plus the modifier difference decides."""
    win = lose = tie = 0
    for roll in product(range(1, 7), repeat=attacker_dice + defender_dice):
        a, d = max(roll[:attacker_dice]), max(roll[attacker_dice:])
        score = a + diff - d
        win += score > 0
        lose += score < 0
        tie += score == 0
    if ties == "reroll":
        return Fraction(win, win + lose)
    return Fraction(win + (tie if ties == "attacker" else 0), win + lose + tie)


@pytest.mark.parametrize("ties", ["reroll", "defender", "attacker"])
def test_single_die_against_the_36_rolls(ties: str) -> None:
    for diff in range(-7, 8):
        assert win_probability(diff, "single", ties) == brute_force(diff, ties), (diff, ties)


def test_tie_variants_by_hand() -> None:
    # equal totals: 15 of 36 rolls win, 6 tie
    assert win_probability(0, "single", "defender") == Fraction(15, 36)
    assert win_probability(0, "single", "attacker") == Fraction(21, 36)
    # ahead by 1: 21 win, 5 tie, 10 lose
    assert win_probability(1, "single", "defender") == Fraction(21, 36)
    assert win_probability(1, "single", "attacker") == Fraction(26, 36)


POOLS = [(a, d) for a in (1, 2, 3) for d in (1, 2, 3) if a + d <= 5]


@pytest.mark.parametrize("ties", ["reroll", "defender", "attacker"])
@pytest.mark.parametrize(("attacker_dice", "defender_dice"), POOLS)
def test_pool_against_every_roll(attacker_dice: int, defender_dice: int, ties: str) -> None:
    for diff in range(-7, 8):
        got = win_probability(diff, "pool", ties, (attacker_dice, defender_dice))
        assert got == brute_force(diff, ties, attacker_dice, defender_dice), diff


def test_pool_of_one_die_each_is_the_single_die() -> None:
    for diff in range(-6, 7):
        for ties in ("reroll", "defender", "attacker"):
            assert win_probability(diff, "pool", ties, (1, 1)) == win_probability(
                diff, "single", ties
            )


POOL_120 = ROOT / "tests" / "data" / "hostile" / "120-a-side-pool-dice.yaml"


def test_pools_of_dice_are_worked_out_when_a_line_first_needs_them() -> None:
    """120 a side: (2 * 6 + 1) * 242**2 probabilities, of which a line needs a few."""
    odds = Odds(load_battle(POOL_120), 240)
    assert odds.table.shape == (13, 242, 242) and np.isnan(odds.table).all()
    row = np.array([[5, 3]])  # a line of two combats: totals 5 and 3, fighters 3 and 2
    p = odds.of(row, np.array([[3, 2]]), row > 0, np.array([1, 4]), np.array([1, 4]), row > 0)
    # scores (5 - 3) - (1 - 1) = 2 and (3 - 2) - (4 - 4) = 1, with 3 dice against 1, 2 against 4
    exact = [
        win_probability(2, "pool", "reroll", (3, 1)),
        win_probability(1, "pool", "reroll", (2, 4)),
    ]
    assert p.tolist() == [[float(q) for q in exact]]
    assert np.count_nonzero(~np.isnan(odds.table)) == 2
    assert (
        odds.of(
            row, np.array([[3, 2]]), row > 0, np.array([1, 4]), np.array([1, 4]), row > 0
        ).tolist()
        == p.tolist()
    )
    assert np.count_nonzero(~np.isnan(odds.table)) == 2


def test_the_cp_sat_table_of_pools_of_dice_keeps_to_the_time_limit(monkeypatch: Any) -> None:
    """CP-SAT needs every probability in its model: their count grows with the square of the
    stands, so the table is built within the time limit, and stops there."""
    worked_out: list[Any] = []

    def counted(*args: Any) -> Fraction:
        worked_out.append(args)
        return Fraction(1, 2)

    monkeypatch.setattr(cp_odds, "win_probability", counted)
    budget = Budget(60.0)
    rules = RulesModel(load_battle(POOL_120), slots=1, budget=budget)
    budget.deadline = 0.0
    with pytest.raises(TimeLimitError, match="the rules model"):
        OddsTerms(rules, objective_named("sweep").first_round)
    assert not worked_out


@pytest.mark.parametrize("objective", ["sweep", "exchange"])
def test_the_cp_sat_odds_of_pools_of_dice_are_looked_up_row_by_row(
    objective: str, tmp_path: Path, monkeypatch: Any
) -> None:
    """CP-SAT's presolve expands an element into one literal per entry, in one step that does
    not look at its time limit: over every state of a battalion's pools of dice (16,304) it
    took over a second. No element is longer than a row of the table."""
    battle = load_battle(write_crafted("pool-dice-8-v-a-battalion", tmp_path))
    rules = RulesModel(battle, slots=3, budget=Budget(60.0))
    lengths: list[int] = []
    add_element = rules.model.add_element

    def counted(index: Any, expressions: Any, target: Any) -> Any:
        lengths.append(len(expressions))
        return add_element(index, expressions, target)

    monkeypatch.setattr(rules.model, "add_element", counted)
    terms = OddsTerms(rules, objective_named(objective).first_round)
    assert len(terms.probabilities) > 10_000
    assert lengths and max(lengths) <= terms.width < len(terms.probabilities) // 10


# --- side totals ---------------------------------------------------------------------------

DEFENDER_UNITS = [
    {
        "id": "bn",
        "kind": "battalion",
        "units": [
            {
                "id": "coy",
                "kind": "company",
                "units": [{"id": "p1", "kind": "platoon"}, {"id": "p2", "kind": "platoon"}],
            },
            {"id": "coy2", "kind": "company", "units": [{"id": "p3", "kind": "platoon"}]},
            {"id": "mg", "kind": "support"},
        ],
    }
]
ATTACKER_UNITS = [
    {"id": "acoy", "kind": "company", "units": [{"id": "q1", "kind": "platoon"}]},
]


def make_battle(
    defenders: list[dict[str, Any]],
    attackers: list[dict[str, Any]] | None = None,
    **scenario: Any,
) -> Battle:
    return battle_from_data(
        {
            "defender": {"units": DEFENDER_UNITS, "stands": defenders},
            "attacker": {
                "units": ATTACKER_UNITS,
                "stands": attackers or [{"id": "a1", "type": "rifle", "unit": "q1"}],
            },
            **scenario,
        }
    )


def stand(id: str, type: str, unit: str, **extra: Any) -> dict[str, Any]:
    return {"id": id, "type": type, "unit": unit, **extra}


def parts_of(battle: Battle, ids: list[str], attacking: bool = False) -> dict[str, int]:
    total = side_total(battle, ids, attacking)
    parts = dict(total.parts)
    assert len(parts) == len(total.parts)
    assert total.total == sum(parts.values())
    return parts


def test_squad() -> None:
    b = make_battle([stand("d1", "rifle", "p1")])
    assert parts_of(b, ["d1"]) == {"d1 squad": 1}
    total = side_total(b, ["d1"], attacking=False)
    assert (total.total, total.fighters, total.can_fight, total.stands) == (1, 1, True, 1)


def test_smg_squad_adds_one_more() -> None:
    b = make_battle([stand("s1", "smg", "p1")])
    assert parts_of(b, ["s1"]) == {"s1 squad": 1, "s1 SMG": 1}


def test_weapon_with_crew() -> None:
    b = make_battle(
        [stand("h1", "hmg", "coy"), stand("m1", "mortar", "mg"), stand("g1", "gun", "mg")]
    )
    assert parts_of(b, ["h1"]) == {"h1 weapon": 1, "h1 crew": -2}
    assert side_total(b, ["m1"], False).total == -1
    assert side_total(b, ["g1"], False).total == -1


def test_japanese_hmg_squad_takes_no_crew_modifier() -> None:
    b = make_battle([stand("j1", "jhmg", "p1")])
    assert parts_of(b, ["j1"]) == {"j1 squad": 1}


@pytest.mark.parametrize(("quality", "value"), [("green", -1), ("regular", 0), ("veteran", 1)])
def test_quality(quality: str, value: int) -> None:
    b = make_battle(
        [stand("d1", "rifle", "p1", quality=quality), stand("h1", "hmg", "coy", quality=quality)]
    )
    assert side_total(b, ["d1"], False).total == 1 + value
    assert side_total(b, ["h1"], False).total == -1 + value
    expected = {"d1 squad": 1} | ({f"d1 {quality}": value} if value else {})
    assert parts_of(b, ["d1"]) == expected


def test_suppressed() -> None:
    b = make_battle([stand("d1", "rifle", "p1", suppressed=True)])
    assert parts_of(b, ["d1"]) == {"d1 squad": 1, "d1 suppressed": -2}


def test_leader_best_rating_counts() -> None:
    b = make_battle(
        [
            stand("d1", "rifle", "p1"),
            stand("pc", "pc", "p1", rating=1),
            stand("cc", "cc", "coy", rating=2),
        ]
    )
    assert parts_of(b, ["d1", "pc", "cc"]) == {"d1 squad": 1, "cc leads": 2}


def test_leader_sum_when_the_profile_says_so() -> None:
    b = make_battle(
        [
            stand("d1", "rifle", "p1"),
            stand("pc", "pc", "p1", rating=1),
            stand("cc", "cc", "coy", rating=2),
        ],
        ruleset={"base": "crossfire", "overrides": {"leader_bonus": "sum"}},
    )
    assert parts_of(b, ["d1", "pc", "cc"]) == {"d1 squad": 1, "pc leads": 1, "cc leads": 2}


def test_pc_counts_only_beside_troops_of_his_platoon() -> None:
    b = make_battle(
        [stand("d1", "rifle", "p1"), stand("d2", "rifle", "p2"), stand("pc", "pc", "p1", rating=2)]
    )
    assert parts_of(b, ["d2", "pc"]) == {"d2 squad": 1}  # L1: not his platoon
    assert parts_of(b, ["d1", "pc"]) == {"d1 squad": 1, "pc leads": 2}


def test_pc_without_troops_gives_nothing_and_cannot_fight_alone() -> None:
    b = make_battle([stand("d1", "rifle", "p1"), stand("pc", "pc", "p2", rating=2)])
    total = side_total(b, ["pc"], attacking=False)
    assert total.parts == () and total.total == 0
    assert not total.can_fight
    odds = combat_odds(b, "A", ["pc"], ["a1"])
    assert odds.p_attacker_wins == 1 and odds.decided


def test_cc_rating_always_counts() -> None:
    b = make_battle([stand("d3", "rifle", "p3"), stand("cc", "cc", "coy", rating=2)])
    # d3 is of another company: the CC's rating counts all the same (L2)
    assert parts_of(b, ["d3", "cc"]) == {"d3 squad": 1, "cc leads": 2}


def test_cc_fights_as_a_squad_when_his_side_has_none() -> None:
    b = make_battle([stand("h1", "hmg", "coy"), stand("cc", "cc", "coy", rating=1)])
    alone = side_total(b, ["cc"], attacking=False)
    assert dict(alone.parts) == {"cc fights as a squad": 1, "cc leads": 1}
    assert (alone.total, alone.fighters, alone.can_fight) == (2, 1, True)
    with_weapon = side_total(b, ["cc", "h1"], attacking=False)
    assert with_weapon.total == 2 - 1 and with_weapon.fighters == 2


def test_attacking_cc_fights_as_a_squad() -> None:
    b = make_battle(
        [stand("d1", "rifle", "p1")],
        [stand("a1", "rifle", "q1"), stand("acc", "cc", "acoy", rating=2, near=["a1"])],
    )
    total = side_total(b, ["acc"], attacking=True)
    assert dict(total.parts) == {"acc fights as a squad": 1, "acc leads": 2}


def test_surprise_is_minus_one_to_the_attacker_only() -> None:
    b = make_battle([stand("d1", "rifle", "p1")], surprise=True)
    assert parts_of(b, ["a1"], attacking=True) == {"a1 squad": 1, "surprised": -1}
    assert parts_of(b, ["d1"], attacking=False) == {"d1 squad": 1}
    odds = combat_odds(b, "A", ["d1"], ["a1"])
    assert odds.p_attacker_wins == 1 - TABLE[1]


def test_lone_forward_observer_loses_without_a_roll() -> None:
    b = make_battle([stand("d1", "rifle", "p1"), stand("fo", "fo", "mg")])
    odds = combat_odds(b, "A", ["fo"], ["a1"])
    assert odds.p_attacker_wins == 1
    assert "without a roll" in (odds.decided or "")


def test_pool_mode_through_a_combat() -> None:
    b = make_battle(
        [stand("d1", "rifle", "p1")],
        [stand("a1", "rifle", "q1"), stand("a2", "rifle", "q1")],
        ruleset={"base": "crossfire", "overrides": {"dice_mode": "pool"}},
    )
    odds = combat_odds(b, "A", ["d1"], ["a1", "a2"])
    # two dice against one, no other modifier: the stands' +1 become the dice
    assert odds.p_attacker_wins == brute_force(0, "reroll", 2, 1)


# --- a whole round -------------------------------------------------------------------------


def seed_odds() -> list[Any]:
    b = load_battle(SEED)
    a = b.allocation
    assert a is not None
    return round_odds(b, a.combats or {}, a.attack or {}, a.reallocate or {})


def test_seed_combats_by_hand() -> None:
    odds = seed_odds()
    # A: d1 (+1) and h1 (+1 -2) = 0 against a1, a2 = 2: ahead by 2. B: h2 = -1 against 2: by 3.
    assert [(c.attacker.total, c.defender.total) for c in odds] == [(2, 0), (2, -1)]
    assert [c.p_attacker_wins for c in odds] == [Fraction(13, 16), Fraction(10, 11)]


def test_round_outcome_by_hand_and_sums_to_one() -> None:
    outcome = round_outcome(seed_odds()).outcomes
    assert outcome == {
        (3, 0): Fraction(65, 88),
        (2, 2): Fraction(13, 176),
        (1, 2): Fraction(15, 88),
        (0, 4): Fraction(3, 176),
    }
    assert sum(outcome.values()) == 1


@pytest.mark.parametrize(
    "name",
    [
        "guide-5-squads-v-2-three-and-two",
        "guide-rifle-and-cc-v-2-smg-legal",
        "rule-6b-pass",
        "rule-3c-pass",
        "rule-6a-pass",
    ],
)
def test_round_outcome_sums_to_exactly_one(name: str) -> None:
    b = load_battle(ROOT / "models" / "scenarios" / f"{name}.yaml")
    a = b.allocation
    assert a is not None
    odds = round_odds(b, a.combats or {}, a.attack or {}, a.reallocate or {})
    outcome = round_outcome(odds)
    assert sum(outcome.outcomes.values()) == Fraction(1)
    assert all(p > 0 for p in outcome.outcomes.values())
    json_total = sum(row.p_exact for row in outcome.answer())
    assert json_total == 1
