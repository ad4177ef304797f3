"""The checker's front door: plain rule checks, and the nearest legal allocation from CP-SAT.

>>> from allocator.core.library import folder
>>> answer = check_battle(load_battle(folder("scenarios") / "guide-2hmg-1squad-v-4.yaml"))
>>> answer.legal
True
"""

from __future__ import annotations

from itertools import pairwise

from allocator.core.budget import Budget
from allocator.core.errors import TimeLimitError
from allocator.games.crossfire.answers import CheckAnswer
from allocator.games.crossfire.battle import Battle, load_battle
from allocator.games.crossfire.rules import check, still_to_place
from allocator.games.crossfire.schema import Allocation
from allocator.games.crossfire.warnings import battle_warnings

__all__ = ["check_battle", "is_complete", "load_battle", "nearest_legal"]

#: Seconds the nearest legal allocation may take when the caller gives no budget.
NEAREST_TIME_LIMIT = 10.0


def allocation_depth(allocation: Allocation) -> int:
    """How many of the procedure's three choices (group, attack, reallocate) are given."""
    return sum(
        part is not None for part in (allocation.combats, allocation.attack, allocation.reallocate)
    )


def nearest_legal(
    battle: Battle,
    allocation: Allocation,
    depth: int | None = None,
    budget: Budget | None = None,
    what: str = "the nearest legal allocation",
) -> Allocation | None:
    """The legal allocation that moves the fewest stands, up to ``depth`` of the procedure
    (by default as far as the allocation goes; deeper, it also completes it); ``None`` if there
    is none. Raises :class:`TimeLimitError` (naming ``what``) if the budget ends first."""
    from allocator.core.cpsat import cp_model, new_solver
    from allocator.games.crossfire.model import RulesModel, SlotNames

    budget = budget or Budget(NEAREST_TIME_LIMIT)
    depth = depth or allocation_depth(allocation)
    proposal = list(allocation.combats or {})
    names = SlotNames.for_proposal(proposal, max(len(proposal), len(battle.defender.stands)))
    try:
        model = RulesModel(battle, depth=depth, slots=len(names.names), budget=budget)
    except TimeLimitError:
        raise budget.ran_out(what) from None
    fresh = list(model.slots)[len(proposal) :]
    for earlier, later in pairwise(fresh):
        model.model.add_implication(model.grouping.used[later], model.grouping.used[earlier])
    model.model.minimize(model.distance_to(allocation, names))
    solver = new_solver(model.model, budget.remaining(floor=0.01), budget.memory_left_mb())
    with budget.stopping(solver.stop_search):
        status = solver.solve(model.model)
    if status == cp_model.UNKNOWN:
        raise budget.ran_out(what)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    budget.cut_short |= status == cp_model.FEASIBLE  # legal, but maybe not the fewest moves
    return model.read(solver, names, depth)


def is_complete(allocation: Allocation) -> bool:
    """Grouping and attack given, and the reallocation too unless every combat is opposed."""
    if allocation.combats is None or allocation.attack is None:
        return False
    opposed = all(allocation.attack.get(name) for name, ids in allocation.combats.items() if ids)
    return allocation.reallocate is not None or opposed


def check_battle(battle: Battle, budget: Budget | None = None) -> CheckAnswer:
    """Every broken rule; the nearest legal allocation, a completion, or the round's odds."""
    from allocator.games.crossfire.odds import round_answer, round_odds

    budget = budget or Budget(NEAREST_TIME_LIMIT)
    violations = check(battle)
    allocation = battle.allocation
    broken = [v for v in violations if v.step > 0]
    nearest = completion = odds = cut_short = None
    try:
        if broken and allocation is not None:
            nearest = nearest_legal(battle, allocation, budget=budget)
        elif allocation is not None and allocation.combats is not None:
            if not is_complete(allocation):
                completion = nearest_legal(
                    battle, allocation, depth=3, budget=budget, what="a legal way to finish it"
                )
            elif not violations:
                odds = round_answer(
                    round_odds(
                        battle,
                        allocation.combats,
                        allocation.attack or {},
                        allocation.reallocate or {},
                    )
                )
    except TimeLimitError as stopped:
        verdict = "Every broken rule is listed" if violations else "No rule is broken so far"
        cut_short = (
            f"{verdict}, but {stopped.what} was not found in {stopped.seconds:g} s: give more "
            "time with --time-limit."
        )
    if nearest is not None and budget.cut_short:
        cut_short = (
            f"The allocation shown is legal, but the time limit ({budget.seconds or 0:g} s) ended "
            "the search before it was proven to move the fewest stands: give more time with "
            "--time-limit."
        )
    return CheckAnswer(
        legal=not violations,
        violations=violations,
        nearest_legal=nearest,
        completion=completion,
        odds=odds,
        cut_short=cut_short,
        still_to_place=still_to_place(battle),
        warnings=battle_warnings(battle),
    )
