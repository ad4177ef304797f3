"""The paths a player names: followed to the file they lead to, and written whole or not at all."""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

from allocator.core.errors import USAGE, InputError
from allocator.core.reader import excerpt


def resolved(path: Path, place: str | None = None, file: str | None = None) -> Path:
    """``path`` with every link followed, or bad input where it cannot be followed (a loop of
    links, a name too long for the file system), named at ``place`` of ``file``.

    >>> resolved(Path("/")) == Path("/")
    True
    """
    try:
        return path.resolve()
    except RuntimeError:  # Python 3.11's word for a loop of links (later ones raise OSError)
        problem = "a loop of symbolic links"
    except OSError as exc:
        problem = exc.strerror or str(exc)
    raise InputError(f"{excerpt(str(path))} cannot be followed: {problem}", file=file, place=place)


def output_file(path: Path, option: str) -> Path:
    """``path`` checked, before any work, as a file to write (given as ``option``): in a folder
    that is there and may be written, and, if it is there already, a regular file (not a
    folder, a device, or a pipe, whose writing would wait for a reader for ever). Its resolved
    path.

    Raises
    ------
    InputError
        Naming ``option`` and what is wrong (a usage error).
    """
    found = resolved(path, option)
    shown = excerpt(str(path))
    try:
        there, regular = path.exists(), path.is_file()
    except OSError as exc:  # a name too long, a folder that is a file
        raise InputError(
            f"{shown} cannot be written: {exc.strerror or exc}", place=option, kind=USAGE
        ) from None
    if not found.parent.is_dir():
        raise InputError(
            f"no folder {path.parent} to write {path.name} in", place=option, kind=USAGE
        )
    if not os.access(found.parent, os.W_OK | os.X_OK):
        raise InputError(f"the folder {path.parent} cannot be written in", place=option, kind=USAGE)
    if there and not regular:
        raise InputError(
            f"{path} is there and is not a regular file: name a file saved on disk",
            place=option,
            kind=USAGE,
        )
    return found


def write_atomically(path: Path, text: str | bytes) -> None:
    """Write ``text`` to ``path`` whole or not at all (a new file moved over the old one, with
    the old one's permissions, or those of any new file; a link named is replaced, never the
    file it leads to).

    Raises
    ------
    InputError
        When the file cannot be written (naming it): never half a file.

    Examples
    --------
    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "round-2.yaml"
    >>> write_atomically(path, "units: []\\n")
    >>> path.read_text()
    'units: []\\n'
    """
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except OSError:
        mode = 0o666 & ~_umask()
    try:
        descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    except OSError as exc:
        raise InputError(f"cannot write the file ({exc.strerror or exc})", file=str(path)) from None
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(text.encode("utf-8") if isinstance(text, str) else text)
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except OSError as exc:
        raise InputError(f"cannot write the file ({exc.strerror or exc})", file=str(path)) from None
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)


def _umask() -> int:
    """This process's umask (read by setting it, so set back at once)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
