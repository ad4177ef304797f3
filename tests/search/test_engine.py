"""The engine's shortcuts change no value: attacks it counts as alike are worth the same."""

from __future__ import annotations

import pytest

from allocator.core.budget import Budget
from allocator.core.library import folder
from allocator.games.crossfire.battle import load_battle
from allocator.games.crossfire.objectives import objective_named
from allocator.games.crossfire.search.engine import Engine, alike_attacks

SCENARIO = "guide-5-squads-v-2-three-and-two.yaml"


@pytest.mark.parametrize("name", ["sweep", "exchange"])
def test_attacks_alike_under_a_round_objective_are_worth_the_same(name: str) -> None:
    engine = Engine(
        load_battle(folder("scenarios") / SCENARIO), objective_named(name), 1, Budget(60)
    )
    lines = engine.round_lines(engine.root, engine.root_index())
    shared = 0
    for g, attacks in enumerate(lines.attacks):
        keys = alike_attacks(engine.objective, attacks)
        values = engine.line_values(lines, 1)[g]
        worth: dict[int, object] = {}
        for a in range(attacks.size):
            exact = engine.exact_attack(lines, g, a, 0, float(values[a]))[0]
            key = int(keys[a])
            if key in worth:
                shared += 1
                assert worth[key] == exact, (g, a)
            worth[key] = exact
    assert shared, "the scenario has attacks alike"


def test_no_attacks_are_alike_over_the_whole_fight() -> None:
    engine = Engine(
        load_battle(folder("scenarios") / SCENARIO), objective_named("take"), None, Budget(60)
    )
    lines = engine.round_lines(engine.root, engine.root_index())
    for attacks in lines.attacks:
        keys = alike_attacks(engine.objective, attacks)
        assert len(set(keys.tolist())) == attacks.size
