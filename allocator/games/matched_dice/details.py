"""The typed details of the matched-dice answer: the dice, the casualties, how the chain ends,
the strength a plan needs."""

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


class StrengthChance(Details):
    attacker_sps: int
    chance: ExactValue = Field(description="The attacker's chance of winning the chain.")


class StrengthPlan(Details):
    """The fewest attacking SPs that reach a chance of winning the chain (``--plan``)."""

    target: ExactValue = Field(description="The chance asked for.")
    most_sps: int = Field(
        description="The most attacking SPs searched: the SP limit, or fewer when more cannot"
        " change the chance within the rounds."
    )
    more_adds_nothing: bool = Field(
        description="most_sps is below the SP limit because more SPs add no dice and lose"
        " none within the rounds: no strength does better than most_sps."
    )
    fewest_sps: int | None = Field(
        description="The fewest attacking SPs that reach the target; none: not reached up to"
        " most_sps."
    )
    curve: list[StrengthChance] = Field(
        description="Each strength from 1 SP up to fewest_sps (or most_sps), with its chance."
    )


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
    plan: StrengthPlan | None = Field(
        None,
        description="With --plan: the strength search; the rest of the answer is the assault"
        " at the fewest SPs found (or the most searched).",
    )
