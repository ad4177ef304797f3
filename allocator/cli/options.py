"""Options every game's commands share, so that each reads and is documented the same way.

>>> from typing import get_args
>>> get_args(TimeOption)[0]
<class 'float'>
"""

from __future__ import annotations

from typing import Annotated

import typer

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
