"""The matched-dice close assault in the registry: its resolver, details, formats and command.

>>> GAME.commands[0].options()[0]
('attacker', <class 'int'>, 'Unwounded assaulting SPs.')
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, field_validator

from allocator.core.game import Game, Given, ResolveCommand, Work
from allocator.games.matched_dice.details import MatchedDiceDetails
from allocator.games.matched_dice.report import report


class QuickRoll(BaseModel):
    """The flags of a roll (or a chain of rounds) without a file; with one, they replace its
    values."""

    model_config = ConfigDict(extra="forbid")

    attacker: int | None = Field(None, description="Unwounded assaulting SPs.")
    defender: int | None = Field(None, description="Unwounded defending SPs.")
    ties: str | None = Field(
        None,
        description="Equal dice: cancel (as written: nothing happens) or defender (Risk: the "
        "defender wins them). Default: the profile's.",
    )
    rounds: int | None = Field(None, description="Chain this many rounds.")
    quality: str | None = Field(
        None,
        description="Attacker quality, one of the profile's attack_limits (shipped: veteran, "
        "elite, regular, inferior): its attack limit caps the rounds.",
    )
    plan: str | None = Field(
        None,
        description="Find the fewest attacking SPs whose chance of winning the chain (the "
        "defender wiped out or broken within --rounds or the attack limit) reaches this, as "
        "0.8, 80% or 4/5, with the chance of each strength; the attacker's SPs or bases given "
        "are replaced by the search.",
    )

    @field_validator("plan")
    @classmethod
    def _a_chance(cls, plan: str | None) -> str | None:
        from allocator.core.exact import parse_chance

        if plan is not None:
            parse_chance(plan)
        return plan


def prepare(given: Given) -> Work:
    """The assault from the file, the flags or both (the flags win), and the profile."""
    from allocator.core.exact import parse_chance
    from allocator.core.validation import validate
    from allocator.games.matched_dice.assault import (
        MatchedDiceEngagement,
        MatchedDiceResolver,
        load_matched_dice_profile,
    )

    data = given.flags()
    plan = data.pop("plan", None)
    if given.file is not None or not data:
        data = {
            **given.load(
                MatchedDiceEngagement, "assault file or --attacker and --defender"
            ).model_dump(),
            **data,
        }
    if plan is not None:  # the search sets the attacker's strength
        data = {**data, "attacker": 0, "attacking_bases": []}
    engagement = validate(MatchedDiceEngagement, data)
    resolver = MatchedDiceResolver(load_matched_dice_profile(given.profile))
    if plan is None:
        return lambda budget: resolver.resolve(engagement, lambda: budget.check("the exact answer"))
    target = parse_chance(plan)
    resolver.chain_rounds(engagement)  # before the time limit starts
    return lambda budget: resolver.plan(engagement, target, lambda: budget.check("the plan"))


GAME = Game(
    name="matched-dice",
    resolver="allocator.games.matched_dice.assault:MatchedDiceResolver",
    details=(MatchedDiceDetails,),
    formats={
        "matched-dice-engagement": "allocator.games.matched_dice.assault:MatchedDiceEngagement",
        "matched-dice-profile": "allocator.games.matched_dice.assault:MatchedDiceProfile",
    },
    commands=(
        ResolveCommand(
            name="matched-dice",
            summary="One roll of matched dice, or with --rounds / --quality the whole chain of "
            "rounds; with --plan P also the fewest attacking SPs that win the chain with "
            "chance P.",
            file="An assault file: SP counts, or bases on the grid (flags given beside it "
            "replace its values).",
            example="assault-grid",
            prepare=prepare,
            report=report,
            quick_roll=QuickRoll,
        ),
    ),
)
