"""Ruleset profiles: every number of the combat model and every reading of an open point.

Profiles live in ``models/rulesets/`` (each says which game it belongs to with ``game:``); a
scenario names a shipped profile, gives a path to one of its own (relative to the scenario), or
names a base and overrides some values (house rules). No number of the combat model is a
literal in code (docs/rules.md, "The combat model").

>>> r = load_ruleset("crossfire")
>>> r.value("squad"), r.value("ties")
(1, 'reroll')
>>> load_ruleset({"base": "crossfire", "overrides": {"ties": "defender"}}).value("ties")
'defender'
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from allocator.core.errors import InputError
from allocator.core.library import folder, is_path, relative_document, shipped
from allocator.core.reader import excerpt, read_file
from allocator.core.validation import nearest, validate

GAME = "crossfire"
#: Every integer value of a profile lies in this range unless the profile gives its own.
DEFAULT_RANGE = (-10, 10)


#: How each kind of profile value is named to a player.
_KINDS = {bool: "true or false", int: "a whole number", str: "a word"}


class ProfileValue(BaseModel):
    """One value of a profile, with whether it is verified and where it comes from."""

    model_config = ConfigDict(extra="forbid")

    value: int | bool | str
    choices: list[str] | None = None
    range: tuple[int, int] | None = Field(
        default=None, description="The smallest and largest value allowed (integers only)."
    )
    verified: bool
    source: str = Field(max_length=1000)

    def allowed(self, new: int | bool | str) -> str | None:
        """Why ``new`` cannot replace this value (None: it can)."""
        if type(new) is not type(self.value):
            return f"must be {_KINDS[type(self.value)]}, not {excerpt(new)}"
        if self.choices and new not in self.choices:
            return f"must be one of {', '.join(self.choices)}, not {excerpt(new)}"
        if isinstance(new, int) and not isinstance(new, bool):
            low, high = self.range or DEFAULT_RANGE
            if not low <= new <= high:
                return f"must lie between {low} and {high}, not {new}"
        return None

    @model_validator(mode="after")
    def _value_allowed(self) -> ProfileValue:
        problem = self.allowed(self.value)
        if problem is not None:
            raise ValueError(f"the value {problem}")
        return self


class Ruleset(BaseModel):
    """A validated profile; read values with :meth:`value`."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    game: str = Field(description="Which game's profile this is (`crossfire` here).")
    name: str = Field(max_length=200)
    description: str = Field(default="", max_length=5000)
    values: dict[str, ProfileValue]

    def value(self, key: str) -> Any:
        return self.values[key].value

    def with_overrides(self, overrides: dict[str, Any], source: str) -> Ruleset:
        values = dict(self.values)
        problems = []
        for key, new in overrides.items():
            if key not in values:
                problems.append(_unknown_value(key, values, f"{source}.{key}"))
                continue
            problem = values[key].allowed(new)
            if problem is not None:
                problems.append(InputError(f"'{key}' {problem}", place=f"{source}.{key}"))
                continue
            values[key] = values[key].model_copy(
                update={"value": new, "verified": False, "source": f"house rule ({source})"}
            )
        if problems:
            raise InputError.of(problems)
        return self.model_copy(update={"values": values})


def _unknown_value(
    key: str, known: Iterable[str], place: str, file: str | None = None
) -> InputError:
    """An unknown ruleset value, named with the nearest known one (or all of them)."""
    names = sorted(known)
    near = nearest(key, names)
    hint = f"did you mean '{near}'?" if near else f"known: {', '.join(names)}"
    return InputError(
        f"unknown ruleset value {excerpt(key)} ({hint})",
        file=file,
        place=place,
        kind="extra_forbidden",
        suggestion=near,
    )


def _read_profile(path: Path) -> Ruleset:
    profile = validate(Ruleset, read_file(path), file=str(path))
    if profile.game != GAME:
        raise InputError(
            f"not a Crossfire ruleset profile (it says `game: {excerpt(profile.game)}`)",
            file=str(path),
            place="game",
        )
    return profile


