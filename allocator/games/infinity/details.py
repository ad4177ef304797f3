"""The typed details of the Infinity answers, as ``cfalloc resolve infinity --json`` writes them.

:class:`InfinityDetails` is one close combat: each side's roll, the hits that get through, the
wounds, the modifiers that were applied and why, and each trooper's wound states after one to
five orders. :class:`AllocationDetails` is the contact arrangement ``infinity-allocate`` finds.

>>> from fractions import Fraction
>>> row = WoundState(state="wounded", wounds_left=1, chance=ExactValue.of(Fraction(1, 4)))
>>> row.model_dump(mode="json")["chance"]
{'value': 0.25, 'exact': '1/4'}
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from allocator.core.exact import ExactValue
from allocator.core.resolution import Details

__all__ = [
    "AllocationDetails",
    "InfinityDetails",
    "ModifierApplied",
    "OrdersOutcome",
    "RollSummary",
    "Side",
    "SurvivingHits",
    "TrooperOutcome",
    "WoundCount",
    "WoundState",
    "Wounds",
]

Side = Literal["active", "reactive"]
Edition = Literal["n4", "n5"]
RollKind = Literal["face_to_face", "normal", "normal_rolls", "none"]
State = Literal["unhurt", "wounded", "unconscious", "fighting_on", "dead", "affected"]
ModifiedPart = Literal[
    "attribute", "burst", "special_dice", "damage", "armour", "saves", "roll", "state"
]


class RollSummary(Details):
    """One side's roll once the modifiers and the allies are counted."""

    success_value: int
    burst: int = Field(description="Dice rolled, ally bonus included (0: no roll).")
    allies: list[str] = Field(default_factory=list, description="Allies adding +1 B each.")


class SurvivingHits(Details):
    """The winner keeps this many criticals and successes (criticals included), with a chance."""

    winner: Side
    criticals: int
    successes: int
    chance: ExactValue


class WoundCount(Details):
    wounds: int
    exactly: ExactValue = Field(description="This many wounds (this many or more when lumped).")
    at_least: ExactValue
    lumped: bool = Field(
        False, description="The row counts this many wounds or more (Continuous Damage)."
    )


class Wounds(Details):
    """The wounds one side's trooper takes: the expectation and each count."""

    target: Side
    expected: ExactValue | None = Field(
        description="Wounds on average; none when unbounded (Continuous Damage that never fails"
        " to wound)."
    )
    counts: list[WoundCount]


class ModifierApplied(Details):
    """One change a skill, the ammunition or the file made to a roll, and why."""

    side: Side = Field(description="The trooper whose roll or saves it changes.")
    part: ModifiedPart = Field(description="What it changes.")
    change: int | None = Field(description="By how much (none: a change of kind, not number).")
    source: str = Field(description="What made it: a skill, the ammunition, the file.")
    note: str = Field(description="The change in players' words.")


class WoundState(Details):
    """A state a trooper may end in, with its chance."""

    state: State
    wounds_left: int | None = Field(
        None, description="W/VITA/STR left (wounded, unconscious or fighting on)."
    )
    effects: list[str] = Field(
        default_factory=list, description="States an effect ammunition puts it in (affected)."
    )
    chance: ExactValue


class OrdersOutcome(Details):
    """What has happened to a trooper within this many orders of the same exchange."""

    orders: int
    wounded: ExactValue = Field(description="At least one more wound (or an effect).")
    out_of_the_fight: ExactValue = Field(description="Unconscious, Dead or affected.")
    dead: ExactValue
    expected_wounds: ExactValue = Field(description="New wounds on average, counted to Dead.")


class TrooperOutcome(Details):
    """One trooper's wound states after the exchange and within one to five orders."""

    side: Side
    name: str
    vita: int = Field(description="W (N4) or VITA (N5), or STR for a structure.")
    structure: bool
    wounds_taken: int = Field(description="Wounds it had before the roll.")
    fights_on: str | None = Field(
        description="The skill that keeps it fighting at 0 (No Wound Incapacitation, Dogged)."
    )
    states: list[WoundState]
    expected_wounds: ExactValue = Field(description="New wounds on average, counted to Dead.")
    orders: list[OrdersOutcome]


class InfinityDetails(Details):
    system: Literal["infinity"] = "infinity"
    active: RollSummary
    reactive: RollSummary
    surviving_hits: list[SurvivingHits]
    wounds: list[Wounds] = Field(description="Only for the sides whose weapon has a DAM or PS.")
    rules: Edition = Field("n4", description="The ruleset: n4 or n5.")
    roll: RollKind = Field(
        "face_to_face",
        description="face_to_face, normal (one side rolls), normal_rolls (both roll Normal"
        " Rolls, e.g. Berserk) or none.",
    )
    special_dice: dict[Side, int] = Field(
        default_factory=dict, description="Extra dice rolled and discarded (+1 SD), by side."
    )
    modifiers: list[ModifierApplied] = Field(
        default_factory=list, description="Every change made to the rolls and saves, and why."
    )
    troopers: list[TrooperOutcome] = Field(
        default_factory=list, description="Wound states, for the troopers whose W/VITA is given."
    )


class AllocationDetails(Details):
    system: Literal["infinity-allocate"] = "infinity-allocate"
    target: str
    contacts: dict[str, str] = Field(description="Each free trooper that moves -> the enemy.")
    attacker: str
    burst: int
