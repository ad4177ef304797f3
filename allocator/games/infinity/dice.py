"""Infinity dice: Normal and Face to Face rolls, exact, with extra dice that are discarded (+1 SD).

A die rolls a *value*: 0 is a failure, 1-19 a success of that value, 20 a critical
(:func:`roll_value`). Who wins a Face to Face roll depends only on each side's criticals, on the
loser's best non-critical success and on how many of the winner's successes beat it, so the
exact odds come from counting faces, not from enumerating the 20^(a+b) rolls.

A side with *special dice* (+1 SD) rolls that many more dice and discards as many once both
sides have rolled. Keeping its highest dice is never worse for it, whatever the other side
keeps: the discard never lowers its best die (which cancels the other side) and keeps its most
successes, so the discard is always its lowest dice and the order of choosing does not matter.

>>> odds = face_to_face(12, 1, 12, 1)
>>> odds.neither, odds.active_wins == odds.reactive_wins
(Fraction(19, 100), True)
>>> face_to_face(12, 1, 12, 1, active_extra=1).active_wins  # +1 SD for the active trooper
Fraction(2411, 4000)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import comb

from allocator.games.infinity.details import Side

FACES = 20
CRITICAL = 20
SIDES: tuple[Side, Side] = ("active", "reactive")

Survivors = tuple[int, int]
"""The winner's surviving successes: (criticals, non-critical successes)."""


def roll_value(roll: int, success_value: int) -> int:
    """The value of one d20 ``roll``: 0 failure, 1-19 success, 20 critical.

    Up to SV 20 a roll succeeds when at most SV and is a critical when equal to it. Above 20,
    SV-20 is added to the roll, which always succeeds and is a critical once it reaches 20.

    >>> [roll_value(r, 12) for r in (1, 11, 12, 13)], [roll_value(r, 23) for r in (1, 16, 17, 20)]
    ([1, 11, 20, 0], [4, 19, 20, 20])
    """
    if success_value > FACES:
        return min(roll + success_value - FACES, CRITICAL)
    if roll == success_value:
        return CRITICAL
    return roll if roll < success_value else 0


@dataclass(frozen=True)
class DieFaces:
    """How many of the 20 faces give each value at one success value (index 0: failures).

    >>> faces = DieFaces.at(12)
    >>> faces.count[0], faces.count[5], faces.count[CRITICAL], faces.successes
    (8, 1, 1, 12)
    """

    count: tuple[int, ...]

    @classmethod
    @cache
    def at(cls, success_value: int) -> DieFaces:
        tally = Counter(roll_value(roll, success_value) for roll in range(1, FACES + 1))
        return cls(tuple(tally[value] for value in range(CRITICAL + 1)))

    @property
    def successes(self) -> int:
        return FACES - self.count[0]

    def plain_above(self, value: int) -> int:
        """Faces giving a non-critical success of more than ``value``."""
        return sum(self.count[value + 1 : CRITICAL])

    def no_critical_at_most(self, value: int) -> int:
        """Faces that fail or give a non-critical success of at most ``value``."""
        return sum(self.count[: value + 1])


def _kept(criticals: int, above: int, others: int, discarded: int) -> Survivors:
    """What survives of a side's dice once its ``discarded`` lowest are dropped: the others
    (failures and successes the foe cancels) go first, then successes, then criticals."""
    drop_others = min(discarded, others)
    drop_above = min(discarded - drop_others, above)
    return criticals - (discarded - drop_others - drop_above), above - drop_above


@cache
def _winning_rolls(
    winner_sv: int, winner_dice: int, winner_discards: int, loser_sv: int, loser_dice: int
) -> dict[Survivors, int]:
    """Of the 20^(a+b) rolls, how many the winner wins with each survivor count.

    The loser may have no critical; conditioning on its best non-critical success ``best``
    (0: none), the winner keeps every critical and every success above ``best``, and wins when
    it keeps any. Multinomial counts over (critical, above best, the rest) faces do the rest.
    The loser's discarded dice never matter: its best die and its criticals stay.
    """
    winner, loser = DieFaces.at(winner_sv), DieFaces.at(loser_sv)
    counts: dict[Survivors, int] = Counter()
    fewer = 0
    for best in range(CRITICAL):
        at_most = loser.no_critical_at_most(best) ** loser_dice
        loser_ways, fewer = at_most - fewer, at_most
        if loser_ways == 0:
            continue
        crit, high = winner.count[CRITICAL], winner.plain_above(best)
        rest = FACES - crit - high
        for crits in range(winner_dice + 1):
            for plain in range(winner_dice - crits + 1):
                others = winner_dice - crits - plain
                kept = _kept(crits, plain, others, winner_discards)
                if kept == (0, 0):
                    continue
                ways = (
                    comb(winner_dice, crits)
                    * comb(winner_dice - crits, plain)
                    * crit**crits
                    * high**plain
                    * rest**others
                )
                if ways:
                    counts[kept] += loser_ways * ways
    return dict(counts)


