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
from math import lcm
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
    """How many failed saves the states need counted one by one (more: Dead or affected).

    >>> vita_2 = Target(2, False, 0, None)
    >>> [failures_needed(vita_2, *each) for each in ((1, "wounds"), (2, "wounds"), (1, "kills"))]
    [3, 2, 1]
    """
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


@dataclass(frozen=True)
class Weights:
    """Joint states with integer weights out of ``total`` (exact, and cheap to add up)."""

    counts: dict[tuple[int, int], int]
    total: int

    def chances(self) -> dict[tuple[int, int], Fraction]:
        return {state: Fraction(n, self.total) for state, n in self.counts.items()}


def orders_chain(targets: dict[Side, Target | None], joint: Joint, orders: int) -> list[Weights]:
    """The joint states after 1 .. ``orders`` orders (a side without a target stays at 0).

    Parameters
    ----------
    targets : dict of side to Target or None
        Each trooper as a target (none: its states are not followed).
    joint : dict of (wounds on active, wounds on reactive) to Fraction
        What one order does to both (:func:`joint_order`); -1 is :data:`AFFECTED`.
    orders : int
        How many orders.

    Returns
    -------
    list of Weights
        The joint states after each order. The first order is always rolled; later ones only
        while both troopers fight on.

    Examples
    --------
    >>> target = Target(vita=1, structure=False, taken=0, fights_on=None)
    >>> chain = orders_chain({"active": None, "reactive": target},
    ...     {(0, 0): Fraction(1, 2), (0, 1): Fraction(1, 2)}, orders=2)
    >>> [weights.chances()[0, 1] for weights in chain]  # Unconscious stays out of the fight
    [Fraction(1, 2), Fraction(3, 4)]
    """
    active, reactive = targets["active"], targets["reactive"]
    denominator = lcm(*(p.denominator for p in joint.values()))
    steps = {key: p.numerator * (denominator // p.denominator) for key, p in joint.items()}
    start = (active.taken if active else 0, reactive.taken if reactive else 0)
    states = Weights({start: 1}, 1)
    chain = []
    for number in range(orders):
        following: defaultdict[tuple[int, int], int] = defaultdict(int)
        for (a, r), weight in states.counts.items():
            fighting = (active is None or active.fights(a)) and (
                reactive is None or reactive.fights(r)
            )
            if number and not fighting:
                following[a, r] += weight * denominator
                continue
            for (to_a, to_r), step in steps.items():
                following[_after(active, a, to_a), _after(reactive, r, to_r)] += weight * step
        states = Weights(dict(following), states.total * denominator)
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


def outcome(joint_states: Weights, side: Side, target: Target) -> Outcome:
    """The trooper's own states, and its chances, from the joint states.

    >>> target = Target(vita=1, structure=False, taken=0, fights_on=None)
    >>> outcome(Weights({(0, 0): 1, (0, 2): 1}, 2), "reactive", target).dead
    Fraction(1, 2)
    """
    index = 0 if side == "active" else 1
    own: defaultdict[int, int] = defaultdict(int)
    for states, weight in joint_states.counts.items():
        own[states[index]] += weight
    total = joint_states.total
    wounded = sum(n for s, n in own.items() if s != target.taken)
    out = sum(n for s, n in own.items() if not target.fights(s))
    expected = sum(n * (s - target.taken) for s, n in own.items() if s != AFFECTED)
    return Outcome(
        {state: Fraction(n, total) for state, n in sorted(own.items())},
        Fraction(wounded, total),
        Fraction(out, total),
        Fraction(own.get(target.dead_at, 0), total),
        Fraction(expected, total),
    )
