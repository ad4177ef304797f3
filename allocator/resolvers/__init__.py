"""Rule resolvers for the other close-combat systems, behind one interface.

A resolver takes a validated engagement (a pydantic model of its system) and answers with a
:class:`Resolution`: an exact outcome distribution in :class:`fractions.Fraction`, the readable
steps that produced it, and the :class:`~allocator.violations.Violation` objects of any broken
legality rule. :data:`RESOLVERS` lists the systems by name.

>>> resolver = get_resolver("matched-dice")
>>> engagement = resolver.engagement_model(attacker=3, defender=2, ties="defender")
>>> resolver.resolve(engagement).distribution["defender_loses_more"]
Fraction(1445, 3888)
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from allocator.errors import InputError
from allocator.resolvers.common import Resolution, Resolver, models_dir

__all__ = ["RESOLVERS", "Resolution", "Resolver", "get_resolver", "models_dir"]

#: Each system's resolver class; modules are imported on first use, so the CLI starts fast.
SYSTEMS = {
    "infinity": ("allocator.resolvers.infinity", "InfinityResolver"),
    "matched-dice": ("allocator.resolvers.matched_dice", "MatchedDiceResolver"),
    "battlesystem": ("allocator.resolvers.battlesystem", "BattlesystemResolver"),
    "percentile": ("allocator.resolvers.percentile", "PercentileResolver"),
}


def __getattr__(name: str) -> Any:
    if name == "RESOLVERS":
        return {system: get_resolver(system) for system in SYSTEMS}
    raise AttributeError(name)


def get_resolver(name: str) -> Resolver[Any]:
    """The resolver registered under ``name``.

    >>> get_resolver("infinity").name
    'infinity'
    """
    if name not in SYSTEMS:
        known = ", ".join(sorted(SYSTEMS))
        raise InputError(f"no resolver {name!r}; known: {known}")
    module, cls = SYSTEMS[name]
    return getattr(import_module(module), cls)()
