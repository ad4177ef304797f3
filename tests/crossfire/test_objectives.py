"""The objectives (allocator/games/crossfire/objectives.py): the registry, each objective's float
and exact values agreeing, their bounds, words and the names they are read from and written as.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel, ValidationError

from allocator.core.errors import InputError
from allocator.games.crossfire.answers import RoundAnswer
from allocator.games.crossfire.battle import load_battle
from allocator.games.crossfire.objectives import (
    DEFAULT_OBJECTIVE,
    OBJECTIVES,
    FightObjective,
    Objective,
    ProductObjective,
    RoundObjective,
    SumObjective,
    objective_named,
)
from allocator.games.crossfire.odds import DIFF_LIMIT, round_answer, round_odds, win_probability
from allocator.games.crossfire.schema import Expect

ROOT = Path(__file__).resolve().parents[2]
SEED = ROOT / "models" / "scenarios" / "guide-2hmg-1squad-v-4.yaml"
ROUND_OBJECTIVES = [o for o in OBJECTIVES.values() if isinstance(o, RoundObjective)]
FIGHT_OBJECTIVES = [o for o in OBJECTIVES.values() if isinstance(o, FightObjective)]

#: Every P(attacker wins) the single-die table gives: the values a combat can have.
ODDS = sorted(
    {
        win_probability(d, "single", t)
        for d in range(-DIFF_LIMIT, DIFF_LIMIT + 1)
        for t in ("reroll", "defender", "attacker")
    }
    | {Fraction(0), Fraction(1)}
)


# --- the registry --------------------------------------------------------------------------


def test_the_registry_holds_the_three_objectives_the_default_first() -> None:
    assert list(OBJECTIVES) == ["take", "sweep", "exchange"]
    assert DEFAULT_OBJECTIVE is OBJECTIVES["take"] is objective_named("take")
    assert all(objective_named(name).name == name for name in OBJECTIVES)


def test_an_unknown_name_is_one_error_naming_the_known_ones() -> None:
    with pytest.raises(InputError) as raised:
        objective_named("siege")
    assert raised.value.problem == "unknown objective 'siege' (known: take, sweep, exchange)"


def test_a_crafted_name_is_quoted_short() -> None:
    with pytest.raises(InputError) as raised:
        objective_named("x" * 10_000)
    assert len(raised.value.problem) < 120


def test_each_objective_is_of_one_kind() -> None:
    assert {o.name for o in ROUND_OBJECTIVES} == {"sweep", "exchange"}
    assert {o.name for o in FIGHT_OBJECTIVES} == {"take"}
    assert isinstance(objective_named("sweep"), ProductObjective)
    assert isinstance(objective_named("exchange"), SumObjective)
    for o in ROUND_OBJECTIVES:
        assert o.one_round and o.first_round is o
    for o in FIGHT_OBJECTIVES:
        assert not o.one_round and o.first_round.one_round


def test_chances_are_bounded_and_stands_are_not() -> None:
    unit = {o.name: (o.unit, o.bounds) for o in OBJECTIVES.values()}
    assert unit == {
        "take": ("chance", (Fraction(0), Fraction(1))),
        "sweep": ("chance", (Fraction(0), Fraction(1))),
        "exchange": ("stands", None),
    }


# --- values: floats and fractions agree ----------------------------------------------------


def combat() -> st.SearchStrategy[tuple[Fraction, int, int]]:
    """One combat: P(attacker wins), the defending and the attacking stands in it."""
    return st.tuples(st.sampled_from(ODDS), st.integers(1, 6), st.integers(1, 6))


#: Lines of a round, each with the same number of combats (as the search values them).
LINES = st.integers(1, 5).flatmap(
    lambda k: st.lists(st.lists(combat(), min_size=k, max_size=k), min_size=1, max_size=4)
)


@pytest.mark.parametrize("objective", ROUND_OBJECTIVES, ids=str)
@given(lines=LINES)
def test_a_round_objectives_floats_are_its_fractions(
    objective: RoundObjective, lines: list[list[tuple[Fraction, int, int]]]
) -> None:
    p = np.array([[float(q) for q, _, _ in line] for line in lines])
    defending = np.array([[d for _, d, _ in line] for line in lines])
    attacking = np.array([[a for _, _, a in line] for line in lines])
    floats = objective.round_floats(p, defending, attacking)
    assert floats.shape == (len(lines),)
    for line, value in zip(lines, floats, strict=True):
        exact = objective.round_exact(*(list(column) for column in zip(*line, strict=True)))
        assert isinstance(exact, Fraction)
        assert value == pytest.approx(float(exact), abs=1e-12)
        if objective.bounds is not None:
            assert objective.bounds[0] <= exact <= objective.bounds[1]


@pytest.mark.parametrize("objective", FIGHT_OBJECTIVES, ids=str)
@given(
    outcomes=st.lists(
        st.tuples(st.sampled_from(ODDS), st.sampled_from(ODDS)), min_size=1, max_size=8
    )
)
def test_a_fight_objectives_floats_are_its_fractions(
    objective: FightObjective, outcomes: list[tuple[Fraction, Fraction]]
) -> None:
    prob = np.array([[float(p) for p, _ in outcomes]])
    children = np.array([[float(v) for _, v in outcomes]])
    exact = objective.fight_exact(outcomes)
    assert objective.fight_floats(prob, children)[0] == pytest.approx(float(exact), abs=1e-12)


def test_a_fight_objective_values_the_end_of_a_fight() -> None:
    take = objective_named("take")
    assert isinstance(take, FightObjective)
    assert (take.end_value(True), take.end_value(False)) == (Fraction(1), Fraction(0))


def test_sweep_and_exchange_of_the_guides_example_by_hand() -> None:
    battle = load_battle(SEED)
    a = battle.allocation
    assert a is not None
    odds = round_odds(battle, a.combats or {}, a.attack or {}, a.reallocate or {})
    sweep, exchange = objective_named("sweep"), objective_named("exchange")
    assert isinstance(sweep, RoundObjective) and isinstance(exchange, RoundObjective)
    assert sweep.of_round(odds) == Fraction(13, 16) * Fraction(10, 11) == Fraction(65, 88)
    # A: 13/16 * 2 defenders - 3/16 * 2 attackers; B: 10/11 * 1 defender - 1/11 * 2 attackers
    assert exchange.of_round(odds) == Fraction(5, 4) + Fraction(8, 11) == Fraction(87, 44)


def test_a_rounds_answer_gives_every_round_objective_by_name() -> None:
    battle = load_battle(SEED)
    a = battle.allocation
    assert a is not None
    odds = round_odds(battle, a.combats or {}, a.attack or {}, a.reallocate or {})
    answer = round_answer(odds)
    fields = set(RoundAnswer.model_fields) - {"combats", "outcomes"}
    assert fields == {o.name for o in ROUND_OBJECTIVES}
    for objective in ROUND_OBJECTIVES:
        assert getattr(answer, objective.name).exact == objective.of_round(odds)


def test_a_sum_objectives_weights_are_linear_in_the_stands() -> None:
    """What CP-SAT's exact integer objective relies on (cp_odds.OddsTerms._sum_term)."""
    exchange = objective_named("exchange")
    assert isinstance(exchange, SumObjective)
    for p in ODDS:
        per_defender, per_attacker = exchange.weights(p)
        assert exchange.round_exact([p], [3], [2]) == 3 * per_defender + 2 * per_attacker
        assert (per_defender, per_attacker) == (p, p - 1)


