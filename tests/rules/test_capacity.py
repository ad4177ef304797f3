"""Rules B1 and B2 (``rules/capacity.py``), one test each: the rule's passing scenarios are
legal and its failing ones break it, as the family's own plain check says.

Both are facts of the scenario rather than choices of the allocation, so a failing scenario
breaks them whatever its allocation; B2 is about the building as a whole and names no stands.
"""

from __future__ import annotations

from allocator.games.crossfire.rules import capacity
from rules.rule_scenarios import RuleScenario, scenarios_of


@scenarios_of("B1")
def test_b1_a_building_holds_at_most_its_capacity_of_squads_and_weapons(
    scenario: RuleScenario,
) -> None:
    scenario.holds_in(capacity)


@scenarios_of("B2")
def test_b2_a_capacity_of_4_or_more_is_a_complex_of_sectors(scenario: RuleScenario) -> None:
    scenario.holds_in(capacity)
