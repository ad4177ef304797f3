"""Infinity close combat (N4 wording): Normal and Face to Face rolls, saves, several troopers.

A die rolls a *value*: 0 is a failure, 1-19 a success of that value, 20 a critical
(:func:`roll_value`). Who wins a Face to Face roll depends only on each side's criticals, on the
loser's best non-critical success and on how many of the winner's successes beat it, so the
exact odds come from counting faces, not from enumerating the 20^(a+b) rolls.

>>> odds = face_to_face(12, 1, 12, 1)
>>> odds.neither, odds.active_wins == odds.reactive_wins
(Fraction(19, 100), True)
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import comb
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from allocator.core.errors import InputError
from allocator.core.exact import ExactValue
from allocator.core.limits import Limits, default_limits
from allocator.core.resolution import Resolution, load_profile, row_reached
from allocator.core.text import listing, percent
from allocator.core.violations import Violation
from allocator.games.infinity.details import (
    InfinityDetails,
    RollSummary,
    Side,
    SurvivingHits,
    WoundCount,
    Wounds,
)

FACES = 20
CRITICAL = 20
SIDES: tuple[Side, Side] = ("active", "reactive")
Ammunition = Literal["N", "DA", "EXP"]
Wording = Literal["n4", "silhouette"]
#: Every Burst in a file is at most this (the highest the ``max_burst`` limit may be raised to);
#: the configured limit is checked before any work.
BURST_BOUND = 200
Attribute = Annotated[int, Field(ge=-100, le=100)]

#: What each outcome means, in players' words.
OUTCOME_WORDS = {
    "active_wins": "the active trooper wins",
    "reactive_wins": "the reactive trooper wins",
    "neither": "neither trooper wins",
}


class ContactLimit(BaseModel):
    model_config = ConfigDict(extra="forbid")

    min_base_mm: int = Field(ge=0, le=1000)
    max_models: int = Field(ge=1, le=64)
    rule: str = Field(max_length=64)


class Saves(BaseModel):
    """Saving rolls each hit forces, by ammunition."""

    model_config = ConfigDict(extra="forbid")

    N: int = Field(ge=1, le=10)
    DA: int = Field(ge=1, le=10)
    EXP: int = Field(ge=1, le=10)


class InfinityProfile(BaseModel):
    """The numbers of ``models/rulesets/infinity.yaml``."""

    model_config = ConfigDict(extra="forbid")

    modifier_cap: int = Field(ge=0, le=40)
    success_value_range: tuple[Attribute, Attribute]
    max_burst: int = Field(ge=1, le=BURST_BOUND, description="The largest Burst a side declares.")
    contact_limits: list[ContactLimit] = Field(min_length=1, max_length=20)
    ammunition: Saves
    extra_saves_per_critical: int = Field(ge=0, le=10)
    wording: Wording

    @model_validator(mode="after")
    def _range_in_order(self) -> InfinityProfile:
        low, high = self.success_value_range
        if low > high:
            raise ValueError(f"success_value_range [{low}, {high}] is upside down")
        return self

    def contact_limit(self, base_mm: int) -> ContactLimit:
        """The limit row for a base: the largest ``min_base_mm`` the base reaches."""
        return row_reached(
            self.contact_limits,
            lambda row: row.min_base_mm,
            base_mm,
            f"no contact limit in the profile for a {base_mm} mm base",
        )

    def saves(self, ammunition: Ammunition) -> int:
        saves: int = getattr(self.ammunition, ammunition)
        return saves


@cache
def default_profile() -> InfinityProfile:
    """The shipped profile, read once."""
    return load_profile(InfinityProfile, "infinity")


# --- one die ----------------------------------------------------------------------------------


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


# --- Face to Face -----------------------------------------------------------------------------

Survivors = tuple[int, int]
"""The winner's surviving successes: (criticals, non-critical successes)."""


