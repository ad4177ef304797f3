"""Matched-dice close assault: one roll, the chain of rounds, and the assault's legality.

The attacker rolls one d6 per unwounded assaulting SP (at most 3), the defender one per
unwounded defending SP (at most 2); both sort, the highest dice pair off, unpaired dice are
ignored, and each winning die is one casualty. Equal dice cancel (the rule as written) or go to
the defender (Risk's rule).

>>> roll = roll_outcomes(3, 2, "defender")
>>> roll[0, 2], roll[1, 1], roll[2, 0]
(Fraction(1445, 3888), Fraction(2611, 7776), Fraction(2275, 7776))
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement
from math import factorial, lcm, prod
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from allocator.core.errors import InputError
from allocator.core.exact import ExactValue
from allocator.core.limits import Limits, default_limits
from allocator.core.resolution import Probability, Resolution, load_profile
from allocator.core.text import listing
from allocator.core.violations import Violation
from allocator.games.matched_dice.details import (
    AssaultEnd,
    AttackLimit,
    ChainEnd,
    MatchedDiceDetails,
    RoundCasualties,
    StrengthChance,
    StrengthPlan,
    Ties,
)

Party = Literal["attacker", "defender"]
Losses = tuple[int, int]
"""(attacker's casualties, defender's casualties)."""
BASES: dict[Party, str] = {"attacker": "attacking_bases", "defender": "defending_bases"}
#: Every round count in a file is at most this (the highest the ``max_rounds`` limit may be
#: raised to); the configured limit is checked before any work.
ROUNDS_BOUND = 10_000
#: The most unwounded SPs a side brings to one assault (a battalion's worth), so that a long
#: chain of rounds stays within seconds.
MOST_SPS = 50
SPs = Annotated[int, Field(ge=0, le=MOST_SPS)]
Square = tuple[
    Annotated[int, Field(ge=-10_000, le=10_000)], Annotated[int, Field(ge=-10_000, le=10_000)]
]

#: What each outcome means, in players' words.
OUTCOME_WORDS = {
    "defender_loses_more": "the defender takes more casualties",
    "even": "both sides take the same casualties",
    "attacker_loses_more": "the attacker takes more casualties",
    "defender_wiped_out": "the defender is wiped out",
    "attacker_wiped_out": "the attacker is wiped out",
    "defender_broke": "the defender breaks",
    "attacker_broke": "the attacker breaks",
    "both_broke": "both sides break",
    "undecided": "still undecided after the last round",
}

#: The ends of the chain the attacker wins.
ATTACKER_WINS: tuple[AssaultEnd, ...] = ("defender_wiped_out", "defender_broke")

BreakTest = Callable[[Party, int, int], Fraction]
"""A break test: (side, SPs it lost this round, SPs it has left) -> chance that it breaks."""


class BreakOnLoss(BaseModel):
    """The shipped break test: a side that lost an SP this round breaks with a fixed chance."""

    model_config = ConfigDict(extra="forbid")

    attacker: Probability
    defender: Probability

    def __call__(self, side: Party, lost: int, left: int) -> Fraction:
        chance: Fraction = getattr(self, side)
        return chance if lost and left else Fraction(0)


def no_break_test(side: Party, lost: int, left: int) -> Fraction:
    """The default: nobody breaks."""
    return Fraction(0)


class MatchedDiceProfile(BaseModel):
    """The numbers of ``models/rulesets/matched-dice.yaml``."""

    model_config = ConfigDict(extra="forbid")

    max_attacker_dice: int = Field(ge=1, le=3)
    max_defender_dice: int = Field(ge=1, le=3)
    ties: Ties
    attack_limits: dict[
        Annotated[str, Field(max_length=40)], Annotated[int, Field(ge=1, le=ROUNDS_BOUND)]
    ] = Field(max_length=50)
    unverified: list[str] = Field(default_factory=list, max_length=50)
    break_test: BreakOnLoss | None = None


@cache
def default_profile() -> MatchedDiceProfile:
    return load_profile(MatchedDiceProfile, "matched-dice")


def load_matched_dice_profile(path: Path | None) -> MatchedDiceProfile:
    """A user's profile file, or the shipped one."""
    return load_profile(MatchedDiceProfile, "matched-dice", path) if path else default_profile()


