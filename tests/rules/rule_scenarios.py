"""The scenarios of one checked rule, and what its family's own plain check says of them.

Every checked rule has ``models/scenarios/rule-<id>-pass.yaml`` and ``rule-<id>-fail.yaml`` (its
id in lower case), and may have more of either, named ``rule-<id>-pass-<what>.yaml`` or
``rule-<id>-fail-<what>.yaml``. A family's test file gives each of its rules one test,
parametrized by :func:`scenarios_of` and asserting :meth:`RuleScenario.holds_in`::

    @scenarios_of("2b")
    def test_2b_at_most_one_weapon_joins_a_squad(scenario: RuleScenario) -> None:
        scenario.holds_in(grouping)
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from allocator.core.library import folder
from allocator.games.crossfire.battle import load_battle
from allocator.games.crossfire.rules import CHECKED_RULES, family_of
from allocator.games.crossfire.schema import Allocation

SCENARIOS = folder("scenarios")
#: ``rule-<id>-<outcome>`` and, for a further scenario of either outcome, ``-<what>``.
NAME = re.compile(r"rule-(?P<rule>[a-z0-9]+)-(?P<outcome>pass|fail)(-[a-z0-9-]+)?")


def rule_named(path: Path) -> str | None:
    """The checked rule whose scenario ``path`` is, by its name (None when it names none)."""
    match = NAME.fullmatch(path.stem)
    if match is None:
        return None
    return next((r for r in CHECKED_RULES if r.lower() == match["rule"]), None)


@dataclass(frozen=True)
class RuleScenario:
    """One scenario of a rule: a passing one (legal) or a failing one (breaking the rule)."""

    rule: str
    path: Path

    @property
    def passing(self) -> bool:
        match = NAME.fullmatch(self.path.stem)
        assert match, f"{self.path.name} is not named rule-<id>-pass or rule-<id>-fail"
        return match["outcome"] == "pass"

    def holds_in(self, family: ModuleType) -> None:
        """The family's own plain check says what the scenario's ``expect`` claims of the rule.

        A passing scenario is legal and the family reports nothing; a failing one breaks the
        rule (and, of the family's rules, only those its ``expect`` lists: for most exactly
        this one), and the rule's violations name exactly the stands ``expect.stands`` gives
        it (none, for a rule about the building as a whole, whose ``expect`` gives none).
        """
        name = self.path.name
        assert self.path.is_file(), f"rule {self.rule} has no scenario {name}"
        assert family_of(self.rule) is family, f"rule {self.rule} is not of {family.__name__}"
        battle = load_battle(self.path)
        expect = battle.scenario.expect
        assert expect is not None, f"{name} has no `expect`"
        found = list(family.check(battle, battle.allocation or Allocation()))
        if self.passing:
            assert expect.legal, f"{name} is a passing scenario and must expect legal: true"
            assert found == [], f"{name}: {family.__name__} reports {found}"
            return
        assert not expect.legal and self.rule in expect.rules, f"{name} must expect {self.rule}"
        own = {rule.id for rule in family.RULES}
        assert {v.rule for v in found} == set(expect.rules) & own, (
            f"{name}: {family.__name__} reports {sorted({v.rule for v in found})}, "
            f"the scenario expects {sorted(expect.rules)}"
        )
        hits = [v for v in found if v.rule == self.rule]
        given = expect.stands.get(self.rule)
        if given is None:
            assert all(v.stands == [] for v in hits), f"{name}: `expect.stands` gives no stands"
        else:
            assert all(v.stands for v in hits), f"{name}: {self.rule} is reported without stands"
            named = {s for v in hits for s in v.stands}
            assert named == set(given), f"{name}: {self.rule} names {sorted(named)}, not {given}"


def rule_scenarios(rule: str) -> list[RuleScenario]:
    """The rule's passing and failing scenarios: the two named ``rule-<id>-pass.yaml`` and
    ``rule-<id>-fail.yaml`` always (so that a test fails while one is missing), then the
    others of the rule in the order of their names."""
    stem = f"rule-{rule.lower()}"
    required = [SCENARIOS / f"{stem}-pass.yaml", SCENARIOS / f"{stem}-fail.yaml"]
    others = [
        path
        for path in sorted(SCENARIOS.glob(f"{stem}-*.yaml"))
        if path not in required and rule_named(path) == rule
    ]
    return [RuleScenario(rule, path) for path in required + others]


def scenarios_of(rule: str) -> Callable[[Any], Any]:
    """Parametrize a test by the rule's scenarios (:func:`rule_scenarios`), one by name each."""
    return pytest.mark.parametrize(
        "scenario", rule_scenarios(rule), ids=lambda scenario: scenario.path.stem
    )
