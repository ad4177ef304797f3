"""What every game's resolver shares: the result, the typed JSON answer, the interface, the files.

A resolver takes a validated engagement (a pydantic model of its system) and answers with a
:class:`Resolution`: the exact probability of each outcome (a :class:`~fractions.Fraction`), the
readable steps that produced it, the :class:`~allocator.core.violations.Violation` objects of any
broken legality rule, and the system's own typed details. :meth:`Resolution.answer` turns it
into the :class:`ResolveAnswer` that ``cfalloc resolve ... --json`` prints: every exact number
written ``"p/q"`` beside its float.

>>> Resolution("x", {"win": Fraction(1, 3)}).answer().to_json()["outcomes"]
{'win': {'value': 0.3333333333333333, 'exact': '1/3'}}

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
from typing import Annotated, Any, Literal, Protocol, TypeVar

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, WithJsonSchema

from allocator.core.errors import InputError
from allocator.core.exact import Exact, ExactValue
from allocator.core.library import shipped
from allocator.core.reader import excerpt
from allocator.core.validation import load_file
from allocator.core.violations import Violation
from allocator.games.infinity.details import AllocationDetails, InfinityDetails

EngagementT = TypeVar("EngagementT", bound=BaseModel, contravariant=True)
ModelT = TypeVar("ModelT", bound=BaseModel)
RowT = TypeVar("RowT")

__all__ = [
    "AllocationDetails",
    "ExactValue",
    "InfinityDetails",
    "Probability",
    "Resolution",
    "ResolveAnswer",
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


# --- the details of each system ---------------------------------------------------------------

Ties = Literal["cancel", "defender"]
AssaultEnd = Literal[
    "attacker_wiped_out",
    "defender_wiped_out",
    "attacker_broke",
    "defender_broke",
    "both_broke",
    "undecided",
]
Predicate = Literal[
    "in_command", "charisma_bonus", "squeezing_in", "front_attack", "formation", "indoor_spacing"
]


class _Details(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class RoundCasualties(_Details):
    attacker_losses: int
    defender_losses: int
    chance: ExactValue


class ChainEnd(_Details):
    end: AssaultEnd
    attacker_sps: int
    defender_sps: int
    chance: ExactValue


class MatchedDiceDetails(_Details):
    system: Literal["matched-dice"] = "matched-dice"
    ties: Ties
    attacker_sps: int
    defender_sps: int
    attacker_dice: int
    defender_dice: int
    casualties: list[RoundCasualties] = Field(description="Casualties of the first roll.")
    rounds: int | None = Field(description="Rounds chained; none: one roll.")
    ends: list[ChainEnd] = Field(description="How the chain of rounds ends (empty: one roll).")


class PredicateAnswer(_Details):
    """One yes-or-no question about a stand, an attack or a unit, and why."""

    predicate: Predicate
    subject: str
    holds: bool
    reason: str


class BattlesystemDetails(_Details):
    system: Literal["battlesystem"] = "battlesystem"
    answers: list[PredicateAnswer]
    profile_unverified: bool = Field(
        description="The profile's command numbers are not checked against the rulebook."
    )


class PercentileDetails(_Details):
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


AnyDetails = (
    InfinityDetails
    | AllocationDetails
    | MatchedDiceDetails
    | BattlesystemDetails
    | PercentileDetails
)
ResolveDetails = Annotated[AnyDetails, Field(discriminator="system")]


class ResolveAnswer(BaseModel):
    """What ``cfalloc resolve SYSTEM ... --json`` prints."""

    model_config = ConfigDict(extra="forbid")

    system: str
    outcomes: dict[str, ExactValue] = Field(
        description="Each outcome's exact probability (empty for legality-only systems)."
    )
    details: ResolveDetails | None = Field(description="The system's own results.")
    violations: list[Violation]
    steps: list[str] = Field(description="How the answer was worked out, in words.")

    def to_json(self) -> dict[str, Any]:
        """The answer as JSON-ready data."""
        data: dict[str, Any] = self.model_dump(mode="json")
        return data


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
    details: AnyDetails | None = None

    def answer(self) -> ResolveAnswer:
        return ResolveAnswer(
            system=self.system,
            outcomes={name: ExactValue.of(p) for name, p in self.distribution.items()},
            details=self.details,
            violations=self.violations,
            steps=self.steps,
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