# --- one roll ---------------------------------------------------------------------------------


def _arrangements(dice: tuple[int, ...]) -> int:
    """How many ordered rolls give this sorted multiset of dice."""
    return factorial(len(dice)) // prod(factorial(n) for n in Counter(dice).values())


def match_dice(attacker: tuple[int, ...], defender: tuple[int, ...], ties: Ties) -> Losses:
    """Casualties from one roll of actual dice.

    >>> match_dice((6, 3, 1), (5, 3), "cancel"), match_dice((6, 3, 1), (5, 3), "defender")
    ((0, 1), (1, 1))
    """
    attacker_losses = defender_losses = 0
    for a, d in zip(sorted(attacker, reverse=True), sorted(defender, reverse=True), strict=False):
        if a > d:
            defender_losses += 1
        elif a < d or ties == "defender":
            attacker_losses += 1
    return attacker_losses, defender_losses


@cache
def roll_counts(attacker_dice: int, defender_dice: int, ties: Ties) -> dict[Losses, int]:
    """Of the 6^(a+d) rolls, how many give each casualties (sorted dice, arrangement counts)."""
    counts: Counter[Losses] = Counter()
    for attacker in combinations_with_replacement(range(1, 7), attacker_dice):
        for defender in combinations_with_replacement(range(1, 7), defender_dice):
            losses = match_dice(attacker, defender, ties)
            counts[losses] += _arrangements(attacker) * _arrangements(defender)
    return dict(sorted(counts.items()))


def roll_outcomes(attacker_dice: int, defender_dice: int, ties: Ties) -> dict[Losses, Fraction]:
    """Exact casualties of one roll."""
    total = 6 ** (attacker_dice + defender_dice)
    counts = roll_counts(attacker_dice, defender_dice, ties)
    return {losses: Fraction(count, total) for losses, count in counts.items()}


# --- the chain of rounds ----------------------------------------------------------------------


@dataclass(frozen=True)
class Assault:
    """The end states of a chain of rounds: (end, attacker SPs, defender SPs) -> chance."""

    ends: dict[tuple[AssaultEnd, int, int], Fraction]
    rounds: int

    def chance(self, end: AssaultEnd) -> Fraction:
        return sum((p for (e, _, _), p in self.ends.items() if e == end), Fraction(0))

    def attacker_wins(self) -> Fraction:
        """The defender wiped out or broken (and the attacker not) within the rounds."""
        return sum((self.chance(end) for end in ATTACKER_WINS), Fraction(0))