# --- words -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "value", "words", "shown"),
    [
        (
            "take",
            Fraction(7, 8),
            "an 87.5% chance that the attacker takes the building",
            "7/8 (87.5%)",
        ),
        (
            "sweep",
            Fraction(13, 16),
            "an 81.3% chance that the attacker wins every combat",
            "13/16 (81.3%)",
        ),
        (
            "exchange",
            Fraction(-7, 16),
            "an expected exchange of -0.438 stands in the attacker's favour",
            "-7/16 (-0.438 stands)",
        ),
    ],
)
def test_values_in_words(name: str, value: Fraction, words: str, shown: str) -> None:
    objective = objective_named(name)
    assert objective.describe(value) == words
    assert objective.value_text(value) == shown
    assert str(objective) == name and repr(objective) == f"objective_named({name!r})"


def test_gaps_in_the_objectives_unit() -> None:
    assert objective_named("take").gap(Fraction(-1, 8)) == "-12.5%"
    assert objective_named("sweep").gap(Fraction(0)) == "+0.0%"
    assert objective_named("exchange").gap(Fraction(1, 3)) == "+0.333 stands"


def test_every_objective_has_its_own_words() -> None:
    for field in ("title", "words", "label"):
        texts = [getattr(o, field) for o in OBJECTIVES.values()]
        assert all(texts) and len(set(texts)) == len(texts), field


# --- read once from a name, written as its name ----------------------------------------------


class Asked(BaseModel):
    objective: Objective = DEFAULT_OBJECTIVE


def test_a_model_reads_an_objective_from_its_name_and_writes_its_name() -> None:
    asked = Asked.model_validate({"objective": "exchange"})
    assert asked.objective is objective_named("exchange")
    assert asked.model_dump(mode="json") == {"objective": "exchange"}
    assert Asked().model_dump(mode="json") == {"objective": "take"}
    assert Asked.model_validate(asked.model_dump()).objective is asked.objective


@pytest.mark.parametrize("bad", ["siege", "", 3, None, ["take"]])
def test_a_model_refuses_what_is_not_an_objectives_name(bad: Any) -> None:
    with pytest.raises(ValidationError) as raised:
        Asked.model_validate({"objective": bad})
    assert "unknown objective (known: take, sweep, exchange)" in str(raised.value)


def test_the_json_schema_lists_the_names() -> None:
    schema = Asked.model_json_schema()
    assert schema["properties"]["objective"]["enum"] == list(OBJECTIVES)
    assert schema["properties"]["objective"]["default"] == "take"


def test_a_scenarios_expected_values_are_keyed_by_objective() -> None:
    expect = Expect.model_validate({"legal": True, "solve": {"sweep": "3/16", "take": "1/2"}})
    assert expect.solve == {
        objective_named("sweep"): Fraction(3, 16),
        DEFAULT_OBJECTIVE: Fraction(1, 2),
    }
    assert json.loads(expect.model_dump_json())["solve"] == {"sweep": "3/16", "take": "1/2"}
    with pytest.raises(ValidationError):
        Expect.model_validate({"legal": True, "solve": {"hold": "1/2"}})