@dataclass(frozen=True)
class RollCounts:
    """Integer counts of equally likely rolls: how often each side keeps each survivor count.

    In a Face to Face roll at most one side keeps any, and both sides' counts are out of the
    same 20^(a+b) rolls; in simultaneous Normal Rolls (``independent``) each side's counts are
    out of its own 20^dice rolls.
    """

    active: dict[Survivors, int]
    reactive: dict[Survivors, int]
    active_total: int
    reactive_total: int
    independent: bool = False

    def of(self, side: Side) -> dict[Survivors, int]:
        return self.active if side == "active" else self.reactive

    def total(self, side: Side) -> int:
        return self.active_total if side == "active" else self.reactive_total


def roll_counts(
    active_sv: int,
    active_burst: int,
    reactive_sv: int,
    reactive_burst: int,
    *,
    active_extra: int = 0,
    reactive_extra: int = 0,
    normal_rolls: bool = False,
) -> RollCounts:
    """The integer counts of a Face to Face roll, or of two Normal Rolls (``normal_rolls``).

    Parameters
    ----------
    active_sv, reactive_sv : int
        Each side's success value.
    active_burst, reactive_burst : int
        The dice each side keeps (0: it does not roll).
    active_extra, reactive_extra : int
        Special dice rolled beside the Burst, the lowest as many discarded (+1 SD).
    normal_rolls : bool
        Two Normal Rolls (Berserk in N4): neither side cancels the other.

    Returns
    -------
    RollCounts
        How many of the equally likely rolls leave each side each (criticals, successes).

    Examples
    --------
    >>> roll_counts(15, 1, 0, 0).active
    {(0, 1): 14, (1, 0): 1}
    """
    active_dice = active_burst + active_extra if active_burst else 0
    reactive_dice = reactive_burst + reactive_extra if reactive_burst else 0
    active_discards, reactive_discards = active_dice - active_burst, reactive_dice - reactive_burst
    if normal_rolls:
        return RollCounts(
            _winning_rolls(active_sv, active_dice, active_discards, 0, 0),
            _winning_rolls(reactive_sv, reactive_dice, reactive_discards, 0, 0),
            FACES**active_dice,
            FACES**reactive_dice,
            independent=True,
        )
    total = FACES ** (active_dice + reactive_dice)
    return RollCounts(
        _winning_rolls(active_sv, active_dice, active_discards, reactive_sv, reactive_dice),
        _winning_rolls(reactive_sv, reactive_dice, reactive_discards, active_sv, active_dice),
        total,
        total,
    )


@dataclass(frozen=True)
class FaceToFaceOdds:
    """The exact result of a Face to Face roll (Burst 0 on one side: the other's Normal Roll)."""

    active: dict[Survivors, Fraction]
    reactive: dict[Survivors, Fraction]

    @property
    def active_wins(self) -> Fraction:
        return sum(self.active.values(), Fraction(0))

    @property
    def reactive_wins(self) -> Fraction:
        return sum(self.reactive.values(), Fraction(0))

    @property
    def neither(self) -> Fraction:
        return 1 - self.active_wins - self.reactive_wins

    def survivors(self, side: Side) -> dict[Survivors, Fraction]:
        return self.active if side == "active" else self.reactive


def odds_of(counts: RollCounts) -> FaceToFaceOdds:
    """The counts as exact probabilities (each side's own, for independent Normal Rolls).

    >>> odds_of(roll_counts(15, 1, 0, 0)).active
    {(0, 1): Fraction(7, 10), (1, 0): Fraction(1, 20)}
    """

    def share(side: Side) -> dict[Survivors, Fraction]:
        total = counts.total(side)
        return {key: Fraction(n, total) for key, n in sorted(counts.of(side).items())}

    return FaceToFaceOdds(active=share("active"), reactive=share("reactive"))


def face_to_face(
    active_sv: int,
    active_burst: int,
    reactive_sv: int,
    reactive_burst: int,
    *,
    active_extra: int = 0,
    reactive_extra: int = 0,
) -> FaceToFaceOdds:
    """Exact Face to Face odds from integer counts over the 20^(a+b) rolls.

    >>> face_to_face(15, 1, 0, 0).active_wins  # a Normal Roll at SV 15
    Fraction(3, 4)
    """
    return odds_of(
        roll_counts(
            active_sv,
            active_burst,
            reactive_sv,
            reactive_burst,
            active_extra=active_extra,
            reactive_extra=reactive_extra,
        )
    )
