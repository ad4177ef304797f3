"""The words about results: changes between two lines, why the best beats the runner-up.

One home for these sentences: the readable output, the ``why`` of ``--json`` and the Explain
walkthrough all take them from here (an objective's own words are its own:
:mod:`.objectives`).

>>> describe_changes({"A": ["d1", "h1"], "B": ["d2"]}, {"A": ["d1"], "B": ["d2", "h1"]})
'h1 in B instead of A'
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from allocator.core.text import odds_text
from allocator.games.crossfire.answers import CombatAnswer, FightAnswer, RoundAnswer
from allocator.games.crossfire.objectives import Objective

if TYPE_CHECKING:
    from allocator.games.crossfire.search.solve import SolveOutcome

NOT_PROVEN = "best found, not proven optimal (the time limit stopped the search)"


def describe_changes(best: dict[str, list[str]], other: dict[str, list[str]]) -> str:
    where_best = {s: n for n, ids in best.items() for s in ids}
    where_other = {s: n for n, ids in other.items() for s in ids}
    moves = [
        f"{s} in {where_other.get(s, 'no combat')} instead of {where_best.get(s, 'no combat')}"
        for s in sorted(set(where_best) | set(where_other))
        if where_best.get(s) != where_other.get(s)
    ]
    return "; ".join(moves[:4]) + ("; ..." if len(moves) > 4 else "") or "a symmetric split"


#: What the value of a time-limited whole fight is.
AT_LEAST = (
    "for the whole fight the value is what this line gives the attacker at least (the states "
    "of the fight not searched in time counted as held, or, when even that was not worked out "
    "in time, what its first round alone gives)"
)


def not_proven_note(bounds: tuple[Fraction, Fraction] | None, objective: Objective) -> str:
    """What a time-limited answer is, and what it depends on."""
    note = f"{NOT_PROVEN}; another machine, or a longer limit, may find a different line"
    if not objective.one_round:
        note += f"; {AT_LEAST}"
    if bounds is not None:
        low, high = bounds
        note += (
            f"; the optimum lies between {objective.value_text(low)} and "
            f"{objective.value_text(high)}"
        )
    return note


def why(outcome: SolveOutcome) -> str:
    """Why this line is chosen: against the runner-up, and for the whole fight against the
    one-round best."""
    side, objective, line = outcome.side, outcome.objective, outcome.line
    value = objective.describe(line.value)
    runner = outcome.choices.runner_up
    if not outcome.proven:
        at_least = "" if objective.one_round else "at least "
        sentence = (
            f"Best found for the {side}, not proven optimal (the time limit stopped the "
            f"search): {at_least}{value}."
        )
    elif runner is None and not outcome.choices.complete:
        sentence = (
            f"Best for the {side}: {value}; the other choices were not all valued, so no "
            "runner-up is named."
        )
    elif runner is None:
        sentence = (
            f"Best for the {side}: {value}; every other choice is as good."
            if outcome.choices.alternatives
            else f"This is the only distinct choice for the {side}: {value}."
        )
    else:
        part = "combats" if side == "defender" else "attack"
        changes = describe_changes(getattr(line, part), getattr(runner, part))
        other = objective.describe(runner.value)
        sentence = f"Best for the {side}: {value}; the runner-up ({changes}) gives {other}."
    if outcome.one_round is not None and outcome.proven:
        if outcome.one_round == line.value:
            sentence += " The same split is also the best for the first round alone."
        else:
            sentence += (
                " The split that is best for the first round alone would give "
                f"{objective.describe(outcome.one_round)} "
                f"({objective.gap(outcome.one_round - line.value)} for the attacker)."
            )
    return sentence


def parts_text(parts: list[tuple[str, int]]) -> str:
    """What makes up a total: ``d1 squad +1, h1 weapon +1, h1 crew -2``."""
    return ", ".join(f"{what} {value:+d}" for what, value in parts) or "nothing"


def combat_sentence(combat: CombatAnswer) -> str:
    """One combat's totals, their parts and the odds, in a sentence."""
    decided = f" - {combat.decided}" if combat.decided else ""
    return (
        f"Combat {combat.name}: the attacker's {combat.attacker_total} "
        f"({parts_text(combat.attacker_parts)}) against the defender's {combat.defender_total} "
        f"({parts_text(combat.defender_parts)}); the attacker wins with probability "
        f"{odds_text(combat.p_attacker_wins_exact)}{decided}."
    )


def round_sentence(odds: RoundAnswer) -> str:
    return (
        f"The attacker wins every combat with probability {odds_text(odds.sweep.exact)}; the "
        "loser of each combat loses all its stands there, and if both sides survive the "
        "procedure runs again from step 1 (7b)."
    )


def fight_sentence(fight: FightAnswer) -> str:
    """The whole fight in a sentence: the chance of taking the building, its length, the losses."""
    taken, held = fight.p_attacker_takes, fight.p_defender_holds
    rounds, lost = fight.expected_rounds, fight.expected_stands_lost
    if taken is None or held is None or rounds is None or lost is None:  # cut short
        low, high = fight.bounds or (Fraction(0), Fraction(1))
        return (
            "Over the whole fight the chance that the attacker takes the building lies between "
            f"{odds_text(low)} and {odds_text(high)} (the search was stopped by the time limit)."
        )
    return (
        f"Over the whole fight, both sides playing every round at their best, the attacker takes "
        f"the building with probability {odds_text(taken)} and the defender "
        f"holds it with {odds_text(held)}; the fight lasts "
        f"{rounds:.2f} rounds on average, and the attacker loses "
        f"{lost['attacker']:.2f} stands, the defender {lost['defender']:.2f}."
    )


def fight_now_sentence(fight: FightAnswer, round_: int) -> str:
    """The whole fight from a later round on: ``From round 2 on the attacker now takes the
    building with probability 5/7 (71.4%), both sides at their best.``"""
    taken = fight.p_attacker_takes
    if taken is None:  # cut short
        low, high = fight.bounds or (Fraction(0), Fraction(1))
        return (
            f"From round {round_} on the chance that the attacker takes the building lies "
            f"between {odds_text(low)} and {odds_text(high)} (the search was stopped by the "
            "time limit)."
        )
    return (
        f"From round {round_} on the attacker now takes the building with probability "
        f"{odds_text(taken)}, both sides at their best."
    )
