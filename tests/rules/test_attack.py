"""Rules 4a-5c (``rules/attack.py``, the attacker's answer), one test each: the rule's passing
scenarios are legal and its failing ones break it, naming its stands, as the family's own plain
check says.

The failing scenarios of 5c break other rules of the family too, as their ``expect`` says: two
PCs against a combat no squad attacks are beside no squad (5a) and none of their own troops
(5b); two commanders who join at step 5 as leaders only leave their combat uncovered while
another has two squads (4a) and are beside no squad (5a).
"""

from __future__ import annotations

from allocator.games.crossfire.rules import attack
from rules.rule_scenarios import RuleScenario, scenarios_of


@scenarios_of("4a")
def test_4a_squads_cover_every_combat_before_any_gets_a_second(scenario: RuleScenario) -> None:
    scenario.holds_in(attack)


@scenarios_of("4b")
def test_4b_a_cc_or_bc_takes_a_combat_no_squad_is_left_for(scenario: RuleScenario) -> None:
    scenario.holds_in(attack)


@scenarios_of("4c")
def test_4c_squads_left_over_go_to_the_defenders_combats(scenario: RuleScenario) -> None:
    scenario.holds_in(attack)


@scenarios_of("4d")
def test_4d_attacking_weapons_fos_and_snipers_take_no_part(scenario: RuleScenario) -> None:
    scenario.holds_in(attack)


@scenarios_of("4e")
def test_4e_every_attacking_squad_is_in_exactly_one_combat(scenario: RuleScenario) -> None:
    scenario.holds_in(attack)


@scenarios_of("5a")
def test_5a_a_leader_joins_within_a_stand_width_of_a_squad_there(scenario: RuleScenario) -> None:
    scenario.holds_in(attack)


@scenarios_of("5b")
def test_5b_a_pc_joins_only_a_combat_holding_his_own_troops(scenario: RuleScenario) -> None:
    scenario.holds_in(attack)


@scenarios_of("5c")
def test_5c_a_cc_or_bc_joining_at_step_5_is_a_leader_only(scenario: RuleScenario) -> None:
    scenario.holds_in(attack)
