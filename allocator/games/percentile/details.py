"""The typed details of the percentile answer: the tables in use, the reach, the melee."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from allocator.core.exact import ExactValue
from allocator.core.resolution import Details


class PercentileDetails(Details):
    system: Literal["percentile"] = "percentile"
    attacker: str
    defender: str
    example_tables: bool = Field(description="The chances use the shipped EXAMPLE tables.")
    reach_in: float = Field(description="How far the infantry may assault from, in inches.")
    eligible: bool
    melee: ExactValue | None = Field(None, description="The chance that it comes to melee.")
    expected_melee_turns: ExactValue | None = Field(
        None, description="Turns of melee on average, once it comes to melee."
    )
