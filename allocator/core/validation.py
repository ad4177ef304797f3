"""Validation errors of pydantic models, turned into one :class:`InputError` listing every problem.

A place is written as in the file, with the file's own keys: mapping keys joined by dots, list
positions in brackets, e.g. ``defender.stands[2].unit`` or ``allocation.combats.first-combat[0]``.
Pydantic's location of an error also names the branches of a union it tried (``int``,
``constrained-str``, a model's name): which parts are such tags is read from the model's own
schema, walked along the location, never guessed from the names, so that a user's key that
looks like one (``first-combat``) stays in the place.

Of a union's branches only the one that got furthest into the value is reported (a mapping's
own problems, not "should be a valid string"); when none got anywhere, one problem says what the
place takes. An unknown key is named with the nearest key the place takes.

>>> from pydantic import BaseModel
>>> class Point(BaseModel, extra="forbid"):
...     x: int
...     y: int | str = 0
>>> validate(Point, {"x": "five"}, file="p.yaml")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
allocator.core.errors.InputError: p.yaml: x: Input should be a valid integer, ... (got 'five')
>>> try:
...     validate(Point, {"xx": 1, "y": [0]})
... except InputError as error:
...     [problem.line() for problem in error.problems()]  # doctest: +NORMALIZE_WHITESPACE
["xx: unknown key 'xx' (did you mean 'x'?)", 'x: Field required',
 'y: Input should be a valid integer or a valid string (got [0])']
>>> format_place(("defender", "stands", 2, "unit"))
'defender.stands[2].unit'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from difflib import get_close_matches
from pathlib import Path
from typing import Any, TypeVar, cast

from pydantic import BaseModel, ValidationError
from pydantic_core import CoreSchema, ErrorDetails

from allocator.core.errors import InputError
from allocator.core.reader import excerpt, read_file

ModelT = TypeVar("ModelT", bound=BaseModel)
Loc = tuple[int | str, ...]

#: Error types whose ``input`` is worth quoting (a wrong value, not a missing or unknown key).
_QUIET = {"missing", "extra_forbidden"}
#: The kind of one problem standing for every branch of a union that did not fit the value.
WRONG_TYPE = "wrong_type"
#: The most keys an unknown key's message lists when none is near it.
_KEYS_LISTED = 16
#: Schema nodes that validate their inner ``schema`` without a part of the location of their own.
_WRAPPERS = {
    "default",
    "nullable",
    "model",
    "model-field",
    "dataclass",
    "dataclass-field",
    "typed-dict-field",
    "function-after",
    "function-before",
    "function-wrap",
    "definitions",
}
#: Schema nodes with two ways of validating the same part: the one walked.
_EITHER = {"json-or-python": "python_schema", "lax-or-strict": "strict_schema"}


def format_place(loc: Sequence[int | str]) -> str:
    """A location of parts of the file (keys and positions) as a place: ``a.b[0].c``.

    >>> format_place(("ruleset", "overrides", "squad"))
    'ruleset.overrides.squad'
    """
    place = ""
    for part in loc:
        if isinstance(part, int):
            place += f"[{part}]"
        else:
            place += f".{part}" if place else str(part)
    return place


@dataclass(frozen=True)
class _Found:
    """Where a pydantic error is: the file's parts of its location, and what the schema knows."""

    error: ErrorDetails
    parts: Loc
    #: The positions in the location that name a union's branch, not a part of the file.
    tags: tuple[int, ...] = ()
    #: For an unknown key: the keys its mapping takes.
    keys: tuple[str, ...] = ()

    @property
    def loc(self) -> Loc:
        return tuple(self.error["loc"])


