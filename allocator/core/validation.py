"""Validation errors of pydantic models, turned into one :class:`InputError` with one place format.

A place is written as in the file: mapping keys joined by dots, list positions in brackets,
e.g. ``defender.stands[2].unit``.

>>> from pydantic import BaseModel
>>> class Point(BaseModel):
...     x: int
>>> validate(Point, {"x": "five"}, file="p.yaml")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
allocator.core.errors.InputError: p.yaml: x: Input should be a valid integer, ... (got 'five')
>>> format_place(("defender", "stands", 2, "unit"))
'defender.stands[2].unit'
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from allocator.core.errors import InputError
from allocator.core.reader import excerpt, read_file

ModelT = TypeVar("ModelT", bound=BaseModel)

#: Error types whose ``input`` is worth quoting (a wrong value, not a missing or unknown field).
_QUIET = {"missing", "extra_forbidden"}


def format_place(loc: Sequence[int | str], prefix: str | None = None) -> str:
    """A pydantic location as a place in the file: ``a.b[0].c``."""
    place = prefix or ""
    for part in loc:
        if isinstance(part, int):
            place += f"[{part}]"
        else:
            place += f".{part}" if place else str(part)
    return place


def describe(error: ErrorDetails) -> str:
    """One pydantic error in words, quoting a short excerpt of the wrong value."""
    if error["type"] == "extra_forbidden":
        return "unknown field; check its spelling against `cfalloc schema`"
    problem = error["msg"].removeprefix("Value error, ")
    if error["type"] not in _QUIET and "input" in error:
        problem += f" (got {excerpt(error['input'])})"
    return problem


def input_error(
    exc: ValidationError, *, file: str | None = None, prefix: str | None = None
) -> InputError:
    """The first problem of ``exc`` (and how many more there are) as one InputError."""
    errors = exc.errors()
    return errors_to_input_error(errors, file=file, prefix=prefix)


def errors_to_input_error(
    errors: Sequence[ErrorDetails] | Sequence[dict[str, Any]],
    *,
    file: str | None = None,
    prefix: str | None = None,
) -> InputError:
    first: Any = errors[0]
    problem = describe(first)
    if len(errors) > 1:
        more = len(errors) - 1
        problem += f" (and {more} more problem{'s' if more > 1 else ''})"
    return InputError(problem, file=file, place=format_place(first["loc"], prefix) or None)


def validate(
    model: type[ModelT], data: Any, *, file: str | None = None, prefix: str | None = None
) -> ModelT:
    """``data`` as a ``model``, or one InputError naming the file, the place and the problem."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise input_error(exc, file=file, prefix=prefix) from None


def load_file(model: type[ModelT], path: Path) -> ModelT:
    """Read and validate a YAML or JSON file of ``model`` (an engagement, a plan, a profile)."""
    return validate(model, read_file(path), file=str(path))
