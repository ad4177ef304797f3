"""The exception hierarchy, in the style of networkx: one base, a few kinds a caller acts on.

* :class:`InputError`: the input is wrong; it names the file, the place in it and the problem
  (exit code 2, HTTP 4xx), and lists every other problem found with it.
* :class:`LimitError`: the input is well formed but asks for more than a limit allows; it names
  the limit and how to raise it (exit code 2, HTTP 413).
* :class:`TimeLimitError`: no answer was found within the time limit (exit code 3, HTTP 422).
* :class:`InternalError`: a defect in cfalloc itself (exit code 4, with one line asking for a
  report; the traceback only with ``CFALLOC_DEBUG=1``).

Every failure is written the same way as JSON (``cfalloc ... --json`` and the web API's error
body): an :class:`ErrorAnswer`, the first problem as ``error`` and all of them as ``errors``.

>>> str(InputError("no such stand 'x9'", file="farm.yaml", place="allocation.combats.A"))
"farm.yaml: allocation.combats.A: no such stand 'x9'"
>>> LimitError("too many stands", limit="max_stands_per_side").limit
'max_stands_per_side'
>>> typo = InputError("unknown key 'defnder' (did you mean 'defender'?)", place="defnder",
...                   kind="extra_forbidden", suggestion="defender")
>>> error = InputError.of([typo, InputError("missing", place="defender", kind="missing")])
>>> [detail.place for detail in error_answer(error.located("farm.yaml")).errors]
['defnder', 'defender']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self

from pydantic import BaseModel, ConfigDict, Field

#: The kind of a problem that is not one of pydantic's error types.
INPUT, LIMIT, TIME_LIMIT, INTERNAL, USAGE = "input", "limit", "time_limit", "internal", "usage"
#: The most problems one error lists: a file repeating one mistake ten thousand times is said
#: in a few kilobytes.
LISTED = 100


class CfallocError(Exception):
    """Base class of every error cfalloc raises on purpose."""


class InputError(CfallocError):
    """Bad input: names the file, the place inside it and the problem, and every other problem.

    ``kind`` is pydantic's error type where pydantic found the problem (``missing``,
    ``extra_forbidden``, ``int_type``, ...), else ``input`` (``limit`` for a
    :class:`LimitError`); ``suggestion`` is the nearest valid key of an unknown one. ``others``
    are the further problems of the same input (:meth:`of` builds one error from many).
    """

    def __init__(
        self,
        problem: str,
        *,
        file: str | None = None,
        place: str | None = None,
        kind: str = INPUT,
        suggestion: str | None = None,
        others: Sequence[InputError] = (),
    ):
        self.problem = problem
        self.file = file
        self.place = place
        self.kind = kind
        self.suggestion = suggestion
        self.others = list(others)
        super().__init__(str(self))

    @classmethod
    def of(cls, problems: Sequence[InputError], file: str | None = None) -> InputError:
        """One error listing ``problems`` (at least one): the first, then the others, at most
        :data:`LISTED` of them (and a last one saying how many more there are)."""
        first, *others = [p for each in problems for p in each.problems()]
        if len(others) >= LISTED:
            more = len(others) - LISTED + 1
            others[LISTED - 1 :] = [cls(f"{more:,} more problems, not listed", kind=INPUT)]
        error = cls(
            first.problem,
            file=first.file,
            place=first.place,
            kind=first.kind,
            suggestion=first.suggestion,
            others=others,
        )
        return error.located(file)

    def line(self) -> str:
        """This problem alone, as the command line writes it: ``file: place: problem``."""
        return ": ".join(part for part in (self.file, self.place, self.problem) if part)

    def __str__(self) -> str:
        more = len(self.others)
        return self.line() + (f" (and {more} more problem{'s' * (more > 1)})" if more else "")

    def problems(self) -> list[InputError]:
        """This problem and every other one, in the order they are best read."""
        return [self, *self.others]

    def detail(self) -> ErrorDetail:
        """This problem as JSON writes it."""
        return ErrorDetail(
            file=self.file,
            place=self.place,
            problem=self.problem,
            kind=self.kind,
            suggestion=self.suggestion,
        )

    def located(self, file: str | None, place: str | None = None) -> Self:
        """This error, given a file (and a place) where it had none, for every problem."""
        for problem in self.problems():
            problem.file = problem.file or file
            problem.place = problem.place or place
            problem.args = (str(problem),)
        return self

    def named_by(self, file: str | None, place: str) -> Self:
        """This error of a document that ``file`` names at ``place`` (a profile a scenario
        names, a sweep's scenario), said at that place, each problem ending with where in the
        document it lies.

        >>> InputError("no such file", file="house.yaml").named_by("fight.yaml", "ruleset").line()
        'fight.yaml: ruleset: no such file (in house.yaml)'
        """
        for problem in self.problems() if self.file is not None else ():
            where = f"{problem.file}{f', {problem.place}' if problem.place else ''}"
            problem.problem += f" (in {where})"
            problem.file, problem.place = file, place
        return self.located(file, place)


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
        super().__init__(problem, file=file, place=place, kind=LIMIT)


class TimeLimitError(CfallocError):
    """The time limit ran out before any answer was found."""

    def __init__(self, seconds: float, what: str = "a line of play"):
        self.seconds = seconds
        self.what = what
        super().__init__(
            f"no answer within the time limit: {what} was not found in {seconds:g} s; "
            "give more time with --time-limit"
        )


class MemoryLimitError(TimeLimitError):
    """The memory limit was reached before any answer was found: it ends the work as the time
    limit does (the best line so far, or exit code 3 with this message)."""

    def __init__(self, megabytes: int, used: int, what: str = "a line of play"):
        CfallocError.__init__(
            self,
            f"no answer within the memory limit: {what} was not found within {megabytes:,} MB (the "
            f"answer took {used:,} MB); raise it with CFALLOC_MAX_MEMORY_MB",
        )
        self.seconds, self.what, self.megabytes = 0.0, what, megabytes


class WorkCancelled(TimeLimitError):
    """The work was cancelled from outside before it ended (a web request whose client has
    gone): it ends as at the time limit."""

    def __init__(self, seconds: float, what: str = "a line of play"):
        CfallocError.__init__(self, f"no answer: the work on {what} was cancelled")
        self.seconds, self.what = seconds, what


class InternalError(CfallocError):
    """A defect in cfalloc: the error boundaries turn any unexpected exception into this."""


class ErrorDetail(BaseModel):
    """One problem: where the input is wrong and why, as the command line says it."""

    model_config = ConfigDict(extra="forbid")

    file: str | None = Field(default=None, description="The file, when the input named one.")
    place: str | None = Field(
        default=None,
        description="Where in the input, with the file's own keys: `defender.stands[2].unit`, "
        "`allocation.combats.first-combat[0]`, `line 3, column 5`, `body`, `--side`.",
    )
    problem: str = Field(description="What is wrong, and what to do about it.")
    kind: str = Field(
        default=INPUT,
        description="What kind of problem: pydantic's error type where the file's format is "
        "broken (`missing`, `extra_forbidden` for an unknown key, `int_type`, "
        "`less_than_equal`, ...; `wrong_type` when a value is none of the kinds a place takes), "
        "else `input`, `limit` (over a limit), `usage` (a command line's option), `time_limit` "
        "(no answer in time) or `internal` (a defect in cfalloc).",
    )
    suggestion: str | None = Field(
        default=None, description="For an unknown key: the nearest key that place takes."
    )


class ErrorAnswer(BaseModel):
    """What a failure writes as JSON: ``cfalloc ... --json`` (on stdout, beside the line on
    stderr) and the body of every 4xx answer of the web API."""

    model_config = ConfigDict(extra="forbid")

    error: ErrorDetail = Field(description="The first problem (the one the command line names).")
    errors: list[ErrorDetail] = Field(
        description="Every problem found, the first one first (the command line shows a few).",
        min_length=1,
    )


def error_answer(error: InputError) -> ErrorAnswer:
    """``error`` and every other problem it lists, as JSON writes them."""
    details = [problem.detail() for problem in error.problems()]
    return ErrorAnswer(error=details[0], errors=details)
