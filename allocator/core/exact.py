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

import re
from fractions import Fraction
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, PlainSerializer, PlainValidator, WithJsonSchema

FRACTION_PATTERN = r"^-?[0-9]+/[0-9]+$"


def fraction_text(value: Fraction | int) -> str:
    """An exact number as ``"p/q"`` (always with its denominator, so ``1`` is ``"1/1"``)."""
    value = Fraction(value)
    return f"{value.numerator}/{value.denominator}"


#: What an exact number may be written as: ``p/q``, an integer or a plain decimal (never an
#: exponent: ``Fraction("1e999999999")`` would build a billion-digit number).
_EXACT_TEXT = re.compile(r"\s*-?(?:[0-9]+/[0-9]+|[0-9]+(?:\.[0-9]+)?|\.[0-9]+)\s*")


#: Most digits in either part of an exact number read (a whole fight's odds run to hundreds).
EXACT_DIGITS = 4000


def parse_fraction(text: Any) -> Fraction:
    """The number a ``"p/q"`` text (or an exact number already) stands for.

    Parameters
    ----------
    text : str, int or Fraction
        ``"p/q"``, or an exact number.

    Returns
    -------
    Fraction
        The number.

    Raises
    ------
    ValueError
        A text that is not ``p/q`` with integers, or a zero denominator.

    Examples
    --------
    >>> parse_fraction("3/6")
    Fraction(1, 2)

    >>> parse_fraction("1/0")
    Traceback (most recent call last):
    ValueError: divides by zero
    """
    if isinstance(text, Fraction) or (isinstance(text, int) and not isinstance(text, bool)):
        return Fraction(text)
    if not isinstance(text, str) or not _EXACT_TEXT.fullmatch(text):
        raise ValueError("not an exact number such as 3/16")
    longest = max(len(part.strip(" +-")) for part in text.split("/"))
    if longest > EXACT_DIGITS:
        raise ValueError(f"a part of {longest} digits, over the {EXACT_DIGITS} an exact number has")
    if "/" in text and int(text.split("/")[1]) == 0:
        raise ValueError("divides by zero")
    return Fraction(text.strip())


def parse_chance(text: str) -> Fraction:
    """A chance written ``0.8``, ``80%`` or ``4/5``, read exactly.

    Raises
    ------
    ValueError
        A text that is not a chance between 0 and 1 in one of these forms.

    Examples
    --------
    >>> parse_chance("80%"), parse_chance("0.8"), parse_chance("4/5")
    (Fraction(4, 5), Fraction(4, 5), Fraction(4, 5))
    """
    text = text.strip()
    try:
        found = parse_fraction(text.removesuffix("%")) / (100 if text.endswith("%") else 1)
    except ValueError:
        found = None
    if found is None or not 0 <= found <= 1:
        raise ValueError(f"{text[:40]!r} is not a chance: write it as 0.8, 80% or 4/5")
    return found


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
