"""The game solved by enumeration, from the battle's own first round: the exact best line for
one side, the other choices of equal value and the runner-up, and for a fight objective
(``take``) the whole fight.

The deciding side's choices are ranked by their float values; every choice whose float lies
within twice :data:`~.engine.EPSILON` of the best (or, for the runner-up, of the best of the
rest) is valued exactly, so ties and the runner-up are decided with fractions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from itertools import product
from typing import TypeVar

import numpy as np

from allocator.core.budget import Budget
from allocator.core.errors import TimeLimitError
from allocator.games.crossfire.battle import Battle
from allocator.games.crossfire.objectives import FightObjective, Objective
from allocator.games.crossfire.odds import round_odds
from allocator.games.crossfire.rules.base import Counts, TooManyLines, combat_names
from allocator.games.crossfire.schema import Allocation
from allocator.games.crossfire.search.classes import Classes
from allocator.games.crossfire.search.engine import (
    EPSILON,
    Engine,
    Option,
    OutOfTime,
    Policy,
    RoundLines,
    alike_attacks,
)
from allocator.games.crossfire.search.enumeration import Certainty
from allocator.games.crossfire.search.lines import Choices, Combats, Line, evaluate

#: The most lines of the first round the enumeration values (beyond, CP-SAT searches).
LINES = 40_000_000
#: Seconds each piece of the bounds may take once the time limit has stopped the search (the
#: exact values of every grouping's best attack share one such budget).
BOUNDS_SECONDS = 0.1

T = TypeVar("T")


@dataclass
class FightStats:
    """How the whole fight goes when both sides play the optimal line in every round."""

    p_attacker_takes: Fraction
    expected_rounds: Fraction
    expected_lost: dict[str, Fraction]
    outcomes: dict[tuple[int, int], Fraction]
    states: int


@dataclass
class GameOutcome:
    """The enumeration's answer at the root, as data (the words live in :mod:`..words`)."""

    line: Line
    choices: Choices
    proven: bool
    states: int
    fight: FightStats | None = None
    bounds: tuple[Fraction, Fraction] | None = None
    one_round: Fraction | None = None
    playbook: Playbook | None = None


def solve_game(
    battle: Battle,
    side: str,
    objective: Objective,
    rounds: int | None,
    budget: Budget,
    given: Combats | None = None,
    searched: Engine | None = None,
) -> GameOutcome:
    """The best line for ``side`` by enumeration of the round's lines and the fight's states.

    Parameters
    ----------
    battle
        The fight, as read from its file.
    side
        ``"defender"`` or ``"attacker"``: whose choice is searched (the other side answers it
        at its best).
    objective
        What the deciding side plays for (:func:`~..objectives.objective_named`).
    rounds
        How many rounds are played (``None``: until one side is gone).
    budget
        The answer's time and memory; when it runs out the best line found so far is returned,
        not proven, with the bounds known then.
    given
        The file's grouping, for the attacker to answer (``None``: the defender's best).
    searched
        The engine of a finished search of the same battle and objective, whose states are
        then not searched again (the attacker's answer to the defender's best grouping).

    Returns
    -------
    GameOutcome
        The best line, the other choices, whether it is proven, the states searched and, for
        the whole fight, the bounds and the playbook.

    Examples
    --------
    Two rifle squads against one take the building with probability 21/31:

    >>> from allocator.games.crossfire.battle import battle_from_data
    >>> from allocator.games.crossfire.objectives import objective_named
    >>> battle = battle_from_data({
    ...     "defender": {"units": [{"id": "p", "kind": "platoon"}],
    ...                  "stands": [{"id": "d1", "type": "rifle", "unit": "p"}]},
    ...     "attacker": {"units": [{"id": "q", "kind": "platoon"}], "stands": [
    ...         {"id": "a1", "type": "rifle", "unit": "q"},
    ...         {"id": "a2", "type": "rifle", "unit": "q"}]},
    ... })
    >>> outcome = solve_game(battle, "attacker", objective_named("take"), None, Budget(10))
    >>> outcome.proven, outcome.line.value, outcome.line.attack
    (True, Fraction(21, 31), {'A': ['a1', 'a2']})
    """
    engine = searched or Engine(battle, objective, rounds, budget)
    engine.budget = budget
    root = RootGame(engine, given)
    try:
        return root.solve(side)
    except (OutOfTime, TimeLimitError):
        if budget.cancelled:  # nobody waits for the best found: the work ends here
            raise budget.ran_out() from None
        return root.bounded(side)


