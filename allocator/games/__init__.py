"""The games cfalloc knows, each a package behind the same interface, and their registry.

* :mod:`~allocator.games.crossfire`: Crossfire close combat in a building (the checker, the
  exact odds, the game search and the whole fight);
* :mod:`~allocator.games.infinity`: Infinity close combat (Face to Face rolls, saves, melee);
* :mod:`~allocator.games.matched_dice`: a matched-dice close assault;
* :mod:`~allocator.games.battlesystem`: Battlesystem command in buildings;
* :mod:`~allocator.games.percentile`: a percentile-dice close assault.

:data:`GAMES` is the registry: one line per game, naming the module whose ``GAME``
(a :class:`~allocator.core.game.Game`) says what the game brings: its resolver, the typed details
of its answers, its file formats and its ``cfalloc resolve`` commands. From it come
:func:`get_resolver`, the ``ResolveAnswer`` union (:mod:`allocator.games.answer`), the formats
with a committed JSON Schema (:func:`formats`) and the subcommands of ``cfalloc resolve``
(:func:`resolve_commands`). Nothing is imported until it is asked for, so that the command line
starts fast.

>>> resolver = get_resolver("matched-dice")
>>> engagement = resolver.engagement_model(attacker=3, defender=2, ties="defender")
>>> resolver.resolve(engagement).distribution["defender_loses_more"]
Fraction(1445, 3888)
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from allocator.core.errors import InputError
from allocator.core.reader import excerpt

if TYPE_CHECKING:  # the registry loads nothing until a game is asked for
    from pydantic import BaseModel

    from allocator.core.game import Game, ResolveCommand
    from allocator.core.resolution import Details, Resolver

__all__ = [
    "GAMES",
    "details_models",
    "format_model",
    "formats",
    "game",
    "games",
    "get_resolver",
    "json_schema",
    "resolve_commands",
]

#: Every game: its name -> the module whose ``GAME`` describes it.
GAMES: dict[str, str] = {
    "crossfire": "allocator.games.crossfire.game",
    "infinity": "allocator.games.infinity.game",
    "matched-dice": "allocator.games.matched_dice.game",
    "battlesystem": "allocator.games.battlesystem.game",
    "percentile": "allocator.games.percentile.game",
}

#: The registry's own answer, with a committed schema beside the games' formats.
ANSWER_FORMAT = {"resolve-answer": "allocator.games.answer:ResolveAnswer"}


def load_reference(reference: str) -> Any:
    """The object a ``"module:Name"`` reference names, importing its module.

    >>> load_reference("allocator.games:GAMES") is GAMES
    True
    """
    module, name = reference.split(":")
    return getattr(import_module(module), name)


def game(name: str) -> Game:
    """The game registered under ``name``.

    >>> game("percentile").commands[0].example
    'pillbox'
    """
    if name not in GAMES:
        raise InputError(f"no resolver {excerpt(name)}; known: {', '.join(sorted(GAMES))}")
    found: Game = load_reference(f"{GAMES[name]}:GAME")
    return found


def games() -> list[Game]:
    """Every registered game, in the registry's order."""
    return [game(name) for name in GAMES]


def get_resolver(name: str) -> Resolver[Any]:
    """The resolver of the game registered under ``name``.

    >>> get_resolver("infinity").name
    'infinity'
    """
    resolver: Resolver[Any] = load_reference(game(name).resolver)()
    return resolver


def resolve_commands() -> dict[str, ResolveCommand]:
    """Every ``cfalloc resolve`` command of every game, by name.

    >>> list(resolve_commands())
    ['infinity', 'infinity-allocate', 'matched-dice', 'battlesystem', 'percentile']
    """
    return {command.name: command for each in games() for command in each.commands}


def details_models() -> tuple[type[Details], ...]:
    """The typed details of every game's answers, in the registry's order."""
    return tuple(model for each in games() for model in each.details)


def formats() -> dict[str, str]:
    """Every file format and JSON answer, as "module:Class"; its schema is committed in
    ``models/schema/<name>.schema.json``."""
    found = {name: model for each in games() for name, model in each.formats.items()}
    return {**found, **ANSWER_FORMAT}


def format_model(name: str) -> type[BaseModel]:
    """The pydantic class of one file format or answer."""
    known = formats()
    if name not in known:
        raise InputError(f"no file format {excerpt(name)} (known: {', '.join(sorted(known))})")
    model: type[BaseModel] = load_reference(known[name])
    return model


def json_schema(name: str) -> dict[str, Any]:
    """The JSON Schema of one file format or answer, as committed in models/schema/.

    Its ``$comment`` names the pydantic version that wrote it (others write the same rules a
    little differently, so the committed files are compared byte for byte only under that one).

    >>> json_schema("scenario")["$comment"].startswith("written by `cfalloc schema scenario`")
    True
    """
    from pydantic import VERSION

    schema = format_model(name).model_json_schema(
        mode="serialization" if name.endswith("-answer") else "validation"
    )
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = f"https://cfalloc.invalid/schema/{name}.schema.json"
    schema["$comment"] = f"written by `cfalloc schema {name}` with pydantic {VERSION}"
    return schema
