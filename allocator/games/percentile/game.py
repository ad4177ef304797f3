"""The percentile close assault in the registry: its resolver, details, formats and command.

>>> GAME.commands[0].profile.flag
'--tables'
"""

from __future__ import annotations

from allocator.core.game import FileOption, Game, Given, ResolveCommand, Work
from allocator.games.percentile.details import PercentileDetails
from allocator.games.percentile.report import report

TABLES = FileOption("--tables", "Your tables file; default: the shipped EXAMPLE tables.")


def prepare(given: Given) -> Work:
    """The assault and the tables."""
    from allocator.games.percentile.procedure import (
        PercentileEngagement,
        PercentileResolver,
        load_tables,
    )

    engagement = given.load(PercentileEngagement, "assault file")
    resolver = PercentileResolver(load_tables(given.profile))
    return lambda budget: resolver.resolve(engagement)


GAME = Game(
    name="percentile",
    resolver="allocator.games.percentile.procedure:PercentileResolver",
    details=(PercentileDetails,),
    formats={
        "percentile-engagement": "allocator.games.percentile.procedure:PercentileEngagement",
        "percentile-tables": "allocator.games.percentile.procedure:PercentileTables",
    },
    commands=(
        ResolveCommand(
            name="percentile",
            summary="The percentile close-assault procedure, with exact chances of every ending.",
            file="The assault: the assaulting infantry and the defender.",
            example="pillbox",
            prepare=prepare,
            report=report,
            profile=TABLES,
        ),
    ),
)
