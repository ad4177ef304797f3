"""The body most endpoints take: a scenario, as in a scenario file (defined once, with its example).

Its data is read by the shared reader within the limits (:class:`~allocator.web.work.ApiRoute`)
and checked as a scenario in the pool, where ``battle_from_data`` names the place of any problem
as the command line does: so it is declared a JSON object here, documented by its example.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Body

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
