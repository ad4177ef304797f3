"""Percentile close assault: the procedure of the rules as a state machine with exact chances.

Eligibility (distance by scale and terrain), the defender's own assault orders (d100 over 50),
then the AFV branch (defensive machine-gun fire, the infantry's anti-tank weapons, the Infantry
vs. AFV table, 10 off the roll for every further turn) or the non-AFV branch (simultaneous fire,
then melee until a KIA). The tables are data a user supplies; an example ships.

>>> engagement = PercentileEngagement(
...     attacker=AssaultingInfantry(name="1st sqd", distance_in=4, firepower=4),
...     defender=DefendingUnit(name="MG nest", kind="infantry", firepower=2))
>>> PercentileResolver().resolve(engagement).distribution["defender_kia"]
Fraction(9, 14)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import prod
from pathlib import Path
from typing import Annotated, Literal, TypeVar

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

from allocator.core.errors import InputError
from allocator.core.exact import ExactValue
from allocator.core.limits import Limits, default_limits
from allocator.core.resolution import Probability, Resolution, load_profile
from allocator.core.text import percent, plural
from allocator.core.violations import Violation
from allocator.games.percentile.details import PercentileDetails

FireResult = Literal["kia", "suppressed", "no_effect"]
AssaultResult = Literal["destroyed", "immobilized", "no_effect"]
PILLBOX_MODIFIER = 8
ESCALATION = 10
"""Each further turn an AFV stays under attack takes this off the close-assault roll."""
#: Every turn count in a file is at most this (the highest the ``max_rounds`` limit may be
#: raised to); the configured limit is checked before any work.
TURNS_BOUND = 10_000
REACH_IN = {
    ("standard", "open"): 6.0,
    ("standard", "woods"): 3.0,
    ("1/285", "open"): 3.0,
    ("1/285", "woods"): 1.5,
}
Factor = Annotated[int, Field(ge=0, le=1000)]
Modifier = Annotated[int, Field(ge=-100, le=100)]
Name = Annotated[str, Field(max_length=200)]

#: What each outcome means, in players' words.
OUTCOME_WORDS = {
    "defender_assaults_first": "the defender's own assault goes first",
    "defender_kia": "the defender is killed (KIA)",
    "attacker_kia": "the attacker is killed (KIA)",
    "both_kia": "both are killed (KIA)",
    "afv_destroyed_by_fire": "the AFV is destroyed by the anti-tank weapons",
    "afv_destroyed": "the AFV is destroyed in the close assault",
    "afv_immobilized": "the AFV is immobilized",
    "afv_survives": "the AFV survives",
}


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


class FireBand(_Strict):
    upto: int = Field(ge=-1000, le=10_000)
    result: FireResult


class AssaultBand(_Strict):
    upto: int = Field(ge=-1000, le=10_000)
    result: AssaultResult


BandsT = TypeVar("BandsT", list[FireBand], list[AssaultBand])


def _rising(bands: BandsT) -> BandsT:
    tops = [band.upto for band in bands]
    if tops != sorted(set(tops)):
        raise ValueError(f"the bands' upto values must rise from band to band (got {tops})")
    return bands


FireColumn = Annotated[list[FireBand], Field(min_length=1, max_length=100), AfterValidator(_rising)]
AssaultColumn = Annotated[
    list[AssaultBand], Field(min_length=1, max_length=100), AfterValidator(_rising)
]


def band_chances(bands: list[FireBand] | list[AssaultBand], modifier: int) -> dict[str, Fraction]:
    """Exact chance of each result for d100 + ``modifier``.

    >>> band_chances([FireBand(upto=10, result="kia"), FireBand(upto=999, result="no_effect")], 5)
    {'kia': Fraction(1, 20), 'no_effect': Fraction(19, 20)}
    """
    tally: Counter[str] = Counter()
    for roll in range(1, 101):
        band = next((b for b in bands if roll + modifier <= b.upto), None)
        if band is None:
            raise InputError(f"no band of the table reaches a modified roll of {roll + modifier}")
        tally[band.result] += 1
    return {result: Fraction(count, 100) for result, count in tally.items()}


class PercentileTables(_Strict):
    """The user's Defense/Firepower and Infantry vs. AFV tables."""

    example: bool = False
    firepower: dict[Factor, FireColumn] = Field(min_length=1, max_length=100)
    assault: dict[Name, AssaultColumn] = Field(min_length=1, max_length=20)

    def fire(self, factor: int, modifier: int) -> dict[str, Fraction]:
        """The column at or below ``factor``."""
        columns = [column for column in self.firepower if column <= factor]
        if not columns:
            raise InputError(f"firepower {factor} is below the table's lowest column")
        return band_chances(self.firepower[max(columns)], modifier)

    def close_assault(self, category: str, modifier: int) -> dict[str, Fraction]:
        if category not in self.assault:
            known = ", ".join(self.assault)
            raise InputError(f"no close-assault category {category!r} in the tables ({known})")
        return band_chances(self.assault[category], modifier)

    def next_lower(self, category: str) -> str:
        """The next weaker category (the weakest stays itself)."""
        order = list(self.assault)
        return order[min(order.index(category) + 1, len(order) - 1)]


