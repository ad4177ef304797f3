"""The games cfalloc knows, each a package behind the same resolver interface.

* :mod:`~allocator.games.crossfire`: Crossfire close combat in a building (the checker, the
  exact odds, the game search and the whole fight);
* :mod:`~allocator.games.infinity`: Infinity close combat (Face to Face rolls, saves, melee);
* :mod:`~allocator.games.matched_dice`: a matched-dice close assault;
* :mod:`~allocator.games.battlesystem`: Battlesystem command in buildings;
* :mod:`~allocator.games.percentile`: a percentile-dice close assault.

:data:`SYSTEMS` registers every resolver by name (imported on first use, so the command line
starts fast); :data:`FORMATS` every file format and answer with a committed JSON Schema.

>>> resolver = get_resolver("matched-dice")
>>> engagement = resolver.engagement_model(attacker=3, defender=2, ties="defender")
>>> resolver.resolve(engagement).distribution["defender_loses_more"]
Fraction(1445, 3888)
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from allocator.core.errors import InputError
from allocator.core.reader import excerpt

if TYPE_CHECKING:  # the registry loads nothing until a resolver or a format is asked for
    from pydantic import BaseModel

    from allocator.core.resolution import Resolver

__all__ = ["FORMATS", "SYSTEMS", "format_model", "get_resolver"]

#: Each system's resolver class, as "module:Class".
SYSTEMS: dict[str, str] = {
    "crossfire": "allocator.games.crossfire.resolver:CrossfireResolver",
    "infinity": "allocator.games.infinity.rolls:InfinityResolver",
    "matched-dice": "allocator.games.matched_dice.assault:MatchedDiceResolver",
    "battlesystem": "allocator.games.battlesystem.plan:BattlesystemResolver",
    "percentile": "allocator.games.percentile.procedure:PercentileResolver",
}

#: Every file format and JSON answer, as "module:Class"; its schema is committed in
#: ``models/schema/<name>.schema.json``.
FORMATS: dict[str, str] = {
    "scenario": "allocator.games.crossfire.schema:Scenario",
    "organisation": "allocator.games.crossfire.schema:Organisation",
    "crossfire-profile": "allocator.games.crossfire.profile:Ruleset",
    "check-answer": "allocator.games.crossfire.answers:CheckAnswer",
    "solve-answer": "allocator.games.crossfire.answers:SolveAnswer",
    "explain-answer": "allocator.games.crossfire.answers:ExplainAnswer",
    "simulate-answer": "allocator.games.crossfire.answers:SimulateAnswer",
    "trials-answer": "allocator.games.crossfire.answers:TrialsAnswer",
    "infinity-engagement": "allocator.games.infinity.rolls:InfinityEngagement",
    "infinity-allocation": "allocator.games.infinity.allocate:AllocationProblem",
    "infinity-profile": "allocator.games.infinity.profile:InfinityProfile",
    "infinity-menus": "allocator.games.infinity.calculator:InfinityMenus",
    "matched-dice-engagement": "allocator.games.matched_dice.assault:MatchedDiceEngagement",
    "matched-dice-profile": "allocator.games.matched_dice.assault:MatchedDiceProfile",
    "battlesystem-plan": "allocator.games.battlesystem.plan:BattlesystemPlan",
    "battlesystem-profile": "allocator.games.battlesystem.plan:BattlesystemProfile",
    "percentile-engagement": "allocator.games.percentile.procedure:PercentileEngagement",
    "percentile-tables": "allocator.games.percentile.procedure:PercentileTables",
    "resolve-answer": "allocator.core.resolution:ResolveAnswer",
}


def _load(reference: str) -> Any:
    module, name = reference.split(":")
    return getattr(import_module(module), name)


def get_resolver(name: str) -> Resolver[Any]:
    """The resolver registered under ``name``.

    >>> get_resolver("infinity").name
    'infinity'
    """
    if name not in SYSTEMS:
        raise InputError(f"no resolver {excerpt(name)}; known: {', '.join(sorted(SYSTEMS))}")
    resolver: Resolver[Any] = _load(SYSTEMS[name])()
    return resolver


def format_model(name: str) -> type[BaseModel]:
    """The pydantic class of one file format or answer."""
    if name not in FORMATS:
        raise InputError(f"no file format {excerpt(name)} (known: {', '.join(sorted(FORMATS))})")
    model: type[BaseModel] = _load(FORMATS[name])
    return model


def json_schema(name: str) -> dict[str, Any]:
    """The JSON Schema of one file format or answer, as committed in models/schema/.

    Its ``$comment`` names the pydantic version that wrote it (others write the same rules a
    little differently, so the committed files are compared byte for byte only under that one).

    >>> json_schema("scenario")["$comment"].startswith("written by `cfalloc schema scenario`")
    True
    """
    from pydantic import VERSION

    schema = format_model(name).model_json_schema(
        mode="serialization" if name.endswith("-answer") else "validation"
    )
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = f"https://cfalloc.invalid/schema/{name}.schema.json"
    schema["$comment"] = f"written by `cfalloc schema {name}` with pydantic {VERSION}"
    return schema
