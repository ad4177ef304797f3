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

from typing import Any

from allocator.errors import InputError
from allocator.resolvers.battlesystem import BattlesystemResolver
from allocator.resolvers.common import Resolution, Resolver, models_dir
from allocator.resolvers.infinity import InfinityResolver
from allocator.resolvers.matched_dice import MatchedDiceResolver
from allocator.resolvers.percentile import PercentileResolver

__all__ = ["RESOLVERS", "Resolution", "Resolver", "get_resolver", "models_dir"]

RESOLVERS: dict[str, Resolver[Any]] = {
    resolver.name: resolver
    for resolver in (
        InfinityResolver(),
        MatchedDiceResolver(),
        BattlesystemResolver(),
        PercentileResolver(),
    )
}


def get_resolver(name: str) -> Resolver[Any]:
    """The resolver registered under ``name``.

    >>> get_resolver("infinity").name
    'infinity'
    """
    try:
        return RESOLVERS[name]
    except KeyError:
        known = ", ".join(sorted(RESOLVERS))
        raise InputError(f"no resolver {name!r}; known: {known}") from None