@cache
def example_tables() -> PercentileTables:
    return load_profile(PercentileTables, "percentile-example-tables")


def load_tables(path: Path | None) -> PercentileTables:
    """A user's tables file, or the shipped example."""
    return (
        load_profile(PercentileTables, "percentile-example-tables", path)
        if path
        else example_tables()
    )


class AssaultingInfantry(_Strict):
    """The infantry unit that assaults."""

    name: Name
    distance_in: float = Field(ge=0, le=1000, description="Inches to the defender.")
    terrain: Literal["open", "woods"] = "open"
    uphill: bool = Field(False, description="Uphill movement modifier: half the reach.")
    height_advantage: bool = False
    firepower: Factor = Field(description="Factor of its first fire (NM, or M against transports).")
    melee_firepower: Factor | None = Field(None, description="0-4 NM factor in melee; None: same.")
    at_weapons: list[Probability] = Field(
        default_factory=list,
        max_length=20,
        description="Each anti-tank device's chance to kill by direct fire.",
    )


class DefendingUnit(_Strict):
    """The assaulted unit: an AFV, a transport carrying troops, or a non-AFV unit."""

    name: Name
    kind: Literal["afv", "transport", "infantry"]
    suppressed: bool = False
    orders: Literal["none", "assault_attacker", "assault_other"] = "none"
    pillbox: bool = False
    firepower: Factor | None = Field(None, description="Its defensive fire factor; None: no fire.")
    melee_firepower: Factor | None = None
    route_modifiers: list[Modifier] = Field(
        default_factory=list,
        max_length=20,
        description="Modifiers along the attack route; the worst is used.",
    )
    mg_in_arc: bool = Field(True, description="An MG within 45 degrees, or a turret-top AA gun.")
    open_topped: bool = False
    category: Name | None = Field(None, description="Close-assault defence category of an AFV.")


class PercentileEngagement(_Strict):
    scale: Literal["standard", "1/285"] = "standard"
    attacker: AssaultingInfantry
    defender: DefendingUnit
    turns: int = Field(1, ge=1, le=TURNS_BOUND, description="Turns an AFV stays under attack.")

    @model_validator(mode="after")
    def _afv_has_category(self) -> PercentileEngagement:
        if self.defender.kind == "afv" and self.defender.category is None:
            raise ValueError("an AFV defender needs its close-assault category")
        return self


@dataclass
class StateMachine:
    """Chance flowing through the procedure; finished outcomes collect in ``ends``."""

    ends: dict[str, Fraction]
    steps: list[str]

    def end(self, outcome: str, chance: Fraction) -> None:
        if chance:
            self.ends[outcome] = self.ends.get(outcome, Fraction(0)) + chance