@cache
def _winning_rolls(
    winner_sv: int, winner_burst: int, loser_sv: int, loser_burst: int
) -> dict[Survivors, int]:
    """Of the 20^(a+b) rolls, how many the winner wins with each survivor count.

    The loser may have no critical; conditioning on its best non-critical success ``best``
    (0: none), the winner keeps every critical and every success above ``best``, and wins when
    it keeps any. Multinomial counts over (critical, above best, the rest) faces do the rest.
    """
    winner, loser = DieFaces.at(winner_sv), DieFaces.at(loser_sv)
    counts: dict[Survivors, int] = Counter()
    fewer = 0
    for best in range(CRITICAL):
        at_most = loser.no_critical_at_most(best) ** loser_burst
        loser_ways, fewer = at_most - fewer, at_most
        if loser_ways == 0:
            continue
        crit, high = winner.count[CRITICAL], winner.plain_above(best)
        rest = FACES - crit - high
        for crits in range(winner_burst + 1):
            for plain in range(winner_burst - crits + 1):
                if crits + plain == 0:
                    continue
                ways = (
                    comb(winner_burst, crits)
                    * comb(winner_burst - crits, plain)
                    * crit**crits
                    * high**plain
                    * rest ** (winner_burst - crits - plain)
                )
                if ways:
                    counts[crits, plain] += loser_ways * ways
    return dict(counts)


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


def face_to_face(
    active_sv: int, active_burst: int, reactive_sv: int, reactive_burst: int
) -> FaceToFaceOdds:
    """Exact Face to Face odds from integer counts over the 20^(a+b) rolls.

    >>> face_to_face(15, 1, 0, 0).active_wins  # a Normal Roll at SV 15
    Fraction(3, 4)
    """
    total = FACES ** (active_burst + reactive_burst)

    def share(counts: dict[Survivors, int]) -> dict[Survivors, Fraction]:
        return {key: Fraction(count, total) for key, count in sorted(counts.items())}

    return FaceToFaceOdds(
        active=share(_winning_rolls(active_sv, active_burst, reactive_sv, reactive_burst)),
        reactive=share(_winning_rolls(reactive_sv, reactive_burst, active_sv, active_burst)),
    )


# --- saves ------------------------------------------------------------------------------------


def save_failure(damage: int, armour: int) -> Fraction:
    """N4: a save fails with probability (DAM - ARM)/20, kept within [0, 1].

    >>> save_failure(13, 3), save_failure(13, 15), save_failure(30, 0)
    (Fraction(1, 2), Fraction(0, 1), Fraction(1, 1))
    """
    return min(max(Fraction(damage - armour, FACES), Fraction(0)), Fraction(1))


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


# --- engagements ------------------------------------------------------------------------------


class Roller(BaseModel):
    """One side of a roll: attribute, modifiers, Burst, and what its hits do."""

    model_config = ConfigDict(extra="forbid")

    attribute: Attribute = Field(description="The attribute rolled against (CC, PH, ...).")
    modifiers: list[Annotated[int, Field(ge=-100, le=100)]] = Field(
        default_factory=list, max_length=20, description="Summed, then capped (±12)."
    )
    burst: int = Field(
        1, ge=0, le=BURST_BOUND, description="Dice rolled before ally bonuses (0: no roll)."
    )
    damage: int | None = Field(
        None, ge=0, le=100, description="DAM of the weapon; none: no saves computed."
    )
    ammunition: Ammunition = "N"
    armour: int = Field(
        0, ge=0, le=100, description="ARM of this side's trooper, for the saves it makes."
    )

    def success_value(self, profile: InfinityProfile) -> int:
        cap = profile.modifier_cap
        return self.attribute + max(-cap, min(cap, sum(self.modifiers)))


class MeleeModel(BaseModel):
    """A model of the close combat: its side, base, state and declared skill."""

    model_config = ConfigDict(extra="forbid")

    name: str
    side: Side
    base_mm: int = Field(25, gt=0, le=1000)
    state: Literal["normal", "null", "immobilized"] = "normal"
    declared: Literal["cc_attack", "dodge", "idle", "reset", "none"] = "none"
    engaged: bool = Field(True, description="In the Engaged State (read by the N4 wording).")


