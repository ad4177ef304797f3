"""Saving rolls: how many saves fail, exactly, given the hits that got through.

Each hit forces one save per entry of its ammunition's ``rolls`` and each critical a few more;
a save fails on ``fails_on`` faces of the d20 (N4: DAM - ARM; N5: above ARM + PS, see
:func:`fails_on`). A Continuous Damage save that fails is rolled again until it passes, so its
failures have no upper bound: counts are kept up to a ``cap`` and "cap or more" is one count.

Everything is counted in integers over a power of 20 (a :class:`Tally`) and turned into
fractions at the end; the saves of one kind are grouped, so the work grows with the number of
different survivor counts, not with the number of dice.

>>> tally = failed_saves({(0, 1): 1}, 2, [SaveRoll(10)], [SaveRoll(10)], cap=3)
>>> tally.chances()
[Fraction(3, 4), Fraction(1, 4), Fraction(0, 1), Fraction(0, 1)]
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import comb

from allocator.games.infinity.dice import FACES, Survivors

__all__ = [
    "SaveRoll",
    "Tally",
    "at_least",
    "expected_failures",
    "failed_saves",
    "fails_on",
    "save_failure",
    "wound_distribution",
]


def fails_on(save_rule: str, value: int, armour: int) -> int:
    """Faces of the d20 on which a save fails: N4 ``damage_minus_armour`` fails on a roll of at
    most DAM - ARM, N5 ``armour_plus_ps`` passes on a roll of at most ARM + PS.

    >>> fails_on("damage_minus_armour", 13, 3), fails_on("armour_plus_ps", 8, 3)
    (10, 9)
    """
    faces = value - armour if save_rule == "damage_minus_armour" else FACES - (armour + value)
    return min(max(faces, 0), FACES)


@dataclass(frozen=True)
class SaveRoll:
    """One save: the faces it fails on, and whether a failure is rolled again (Continuous)."""

    fails_on: int
    continuous: bool = False

    @property
    def failure(self) -> Fraction:
        return Fraction(self.fails_on, FACES)


@dataclass(frozen=True)
class Tally:
    """Counts of failed saves, ``counts[k]`` out of ``denominator`` for k = 0 .. cap, where the
    last count is "cap or more"."""

    counts: tuple[int, ...]
    denominator: int

    @property
    def cap(self) -> int:
        return len(self.counts) - 1

    def chances(self) -> list[Fraction]:
        return [Fraction(count, self.denominator) for count in self.counts]


def _times(first: Tally, second: Tally, cap: int) -> Tally:
    """The failures of two independent groups of saves, up to ``cap`` (either may be a sum of
    weighted tallies: the counts need not add up to the denominator).

    Long ones are multiplied as two big integers, each count in a slot wide enough that no sum
    of products reaches the next one (Kronecker substitution): one multiplication in C."""
    whole = sum(first.counts) * sum(second.counts)
    if cap <= 4:
        counts = [0] * cap
        for i, a in enumerate(first.counts[:cap]):
            if a:
                for j, b in enumerate(second.counts[: cap - i]):
                    counts[i + j] += a * b
    else:
        width = (whole.bit_length() + 8) // 8
        packed = [
            int.from_bytes(
                b"".join(n.to_bytes(width, "little") for n in tally.counts[:cap]), "little"
            )
            for tally in (first, second)
        ]
        product = (packed[0] * packed[1]).to_bytes(2 * cap * width, "little")
        counts = [
            int.from_bytes(product[k * width : (k + 1) * width], "little") for k in range(cap)
        ]
    return Tally((*counts, whole - sum(counts)), first.denominator * second.denominator)


def _powers(save: SaveRoll, most: int, cap: int) -> list[Tally]:
    """The failures of 0 .. ``most`` saves of one kind, up to ``cap``: binomial, or negative
    binomial for Continuous Damage (n saves fail k times in all with C(n+k-1, k) f^k p^n)."""
    fail, passed = save.fails_on, FACES - save.fails_on
    powers = []
    for n in range(most + 1):
        if not save.continuous:
            denominator = FACES**n
            exact = [comb(n, k) * fail**k * passed ** (n - k) for k in range(min(n, cap - 1) + 1)]
        elif n == 0:
            denominator, exact = 1, [1]
        else:
            denominator = FACES ** (n + cap - 1)
            exact = [
                comb(n + k - 1, k) * fail**k * passed**n * FACES ** (cap - 1 - k)
                for k in range(cap)
            ]
        exact += [0] * (cap - len(exact))
        powers.append(Tally((*exact, denominator - sum(exact)), denominator))
    return powers


def failed_saves(
    survivors: dict[Survivors, int],
    total: int,
    per_hit: Sequence[SaveRoll],
    per_critical: Sequence[SaveRoll],
    *,
    cap: int,
) -> Tally:
    """The failed saves the winner's hits cause, up to ``cap``, out of every roll.

    Parameters
    ----------
    survivors : dict of (criticals, other successes) to int
        How often, out of ``total`` rolls, the winner keeps each count of successes.
    total : int
        The number of equally likely rolls (a power of 20).
    per_hit, per_critical : sequence of SaveRoll
        The saves every kept success forces, and those every critical forces besides.
    cap : int
        Failures counted one by one; the last count is ``cap`` or more.

    Returns
    -------
    Tally
        Integer counts of 0 .. ``cap`` failures; rolls where the winner keeps nothing count as
        no failure.

    Examples
    --------
    >>> failed_saves({(1, 0): 1}, 1, [SaveRoll(20)], [SaveRoll(20)], cap=5).counts
    (0, 0, 400, 0, 0, 0)
    """
    kinds = sorted(set(per_hit) | set(per_critical), key=lambda s: (s.continuous, s.fails_on))
    per_hit_of = [sum(1 for s in per_hit if s == kind) for kind in kinds]
    per_critical_of = [sum(1 for s in per_critical if s == kind) for kind in kinds]

    def saves_of(key: Survivors) -> tuple[int, ...]:
        criticals, plain = key
        return tuple(
            (criticals + plain) * h + criticals * c
            for h, c in zip(per_hit_of, per_critical_of, strict=True)
        )

    grouped: defaultdict[tuple[int, ...], int] = defaultdict(int)
    for key, count in survivors.items():
        grouped[saves_of(key)] += count
    none = total - sum(survivors.values())
    if not kinds or not grouped:
        return Tally((total,) + (0,) * cap, total)
    most = [max((saves[i] for saves in grouped), default=0) for i in range(len(kinds))]
    powers = [_powers(kind, most[i], cap) for i, kind in enumerate(kinds)]
    # The kind with the most saves is multiplied in last, once per number of its saves.
    outer = max(range(len(kinds)), key=lambda i: most[i])
    by_outer: defaultdict[int, list[tuple[tuple[int, ...], int]]] = defaultdict(list)
    for saves, count in grouped.items():
        by_outer[saves[outer]].append((saves, count))
    parts: list[Tally] = []
    for outer_saves, rows in sorted(by_outer.items()):
        inner_counts = [0] * (cap + 1)
        inner_denominator = 1
        inner_tallies = []
        for saves, count in rows:
            tally = None
            for i, n in enumerate(saves):
                if i != outer and n:
                    tally = powers[i][n] if tally is None else _times(tally, powers[i][n], cap)
            tally = tally or Tally((1,) + (0,) * cap, 1)
            inner_tallies.append((tally, count))
            inner_denominator = max(inner_denominator, tally.denominator)
        for tally, count in inner_tallies:
            scale = count * (inner_denominator // tally.denominator)
            for k, n in enumerate(tally.counts):
                inner_counts[k] += n * scale
        inner = Tally(tuple(inner_counts), inner_denominator)
        parts.append(_times(powers[outer][outer_saves], inner, cap))
    denominator = max(part.denominator for part in parts) * total
    counts = [0] * (cap + 1)
    for part in parts:
        scale = denominator // (part.denominator * total)
        for k, n in enumerate(part.counts):
            counts[k] += n * scale
    counts[0] += none * (denominator // total)
    return Tally(tuple(counts), denominator)


def expected_failures(
    survivors: dict[Survivors, int],
    total: int,
    per_hit: Sequence[SaveRoll],
    per_critical: Sequence[SaveRoll],
) -> Fraction | None:
    """Failed saves on average; none when unbounded (a Continuous save that always fails).

    >>> expected_failures({(0, 1): 1}, 2, [SaveRoll(10, continuous=True)], [])
    Fraction(1, 2)
    """
    hits = sum((criticals + plain) * n for (criticals, plain), n in survivors.items())
    criticals = sum(c * n for (c, _), n in survivors.items())
    mean = Fraction(0)
    for saves, count in ((per_hit, hits), (per_critical, criticals)):
        for save in saves:
            if not count:
                continue
            if save.continuous and save.fails_on == FACES:
                return None
            each = save.failure / (1 - save.failure) if save.continuous else save.failure
            mean += each * count
    return mean / total


# --- the short forms the contact arrangement uses ----------------------------------------------


def save_failure(damage: int, armour: int) -> Fraction:
    """N4: a save fails with probability (DAM - ARM)/20, kept within [0, 1].

    >>> save_failure(13, 3), save_failure(13, 15), save_failure(30, 0)
    (Fraction(1, 2), Fraction(0, 1), Fraction(1, 1))
    """
    return Fraction(fails_on("damage_minus_armour", damage, armour), FACES)


def wound_distribution(
    survivors: dict[Survivors, Fraction],
    failure: Fraction,
    saves_per_hit: int,
    extra_saves_per_critical: int,
) -> dict[int, Fraction]:
    """P(exactly k wounds): each surviving success forces ``saves_per_hit`` saves, each
    critical ``extra_saves_per_critical`` more, each failed save is one wound.

    >>> wound_distribution({(0, 1): Fraction(1, 2)}, Fraction(1, 2), 2, 1)
    {0: Fraction(5, 8), 1: Fraction(1, 4), 2: Fraction(1, 8)}
    """
    wounds: defaultdict[int, Fraction] = defaultdict(Fraction)
    for (crits, plain), chance in survivors.items():
        saves = (crits + plain) * saves_per_hit + crits * extra_saves_per_critical
        for k in range(saves + 1):
            wounds[k] += chance * comb(saves, k) * failure**k * (1 - failure) ** (saves - k)
    wounds[0] += 1 - sum(survivors.values(), Fraction(0))
    return {k: wounds[k] for k in sorted(wounds) if wounds[k]}


def at_least(distribution: dict[int, Fraction]) -> dict[int, Fraction]:
    """P(at least k) for k = 1 .. the largest k with a chance.

    >>> at_least({0: Fraction(1, 2), 1: Fraction(1, 4), 2: Fraction(1, 4)})
    {1: Fraction(1, 2), 2: Fraction(1, 4)}
    """
    top = max(distribution)
    return {
        k: sum((p for n, p in distribution.items() if n >= k), Fraction(0))
        for k in range(1, top + 1)
    }
