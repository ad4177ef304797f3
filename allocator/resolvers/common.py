"""What every resolver shares: the result type, the protocol, file and profile loading.

>>> Resolution("x", {"win": Fraction(1, 3)}).to_json()
{'system': 'x', 'win': '1/3', 'violations': [], 'steps': []}
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, Protocol, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from allocator.errors import InputError
from allocator.ruleset import models_dir
from allocator.violations import Violation

EngagementT = TypeVar("EngagementT", bound=BaseModel, contravariant=True)


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
        """A JSON-ready dict: the outcomes at the top, fractions as exact ``"p/q"`` strings.

        >>> Resolution("x", {"win": Fraction(1, 3)}).to_json()["win"]
        '1/3'
        """
        return jsonable(
            {
                "system": self.system,
                **self.distribution,
                **self.details,
                "violations": [violation.model_dump() for violation in self.violations],
                "steps": self.steps,
            }
        )


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
    """``value`` with every Fraction turned into its exact string, recursively.

    >>> jsonable({"p": [Fraction(1, 2), Fraction(3)]})
    {'p': ['1/2', '3']}
    """
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, dict):
        return {str(key): jsonable(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(item) for item in value]
    if isinstance(value, BaseModel):
        return jsonable(value.model_dump())
    return value


def read_document(path: Path) -> Any:
    """Parse a YAML or JSON file (JSON is YAML too), turning every failure into an InputError."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise InputError(f"cannot read the file ({error.strerror})", file=str(path)) from error
    try:
        return json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)
    except (json.JSONDecodeError, yaml.YAMLError) as error:
        raise InputError(f"not valid YAML or JSON: {error}", file=str(path)) from error


ModelT = TypeVar("ModelT", bound=BaseModel)


def validate(model: type[ModelT], data: Any, *, file: str | None = None) -> ModelT:
    """Validate ``data`` against ``model``; the first pydantic error becomes one InputError."""
    try:
        return model.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        place = ".".join(str(part) for part in first["loc"]) or None
        raise InputError(first["msg"], file=file, place=place) from error


def load_engagement(model: type[ModelT], path: Path) -> ModelT:
    """Read and validate an engagement or plan file (YAML or JSON)."""
    return validate(model, read_document(path), file=str(path))


def load_profile(model: type[ModelT], name: str, path: Path | None = None) -> ModelT:
    """A ruleset profile: ``path`` if given, else ``models/rulesets/<name>.yaml``."""
    return load_engagement(model, path or models_dir() / "rulesets" / f"{name}.yaml")


RowT = TypeVar("RowT")


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
