"""Wound states: unhurt, wounded, Unconscious, Dead, over one order and over several.

A trooper with W/VITA (or STR) ``vita`` that has ``taken`` wounds is wounded below ``vita``
wounds, Unconscious at ``vita`` (or fights on with No Wound Incapacitation or Dogged) and Dead
above. One order of the exchange adds wounds (:func:`harm`: from the failed saves, each worth
the ammunition's wounds; a Shock or Monofilament failure kills outright; an effect ammunition
puts it in a state such as Isolated). The orders are repeated while both troopers are still in
the fight; the chance of each result within k orders is read off the chain of states.

>>> from fractions import Fraction
>>> target = Target(vita=2, structure=False, taken=0, fights_on=None)
>>> chain = orders_chain({"active": None, "reactive": target},
...     {(0, 0): Fraction(1, 2), (0, 1): Fraction(1, 2)}, orders=2)
>>> [outcome(chain[k], "reactive", target).out_of_the_fight for k in (0, 1)]
[Fraction(0, 1), Fraction(1, 4)]
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from allocator.games.infinity.details import Side
from allocator.games.infinity.saves import Tally

#: The increment (or state) of a trooper an effect ammunition has hit.
AFFECTED = -1
Joint = dict[tuple[int, int], Fraction]
Consequence = Literal["wounds", "kills", "effect"]


@dataclass(frozen=True)
class Target:
    """A trooper as a target: its W/VITA or STR, the wounds it has, what keeps it fighting."""

    vita: int
    structure: bool
    taken: int
    fights_on: str | None

    @property
    def dead_at(self) -> int:
        return self.vita + 1

    def fights(self, state: int) -> bool:
        """Still in the fight at ``state`` wounds (or affected)."""
        if state == AFFECTED or state >= self.dead_at:
            return False
        return state < self.vita or self.fights_on is not None


def failures_needed(target: Target, wounds_per_failure: int, consequence: Consequence) -> int:
    """How many failed saves the states need counted one by one (more: Dead or affected)."""
    if consequence != "wounds":
        return 1
    return -(-target.dead_at // wounds_per_failure)


def harm(
    tally: Tally, wounds_per_failure: int, consequence: Consequence, target: Target
) -> dict[int, Fraction]:
    """One order's increment of the target's wounds (capped at Dead), or :data:`AFFECTED`.

    >>> harm(Tally((2, 1, 1), 4), 2, "wounds", Target(1, False, 0, None))
    {0: Fraction(1, 2), 2: Fraction(1, 2)}
    """
    increments: defaultdict[int, Fraction] = defaultdict(Fraction)
    for failures, chance in enumerate(tally.chances()):
        if not chance:
            continue
        if not failures:
            increments[0] += chance
        elif consequence == "effect":
            increments[AFFECTED] += chance
        elif consequence == "kills":
            increments[target.dead_at] += chance
        else:
            increments[min(failures * wounds_per_failure, target.dead_at)] += chance
    return dict(increments)


def joint_order(
    on_active: dict[int, Fraction], on_reactive: dict[int, Fraction], independent: bool
) -> Joint:
    """What one order does to both: in a Face to Face roll at most one side is harmed; in two
    Normal Rolls both may be.

    >>> joint_order({0: Fraction(1)}, {0: Fraction(1, 2), 1: Fraction(1, 2)}, False)
    {(0, 1): Fraction(1, 2), (0, 0): Fraction(1, 2)}
    """
    joint: Joint = {}
    if independent:
        for a, p in on_active.items():
            for r, q in on_reactive.items():
                joint[a, r] = p * q
        return joint
    for r, q in on_reactive.items():
        if r:
            joint[0, r] = q
    for a, p in on_active.items():
        if a:
            joint[a, 0] = p
    joint[0, 0] = 1 - sum(joint.values(), Fraction(0))
    return joint


def _after(target: Target | None, state: int, increment: int) -> int:
    if target is None:
        return 0
    if AFFECTED in (state, increment):
        return AFFECTED
    return min(state + increment, target.dead_at)


def orders_chain(
    targets: dict[Side, Target | None], joint: Joint, orders: int
) -> list[dict[tuple[int, int], Fraction]]:
    """The joint states after 1 .. ``orders`` orders (a side without a target stays at 0).

    The first order is always rolled; later ones only while both troopers fight on.
    """
    active, reactive = targets["active"], targets["reactive"]
    start = (active.taken if active else 0, reactive.taken if reactive else 0)
    states: dict[tuple[int, int], Fraction] = {start: Fraction(1)}
    chain = []
    for number in range(orders):
        following: defaultdict[tuple[int, int], Fraction] = defaultdict(Fraction)
        for (a, r), chance in states.items():
            fighting = (active is None or active.fights(a)) and (
                reactive is None or reactive.fights(r)
            )
            if number and not fighting:
                following[a, r] += chance
                continue
            for (to_a, to_r), p in joint.items():
                following[_after(active, a, to_a), _after(reactive, r, to_r)] += chance * p
        states = dict(following)
        chain.append(states)
    return chain


@dataclass(frozen=True)
class Outcome:
    """One trooper's results in one distribution of joint states."""

    states: dict[int, Fraction]
    wounded: Fraction
    out_of_the_fight: Fraction
    dead: Fraction
    expected_wounds: Fraction


def outcome(joint_states: dict[tuple[int, int], Fraction], side: Side, target: Target) -> Outcome:
    """The trooper's own states, and its chances, from the joint states."""
    index = 0 if side == "active" else 1
    own: defaultdict[int, Fraction] = defaultdict(Fraction)
    for states, chance in joint_states.items():
        own[states[index]] += chance
    wounded = sum((p for s, p in own.items() if s != target.taken), Fraction(0))
    out = sum((p for s, p in own.items() if not target.fights(s)), Fraction(0))
    dead = own.get(target.dead_at, Fraction(0))
    expected = sum((p * (s - target.taken) for s, p in own.items() if s != AFFECTED), Fraction(0))
    return Outcome(dict(sorted(own.items())), wounded, out, dead, expected)
