"""The Infinity close-combat calculator's endpoints: its menus, and the roll of two troopers.

The page at ``/infinity`` builds its trooper cards from ``GET /api/infinity/menus`` (both
rulesets' ammunition, traits, immunities and skills with their levels, read from the profiles;
the troopers' fields with their labels and bounds; the shipped examples) and sends an engagement,
as in an engagement file, to ``POST /api/infinity/roll``. The answer is what
``cfalloc resolve infinity FILE --json`` prints for it, beside what the page shows of it (the
report's tables, the chart's bars and the measures saved results are compared by), so that the
page copies no rule and rounds no number. The roll is read and worked out in the pool, within
the server's limits and time limit; bad input is a 4xx naming the place (``active.burst``).

>>> from fastapi.testclient import TestClient
>>> from allocator.web.app import create_app
>>> client = TestClient(create_app(), base_url="http://127.0.0.1")
>>> body = {"active": {"attribute": 12}, "reactive": {"attribute": 12}}
>>> client.post("/api/infinity/roll", json=body).json()["answer"]["outcomes"]["neither"]
{'value': 0.19, 'exact': '19/100'}
"""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any

from fastapi import APIRouter, Body
from pydantic import BaseModel, ConfigDict, Field

from allocator.core.budget import Budget
from allocator.core.validation import validate
from allocator.games.answer import ResolveAnswer, resolve_answer
from allocator.games.infinity.calculator import InfinityMenus, menus
from allocator.games.infinity.rolls import InfinityEngagement, InfinityResolver
from allocator.games.infinity.view import InfinityView, infinity_view
from allocator.web.errors import JSON_REFUSALS, refusals
from allocator.web.work import ApiRoute, Work

__all__ = ["InfinityRollAnswer", "router"]

#: The example of ``/docs``: an N5 Martial Arts L3 swordsman against a Dogged bodyguard.
EXAMPLE_ENGAGEMENT: dict[str, Any] = {
    "rules": "n5",
    "active": {
        "attribute": 21,
        "ps": 8,
        "ammunition": "DA",
        "vita": 2,
        "skills": {"martial_arts": 3},
    },
    "reactive": {
        "attribute": 17,
        "ps": 8,
        "armour": 1,
        "vita": 2,
        "wounds_taken": 1,
        "skills": {"natural_born_warrior": True, "dogged": True},
    },
}

#: An engagement as the body of a request (checked in the pool, where each problem is named by
#: its place in the engagement, as the command line names it in a file).
EngagementBody = Annotated[
    dict[str, Any],
    Body(
        description="An engagement, as in an engagement file (see `cfalloc schema "
        "infinity-engagement`): `rules`, the `active` and `reactive` troopers, optionally a "
        "`melee`.",
        examples=[EXAMPLE_ENGAGEMENT],
    ),
]


class InfinityRollAnswer(BaseModel):
    """The answer of ``POST /api/infinity/roll``."""

    model_config = ConfigDict(extra="forbid")

    answer: ResolveAnswer = Field(
        description="What `cfalloc resolve infinity FILE --json` prints for the engagement."
    )
    view: InfinityView = Field(
        description="What the page shows of it: the report's tables, the chart, the measures."
    )


@cache
def page_menus() -> InfinityMenus:
    """The menus of the shipped rulesets, read once."""
    return menus()


router = APIRouter(prefix="/api/infinity", route_class=ApiRoute, tags=["infinity"])


@router.get("/menus", responses=refusals(400))
def get_menus() -> InfinityMenus:
    """What the calculator offers: for each ruleset its ammunition, traits, immunities, skills
    with their levels, actions and trooper types; the troopers' fields with their labels,
    bounds and defaults; the shipped examples of two troopers."""
    return page_menus()


@router.post("/roll", responses=JSON_REFUSALS)
async def post_roll(engagement: EngagementBody, work: Work) -> InfinityRollAnswer:
    """The exact close combat of two troopers: `cfalloc resolve infinity FILE --json`, and
    what the page shows of it."""
    limits, seconds = work.settings.limits, work.settings.solve_time_limit

    def job() -> InfinityRollAnswer:
        budget = Budget(seconds)
        checked = validate(InfinityEngagement, engagement)
        resolution = InfinityResolver(limits=limits).resolve(checked, budget)
        return InfinityRollAnswer(answer=resolve_answer(resolution), view=infinity_view(resolution))

    return await work.run(job)
