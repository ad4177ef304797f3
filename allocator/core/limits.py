"""One budget for every command and endpoint: how big an input may be and how long work may run.

Every limit has a generous default for real play (a battalion a side and more) and can be raised
with an environment variable ``CFALLOC_<NAME>``, e.g. ``CFALLOC_MAX_STANDS_PER_SIDE=300``. The
command line and the web server read the same settings, so the page answers what the command
line answers. A refusal is a :class:`~allocator.core.errors.LimitError` naming the limit and how
to raise it, raised before any heavy work starts.

>>> limits = Limits()
>>> limits.max_stands_per_side >= 40
True
>>> print(limits.refuse("max_depth", "nested 40 levels deep", file="x.yaml"))
x.yaml: nested 40 levels deep, over the limit of 32 (raise it with CFALLOC_MAX_DEPTH)
"""

from __future__ import annotations

import os
from functools import cache
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from allocator.core.errors import InputError, LimitError

ENVIRONMENT_PREFIX = "CFALLOC_"


class Limits(BaseModel):
    """The size and time limits; see the module docstring for how to raise one."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    max_file_bytes: int = Field(
        default=1_048_576, ge=1024, le=2**30, description="Largest file read, in bytes."
    )
    max_body_bytes: int = Field(
        default=1_048_576, ge=1024, le=2**30, description="Largest web request body, in bytes."
    )
    max_depth: int = Field(
        default=32, ge=4, le=200, description="Deepest nesting of mappings and lists in a file."
    )
    max_values: int = Field(
        default=200_000,
        ge=100,
        description="Most values (texts, numbers, lists, mappings) in one document, YAML "
        "aliases expanded.",
    )
    max_number_digits: int = Field(
        default=30, ge=4, le=1000, description="Most digits in one number of a file."
    )
    max_text_length: int = Field(
        default=10_000, ge=100, description="Longest text (a title, a description) in a file."
    )
    max_stands_per_side: int = Field(
        default=120, ge=1, description="Most stands a side in one fight (a battalion is ~50)."
    )
    max_burst: int = Field(
        default=24,
        ge=1,
        le=200,
        description="Largest Burst (dice a side) the Infinity resolver rolls.",
    )
    max_rounds: int = Field(
        default=100, ge=1, le=10_000, description="Most rounds a resolver chains or simulates."
    )
    max_trials: int = Field(
        default=1_000_000, ge=1, description="Most trials `cfalloc simulate --trials` plays."
    )
    max_sweep_cells: int = Field(
        default=10_000, ge=1, description="Most cells (exact solves) of one `cfalloc sweep`."
    )
    max_sweep_seconds: float = Field(
        default=86_400.0,
        gt=0,
        allow_inf_nan=False,
        description="Most solving time one sweep may ask for, in seconds: its cells times the "
        "time limit of each (a day by default).",
    )
    max_memory_mb: int = Field(
        default=1024,
        ge=64,
        le=1 << 20,
        description="Most memory, in MB, the process may hold while it works out one answer "
        "(states, lines of play, models); past it the work ends as at its time limit.",
    )
    max_time_limit: float = Field(
        default=3600.0,
        gt=0,
        le=604_800,
        allow_inf_nan=False,
        description="Longest time limit, in seconds, a command may ask for (at most a week).",
    )

    @classmethod
    def from_environment(cls, environ: dict[str, str] | None = None) -> Limits:
        """The defaults, with every ``CFALLOC_<NAME>`` variable of the environment applied."""
        environ = dict(os.environ if environ is None else environ)
        given: dict[str, Any] = {}
        for name in cls.model_fields:
            variable = ENVIRONMENT_PREFIX + name.upper()
            if variable in environ:
                given[name] = environ[variable]
        try:
            return cls.model_validate(given)
        except ValidationError as exc:
            first = exc.errors()[0]
            name = str(first["loc"][0])
            raise InputError(
                f"{first['msg']} (got {given.get(name)!r:.40})",
                place=f"environment variable {ENVIRONMENT_PREFIX}{name.upper()}",
            ) from None

    def check(self, name: str, value: float, place: str) -> None:
        """Refuse ``value`` (given as ``place``, an option) when it is over limit ``name``."""
        if value > getattr(self, name):
            raise self.refuse(name, f"asked for {_number(value)}", place=place)

    def refuse(
        self, name: str, problem: str, *, file: str | None = None, place: str | None = None
    ) -> LimitError:
        """The error for ``problem``, naming limit ``name``, its value and how to raise it."""
        shown = _number(getattr(self, name))
        if name.endswith("_bytes"):
            shown += " bytes"
        return LimitError(
            f"{problem}, over the limit of {shown} (raise it with "
            f"{ENVIRONMENT_PREFIX}{name.upper()})",
            limit=name,
            file=file,
            place=place,
        )


def _number(value: float) -> str:
    """A limit or a value asked for: a whole number with its thousands marked, any other (or
    one too large to write whole) as Python's shortest form.

    >>> _number(5000.0), _number(2.5), _number(1e308)
    ('5,000', '2.5', '1e+308')
    """
    whole = isinstance(value, int) or (value.is_integer() and abs(value) < 1e15)
    return f"{int(value):,}" if whole else f"{value:g}"


@cache
def default_limits() -> Limits:
    """The limits of this process: the defaults and the environment, read once."""
    return Limits.from_environment()
