"""Files that cfalloc writes for a player: whole or not at all."""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

from allocator.core.errors import InputError


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
