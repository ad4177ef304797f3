"""What a game package tells the registry (:mod:`allocator.games`), as data.

Each game package has a ``game`` module whose :data:`GAME` is a :class:`Game`: its resolver, the
typed details of its answers, its file formats and its ``cfalloc resolve`` commands. A command
is a :class:`ResolveCommand`: what its file is, the flags of a quick roll (a pydantic model whose
fields become options), the shipped example and two functions, one reading the input and one
showing the answer. The command line builds every ``cfalloc resolve`` subcommand from these, so
no game imports Typer or rich, and adding a game is its package and one line in the registry.

Heavy parts (a resolver and its engine, a file format) are named ``"module:Name"``, imported by
the registry only when they are used, so that reading a game's entry costs little.

>>> from pydantic import BaseModel, Field
>>> from allocator.core.report import Report
>>> from allocator.core.resolution import Resolution
>>> class Roll(BaseModel):
...     attacker: int | None = Field(None, description="Assaulting SPs.")
>>> command = ResolveCommand(
...     name="dice", summary="Roll.", file="A file.", example="one", quick_roll=Roll,
...     prepare=lambda given: lambda budget: Resolution("dice", {}),
...     report=lambda resolution: Report("Dice"))
>>> command.options()
[('attacker', <class 'int'>, 'Assaulting SPs.')]

A flag may also be a choice among texts (``Literal["n4", "n5"]``, checked by the model) or a
list of texts, given as often as wanted (``--skill a --skill b``).
"""

from __future__ import annotations

import types
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar, Union, get_args, get_origin

from allocator.core.errors import InputError, InternalError

if TYPE_CHECKING:  # a game module reads only this at import time: it stays light
    from pydantic import BaseModel

    from allocator.core.budget import Budget
    from allocator.core.report import Report
    from allocator.core.resolution import Details, Resolution

ModelT = TypeVar("ModelT", bound="BaseModel")

#: The types a quick-roll flag may have (each an option of its own type on the command line);
#: also ``list[str]`` (a flag given as often as wanted) and a ``Literal`` of texts (a choice).
FLAG_TYPES = (int, float, str)

Work = Callable[["Budget"], "Resolution"]
"""The resolution still to be worked out, within the time limit's budget."""


@dataclass(frozen=True)
class FileOption:
    """An option naming a file of numbers that replaces the shipped ones (``--profile``)."""

    flag: str
    help: str


#: The option most games take: their ruleset profile.
PROFILE = FileOption("--profile", "A ruleset profile file replacing the shipped one.")


@dataclass(frozen=True)
class Given:
    """What one ``cfalloc resolve`` command was given: the file, the quick roll, the profile.

    ``roll`` is the game's quick-roll model (its defaults where a flag was not given:
    ``roll.model_fields_set`` names those given), or ``None`` when no flag was given.
    """

    file: Path | None
    roll: BaseModel | None = None
    profile: Path | None = None

    def load(self, model: type[ModelT], what: str) -> ModelT:
        """The file as a ``model``; without a file, an InputError saying what to give.

        >>> from pydantic import BaseModel
        >>> Given(None).load(BaseModel, "building plan")
        Traceback (most recent call last):
        ...
        allocator.core.errors.InputError: give the building plan, or --example for one to start from
        """
        from allocator.core.validation import load_file

        if self.file is None:
            raise InputError(f"give the {what}, or --example for one to start from")
        return load_file(model, self.file)

    def flags(self) -> dict[str, Any]:
        """The quick-roll flags given, by field name."""
        return {} if self.roll is None else self.roll.model_dump(include=self.roll.model_fields_set)


@dataclass(frozen=True)
class ResolveCommand:
    """One ``cfalloc resolve NAME`` command, described for the command line to build.

    Parameters
    ----------
    name
        The subcommand's name (``matched-dice``); also the folder of its shipped examples,
        ``models/scenarios/<name>/``.
    summary
        Its help: what it answers, in players' words.
    file
        What its optional FILE argument holds.
    example
        The shipped example ``--example`` prints (``--example --run`` runs it).
    prepare
        Reads everything the command was given (a bad input fails here, before the time limit
        runs) and returns the work left: the resolution within a budget.
    report
        The readable answer of a resolution.
    quick_roll
        The flags of a quick roll without a file: each field (``int``, ``float``, ``str``, a
        ``Literal`` of texts or ``list[str]``, optional) is an option ``--field-name`` whose
        help is the field's description.
    profile
        The option naming the file of numbers that replaces the shipped ones (none: no such
        option).
    flag_help
        More help for some flags, by field name (the choices a ruleset's profile offers),
        computed only when the help is shown, so that running the command stays light.
    """

    name: str
    summary: str
    file: str
    example: str
    prepare: Callable[[Given], Work]
    report: Callable[[Resolution], Report]
    quick_roll: type[BaseModel] | None = None
    profile: FileOption | None = PROFILE
    flag_help: Callable[[], Mapping[str, str]] | None = None

    def options(self, choices: bool = False) -> list[tuple[str, Any, str]]:
        """Each quick-roll flag: its field name, its type (``int``, ``float``, ``str`` or
        ``list[str]``) and its help (with its default; with ``choices``, also ``flag_help``'s
        text, which costs the reading of what it lists: asked for when help is shown).

        Raises
        ------
        InternalError
            When a field's type is not one a flag can have.
        """
        if self.quick_roll is None:
            return []
        more = self.flag_help() if choices and self.flag_help else {}
        found = []
        for name, info in self.quick_roll.model_fields.items():
            kinds = [_flag_type(t) for t in _members(info.annotation) if t is not type(None)]
            if len(kinds) != 1 or kinds[0] is None:
                raise InternalError(
                    f"{self.name}: the flag {name} is not an int, float, str or list of str"
                )
            value = info.get_default(call_default_factory=True)
            default = "" if value in (None, []) else f" Default: {value}."
            text = " ".join(part for part in (info.description, more.get(name)) if part)
            found.append((name, kinds[0], text + default))
        return found


def _members(annotation: Any) -> tuple[Any, ...]:
    """The types of a union (``int | None``), or the one type."""
    if get_origin(annotation) in (Union, types.UnionType):
        return get_args(annotation)
    return (annotation,)


def _flag_type(annotation: Any) -> Any:
    """The command line's type of a flag: ``int``, ``float``, ``str`` (a choice of texts too) or
    ``list[str]``; none when a flag cannot have it."""
    if annotation in FLAG_TYPES:
        return annotation
    if get_origin(annotation) is Literal and all(isinstance(a, str) for a in get_args(annotation)):
        return str
    if get_origin(annotation) is list and get_args(annotation) == (str,):
        return list[str]
    return None


@dataclass(frozen=True)
class Game:
    """One game, as the registry knows it.

    Parameters
    ----------
    name
        The game's name (``infinity``), its key in the registry.
    resolver
        Its resolver class (the :class:`~allocator.core.resolution.Resolver` protocol), as
        ``"module:Class"``.
    details
        The typed details of its answers, each a :class:`~allocator.core.resolution.Details`
        with its own ``system`` literal: the registry joins them into ``ResolveAnswer``.
    formats
        Its file formats and answers with a committed JSON Schema, name -> ``"module:Class"``.
    commands
        Its ``cfalloc resolve`` commands (none for a game with a command group of its own).
    """

    name: str
    resolver: str
    details: tuple[type[Details], ...] = ()
    formats: Mapping[str, str] = field(default_factory=dict)
    commands: tuple[ResolveCommand, ...] = ()


__all__ = [
    "PROFILE",
    "FileOption",
    "Game",
    "Given",
    "ResolveCommand",
    "Work",
]