class Melee(BaseModel):
    """Who touches whom, who attacks, and which allies each attacker claims as a Burst bonus."""

    model_config = ConfigDict(extra="forbid")

    models: list[MeleeModel] = Field(min_length=2, max_length=100)
    contacts: list[tuple[str, str]] = Field(
        max_length=1000, description="Pairs of models in silhouette contact."
    )
    active_trooper: str = Field(description="The active model that makes the CC Attack.")
    active_target: str = Field(description="The reactive model it attacks.")
    reactive_attacker: str | None = Field(None, description="The reactive model attacking back.")
    claimed_allies: dict[str, list[str]] = Field(
        default_factory=dict, max_length=100, description="Allies an attacker counts for +1 B."
    )
    wording: Wording | None = Field(None, description="None: the profile's wording.")

    @model_validator(mode="after")
    def _known_names(self) -> Melee:
        names = {model.name for model in self.models}
        if len(names) != len(self.models):
            raise ValueError("two models share a name")
        mentioned = [name for pair in self.contacts for name in pair]
        mentioned += [self.active_trooper, self.active_target, *self.claimed_allies]
        mentioned += [name for allies in self.claimed_allies.values() for name in allies]
        if self.reactive_attacker:
            mentioned.append(self.reactive_attacker)
        unknown = sorted(set(mentioned) - names)
        if unknown:
            raise ValueError(f"unknown models: {', '.join(unknown)}")
        return self

    def model(self, name: str) -> MeleeModel:
        return next(model for model in self.models if model.name == name)

    def touching(self, name: str) -> set[str]:
        return {b for a, b in self.contacts if a == name} | {
            a for a, b in self.contacts if b == name
        }


class InfinityEngagement(BaseModel):
    """A Face to Face roll, optionally in a melee that adds Burst for allies.

    >>> engagement = InfinityEngagement(active=Roller(attribute=12), reactive=Roller(attribute=12))
    >>> InfinityResolver().resolve(engagement).distribution["neither"]
    Fraction(19, 100)
    """

    model_config = ConfigDict(extra="forbid")

    active: Roller
    reactive: Roller
    melee: Melee | None = None

    def roller(self, side: Side) -> Roller:
        return self.active if side == "active" else self.reactive


# --- several troopers -------------------------------------------------------------------------


def _ineligibility(melee: Melee, attacker: str, ally: str, wording: Wording) -> str | None:
    """Why ``ally`` adds no Burst to ``attacker``, or None when it does."""
    model, attacking = melee.model(ally), melee.model(attacker)
    if ally == attacker:
        return "is the attacker itself"
    if model.side != attacking.side:
        return "is not an ally of the attacker"
    if model.state != "normal":
        return f"is {model.state.capitalize()}"
    if attacking.side == "active":
        if melee.active_target not in melee.touching(ally):
            return f"is not in silhouette contact with the target {melee.active_target}"
        return None
    if model.declared in ("dodge", "idle", "reset"):
        return f"declared {model.declared.capitalize()}"
    if melee.active_trooper not in melee.touching(ally):
        return f"is not in silhouette contact with the active trooper {melee.active_trooper}"
    if wording == "n4" and not model.engaged:
        return "is not in the Engaged State (N4 wording)"
    return None


def burst_bonus(melee: Melee, attacker: str, profile: InfinityProfile) -> list[str]:
    """The allies that give ``attacker`` +1 B each.

    >>> melee = Melee(models=[MeleeModel(name="a", side="active"),
    ...     MeleeModel(name="b", side="active"), MeleeModel(name="t", side="reactive")],
    ...     contacts=[("a", "t"), ("b", "t")], active_trooper="a", active_target="t")
    >>> burst_bonus(melee, "a", default_profile())
    ['b']
    """
    wording = melee.wording or profile.wording
    return [
        model.name
        for model in melee.models
        if _ineligibility(melee, attacker, model.name, wording) is None
    ]


def check_melee(melee: Melee, profile: InfinityProfile) -> list[Violation]:
    """Contact limits per base, the attackers' own contact, and every claimed ally."""
    violations: list[Violation] = []
    for model in melee.models:
        limit = profile.contact_limit(model.base_mm)
        touching = sorted(melee.touching(model.name))
        if len(touching) > limit.max_models:
            violations.append(
                Violation(
                    rule=limit.rule,
                    step=0,
                    message=f"{model.name} ({model.base_mm} mm base) has {len(touching)} models"
                    f" in silhouette contact; at most {limit.max_models} may touch it.",
                    stands=[model.name, *touching],
                )
            )
    attacks: list[tuple[Side, str, str]] = [("active", melee.active_trooper, melee.active_target)]
    if melee.reactive_attacker:
        attacks.append(("reactive", melee.reactive_attacker, melee.active_trooper))
    for side, name, foe in attacks:
        model = melee.model(name)
        if model.side != side:
            problem = f"is on the {model.side} side"
        elif model.state != "normal":
            problem = f"is {model.state.capitalize()}"
        elif foe not in melee.touching(name):
            problem = f"is not in silhouette contact with {foe}"
        else:
            continue
        violations.append(
            Violation(
                rule="INF-attacker",
                step=0,
                message=f"{name} cannot make the {side} CC Attack: it {problem}.",
                stands=[name],
            )
        )
    wording = melee.wording or profile.wording
    for attacker, allies in melee.claimed_allies.items():
        for ally in allies:
            reason = _ineligibility(melee, attacker, ally, wording)
            if reason:
                violations.append(
                    Violation(
                        rule="INF-ally",
                        step=0,
                        message=f"{ally} is counted for +1 B to {attacker} but {reason}.",
                        stands=[attacker, ally],
                    )
                )
    return violations


