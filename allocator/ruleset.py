"""Ruleset profiles: every number of the combat model and every reading of an open point.

Profiles live in ``models/rulesets/``; a scenario names one, gives a path, or names a base and
overrides some values (house rules). Nothing of RULES.md §2 is a literal in code.

>>> r = load_ruleset("crossfire")
>>> r.value("squad"), r.value("ties")
(1, 'reroll')
>>> load_ruleset({"base": "crossfire", "overrides": {"ties": "defender"}}).value("ties")
'defender'
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

import allocator
from allocator.errors import InputError


def models_dir() -> Path:
    """The folder of shipped data: inside the installed package, or the repository's models/."""
    installed = Path(allocator.__file__).parent / "_models"
    return installed if installed.is_dir() else Path(allocator.__file__).parent.parent / "models"


class ProfileValue(BaseModel):
    model_config = ConfigDict(extra="forbid")

    value: int | bool | str
    choices: list[str] | None = None
    verified: bool
    source: str


class Ruleset(BaseModel):
    """A validated profile; read values with :meth:`value`."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    game: Literal["crossfire"] = Field(description="Which game's profile this is.")
    name: str
    description: str = ""
    values: dict[str, ProfileValue]

    def value(self, key: str) -> Any:
        return self.values[key].value

    def with_overrides(self, overrides: dict[str, Any], source: str) -> Ruleset:
        values = dict(self.values)
        for key, new in overrides.items():
            if key not in values:
                known = ", ".join(sorted(values))
                raise InputError(f"unknown ruleset value '{key}' (known: {known})", place=source)
            old = values[key]
            if type(new) is not type(old.value):
                raise InputError(
                    f"'{key}' must be a {type(old.value).__name__}, not {new!r}", place=source
                )
            if old.choices and new not in old.choices:
                raise InputError(
                    f"'{key}' must be one of {', '.join(old.choices)}, not {new!r}", place=source
                )
            values[key] = old.model_copy(
                update={"value": new, "verified": False, "source": f"house rule ({source})"}
            )
        return self.model_copy(update={"values": values})


@cache
def _load_profile_file(path: Path) -> Ruleset:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise InputError(f"cannot read the ruleset: {exc.strerror}", file=str(path)) from None
    except yaml.YAMLError as exc:
        raise InputError(f"not valid YAML: {exc}", file=str(path)) from None
    if not isinstance(data, dict) or data.get("game") != "crossfire":
        raise InputError(
            "not a Crossfire ruleset profile (it lacks `game: crossfire`)", file=str(path)
        )
    try:
        return Ruleset.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        place = ".".join(str(p) for p in first["loc"])
        raise InputError(first["msg"], file=str(path), place=place) from None


@cache
def crossfire_profiles() -> list[str]:
    """The names of the shipped Crossfire profiles (other games' profiles sit beside them)."""
    names = []
    for path in sorted((models_dir() / "rulesets").glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if isinstance(data, dict) and data.get("game") == "crossfire":
            names.append(path.stem)
    return names


def _complete(profile: Ruleset, path: Path) -> Ruleset:
    """A profile of the user's own must set every value the shipped one has, with its type."""
    reference = load_ruleset("crossfire")
    missing = sorted(set(reference.values) - set(profile.values))
    if missing:
        raise InputError(f"the profile lacks {', '.join(missing)}", file=str(path), place="values")
    overrides = {key: v.value for key, v in profile.values.items()}
    reference.with_overrides(overrides, source=str(path))
    return profile


def _profile_path(name_or_path: str, relative_to: Path | None) -> Path:
    candidate = Path(name_or_path)
    if candidate.suffix in {".yaml", ".yml", ".json"}:
        if not candidate.is_absolute() and relative_to is not None:
            candidate = relative_to / candidate
        return candidate
    path = models_dir() / "rulesets" / f"{name_or_path}.yaml"
    if not path.is_file() or name_or_path not in crossfire_profiles():
        known = ", ".join(crossfire_profiles())
        raise InputError(f"no Crossfire ruleset '{name_or_path}' (shipped: {known})")
    return path


def load_ruleset(spec: str | dict[str, Any] | Any, relative_to: Path | None = None) -> Ruleset:
    """A profile from a name, a path, or ``{"base": ..., "overrides": {...}}``."""
    if isinstance(spec, str):
        path = _profile_path(spec, relative_to).resolve()
        profile = _load_profile_file(path)
        return (
            profile
            if path.parent == (models_dir() / "rulesets").resolve()
            else _complete(profile, path)
        )
    if not isinstance(spec, dict):
        spec = spec.model_dump()
    base = load_ruleset(spec.get("base", "crossfire"), relative_to)
    return base.with_overrides(spec.get("overrides", {}), source="ruleset.overrides")
