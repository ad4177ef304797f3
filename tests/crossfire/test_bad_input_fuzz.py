"""Bad input never crashes: mangled scenarios give a result or an InputError, nothing else."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from allocator.core.errors import InputError
from allocator.games.crossfire import service
from allocator.games.crossfire.battle import battle_from_data
from allocator.games.crossfire.objectives import objective_named

BASE = yaml.safe_load(
    (
        Path(__file__).resolve().parents[2] / "models" / "scenarios" / "guide-2hmg-1squad-v-4.yaml"
    ).read_text("utf-8")
)
JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 5),
    st.text(max_size=6),
    st.sampled_from(["d1", "h1", "a1", "A", "B", "1plt", "rifle", "cc", "platoon", "Z"]),
    st.lists(st.sampled_from(["d1", "h1", "h2", "a1", "a2", "x"]), max_size=3),
    st.dictionaries(
        st.sampled_from(["id", "type", "unit", "A", "d1"]), st.text(max_size=3), max_size=2
    ),
)


def paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(data, dict):
        for key, value in data.items():
            found += paths(value, (*prefix, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            found += paths(value, (*prefix, index))
    return found


@st.composite
def mangled(draw: Any) -> Any:
    data = copy.deepcopy(BASE)
    for _ in range(draw(st.integers(1, 3))):
        where = draw(st.sampled_from(paths(data)[1:]))
        parent = data
        for step in where[:-1]:
            parent = parent[step]
        if draw(st.booleans()):
            parent[where[-1]] = draw(JUNK)
        elif isinstance(parent, dict):
            del parent[where[-1]]
        else:
            parent.pop(where[-1])
    return data


@settings(max_examples=500, suppress_health_check=[HealthCheck.too_slow])
@given(mangled())
def test_mangled_scenarios_give_an_answer_or_one_input_error(data: Any) -> None:
    for answer in (
        lambda: service.check_answer(battle_from_data(data)),
        lambda: service.explain_answer(battle_from_data(data), time_limit=2),
        lambda: service.solve_answer(
            battle_from_data(data), "attacker", objective_named("sweep"), time_limit=2
        ),
    ):
        try:
            result = answer()
        except InputError as error:
            assert error.problem and "Traceback" not in str(error)
        else:
            assert isinstance(result.to_json(), dict)


def with_fields(**changes: Any) -> dict[str, Any]:
    """The base scenario with fields set: ``stand`` changes the first attacking stand."""
    scenario = copy.deepcopy(BASE)
    stand = changes.pop("stand", {})
    scenario["attacker"]["stands"][0].update(stand)
    scenario.update(changes)
    return scenario


@pytest.mark.parametrize(
    ("changes", "place"),
    [
        ({"round": True}, "round"),
        ({"round": "2"}, "round"),
        ({"surprise": "yes"}, "surprise"),
        ({"surprise": 1}, "surprise"),
        ({"stand_width": True}, "stand_width"),
        ({"stand_width": "wide"}, "stand_width"),
        ({"stand": {"position": [True, 0]}}, "attacker.stands[0].position[0]"),
        ({"stand": {"suppressed": "no"}}, "attacker.stands[0].suppressed"),
    ],
)
def test_numbers_and_true_false_are_taken_only_as_written(
    changes: dict[str, Any], place: str
) -> None:
    with pytest.raises(InputError) as refused:
        battle_from_data(with_fields(**changes))
    assert refused.value.place == place


def test_a_whole_number_is_a_number_where_a_number_is_asked() -> None:
    battle = battle_from_data(with_fields(stand_width=2, stand={"position": [1, "2.5e0"]}))
    assert battle.scenario.stand_width == 2.0
    assert battle.stand("a1").position == (1.0, 2.5)
