"""The checker's front door: plain rule checks, and the nearest legal allocation from CP-SAT.

>>> from allocator.battle import load_battle
>>> report = check_battle(load_battle("models/scenarios/seed-2hmg-1squad-v-4.yaml"))
>>> report.legal
True
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from pydantic import BaseModel, Field

from allocator.battle import Battle
from allocator.rules import check
from allocator.schema import Allocation
from allocator.violations import Violation


class CheckReport(BaseModel):
    """What ``cfalloc check --json`` prints."""

    legal: bool
    violations: list[Violation]
    nearest_legal: Allocation | None = None
    completion: Allocation | None = Field(
        default=None,
        description="For a legal leading part of the allocation: one legal way to finish it, "
        "found by the CP-SAT model (the proof that it can still be completed).",
    )
    odds: dict[str, Any] | None = Field(
        default=None, description="Every combat's totals and odds, for a complete legal allocation."
    )

    def to_json(self) -> dict[str, Any]:
        absent = {key for key in ("completion", "odds") if getattr(self, key) is None}
        data = self.model_dump(mode="json", exclude=absent)
        for key in ("nearest_legal", "completion"):
            allocation = getattr(self, key)
            if allocation is not None:
                data[key] = allocation.model_dump(mode="json", exclude_none=True)
        return data


def allocation_depth(allocation: Allocation) -> int:
    """How many of the procedure's three choices (group, attack, reallocate) are given."""
    return sum(
        part is not None for part in (allocation.combats, allocation.attack, allocation.reallocate)
    )


def nearest_legal(
    battle: Battle, allocation: Allocation, depth: int | None = None
) -> Allocation | None:
    """The legal allocation that moves the fewest stands, up to ``depth`` of the procedure
    (by default as far as the allocation goes; deeper, it also completes it)."""
    from allocator.model import RulesModel, SlotNames, cp_model, new_solver

    depth = depth or allocation_depth(allocation)
    proposal = list(allocation.combats or {})
    names = SlotNames.for_proposal(proposal, max(len(proposal), len(battle.defender.stands)))
    model = RulesModel(battle, depth=depth, slots=len(names.names))
    fresh = list(model.slots)[len(proposal) :]
    for earlier, later in pairwise(fresh):
        model.model.AddImplication(model.used[later], model.used[earlier])
    model.model.Minimize(model.distance_to(allocation, names))
    solver = new_solver(model.model, time_limit=10)
    if solver.Solve(model.model) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    return model.read(solver, names, depth)


def round_report(battle: Battle, allocation: Allocation) -> dict[str, Any]:
    """Every combat's totals and odds, the round's outcomes, and both objectives' values."""
    from allocator.odds import exchange, round_odds, round_outcome, sweep

    odds = round_odds(
        battle, allocation.combats or {}, allocation.attack or {}, allocation.reallocate or {}
    )
    return {
        "combats": [c.to_json() for c in odds],
        "outcomes": round_outcome(odds).to_json(),
        "sweep": fraction_json(sweep(odds)),
        "exchange": fraction_json(exchange(odds)),
    }


def fraction_json(value: Any) -> dict[str, Any]:
    from allocator.odds import fraction_text

    return {"value": float(value), "exact": fraction_text(value)}


def is_complete(allocation: Allocation) -> bool:
    """Grouping and attack given, and the reallocation too unless every combat is opposed."""
    if allocation.combats is None or allocation.attack is None:
        return False
    opposed = all(allocation.attack.get(name) for name, ids in allocation.combats.items() if ids)
    return allocation.reallocate is not None or opposed


def check_battle(battle: Battle) -> CheckReport:
    violations = check(battle)
    allocation = battle.allocation
    broken = [v for v in violations if v.step > 0]
    nearest = completion = odds = None
    if broken and allocation is not None:
        nearest = nearest_legal(battle, allocation)
    elif allocation is not None and allocation.combats is not None:
        if not is_complete(allocation):
            completion = nearest_legal(battle, allocation, depth=3)
        elif not violations:
            odds = round_report(battle, allocation)
    return CheckReport(
        legal=not violations,
        violations=violations,
        nearest_legal=nearest,
        completion=completion,
        odds=odds,
    )