def reach(engagement: PercentileEngagement) -> float:
    """How far the infantry may assault: 6", 3" at 1/285; 3", 1.5" in woods; halved uphill."""
    inches = REACH_IN[engagement.scale, engagement.attacker.terrain]
    return inches / 2 if engagement.attacker.uphill else inches


def _afv_branch(
    run: StateMachine, chance: Fraction, engagement: PercentileEngagement, tables: PercentileTables
) -> None:
    attacker, afv = engagement.attacker, engagement.defender
    category = afv.category or ""
    if afv.open_topped and attacker.height_advantage:
        category = tables.next_lower(category)
        run.steps.append(f"open-topped AFV attacked from above: it defends as {category}")
    survive_at = prod((1 - p for p in attacker.at_weapons), start=Fraction(1))
    weapons = plural(len(attacker.at_weapons), "anti-tank weapon")
    for turn in range(1, engagement.turns + 1):
        fires = afv.firepower is not None and afv.mg_in_arc and not (afv.suppressed and turn == 1)
        if fires:
            kia = tables.fire(afv.firepower or 0, 0).get("kia", Fraction(0))
            run.end("attacker_kia", chance * kia)
            chance *= 1 - kia
        run.end("afv_destroyed_by_fire", chance * (1 - survive_at))
        chance *= survive_at
        table = tables.close_assault(category, -ESCALATION * (turn - 1))
        run.end("afv_destroyed", chance * table.get("destroyed", Fraction(0)))
        run.end("afv_immobilized", chance * table.get("immobilized", Fraction(0)))
        chance *= table.get("no_effect", Fraction(0))
        run.steps.append(
            f"turn {turn}: {'defensive MG fire, ' if fires else 'no defensive fire, '}"
            f"{weapons}, then the close-assault table at {category}"
            + (f" with {ESCALATION * (turn - 1)} off the roll" if turn > 1 else "")
        )
    run.end("afv_survives", chance)


def _in_melee(melee_factor: int | None, factor: int | None) -> int | None:
    """The factor a side fights the melee with: its melee factor, else its fire factor."""
    return factor if melee_factor is None else melee_factor


def _exchange(
    engagement: PercentileEngagement, tables: PercentileTables, *, melee: bool
) -> tuple[Fraction, Fraction]:
    """(P attacker kills, P defender kills) in one exchange of fire."""
    attacker, defender = engagement.attacker, engagement.defender
    pillbox = PILLBOX_MODIFIER if defender.pillbox else 0
    attack_factor = attacker.firepower
    defence_factor = defender.firepower
    if melee:
        attack_factor = _in_melee(attacker.melee_firepower, attacker.firepower) or 0
        defence_factor = _in_melee(defender.melee_firepower, defender.firepower)
    kills = tables.fire(attack_factor, pillbox).get("kia", Fraction(0))
    if defence_factor is None or (defender.suppressed and not melee):
        return kills, Fraction(0)
    route = 0 if melee else min(defender.route_modifiers, default=0)
    return kills, tables.fire(defence_factor, route).get("kia", Fraction(0))


def _infantry_branch(
    run: StateMachine, chance: Fraction, engagement: PercentileEngagement, tables: PercentileTables
) -> tuple[Fraction, Fraction]:
    """Fire, then melee until a KIA; (the chance of melee, its expected turns once in it)."""
    if engagement.defender.kind == "transport":
        run.steps.append("the carried infantry dismount and meet the attack (M firepower)")
    hit, hit_back = _exchange(engagement, tables, melee=False)
    run.steps.append(
        f"both fire at once: the attacker kills with {percent(hit)}, the defender with"
        f" {percent(hit_back)}"
        + (" (suppressed: no defensive fire)" if engagement.defender.suppressed else "")
    )
    _settle(run, chance, hit, hit_back)
    into_melee = chance * (1 - hit) * (1 - hit_back)
    hit, hit_back = _exchange(engagement, tables, melee=True)
    if into_melee and not (hit or hit_back):
        raise InputError("in melee neither side can roll a KIA: the melee would never end")
    stop = 1 - (1 - hit) * (1 - hit_back)
    run.steps.append(
        f"melee each turn until a KIA: the attacker kills with {percent(hit)}, the defender"
        f" with {percent(hit_back)}"
    )
    if into_melee:
        _settle(run, into_melee / stop, hit, hit_back)
    return into_melee, (1 / stop if into_melee else Fraction(0))