# --- the resolver -----------------------------------------------------------------------------


def _side_step(side: Side, roller: Roller, sv: int, burst: int) -> str:
    if burst == 0:
        return f"{side}: does not roll"
    faces = DieFaces.at(sv)
    mods = f" with {sum(roller.modifiers):+d}" if roller.modifiers else ""
    return (
        f"{side}: attribute {roller.attribute}{mods} gives SV {sv}, Burst {burst}: each die"
        f" succeeds on {faces.successes} of 20 faces, {faces.count[CRITICAL]} of them a critical"
    )


@dataclass
class InfinityResolver:
    """Face to Face odds, wounds and melee legality for Infinity (N4)."""

    profile: InfinityProfile | None = None
    limits: Limits | None = None
    name: str = "infinity"
    engagement_model: type[BaseModel] = InfinityEngagement

    @property
    def rules(self) -> InfinityProfile:
        return self.profile or default_profile()

    def check(self, engagement: InfinityEngagement) -> list[Violation]:
        return check_melee(engagement.melee, self.rules) if engagement.melee else []

    def success_value(self, roller: Roller, place: str) -> int:
        """A roller's SV; an InputError when it is outside the profile's range."""
        low, high = self.rules.success_value_range
        sv = roller.success_value(self.rules)
        if not low <= sv <= high:
            raise InputError(f"SV {sv} is outside {low}..{high}", place=place)
        return sv

    def allies(self, engagement: InfinityEngagement) -> dict[Side, list[str]]:
        """The allies that add +1 B to each side's attacker."""
        allies: dict[Side, list[str]] = {"active": [], "reactive": []}
        if engagement.melee is not None:
            for side, attacker in self.attackers(engagement):
                allies[side] = burst_bonus(engagement.melee, attacker, self.rules)
        return allies

    @staticmethod
    def attackers(engagement: InfinityEngagement) -> list[tuple[Side, str]]:
        """The models making the CC Attacks of a melee, by side."""
        melee = engagement.melee
        if melee is None:
            return []
        attackers: list[tuple[Side, str]] = [("active", melee.active_trooper)]
        if melee.reactive_attacker is not None:
            attackers.append(("reactive", melee.reactive_attacker))
        return attackers

    @staticmethod
    def _bonus_step(side: Side, attacker: str, allies: list[str]) -> str:
        if not allies:
            return f"{attacker} ({side}) gets no Burst bonus: no ally is eligible"
        return f"{attacker} ({side}) gets +{len(allies)} B from {listing(allies)}"

    def checked_burst(self, roller: Roller, allies: list[str], place: str) -> int:
        """The dice a roller rolls; refused over the profile's Burst or the ``max_burst`` limit."""
        if roller.burst > self.rules.max_burst:
            raise InputError(
                f"Burst {roller.burst} is over the profile's largest Burst, {self.rules.max_burst}",
                place=f"{place}.burst",
            )
        burst = roller.burst + len(allies)
        what = f"a Burst of {burst}" + (f" ({len(allies)} from allies)" if allies else "")
        return check_burst(burst, what, self.limits, f"{place}.burst")

    def resolve(self, engagement: InfinityEngagement) -> Resolution:
        allies = self.allies(engagement)
        rolls = {
            side: RollSummary(
                success_value=self.success_value(engagement.roller(side), side),
                burst=self.checked_burst(engagement.roller(side), allies[side], side),
                allies=allies[side],
            )
            for side in SIDES
        }
        steps = [
            self._bonus_step(side, attacker, allies[side])
            for side, attacker in self.attackers(engagement)
        ]
        for side in SIDES:
            roll = rolls[side]
            steps.append(_side_step(side, engagement.roller(side), roll.success_value, roll.burst))
        active, reactive = rolls["active"], rolls["reactive"]
        odds = face_to_face(
            active.success_value, active.burst, reactive.success_value, reactive.burst
        )
        if active.burst and reactive.burst:
            steps.append(
                "Face to Face: the loser's best success cancels the winner's successes up to it;"
                " a critical cancels every non-critical; criticals on both sides cancel everything"
            )
        else:
            steps.append("one side does not roll: the other makes a Normal Roll")
        wounds = self.wounds(engagement, odds)
        steps += [self._save_step(engagement, w.target) for w in wounds]
        details = InfinityDetails(
            active=active,
            reactive=reactive,
            surviving_hits=[
                SurvivingHits(
                    winner=side,
                    criticals=crits,
                    successes=crits + plain,
                    chance=ExactValue.of(chance),
                )
                for side in SIDES
                for (crits, plain), chance in odds.survivors(side).items()
            ],
            wounds=wounds,
        )
        return Resolution(
            system=self.name,
            distribution={
                "active_wins": odds.active_wins,
                "reactive_wins": odds.reactive_wins,
                "neither": odds.neither,
            },
            steps=steps,
            violations=self.check(engagement),
            details=details,
        )

    def _save_step(self, engagement: InfinityEngagement, target: Side) -> str:
        attacker = engagement.roller("active" if target == "reactive" else "reactive")
        defender = engagement.roller(target)
        failure = save_failure(attacker.damage or 0, defender.armour)
        saves = self.rules.saves(attacker.ammunition)
        extra = self.rules.extra_saves_per_critical
        return (
            f"the {target} trooper saves against DAM {attacker.damage} with ARM"
            f" {defender.armour}: each save fails with {percent(failure)}; each hit forces"
            f" {saves} save{'s' if saves > 1 else ''} ({attacker.ammunition})"
            + (f", a critical {extra} more" if extra else "")
            + "; each failed save is one wound"
        )

    def wounds(self, engagement: InfinityEngagement, odds: FaceToFaceOdds) -> list[Wounds]:
        """The wounds on each side whose foe's weapon has a damage value."""
        result = []
        for side in SIDES:
            roller = engagement.roller(side)
            target: Side = "reactive" if side == "active" else "active"
            if roller.damage is None:
                continue
            distribution = wound_distribution(
                odds.survivors(side),
                save_failure(roller.damage, engagement.roller(target).armour),
                self.rules.saves(roller.ammunition),
                self.rules.extra_saves_per_critical,
            )
            reached = at_least(distribution)
            result.append(
                Wounds(
                    target=target,
                    expected=ExactValue.of(
                        sum((k * p for k, p in distribution.items()), start=Fraction(0))
                    ),
                    counts=[
                        WoundCount(
                            wounds=k,
                            exactly=ExactValue.of(p),
                            at_least=ExactValue.of(reached.get(k, Fraction(1))),
                        )
                        for k, p in distribution.items()
                    ],
                )
            )
        return result


