"""Planning an assault: which stands to commit to the whole fight, or to garrison the building.

The attacker chooses from the stands the file marks ``available`` (else his whole force) which
to send in; the defender chooses which to put in the building, within its capacity (B1). Each
choice is valued by the whole fight (objective ``take``, both sides at their best in every
round), always as the attacker's chance of taking the building:

* the attacker's plan: every commitment against the defender's stands;
* the defender's plan: every garrison against the attacker's best commitment from his
  available stands (the commitment that takes it most often).

Stands of one class (:mod:`.search.classes`: same type, unit, rating, quality, suppression and
nearness) are interchangeable, so a choice is a count per class and no two choices that differ
only by swapping such stands are searched twice. The curve gives, for each number of squads
chosen, the best choice (leaders, crew-served weapons, FOs and snipers chosen with them); it is
checked, not assumed, to rise with the squads (for the defender: to fall), and every step
against that is a *dip*. One time limit bounds all the work: what it stops is said as "best
found, not proven optimal".

>>> from allocator.core.library import folder
>>> from allocator.games.crossfire.battle import load_battle
>>> plan = plan_assault(load_battle(folder("scenarios") / "fight-together-or-apart.yaml"),
...                     "attacker")
>>> [(choice.squads, str(choice.value), choice.stands) for choice in plan.curve]
[(0, '1/2', ('acc',)), (1, '19/32', ('a1', 'acc')), (2, '319/512', ('a1', 'a2', 'acc'))]
>>> plan.proven, plan.dips
(True, [])
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import pairwise

from allocator.core.budget import Budget
from allocator.core.errors import InputError, TimeLimitError
from allocator.core.text import plural
from allocator.games.crossfire.answers import PlanAnswer, PlanDip, PlanPoint
from allocator.games.crossfire.battle import Battle, Role, can_assault
from allocator.games.crossfire.objectives import OBJECTIVES
from allocator.games.crossfire.rules.base import StandClass
from allocator.games.crossfire.rules.capacity import INSIDE, fighting_stands
from allocator.games.crossfire.schema import SideName
from allocator.games.crossfire.search.classes import Classes
from allocator.games.crossfire.warnings import plan_warnings

DEFAULT_TIME_LIMIT = 30.0
#: What every choice is valued by: the whole fight.
TAKE = OBJECTIVES["take"]


@dataclass(frozen=True)
class Choice:
    """One choice of stands for the planning side, and what the whole fight gives it.

    ``against`` is the other side's stands it was valued against (for the defender's plan, the
    attacker's best commitment); ``proven`` whether the value is exact (else the best the time
    limit allowed)."""

    squads: int
    stands: tuple[str, ...]
    value: Fraction
    against: tuple[str, ...]
    proven: bool = True


@dataclass(frozen=True)
class Dip:
    """A step of the curve against the side: one more squad that gives a worse best value."""

    squads: int
    value: Fraction
    previous: Fraction


@dataclass
class PlanOutcome:
    """A plan, as data: the curve, the best choice, the fewest stands reaching a target."""

    side: SideName
    target: Fraction | None
    curve: list[Choice]
    best: Choice
    reaching: Choice | None
    dips: list[Dip]
    proven: bool
    #: How many distinct choices the side has (up to swapping interchangeable stands), how many
    #: were valued, and how many fights were solved for them.
    choices: int
    valued: int
    fights: int
    warnings: list[str] = field(default_factory=list)


def squads_of(battle: Battle, stands: Sequence[str]) -> int:
    """How many of ``stands`` are squads (what the curve counts)."""
    return sum(battle.role(s) == Role.squad for s in stands)


def better(side: SideName, value: Fraction, than: Fraction) -> bool:
    """Whether ``value`` is better than ``than`` for ``side`` (values are the attacker's)."""
    return value > than if side == "attacker" else value < than


def _rank(side: SideName, choice: Choice) -> tuple[Fraction, int]:
    """Sort key: the side's best value first, then the fewest stands (the first found wins the
    remaining ties: the enumeration's order is fixed)."""
    return (-choice.value if side == "attacker" else choice.value, len(choice.stands))


class _Side:
    """The stands one side may choose from, as classes of interchangeable stands.

    A choice is a count per class. The attacker's must hold a squad or a CC/BC (4b); the
    defender's at most the building's capacity of squads and crew-served weapons (B1). Choices
    are generated one by one (the defender's pruned by the capacity) under the plan's budget,
    and counted without being generated: a force of many unlike stands has more choices than
    any time limit can value.
    """

    def __init__(self, battle: Battle, name: SideName, pool: list[str], budget: Budget):
        self.battle, self.name, self.budget = battle, name, budget
        view = battle.only([*pool, *battle.side(_other(name)).ids()])
        self.classes = Classes.of(view)
        self.side = self.classes.side(name)
        #: Most squads and weapons a choice may hold (the attacker's are not bounded by it).
        self.room = battle.capacity if name == "defender" else len(pool)

    def choices(self) -> Iterator[tuple[str, ...]]:
        """Every distinct choice, the largest first (for the attacker his whole force, which
        the defender's plan then meets first), as representative stands in file order."""
        for counts in self._counts(0, 0):
            if self._allowed(counts):
                yield tuple(self.classes.members(self.name, counts))

    def _counts(self, index: int, inside: int) -> Iterator[tuple[int, ...]]:
        if index == len(self.side):
            yield ()
            return
        stand_class = self.side[index]
        inside_each = stand_class.role in INSIDE
        for count in range(len(stand_class.members), -1, -1):
            self.budget.check("the plan")
            now = inside + count * inside_each
            if now <= self.room:
                for rest in self._counts(index + 1, now):
                    yield (count, *rest)

    def _allowed(self, counts: tuple[int, ...]) -> bool:
        if self.name == "defender":
            return any(counts)
        return any(n and self._assaults(c) for c, n in zip(self.side, counts, strict=True))

    def _assaults(self, stand_class: StandClass) -> bool:
        """Whether a stand of this class can carry an assault (4b)."""
        return can_assault([self.battle.stand(stand_class.members[0])])

    def count(self) -> int:
        """How many choices :meth:`choices` gives, by counting ways class by class."""
        # (squads and weapons so far, whether one can assault) -> ways
        ways: dict[tuple[int, bool], int] = {(0, False): 1}
        for stand_class in self.side:
            inside_each = stand_class.role in INSIDE
            grown: dict[tuple[int, bool], int] = {}
            for (inside, assaults), many in ways.items():
                for count in range(len(stand_class.members) + 1):
                    now = inside + count * inside_each
                    if now <= self.room:
                        key = (now, assaults or bool(count and self._assaults(stand_class)))
                        grown[key] = grown.get(key, 0) + many
            ways = grown
        if self.name == "defender":
            return sum(ways.values()) - 1  # not the empty garrison
        return sum(many for (_, assaults), many in ways.items() if assaults)


def _other(side: SideName) -> SideName:
    return "defender" if side == "attacker" else "attacker"


class _Fights:
    """The whole fight of a garrison against a commitment, each solved once under one budget."""

    def __init__(self, battle: Battle, budget: Budget, rounds: int | None):
        self.battle, self.budget, self.rounds = battle, budget, rounds
        self.solved: dict[tuple[tuple[str, ...], tuple[str, ...]], tuple[Fraction, bool]] = {}

    def value(
        self, defenders: tuple[str, ...], attackers: tuple[str, ...]
    ) -> tuple[Fraction, bool]:
        """P(take) of ``attackers`` against ``defenders``, and whether it is proven."""
        key = (defenders, attackers)
        if key not in self.solved:
            from allocator.games.crossfire.search.solve import solve

            self.budget.check("the plan")
            fight = self.battle.only([*defenders, *attackers])
            outcome = solve(fight, "attacker", TAKE, rounds=self.rounds, budget=self.budget)
            self.solved[key] = (outcome.line.value, outcome.proven)
        return self.solved[key]


def plan_assault(
    battle: Battle,
    side: SideName,
    target: Fraction | None = None,
    time_limit: float = DEFAULT_TIME_LIMIT,
    rounds: int | None = None,
    budget: Budget | None = None,
) -> PlanOutcome:
    """The best stands for ``side`` to commit (attacker) or garrison (defender), and the curve.

    Parameters
    ----------
    battle : Battle
        The fight; each side's ``available`` stands are what it may choose from (default: all).
    side : {"attacker", "defender"}
        Whose choice: the attacker's commitment against the file's defenders, or the
        defender's garrison against the attacker's best commitment.
    target : Fraction or None
        For the attacker: find the fewest stands whose P(take) is at least ``target``; for the
        defender: the fewest that keep it at most ``target``.
    time_limit : float
        Seconds for all the work, when no ``budget`` is given.
    rounds : int or None
        Fight at most this many rounds (None: until one side is gone).
    budget : Budget or None
        The deadline to keep to (a sweep's cell shares its own).

    Returns
    -------
    PlanOutcome
        ``proven`` is False when the time limit stopped the work: the curve then holds the best
        found of what was valued.

    Raises
    ------
    InputError
        An unknown side, a target outside 0..1, or a defender over the building's capacity
        for the attacker's plan.
    TimeLimitError
        When not one choice could be valued in time, or the memory limit was reached first
        (:class:`~allocator.core.errors.MemoryLimitError`), or the work was cancelled
        (:class:`~allocator.core.errors.WorkCancelled`).

    Examples
    --------
    >>> from allocator.core.library import folder
    >>> from allocator.games.crossfire.battle import load_battle
    >>> battle = load_battle(folder("scenarios") / "fight-together-or-apart.yaml")
    >>> plan = plan_assault(battle, "attacker", target=Fraction(11, 20))
    >>> plan.reaching.stands, plan.reaching.value
    (('a1', 'acc'), Fraction(19, 32))
    """
    if side not in ("attacker", "defender"):
        raise InputError(f"unknown side '{side}' (attacker or defender)")
    if target is not None and not 0 <= target <= 1:
        raise InputError(f"a target is a chance between 0 and 1, not {float(target):g}")
    budget = budget or Budget(time_limit)
    if side == "attacker" and len(fighting_stands(battle)) > battle.capacity:
        raise InputError(
            f"the defender has {len(fighting_stands(battle))} squads and crew-served weapons for "
            f"a capacity of {battle.capacity} (B1): plan the garrison first "
            "(`cfalloc plan FILE --side defender`) and list only it",
            file=battle.file,
            place="defender",
        )
    planning = _Side(battle, side, battle.available(side), budget)
    attacking = (
        planning
        if side == "attacker"
        else _Side(battle, "attacker", battle.available("attacker"), budget)
    )
    if not attacking.count():
        raise InputError(
            "the attacker's available stands hold no squad and no CC or BC to assault with (4b)",
            file=battle.file,
            place="attacker.available",
        )
    fights = _Fights(battle, budget, rounds)
    if side == "attacker":
        found = _attacker_choices(battle, planning, fights)
    else:
        found = _defender_choices(battle, planning, attacking, fights, target)
    valued, complete = found
    if not valued or budget.cancelled:  # cancelled: nobody waits for the best found
        raise budget.ran_out("a plan")
    return _outcome(battle, side, target, valued, complete, planning.count(), len(fights.solved))


def _attacker_choices(
    battle: Battle, attacking: _Side, fights: _Fights
) -> tuple[list[Choice], bool]:
    """Every commitment of the attacker, valued against all the defender's stands."""
    defenders = tuple(battle.defender.ids())
    valued: list[Choice] = []
    try:
        for stands in attacking.choices():
            value, proven = fights.value(defenders, stands)
            valued.append(Choice(squads_of(battle, stands), stands, value, defenders, proven))
    except TimeLimitError:
        return valued, False
    return valued, True


def _defender_choices(
    battle: Battle,
    garrisons: _Side,
    attacking: _Side,
    fights: _Fights,
    target: Fraction | None,
) -> tuple[list[Choice], bool]:
    """Every garrison, valued against the attacker's best commitment.

    A garrison whose attacker has already found a commitment worth more than the best garrison
    of as many squads (and than the target) can enter neither the curve nor the answer to the
    target, so the rest of its commitments are not searched.
    """
    best_of: dict[int, Fraction] = {}
    valued: list[Choice] = []
    complete = True
    try:
        for stands in garrisons.choices():
            squads = squads_of(battle, stands)
            worst: Choice | None = None
            for attackers in attacking.choices():
                value, proven = fights.value(stands, attackers)
                if worst is None or value > worst.value:
                    worst = Choice(squads, stands, value, attackers, proven)
                if value == 1 or (value > best_of.get(squads, 1) and value > (target or 0)):
                    break
            assert worst is not None, "the attacker has a commitment: he can assault (4b)"
            if squads not in best_of or worst.value < best_of[squads]:
                best_of[squads] = worst.value
            valued.append(worst)
    except TimeLimitError:
        complete = False
    return valued, complete


def _outcome(
    battle: Battle,
    side: SideName,
    target: Fraction | None,
    valued: list[Choice],
    complete: bool,
    choices: int,
    fights: int,
) -> PlanOutcome:
    by_squads: dict[int, Choice] = {}
    for choice in sorted(valued, key=lambda c: _rank(side, c)):
        by_squads.setdefault(choice.squads, choice)
    curve = [by_squads[k] for k in sorted(by_squads)]
    best = min(curve, key=lambda c: _rank(side, c))
    dips = [
        Dip(now.squads, now.value, before.value)
        for before, now in pairwise(curve)
        if better(side, before.value, now.value)
    ]
    reaching = None
    if target is not None:
        enough = [c for c in valued if not better(side, target, c.value)]
        reaching = min(enough, key=lambda c: (len(c.stands), _rank(side, c)), default=None)
    proven = complete and all(c.proven for c in valued)
    warnings = []
    if not complete:
        warnings.append(
            f"The time limit stopped the plan after {plural(len(valued), 'choice')} of "
            f"{choices:,}: the curve holds the best of those."
        )
    return PlanOutcome(
        side, target, curve, best, reaching, dips, proven, choices, len(valued), fights, warnings
    )


def plan_answer(
    battle: Battle,
    side: SideName,
    target: Fraction | None = None,
    time_limit: float | None = None,
    rounds: int | None = None,
    budget: Budget | None = None,
) -> PlanAnswer:
    """The JSON answer of :func:`plan_assault` (what ``cfalloc plan --json`` prints; a sweep's
    cell calls it with its own budget).

    >>> from allocator.core.library import folder
    >>> from allocator.games.crossfire.battle import load_battle
    >>> battle = load_battle(folder("scenarios") / "fight-together-or-apart.yaml")
    >>> plan_answer(battle, "attacker").best.value_exact
    Fraction(319, 512)
    """
    from allocator.games.crossfire.words import NOT_PROVEN

    plan = plan_assault(battle, side, target, time_limit or DEFAULT_TIME_LIMIT, rounds, budget)
    return PlanAnswer(
        status="optimal" if plan.proven else "feasible",
        side=side,
        target=None if target is None else float(target),
        target_exact=target,
        rounds=rounds,
        curve=[point(c) for c in plan.curve],
        best=point(plan.best),
        reaching=None if plan.reaching is None else point(plan.reaching),
        dips=[
            PlanDip(
                squads=d.squads,
                value=float(d.value),
                value_exact=d.value,
                previous=float(d.previous),
                previous_exact=d.previous,
            )
            for d in plan.dips
        ],
        choices=plan.choices,
        valued=plan.valued,
        fights=plan.fights,
        note=None if plan.proven else NOT_PROVEN,
        warnings=[*plan_warnings(battle), *plan.warnings],
    )


def point(choice: Choice) -> PlanPoint:
    return PlanPoint(
        squads=choice.squads,
        value=float(choice.value),
        value_exact=choice.value,
        stands=list(choice.stands),
        against=list(choice.against),
    )