def run_assault(
    attacker: int,
    defender: int,
    rounds: int,
    profile: MatchedDiceProfile,
    ties: Ties,
    break_test: BreakTest = no_break_test,
    check: Callable[[], None] = lambda: None,
) -> Assault:
    """The Markov chain over unwounded SPs, for at most ``rounds`` rounds.

    Every state's chance is kept as an integer over one common denominator per round (6 to the
    most dice a round can roll, times the break tests' denominators), so that a long chain adds
    integers instead of reducing fractions; the fractions are made once per ending. With break
    tests of large denominators these integers grow to thousands of digits, so ``check`` (the
    time limit's) runs at every state of every round and at every ending's fraction.

    >>> run_assault(1, 1, 1, default_profile(), "cancel").chance("defender_wiped_out")
    Fraction(5, 12)
    """
    most_dice = profile.max_attacker_dice + profile.max_defender_dice
    pairs = min(profile.max_attacker_dice, profile.max_defender_dice)
    attacker_breaks = _break_factors(break_test, "attacker", attacker, pairs)
    defender_breaks = _break_factors(break_test, "defender", defender, pairs)
    scale = attacker_breaks.scale * defender_breaks.scale
    states: dict[tuple[int, int], int] = {(attacker, defender): 1}
    denominator = 1
    finished: list[tuple[int, dict[tuple[AssaultEnd, int, int], int]]] = []
    for _ in range(rounds):
        if not states:
            break
        denominator *= 6**most_dice * scale
        ended: defaultdict[tuple[AssaultEnd, int, int], int] = defaultdict(int)
        following: defaultdict[tuple[int, int], int] = defaultdict(int)
        for (a, d), weight in states.items():
            check()
            dice = min(a, profile.max_attacker_dice), min(d, profile.max_defender_dice)
            spare = 6 ** (most_dice - sum(dice)) * scale
            for (a_lost, d_lost), count in roll_counts(*dice, ties).items():
                left, chance = (a - a_lost, d - d_lost), weight * count * spare
                if left[1] == 0:
                    ended["defender_wiped_out", *left] += chance
                elif left[0] == 0:
                    ended["attacker_wiped_out", *left] += chance
                elif break_test is no_break_test:
                    following[left] += chance
                else:
                    a_yes, a_no = attacker_breaks.split(a_lost, left[0])
                    d_yes, d_no = defender_breaks.split(d_lost, left[1])
                    chance //= scale
                    ended["both_broke", *left] += chance * a_yes * d_yes
                    ended["attacker_broke", *left] += chance * a_yes * d_no
                    ended["defender_broke", *left] += chance * a_no * d_yes
                    following[left] += chance * a_no * d_no
        finished.append((denominator, ended))
        states = {state: weight for state, weight in following.items() if weight}
    finished.append((denominator, {("undecided", *state): w for state, w in states.items()}))
    totals: defaultdict[tuple[AssaultEnd, int, int], int] = defaultdict(int)
    for round_denominator, ended_then in finished:
        factor = denominator // round_denominator
        for key, count in ended_then.items():
            check()
            totals[key] += count * factor
    ends: dict[tuple[AssaultEnd, int, int], Fraction] = {}
    for key, count in totals.items():
        check()
        if count:
            ends[key] = Fraction(count, denominator)
    return Assault(ends=dict(sorted(ends.items())), rounds=rounds)


def strength_that_matters(rounds: int, profile: MatchedDiceProfile) -> int:
    """The attacking SPs past which more change nothing within ``rounds``: this many still roll
    every die they may after losing the most a round can cost, every round, and never reach 0
    (so a break test that asks only whether SPs are left asks the same).

    >>> strength_that_matters(3, default_profile())
    9
    """
    most_lost = min(profile.max_attacker_dice, profile.max_defender_dice)
    return most_lost * rounds + profile.max_attacker_dice


@dataclass(frozen=True)
class _BreakFactors:
    """A side's break chances as integers over one ``scale``: (breaks, holds) by (lost, left)."""

    scale: int
    factors: dict[tuple[int, int], tuple[int, int]]

    def split(self, lost: int, left: int) -> tuple[int, int]:
        return self.factors[lost, left]


def _break_factors(break_test: BreakTest, side: Party, sps: int, most_lost: int) -> _BreakFactors:
    """Every break chance the chain can ask for, over their common denominator."""
    if break_test is no_break_test:
        return _BreakFactors(1, {})
    chances = {
        (lost, left): break_test(side, lost, left)
        for lost in range(most_lost + 1)
        for left in range(1, sps + 1)
    }
    scale = lcm(1, *(chance.denominator for chance in chances.values()))
    factors = {key: (int(p * scale), scale - int(p * scale)) for key, p in chances.items()}
    return _BreakFactors(scale, factors)


# --- legality ---------------------------------------------------------------------------------


class GridBase(BaseModel):
    """A base on the square grid with its unwounded SPs."""

    model_config = ConfigDict(extra="forbid")

    name: str
    square: Square = Field(description="(column, row) of the base's square.")
    unwounded_sps: SPs
    battalion_command: bool = False


