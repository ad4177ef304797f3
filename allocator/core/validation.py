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

import re
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


#: Parts of a pydantic location that name a branch of a union or a check, not a place in the
#: file: ``constrained-str``, ``function-after[...]``, ``int``, ``[key]``, a model's name.
_SCHEMA_TAG = re.compile(r"[a-z]+(?:-[a-z]+)+(?:\[.*\])?|str|int|float|bool|dict|list|none|\[key\]")


def _is_tag(part: int | str) -> bool:
    return isinstance(part, str) and (
        _SCHEMA_TAG.fullmatch(part) is not None or part in _model_names()
    )


def _model_names() -> set[str]:
    names, todo = set(), list(BaseModel.__subclasses__())
    while todo:
        model = todo.pop()
        names.add(model.__name__)
        todo += model.__subclasses__()
    return names


def _place_parts(loc: Sequence[int | str]) -> tuple[int | str, ...]:
    return tuple(part for part in loc if not _is_tag(part))


def format_place(loc: Sequence[int | str], prefix: str | None = None) -> str:
    """A pydantic location as a place in the file: ``a.b[0].c`` (union branches left out).

    >>> format_place(("ruleset", "RulesetOverride", "overrides", "squad", "int"))
    'ruleset.overrides.squad'
    """
    place = prefix or ""
    for part in _place_parts(loc):
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
    first, branches = _most_telling(errors)
    places = {_place_parts(e["loc"]) for e in errors if not any(e is b for b in branches)}
    problem = describe(first)
    if places:
        more = len(places)
        problem += f" (and {more} more problem{'s' if more > 1 else ''})"
    return InputError(problem, file=file, place=format_place(first["loc"], prefix) or None)


def _most_telling(errors: Sequence[Any]) -> tuple[Any, list[Any]]:
    """The first error and the errors it stands for: where it comes from a union, the branch
    that got furthest into the value (a mapping's errors, not "should be a valid string")."""
    first = errors[0]
    loc = tuple(first["loc"])
    branch = next((i for i, part in enumerate(loc) if _is_tag(part)), None)
    if branch is None:
        return first, [first]
    rivals = [e for e in errors if tuple(e["loc"])[: branch + 1][:-1] == loc[:branch]]
    return max(rivals, key=lambda e: len(_place_parts(e["loc"]))), rivals


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
