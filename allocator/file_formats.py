"""Every file format cfalloc reads, and its JSON Schema generated from the pydantic class.

The schemas are committed in ``models/schema/<name>.schema.json`` (a test fails while one is
stale); ``cfalloc schema NAME`` prints one.

>>> json_schema("scenario")["title"]
'Scenario'
>>> sorted(FORMATS)[:3]
['battlesystem-plan', 'battlesystem-profile', 'crossfire-profile']
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from allocator.errors import InputError

#: name -> (module, class); modules are imported on use, so that the CLI starts fast.
FORMATS: dict[str, tuple[str, str]] = {
    "scenario": ("allocator.schema", "Scenario"),
    "organisation": ("allocator.schema", "Organisation"),
    "crossfire-profile": ("allocator.ruleset", "Ruleset"),
    "infinity-engagement": ("allocator.resolvers.infinity", "InfinityEngagement"),
    "infinity-allocation": ("allocator.resolvers.infinity_allocate", "AllocationProblem"),
    "infinity-profile": ("allocator.resolvers.infinity", "InfinityProfile"),
    "matched-dice-engagement": ("allocator.resolvers.matched_dice", "MatchedDiceEngagement"),
    "matched-dice-profile": ("allocator.resolvers.matched_dice", "MatchedDiceProfile"),
    "battlesystem-plan": ("allocator.resolvers.battlesystem", "BattlesystemPlan"),
    "battlesystem-profile": ("allocator.resolvers.battlesystem", "BattlesystemProfile"),
    "percentile-engagement": ("allocator.resolvers.percentile", "PercentileEngagement"),
    "percentile-tables": ("allocator.resolvers.percentile", "PercentileTables"),
}


def json_schema(name: str) -> dict[str, Any]:
    """The JSON Schema of one file format."""
    if name not in FORMATS:
        raise InputError(f"no file format '{name}' (known: {', '.join(sorted(FORMATS))})")
    module, cls = FORMATS[name]
    schema = getattr(import_module(module), cls).model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = f"https://cfalloc.invalid/schema/{name}.schema.json"
    return schema
