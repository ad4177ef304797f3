"""Every line of play of a round, counted by class: groupings, attacks, reallocations, odds.

A *view* is one kind of round (the battle's own first round, or any later round, where every
surviving attacker may count as near every other and a surprise is over): its battle, its
classes of interchangeable stands (:mod:`.classes`) and the enumerations, cached by the counts
they depend on. States of the fight live in a :class:`Space` of the later rounds' classes.

The legal choices come from the rule families (the plain checker decides the groupings;
:func:`~allocator.games.crossfire.rules.attack.squad_spreads`,
:func:`~allocator.games.crossfire.rules.attack.leader_places` and
:func:`~allocator.games.crossfire.rules.attack.class_attacks` give the attacks;
:func:`~allocator.games.crossfire.rules.reallocation.class_reallocations` the reallocations).
One pruning is the search's own: an attacking leader who adds nothing where he goes (another
leader there has a rating as good, or his rating is 0; beside a CC or BC who takes a combat
as a squad, a second CC or BC is a leader only, 5c) is left out, because staying out is as
good for the attacker in every objective: the odds are the same and he cannot be lost.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property, partial
from math import comb, prod
from typing import Any

import numpy as np

from allocator.core.budget import Budget
from allocator.games.crossfire.battle import Battle, Role
from allocator.games.crossfire.odds import DIFF_LIMIT, side_total, win_probability
from allocator.games.crossfire.rules import leaders as leader_rules
from allocator.games.crossfire.rules.attack import class_attacks, leader_places, squad_spreads
from allocator.games.crossfire.rules.base import Counts, StandClass, TooManyLines
from allocator.games.crossfire.rules.grouping import legal_groupings
from allocator.games.crossfire.rules.reallocation import class_reallocations
from allocator.games.crossfire.rules.resolution import keeps_fighting
from allocator.games.crossfire.schema import SideName
from allocator.games.crossfire.search.classes import Classes

#: Up to this many states the fight's values live in a dense array, beyond in a dictionary.
DENSE_LIMIT = 4_000_000
#: The enumeration's bounds: beyond them a search must use CP-SAT (:class:`TooManyLines`).
#: States of a fight are numbered in 64-bit integers.
STATES = 2**62
GROUPINGS_TRIED = 20_000
SPREADS = 2_000_000
ATTACKS = 2_000_000
#: Attacking count vectors up to which a round's combats are told apart by a table of them.
TABLED_OFFSETS = 1 << 20


@dataclass(frozen=True)
class SideStats:
    """What the odds look at of one side of one combat (from
    :func:`~allocator.games.crossfire.odds.side_total`)."""

    total: int
    fighters: int
    can_fight: bool
    stands: int


class Space:
    """The states of the fight after round 1, as counts per class of the later rounds' classes.

    A state is one integer: the defender's counts in mixed radix times the number of attacking
    count vectors, plus the attacker's counts in mixed radix. Removing the stands of a combat
    subtracts its offset, so every child of a state has a smaller index.
    """

    def __init__(self, classes: Classes):
        self.classes = classes
        self.d_radix = [len(c.members) + 1 for c in classes.defender]
        self.a_radix = [len(c.members) + 1 for c in classes.attacker]
        self.a_size = _product(self.a_radix)
        self.d_size = _product(self.d_radix)
        self.d_stride = _strides(self.d_radix, self.a_size)
        self.a_stride = _strides(self.a_radix, 1)
        self.fighting = [keeps_fighting(c.role, c.commander) for c in classes.attacker]
        self._fights: dict[int, bool] = {}  # by the attacker's part of a state: can he fight on?
        if self.size > STATES:
            raise TooManyLines(f"{self.size:,} states of the fight")

    @property
    def size(self) -> int:
        return self.d_size * self.a_size

    def index(self, defender: Counts, attacker: Counts) -> int:
        return sum(n * s for n, s in zip(defender, self.d_stride, strict=True)) + sum(
            n * s for n, s in zip(attacker, self.a_stride, strict=True)
        )

    def decode(self, index: int) -> tuple[Counts, Counts]:
        d_index, a_index = divmod(index, self.a_size)
        return _digits(d_index, self.d_radix), _digits(a_index, self.a_radix)

    def terminal_values(self, taken: float, held: float) -> np.ndarray:
        """Every state's value where the fight is over (7b: ``taken`` when no defender is left,
        ``held`` when the attacker cannot fight on), NaN where it goes on."""
        a_index = np.arange(self.a_size, dtype=np.int64)
        fights = np.zeros(self.a_size, dtype=bool)
        for stride, radix, fighting in zip(self.a_stride, self.a_radix, self.fighting, strict=True):
            if fighting:
                fights |= (a_index // stride) % radix > 0
        values = np.tile(np.where(fights, np.nan, held), self.d_size)
        values[: self.a_size] = taken
        return values

    def winner(self, index: int) -> SideName | None:
        """7b: the attacker when no defender is left (the building is taken), the defender when
        the attacker cannot fight on (it is held), None while the fight goes on."""
        if index < self.a_size:
            return "attacker"
        a_index = index % self.a_size
        fights = self._fights.get(a_index)
        if fights is None:
            attacker = _digits(a_index, self.a_radix)
            fights = any(n and f for n, f in zip(attacker, self.fighting, strict=True))
            self._fights[a_index] = fights
        return None if fights else "defender"

    def left(self, index: int) -> tuple[int, int]:
        """(attacking squads and leaders, defending stands) left in a state."""
        defender, attacker = self.decode(index)
        fighting = sum(
            n
            for n, c in zip(attacker, self.classes.attacker, strict=True)
            if c.role in (Role.squad, Role.leader)
        )
        return fighting, sum(defender)


def _distinct(offsets: np.ndarray, space: int) -> tuple[np.ndarray, np.ndarray]:
    """Where one entry of each distinct value of ``offsets`` (each below ``space``) is in
    ``offsets`` raveled, the values in order; and the index of each entry among them (in an
    array of ``offsets``' shape).

    Up to :data:`TABLED_OFFSETS` values a table over all of them tells them apart in one pass,
    beyond a sort does (``np.unique``).
    """
    flat = offsets.ravel()
    if space > TABLED_OFFSETS:
        _, first, inverse = np.unique(flat, return_index=True, return_inverse=True)
        return first, inverse.reshape(offsets.shape).astype(np.int32)
    position = np.full(space, -1, dtype=np.int32)
    position[flat] = np.arange(len(flat), dtype=np.int32)  # some entry of each value
    distinct = np.flatnonzero(position >= 0)
    rank = np.empty(space, dtype=np.int32)
    rank[distinct] = np.arange(len(distinct), dtype=np.int32)
    return position[distinct], rank[offsets]


def _product(values: Sequence[int]) -> int:
    result = 1
    for v in values:
        result *= v
    return result


def _strides(radix: Sequence[int], unit: int) -> list[int]:
    strides, step = [], unit
    for r in reversed(radix):
        strides.append(step)
        step *= r
    return list(reversed(strides))


def _digits(index: int, radix: Sequence[int]) -> Counts:
    digits = []
    for r in reversed(radix):
        index, n = divmod(index, r)
        digits.append(n)
    return tuple(reversed(digits))


@dataclass
class Grouping:
    """One of the defender's groupings, by class (and by stand where it was enumerated)."""

    comps: tuple[Counts, ...]
    offsets: np.ndarray
    stats: list[SideStats]
    blocks: list[list[str]]


@dataclass
class AttackSet:
    """Every useful legal attack on a number of combats, for one set of attacking counts.

    ``counts[a, k, c]`` is how many of attacker class ``c`` attack combat ``k`` in attack ``a``
    and ``offsets[a, k]`` what that combat's attackers take off a state when they are lost.
    However many the attacks, their combats hold few distinct compositions (a company's
    hundreds of thousands of attacks on four combats send a few hundred): ``kinds[a, k]`` is
    the composition of combat ``k`` of attack ``a`` among ``stats``, the odds' inputs of each
    distinct one, so that the odds of every line are worked out once a composition and read
    by :attr:`cells`.
    """

    counts: np.ndarray
    offsets: np.ndarray
    kinds: np.ndarray
    stats: list[SideStats]
    sides: SideArrays = field(init=False)
    """``stats`` as arrays, one a field: index them by ``kinds``."""
    full: np.ndarray = field(init=False)
    """Which attacks oppose every combat (step 6 has nothing to do)."""

    def __post_init__(self) -> None:
        self.sides = SideArrays.of(self.stats)
        opposing = self.sides.stands > 0
        self.full = opposing[self.kinds].all(axis=1) if self.size else np.zeros(0, bool)

    @property
    def size(self) -> int:
        return int(self.counts.shape[0])

    @cached_property
    def cells(self) -> np.ndarray:
        """``kinds[a, k] * combats + k``: where combat ``k`` of attack ``a`` is in a table of
        every composition against each combat, raveled."""
        combats = self.kinds.shape[1]
        cells: np.ndarray = self.kinds * combats + np.arange(combats, dtype=self.kinds.dtype)
        return cells

    @cached_property
    def side_kinds(self) -> np.ndarray:
        """Each composition's place among the distinct sides they make (compositions of other
        stands may fight alike)."""
        seen: dict[SideStats, int] = {}
        return np.array([seen.setdefault(s, len(seen)) for s in self.stats], dtype=np.int32)

    def stats_of(self, a: int, k: int) -> SideStats:
        """The attacking side's stats of combat ``k`` of attack ``a``."""
        return self.stats[int(self.kinds[a, k])]

    def comps(self, a: int) -> tuple[Counts, ...]:
        return tuple(tuple(int(n) for n in row) for row in self.counts[a])


@dataclass(frozen=True)
class SideArrays:
    """:class:`SideStats` of many combats' sides, one array a field."""

    total: np.ndarray
    fighters: np.ndarray
    can_fight: np.ndarray
    stands: np.ndarray

    @classmethod
    def of(cls, stats: Sequence[SideStats]) -> SideArrays:
        return cls(
            np.array([s.total for s in stats], dtype=np.int64),
            np.array([s.fighters for s in stats], dtype=np.int64),
            np.array([s.can_fight for s in stats], dtype=bool),
            np.array([s.stands for s in stats], dtype=np.int64),
        )

    def at(self, places: np.ndarray) -> SideArrays:
        """The sides at ``places`` (an array of indices, of any shape)."""
        return SideArrays(
            self.total[places], self.fighters[places], self.can_fight[places], self.stands[places]
        )


class View:
    """One kind of round: its battle, classes, and the lines of play it allows, cached."""

    def __init__(
        self,
        battle: Battle,
        space: Space,
        budget: Budget | None = None,
        classes: Classes | None = None,
    ):
        """``classes``: the battle's :meth:`Classes.of`, when they are already known."""
        self.battle = battle
        self.budget = budget
        limits = budget or Budget(None)
        #: The check of the innermost loops that build this view's lines of play, and of the
        #: memory their arrays will take.
        self.tick, self.reserve = limits.ticker("a line of play"), limits.reserve
        #: The check between two steps over whole arrays of lines (each may take a tenth of a
        #: second at the largest sizes): a cancelled request lets its worker go soon after.
        self.look = partial(limits.check, "the attacks")
        self.classes = classes or Classes.of(battle, self.tick)
        self.space = space
        self.one_by_one = bool(battle.ruleset.value("reallocate_one_by_one"))
        self.best_leader_only = battle.ruleset.value("leader_bonus") != "sum"
        self.d_weights = np.array(
            [
                space.d_stride[space.classes.class_of[c.members[0]].index]
                for c in self.classes.defender
            ],
            dtype=np.int64,
        )
        self.a_weights = np.array(
            [
                space.a_stride[space.classes.class_of[c.members[0]].index]
                for c in self.classes.attacker
            ],
            dtype=np.int64,
        )
        self.ratings = [
            leader_rules.rating(battle, c.members[0]) if c.role == Role.leader else 0
            for c in self.classes.attacker
        ]
        self._groupings: dict[Counts, list[Grouping]] = {}
        self._reallocations: dict[
            tuple[tuple[Counts, ...], tuple[bool, ...]], list[tuple[Counts, ...]]
        ] = {}
        self._attacks: dict[tuple[Counts, int], AttackSet] = {}
        self._stats: dict[tuple[SideName, int], SideStats] = {}

    # --- the odds' inputs of one side of a combat -----------------------------------------------

    def offset(self, side: SideName, counts: Counts) -> int:
        weights = self.d_weights if side == "defender" else self.a_weights
        return int(np.dot(np.asarray(counts, dtype=np.int64), weights))

    def stats(self, side: SideName, counts: Counts) -> SideStats:
        """The side's total in a combat; stands of one class counted alike are alike here."""
        key = (side, self.offset(side, counts))
        found = self._stats.get(key)
        if found is None:
            stands = self.classes.members(side, counts)
            total = side_total(self.battle, stands, attacking=side == "attacker")
            found = SideStats(total.total, total.fighters, total.can_fight, len(stands))
            self._stats[key] = found
        return found

    # --- steps 1-3 ------------------------------------------------------------------------------

    def groupings(self, defender: Counts) -> list[Grouping]:
        found = self._groupings.get(defender)
        if found is None:
            alive = self.classes.members("defender", defender) + self.battle.attacker.ids()
            battle = self.battle.only(alive)
            seen: dict[tuple[Counts, ...], Grouping] = {}
            for blocks in legal_groupings(battle, most=GROUPINGS_TRIED, budget=self.budget):
                comps = tuple(self.classes.counts("defender", block) for block in blocks)
                seen.setdefault(tuple(sorted(comps)), self.grouping(blocks))
            found = list(seen.values())
            self._groupings[defender] = found
        return found

    def grouping(self, blocks: list[list[str]]) -> Grouping:
        comps = tuple(self.classes.counts("defender", block) for block in blocks)
        return Grouping(
            comps,
            np.array([self.offset("defender", c) for c in comps], dtype=np.int64),
            [self.stats("defender", c) for c in comps],
            blocks,
        )

    # --- steps 4-5 ------------------------------------------------------------------------------

    def attacks(self, attacker: Counts, combats: int) -> AttackSet:
        key = (attacker, combats)
        found = self._attacks.get(key)
        if found is None:
            found = self._attack_set(self._useful_attacks(attacker, combats))
            self._attacks[key] = found
        return found

    def _useful_attacks(self, attacker: Counts, combats: int) -> np.ndarray:
        """The legal attacks (counts per combat and class) but for leaders who add nothing."""
        c = self.classes
        squads = [k for k in c.attacker if k.role == Role.squad and attacker[k.index]]
        spreads = prod(comb(attacker[k.index] + combats - 1, combats - 1) for k in squads)
        leaders = sum(attacker[k.index] for k in c.attacker if k.role == Role.leader)
        if spreads > SPREADS or spreads * (combats + 1) ** min(leaders, 3) > 50 * ATTACKS:
            raise TooManyLines(f"about {spreads:,} ways to send the squads to {combats} combats")
        if sum(attacker[k.index] for k in squads) < combats:
            if spreads * (combats + 1) ** leaders > ATTACKS:
                raise TooManyLines(f"too many attacks on {combats} combats")
            legal = class_attacks(c.attacker, c.near, c.commands, attacker, combats, self.tick)
            useful = [a for a in legal if self._adds_something(a)]  # each legal one ticks
            shape = (len(useful), combats, len(c.attacker))
            return np.array(useful, dtype=np.int16).reshape(shape)
        if self._fewest_attacks(attacker, squads, combats) > ATTACKS:
            raise TooManyLines(f"more than {ATTACKS:,} attacks on {combats} combats")
        self.reserve(spreads * (64 + len(squads) * (2 * combats + 8)), "the attacks")
        spread = squad_spreads(squads, attacker, combats, self.look)
        self.look()
        rows = np.arange(len(spread))
        placed: list[tuple[int, np.ndarray]] = []  # (class, combat per row; -1 out) per leader
        taken = np.zeros((len(spread), combats), dtype=bool)
        for leader in c.attacker:
            if leader.role != Role.leader or not attacker[leader.index]:
                continue
            if not self.ratings[leader.index]:
                continue  # a rating of 0 adds nothing where a squad of his side is
            allowed = leader_places(leader, squads, spread, c.near, c.commands)
            for copy in range(attacker[leader.index]):
                self.look()
                here = allowed[rows] & ~taken if self.best_leader_only else allowed[rows]
                if copy:  # identical leaders take combats in order: each arrangement once
                    previous = placed[-1][1][:, None]
                    later = np.arange(combats)[None, :]
                    here &= (later > previous if self.best_leader_only else later >= previous) & (
                        previous >= 0
                    )
                out_rows = np.arange(len(rows))
                row_in, combat_in = np.nonzero(here)
                if len(out_rows) + len(row_in) > ATTACKS:
                    raise TooManyLines(f"more than {ATTACKS:,} attacks on {combats} combats")
                order = np.concatenate([out_rows, row_in])
                rows = rows[order]
                taken = taken[order].copy()
                taken[len(out_rows) + np.arange(len(row_in)), combat_in] = True
                choice = np.concatenate([np.full(len(out_rows), -1), combat_in])
                placed = [(cls, where[order]) for cls, where in placed]
                placed.append((leader.index, choice))
        self.reserve(len(rows) * combats * len(c.attacker) * 2, "the attacks")
        self.look()
        counts = np.zeros((len(rows), combats, len(c.attacker)), dtype=np.int16)
        for index, squad in enumerate(squads):
            counts[:, :, squad.index] = spread[rows, index, :]
        for cls, where in placed:
            joined = where >= 0
            counts[np.flatnonzero(joined), where[joined], cls] += 1
        return counts

    def _fewest_attacks(self, attacker: Counts, squads: Sequence[StandClass], combats: int) -> int:
        """A lower bound of the attacks :meth:`_useful_attacks` lists when every combat gets a
        squad, worked out before any is built: the spreads that cover every combat (4a, 4e;
        counted by inclusion and exclusion), each with no leader or with any one leader who
        always has a place (rated above 0, near a squad of his own troops: 5a, 5b).
        """
        c = self.classes
        spreads = sum(
            (-1) ** empty
            * comb(combats, empty)
            * prod(
                comb(attacker[k.index] + combats - empty - 1, combats - empty - 1) for k in squads
            )
            for empty in range(combats)
        )
        placed = sum(
            1
            for leader in c.attacker
            if leader.role == Role.leader
            and attacker[leader.index]
            and self.ratings[leader.index]
            and any(
                c.near[leader.index][k.index]
                and (not leader.platoon_leader or c.commands[leader.index][k.index])
                for k in squads
            )
        )
        return int(spreads) * (1 + placed)

    def _adds_something(self, attack: Sequence[Counts]) -> bool:
        """Whether every leader of an attack raises his combat's total (see the module text).

        Beside a squad a leader adds his rating under L3: one rated 0 adds nothing, nor (the
        best rating counting) a second. In a combat without squads one CC or BC takes it as a
        squad and adds the squad's value (4b); any other there is a leader only (5c). With the
        best rating counting, the head alone, or the head and one leader who rates higher than
        every CC and BC there (a Commissar attached to one, who stands near him), give the
        total of any more; with the ratings summed every one is kept (one rated 0 may be the
        one the others stand near).
        """
        classes = self.classes.attacker
        for combat in attack:
            here = [(k, n) for n, k in zip(combat, classes, strict=True) if n]
            leaders = [(self.ratings[k.index], n) for k, n in here if k.role == Role.leader]
            count = sum(n for _, n in leaders)
            if any(k.role == Role.squad for k, _ in here):
                if any(not rating for rating, _ in leaders):
                    return False
                if self.best_leader_only and count > 1:
                    return False
            elif count > 1 and self.best_leader_only:
                heads = [self.ratings[k.index] for k, _ in here if k.commander]
                others = [self.ratings[k.index] for k, _ in here if not k.commander]
                if count > 2 or not others or max(others) <= max(heads):
                    return False
        return True

    def _attack_set(self, counts: np.ndarray) -> AttackSet:
        offsets = np.zeros(counts.shape[:2], dtype=np.int64)
        for cls, weight in enumerate(self.a_weights.tolist()):
            self.look()
            offsets += counts[:, :, cls].astype(np.int64) * weight
        self.look()
        first, kinds = _distinct(offsets, self.space.a_size)
        self.look()
        flat = counts.reshape(-1, counts.shape[2])
        stats = []
        for i in first:
            self.tick()
            stats.append(self.stats("attacker", tuple(int(n) for n in flat[i])))
        return AttackSet(counts, offsets, kinds, stats)

    # --- step 6 ---------------------------------------------------------------------------------

    def reallocations(
        self, grouping: Grouping, opposed: Sequence[bool]
    ) -> list[tuple[Counts, ...]]:
        key = (grouping.comps, tuple(opposed))
        found = self._reallocations.get(key)
        if found is None:
            found = self._reallocations[key] = list(
                class_reallocations(
                    self.classes.defender, grouping.comps, opposed, self.one_by_one, self.tick
                )
            )
        return found


class Odds:
    """P(attacker wins) of a combat from both sides' stats: vectorised floats, or exact.

    Each probability is worked out when a line first needs it (with pools of dice there are
    (2 * DIFF_LIMIT + 1) * (fighters + 2) ** 2 of them, most of which no line of a time-limited
    search reaches), then kept.
    """

    def __init__(self, battle: Battle, most_fighters: int):
        ruleset = battle.ruleset
        self.pool = ruleset.value("dice_mode") == "pool"
        self.ties = ruleset.value("ties")
        self.cap = most_fighters + 1 if self.pool else 0
        shape = (2 * DIFF_LIMIT + 1, self.cap + 1, self.cap + 1)
        #: The float of every probability worked out so far (NaN: not yet); a single die each
        #: has one per difference, all worked out at once.
        self.table = np.full(shape, np.nan)
        #: 1 where the attacker wins for certain, -1 where he cannot win, 0 between (exactly),
        #: beside each float of the table.
        self.sure = np.zeros(shape, dtype=np.int8)
        self._certainties: dict[tuple[int, tuple[tuple[int, int, bool], ...]], Certainty] = {}
        if not self.pool:
            for diff in range(-DIFF_LIMIT, DIFF_LIMIT + 1):
                self._work_out(diff + DIFF_LIMIT, 0, 0)

    def _exact(self, diff: int, attacker_dice: int, defender_dice: int) -> Fraction:
        if self.pool:
            return win_probability(diff, "pool", self.ties, (attacker_dice, defender_dice))
        return win_probability(diff, "single", self.ties)

    def _work_out(self, row: int, attacker_dice: int, defender_dice: int) -> None:
        """One entry of the table and of ``sure`` (row = difference + DIFF_LIMIT)."""
        p = self._exact(row - DIFF_LIMIT, attacker_dice, defender_dice)
        self.table[row, attacker_dice, defender_dice] = float(p)
        self.sure[row, attacker_dice, defender_dice] = int(p == 1) - int(p == 0)

    def _cells(self, at: tuple[np.ndarray, np.ndarray, np.ndarray]) -> np.ndarray:
        """The raveled places of the entries at ``at``, working out those no line has needed
        yet."""
        cells = np.ravel_multi_index(at, self.table.shape)
        missing = cells[np.isnan(self.table.ravel()[cells])]
        for cell in np.unique(missing).tolist():
            row, a, d = np.unravel_index(cell, self.table.shape)
            self._work_out(int(row), int(a), int(d))
        return cells

    def _difference(self, ta: Any, fa: Any, td: Any, fd: Any) -> Any:
        """The difference the table is indexed by (scores compared in pool mode, else totals)."""
        return (ta - fa) - (td - fd) if self.pool else ta - td

    def floats(self, attacks: AttackSet, rows: Any, defender: Sequence[SideStats]) -> np.ndarray:
        """P(attacker wins) of every combat of the given attacks: (attacks, combats)."""
        return np.asarray(self.kind_floats(attacks, defender).ravel()[attacks.cells[rows]])

    def kind_floats(self, attacks: AttackSet, defender: Sequence[SideStats]) -> np.ndarray:
        """P(attacker wins) of each composition of ``attacks`` against each of the defender's
        combats: (compositions, combats), read by :attr:`AttackSet.kinds`."""
        return self.of(*_each_kind(attacks, defender))

    def certainty(self, attacks: AttackSet, defender: Sequence[SideStats]) -> Certainty:
        """Exactly whether the attacker wins each combat of each attack for certain, cannot win
        it, or either may happen; worked out once for groupings whose combats fight alike (a
        garrison's FO or sniper may be in either of two combats and change no odds)."""
        # a kept Certainty holds its attacks, so their id is not reused while it is kept
        key = (id(attacks), tuple((s.total, s.fighters, s.can_fight) for s in defender))
        found = self._certainties.get(key)
        if found is None:
            sure = self._looked_up(self.sure, (1, -1), *_each_kind(attacks, defender))
            found = self._certainties[key] = Certainty(sure.astype(np.int8), attacks)
        return found

    def of(
        self,
        ta: np.ndarray,
        fa: np.ndarray,
        ca: np.ndarray,
        td: np.ndarray,
        fd: np.ndarray,
        cd: np.ndarray,
    ) -> np.ndarray:
        """P(attacker wins) from arrays of both sides' totals, fighters and can-fight flags."""
        return self._looked_up(self.table, (1.0, 0.0), ta, fa, ca, td, fd, cd)

    def _looked_up(
        self,
        table: np.ndarray,
        ends: tuple[float, float],
        ta: np.ndarray,
        fa: np.ndarray,
        ca: np.ndarray,
        td: np.ndarray,
        fd: np.ndarray,
        cd: np.ndarray,
    ) -> np.ndarray:
        """``table``'s entry for each combat; ``ends`` where the defender, or the attacker,
        cannot fight."""
        # np.minimum/np.maximum rather than np.clip: clip's own cost dominates on small arrays
        d = np.minimum(np.maximum(self._difference(ta, fa, td, fd), -DIFF_LIMIT), DIFF_LIMIT)
        if self.pool:
            at = (d + DIFF_LIMIT, np.minimum(fa, self.cap), np.minimum(fd, self.cap))
            p = table.ravel()[self._cells(at)]
        else:
            p = table[d + DIFF_LIMIT, 0, 0]
        return np.asarray(np.where(ca, np.where(cd, p, ends[0]), ends[1]))

    def fraction(self, attacker: SideStats, defender: SideStats) -> Fraction:
        if not attacker.can_fight:
            return Fraction(0)
        if not defender.can_fight:
            return Fraction(1)
        a, d = attacker, defender
        diff = int(self._difference(a.total, a.fighters, d.total, d.fighters))
        diff = min(max(diff, -DIFF_LIMIT), DIFF_LIMIT)
        return self._exact(diff, min(a.fighters, self.cap), min(d.fighters, self.cap))


class Certainty:
    """Whether the attacker wins each combat of each attack on one grouping for certain (1),
    cannot win it (-1) or either may happen (0), exactly; an attack that leaves a combat
    unopposed counts as uncertain in every combat (step 6 decides its combats).

    ``table`` holds it for each composition of the attacks against each combat
    (:attr:`AttackSet.kinds`), so that no (attacks, combats) array is built.
    """

    def __init__(self, table: np.ndarray, attacks: AttackSet):
        self.table = table
        self.attacks = attacks
        self._tallies: dict[int, np.ndarray] = {}

    def row(self, a: int) -> np.ndarray:
        """Each combat's outcome of attack ``a``."""
        combats = self.table.shape[1]
        if not self.attacks.full[a]:
            return np.zeros(combats, dtype=np.int8)
        return np.asarray(self.table[self.attacks.kinds[a], np.arange(combats)])

    def tally(self, outcome: int) -> np.ndarray:
        """How many combats of each attack end ``outcome`` (1, -1 or 0)."""
        found = self._tallies.get(outcome)
        if found is None:
            found = self._tallies[outcome] = self._counted(outcome)
        return found

    def _counted(self, outcome: int) -> np.ndarray:
        combats = self.table.shape[1]
        hits = self.table == outcome
        count = np.zeros(self.attacks.size, dtype=np.int8)
        for k in range(combats):
            count += hits[:, k][self.attacks.kinds[:, k]]
        count[~self.attacks.full] = combats if outcome == 0 else 0
        return count


def _each_kind(attacks: AttackSet, defender: Sequence[SideStats]) -> tuple[Any, ...]:
    """The odds' inputs of every composition of ``attacks`` (rows) against each of the
    defender's combats (columns)."""
    ours, theirs = attacks.sides, SideArrays.of(defender)
    return (
        ours.total[:, None],
        ours.fighters[:, None],
        ours.can_fight[:, None],
        theirs.total,
        theirs.fighters,
        theirs.can_fight,
    )
