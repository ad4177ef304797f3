"""The deciding side's other choices: how many reach the optimum, and the best that does not.

For the defender every grouping is valued, so both are exact. For the attacker the answers of
equal value are enumerated within a fixed deterministic CP-SAT budget (so that the count does not
depend on the machine's load); ``complete`` says whether the enumeration finished.
"""

from __future__ import annotations

from allocator.core.cpsat import cp_model
from allocator.games.crossfire.model import ATTACK
from allocator.games.crossfire.search.lines import Choices, Combats, Line
from allocator.games.crossfire.search.runner import FOUND, SIDE_SEARCH_BUDGET, Collector
from allocator.games.crossfire.search.stages import Stages

ALTERNATIVES_CAP = 1000


def defender_choices(results: list[Line], best: Line, proven: bool) -> Choices:
    """The defender's other choices, from the value of every grouping searched.

    Parameters
    ----------
    results
        The best line against each grouping searched.
    best
        The line chosen (the lowest value).
    proven
        Whether every grouping was searched.

    Returns
    -------
    Choices
        How many other groupings reach ``best.value`` and the best one that does not.
    """
    same = sum(1 for line in results if line.value == best.value) - 1
    worse = [line for line in results if line.value > best.value]
    return Choices(same, proven, min(worse, key=lambda line: line.value, default=None))


def attacker_choices(stages: Stages, combats: Combats, best: Line) -> Choices:
    """The attacker's other choices against ``combats``.

    Parameters
    ----------
    stages
        The round's models and runner.
    combats
        The defender's grouping the attacks answer.
    best
        The attack chosen.

    Returns
    -------
    Choices
        How many other attacks reach ``best.value`` (enumerated within a fixed deterministic
        CP-SAT budget; ``complete`` says whether the count is whole) and the best attack that
        does not.
    """
    runner = stages.runner
    rules, names, terms = stages.covering_attack(combats)
    objective = terms.objective_expr()
    rules.model.maximize(objective)
    linear = terms.linear
    solver, status = runner.run(rules.model, linear=linear, side_budget=SIDE_SEARCH_BUDGET)
    lines: list[Line] = []
    complete = status == cp_model.OPTIMAL
    if status in FOUND:
        top = round(solver.objective_value)
        slack = terms.rounding_slack()
        window = rules.model.clone()
        window.clear_objective()  # type: ignore[no-untyped-call]  # OR-Tools leaves it unannotated
        window.add(objective >= top - slack)
        collector = Collector(stages.attack_reader(rules), cap=ALTERNATIVES_CAP)
        _, status = runner.run(
            window, collector, enumerate_all=True, side_budget=SIDE_SEARCH_BUDGET
        )
        complete = complete and status == cp_model.OPTIMAL
        for attack in stages.read_attacks(rules, names, collector.found):
            lines.append(Line(combats, attack, {}, stages.evaluate(combats, attack, {})))
        below = rules.model
        below.add(objective <= top - slack - 1)
        solver, status = runner.run(below, linear=linear, side_budget=SIDE_SEARCH_BUDGET)
        if status in FOUND:
            attack = rules.read(solver, names, ATTACK).attack or {}
            lines.append(Line(combats, attack, {}, stages.evaluate(combats, attack, {})))
    answers = (stages.defender_reallocation(combats, a) for a in stages.uncovering_attacks(combats))
    lines += [line for line in answers if line is not None]
    same = sum(1 for line in lines if line.value == best.value and line.attack != best.attack)
    worse = [line for line in lines if line.value < best.value]
    return Choices(same, complete, max(worse, key=lambda line: line.value, default=None))
