"""The library of shipped data (organisations, ruleset profiles, scenarios, schemas) and paths.

A *name* (``german-rifle-company``, ``crossfire``) is looked up only inside the shipped library:
it is a bare word, never a path, so that a file cannot make cfalloc read anything else. A *path*
is accepted only where a file format documents one (a scenario's ``ruleset:``), and is resolved
relative to the file that names it.

>>> "crossfire" in names("rulesets")
True
>>> shipped("orgs", "../../etc/passwd", what="organisation")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
allocator.core.errors.InputError: '../../etc/passwd' is not the name of a shipped organisation ...
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import allocator
from allocator.core.errors import InputError
from allocator.core.files import resolved
from allocator.core.reader import excerpt
from allocator.core.validation import nearest

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
DOCUMENT_SUFFIXES = (".yaml", ".yml", ".json")
EXAMPLE_NAMES = {"orgs": "german-rifle-company", "rulesets": "crossfire"}
#: The most names an error about an unknown one lists.
OFFERED = 6


@cache
def data_dir() -> Path:
    """The folder of shipped data: inside the installed package, or the repository's models/."""
    installed = Path(allocator.__file__).parent / "_models"
    return installed if installed.is_dir() else Path(allocator.__file__).parent.parent / "models"


def folder(kind: str) -> Path:
    """One part of the library: ``orgs``, ``rulesets``, ``scenarios`` or ``schema``."""
    return data_dir() / kind


@cache
def names(kind: str, subfolder: str = "") -> list[str]:
    """The names of the shipped documents of one kind, sorted."""
    base = folder(kind) / subfolder if subfolder else folder(kind)
    if not base.is_dir():
        return []
    return sorted(p.stem for p in base.iterdir() if p.suffix in DOCUMENT_SUFFIXES and p.is_file())


def shipped(
    kind: str,
    name: str,
    *,
    what: str,
    subfolder: str = "",
    file: str | None = None,
    place: str | None = None,
    known: list[str] | None = None,
) -> Path:
    """The shipped document ``name`` of one kind.

    Parameters
    ----------
    kind : str
        ``orgs``, ``rulesets``, ``scenarios`` or ``schema``.
    name : str
        The document's name, without its suffix.
    what : str
        What the document is, in words, for the error (``"organisation"``).
    subfolder : str, optional
        A folder inside the kind's (``"infinity"``).
    file, place : str, optional
        Where the name was given, for the error.
    known : list of str, optional
        The names to offer in the error (by default every shipped one).

    Returns
    -------
    Path
        The shipped file.

    Raises
    ------
    InputError
        An unknown name, or one that is a path, listing the known names.

    Examples
    --------
    >>> shipped("rulesets", "crossfire", what="ruleset").name
    'crossfire.yaml'
    """
    available = known if known is not None else names(kind, subfolder)
    if not isinstance(name, str) or not NAME.fullmatch(name):
        example = EXAMPLE_NAMES.get(kind) or (available[0] if available else "a-name")
        raise InputError(
            f"{excerpt(name)} is not the name of a shipped {what} (a bare name such as {example})",
            file=file,
            place=place,
        )
    if name not in available:
        raise InputError(
            f"no shipped {what} '{name}' ({_offered(name, available)})", file=file, place=place
        )
    base = folder(kind) / subfolder if subfolder else folder(kind)
    return next(
        base / f"{name}{suffix}"
        for suffix in DOCUMENT_SUFFIXES
        if (base / f"{name}{suffix}").is_file()
    )


def _offered(name: str, available: list[str]) -> str:
    """The names an error about ``name`` offers: the nearest one, else a few of them.

    >>> _offered("crosfire", ["crossfire", "infinity"]), _offered("x", ["a", "b"])
    ("did you mean 'crossfire'?", 'shipped: a, b')
    """
    near = nearest(name, available)
    if near:
        return f"did you mean '{near}'?"
    if len(available) <= OFFERED:
        return f"shipped: {', '.join(available) or 'none'}"
    return f"{len(available)} are shipped, such as {', '.join(available[:3])}"


def relative_document(
    given: str,
    relative_to: Path | None,
    *,
    file: str | None = None,
    place: str | None = None,
    beside: str = "the profile next to the scenario",
) -> Path:
    """A document path a file names, resolved against that file's folder.

    Only relative paths to ``.yaml``, ``.yml`` or ``.json`` files in that folder or below it
    are accepted (``..`` and links leading out are refused); without a file to be relative to
    (a web request) no path is accepted at all.

    Parameters
    ----------
    given : str
        The path as the file writes it.
    relative_to : Path, optional
        The folder of the file that names it; none for a web request.
    file, place : str, optional
        Where the path was given, for the error.
    beside : str
        What the error tells the player to keep where, for a path that leads out.

    Returns
    -------
    Path
        The resolved path, inside ``relative_to``.

    Raises
    ------
    InputError
        An absolute path, another suffix, a path leading out of the folder, or any path
        without a folder to be relative to.
    """
    path = Path(given)
    if relative_to is None:
        raise InputError(
            f"{excerpt(given)} is a path; here only shipped names are accepted",
            file=file,
            place=place,
        )
    if path.is_absolute() or given.startswith("~") or path.suffix.lower() not in DOCUMENT_SUFFIXES:
        raise InputError(
            f"{excerpt(given)} must be a relative path to a .yaml, .yml or .json file, next to "
            "the file that names it",
            file=file,
            place=place,
        )
    folder = resolved(relative_to, place, file)
    found = resolved(folder / path, place, file)
    if not found.is_relative_to(folder):
        raise InputError(
            f"{excerpt(given)} leads out of the folder of the file that names it: keep "
            f"{beside} (or in a folder below it)",
            file=file,
            place=place,
        )
    return found


def is_path(given: str) -> bool:
    """Whether a file's reference is meant as a path (it has a document suffix or a slash)."""
    return "/" in given or "\\" in given or Path(given).suffix.lower() in DOCUMENT_SUFFIXES