class MatchedDiceEngagement(BaseModel):
    """One assault: SP counts directly, or the bases on the grid (then counted and checked).

    >>> engagement = MatchedDiceEngagement(attacker=5, defender=2, ties="defender")
    >>> MatchedDiceResolver().resolve(engagement).distribution["attacker_loses_more"]
    Fraction(2275, 7776)
    """

    model_config = ConfigDict(extra="forbid")

    attacker: SPs | None = Field(None, description="Unwounded assaulting SPs.")
    defender: SPs | None = Field(None, description="Unwounded defending SPs.")
    ties: Ties | None = Field(None, description="None: the profile's tie rule.")
    rounds: int | None = Field(
        None, ge=1, le=ROUNDS_BOUND, description="Rounds to chain; None: one roll."
    )
    quality: str | None = Field(
        None, max_length=40, description="Attacker quality: its attack limit caps rounds."
    )
    position: Square | None = Field(None, description="The defended square.")
    attacking_bases: list[GridBase] = Field(default_factory=list)
    defending_bases: list[GridBase] = Field(default_factory=list)

    @model_validator(mode="after")
    def _sps_given_once(self) -> MatchedDiceEngagement:
        for side, bases in BASES.items():
            if (getattr(self, side) is None) == (not getattr(self, bases)):
                raise ValueError(f"give exactly one of {side} (SPs) and {bases}")
        if self.attacking_bases and self.position is None:
            raise ValueError("attacking_bases need the defended position")
        for side, bases in BASES.items():
            total = self.sps(side)
            if total > MOST_SPS:
                raise ValueError(f"{bases} hold {total} unwounded SPs; at most {MOST_SPS} a side")
        return self

    def bases(self, side: Party) -> list[GridBase]:
        return self.attacking_bases if side == "attacker" else self.defending_bases

    def sps(self, side: Party) -> int:
        given = self.attacker if side == "attacker" else self.defender
        return given if given is not None else sum(base.unwounded_sps for base in self.bases(side))


def check_assault(engagement: MatchedDiceEngagement) -> list[Violation]:
    """Battalion command with several bases, orthogonal adjacency, unwounded SPs.

    >>> bases = [GridBase(name="a", square=(1, 1), unwounded_sps=2)]
    >>> [v.rule for v in check_assault(MatchedDiceEngagement(
    ...     attacking_bases=bases, defender=2, position=(2, 2)))]
    ['MD-orthogonal']
    """
    violations = []
    bases = engagement.attacking_bases
    if len(bases) > 1 and not any(base.battalion_command for base in bases):
        violations.append(
            Violation(
                rule="MD-command",
                step=0,
                message=f"More than one base assaults ({listing(b.name for b in bases)}): a"
                " battalion command base must be among them.",
                stands=[base.name for base in bases],
            )
        )
    px, py = engagement.position or (0, 0)
    for base in bases:
        x, y = base.square
        if abs(x - px) + abs(y - py) != 1:
            violations.append(
                Violation(
                    rule="MD-orthogonal",
                    step=0,
                    message=f"{base.name} at ({x}, {y}) is not orthogonally adjacent to the"
                    f" position at ({px}, {py}): assaults are orthogonal only.",
                    stands=[base.name],
                )
            )
    for base in [*bases, *engagement.defending_bases]:
        if base.unwounded_sps == 0 and not base.battalion_command:
            violations.append(
                Violation(
                    rule="MD-unwounded",
                    step=0,
                    message=f"{base.name} has no unwounded SP and cannot fight in the assault.",
                    stands=[base.name],
                )
            )
    return violations


# --- the resolver -----------------------------------------------------------------------------


