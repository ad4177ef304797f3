"""Rules 6a-6c (``rules/reallocation.py``, step 6), one test each: the rule's passing scenarios
are legal and its failing ones break it, naming its stands, as the family's own plain check
says."""

from __future__ import annotations

from allocator.games.crossfire.rules import reallocation
from rules.rule_scenarios import RuleScenario, scenarios_of


@scenarios_of("6a")
def test_6a_every_stand_of_an_unopposed_combat_moves_into_an_attacked_one(
    scenario: RuleScenario,
) -> None:
    scenario.holds_in(reallocation)


@scenarios_of("6b")
def test_6b_after_the_move_no_combat_holds_more_weapons_than_squads_and_heads(
    scenario: RuleScenario,
) -> None:
    scenario.holds_in(reallocation)


@scenarios_of("6c")
def test_6c_nothing_moves_when_every_combat_has_attackers(scenario: RuleScenario) -> None:
    scenario.holds_in(reallocation)
