"""Infinity in the registry: its resolver, details, formats and its two commands.

``cfalloc resolve infinity`` resolves a roll (two rolls from flags, or a file with a melee of
several troopers); ``cfalloc resolve infinity-allocate`` finds who should move into contact.

>>> [command.name for command in GAME.commands]
['infinity', 'infinity-allocate']
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from allocator.core.errors import InputError
from allocator.core.game import Game, Given, ResolveCommand, Work
from allocator.games.infinity.details import AllocationDetails, InfinityDetails
from allocator.games.infinity.report import allocation_report, infinity_report


class QuickRoll(BaseModel):
    """The flags of a roll without a file: both sides' rolls and what their hits do."""

    model_config = ConfigDict(extra="forbid")

    active: str | None = Field(None, description="Active roll: SV/B or ATTR+MOD/B.")
    reactive: str = Field("0/0", description="Reactive roll; 0/0: none (Normal Roll).")
    active_damage: int | None = Field(None, description="DAM of the active's hits.")
    reactive_damage: int | None = Field(None, description="DAM of the reactive's hits.")
    active_ammo: str = Field("N", description="Its ammunition: N, AP, DA, EXP, T2, Shock, ...")
    reactive_ammo: str = Field("N", description="Its ammunition: N, AP, DA, EXP, T2, Shock, ...")
    active_armour: int = Field(0, description="ARM of the active trooper.")
    reactive_armour: int = Field(0, description="ARM of the reactive trooper.")


def prepare_roll(given: Given) -> Work:
    """The engagement from the file or from the flags (never both), and the profile."""
    from allocator.core.validation import validate
    from allocator.games.infinity.rolls import (
        InfinityEngagement,
        InfinityResolver,
        load_infinity_profile,
        parse_roller,
    )

    roll = given.roll if isinstance(given.roll, QuickRoll) else None
    if given.file is not None and roll is not None:
        raise InputError("give the engagement file or the roll flags (--active ...), not both")
    if roll is None or roll.active is None:
        engagement = given.load(InfinityEngagement, "engagement file or --active (with --reactive)")
    else:
        sides = {}
        for side, text, damage, ammo, armour in (
            ("active", roll.active, roll.active_damage, roll.active_ammo, roll.active_armour),
            (
                "reactive",
                roll.reactive,
                roll.reactive_damage,
                roll.reactive_ammo,
                roll.reactive_armour,
            ),
        ):
            try:
                parsed = parse_roller(text)
            except InputError as error:
                raise error.located(None, f"--{side}") from None
            sides[side] = {**parsed, "damage": damage, "ammunition": ammo, "armour": armour}
        engagement = validate(InfinityEngagement, sides)
    resolver = InfinityResolver(load_infinity_profile(given.profile))
    return lambda budget: resolver.resolve(engagement)


def prepare_allocation(given: Given) -> Work:
    """The free troopers, their targets and the target, and the profile."""
    from allocator.games.infinity.allocate import AllocationProblem, allocation_resolution
    from allocator.games.infinity.rolls import load_infinity_profile

    problem = given.load(AllocationProblem, "allocation file")
    rules = load_infinity_profile(given.profile)
    return lambda budget: allocation_resolution(problem, rules, budget=budget)


GAME = Game(
    name="infinity",
    resolver="allocator.games.infinity.rolls:InfinityResolver",
    details=(InfinityDetails, AllocationDetails),
    formats={
        "infinity-engagement": "allocator.games.infinity.troopers:InfinityEngagement",
        "infinity-allocation": "allocator.games.infinity.allocate:AllocationProblem",
        "infinity-profile": "allocator.games.infinity.profile:InfinityProfile",
        "infinity-menus": "allocator.games.infinity.calculator:InfinityMenus",
    },
    commands=(
        ResolveCommand(
            name="infinity",
            summary="Face to Face (or Normal) roll: who wins, the hits that get through, and the "
            "wounds.",
            file="An engagement file: both rolls, optionally a melee of several troopers "
            "(instead of --active and --reactive).",
            example="melee",
            prepare=prepare_roll,
            report=infinity_report,
            quick_roll=QuickRoll,
        ),
        ResolveCommand(
            name="infinity-allocate",
            summary="Who should move into contact with whom, and who attacks, for the best "
            "chance to wound the target.",
            file="An allocation file: the free troopers, the enemies they can reach, the target.",
            example="sniper",
            prepare=prepare_allocation,
            report=allocation_report,
        ),
    ),
)