@dataclass
class RootGame:
    """The first round of the battle, solved for one side."""

    engine: Engine
    given: Combats | None
    lines: RoundLines = field(init=False)

    def __post_init__(self) -> None:
        e = self.engine
        groupings = None
        if self.given is not None:
            groupings = [e.root.grouping([list(ids) for ids in self.given.values()])]
        self.lines = e.round_lines(e.root, e.root_index(), groupings)
        self.names = list(self.given) if self.given is not None else None
        lines = sum(a.size for a in self.lines.attacks)
        if lines > LINES:
            raise TooManyLines(f"{lines:,} lines of play in the first round")

    # --- the whole answer -----------------------------------------------------------------------

    def solve(self, side: str) -> GameOutcome:
        e, rounds = self.engine, self.engine.rounds
        later = None if rounds is None else rounds - 1
        if isinstance(e.objective, FightObjective):
            settled = self._settled(side)
            if settled is not None:
                return settled
        values = e.line_values(self.lines, rounds, partial=True)
        if not self.lines.complete:
            raise OutOfTime  # the choices not valued may be better: only bounds are known
        valued = self.lines.valued()
        if self.given is None:
            groupings = _ranked(
                valued,
                np.array([values[g].max() for g in valued]),
                lambda g: e.exact_grouping(self.lines, g, rounds)[0],
                low=True,
            )
            g = groupings.best
        else:
            g = 0
        value, policy = e.exact_grouping(self.lines, g, rounds)
        if side == "defender" and self.given is None:
            runner = None
            if groupings.runner is not None:
                runner = self._line(*e.exact_grouping(self.lines, groupings.runner, rounds))
            choices = Choices(groupings.same, self.lines.complete, runner)
        else:
            rows = values[g]
            keys = alike_attacks(e.objective, self.lines.attacks[g])
            worth: dict[int, Fraction] = {}

            def exact(a: int) -> Fraction:
                key = int(keys[a])
                if key not in worth:
                    worth[key] = e.exact_attack(self.lines, g, a, later, float(rows[a]))[0]
                return worth[key]

            attacks = _ranked(range(len(rows)), rows, exact, low=False)
            runner = None
            if attacks.runner is not None:
                runner = self._line(
                    *e.exact_attack(
                        self.lines, g, attacks.runner, later, float(rows[attacks.runner])
                    )
                )
            choices = Choices(attacks.same, True, runner)
        outcome = GameOutcome(self._line(value, policy), choices, True, e.states)
        if isinstance(e.objective, FightObjective):
            outcome.fight = self._fight(policy)
            outcome.one_round = self._one_round_cost()
            outcome.playbook = Playbook(self, policy)
        return outcome

    # --- a fight a bound settles before it is searched ------------------------------------------

    def _settled(self, side: str) -> GameOutcome | None:
        """The answer without a search of the fight, when the first round alone settles it.

        Each combat is looked at on its own. If every grouping has an attack that wins every
        combat for certain, the building is taken in round 1 whatever the defender does: the
        value is exactly 1; so it is when every grouping has an attack all of whose outcomes
        lead to states where the building is taken for certain (:meth:`.Engine.proof`). If
        some grouping meets every attack with combats the attacker cannot win, and losing them
        all leaves him nothing to fight on with, it is exactly 0. The choices whose value only
        the search could tell are not counted (the count is then not complete) and there is no
        runner-up (none can be worse than 0, nor better than 1).
        """
        e, lines = self.engine, self.lines
        groupings = range(len(lines.groupings))
        sure = cache(lambda g: e.certainty(lines, g))  # each grouping's, once it is asked

        def winning(g: int) -> np.ndarray:
            return np.flatnonzero(sure(g).tally(1) == len(lines.groupings[g].comps))

        won = all(len(winning(g)) for g in groupings)
        proof = None if won else e.proving_attacks(lines, e.rounds, sure)
        if proof is not None:
            g, a = 0, proof[0]
            every = side == "defender" and self.given is None
            choices = Choices(len(lines.groupings) - 1 if every else 0, every, None)
        elif won:
            g = 0
            a = int(winning(g)[0])
            if side == "defender" and self.given is None:
                choices = Choices(len(lines.groupings) - 1, True, None)
            else:
                choices = Choices(len(winning(g)) - 1, False, None)
        else:
            hopeless = [g for g in groupings if self._hopeless(g, sure)]
            if not hopeless:
                return None
            g, a = hopeless[0], 0
            if side == "defender" and self.given is None:
                choices = Choices(len(hopeless) - 1, len(hopeless) == len(lines.groupings), None)
            else:
                choices = Choices(lines.attacks[g].size - 1, True, None)
        later = None if e.rounds is None else e.rounds - 1
        value, policy = e.exact_attack(lines, g, a, later, 0.0)
        outcome = GameOutcome(self._line(value, policy), choices, True, e.states)
        outcome.fight = self._fight(policy)
        outcome.one_round = value if value == 1 else None
        outcome.playbook = Playbook(self, policy)
        return outcome

    def _hopeless(self, g: int, sure: Callable[[int], Certainty]) -> bool:
        """Whether every attack on grouping ``g`` opposes every combat, loses each for certain
        (``sure``: each grouping's certainty), and leaves the attacker nothing that fights on
        (7b)."""
        attacks = self.lines.attacks[g]
        combats = len(self.lines.groupings[g].comps)
        if not attacks.size or not attacks.full.all() or (sure(g).tally(-1) < combats).any():
            return False
        left = self.lines.index - attacks.offsets.sum(axis=1)
        return all(self.engine.space.winner(int(i)) == "defender" for i in np.unique(left))

    # --- a line of play, by stand ---------------------------------------------------------------

    def _line(self, value: Fraction, policy: Policy) -> Line:
        """The line of ``policy`` at the root, with stand ids and combat names."""
        battle = self.engine.battle
        allocation = instantiate(self.lines, policy.option, battle, self.names)
        return Line(
            allocation.combats or {}, allocation.attack or {}, allocation.reallocate or {}, value
        )

    # --- the whole fight --------------------------------------------------------------------------

    def _fight(self, root: Policy) -> FightStats:
        """Where the optimal line leads: exact probabilities of every ending (a forward pass)."""
        e = self.engine
        space = e.space
        reach: dict[tuple[int, int | None], Fraction] = {}
        later = None if e.rounds is None else e.rounds - 1
        for child, prob in root.outcomes:
            reach[(child, later)] = reach.get((child, later), Fraction(0)) + prob
        ended: dict[tuple[int, int], Fraction] = {}
        rounds_played = Fraction(1)
        start = space.left(e.root_index())
        while reach:
            key = max(reach)
            prob = reach.pop(key)
            index, left = key
            if space.winner(index) is not None or left == 0:
                where = space.left(index)
                ended[where] = ended.get(where, Fraction(0)) + prob
                continue
            rounds_played += prob
            policy = e.policy[e._key(index, left)]
            nxt = None if left is None else left - 1
            for child, p in policy.outcomes:
                reach[(child, nxt)] = reach.get((child, nxt), Fraction(0)) + prob * p
        takes = sum((p for (_, defenders), p in ended.items() if defenders == 0), Fraction(0))
        lost = {
            "attacker": sum((p * (start[0] - a) for (a, _), p in ended.items()), Fraction(0)),
            "defender": sum((p * (start[1] - d) for (_, d), p in ended.items()), Fraction(0)),
        }
        return FightStats(takes, rounds_played, lost, dict(sorted(ended.items())), e.states)

    def _one_round_cost(self) -> Fraction | None:
        """What the grouping best for the first round alone (the fight objective's
        ``first_round``) is worth over the whole fight (None when the time limit stopped the
        search before it valued that grouping)."""
        if self.given is not None:
            return None
        e = self.engine
        first = Engine(e.battle, e.fight.first_round, None, e.budget)
        # the same lines as the fight's first round (a round's lines do not depend on the
        # objective), valued afresh
        lines = RoundLines(
            self.lines.view, self.lines.index, self.lines.groupings, self.lines.attacks
        )
        values = first.grouping_values(lines, None)
        best = min(range(len(values)), key=lambda g: values[g])
        chosen = sorted(lines.groupings[best].comps)
        for g in self.lines.valued():
            if sorted(self.lines.groupings[g].comps) == chosen:
                return e.exact_grouping(self.lines, g, e.rounds)[0]
        return None

    # --- when the time limit stops the search -----------------------------------------------------

    def bounded(self, side: str) -> GameOutcome:
        """The best line found and bounds of the optimum, from the states searched in time.

        Every number is exact. The states not searched count as the most a value can be (for
        the upper bound: the best grouping's exact value so) and then as the least (the line's
        own value, and the lower bound: each grouping's best attack valued exactly so), each
        pass of the first round's lines and each exact value given :data:`BOUNDS_SECONDS` (the
        lower bound's values of every grouping's best attack share it). A pass cut short
        bounds the optimum from the groupings it reached, or (the lower bound) not at all. The
        upper bound's pass may stop in the first grouping (when the first round alone has more
        lines than it can value in its time, the upper bound is then the most a value can be,
        and the line's grouping the one most promising by the lower pass); the lower bound's,
        which gives the line, values the first grouping whatever it takes. A line whose exact
        value was not reached in time is worth what its first round alone gives (for
        ``take``, the chance of taking the building in that round), a lower bound of its value
        too. Both sides answer the grouping most promising for the defender (or the file's).

        When the bounds meet at the line's value, that grouping's upper bound is the one
        reached, and every state the line leads to was searched, the line is proven optimal
        (:meth:`_proven`); its other choices are still not all compared.
        """
        e = self.engine
        ends = e.bounds or (None, None)
        high, high_complete = self._pass(ends[1], anywhere=True)
        top_high = {g: float(v.max()) for g, v in enumerate(high) if len(v)}
        upper = min(top_high, key=top_high.__getitem__) if top_high else None
        hi = None
        if upper is not None:
            hi = self._exactly(lambda: e.exact_grouping(self.lines, upper, e.rounds)[0])
        low, low_complete = self._pass(ends[0])
        top_low = {g: float(v.max()) for g, v in enumerate(low) if len(v)}
        valued = [g for g in top_high if g in top_low] or list(top_low)
        promise = top_high if top_high else top_low
        g = min(valued, key=promise.__getitem__) if self.given is None else 0
        later = None if e.rounds is None else e.rounds - 1

        def best_attack(g: int, budget: Budget | None = None) -> tuple[Fraction, Policy] | None:
            a = int(np.argmax(low[g]))
            return self._exactly(
                lambda: e.exact_attack(self.lines, g, a, later, float(low[g][a])), budget
            )

        found = best_attack(g)
        if found is None:
            a = int(np.argmax(low[g]))
            policy = Policy(Option(g, a, self._finals(g, a)), Fraction(0), [])
            line = self._line(Fraction(0), policy)
            line.value = evaluate(
                e.battle, e.objective.first_round, line.combats, line.attack, line.reallocate
            )
        else:
            policy = found[1]
            line = self._line(*found)
        bounds = None
        if e.bounds is not None:
            least, most = e.bounds
            every = range(len(self.lines.groupings))
            shared = Budget(BOUNDS_SECONDS)
            lows = [best_attack(k, shared) for k in every] if low_complete and high_complete else []
            values = [v[0] for v in lows if v is not None]
            lo = min(values) if values and len(values) == len(lows) else least
            bounds = (lo, most if hi is None else hi)
        e.unknown_as = None
        if found is not None and g == upper and self._proven(line.value, bounds, policy):
            outcome = GameOutcome(line, Choices(0, False, None), True, e.states)
            if isinstance(e.objective, FightObjective):
                outcome.fight = self._fight(policy)
                outcome.playbook = Playbook(self, policy)
            return outcome
        return GameOutcome(line, Choices(0, False, None), False, e.states, bounds=bounds)

    def _proven(
        self, value: Fraction, bounds: tuple[Fraction, Fraction] | None, policy: Policy
    ) -> bool:
        """Whether a stopped search's line is proven optimal.

        The bounds meeting at the line's value prove the optimum. The line is worth it when its
        grouping's upper bound is the one that met (the caller's check) and every state it leads
        to was searched, so that its value assumed nothing: then no attack on that grouping is
        worth more, and no reallocation less, than the line.
        """
        if bounds is None or not bounds[0] == bounds[1] == value:
            return False
        e = self.engine
        later = None if e.rounds is None else e.rounds - 1
        return all(
            later == 0 or e.space.winner(child) is not None or e._known(child, later) is not None
            for child, _ in policy.outcomes
        )

    def _pass(
        self, unknown: Fraction | None, anywhere: bool = False
    ) -> tuple[list[np.ndarray], bool]:
        """The first round's lines valued with the states not searched counted as ``unknown``
        (a round objective has none), within :data:`BOUNDS_SECONDS`: the first grouping
        whatever the time it takes, unless ``anywhere``."""
        e = self.engine
        e.unknown_as = unknown
        e.budget = Budget(BOUNDS_SECONDS)
        self.lines.forget()
        values = e.line_values(self.lines, e.rounds, partial=True, anywhere=anywhere)
        return values, self.lines.complete

    def _exactly(self, value: Callable[[], T], budget: Budget | None = None) -> T | None:
        """An exact value worked out within ``budget`` (by default :data:`BOUNDS_SECONDS` of
        its own), or None."""
        self.engine.budget = budget or Budget(BOUNDS_SECONDS)
        try:
            return value()
        except OutOfTime:
            return None

    def _finals(self, g: int, a: int) -> tuple[Counts, ...] | None:
        attacks = self.lines.attacks[g]
        if attacks.full[a]:
            return None
        later = None if self.engine.rounds is None else self.engine.rounds - 1
        options = self.engine.reallocation_values(self.lines, g, a, later)
        return min(options, key=lambda option: option[1])[0]


