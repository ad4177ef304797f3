"""Bench: our exact Infinity close combat against icepool's evaluation of the same rolls.

Run ``python bench/bench_infinity.py`` (icepool comes with ``pip install -e .[bench]``). It
prints, each measured in this process:

* the Face to Face roll at Burst 6 v 6 and 8 v 8, ours beside icepool's multiset evaluator,
  with the ratio (goal: at least 3x faster at 6 v 6);
* the N5 roll with +1 SD on both sides (icepool: keep-highest pools), and a whole N5 exchange
  with saves (icepool: the roll, then each outcome's saves as dice), with the ratios;
* a whole exchange at Burst 12 v 12 with every skill of each ruleset and each ammunition,
  Continuous Damage or not, wound states over five orders included: the slowest of them
  against the goal of 50 ms, and its ratio to our Face to Face roll alone.

Every comparison checks that both give exactly the same answer.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from allocator.games.answer import resolve_answer
from allocator.games.infinity.calculator import close_combat
from allocator.games.infinity.dice import CRITICAL, _winning_rolls, face_to_face, roll_value
from allocator.games.infinity.profile import default_profile

SUCCESS_VALUES = (14, 13)
"""The two sides' SV in every case: a common close-combat pairing."""
GOAL_MS = 50


def ours(active_burst: int, reactive_burst: int, extra: int = 0) -> tuple[Fraction, Fraction]:
    """(P active wins, P reactive wins), from a cold cache."""
    _winning_rolls.cache_clear()
    odds = face_to_face(
        SUCCESS_VALUES[0],
        active_burst,
        SUCCESS_VALUES[1],
        reactive_burst,
        active_extra=extra,
        reactive_extra=extra,
    )
    return odds.active_wins, odds.reactive_wins


def _icepool_outcomes(active_burst: int, reactive_burst: int, extra: int) -> Any:
    """icepool's (active crits, hits, reactive crits, hits) after cancelling, keep-highest."""
    import icepool
    from icepool.order import Order, UnsupportedOrder

    class FaceToFace(icepool.MultisetEvaluator):
        def next_state(self, state: Any, order: Order, outcome: int, mine: int, theirs: int):
            if order != Order.Ascending:
                raise UnsupportedOrder()
            my_crit, my_hits, their_crit, their_hits = state or (0, 0, 0, 0)
            if outcome == CRITICAL:
                my_crit, their_crit = my_crit + mine, their_crit + theirs
                if mine:
                    their_hits = 0
                if theirs:
                    my_hits = 0
                if mine and theirs:
                    my_crit = their_crit = 0
            elif outcome > 0:
                my_hits, their_hits = my_hits + mine, their_hits + theirs
                if mine:
                    their_hits = 0
                if theirs:
                    my_hits = 0
            return my_crit, my_hits, their_crit, their_hits

    active = icepool.d20.map(lambda roll: roll_value(roll, SUCCESS_VALUES[0]))
    reactive = icepool.d20.map(lambda roll: roll_value(roll, SUCCESS_VALUES[1]))
    return FaceToFace().evaluate(
        active.pool(active_burst + extra).highest(active_burst),
        reactive.pool(reactive_burst + extra).highest(reactive_burst),
    )


def icepool_face_to_face(
    active_burst: int, reactive_burst: int, extra: int = 0
) -> tuple[Fraction, Fraction]:
    """The same roll with icepool's multiset evaluator, sweeping the faces in ascending order."""
    result = _icepool_outcomes(active_burst, reactive_burst, extra)
    total = result.denominator()
    active_wins = sum(n for (c, h, _, _), n in result.items() if c + h)
    reactive_wins = sum(n for (_, _, c, h), n in result.items() if c + h)
    return Fraction(active_wins, total), Fraction(reactive_wins, total)


#: The N5 exchange both compute: PS 8 against ARM 3 (saves pass on 11 or less), DA, +1 SD.
N5_SAVE, N5_SAVES_PER_HIT = 11, 2


def ours_n5_wounds(active_burst: int, reactive_burst: int) -> dict[int, Fraction]:
    """Our wounds on the reactive trooper in the N5 exchange (+1 SD on both sides)."""
    _winning_rolls.cache_clear()
    answer = resolve_answer(
        close_combat(
            {
                "attribute": SUCCESS_VALUES[0] - 3,
                "burst": active_burst,
                "ps": 8,
                "ammunition": "DA",
                "skills": {"martial_arts": 3},
            },
            {
                "attribute": SUCCESS_VALUES[1] + 3,
                "burst": reactive_burst,
                "armour": 3,
                "skills": {"special_die": True},
            },
            rules="n5",
        )
    )
    assert answer.details is not None and answer.details.rules == "n5"
    (wounds,) = answer.details.wounds
    return {row.wounds: row.exactly.exact for row in wounds.counts}


