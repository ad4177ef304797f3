"""Rules 1a-3d (``rules/grouping.py``, the defender's combats), one test each: the rule's
passing scenarios are legal and its failing ones break it, naming its stands, as the family's
own plain check says."""

from __future__ import annotations

from allocator.games.crossfire.rules import grouping
from rules.rule_scenarios import RuleScenario, scenarios_of


@scenarios_of("1a")
def test_1a_two_squads_never_share_a_combat_at_step_1(scenario: RuleScenario) -> None:
    scenario.holds_in(grouping)


@scenarios_of("1b")
def test_1b_with_no_squad_present_every_cc_and_bc_forms_a_combat(scenario: RuleScenario) -> None:
    scenario.holds_in(grouping)


@scenarios_of("1c")
def test_1c_every_defending_stand_is_in_exactly_one_combat(scenario: RuleScenario) -> None:
    scenario.holds_in(grouping)


@scenarios_of("2a")
def test_2a_a_weapon_joins_a_combat_headed_by_its_own_unit_or_fights_alone(
    scenario: RuleScenario,
) -> None:
    scenario.holds_in(grouping)


@scenarios_of("2b")
def test_2b_at_most_one_weapon_joins_a_squad(scenario: RuleScenario) -> None:
    scenario.holds_in(grouping)


@scenarios_of("3a")
def test_3a_leaders_fos_and_snipers_join_the_combats_formed_so_far(scenario: RuleScenario) -> None:
    scenario.holds_in(grouping)


@scenarios_of("3b")
def test_3b_a_leader_joins_only_a_combat_holding_his_own_troops(scenario: RuleScenario) -> None:
    scenario.holds_in(grouping)


@scenarios_of("3c")
def test_3c_a_leader_without_troops_in_the_building_fights_alone(scenario: RuleScenario) -> None:
    scenario.holds_in(grouping)


@scenarios_of("3d")
def test_3d_of_leaders_sharing_a_combat_only_one_holds_troops(scenario: RuleScenario) -> None:
    scenario.holds_in(grouping)
