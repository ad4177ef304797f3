"""Matched-dice close assault: one roll, the chain of rounds, and the assault's legality.

The attacker rolls one d6 per unwounded assaulting SP (at most 3), the defender one per
unwounded defending SP (at most 2); both sort, the highest dice pair off, unpaired dice are
ignored, and each winning die is one casualty. Equal dice cancel (the seed) or go to the
defender (Risk).

>>> roll = roll_outcomes(3, 2, "defender")
>>> roll[0, 2], roll[1, 1], roll[2, 0]
(Fraction(1445, 3888), Fraction(2611, 7776), Fraction(2275, 7776))
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement
from math import factorial, prod
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from allocator.core.errors import InputError
from allocator.core.resolution import Resolution, load_profile
from allocator.core.violations import Violation

Ties = Literal["cancel", "defender"]
Party = Literal["attacker", "defender"]
Losses = tuple[int, int]
"""(attacker's casualties, defender's casualties)."""
BASES: dict[Party, str] = {"attacker": "attacking_bases", "defender": "defending_bases"}

BreakTest = Callable[[Party, int, int], Fraction]
"""A break test: (side, SPs it lost this round, SPs it has left) -> chance that it breaks."""


class BreakOnLoss(BaseModel):
    """The shipped break test: a side that lost an SP this round breaks with a fixed chance."""

    model_config = ConfigDict(extra="forbid")

    attacker: Fraction = Field(ge=0, le=1)
    defender: Fraction = Field(ge=0, le=1)

    def __call__(self, side: Party, lost: int, left: int) -> Fraction:
        return getattr(self, side) if lost and left else Fraction(0)


def no_break_test(side: Party, lost: int, left: int) -> Fraction:
    """The default: nobody breaks."""
    return Fraction(0)


class MatchedDiceProfile(BaseModel):
    """The numbers of ``models/rulesets/matched-dice.yaml``."""

    model_config = ConfigDict(extra="forbid")

    max_attacker_dice: int = Field(ge=1)
    max_defender_dice: int = Field(ge=1)
    ties: Ties
    attack_limits: dict[str, int]
    unverified: list[str] = Field(default_factory=list)
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
def roll_outcomes(attacker_dice: int, defender_dice: int, ties: Ties) -> dict[Losses, Fraction]:
    """Exact casualties of one roll, summed over sorted dice with their arrangement counts."""
    counts: Counter[Losses] = Counter()
    for attacker in combinations_with_replacement(range(1, 7), attacker_dice):
        for defender in combinations_with_replacement(range(1, 7), defender_dice):
            losses = match_dice(attacker, defender, ties)
            counts[losses] += _arrangements(attacker) * _arrangements(defender)
    total = 6 ** (attacker_dice + defender_dice)
    return {losses: Fraction(count, total) for losses, count in sorted(counts.items())}


# --- the chain of rounds ----------------------------------------------------------------------

End = Literal[
    "attacker_wiped_out",
    "defender_wiped_out",
    "attacker_broke",
    "defender_broke",
    "both_broke",
    "undecided",
]


@dataclass(frozen=True)
class Assault:
    """The end states of a chain of rounds: (end, attacker SPs, defender SPs) -> chance."""

    ends: dict[tuple[End, int, int], Fraction]
    rounds: int

    def chance(self, end: End) -> Fraction:
        return sum((p for (e, _, _), p in self.ends.items() if e == end), Fraction(0))


def run_assault(
    attacker: int,
    defender: int,
    rounds: int,
    profile: MatchedDiceProfile,
    ties: Ties,
    break_test: BreakTest = no_break_test,
) -> Assault:
    """The Markov chain over unwounded SPs, for at most ``rounds`` rounds.

    >>> run_assault(1, 1, 1, default_profile(), "cancel").chance("defender_wiped_out")
    Fraction(5, 12)
    """
    ends: Counter[tuple[End, int, int]] = Counter()
    states: Counter[tuple[int, int]] = Counter({(attacker, defender): Fraction(1)})
    for _ in range(rounds):
        following: Counter[tuple[int, int]] = Counter()
        for (a, d), chance in states.items():
            dice = min(a, profile.max_attacker_dice), min(d, profile.max_defender_dice)
            for (a_lost, d_lost), p in roll_outcomes(*dice, ties).items():
                left = a - a_lost, d - d_lost
                for end, q in _after_round(left, (a_lost, d_lost), break_test):
                    if end is None:
                        following[left] += chance * p * q
                    else:
                        ends[(end, *left)] += chance * p * q
        states = following
    for (a, d), chance in states.items():
        ends["undecided", a, d] += chance
    return Assault(ends={key: p for key, p in sorted(ends.items()) if p}, rounds=rounds)


def _after_round(
    left: tuple[int, int], lost: Losses, break_test: BreakTest
) -> list[tuple[End | None, Fraction]]:
    """How the assault ends after a roll (None: it goes on), each way with its chance."""
    a, d = left
    if d == 0:
        return [("defender_wiped_out", Fraction(1))]
    if a == 0:
        return [("attacker_wiped_out", Fraction(1))]
    a_breaks, d_breaks = break_test("attacker", lost[0], a), break_test("defender", lost[1], d)
    branches: list[tuple[End | None, Fraction]] = [
        ("both_broke", a_breaks * d_breaks),
        ("attacker_broke", a_breaks * (1 - d_breaks)),
        ("defender_broke", (1 - a_breaks) * d_breaks),
        (None, (1 - a_breaks) * (1 - d_breaks)),
    ]
    return [branch for branch in branches if branch[1]]


# --- legality ---------------------------------------------------------------------------------


class GridBase(BaseModel):
    """A base on the square grid with its unwounded SPs."""

    model_config = ConfigDict(extra="forbid")

    name: str
    square: tuple[int, int] = Field(description="(column, row) of the base's square.")
    unwounded_sps: int = Field(ge=0)
    battalion_command: bool = False


class MatchedDiceEngagement(BaseModel):
    """One assault: SP counts directly, or the bases on the grid (then counted and checked).

    >>> engagement = MatchedDiceEngagement(attacker=5, defender=2, ties="defender")
    >>> MatchedDiceResolver().resolve(engagement).distribution["attacker_loses_more"]
    Fraction(2275, 7776)
    """

    model_config = ConfigDict(extra="forbid")

    attacker: int | None = Field(None, ge=0, description="Unwounded assaulting SPs.")
    defender: int | None = Field(None, ge=0, description="Unwounded defending SPs.")
    ties: Ties | None = Field(None, description="None: the profile's tie rule.")
    rounds: int | None = Field(None, ge=1, description="Rounds to chain; None: one roll.")
    quality: str | None = Field(None, description="Attacker quality: its attack limit caps rounds.")
    position: tuple[int, int] | None = Field(None, description="The defended square.")
    attacking_bases: list[GridBase] = Field(default_factory=list)
    defending_bases: list[GridBase] = Field(default_factory=list)

    @model_validator(mode="after")
    def _sps_given_once(self) -> MatchedDiceEngagement:
        for side, bases in BASES.items():
            if (getattr(self, side) is None) == (not getattr(self, bases)):
                raise ValueError(f"give exactly one of {side} (SPs) and {bases}")
        if self.attacking_bases and self.position is None:
            raise ValueError("attacking_bases need the defended position")
        return self

    def sps(self, side: Party) -> int:
        given: int | None = getattr(self, side)
        bases: list[GridBase] = getattr(self, BASES[side])
        return given if given is not None else sum(base.unwounded_sps for base in bases)


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
                message="More than one base assaults: a battalion command base must be among them.",
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
                    message=f"{base.name} at {base.square} is not orthogonally adjacent to the"
                    f" position at {(px, py)}: assaults are orthogonal only.",
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
    name: str = "matched-dice"
    engagement_model: type[BaseModel] = MatchedDiceEngagement

    @property
    def rules(self) -> MatchedDiceProfile:
        return self.profile or default_profile()

    def check(self, engagement: MatchedDiceEngagement) -> list[Violation]:
        return check_assault(engagement)

    def rounds(self, engagement: MatchedDiceEngagement) -> int | None:
        """Rounds to chain: the asked number, capped by the quality's attack limit."""
        limits = self.rules.attack_limits
        if engagement.quality is None:
            return engagement.rounds
        if engagement.quality not in limits:
            known = ", ".join(limits)
            raise InputError(f"no attack limit for quality {engagement.quality!r}; known: {known}")
        return min(limits[engagement.quality], engagement.rounds or limits[engagement.quality])

    def resolve(self, engagement: MatchedDiceEngagement) -> Resolution:
        rules, ties = self.rules, engagement.ties or self.rules.ties
        attacker, defender = engagement.sps("attacker"), engagement.sps("defender")
        dice = min(attacker, rules.max_attacker_dice), min(defender, rules.max_defender_dice)
        steps = [
            f"attacker {attacker} SP -> {dice[0]}d6, defender {defender} SP -> {dice[1]}d6",
            "sort both, pair highest with highest, unpaired dice ignored, "
            + ("equal dice cancel" if ties == "cancel" else "equal dice go to the defender"),
        ]
        outcomes = roll_outcomes(*dice, ties)
        details: dict[str, object] = {
            "ties": ties,
            "outcomes": [
                {"attacker_losses": a, "defender_losses": d, "p": p}
                for (a, d), p in outcomes.items()
            ],
        }
        rounds = self.rounds(engagement)
        if rounds is None:
            distribution = {
                "defender_loses_more": sum(p for (a, d), p in outcomes.items() if d > a),
                "even": sum(p for (a, d), p in outcomes.items() if d == a),
                "attacker_loses_more": sum(p for (a, d), p in outcomes.items() if d < a),
            }
            return Resolution(self.name, distribution, steps, self.check(engagement), details)
        break_test = self.break_test or rules.break_test or no_break_test
        assault = run_assault(attacker, defender, rounds, rules, ties, break_test)
        steps.append(f"up to {rounds} rounds over unwounded SPs, dice recounted each round")
        if break_test is not no_break_test:
            steps.append("after each round a side that lost an SP takes its break test")
        details["rounds"] = rounds
        details["wiped_out_within"] = {
            "attacker": assault.chance("attacker_wiped_out"),
            "defender": assault.chance("defender_wiped_out"),
        }
        details["ends"] = [
            {"end": end, "attacker_sps": a, "defender_sps": d, "p": p}
            for (end, a, d), p in assault.ends.items()
        ]
        distribution = {end: assault.chance(end) for end in _ENDS if assault.chance(end)}
        return Resolution(self.name, distribution, steps, self.check(engagement), details)


_ENDS: tuple[End, ...] = (
    "defender_wiped_out",
    "attacker_wiped_out",
    "defender_broke",
    "attacker_broke",
    "both_broke",
    "undecided",
)
