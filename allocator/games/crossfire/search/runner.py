"""CP-SAT calls under one budget: every call gets what is left of the time limit.

A call stopped by the limit marks the answer as not proven; a *side search* (counting
alternatives, finding the runner-up) runs on a fixed deterministic budget instead, so that its
result does not depend on the machine's load and its end does not bear on the optimum's proof.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from allocator.core.budget import Budget
from allocator.core.cpsat import cp_model, new_solver

DONE = (cp_model.OPTIMAL, cp_model.INFEASIBLE)
FOUND = (cp_model.OPTIMAL, cp_model.FEASIBLE)
#: CP-SAT deterministic time allowed for counting alternatives and finding the runner-up.
SIDE_SEARCH_BUDGET = 0.5


class Collector(cp_model.CpSolverSolutionCallback):
    """Collects what ``read`` makes of each solution, up to ``cap`` of them."""

    def __init__(self, read: Callable[[Any], Any], cap: int):
        super().__init__()
        self.read, self.cap = read, cap
        self.found: list[Any] = []

    def on_solution_callback(self) -> None:
        self.found.append(self.read(self))
        if len(self.found) >= self.cap:
            self.stop_search()


@dataclass
class Runner:
    """Runs CP-SAT models within ``budget`` and remembers whether every call was proven."""

    budget: Budget
    proven: bool = True
    calls: int = field(default=0)

    def run(
        self,
        model: Any,
        callback: Any = None,
        enumerate_all: bool = False,
        linear: bool = True,
        side_budget: float | None = None,
    ) -> tuple[cp_model.CpSolver, cp_model.CpSolverStatus]:
        """Solve; ``linear=False`` drops the LP relaxation (:attr:`.cp_odds.OddsTerms.linear`)."""
        solver = new_solver(model, self.budget.remaining(floor=0.01), self.budget.memory_left_mb())
        if not linear:
            solver.parameters.linearization_level = 0
        if enumerate_all:
            solver.parameters.enumerate_all_solutions = True
            solver.parameters.num_workers = 1
        if side_budget is not None:
            solver.parameters.max_deterministic_time = side_budget
            solver.parameters.num_workers = 1
        self.calls += 1
        with self.budget.stopping(solver.stop_search):
            status = solver.solve(model, callback) if callback else solver.solve(model)
        if status not in DONE and side_budget is None:
            self.proven = False
        return solver, status
