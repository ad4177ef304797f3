"""Every rule has its one test in its family's file, and every rule scenario is some rule's.

``tests/rules/test_<family>.py`` holds one test per rule of ``rules/<family>.py``, named
``test_<id>_...`` (the id in lower case): a new rule without its test fails here, and a checked
rule's test fails while the rule lacks its ``rule-<id>-pass.yaml`` or ``rule-<id>-fail.yaml``
(:func:`rule_scenarios.rule_scenarios`). A scenario named ``rule-...`` must name a checked rule,
or no family's test would ever read it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from allocator.games.crossfire.rules import FAMILIES
from allocator.games.crossfire.rules.base import Family
from rules.rule_scenarios import SCENARIOS, rule_named

HERE = Path(__file__).resolve().parent


def family_name(family: Family) -> str:
    return family.__name__.rsplit(".", 1)[1]


def defined_tests(path: Path) -> list[str]:
    """The names of the test functions at the top of a test file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")
    ]


@pytest.mark.parametrize("family", FAMILIES, ids=family_name)
def test_each_rule_of_a_family_has_one_test_in_the_familys_file(family: Family) -> None:
    path = HERE / f"test_{family_name(family)}.py"
    assert path.is_file(), f"{family.__name__} has no test file {path.name}"
    names = defined_tests(path)
    for rule in family.RULES:
        own = [name for name in names if name.startswith(f"test_{rule.id.lower()}_")]
        assert len(own) == 1, f"{path.name} has {len(own)} tests of rule {rule.id}: {own}"


def test_every_rule_scenario_names_a_checked_rule() -> None:
    named = [path for path in SCENARIOS.iterdir() if path.name.startswith("rule-")]
    assert named
    for path in named:
        assert path.suffix == ".yaml", f"{path.name}: a rule's scenarios are YAML files"
        assert rule_named(path), f"{path.name} is not rule-<id>-pass or -fail of a checked rule"
