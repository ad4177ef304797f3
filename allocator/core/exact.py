"""Exact numbers in JSON: one encoding, ``"p/q"``, for every fraction of every game.

>>> fraction_text(Fraction(13, 16)), fraction_text(Fraction(1)), fraction_text(Fraction(-3, 2))
('13/16', '1/1', '-3/2')
>>> parse_fraction("13/16")
Fraction(13, 16)
>>> from pydantic import BaseModel
>>> class Odds(BaseModel):
...     p: Exact
>>> Odds(p=Fraction(1, 3)).model_dump(mode="json")
{'p': '1/3'}
"""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, PlainSerializer, PlainValidator, WithJsonSchema

FRACTION_PATTERN = r"^-?[0-9]+/[0-9]+$"


def fraction_text(value: Fraction | int) -> str:
    """An exact number as ``"p/q"`` (always with its denominator, so ``1`` is ``"1/1"``)."""
    value = Fraction(value)
    return f"{value.numerator}/{value.denominator}"


def parse_fraction(text: Any) -> Fraction:
    """The number a ``"p/q"`` text (or an exact number already) stands for."""
    if isinstance(text, Fraction | int):
        return Fraction(text)
    return Fraction(str(text))


Exact = Annotated[
    Fraction,
    PlainValidator(parse_fraction),
    PlainSerializer(fraction_text, return_type=str, when_used="json"),
    WithJsonSchema(
        {"type": "string", "pattern": FRACTION_PATTERN, "description": "An exact number, p/q."}
    ),
]
"""A pydantic field type: a :class:`~fractions.Fraction`, written ``"p/q"`` in JSON."""


class ExactValue(BaseModel):
    """An exact number (a probability, an expectation) as ``"p/q"`` and as a float."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    value: float
    exact: Exact

    @classmethod
    def of(cls, number: Fraction) -> ExactValue:
        return cls(value=float(number), exact=number)
