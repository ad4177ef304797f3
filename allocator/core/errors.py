"""The exception hierarchy, in the style of networkx: one base, a few kinds a caller acts on.

* :class:`InputError`: the input is wrong; it names the file, the place in it and the problem
  (exit code 2, HTTP 4xx).
* :class:`LimitError`: the input is well formed but asks for more than a limit allows; it names
  the limit and how to raise it (exit code 2, HTTP 413).
* :class:`TimeLimitError`: no answer was found within the time limit (exit code 3, HTTP 422).
* :class:`InternalError`: a defect in cfalloc itself (exit code 4, with one line asking for a
  report; the traceback only with ``CFALLOC_DEBUG=1``).

>>> str(InputError("no such stand 'x9'", file="farm.yaml", place="allocation.combats.A"))
"farm.yaml: allocation.combats.A: no such stand 'x9'"
>>> LimitError("too many stands", limit="max_stands_per_side").limit
'max_stands_per_side'
"""

from __future__ import annotations

from typing import Self


class CfallocError(Exception):
    """Base class of every error cfalloc raises on purpose."""


class InputError(CfallocError):
    """Bad input: names the file, the place inside it and the problem."""

    def __init__(self, problem: str, *, file: str | None = None, place: str | None = None):
        self.problem = problem
        self.file = file
        self.place = place
        super().__init__(str(self))

    def __str__(self) -> str:
        return ": ".join(part for part in (self.file, self.place, self.problem) if part)

    def to_dict(self) -> dict[str, str | None]:
        return {"file": self.file, "place": self.place, "problem": self.problem}

    def located(self, file: str | None, place: str | None = None) -> Self:
        """This error, given a file (and a place) where it had none."""
        self.file = self.file or file
        self.place = self.place or place
        self.args = (str(self),)
        return self


class LimitError(InputError):
    """Input beyond a configured limit: names the limit, so that the user can raise it."""

    def __init__(
        self,
        problem: str,
        *,
        limit: str,
        file: str | None = None,
        place: str | None = None,
    ):
        self.limit = limit
        super().__init__(problem, file=file, place=place)


class TimeLimitError(CfallocError):
    """The time limit ran out before any answer was found."""

    def __init__(self, seconds: float, what: str = "a line of play"):
        self.seconds = seconds
        self.what = what
        super().__init__(
            f"no answer within the time limit: {what} was not found in {seconds:g} s; "
            "give more time with --time-limit"
        )


class InternalError(CfallocError):
    """A defect in cfalloc: the error boundaries turn any unexpected exception into this."""