def instantiate(
    lines: RoundLines, option: Option, battle: Battle, names: list[str] | None = None
) -> Allocation:
    """A line of a round, by class, as an allocation of the stands of ``battle`` that are left.

    The round's groupings were enumerated on representative stands (the first of each class);
    each is replaced by a stand of the same class that is in ``battle``, in file order.

    Parameters
    ----------
    lines
        The round's groupings and attacks, by class (:meth:`Engine.round_lines`).
    option
        The line chosen: a grouping, an attack on it and, if any, step 6's finals.
    battle
        The battle whose stands fill the classes (a later round's survivors, or the file's).
    names
        The combats' names (default ``A``, ``B``, ...).

    Returns
    -------
    Allocation
        The combats, the attack and the reallocation, by stand id.
    """
    classes = lines.view.classes
    grouping = lines.groupings[option.grouping]
    attacks = lines.attacks[option.grouping]
    actual: dict[str, str] = {}
    for c, stands in _by_class(classes, battle.defender.ids()).items():
        for representative, stand in zip(classes.defender[c].members, stands, strict=False):
            actual[representative] = stand
    names = names or combat_names(len(grouping.blocks))
    combats = {
        name: [actual[s] for s in block] for name, block in zip(names, grouping.blocks, strict=True)
    }
    free = _by_class(classes, battle.attacker.ids())
    attack: dict[str, list[str]] = {}
    for k, name in enumerate(names):
        for c, n in enumerate(attacks.comps(option.attack)[k]):
            if n:
                attack.setdefault(name, []).extend(free[c][:n])
                free[c] = free[c][n:]
    order = battle.attacker.ids()
    attack = {name: sorted(ids, key=order.index) for name, ids in attack.items()}
    reallocate: dict[str, str] = {}
    if option.finals is not None:
        active = [k for k, name in enumerate(names) if attack.get(name)]
        unopposed = [s for k, name in enumerate(names) if k not in active for s in combats[name]]
        moving = _by_class(classes, unopposed)
        for k, final in zip(active, option.finals, strict=True):
            for c, n in enumerate(final):
                extra = n - grouping.comps[k][c]
                for stand in moving.get(c, [])[:extra]:
                    reallocate[stand] = names[k]
                moving[c] = moving.get(c, [])[extra:]
    return Allocation(combats=combats, attack=attack, reallocate=reallocate)