class _Walk:
    """Walks a model's core schema along an error's location: each part is a key or a position
    of the file, a union's tag, or an unknown key (with the keys that its place takes)."""

    def __init__(self, schema: CoreSchema | None, under: Loc = ()) -> None:
        self.schema = schema
        self.under = under
        self.definitions: dict[str, Any] = {}

    def locate(self, error: ErrorDetails) -> _Found:
        loc = tuple(error["loc"])
        at = len(self.under)
        found = None
        if self.schema is not None and loc[:at] == self.under:
            found = self._walk(self.schema, loc, at)
        if found is None:  # no schema, or a location it does not explain: every part is a place
            return _Found(error, loc)
        tags, keys = found
        parts = tuple(part for i, part in enumerate(loc) if i not in tags)
        return _Found(error, parts, tuple(sorted(tags)), keys)

    def _walk(self, node: Any, loc: Loc, at: int) -> tuple[set[int], tuple[str, ...]] | None:
        """The tags' positions from ``loc[at:]`` on and an unknown key's neighbours, or None
        when ``node`` cannot hold that location."""
        kind = node.get("type")
        if kind == "definitions":
            for definition in node["definitions"]:
                self.definitions[definition["ref"]] = definition
        if kind == "definition-ref":
            definition = self.definitions.get(node["schema_ref"])
            return None if definition is None else self._walk(definition, loc, at)
        if kind in _WRAPPERS:
            return self._walk(node["schema"], loc, at)
        if kind in _EITHER:
            return self._walk(node[_EITHER[kind]], loc, at)
        if at == len(loc):
            return set(), ()
        part = loc[at]
        if kind == "model-fields":
            return self._field(node, loc, at)
        if kind == "dict":
            if at + 1 < len(loc) and loc[at + 1] == "[key]":
                found = self._walk(node.get("keys_schema", {}), loc, at + 2)
                return None if found is None else ({at + 1, *found[0]}, found[1])
            return self._walk(node.get("values_schema", {}), loc, at + 1)
        if kind in ("list", "set", "frozenset") and isinstance(part, int):
            return self._walk(node.get("items_schema", {}), loc, at + 1)
        if kind == "tuple" and isinstance(part, int):
            items = node["items_schema"]
            variadic = node.get("variadic_item_index")
            if part >= len(items) and variadic is None:
                return None
            item = items[min(part, len(items) - 1) if variadic is None else min(part, variadic)]
            return self._walk(item, loc, at + 1)
        if kind == "union":
            for choice in node["choices"]:
                found = self._walk(choice[0] if isinstance(choice, tuple) else choice, loc, at + 1)
                if found is not None:
                    return {at, *found[0]}, found[1]
            return None
        if kind == "tagged-union" and part in node["choices"]:
            found = self._walk(node["choices"][part], loc, at + 1)
            return None if found is None else ({at, *found[0]}, found[1])
        return None

    def _field(self, node: Any, loc: Loc, at: int) -> tuple[set[int], tuple[str, ...]] | None:
        fields: dict[str, Any] = node["fields"]
        by_key = {
            key: field
            for name, field in fields.items()
            for key in (name, field.get("validation_alias"))
            if isinstance(key, str)
        }
        field = by_key.get(str(loc[at]))
        if field is not None:
            return self._walk(field, loc, at + 1)
        if "extras_schema" in node:
            return self._walk(node["extras_schema"], loc, at + 1)
        return (set(), tuple(by_key)) if at + 1 == len(loc) else None


def _schema(model: type[BaseModel] | None) -> CoreSchema | None:
    return None if model is None else model.__pydantic_core_schema__


def describe(found: _Found) -> str:
    """One pydantic error in words, quoting a short excerpt of the wrong value."""
    error = found.error
    if error["type"] == "extra_forbidden":
        key = found.parts[-1] if found.parts else ""
        near = nearest(str(key), found.keys)
        if near is not None:
            return f"unknown key {excerpt(key)} (did you mean '{near}'?)"
        listed = sorted(found.keys)
        keys = ", ".join(listed[:_KEYS_LISTED]) + (", ..." if len(listed) > _KEYS_LISTED else "")
        return f"unknown key {excerpt(key)}" + (f" (the keys here: {keys})" if keys else "")
    problem = _message(error)
    if found.loc and found.loc[-1] == "[key]" and len(found.loc) - 1 in found.tags:
        problem = f"the key itself: {problem}"
    if error["type"] not in _QUIET and "input" in error:
        problem += f" (got {excerpt(error['input'])})"
    return problem


def _message(error: ErrorDetails) -> str:
    message = error["msg"].removeprefix("Value error, ")
    if error["type"] == "model_type":  # a model's class name means nothing in a file
        message = message.split(" or instance of ")[0]
    return message


def nearest(key: str, keys: Sequence[str]) -> str | None:
    """The key of ``keys`` nearest to ``key`` (a misspelling of it), if one is near enough.

    >>> nearest("defnder", ["defender", "attacker"]), nearest("x-foo", ["title"])
    ('defender', None)
    """
    found = get_close_matches(key, keys, n=1)
    return found[0] if found else None


def _suggestion(found: _Found) -> str | None:
    if found.error["type"] != "extra_forbidden" or not found.parts:
        return None
    return nearest(str(found.parts[-1]), found.keys)


def _unions(found: Sequence[_Found]) -> list[Loc]:
    """Every union the errors went through (the location before its tag), outermost first."""
    unions = {f.loc[:tag] for f in found for tag in f.tags if f.loc[tag] != "[key]"}
    return sorted(unions, key=len)


