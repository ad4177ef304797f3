"""Options every game's commands share, so that each reads and is documented the same way.

>>> from typing import get_args
>>> get_args(TimeOption)[0]
<class 'float'>
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from allocator.core.errors import USAGE, InputError
from allocator.core.limits import default_limits

TimeOption = Annotated[
    float,
    typer.Option(
        min=0.001,
        help="Seconds the whole command may take, its start-up and model building included. "
        "At most "
        f"CFALLOC_MAX_TIME_LIMIT ({default_limits().max_time_limit:g}).",
    ),
]


def within_time_limit(time_limit: float) -> None:
    """Refuse a --time-limit over its limit, naming the limit and how to raise it."""
    default_limits().check("max_time_limit", time_limit, "--time-limit")


def check_output_file(path: Path, option: str) -> None:
    """Refuse, before any work, a file to write (given as ``option``) that cannot be one: in a
    folder that is not there or may not be written, or there already and not a regular file (a
    folder, a device, or a pipe, whose writing would wait for a reader for ever)."""
    folder = path.resolve().parent
    if not folder.is_dir():
        raise InputError(
            f"no folder {path.parent} to write {path.name} in", place=option, kind=USAGE
        )
    if not os.access(folder, os.W_OK | os.X_OK):
        raise InputError(f"the folder {path.parent} cannot be written in", place=option, kind=USAGE)
    if path.exists() and not path.is_file():
        raise InputError(
            f"{path} is there and is not a regular file: name a file saved on disk",
            place=option,
            kind=USAGE,
        )