def _by_class(classes: Classes, stands: list[str]) -> dict[int, list[str]]:
    found: dict[int, list[str]] = {}
    for stand in stands:
        found.setdefault(classes.class_of[stand].index, []).append(stand)
    return found


@dataclass
class Playbook:
    """What both sides play in every round of the whole fight, for a simulation to follow."""

    root: RootGame
    first: Policy

    def allocation(self, battle: Battle, round_number: int) -> Allocation:
        """The line of play of round ``round_number`` (1: the battle's own) for the stands of
        ``battle`` that are left."""
        root = self.root
        if round_number == 1:
            return instantiate(root.lines, self.first.option, battle, root.names)
        e = root.engine
        c = e.space.classes
        index = e.space.index(
            c.counts("defender", battle.defender.ids()), c.counts("attacker", battle.attacker.ids())
        )
        left = None if e.rounds is None else e.rounds - round_number + 1
        key = e._key(index, left)
        if key not in e.policy:
            self._exact_value(index, left)
        lines = e.searched.get(key) or e.round_lines(e.later, index)
        return instantiate(lines, e.policy[key].option, battle)

    def value_of(self, allocation: Allocation) -> Fraction:
        """The exact chance that the attacker takes the building when round 1 is played as
        ``allocation`` (a complete legal allocation) and every later round as the playbook.

        Every state this can reach gets its line of play here, so that :meth:`allocation`
        finds them all without searching again.
        """
        e = self.root.engine
        battle, c = e.battle, e.space.classes
        combats = round_odds(
            battle, allocation.combats or {}, allocation.attack or {}, allocation.reallocate or {}
        )
        left = None if e.rounds is None else e.rounds - 1
        value = Fraction(0)
        for wins in product((True, False), repeat=len(combats)):
            prob, removed = Fraction(1), set[str]()
            for combat, won in zip(combats, wins, strict=True):
                prob *= combat.p_attacker_wins if won else 1 - combat.p_attacker_wins
                removed.update(combat.defenders if won else combat.attackers)
            if prob:
                defenders = [s for s in battle.defender.ids() if s not in removed]
                attackers = [s for s in battle.attacker.ids() if s not in removed]
                index = e.space.index(
                    c.counts("defender", defenders), c.counts("attacker", attackers)
                )
                value += prob * self._exact_value(index, left)
        return value

    def _exact_value(self, index: int, left: int | None) -> Fraction:
        try:
            return self.root.engine.exact_value(index, left)
        except OutOfTime:
            budget = self.root.engine.budget
            raise budget.ran_out("the line of a later round") from None


@dataclass
class Ranked:
    """The exact best choice, how many others equal it, and the exact runner-up."""

    best: int
    same: int
    runner: int | None


def _ranked(
    choices: Sequence[int], floats: np.ndarray, exact: Callable[[int], Fraction], low: bool
) -> Ranked:
    """Rank choices by float, deciding the best, its equals and the runner-up exactly."""
    ids = np.asarray(choices)
    keyed = floats if low else -floats
    order = np.lexsort((ids, keyed))  # by value, then by choice
    near = np.abs(keyed - keyed[order[0]]) <= 2 * EPSILON
    if not near.all():
        near |= np.abs(keyed - keyed[~near].min()) <= 2 * EPSILON
    candidates = [int(ids[i]) for i in order[near[order]]]
    values = {i: exact(i) for i in candidates}
    best_value = min(values.values()) if low else max(values.values())
    best = next(i for i in candidates if values[i] == best_value)
    same = sum(1 for v in values.values() if v == best_value) - 1
    worse = [i for i in values if values[i] != best_value]
    runner = None
    if worse:
        runner = (min if low else max)(worse, key=lambda i: (values[i], -i if not low else i))
    return Ranked(best, same, runner)
