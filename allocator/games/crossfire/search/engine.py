"""The game by enumeration: every line valued in floats, the best made exact with fractions.

A round is *min over the defender's groupings of max over the attacker's attacks of min over
the defender's reallocations* of a line's value, which its objective gives
(:mod:`~allocator.games.crossfire.objectives`):

* a round objective (``sweep``, ``exchange``) values a line from its combats' odds alone;
* a fight objective (``take``) values it from the states of the fight it leads to, with both
  sides playing every later round optimally; each such state is searched the same way (every
  round removes a stand, so the states form a DAG and each is searched once). ``rounds`` bounds
  the fight: after that many rounds a building not yet taken counts as held.

The lines come from :mod:`.enumeration`; groupings with the same number of combats share their
attacks and are valued together, vectorised with numpy.

Floats rank the lines; every line within :data:`EPSILON` of a best is valued again with exact
fractions (and so, recursively, the states it leads to), so the value returned is the exact
optimum and ties are broken exactly and deterministically (the first in enumeration order).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import product
from typing import Any

import numpy as np

from allocator.core.budget import Budget
from allocator.games.crossfire.battle import Battle
from allocator.games.crossfire.objectives import (
    FightObjective,
    Objective,
    RoundObjective,
    SeparableObjective,
)
from allocator.games.crossfire.rules.base import Counts
from allocator.games.crossfire.schema import SideName
from allocator.games.crossfire.search.classes import Classes
from allocator.games.crossfire.search.enumeration import (
    DENSE_LIMIT,
    AttackSet,
    Certainty,
    Grouping,
    Odds,
    SideStats,
    Space,
    View,
)

#: Float values closer than this are compared again with fractions (float errors are ~1e-13).
EPSILON = 1e-9
#: Lines valued at once (bounds the memory of a round with very many attacks).
BATCH = 32_768
#: The ways a batch of lines may end, valued at once: lines of many combats are valued in
#: smaller batches, so the memory and the time between two looks at the clock stay small.
BATCH_OUTCOMES = 131_072
#: Attacks on one grouping tried as a proof that the building is taken for certain (those with
#: the fewest combats of uncertain outcome first).
PROOF_ATTEMPTS = 64


class OutOfTime(Exception):
    """The budget ran out in the middle of the search."""


@dataclass(frozen=True)
class Option:
    """One line of a round, by position: grouping, attack, and the finals of step 6."""

    grouping: int
    attack: int
    finals: tuple[Counts, ...] | None = None


@dataclass
class Policy:
    """What both sides play in a state, and where it leads: (next state, probability)."""

    option: Option
    value: Fraction
    outcomes: list[tuple[int, Fraction]]


@dataclass
class RoundLines:
    """The lines of one state's round: its groupings and, per grouping, its attacks."""

    view: View
    index: int
    groupings: list[Grouping]
    attacks: list[AttackSet]
    values: list[np.ndarray] | None = None
    complete: bool = True
    #: Answers already worked out, by (grouping, rounds) and by (grouping, attack, later).
    exact_groupings: dict[tuple[int, int | None], tuple[Fraction, Policy]] = field(
        default_factory=dict
    )
    reallocations: dict[tuple[int, int, int | None], list[tuple[tuple[Counts, ...], float]]] = (
        field(default_factory=dict)
    )

    def forget(self) -> None:
        """Drop every value worked out, to value the lines again under other assumptions."""
        self.values, self.complete = None, True
        self.exact_groupings.clear()
        self.reallocations.clear()

    def valued(self) -> list[int]:
        """The groupings whose attacks have values."""
        assert self.values is not None
        return [g for g, v in enumerate(self.values) if len(v)]


