"""What every game's resolver shares: the result type, the resolver interface, file loading.

A resolver takes a validated engagement (a pydantic model of its system) and answers with a
:class:`Resolution`: an exact outcome distribution in :class:`fractions.Fraction`, the readable
steps that produced it, and the :class:`~allocator.core.violations.Violation` objects of any
broken legality rule.

>>> Resolution("x", {"win": Fraction(1, 3)}).to_json()
{'system': 'x', 'win': '1/3', 'violations': [], 'steps': []}
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, Protocol, TypeVar

from pydantic import BaseModel

from allocator.core.errors import InputError
from allocator.core.exact import fraction_text
from allocator.core.library import folder, shipped
from allocator.core.reader import read_file
from allocator.core.validation import validate
from allocator.core.violations import Violation

EngagementT = TypeVar("EngagementT", bound=BaseModel, contravariant=True)
ModelT = TypeVar("ModelT", bound=BaseModel)
RowT = TypeVar("RowT")

__all__ = [
    "Resolution",
    "Resolver",
    "folder",
    "jsonable",
    "load_engagement",
    "load_profile",
    "row_reached",
    "validate",
]


@dataclass(frozen=True)
class Resolution:
    """What a resolver answers: exact outcome probabilities, the steps, violations, extras.

    ``distribution`` maps a readable outcome name to its exact probability (empty for a system
    that only answers legality questions); ``details`` holds system-specific results.
    """

    system: str
    distribution: dict[str, Fraction]
    steps: list[str] = field(default_factory=list)
    violations: list[Violation] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict: the outcomes at the top, fractions as exact ``"p/q"`` strings."""
        data: dict[str, Any] = jsonable(
            {
                "system": self.system,
                **self.distribution,
                **self.details,
                "violations": [violation.model_dump() for violation in self.violations],
                "steps": self.steps,
            }
        )
        return data


class Resolver(Protocol[EngagementT]):
    """One rule system: its engagement model, its odds and its legality checks."""

    name: str
    engagement_model: type[BaseModel]

    def resolve(self, engagement: EngagementT) -> Resolution:
        """The exact outcome distribution of ``engagement``, with its steps and violations."""
        ...

    def check(self, engagement: EngagementT) -> list[Violation]:
        """The legality rules of the system that ``engagement`` breaks."""
        ...


def jsonable(value: Any) -> Any:
    """``value`` with every Fraction turned into its exact ``"p/q"`` text, recursively.

    >>> jsonable({"p": [Fraction(1, 2), Fraction(3)]})
    {'p': ['1/2', '3/1']}
    """
    if isinstance(value, Fraction):
        return fraction_text(value)
    if isinstance(value, dict):
        return {str(key): jsonable(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(item) for item in value]
    if isinstance(value, BaseModel):
        return jsonable(value.model_dump())
    return value


def load_engagement(model: type[ModelT], path: Path) -> ModelT:
    """Read and validate an engagement or plan file (YAML or JSON)."""
    return validate(model, read_file(path), file=str(path))


def load_profile(model: type[ModelT], name: str, path: Path | None = None) -> ModelT:
    """A ruleset profile: ``path`` if given, else the shipped profile ``name``."""
    return load_engagement(model, path or shipped("rulesets", name, what="ruleset profile"))


def row_reached(
    rows: list[RowT], threshold: Callable[[RowT], int], value: int, missing: str
) -> RowT:
    """The profile row with the largest threshold that ``value`` reaches.

    >>> row_reached([1, 5, 10], lambda t: t, 7, "none")
    5
    """
    reached = [row for row in rows if value >= threshold(row)]
    if not reached:
        raise InputError(missing)
    return max(reached, key=threshold)
