"""The registry, the shared interface, and the shipped profiles."""

from __future__ import annotations

from fractions import Fraction

import pytest
import yaml

from allocator.core.errors import InputError
from allocator.core.library import folder
from allocator.core.reader import read_file
from allocator.core.resolution import Resolution
from allocator.core.validation import validate
from allocator.core.violations import Violation
from allocator.games import GAMES, game, get_resolver, resolve_commands
from allocator.games.answer import ResolveAnswer, resolve_answer
from allocator.games.infinity.rolls import InfinityEngagement


def test_every_system_is_registered_by_name():
    assert sorted(GAMES) == [
        "battlesystem",
        "crossfire",
        "infinity",
        "matched-dice",
        "percentile",
    ]
    assert all(game(name).name == name for name in GAMES)
    assert all(get_resolver(name).name == name for name in GAMES)


def test_unknown_system_is_input_error():
    with pytest.raises(InputError, match="no resolver 'chess'"):
        get_resolver("chess")


def test_the_answer_has_exact_fractions_beside_floats():
    violation = Violation(rule="X", step=0, message="m", stands=["a"])
    resolution = Resolution("s", {"win": Fraction(2, 3), "sure": Fraction(1)}, ["one"], [violation])
    assert resolve_answer(resolution).to_json() == {
        "system": "s",
        "outcomes": {
            "win": {"value": 2 / 3, "exact": "2/3"},
            "sure": {"value": 1.0, "exact": "1/1"},
        },
        "details": None,
        "violations": [violation.model_dump()],
        "steps": ["one"],
    }


@pytest.mark.parametrize("name", ["infinity", "matched-dice", "battlesystem", "percentile"])
def test_every_system_answers_with_its_typed_details(name):
    from allocator.core.validation import load_file

    resolver = get_resolver(name)
    path = folder("scenarios") / name / f"{resolve_commands()[name].example}.yaml"
    answer = resolve_answer(resolver.resolve(load_file(resolver.engagement_model, path)))
    assert answer.details is not None and answer.details.system == name
    assert ResolveAnswer.model_validate(answer.to_json()) == answer


def test_crossfire_answers_through_the_same_interface():
    resolver = get_resolver("crossfire")
    path = folder("scenarios") / "guide-2hmg-1squad-v-4.yaml"
    scenario = resolver.engagement_model.model_validate(read_file(path))
    answer = resolve_answer(resolver.resolve(scenario)).to_json()
    assert answer["system"] == "crossfire" and answer["details"] is None
    assert answer["outcomes"]["attacker wins every combat"]["exact"] == "65/88"


def test_validation_error_becomes_one_input_error_with_its_place():
    with pytest.raises(InputError, match=r"active\.burst"):
        validate(
            InfinityEngagement,
            {"active": {"attribute": 1, "burst": -1}, "reactive": {"attribute": 1}},
            file="f.yaml",
        )
    with pytest.raises(InputError, match=r"active\.colour: unknown field"):
        validate(
            InfinityEngagement,
            {"active": {"attribute": 1, "colour": "red"}, "reactive": {"attribute": 1}},
        )


def test_bad_yaml_is_input_error(tmp_path):
    broken = tmp_path / "broken.yaml"
    broken.write_text("a: [1, 2\n")
    with pytest.raises(InputError, match="not valid YAML"):
        read_file(broken)


def test_shipped_profiles_do_not_cite_internal_texts():
    for name in ("infinity", "matched-dice", "battlesystem", "percentile-example-tables"):
        text = (folder("rulesets") / f"{name}.yaml").read_text(encoding="utf-8")
        assert "RULES.md" not in text and "seed" not in text.lower(), name
    for path in folder("scenarios").glob("*/*.yaml"):
        text = path.read_text(encoding="utf-8")
        assert "RULES.md" not in text and "seed" not in text.lower(), path


def test_unverified_profile_values_are_marked():
    rulesets = folder("rulesets")
    matched = yaml.safe_load((rulesets / "matched-dice.yaml").read_text())
    assert matched["attack_limits"]["veteran"] == 4 and "veteran" not in matched["unverified"]
    assert yaml.safe_load((rulesets / "battlesystem.yaml").read_text())["unverified"] is True
    assert yaml.safe_load((rulesets / "percentile-example-tables.yaml").read_text())["example"]
