"""The typed details of the matched-dice answer: the dice, the casualties, how the chain ends."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from allocator.core.exact import ExactValue
from allocator.core.resolution import Details

Ties = Literal["cancel", "defender"]
AssaultEnd = Literal[
    "attacker_wiped_out",
    "defender_wiped_out",
    "attacker_broke",
    "defender_broke",
    "both_broke",
    "undecided",
]


class RoundCasualties(Details):
    attacker_losses: int
    defender_losses: int
    chance: ExactValue


class ChainEnd(Details):
    end: AssaultEnd
    attacker_sps: int
    defender_sps: int
    chance: ExactValue


class AttackLimit(Details):
    """The profile's attack limit for the attacker's quality: the most rounds it assaults for."""

    quality: str
    rounds: int
    unverified: bool = Field(description="The profile marks this limit as unverified.")


class MatchedDiceDetails(Details):
    system: Literal["matched-dice"] = "matched-dice"
    ties: Ties
    attacker_sps: int
    defender_sps: int
    attacker_dice: int
    defender_dice: int
    casualties: list[RoundCasualties] = Field(description="Casualties of the first roll.")
    rounds: int | None = Field(description="Rounds chained; none: one roll.")
    ends: list[ChainEnd] = Field(description="How the chain of rounds ends (empty: one roll).")
    attack_limit: AttackLimit | None = Field(
        None, description="The attack limit that caps the rounds, when a quality is given."
    )