@dataclass
class MatchedDiceResolver:
    """One roll, or the chain of rounds, of a matched-dice close assault."""

    profile: MatchedDiceProfile | None = None
    break_test: BreakTest | None = None
    limits: Limits | None = None
    name: str = "matched-dice"
    engagement_model: type[BaseModel] = MatchedDiceEngagement

    @property
    def rules(self) -> MatchedDiceProfile:
        return self.profile or default_profile()

    def check(self, engagement: MatchedDiceEngagement) -> list[Violation]:
        return check_assault(engagement)

    def attack_limit(self, engagement: MatchedDiceEngagement) -> AttackLimit | None:
        """The profile's attack limit for the engagement's quality (none without a quality)."""
        quality, attack_limits = engagement.quality, self.rules.attack_limits
        if quality is None:
            return None
        if quality not in attack_limits:
            raise InputError(
                f"no attack limit for quality {quality!r}; known: {', '.join(attack_limits)}",
                place="quality",
            )
        unverified = quality in self.rules.unverified
        return AttackLimit(quality=quality, rounds=attack_limits[quality], unverified=unverified)

    def rounds(self, engagement: MatchedDiceEngagement) -> int | None:
        """Rounds to chain: the asked number, capped by the quality's attack limit, and refused
        over the ``max_rounds`` limit."""
        limits = self.limits or default_limits()
        rounds = engagement.rounds
        attack_limit = self.attack_limit(engagement)
        if attack_limit is not None:
            rounds = min(attack_limit.rounds, rounds or ROUNDS_BOUND)
        if rounds is not None and rounds > limits.max_rounds:
            raise limits.refuse("max_rounds", f"{rounds} rounds", place="rounds")
        return rounds

    def chain_rounds(self, engagement: MatchedDiceEngagement) -> int:
        """The rounds of the chain a plan is over; an InputError when the engagement asks for
        one roll only."""
        rounds = self.rounds(engagement)
        if rounds is None:
            raise InputError(
                "a plan is the chance of winning the chain of rounds: give --rounds N or"
                " --quality Q",
                place="--plan",
            )
        return rounds

    def check_sizes(self, engagement: MatchedDiceEngagement) -> None:
        limits = self.limits or default_limits()
        for side, field_name in BASES.items():
            count = len(engagement.bases(side))
            if count > limits.max_stands_per_side:
                raise limits.refuse("max_stands_per_side", f"{count} bases", place=field_name)

    def plan(
        self,
        engagement: MatchedDiceEngagement,
        target: Fraction,
        check: Callable[[], None] = lambda: None,
    ) -> Resolution:
        """The fewest attacking SPs (1 up to :data:`MOST_SPS`, or up to
        :func:`strength_that_matters` when more cannot change the chance) whose chance of winning
        the chain reaches ``target``, with the chance of each strength on the way; the answer is
        the assault at that strength (at the most searched when none reaches it).

        ``check`` (the time limit's) runs all through each strength's chain
        (:func:`run_assault`).

        Raises
        ------
        InputError
            When the engagement chains no rounds (:meth:`chain_rounds`).

        Examples
        --------
        >>> chain = MatchedDiceEngagement(attacker=0, defender=2, rounds=10)
        >>> plan = MatchedDiceResolver().plan(chain, Fraction(3, 4)).details_of(
        ...     MatchedDiceDetails).plan
        >>> plan.fewest_sps, [point.chance.value > 0.75 for point in plan.curve]
        (3, [False, False, True])
        """
        rounds = self.chain_rounds(engagement)
        rules, ties = self.rules, engagement.ties or self.rules.ties
        break_test = self.break_test or rules.break_test or no_break_test
        defender = engagement.sps("defender")
        most = MOST_SPS
        if break_test is no_break_test or isinstance(break_test, BreakOnLoss):
            most = min(most, strength_that_matters(rounds, rules))
        curve: list[StrengthChance] = []
        fewest = None
        for attacker in range(1, most + 1):
            assault = run_assault(attacker, defender, rounds, rules, ties, break_test, check)
            wins = assault.attacker_wins()
            curve.append(StrengthChance(attacker_sps=attacker, chance=ExactValue.of(wins)))
            if wins >= target:
                fewest = attacker
                break
        strength = fewest or most
        fought = engagement.model_copy(update={"attacker": strength, "attacking_bases": []})
        resolution = self.resolve(fought, check)
        plan = StrengthPlan(
            target=ExactValue.of(target),
            most_sps=most,
            more_adds_nothing=most < MOST_SPS,
            fewest_sps=fewest,
            curve=curve,
        )
        details = resolution.details_of(MatchedDiceDetails).model_copy(update={"plan": plan})
        steps = [
            f"the attacker's chance of winning (the defender wiped out or broken) within {rounds}"
            f" round{'s' if rounds > 1 else ''}, for each strength from 1 SP"
            + (f" until it reaches {target}" if fewest else f" up to {most} SP"),
            *resolution.steps,
        ]
        return Resolution(self.name, resolution.distribution, steps, resolution.violations, details)

    def resolve(
        self, engagement: MatchedDiceEngagement, check: Callable[[], None] = lambda: None
    ) -> Resolution:
        """The one roll's casualties, or the chain of rounds; ``check`` (the time limit's) runs
        all through the chain (:func:`run_assault`) and at every ending it reports."""
        self.check_sizes(engagement)
        rounds, attack_limit = self.rounds(engagement), self.attack_limit(engagement)
        rules, ties = self.rules, engagement.ties or self.rules.ties
        attacker, defender = engagement.sps("attacker"), engagement.sps("defender")
        dice = min(attacker, rules.max_attacker_dice), min(defender, rules.max_defender_dice)
        steps = [
            f"the attacker's {attacker} unwounded SP roll {dice[0]}d6, the defender's {defender}"
            f" roll {dice[1]}d6",
            "both sort their dice and pair them highest with highest; unpaired dice are ignored; "
            + ("equal dice cancel" if ties == "cancel" else "equal dice go to the defender"),
        ]
        outcomes = roll_outcomes(*dice, ties)
        ends: list[ChainEnd] = []
        if rounds is None:
            distribution = _compare_losses(outcomes)
        else:
            break_test = self.break_test or rules.break_test or no_break_test
            assault = run_assault(attacker, defender, rounds, rules, ties, break_test, check)
            steps.append(
                f"up to {rounds} round{'s' if rounds > 1 else ''}"
                + (
                    f" ({attack_limit.quality}: at most {attack_limit.rounds})"
                    if attack_limit
                    else ""
                )
                + ", the dice counted again from the unwounded SPs each round"
            )
            if break_test is not no_break_test:
                steps.append("after each round a side that lost an SP takes its break test")
            for (end, a, d), p in assault.ends.items():
                check()
                ends.append(
                    ChainEnd(end=end, attacker_sps=a, defender_sps=d, chance=ExactValue.of(p))
                )
            distribution = {end: p for end in _ENDS if (p := assault.chance(end))}
        details = MatchedDiceDetails(
            ties=ties,
            attacker_sps=attacker,
            defender_sps=defender,
            attacker_dice=dice[0],
            defender_dice=dice[1],
            casualties=[
                RoundCasualties(attacker_losses=a, defender_losses=d, chance=ExactValue.of(p))
                for (a, d), p in outcomes.items()
            ],
            rounds=rounds,
            ends=ends,
            attack_limit=attack_limit,
        )
        return Resolution(self.name, distribution, steps, self.check(engagement), details)


def _compare_losses(outcomes: dict[Losses, Fraction]) -> dict[str, Fraction]:
    """Who loses more in one roll."""
    compared = {
        "defender_loses_more": Fraction(0),
        "even": Fraction(0),
        "attacker_loses_more": Fraction(0),
    }
    for (attacker_losses, defender_losses), p in outcomes.items():
        if defender_losses > attacker_losses:
            compared["defender_loses_more"] += p
        elif defender_losses == attacker_losses:
            compared["even"] += p
        else:
            compared["attacker_loses_more"] += p
    return compared


_ENDS: tuple[AssaultEnd, ...] = (
    "defender_wiped_out",
    "attacker_wiped_out",
    "defender_broke",
    "attacker_broke",
    "both_broke",
    "undecided",
)