@cache
def shipped_profile(name: str) -> Ruleset:
    """A shipped Crossfire profile, read once."""
    return _read_profile(
        shipped("rulesets", name, what="Crossfire ruleset", known=crossfire_profiles())
    )


@cache
def crossfire_profiles() -> list[str]:
    """The names of the shipped Crossfire profiles (other games' profiles sit beside them)."""
    found = []
    for path in sorted(folder("rulesets").glob("*.yaml")):
        data = read_file(path)
        if isinstance(data, dict) and data.get("game") == GAME:
            found.append(path.stem)
    return found


def _complete(profile: Ruleset, path: Path) -> Ruleset:
    """A profile of the user's own must set every value the shipped one has, with its type."""
    reference = shipped_profile(GAME)
    missing = sorted(set(reference.values) - set(profile.values))
    if missing:
        raise InputError(f"the profile lacks {', '.join(missing)}", file=str(path), place="values")
    for key, value in profile.values.items():
        if key not in reference.values:
            raise _unknown_value(key, reference.values, f"values.{key}", str(path))
        problem = reference.values[key].allowed(value.value)
        if problem is not None:
            raise InputError(f"'{key}' {problem}", file=str(path), place=f"values.{key}.value")
    return profile


def load_ruleset(
    spec: str | dict[str, Any] | BaseModel,
    relative_to: Path | None = None,
    place: str = "ruleset",
) -> Ruleset:
    """A profile from a shipped name, a path, or ``{"base": ..., "overrides": {...}}``.

    A path is read only when ``relative_to`` (the folder of the file naming it) is given; a
    path that cannot be is named at ``place``.
    """
    if isinstance(spec, str):
        if is_path(spec):
            path = relative_document(spec, relative_to, place=place)
            return _complete(_read_profile(path), path)
        return shipped_profile(spec)
    data = spec.model_dump() if isinstance(spec, BaseModel) else spec
    base = load_ruleset(data.get("base", GAME), relative_to)
    return base.with_overrides(data.get("overrides", {}), source="ruleset.overrides")


def profile_from_spec(
    spec: str, relative_to: Path | None = None, source: str = "--profile"
) -> Ruleset:
    """A profile as the command line names one: a shipped name, a path, or a base with house
    rules, ``BASE:key=value,key=value`` (each value read as the base's value is: a whole
    number, true or false, or a word).

    Parameters
    ----------
    spec : str
        ``crossfire``, ``my-rules.yaml`` or ``crossfire:ties=defender,leader_bonus=sum``.
    relative_to : Path or None
        The folder a path is read from (None: no path is accepted).
    source : str
        Where the spec was given, the place a bad house rule is named at (``--profile.ties``).

    Returns
    -------
    Ruleset

    Raises
    ------
    InputError
        An unknown profile or value, or a value its profile does not allow.

    Examples
    --------
    >>> profile_from_spec("crossfire:ties=defender,squad=2").value("ties")
    'defender'
    >>> profile_from_spec("crossfire:ties").value("ties")
    Traceback (most recent call last):
    ...
    allocator.core.errors.InputError: 'ties' needs a value: write ties=VALUE
    """
    base_name, _, rules = spec.partition(":")
    base = load_ruleset(base_name.strip(), relative_to, place=source)
    overrides: dict[str, Any] = {}
    for rule in filter(None, (part.strip() for part in rules.split(","))):
        key, equals, text = (part.strip() for part in rule.partition("="))
        if not equals:
            raise InputError(f"{excerpt(key)} needs a value: write {key[:40]}=VALUE")
        known = base.values.get(key)
        overrides[key] = text if known is None else _read_as(known.value, text)
    return base.with_overrides(overrides, source=source) if overrides else base


def _read_as(kind: int | bool | str, text: str) -> int | bool | str:
    """A house rule's value as written on the command line, read as the profile's value is."""
    if isinstance(kind, bool):
        return {"true": True, "false": False}.get(text.lower(), text)
    if isinstance(kind, int):
        try:
            return int(text)
        except ValueError:
            return text
    return text
