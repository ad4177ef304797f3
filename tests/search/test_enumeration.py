"""The enumeration's lines are exactly the plain checker's legal lines, counted by class.

Each property draws small random battles and compares, for every grouping (and attack), the
enumeration of a rule family with the brute-force oracle (every partition, attack and
reallocation filtered by the plain checker), with interchangeable stands counted by class.
"""

from __future__ import annotations

from typing import Any

import oracle
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from strategies import allocations, scenarios

from allocator.core.budget import Budget
from allocator.games.crossfire.battle import Battle, battle_from_data
from allocator.games.crossfire.rules import check
from allocator.games.crossfire.rules.attack import class_attacks
from allocator.games.crossfire.rules.grouping import legal_groupings
from allocator.games.crossfire.rules.reallocation import class_reallocations
from allocator.games.crossfire.schema import Allocation
from allocator.games.crossfire.search.classes import Classes
from allocator.games.crossfire.search.enumeration import Space, View

SMALL = scenarios(max_defenders=4, max_attackers=5)
SETTINGS = settings(max_examples=250, suppress_health_check=list(HealthCheck), deadline=None)


def partitions(groupings: Any) -> set[tuple[tuple[str, ...], ...]]:
    return {tuple(sorted(tuple(sorted(c)) for c in g)) for g in groupings}


@SETTINGS
@given(SMALL)
def test_legal_groupings_are_the_checkers(scenario: dict[str, Any]) -> None:
    battle = battle_from_data(scenario)
    mine = list(legal_groupings(battle))
    assert partitions(mine) == partitions(g.values() for g in oracle.legal_groupings(battle))
    assert len(mine) == len(partitions(mine)), "each partition once"


def class_level_attacks(battle: Battle, classes: Classes, grouping: dict[str, list[str]]) -> Any:
    return {
        tuple(classes.counts("attacker", attack.get(name, [])) for name in grouping)
        for attack in oracle.legal_attacks(battle, grouping)
    }


@SETTINGS
@given(SMALL)
def test_class_attacks_are_the_checkers(scenario: dict[str, Any]) -> None:
    battle = battle_from_data(scenario)
    c = Classes.of(battle)
    counts = c.counts("attacker", battle.attacker.ids())
    for grouping in oracle.legal_groupings(battle):
        mine = list(class_attacks(c.attacker, c.near, c.commands, counts, len(grouping)))
        assert set(mine) == class_level_attacks(battle, c, grouping)
        assert len(mine) == len(set(mine)), "each attack once"


@SETTINGS
@given(SMALL)
def test_the_search_drops_only_leaders_who_add_nothing(scenario: dict[str, Any]) -> None:
    """The vectorised attacks are the legal ones whose every leader raises his combat's total."""
    battle = battle_from_data(scenario)
    everyone = battle.defender.ids() + battle.attacker.ids()
    view = View(battle, Space(Classes.of(battle.next_round(everyone))))
    c = view.classes
    counts = c.counts("attacker", battle.attacker.ids())
    for combats in {len(g) for g in oracle.legal_groupings(battle)}:
        kept = {
            view.attacks(counts, combats).comps(a)
            for a in range(view.attacks(counts, combats).size)
        }
        legal = set(class_attacks(c.attacker, c.near, c.commands, counts, combats))
        assert kept == {a for a in legal if view._adds_something(a)}


@SETTINGS
@given(SMALL)
def test_class_reallocations_are_the_checkers(scenario: dict[str, Any]) -> None:
    battle = battle_from_data(scenario)
    c = Classes.of(battle)
    one_by_one = battle.ruleset.value("reallocate_one_by_one")
    for grouping in oracle.legal_groupings(battle):
        names = list(grouping)
        comps = [c.counts("defender", grouping[n]) for n in names]
        for attack in oracle.legal_attacks(battle, grouping):
            opposed = [bool(attack.get(n)) for n in names]
            if all(opposed):
                continue
            brute = set()
            for moves in oracle.legal_reallocations(battle, grouping, attack):
                final = {n: list(grouping[n]) for n in names if attack.get(n)}
                for stand, target in moves.items():
                    final[target].append(stand)
                brute.add(tuple(c.counts("defender", final[n]) for n in names if attack.get(n)))
            assert set(class_reallocations(c.defender, comps, opposed, one_by_one)) == brute


@pytest.mark.slow
@SETTINGS
@given(SMALL, st.data())
def test_swapping_interchangeable_stands_changes_no_verdict(
    scenario: dict[str, Any], data: st.DataObject
) -> None:
    """Inside a class any two stands can be swapped: the checker says the same of both."""
    battle = battle_from_data(scenario)
    classes = [
        k for side in (Classes.of(battle).defender, Classes.of(battle).attacker) for k in side
    ]
    pairs = [k.members[:2] for k in classes if len(k.members) > 1]
    assume(pairs)
    allocation = data.draw(allocations(scenario))
    first, second = data.draw(st.sampled_from(pairs))

    def swapped(value: Any) -> Any:
        if isinstance(value, dict):
            return {swapped(k): swapped(v) for k, v in value.items()}
        if isinstance(value, list):
            return [swapped(v) for v in value]
        return {first: second, second: first}.get(value, value)

    rules = sorted(v.rule for v in check(battle, Allocation.model_validate(allocation)))
    other = sorted(v.rule for v in check(battle, Allocation.model_validate(swapped(allocation))))
    assert rules == other


def test_the_states_of_a_fight_are_counted_once() -> None:
    """A state is its counts per class; removing a combat's stands lowers the index."""
    from allocator.core.library import folder
    from allocator.games.crossfire.battle import load_battle
    from allocator.games.crossfire.objectives import objective_named
    from allocator.games.crossfire.search.engine import Engine

    battle = load_battle(folder("scenarios") / "fight-together-or-apart.yaml")
    engine = Engine(battle, objective_named("take"), None, Budget(60))
    space = engine.space
    root = engine.root_index()
    assert space.decode(root) == (
        space.classes.counts("defender", engine.battle.defender.ids()),
        space.classes.counts("attacker", engine.battle.attacker.ids()),
    )
    taken = space.index((0,) * len(space.d_radix), space.decode(root)[1])
    held = space.index(space.decode(root)[0], (0,) * len(space.a_radix))
    assert (space.winner(taken), space.winner(held), space.winner(root)) == (
        "attacker",
        "defender",
        None,
    )
