"""The typed details of the Battlesystem answer: one answer for each question about the plan."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from allocator.core.resolution import Details

Predicate = Literal[
    "in_command", "charisma_bonus", "squeezing_in", "front_attack", "formation", "indoor_spacing"
]


class PredicateAnswer(Details):
    """One yes-or-no question about a stand, an attack or a unit, and why."""

    predicate: Predicate
    subject: str
    holds: bool
    reason: str


class BattlesystemDetails(Details):
    system: Literal["battlesystem"] = "battlesystem"
    answers: list[PredicateAnswer]
    profile_unverified: bool = Field(
        description="The profile's command numbers are not checked against the rulebook."
    )
