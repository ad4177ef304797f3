"""The whole fight of a fight objective's solve (``take``) as its typed answer, for ``solve``
and ``explain`` alike.

Both the answer of a solve (:mod:`.service`) and the walkthrough of the optimal line
(:mod:`.explain`) report the whole fight the search found, so it is built here, below both.

>>> from allocator.core.library import folder
>>> from allocator.games.crossfire.battle import load_battle
>>> from allocator.games.crossfire.objectives import objective_named
>>> from allocator.games.crossfire.search.solve import solve
>>> battle = load_battle(folder("scenarios") / "guide-5-squads-v-2-four-and-one.yaml")
>>> take = objective_named("take")
>>> fight = fight_answer(solve(battle.with_allocation(None), "defender", take))
>>> fight.p_attacker_takes is not None and fight.p_attacker_takes + fight.p_defender_holds == 1
True
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from allocator.core.exact import ExactValue
from allocator.games.crossfire.answers import FightAnswer, FightOutcome

if TYPE_CHECKING:
    from allocator.games.crossfire.search.solve import SolveOutcome


def fight_answer(outcome: SolveOutcome) -> FightAnswer:
    """The whole fight of a fight objective's solve (what is known of it when the search was cut
    short)."""
    fight = outcome.fight
    one_round = None if outcome.one_round is None else ExactValue.of(outcome.one_round)
    if fight is None:
        return FightAnswer(
            states=outcome.searched,
            bounds=outcome.bounds or (Fraction(0), Fraction(1)),
            one_round=one_round,
        )
    return FightAnswer(
        p_attacker_takes=fight.p_attacker_takes,
        p_defender_holds=1 - fight.p_attacker_takes,
        expected_rounds=float(fight.expected_rounds),
        expected_stands_lost={side: float(v) for side, v in fight.expected_lost.items()},
        outcomes=[
            FightOutcome(attacker_left=a, defender_left=d, p=p)
            for (a, d), p in fight.outcomes.items()
        ],
        states=fight.states,
        bounds=outcome.bounds,
        one_round=one_round,
    )
