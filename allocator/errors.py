"""The exception hierarchy.

Every error a user can cause by what they feed the tool is a :class:`InputError`; the command
line turns it into one message and exit code 2, the web API into a 4xx answer.

>>> str(InputError("no such stand 'x9'", file="farm.yaml", place="allocation.combats.A"))
"farm.yaml: allocation.combats.A: no such stand 'x9'"
"""

from __future__ import annotations


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


class TooLargeError(InputError):
    """A scenario beyond the configured size limits of a solve."""