def check_burst(burst: int, what: str, limits: Limits | None, place: str | None = None) -> int:
    """``burst``, or the LimitError naming ``max_burst`` when it is over the limit.

    >>> check_burst(30, "a Burst of 30", Limits(max_burst=24), "active.burst")
    Traceback (most recent call last):
    ...
    allocator.core.errors.LimitError: active.burst: a Burst of 30, over the limit of 24 (raise ...)
    """
    limits = limits or default_limits()
    if burst > limits.max_burst:
        raise limits.refuse("max_burst", what, place=place)
    return burst


def parse_roller(text: str) -> dict[str, Any]:
    """``SV/B`` or ``ATTRIBUTE+MOD-MOD/B`` from the command line, as a roller's fields.

    >>> parse_roller("13+3-6/2")
    {'attribute': 13, 'modifiers': [3, -6], 'burst': 2}
    """
    match = re.fullmatch(
        r"\s*(-?[0-9]{1,4})((?:\s*[+-]\s*[0-9]{1,4}){0,20})\s*/\s*([0-9]{1,4})\s*", text
    )
    if not match:
        raise InputError(f"{text[:40]!r} is not SV/B (for example 13/2 or 11+3/1)")
    modifiers = [int(m.replace(" ", "")) for m in re.findall(r"[+-]\s*[0-9]+", match.group(2))]
    return {"attribute": int(match.group(1)), "modifiers": modifiers, "burst": int(match.group(3))}


def load_infinity_profile(path: Path | None) -> InfinityProfile:
    """A user's profile file, or the shipped one."""
    return load_profile(InfinityProfile, "infinity", path) if path else default_profile()
