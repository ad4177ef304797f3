"""Infinity in the registry: its resolver, details, formats and its two commands.

``cfalloc resolve infinity`` resolves a roll (two rolls from flags, or a file with a melee of
several troopers); ``cfalloc resolve infinity-allocate`` finds who should move into contact.

>>> [command.name for command in GAME.commands]
['infinity', 'infinity-allocate']
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model

from allocator.core.errors import InputError
from allocator.core.game import Game, Given, ResolveCommand, Work
from allocator.games.infinity.details import AllocationDetails, InfinityDetails
from allocator.games.infinity.report import allocation_report, infinity_report

if TYPE_CHECKING:
    from allocator.core.budget import Budget
    from allocator.core.resolution import Resolution


#: Each side's flags after its roll (``--active`` / ``--reactive``): the field after the side's
#: name, its type, default and help (the choices are added from the profiles' menus).
SIDE_FLAGS: dict[str, tuple[Any, Any, str]] = {
    "action": (str | None, None, "What it does (none given: a CC Attack)."),
    "damage": (int | None, None, "N4: the DAM of its weapon (none: no saves)."),
    "ps": (int | None, None, "N5: the PS of its weapon (none: no saves)."),
    "ammo": (str, "N", "Its ammunition."),
    "trait": (list[str] | None, None, "A trait of its weapon (repeat for more)."),
    "armour": (int, 0, "Its ARM."),
    "bts": (int, 0, "Its BTS."),
    "vita": (int | None, None, "Its W (N4) or VITA (N5): shows its wound states."),
    "wounds_taken": (int, 0, "Wounds it has already taken."),
    "type": (str | None, None, "Its type (E/M reads it)."),
    "allies": (int, 0, "Allies in contact giving it +1 B each."),
    "skill": (
        list[str] | None,
        None,
        "A close-combat skill, NAME or NAME=LEVEL (repeat for more).",
    ),
}

#: Every flag of the quick roll: the ruleset, both rolls, and each side's trooper.
QUICK_ROLL_FIELDS: dict[str, Any] = {
    "rules": (
        Literal["n4", "n5"] | None,
        Field(None, description="The ruleset (none given: n4)."),
    ),
    "active": (
        str | None,
        Field(None, description="Active roll: SV/B or ATTR+MOD/B (13/2, 11+3/1)."),
    ),
    "reactive": (str, Field("0/0", description="Reactive roll; 0/0: none (a Normal Roll).")),
    **{
        f"{side}_{name}": (kind, Field(default, description=words))
        for side in ("active", "reactive")
        for name, (kind, default, words) in SIDE_FLAGS.items()
    },
}
QuickRoll: type[BaseModel] = create_model(
    "QuickRoll",
    __config__=ConfigDict(extra="forbid"),
    __doc__="The flags of a roll without a file: the ruleset, and each side's trooper.",
    **QUICK_ROLL_FIELDS,
)


def quick_roll_help() -> dict[str, str]:
    """The choices of the quick roll's flags, read from the profiles' menus."""
    from allocator.games.infinity.quick import flag_help

    return flag_help()


def prepare_roll(given: Given) -> Work:
    """The engagement from the file or from the flags (never both), and the profile."""
    from allocator.core.validation import validate
    from allocator.games.infinity.modifiers import prepare
    from allocator.games.infinity.quick import flagged, quick_troopers
    from allocator.games.infinity.rolls import (
        InfinityEngagement,
        InfinityResolver,
        load_infinity_profile,
    )

    roll = given.roll if isinstance(given.roll, QuickRoll) else None
    if given.file is not None and roll is not None:
        raise InputError("give the engagement file or the roll flags (--active ...), not both")
    from_flags = roll is not None and getattr(roll, "active", None) is not None
    if roll is None or not from_flags:
        engagement = given.load(InfinityEngagement, "engagement file or --active (with --reactive)")
    else:
        try:
            engagement = validate(InfinityEngagement, quick_troopers(roll.model_dump()))
        except InputError as error:
            raise flagged(error) from None
    resolver = InfinityResolver(load_infinity_profile(given.profile))
    try:  # an SV or Burst out of range is refused here, before the time limit starts
        profile = resolver.ruleset(engagement)
        prepare(engagement, profile, resolver.allies(engagement, profile), resolver.limits)
    except InputError as error:
        raise (flagged(error) if from_flags else error) from None

    def work(budget: Budget) -> Resolution:
        try:
            return resolver.resolve(engagement, budget)
        except InputError as error:  # a quick roll's problem is named by its flag
            raise (flagged(error) if from_flags else error) from None

    return work


def prepare_allocation(given: Given) -> Work:
    """The free troopers, their targets and the target, and the profile."""
    from allocator.core.limits import default_limits
    from allocator.games.infinity.allocate import (
        AllocationProblem,
        allocation_resolution,
        check_sizes,
    )
    from allocator.games.infinity.profile import default_profile
    from allocator.games.infinity.rolls import load_infinity_profile

    problem = given.load(AllocationProblem, "allocation file")
    rules = load_infinity_profile(given.profile)
    check_sizes(problem, rules or default_profile(), default_limits())  # before the time limit
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
        "infinity-view": "allocator.games.infinity.view:InfinityView",
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
            flag_help=quick_roll_help,
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