def _settle(run: StateMachine, chance: Fraction, hit: Fraction, hit_back: Fraction) -> None:
    run.end("defender_kia", chance * hit * (1 - hit_back))
    run.end("attacker_kia", chance * (1 - hit) * hit_back)
    run.end("both_kia", chance * hit * hit_back)


@dataclass
class PercentileResolver:
    """The whole close-assault procedure with the given (or the example) tables."""

    tables: PercentileTables | None = None
    limits: Limits | None = None
    name: str = "percentile"
    engagement_model: type[BaseModel] = PercentileEngagement

    def check(self, engagement: PercentileEngagement) -> list[Violation]:
        attacker, limit = engagement.attacker, reach(engagement)
        if attacker.distance_in <= limit:
            return []
        where = f"{engagement.scale}, {attacker.terrain}" + (", uphill" if attacker.uphill else "")
        message = (
            f'{attacker.name} is {attacker.distance_in:g}" away; it may close assault from at'
            f' most {limit:g}" ({where}).'
        )
        names = [attacker.name, engagement.defender.name]
        return [Violation(rule="PCT-range", step=0, message=message, stands=names)]

    def check_turns(self, engagement: PercentileEngagement) -> None:
        limits = self.limits or default_limits()
        if engagement.turns > limits.max_rounds:
            raise limits.refuse("max_rounds", f"{engagement.turns} turns", place="turns")

    def resolve(self, engagement: PercentileEngagement) -> Resolution:
        self.check_turns(engagement)
        tables = self.tables or example_tables()
        limit = reach(engagement)
        violations = self.check(engagement)
        names = {"attacker": engagement.attacker.name, "defender": engagement.defender.name}
        details = PercentileDetails(
            **names, example_tables=tables.example, reach_in=limit, eligible=False
        )
        if violations:
            steps = [f'out of reach ({limit:g}" at most): no close assault']
            return Resolution(self.name, {}, steps, violations, details)
        run = StateMachine(
            {}, [f'in reach: {engagement.attacker.distance_in:g}" away, {limit:g}" at most']
        )
        chance = Fraction(1)
        orders = engagement.defender.orders
        if orders == "assault_other":
            run.end("defender_assaults_first", Fraction(1, 2))
            chance = Fraction(1, 2)
            run.steps.append(
                "the defender has its own assault order: on d100 over 50 (1/2) it goes first;"
                ' the attacker follows to its attack point (or its old place if over 6")'
            )
        elif orders == "assault_attacker":
            run.steps.append("both ordered to assault each other: they fight halfway between")
        melee: ExactValue | None = None
        turns: ExactValue | None = None
        if engagement.defender.kind == "afv":
            _afv_branch(run, chance, engagement, tables)
        else:
            into_melee, expected_turns = _infantry_branch(run, chance, engagement, tables)
            melee, turns = ExactValue.of(into_melee), ExactValue.of(expected_turns)
        if engagement.defender.pillbox:
            run.steps.append(f"pillbox: +{PILLBOX_MODIFIER} on every roll against the defender")
        run.steps.append("suppressed results are ignored")
        details = PercentileDetails(
            **names,
            example_tables=tables.example,
            reach_in=limit,
            eligible=True,
            melee=melee,
            expected_melee_turns=turns,
        )
        return Resolution(self.name, dict(run.ends), run.steps, violations, details)
