"""A budget cancelled from another thread ends its work, and the work of every budget nested in
it, as its deadline would (issue 20, "the server lets go")."""

from __future__ import annotations

import threading
import time

import pytest

from allocator.core.budget import Budget, nested_in
from allocator.core.errors import TimeLimitError, WorkCancelled

#: Longest a test waits for a thread that should end at once (a guard against hanging).
PATIENCE = 30.0


def test_a_cancelled_budget_is_expired_with_nothing_left() -> None:
    budget = Budget(60.0)
    assert not budget.expired() and not budget.cancelled
    budget.cancel()
    assert budget.expired() and budget.cancelled
    assert budget.remaining() == 0.0 and budget.remaining(floor=0.01) == 0.01
    with pytest.raises(WorkCancelled) as stopped:
        budget.check("the best line")
    assert isinstance(stopped.value, TimeLimitError)  # every stage ends as at its time limit
    assert str(stopped.value) == "no answer: the work on the best line was cancelled"


def test_budgets_nested_in_a_cancelled_one_expire_and_the_parent_does_not_by_a_child() -> None:
    work = Budget(None)
    part = work.share(0.5)
    with nested_in(work):
        made_inside = Budget(60.0)
        deeper = made_inside.share(0.25)
    made_outside = Budget(60.0)
    part.cancel()
    assert part.expired() and not work.expired() and not made_inside.expired()
    work.cancel()
    assert made_inside.expired() and deeper.expired()
    assert isinstance(deeper.ran_out(), WorkCancelled)
    assert not made_outside.expired()


def test_work_in_another_thread_ends_soon_after_its_budget_is_cancelled() -> None:
    work = Budget(None)
    ended: list[BaseException] = []

    def search() -> None:
        with nested_in(work):
            budget = Budget.of_answer(PATIENCE)
            try:
                while True:
                    budget.check("a line of play")
            except TimeLimitError as error:
                ended.append(error)

    thread = threading.Thread(target=search)
    thread.start()
    time.sleep(0.05)
    cancelled_at = time.monotonic()
    work.cancel()
    thread.join(PATIENCE)
    assert not thread.is_alive()
    assert time.monotonic() - cancelled_at < 1.0
    assert [type(error) for error in ended] == [WorkCancelled]


def test_a_cancel_stops_the_searches_under_way_once_and_no_later_ones() -> None:
    work = Budget(None)
    step = work.share(1.0)
    stops: list[str] = []
    with step.stopping(lambda: stops.append("search")):
        work.cancel()
        assert stops == ["search"]
    step.cancel()
    assert stops == ["search"]


def test_a_real_cp_sat_search_stops_when_its_budget_is_cancelled() -> None:
    from allocator.core.cpsat import cp_model, new_solver

    # pigeons into fewer holes: infeasible, and slow for CP-SAT to prove with one worker
    pigeons, holes = 14, 13
    model = cp_model.CpModel()
    sits = {(p, h): model.new_bool_var(f"p{p}h{h}") for p in range(pigeons) for h in range(holes)}
    for p in range(pigeons):
        model.add_exactly_one(sits[p, h] for h in range(holes))
    for h in range(holes):
        model.add_at_most_one(sits[p, h] for p in range(pigeons))
    budget = Budget(PATIENCE)
    solver = new_solver(model, budget.remaining())
    solver.parameters.symmetry_level = 0
    timer = threading.Timer(0.5, budget.cancel)
    timer.start()
    started = time.monotonic()
    with budget.stopping(solver.stop_search):
        status = solver.solve(model)
    timer.cancel()
    assert status == cp_model.UNKNOWN
    assert time.monotonic() - started < 0.5 + 2.0
