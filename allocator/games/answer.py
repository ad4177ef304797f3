"""The answer every ``cfalloc resolve`` prints with ``--json``: one model for every game.

``ResolveAnswer.details`` is the union of the registered games' details, told apart by their
``system`` (built here from :func:`allocator.games.details_models`, so that adding a game adds
its details without editing this module); ``cfalloc schema resolve-answer`` is its schema.

>>> from fractions import Fraction
>>> from allocator.core.resolution import Resolution
>>> resolve_answer(Resolution("x", {"win": Fraction(1, 3)})).to_json()["outcomes"]
{'win': {'value': 0.3333333333333333, 'exact': '1/3'}}
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Union

from pydantic import BaseModel, ConfigDict, Field

from allocator.core.exact import ExactValue
from allocator.core.resolution import Details, Resolution
from allocator.core.violations import Violation
from allocator.games import details_models

if TYPE_CHECKING:  # statically, the details are known only as some game's details
    GameDetails = Details
else:
    GameDetails = Annotated[Union[details_models()], Field(discriminator="system")]  # noqa: UP007


class ResolveAnswer(BaseModel):
    """What ``cfalloc resolve SYSTEM ... --json`` prints."""

    model_config = ConfigDict(extra="forbid")

    system: str
    outcomes: dict[str, ExactValue] = Field(
        description="Each outcome's exact probability (empty for legality-only systems)."
    )
    details: GameDetails | None = Field(description="The system's own results.")
    violations: list[Violation]
    steps: list[str] = Field(description="How the answer was worked out, in words.")

    def to_json(self) -> dict[str, Any]:
        """The answer as JSON-ready data."""
        data: dict[str, Any] = self.model_dump(mode="json")
        return data


def resolve_answer(resolution: Resolution) -> ResolveAnswer:
    """The typed answer of a resolution: every exact number ``"p/q"`` beside its float."""
    return ResolveAnswer(
        system=resolution.system,
        outcomes={name: ExactValue.of(p) for name, p in resolution.distribution.items()},
        details=resolution.details,
        violations=resolution.violations,
        steps=resolution.steps,
    )
