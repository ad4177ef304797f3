"""A solve whose budget is cancelled (its client has gone) ends there: it raises
:class:`~allocator.core.errors.WorkCancelled` and works out neither the bounds nor any legal
line that a time-out would still give (issue 20, "the server lets go"); a heavy explain, solve
or plan stops within a fraction of a second of its cancel, wherever it lands."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
import yaml
from crafted import CRAFTED

from allocator.core.budget import Budget, nested_in
from allocator.core.errors import WorkCancelled
from allocator.games.crossfire.battle import Battle, battle_from_data
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


#: How soon a heavy job must stop once cancelled (at worst about 0.02 s on an idle machine;
#: the web's pool must be free within a second of a drop, on a loaded one too).
STOP_SECONDS = 0.5


def _heavy_jobs() -> dict[str, Callable[[Battle], object]]:
    from allocator.games.crossfire import service
    from allocator.games.crossfire.plan import plan_answer

    take = objective_named("take")
    return {
        "explain": lambda battle: service.explain_answer(battle, take, 60.0),
        "solve": lambda battle: service.solve_answer(battle, "attacker", take, 60.0, None),
        "plan": lambda battle: plan_answer(battle, "attacker", None, 60.0, None),
    }


@pytest.mark.slow
@pytest.mark.parametrize("after", [0.05, 0.2, 0.5, 1.0])
@pytest.mark.parametrize("job", ["explain", "solve", "plan"])
def test_a_heavy_job_cancelled_at_any_point_stops_at_once(job: str, after: float) -> None:
    """Every stage of a whole-fight search of a crafted in-limit file (8 attacking stands of
    their own units in a house of 6: over a million attacks a round) looks at its budget
    between two steps over whole arrays, so that a cancel is seen within a fraction of a
    second wherever it lands: the listing of the attacks, their values, the exact values."""
    battle = battle_from_data(yaml.safe_load(CRAFTED["own-units-6-v-8"]()))
    budget = Budget(None)
    ended: list[BaseException | None] = []

    def work() -> None:
        try:
            with nested_in(budget):
                _heavy_jobs()[job](battle)
            ended.append(None)
        except BaseException as error:  # the test looks at what ended it
            ended.append(error)

    worker = threading.Thread(target=work)
    worker.start()
    time.sleep(after)
    budget.cancel()
    cancelled_at = time.monotonic()
    worker.join(timeout=60.0)
    stopped = time.monotonic() - cancelled_at
    assert len(ended) == 1 and isinstance(ended[0], WorkCancelled), ended
    assert stopped < STOP_SECONDS, f"{job} went on {stopped:.2f} s after its cancel"