def icepool_n5_wounds(active_burst: int, reactive_burst: int) -> dict[int, Fraction]:
    """The same with icepool: the keep-highest roll, then each outcome's saves as dice."""
    import icepool

    outcomes = _icepool_outcomes(active_burst, reactive_burst, 1)
    failed = icepool.d20 > N5_SAVE
    mixture: dict[int, Fraction] = {}
    total = outcomes.denominator()
    for (crits, hits, _, _), n in outcomes.items():
        saves = (crits + hits) * N5_SAVES_PER_HIT + crits
        die = saves @ failed if saves else icepool.Die([0])
        for wounds, ways in die.items():
            mixture[wounds] = mixture.get(wounds, Fraction(0)) + Fraction(n, total) * Fraction(
                ways, die.denominator()
            )
    return {k: p for k, p in sorted(mixture.items()) if p}


def seconds(run: Callable[..., Any], *args: int) -> tuple[float, Any]:
    """Best of three wall-clock times of ``run(*args)`` (``run(b, b)`` for one number), and
    its answer."""
    if len(args) == 1:
        args = (args[0], args[0])
    best, answer = float("inf"), None
    for _ in range(3):
        start = time.perf_counter()
        answer = run(*args)
        best = min(best, time.perf_counter() - start)
    return best, answer


def _fighter(rules: str, ammunition: str, continuous: bool, skills: dict[str, Any]) -> dict:
    side: dict[str, Any] = {
        "attribute": 16,
        "burst": 12,
        "ammunition": ammunition,
        "traits": ["continuous"] if continuous else [],
        "armour": 3,
        "bts": 3,
        "vita": 3,
        "type": "HI",
        "skills": skills,
    }
    side["damage" if rules == "n4" else "ps"] = 15 if rules == "n4" else 7
    return side


#: Every skill of each ruleset, shared between the two troopers.
SKILLS = {
    "n4": (
        {"martial_arts": 5, "natural_born_warrior": "B", "guard": 3},
        {"i_kohl": 2, "protheion": 4, "no_wound_incapacitation": True, "immunity": ["shock"]},
    ),
    "n5": (
        {"martial_arts": 5, "natural_born_warrior": True, "guard": True},
        {"martial_arts": 4, "special_die": True, "dogged": True, "immunity": ["critical"]},
    ),
}


def whole_exchange(rules: str, ammunition: str, continuous: bool) -> Any:
    """One 12 v 12 exchange with every skill of ``rules``, from a cold cache."""
    _winning_rolls.cache_clear()
    active_skills, reactive_skills = SKILLS[rules]
    return resolve_answer(
        close_combat(
            _fighter(rules, ammunition, continuous, active_skills),
            _fighter(rules, "DA", continuous, reactive_skills),
            rules=rules,  # type: ignore[arg-type]
        )
    )


def main() -> None:
    try:
        import icepool  # noqa: F401
    except ImportError:
        icepool_available = False
        print("icepool is not installed (pip install -e .[bench]): timing ours only")
    else:
        icepool_available = True
    print(f"Infinity Face to Face, SV {SUCCESS_VALUES[0]} v {SUCCESS_VALUES[1]}, exact")
    comparisons: list[tuple[str, Callable[..., Any], Callable[..., Any], tuple[int, ...]]] = [
        ("B6 v B6", ours, icepool_face_to_face, (6, 6)),
        ("B8 v B8", ours, icepool_face_to_face, (8, 8)),
        ("N5 B5+1SD v B5+1SD", ours, icepool_face_to_face, (5, 5, 1)),
        ("N5 B4+1SD v B4+1SD, DA saves", ours_n5_wounds, icepool_n5_wounds, (4, 4)),
    ]
    for label, mine, theirs, args in comparisons:
        our_time, our_answer = seconds(mine, *args)
        line = f"{label:30}: ours {our_time * 1000:8.2f} ms"
        if icepool_available:
            their_time, their_answer = seconds(theirs, *args)
            same = "same answer" if their_answer == our_answer else "DIFFERENT ANSWER"
            line += (
                f", icepool {their_time * 1000:8.2f} ms, ours is {their_time / our_time:6.1f}x"
                f" faster ({same})"
            )
        print(line)
    roll_time, _ = seconds(ours, 13, 13, 1)
    for rules in ("n4", "n5"):
        slowest, which = 0.0, ""
        for ammunition in default_profile(rules).ammunition:  # type: ignore[arg-type]
            for continuous in (False, True):
                elapsed, _ = seconds(whole_exchange, rules, ammunition, continuous)  # type: ignore[arg-type]
                if elapsed > slowest:
                    slowest, which = elapsed, ammunition + (" continuous" if continuous else "")
        verdict = "within" if slowest * 1000 <= GOAL_MS else "OVER"
        print(
            f"{rules} B12 v B12, every skill, each ammunition: slowest {slowest * 1000:6.2f} ms"
            f" ({which}), {verdict} the {GOAL_MS} ms goal; {slowest / roll_time:4.1f}x our"
            " Face to Face roll alone"
        )


if __name__ == "__main__":
    main()
