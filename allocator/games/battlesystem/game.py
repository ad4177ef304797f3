"""Battlesystem buildings in the registry: its resolver, details, formats and command.

>>> GAME.commands[0].options()
[]
"""

from __future__ import annotations

from allocator.core.game import Game, Given, ResolveCommand, Work
from allocator.games.battlesystem.details import BattlesystemDetails
from allocator.games.battlesystem.report import report


def prepare(given: Given) -> Work:
    """The building plan and the profile."""
    from allocator.games.battlesystem.plan import (
        BattlesystemPlan,
        BattlesystemResolver,
        load_battlesystem_profile,
    )

    plan = given.load(BattlesystemPlan, "building plan")
    resolver = BattlesystemResolver(load_battlesystem_profile(given.profile))
    return lambda budget: resolver.resolve(plan)


GAME = Game(
    name="battlesystem",
    resolver="allocator.games.battlesystem.plan:BattlesystemResolver",
    details=(BattlesystemDetails,),
    formats={
        "battlesystem-plan": "allocator.games.battlesystem.plan:BattlesystemPlan",
        "battlesystem-profile": "allocator.games.battlesystem.plan:BattlesystemProfile",
    },
    commands=(
        ResolveCommand(
            name="battlesystem",
            summary="Command, charisma, squeezing in, formation, spacing and facing over a "
            "building plan.",
            file="The building plan: rooms, connections, commanders, units, stands, attacks.",
            example="keep-gatehouse",
            prepare=prepare,
            report=report,
        ),
    ),
)
