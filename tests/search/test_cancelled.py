"""A solve whose budget is cancelled (its client has gone) ends there: it raises
:class:`~allocator.core.errors.WorkCancelled` and works out neither the bounds nor any legal
line that a time-out would still give (issue 20, "the server lets go")."""

from __future__ import annotations

from typing import Any

import pytest

from allocator.core.budget import Budget
from allocator.core.errors import WorkCancelled
from allocator.games.crossfire.battle import battle_from_data
from allocator.games.crossfire.objectives import objective_named
from allocator.games.crossfire.search import game, solve
from allocator.games.crossfire.search.engine import Engine

#: Two squads against three: a whole fight of a few states, whose later states look at the
#: budget.
SCENARIO = {
    "defender": {
        "units": [{"id": "p", "kind": "platoon"}],
        "stands": [
            {"id": "d1", "type": "rifle", "unit": "p"},
            {"id": "d2", "type": "rifle", "unit": "p"},
        ],
    },
    "attacker": {
        "units": [{"id": "q", "kind": "platoon"}],
        "stands": [{"id": f"a{i}", "type": "rifle", "unit": "q"} for i in range(3)],
    },
}


def test_a_solve_cancelled_in_its_search_ends_with_no_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    budget = Budget(60.0)
    valued = Engine.line_values

    def cancelled_while_valuing(engine: Engine, *args: Any, **kwargs: Any) -> Any:
        budget.cancel()  # the client goes while the first round's lines are valued
        return valued(engine, *args, **kwargs)

    def not_after_a_cancel(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a cancelled solve went on to work out an answer nobody reads")

    monkeypatch.setattr(Engine, "line_values", cancelled_while_valuing)
    monkeypatch.setattr(game.RootGame, "bounded", not_after_a_cancel)
    monkeypatch.setattr(solve, "_any_legal_line", not_after_a_cancel)
    with pytest.raises(WorkCancelled):
        solve.solve(battle_from_data(SCENARIO), "defender", objective_named("take"), budget=budget)


def test_a_solve_out_of_time_in_its_search_still_answers_with_the_best_found(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    valued = Engine.line_values

    def expired_while_valuing(engine: Engine, *args: Any, **kwargs: Any) -> Any:
        engine.budget.deadline = 0.0  # the search's time runs out while the lines are valued
        return valued(engine, *args, **kwargs)

    monkeypatch.setattr(Engine, "line_values", expired_while_valuing)
    found = solve.solve(battle_from_data(SCENARIO), "defender", objective_named("take"), 60.0)
    assert found.status == "feasible" and found.line.combats
