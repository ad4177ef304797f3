"""The typed details of the Infinity answers: the rolls, the hits that get through, the wounds,
and the best contact arrangement (``ResolveAnswer.details`` of ``infinity`` and
``infinity-allocate``)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from allocator.core.exact import ExactValue
from allocator.core.resolution import Details

Side = Literal["active", "reactive"]


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
    exactly: ExactValue
    at_least: ExactValue


class Wounds(Details):
    """The wounds one side's trooper takes: the expectation and each count."""

    target: Side
    expected: ExactValue
    counts: list[WoundCount]


class InfinityDetails(Details):
    system: Literal["infinity"] = "infinity"
    active: RollSummary
    reactive: RollSummary
    surviving_hits: list[SurvivingHits]
    wounds: list[Wounds] = Field(description="Only for the sides whose weapon has a DAM.")


class AllocationDetails(Details):
    system: Literal["infinity-allocate"] = "infinity-allocate"
    target: str
    contacts: dict[str, str] = Field(description="Each free trooper that moves -> the enemy.")
    attacker: str
    burst: int