def _either(kinds: Sequence[str]) -> str:
    return kinds[0] if len(kinds) == 1 else ", ".join(kinds[:-1]) + " or " + kinds[-1]


def _reach(errors: list[_Found], at: int) -> tuple[int, bool]:
    """How far a union's branch (its tag at ``at``) got into the value: the depth of its errors
    past the tag, and whether it got past the value's type."""
    depth = max(len(f.loc) - at - 1 for f in errors)
    return depth, not all(str(f.error["type"]).endswith("_type") for f in errors)


def _one_branch(found: list[_Found]) -> list[_Found]:
    """Of each union, only the errors of the branch that got furthest into the value; where no
    branch got past the value's type, one error saying every kind of value the place takes."""
    for union in _unions(found):
        at = len(union)
        inside = [f for f in found if f.loc[:at] == union and at in f.tags]
        branches: dict[int | str, list[_Found]] = {}
        for f in inside:
            branches.setdefault(f.loc[at], []).append(f)
        best = max(_reach(errors, at) for errors in branches.values())
        if best == (0, False):  # the value is none of the kinds this place takes
            kinds = [_message(f.error).removeprefix("Input should be ") for f in inside]
            merged = {
                "type": WRONG_TYPE,
                "loc": union,
                "msg": "Input should be " + _either(list(dict.fromkeys(kinds))),
                "input": inside[0].error.get("input"),
            }
            tags = tuple(t for t in inside[0].tags if t < at)
            keep = [_Found(cast(ErrorDetails, merged), inside[0].parts, tags)]
        else:
            keep = next(errors for errors in branches.values() if _reach(errors, at) == best)
        replaced = {id(f) for f in inside}
        first = next(i for i, f in enumerate(found) if id(f) in replaced)
        found = (
            [f for f in found[:first] if id(f) not in replaced]
            + keep
            + [f for f in found[first:] if id(f) not in replaced]
        )
    return found


def _typos_first(found: list[_Found]) -> list[_Found]:
    """A misspelt key comes first of its problems, right before the key missing because of it."""
    ordered = list(found)
    for typo in [f for f in found if _suggestion(f) is not None]:
        missing = (*typo.parts[:-1], cast(str, _suggestion(typo)))
        for f in ordered:
            if f.error["type"] == "missing" and f.parts == missing:
                ordered.remove(typo)
                ordered.insert(ordered.index(f), typo)
                break
    return ordered


def errors_to_input_error(
    errors: Sequence[ErrorDetails] | Sequence[dict[str, Any]],
    *,
    model: type[BaseModel] | None = None,
    under: Loc = (),
    file: str | None = None,
) -> InputError:
    """Pydantic's ``errors`` (of ``model``, when known) as one InputError listing every problem.

    Without the model, every part of a location is taken for a place in the input. ``under`` is
    where the model's value is in the locations (FastAPI's ``("body",)``); a location elsewhere
    is read without the model.
    """
    walk = _Walk(_schema(model), under)
    found = _typos_first(_one_branch([walk.locate(cast(ErrorDetails, e)) for e in errors]))
    problems = [
        InputError(
            describe(f),
            file=file,
            place=format_place(f.parts) or None,
            kind=str(f.error["type"]),
            suggestion=_suggestion(f),
        )
        for f in found
    ]
    return InputError.of(problems)


def validate(model: type[ModelT], data: Any, *, file: str | None = None) -> ModelT:
    """``data`` as a ``model``.

    Parameters
    ----------
    model : type of BaseModel
        The pydantic model of the document (a scenario, an engagement, a profile).
    data : Any
        Plain data, as the reader returns it.
    file : str, optional
        The file the data came from, named by the error.

    Returns
    -------
    BaseModel
        The validated ``model``.

    Raises
    ------
    InputError
        Naming the file, the place (with the user's own keys) and the problem, with a "did you
        mean" for a misspelt key, and listing every other problem found.

    Examples
    --------
    >>> from pydantic import BaseModel
    >>> class Point(BaseModel):
    ...     x: int
    >>> validate(Point, {"x": 1}).x
    1
    """
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise errors_to_input_error(exc.errors(), model=model, file=file) from None


def load_file(model: type[ModelT], path: Path) -> ModelT:
    """Read and validate a YAML or JSON file of ``model`` (an engagement, a plan, a profile).

    Parameters
    ----------
    model : type of BaseModel
        The pydantic model of the file.
    path : Path
        The file.

    Returns
    -------
    BaseModel
        The validated ``model``.

    Raises
    ------
    InputError
        As :func:`~allocator.core.reader.read_file` and :func:`validate`.
    LimitError
        As :func:`~allocator.core.reader.read_file`.
    """
    return validate(model, read_file(path), file=str(path))