@dataclass
class Engine:
    """The search of one battle under one objective (``rounds``: None to the end)."""

    battle: Battle
    objective: Objective
    rounds: int | None
    budget: Budget
    space: Space = field(init=False)
    root: View = field(init=False)
    later: View = field(init=False)
    odds: Odds = field(init=False)

    def __post_init__(self) -> None:
        everyone = self.battle.defender.ids() + self.battle.attacker.ids()
        later_battle = self.battle.next_round(everyone)
        self.space = Space(Classes.of(later_battle, self.budget.ticker("a line of play")))
        self.later = View(later_battle, self.space, self.budget, self.space.classes)
        self.root = View(self.battle, self.space, self.budget)
        most = len(self.battle.defender.stands) + len(self.battle.attacker.stands)
        self.odds = Odds(self.battle, most)
        fight = isinstance(self.objective, FightObjective)
        self.dense = fight and self.rounds is None and self.space.size <= DENSE_LIMIT
        if self.dense:  # a value and a flag of every state of the fight
            self.budget.reserve(self.space.size * 9, "the states of the whole fight")
        self.values: Any = (
            self.space.terminal_values(
                float(self._ended("attacker")), float(self._ended("defender"))
            )
            if self.dense
            else {}
        )
        self.exact: dict[Any, Fraction] = {}
        self.policy: dict[Any, Policy] = {}
        self.states = 0
        self.searched: dict[Any, RoundLines] = {}
        #: The least and the most a value can be (a line at either cannot be bettered), if any.
        self.bounds = self.objective.bounds
        #: When set, states not yet searched count as this (bounds after a time-out).
        self.unknown_as: Fraction | None = None
        #: By state: the line on its first grouping that proves the building taken for certain
        #: (:meth:`proof`), or None when no proof was found.
        self.proofs: dict[Any, Option | None] = {}
        #: Whether a state's value can be proved the most a value can be without its search:
        #: the building taken for certain (``take``) is worth exactly that.
        self.provable = (
            fight and self.bounds is not None and self.fight.end_value(True) == self.bounds[1]
        )

    @property
    def fight(self) -> FightObjective:
        """The objective, which values later states (only a fight objective searches them)."""
        assert isinstance(self.objective, FightObjective), "a round objective has no later states"
        return self.objective

    def _ended(self, winner: SideName | None) -> Fraction:
        """What a state where the fight is over is worth (7b; rounds run out: held)."""
        return self.fight.end_value(winner == "attacker")

    # --- the states after round 1 ------------------------------------------------------------

    def _key(self, index: int, rounds: int | None) -> Any:
        return index if rounds is None else (index, rounds)

    def _known(self, index: int, rounds: int | None) -> float | None:
        if self.dense:
            found = self.values[index]
            return None if np.isnan(found) else float(found)
        value: float | None = self.values.get(self._key(index, rounds))
        return value

    def value(self, index: int, rounds: int | None) -> float:
        """A state's float value with ``rounds`` rounds left (searched once, then known)."""
        winner = self.space.winner(index)
        if winner is not None or rounds == 0:
            return float(self._ended(winner))
        found = self._known(index, rounds)
        if found is not None:
            return found
        if self.unknown_as is not None:
            return float(self.unknown_as)
        self._in_time()
        if self.proof(index, rounds) is not None:
            assert self.bounds is not None
            return float(self.bounds[1])
        result = min(self.grouping_values(self._lines(index, rounds), rounds))
        self._store(index, rounds, result)
        return result

    def _in_time(self, cancelled_only: bool = False) -> None:
        """Raise :class:`~allocator.core.errors.WorkCancelled` once the work is cancelled (no
        one waits for its best found) and, unless ``cancelled_only``, :class:`OutOfTime` once
        the budget has run out."""
        if self.budget.cancelled:
            raise self.budget.ran_out()
        if not cancelled_only and self.budget.expired():
            raise OutOfTime

    def _store(self, index: int, rounds: int | None, value: float) -> None:
        if self.dense:
            self.values[index] = value
        else:
            self.values[self._key(index, rounds)] = value

    def _lines(self, index: int, rounds: int | None) -> RoundLines:
        """A later state's round, built once."""
        key = self._key(index, rounds)
        lines = self.searched.get(key)
        if lines is None:
            lines = self.searched[key] = self.round_lines(self.later, index)
            self.states += 1
        return lines

    # --- proofs that the building is taken for certain ---------------------------------------

    def proof(self, index: int, rounds: int | None) -> Option | None:
        """A line proving that a later state's value is the most a value can be, or None.

        The building is taken for certain when every grouping of the defender is met by an
        attack that opposes every combat and all of whose outcomes (a combat won or lost for
        certain ends one way, any other both ways) lead to states where it is taken, or that are
        so proved in turn: then every line of the state is worth the most, bottom-up, without
        the floats of any of its lines. Attacks that leave a combat unopposed are not tried
        (the defender's reallocations would have to be proved too), nor more than
        :data:`PROOF_ATTEMPTS` a grouping, so the proof may miss a state that is taken for
        certain, never the other way round. The line returned is on the first grouping.
        """
        if not self.provable:
            return None
        key = self._key(index, rounds)
        if key in self.proofs:
            return self.proofs[key]
        self._in_time()
        found = self.proving_attacks(self._lines(index, rounds), rounds)
        option = None if found is None else Option(0, found[0])
        self.proofs[key] = option
        if option is not None:
            assert self.bounds is not None
            self._store(index, rounds, float(self.bounds[1]))
        return option

    def proving_attacks(
        self,
        lines: RoundLines,
        rounds: int | None,
        certainty: Callable[[int], Certainty] | None = None,
    ) -> list[int] | None:
        """For every grouping of ``lines``, an attack proving the building taken for certain
        (:meth:`proof`), or None as soon as one grouping has none. ``certainty``: each
        grouping's :meth:`certainty`, when it is kept."""
        later = None if rounds is None else rounds - 1
        found = []
        for g in range(len(lines.groupings)):
            full = np.flatnonzero(lines.attacks[g].full)
            if not len(full):
                return None
            sure = self.certainty(lines, g) if certainty is None else certainty(g)
            a = next(
                (
                    a
                    for a in _fewest_uncertain(full, sure.tally(0)[full])
                    if self._all_taken(lines, g, a, sure.row(a), later)
                ),
                None,
            )
            if a is None:
                return None
            found.append(a)
        return found

    def certainty(self, lines: RoundLines, g: int) -> Certainty:
        """Each combat of each attack on grouping ``g``, on its own: won for certain, lost for
        certain or either (:class:`~.enumeration.Certainty`)."""
        return self.odds.certainty(lines.attacks[g], lines.groupings[g].stats)

    def _all_taken(
        self, lines: RoundLines, g: int, a: int, sure: np.ndarray, later: int | None
    ) -> bool:
        """Whether every outcome of attack ``a`` on grouping ``g`` (``sure``: each combat won
        for certain, lost for certain or either) leads to a state taken for certain."""
        defender = lines.groupings[g].offsets
        attacker = lines.attacks[g].offsets[a]
        ends = [
            [int(defender[k])]
            if s == 1
            else [int(attacker[k])]
            if s == -1
            else [int(defender[k]), int(attacker[k])]
            for k, s in enumerate(sure)
        ]
        return all(self._taken(lines.index - sum(removed), later) for removed in product(*ends))

    def _taken(self, index: int, rounds: int | None) -> bool:
        """Whether a state is over and taken, or proved taken (:meth:`proof`). A value of the
        most known from a search does not count: the proof of the first round would otherwise
        depend on what an earlier search had valued (explain's defender, then its attacker), and
        an answer on its own would differ from the same answer after another."""
        winner = self.space.winner(index)
        if winner is not None or rounds == 0:
            return winner == "attacker"
        return self.proof(index, rounds) is not None

    def round_lines(
        self, view: View, index: int, groupings: list[Grouping] | None = None
    ) -> RoundLines:
        defender, attacker = self._counts(view, index)
        groupings = groupings if groupings is not None else view.groupings(defender)
        # the most combats first: theirs are the attacks likeliest to be too many to list, and
        # then none of the others is built in vain
        sizes = sorted({len(g.comps) for g in groupings}, reverse=True)
        by_size = {k: view.attacks(attacker, k) for k in sizes}
        attacks = [by_size[len(g.comps)] for g in groupings]
        return RoundLines(view, index, groupings, attacks)

    def _counts(self, view: View, index: int) -> tuple[Counts, Counts]:
        if view is self.root:
            c = view.classes
            return (
                c.counts("defender", self.battle.defender.ids()),
                c.counts("attacker", self.battle.attacker.ids()),
            )
        return self.space.decode(index)

    def root_index(self) -> int:
        c = self.space.classes
        return self.space.index(
            c.counts("defender", self.battle.defender.ids()),
            c.counts("attacker", self.battle.attacker.ids()),
        )

    # --- float values of a round's lines -----------------------------------------------------

    def grouping_values(self, lines: RoundLines, rounds: int | None) -> list[float]:
        """The attacker's best value against each grouping."""
        return [float(v.max()) if len(v) else -1.0 for v in self.line_values(lines, rounds)]

    def line_values(
        self, lines: RoundLines, rounds: int | None, partial: bool = False, anywhere: bool = False
    ) -> list[np.ndarray]:
        """The value of every attack on every grouping (step 6 at the defender's best).

        With ``partial``, the time limit may stop it between groupings (never before the
        first; with ``anywhere`` too, wherever it is seen, even in the first): the groupings
        not wholly valued then keep no values, and :attr:`RoundLines.complete` says so.
        """
        if lines.values is not None:
            return lines.values
        later = None if rounds is None else rounds - 1
        values: list[np.ndarray] = [np.empty(0)] * len(lines.groupings)
        for g in range(len(lines.groupings)):
            if partial and g and self.budget.expired():
                lines.complete = False
                break
            try:
                values[g] = self._grouping_values(
                    lines, g, later, stops_at_deadline=not partial or anywhere
                )
            except OutOfTime:
                if not (partial and anywhere):
                    raise
                lines.complete = False
                break
        lines.values = values
        return values

    def _grouping_values(
        self, lines: RoundLines, g: int, later: int | None, stops_at_deadline: bool = True
    ) -> np.ndarray:
        """The value of every attack on grouping ``g``; it stops (:class:`OutOfTime`) between
        two batches of lines once the work is cancelled or, with ``stops_at_deadline``, the
        budget has run out."""
        attacks, grouping = lines.attacks[g], lines.groupings[g]
        found = np.full(attacks.size, -1.0)
        full = np.flatnonzero(attacks.full)
        d_stands = np.array([s.stands for s in grouping.stats])
        every = len(full) == attacks.size
        separable = self.objective if isinstance(self.objective, SeparableObjective) else None
        if separable is not None:  # each combat's part of a line's value, by composition
            p = self.odds.kind_floats(attacks, grouping.stats)
            parts = separable.combat_floats(p, d_stands, attacks.sides.stands[:, None])
        step = BATCH if separable is not None else max(1, BATCH_OUTCOMES >> len(grouping.comps))
        for start in range(0, len(full), step):  # the attacks that oppose every combat
            self._in_time(cancelled_only=not stops_at_deadline)
            # when every attack does, a slice: the attacks' arrays are then not copied
            part: Any = slice(start, start + step) if every else full[start : start + step]
            rows = min(step, len(full) - start)
            if separable is not None:
                kinds = attacks.kinds[part]
                found[part] = separable.combined(
                    parts[kinds[:, k], k] for k in range(len(grouping.comps))
                )
                continue
            found[part] = self._values(
                lines.index,
                self.odds.floats(attacks, part, grouping.stats),
                np.broadcast_to(grouping.offsets, (rows, len(grouping.offsets))),
                attacks.offsets[part],
                np.broadcast_to(d_stands, (rows, len(d_stands))),
                attacks.sides.stands[attacks.kinds[part]],
                later,
            )
        partly = np.flatnonzero(~attacks.full)
        if len(partly):
            self._reallocate(lines, g, partly, later)
            for a in partly:
                found[a] = min(value for _, value in lines.reallocations[(g, int(a), later)])
        return found

    def reallocation_values(
        self, lines: RoundLines, g: int, a: int, later: int | None
    ) -> list[tuple[tuple[Counts, ...], float]]:
        """The value of each reallocation the defender may make against attack ``a``."""
        if (g, a, later) not in lines.reallocations:
            self._reallocate(lines, g, np.array([a]), later)
        return lines.reallocations[(g, a, later)]

    def _reallocate(self, lines: RoundLines, g: int, rows: np.ndarray, later: int | None) -> None:
        """Value every reallocation against each of the attacks ``rows`` of grouping ``g``, into
        :attr:`RoundLines.reallocations`: the attacks that oppose the same combats share one
        array of lines (each attack crossed with each way the defender may fold)."""
        view, grouping, attacks = lines.view, lines.groupings[g], lines.attacks[g]
        opposed = attacks.sides.stands[attacks.kinds[rows]] > 0
        for mask in np.unique(opposed, axis=0):
            finals = view.reallocations(grouping, [bool(m) for m in mask])
            alike = rows[(opposed == mask).all(axis=1)]
            step = max(1, (BATCH_OUTCOMES >> int(mask.sum())) // max(1, len(finals)))
            for start in range(0, len(alike), step):
                self._in_time(cancelled_only=True)
                self._reallocate_alike(lines, g, alike[start : start + step], mask, finals, later)

    def _reallocate_alike(
        self,
        lines: RoundLines,
        g: int,
        same: np.ndarray,
        mask: np.ndarray,
        finals: list[tuple[Counts, ...]],
        later: int | None,
    ) -> None:
        """:meth:`_reallocate` for attacks that oppose the same combats (``mask``)."""
        view, attacks = lines.view, lines.attacks[g]
        active = np.flatnonzero(mask)
        stats = []
        for final in finals:
            view.tick()
            stats.append([view.stats("defender", comp) for comp in final])
        d_off = np.array([[view.offset("defender", c) for c in final] for final in finals])
        d_stands = np.array([[s.stands for s in row] for row in stats])
        pick = np.ix_(same, active)
        ours = attacks.sides.at(attacks.kinds[pick])
        ta, td = _crossed(ours.total, np.array([[s.total for s in r] for r in stats]))
        fa, fd = _crossed(ours.fighters, np.array([[s.fighters for s in r] for r in stats]))
        ca, cd = _crossed(ours.can_fight, np.array([[s.can_fight for s in r] for r in stats]))
        a_off, d_offsets = _crossed(attacks.offsets[pick], d_off)
        a_stands, d_counted = _crossed(ours.stands, d_stands)
        values = self._values(
            lines.index,
            self.odds.of(ta, fa, ca, td, fd, cd),
            d_offsets,
            a_off,
            d_counted,
            a_stands,
            later,
        ).reshape(len(same), len(finals))
        for a, row in zip(same, values, strict=True):
            lines.reallocations[(g, int(a), later)] = [
                (final, float(v)) for final, v in zip(finals, row, strict=True)
            ]

    def _values(
        self,
        index: int,
        p: np.ndarray,
        d_off: np.ndarray,
        a_off: np.ndarray,
        d_stands: np.ndarray,
        a_stands: np.ndarray,
        later: int | None,
    ) -> np.ndarray:
        """Lines' values from their combats: (lines, combats) arrays of odds and offsets."""
        if isinstance(self.objective, RoundObjective):
            return self.objective.round_floats(p, d_stands, a_stands)
        rows = p.shape[0]
        both = np.stack([p, 1 - p], axis=2)
        lost = np.stack([d_off, a_off], axis=2)
        prob = both[:, 0, :]
        removed = lost[:, 0, :]
        for k in range(1, p.shape[1]):  # each way the combats can end, combat by combat
            prob = (prob[:, :, None] * both[:, k, None, :]).reshape(rows, -1)
            removed = (removed[:, :, None] + lost[:, k, None, :]).reshape(rows, -1)
        return self.fight.fight_floats(prob, self.children_values(index - removed, later))

    def children_values(self, children: np.ndarray, later: int | None) -> np.ndarray:
        """The float values of many states, searching those not searched yet."""
        if not self.dense:
            unique, inverse = np.unique(children, return_inverse=True)
            known = np.array([self.value(int(i), later) for i in unique])
            return np.asarray(known[inverse.reshape(children.shape)])
        values = np.array(self.values[children])
        missing = np.isnan(values)
        if missing.any() and self.unknown_as is not None:  # the terminal states are all known
            values[missing] = float(self.unknown_as)
        elif missing.any():
            unique, inverse = np.unique(children[missing], return_inverse=True)
            found = np.array([self.value(int(child), later) for child in unique])
            values[missing] = found[inverse]
        return values

    # --- exact values ------------------------------------------------------------------------

    def exact_value(self, index: int, rounds: int | None) -> Fraction:
        """A state's exact value, with what both sides play there (:attr:`policy`)."""
        winner = self.space.winner(index)
        if winner is not None or rounds == 0:
            return self._ended(winner)
        key = self._key(index, rounds)
        found = self.exact.get(key)
        if found is not None:
            return found
        if self.unknown_as is not None and self._known(index, rounds) is None:
            return self.unknown_as  # a searched state's value is its own, never an assumption
        self._in_time()
        float_value = self.value(index, rounds)
        lines = self._lines(index, rounds)
        proof = self.proofs.get(key)
        if proof is not None:
            later = None if rounds is None else rounds - 1
            value, policy = self.exact_attack(lines, proof.grouping, proof.attack, later, 0.0)
        else:
            value, policy = self.exact_round(lines, rounds, float_value)
        self.exact[key] = value
        self.policy[key] = policy
        return value

    def exact_round(
        self, lines: RoundLines, rounds: int | None, float_value: float
    ) -> tuple[Fraction, Policy]:
        """The exact value of a round whose float value is known, and the line that gives it."""
        best: tuple[Fraction, Policy] | None = None
        for g, values in enumerate(self.line_values(lines, rounds)):
            if not len(values) or float(values.max()) > float_value + EPSILON:
                continue
            candidate = self.exact_grouping(lines, g, rounds)
            if best is None or candidate[0] < best[0]:
                best = candidate
            if self.bounds is not None and best[0] == self.bounds[0]:
                break  # nothing can be lower
        assert best is not None, "the float optimum has a grouping within EPSILON of it"
        return best

    def exact_grouping(
        self, lines: RoundLines, g: int, rounds: int | None
    ) -> tuple[Fraction, Policy]:
        """The attacker's exact best answer to grouping ``g`` (step 6 at the defender's best)."""
        known = lines.exact_groupings.get((g, rounds))
        if known is not None:
            return known
        later = None if rounds is None else rounds - 1
        values = self.line_values(lines, rounds)[g]
        top = float(values.max())
        candidates = np.flatnonzero(values >= top - EPSILON)
        if isinstance(self.objective, RoundObjective):
            candidates = _distinct_combats(lines.attacks[g], candidates)
        best: tuple[Fraction, Policy] | None = None
        for a in candidates:
            candidate = self.exact_attack(lines, g, int(a), later, float(values[a]))
            if best is None or candidate[0] > best[0]:
                best = candidate
            if self.bounds is not None and best[0] == self.bounds[1]:
                break  # nothing can be higher
        assert best is not None
        lines.exact_groupings[(g, rounds)] = best
        return best

    def exact_attack(
        self, lines: RoundLines, g: int, a: int, later: int | None, float_value: float
    ) -> tuple[Fraction, Policy]:
        """The exact value of attack ``a`` on grouping ``g``, the defender moving at his best."""
        grouping, attacks = lines.groupings[g], lines.attacks[g]
        if attacks.full[a]:
            combats = [
                (grouping.stats[k], attacks.stats_of(a, k), int(grouping.offsets[k]))
                for k in range(len(grouping.comps))
            ]
            return self._exact_line(lines.index, attacks, a, combats, later, Option(g, a))
        best: tuple[Fraction, Policy] | None = None
        view = lines.view
        active = [k for k in range(len(grouping.comps)) if attacks.stats_of(a, k).stands]
        for finals, value in self.reallocation_values(lines, g, a, later):
            if value > float_value + EPSILON:
                continue
            combats = [
                (
                    view.stats("defender", comp),
                    attacks.stats_of(a, k),
                    view.offset("defender", comp),
                )
                for comp, k in zip(finals, active, strict=True)
            ]
            option = Option(g, a, finals)
            candidate = self._exact_line(lines.index, attacks, a, combats, later, option, active)
            if best is None or candidate[0] < best[0]:
                best = candidate
            if self.bounds is not None and best[0] == self.bounds[0]:
                break
        assert best is not None
        return best

    def _exact_line(
        self,
        index: int,
        attacks: AttackSet,
        a: int,
        combats: Sequence[tuple[SideStats, SideStats, int]],
        later: int | None,
        option: Option,
        columns: Sequence[int] | None = None,
    ) -> tuple[Fraction, Policy]:
        """One line's exact value from its combats: (defender, attacker, defender's offset)."""
        columns = range(len(combats)) if columns is None else columns
        a_off = [int(attacks.offsets[a, k]) for k in columns]
        p = [self.odds.fraction(attacker, defender) for defender, attacker, _ in combats]
        if isinstance(self.objective, RoundObjective):
            value = self.objective.round_exact(
                p, [d.stands for d, _, _ in combats], [s.stands for _, s, _ in combats]
            )
            return value, Policy(option, value, [])
        outcomes: dict[int, Fraction] = {}
        for wins in product((True, False), repeat=len(combats)):
            self._in_time(cancelled_only=True)
            prob = Fraction(1)
            removed = 0
            for q, won, (_, _, d_off), lost in zip(p, wins, combats, a_off, strict=True):
                prob *= q if won else 1 - q
                removed += d_off if won else lost
            if prob:
                outcomes[index - removed] = outcomes.get(index - removed, Fraction(0)) + prob
        ordered = sorted(outcomes.items())
        value = self.fight.fight_exact(
            (prob, self.exact_value(child, later)) for child, prob in ordered
        )
        return value, Policy(option, value, ordered)


def alike_attacks(objective: Objective, attacks: AttackSet) -> np.ndarray:
    """A key for each attack: two attacks of one key are worth exactly the same. Under a round
    objective the attacks that oppose every combat with the same sides share one (their value
    is one of their combats' sides alone); every other attack has a key of its own."""
    keys = -1 - np.arange(attacks.size)
    if isinstance(objective, RoundObjective):
        full = np.flatnonzero(attacks.full)
        keys[full] = full[_first_alike(attacks, full)]
    return keys


def _distinct_combats(attacks: AttackSet, rows: np.ndarray) -> np.ndarray:
    """``rows`` without the attacks that oppose every combat with the same sides as an earlier
    one of them (a round objective values such a line from its combats' sides alone), in
    order."""
    full = attacks.full[rows]
    if full.sum() < 2:
        return rows
    first = _first_alike(attacks, rows[full])
    keep = ~full
    keep[np.flatnonzero(full)] = first == np.arange(len(first))
    return np.asarray(rows[keep])


def _first_alike(attacks: AttackSet, rows: np.ndarray) -> np.ndarray:
    """For each of ``rows`` (attacks that oppose every combat), the place among ``rows`` of the
    first that opposes every combat with the same sides."""
    if not len(rows):
        return np.zeros(0, dtype=np.intp)
    sides = np.ascontiguousarray(attacks.side_kinds[attacks.kinds[rows]])
    # each attack's row of sides as one opaque value: a 1-d unique, cheaper than by rows
    whole = sides.view(np.dtype((np.void, sides.itemsize * sides.shape[1]))).ravel()
    _, first, inverse = np.unique(whole, return_index=True, return_inverse=True)
    return np.asarray(first[inverse.ravel()])


def _fewest_uncertain(rows: np.ndarray, uncertain: np.ndarray) -> list[int]:
    """The first :data:`PROOF_ATTEMPTS` of ``rows`` by their number of combats of uncertain
    outcome (``uncertain``, beside each), in order within each number."""
    picked: list[int] = []
    for count in range(int(uncertain.max(initial=0)) + 1):
        picked.extend(rows[uncertain == count][: PROOF_ATTEMPTS - len(picked)].tolist())
        if len(picked) == PROOF_ATTEMPTS:
            break
    return picked


def _crossed(ours: np.ndarray, theirs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every row of ``ours`` beside every row of ``theirs``: ours repeated, theirs tiled."""
    return np.repeat(ours, len(theirs), axis=0), np.tile(theirs, (len(ours), 1))
