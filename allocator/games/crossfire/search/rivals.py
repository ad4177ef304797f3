"""The exact optimum of a CP-SAT model whose objective is scaled.

CP-SAT optimises integers; a product objective (``sweep``) is a product of probabilities, so the
model maximises the sum of scaled logarithms and rounding can misorder lines whose values are
close. Every rival
within the rounding slack is therefore compared with exact fractions: first in Python (whether
any multiset of combat odds in the window could be better), and only then by CP-SAT, excluding
each found line in turn.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from allocator.games.crossfire.cp_odds import OddsTerms
from allocator.games.crossfire.model import RulesModel
from allocator.games.crossfire.search.lines import Line
from allocator.games.crossfire.search.runner import FOUND, Runner


def exact_optimum(
    runner: Runner,
    rules: RulesModel,
    terms: OddsTerms,
    maximise: bool,
    read: Callable[[Any], Line],
) -> Line | None:
    """The exact best line of ``rules``: the scaled optimum, then every rival within slack.

    Parameters
    ----------
    runner
        Runs each CP-SAT search within the answer's budget; left not ``proven`` when the
        budget ended the comparison of rivals.
    rules
        The round's model; its objective is set here, and rivals are excluded from it.
    terms
        The scaled objective and what it knows of its rounding.
    maximise
        Whether the deciding side maximises the objective.
    read
        Turns a solved model into a line with its exact value.

    Returns
    -------
    Line or None
        The best line by exact value, or ``None`` when CP-SAT found none in the budget.
    """
    model = rules.model
    objective = terms.objective_expr()
    (model.maximize if maximise else model.minimize)(objective)
    solver, status = runner.run(model, linear=terms.linear)
    if status not in FOUND:
        return None
    best = read(solver)
    slack = terms.rounding_slack()
    if not slack:
        return best
    scaled = round(solver.objective_value)
    low, high = (scaled - slack + 1, scaled) if maximise else (scaled, scaled + slack - 1)
    if terms.product and not terms.rival_possible(
        terms.level_counts(solver), low, high, maximise, runner.budget
    ):
        return best
    model.add(objective >= low)
    model.add(objective <= high)
    terms.exclude(solver)
    while not runner.budget.expired():
        solver, status = runner.run(model)
        if status not in FOUND:
            break
        rival = read(solver)
        if (rival.value > best.value) == maximise and rival.value != best.value:
            best = rival
        terms.exclude(solver)
    else:
        runner.proven = False
    return best
