"""What every game's resolver shares: the result, the interface, the base of its details, files.

A resolver takes a validated engagement (a pydantic model of its system) and answers with a
:class:`Resolution`: the exact probability of each outcome (a :class:`~fractions.Fraction`), the
readable steps that produced it, the :class:`~allocator.core.violations.Violation` objects of any
broken legality rule, and the system's own typed :class:`Details` (each game defines its own in
its package). ``allocator.games.answer.resolve_answer`` turns it into the ``ResolveAnswer`` that
``cfalloc resolve ... --json`` prints: every exact number written ``"p/q"`` beside its float.

>>> Resolution("x", {"win": Fraction(1, 3)}).distribution["win"]
Fraction(1, 3)

Input probabilities are :data:`Probability` fields, checked within [0, 1] before any arithmetic:

>>> class Weapon(BaseModel):
...     kill: Probability
>>> Weapon(kill="1/4").kill, Weapon(kill=0.5).kill
(Fraction(1, 4), Fraction(1, 2))
>>> from allocator.core.validation import validate
>>> validate(Weapon, {"kill": "5/4"})
Traceback (most recent call last):
...
allocator.core.errors.InputError: kill: a probability must be between 0 and 1, not 5/4 (got '5/4')
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any, Protocol, TypeVar

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, WithJsonSchema

from allocator.core.errors import InputError, InternalError
from allocator.core.exact import Exact
from allocator.core.library import shipped
from allocator.core.reader import excerpt
from allocator.core.validation import load_file
from allocator.core.violations import Violation

EngagementT = TypeVar("EngagementT", bound=BaseModel, contravariant=True)
ModelT = TypeVar("ModelT", bound=BaseModel)
DetailsT = TypeVar("DetailsT", bound="Details")
RowT = TypeVar("RowT")

__all__ = [
    "Details",
    "Probability",
    "Resolution",
    "Resolver",
    "load_profile",
    "row_reached",
]

# --- exact numbers in answers and inputs ------------------------------------------------------

_FRACTION = r"[0-9]{1,6}/[0-9]{1,6}"
_DECIMAL = r"[0-9]{1,6}(?:\.[0-9]{1,6})?|\.[0-9]{1,6}"
_PROBABILITY_TEXT = re.compile(rf"\s*-?(?:{_FRACTION}|{_DECIMAL})\s*")
_PROBABILITY_SCHEMA = {
    "anyOf": [
        {"type": "string", "pattern": rf"^\s*(?:{_FRACTION}|{_DECIMAL})\s*$"},
        {"type": "number", "minimum": 0, "maximum": 1},
    ],
    "description": "A probability between 0 and 1: a fraction p/q or a decimal.",
}


def _probability_text(value: Any) -> Any:
    """Refuse, before any arithmetic, a value that is not a plain fraction or decimal.

    ``Fraction("1e999999999")`` would build a billion-digit number and ``Fraction("1/0")``
    raises ZeroDivisionError, so only ``p/q`` (q > 0) and plain decimals of at most 6 digits a
    part get through (1/6 and 0.25, never 1/999999999999).
    """
    if isinstance(value, bool) or not isinstance(value, str | int | float | Fraction):
        raise ValueError("a probability is a fraction such as 1/4 or a decimal such as 0.25")
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"{value} is not a finite number")
        value = repr(value)
    if isinstance(value, str):
        if not _PROBABILITY_TEXT.fullmatch(value):
            raise ValueError(
                f"{excerpt(value)} is not a fraction such as 1/4 or a decimal such as 0.25 "
                "(at most 6 digits a part)"
            )
        if "/" in value and int(value.split("/")[1]) == 0:
            raise ValueError(f"{excerpt(value)} divides by zero")
    return value


def _within_zero_and_one(value: Fraction) -> Fraction:
    if not 0 <= value <= 1:
        raise ValueError(f"a probability must be between 0 and 1, not {value}")
    return value


Probability = Annotated[
    Exact,
    BeforeValidator(_probability_text),
    AfterValidator(_within_zero_and_one),
    WithJsonSchema(_PROBABILITY_SCHEMA),
]
"""An input probability: an :data:`~allocator.core.exact.Exact` number checked within [0, 1]."""


# --- the answer ---------------------------------------------------------------------------------


class Details(BaseModel):
    """The base of every game's typed details: unknown keys refused, never changed once made.

    Each game's details set ``system`` to a ``Literal`` of their command's name, which tells
    them apart in ``ResolveAnswer.details`` (the union that :mod:`allocator.games.answer`
    builds from the registry).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)


# --- the resolver interface -------------------------------------------------------------------


@dataclass(frozen=True)
class Resolution:
    """What a resolver answers: exact outcome probabilities, the steps, violations, details.

    ``distribution`` maps an outcome's name (``active_wins``) to its exact probability (empty
    for a system that only answers legality questions).
    """

    system: str
    distribution: dict[str, Fraction]
    steps: list[str] = field(default_factory=list)
    violations: list[Violation] = field(default_factory=list)
    details: Details | None = None

    def details_of(self, kind: type[DetailsT]) -> DetailsT:
        """The details, which the caller knows to be of ``kind`` (an InternalError if not).

        >>> Resolution("x", {}).details_of(Details)
        Traceback (most recent call last):
        ...
        allocator.core.errors.InternalError: x answered without its Details
        """
        if not isinstance(self.details, kind):
            raise InternalError(f"{self.system} answered without its {kind.__name__}")
        return self.details


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


def load_profile(model: type[ModelT], name: str, path: Path | None = None) -> ModelT:
    """A ruleset profile: ``path`` if given, else the shipped profile ``name``."""
    return load_file(model, path or shipped("rulesets", name, what="ruleset profile"))


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
