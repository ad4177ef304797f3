"""Bench: our exact Infinity Face to Face against icepool's evaluation of the same roll.

Run ``python bench/bench_infinity.py`` (icepool comes with ``pip install -e .[bench]``). It times
Burst 6 v 6 and 8 v 8 with both, checks that both give exactly the same answer, prints the
ratio, and times 12 v 12 with ours alone. Goal: at least 3x faster than icepool at 6 v 6, any
burst up to 12 v 12 under 1 s.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from allocator.games.infinity.dice import CRITICAL, _winning_rolls, face_to_face, roll_value

SUCCESS_VALUES = (14, 13)
"""The two sides' SV in every case: a common close-combat pairing."""


def ours(active_burst: int, reactive_burst: int) -> tuple[Fraction, Fraction]:
    """(P active wins, P reactive wins), from a cold cache."""
    _winning_rolls.cache_clear()
    odds = face_to_face(SUCCESS_VALUES[0], active_burst, SUCCESS_VALUES[1], reactive_burst)
    return odds.active_wins, odds.reactive_wins


def icepool_face_to_face(active_burst: int, reactive_burst: int) -> tuple[Fraction, Fraction]:
    """The same roll with icepool's multiset evaluator, sweeping the faces in ascending order."""
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
    result = FaceToFace().evaluate(active.pool(active_burst), reactive.pool(reactive_burst))
    total = result.denominator()
    active_wins = sum(n for (c, h, _, _), n in result.items() if c + h)
    reactive_wins = sum(n for (_, _, c, h), n in result.items() if c + h)
    return Fraction(active_wins, total), Fraction(reactive_wins, total)


def seconds(run: Callable[[int, int], tuple[Fraction, Fraction]], burst: int) -> tuple[float, Any]:
    """Best of three wall-clock times of ``run(burst, burst)``, and its answer."""
    best, answer = float("inf"), None
    for _ in range(3):
        start = time.perf_counter()
        answer = run(burst, burst)
        best = min(best, time.perf_counter() - start)
    return best, answer


def main() -> None:
    try:
        import icepool  # noqa: F401
    except ImportError:
        icepool_available = False
        print("icepool is not installed (pip install -e .[bench]): timing ours only")
    else:
        icepool_available = True
    print(f"Infinity Face to Face, SV {SUCCESS_VALUES[0]} v {SUCCESS_VALUES[1]}, exact")
    for burst in (6, 8):
        our_time, our_answer = seconds(ours, burst)
        line = f"B{burst} v B{burst}: ours {our_time * 1000:8.2f} ms"
        if icepool_available:
            their_time, their_answer = seconds(icepool_face_to_face, burst)
            same = "same answer" if their_answer == our_answer else "DIFFERENT ANSWER"
            line += (
                f", icepool {their_time * 1000:8.2f} ms, ours is {their_time / our_time:6.1f}x"
                f" faster ({same})"
            )
        print(line)
    our_time, (active, reactive) = seconds(ours, 12)
    print(
        f"B12 v B12: ours {our_time * 1000:8.2f} ms (active {float(active):.6f},"
        f" reactive {float(reactive):.6f})"
    )


if __name__ == "__main__":
    main()
