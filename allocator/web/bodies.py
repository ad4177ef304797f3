"""The bodies the endpoints take: a scenario, as in a scenario file (defined once, with its
example), and the base of every request model.

A scenario's data is read by the shared reader within the limits
(:class:`~allocator.web.work.ApiRoute`) and checked as a scenario in the pool, where
``battle_from_data`` names the place of any problem as the command line does: so it is declared
a JSON object here, documented by its example. A request's own fields are strict: a number is a
JSON number, never ``true`` or ``"5"``.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Body
from pydantic import BaseModel, ConfigDict

#: The example of ``/docs``: the smallest legal fight, one rifle squad a side in a barn.
EXAMPLE_SCENARIO: dict[str, Any] = {
    "building": {"name": "Barn", "capacity": 2},
    "defender": {
        "units": [{"id": "p", "kind": "platoon"}],
        "stands": [{"id": "d1", "type": "rifle", "unit": "p"}],
    },
    "attacker": {
        "units": [{"id": "q", "kind": "platoon"}],
        "stands": [{"id": "a1", "type": "rifle", "unit": "q"}],
    },
    "allocation": {"combats": {"A": ["d1"]}, "attack": {"A": ["a1"]}, "reallocate": {}},
}

#: A scenario as the body of a request.
ScenarioBody = Annotated[
    dict[str, Any],
    Body(
        description="A scenario, as in a scenario file (see `cfalloc schema scenario`).",
        examples=[EXAMPLE_SCENARIO],
    ),
]


class RequestBody(BaseModel):
    """A request's fields as written: no unknown field, and each value of its own JSON type (no
    true/false or text for a number, no number for a text)."""

    model_config = ConfigDict(extra="forbid", strict=True)
