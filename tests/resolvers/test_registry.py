"""The registry, the shared interface, and the shipped profiles."""

from __future__ import annotations

from fractions import Fraction

import pytest
import yaml

from allocator.core.errors import InputError
from allocator.core.library import folder
from allocator.core.reader import read_file
from allocator.core.resolution import validate
from allocator.core.violations import Violation
from allocator.games import SYSTEMS, Resolution, get_resolver
from allocator.games.infinity.rolls import InfinityEngagement


def test_every_system_is_registered_by_name():
    assert sorted(SYSTEMS) == [
        "battlesystem",
        "crossfire",
        "infinity",
        "matched-dice",
        "percentile",
    ]
    assert all(get_resolver(name).name == name for name in SYSTEMS)


def test_unknown_system_is_input_error():
    with pytest.raises(InputError, match="no resolver 'chess'"):
        get_resolver("chess")


def test_resolution_json_has_exact_fractions_at_the_top():
    violation = Violation(rule="X", step=0, message="m", stands=["a"])
    resolution = Resolution("s", {"win": Fraction(2, 3)}, ["one"], [violation], {"n": 1})
    assert resolution.to_json() == {
        "system": "s",
        "win": "2/3",
        "n": 1,
        "violations": [violation.model_dump()],
        "steps": ["one"],
    }


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


def test_unverified_profile_values_are_marked():
    rulesets = folder("rulesets")
    matched = yaml.safe_load((rulesets / "matched-dice.yaml").read_text())
    assert matched["attack_limits"]["veteran"] == 4 and "veteran" not in matched["unverified"]
    assert yaml.safe_load((rulesets / "battlesystem.yaml").read_text())["unverified"] is True
    assert yaml.safe_load((rulesets / "percentile-example-tables.yaml").read_text())["example"]
