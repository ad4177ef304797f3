"""The time budget of one answer: a deadline that every stage of the work checks.

A budget starts when the work starts, so that reading, model building and every solver call
share one time limit. :meth:`Budget.check` raises when the deadline has passed;
:meth:`Budget.remaining` is what a solver call may still use. Every stage whose work grows with
the input checks its budget at least every few milliseconds, so that an answer ends within its
limit (docs/solver.md, "Limits").

An answer's budget (:meth:`Budget.of_answer`) counts from the moment the answer was asked for:
now, or, in a command of the command line, the start of the process (:func:`answer_started`),
so that the interpreter's start-up and the imports count against ``--time-limit`` too.

A budget bounds memory as well (``max_memory_mb`` of :mod:`allocator.core.limits`): its checks
look at the memory the answer has taken (at most every ``MEMORY_LOOK_SECONDS``): in a command
of the command line the process's whole resident size, elsewhere its growth since the answer's
outermost budget was made, so that a server, or a test run, that already holds memory of its own
gives each answer the same room; and
:meth:`Budget.reserve` refuses a large array before it is built. Past the limit the work ends
as at the deadline, with a :class:`~allocator.core.errors.MemoryLimitError` (a kind of
:class:`~allocator.core.errors.TimeLimitError`): the best line so far, or exit code 3.

A budget can be cancelled from another thread (:meth:`Budget.cancel`, as the web server does
when a request's client has gone): it then counts as expired, and so does every budget nested
in it (:meth:`Budget.share`, and every budget made in the block of :func:`nested_in`); a solver
search under :meth:`Budget.stopping` is stopped at once. Its checks then raise
:class:`~allocator.core.errors.WorkCancelled` (also a kind of ``TimeLimitError``).

>>> budget = Budget(5.0)
>>> 0 < budget.remaining() <= 5.0, budget.expired()
(True, False)
>>> Budget(0.0).expired()
True
>>> work = Budget(None)
>>> with nested_in(work):
...     step = Budget(5.0)
>>> work.cancel()
>>> step.expired(), step.remaining()
(True, 0.0)
"""

from __future__ import annotations

import contextvars
import itertools
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from allocator.core.errors import MemoryLimitError, TimeLimitError, WorkCancelled
from allocator.core.limits import default_limits

#: How often, at most, a budget's checks read the process's resident size.
MEMORY_LOOK_SECONDS = 0.01
_PAGE_MB = os.sysconf("SC_PAGE_SIZE") / 2**20 if hasattr(os, "sysconf") else 4096 / 2**20

#: When the answer being worked on was asked for (``time.monotonic()``); unset: now.
_ASKED_AT: contextvars.ContextVar[float | None] = contextvars.ContextVar("asked_at", default=None)
#: The budget every budget made now is nested in (:func:`nested_in`); unset: none.
_ENCLOSING: contextvars.ContextVar[Budget | None] = contextvars.ContextVar(
    "enclosing_budget", default=None
)
#: Guards the stops registered with the budgets (:meth:`Budget.stopping`).
_STOPS_LOCK = threading.Lock()


def process_started() -> float:
    """When this process started, on the ``time.monotonic()`` clock (Linux: from
    ``/proc/self/stat``; elsewhere, or unreadable: now).

    >>> 0 <= time.monotonic() - process_started() < 3600
    True
    """
    try:
        with open("/proc/self/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
        ticks = int(fields[19])  # field 22 of stat(5): start time after boot, in clock ticks
        age = time.clock_gettime(time.CLOCK_BOOTTIME) - ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError, AttributeError):
        return time.monotonic()
    return time.monotonic() - max(0.0, age)


def resident_mb() -> float:
    """The memory this process holds now, in MB (Linux: ``/proc/self/statm``; elsewhere its
    peak so far, from ``getrusage``).

    >>> 1 < resident_mb() < 100_000
    True
    """
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * _PAGE_MB
    except (OSError, IndexError, ValueError):
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


@contextmanager
def answer_started(moment: float | None) -> Iterator[None]:
    """In the block, every answer's budget (:meth:`Budget.of_answer`) counts from ``moment``
    (``None``: from when each budget is made, as a server's answers do)."""
    token = _ASKED_AT.set(moment)
    try:
        yield
    finally:
        _ASKED_AT.reset(token)


@contextmanager
def nested_in(budget: Budget) -> Iterator[None]:
    """In the block, every budget made is nested in ``budget``: it counts as expired once
    ``budget`` is cancelled (a web request's work runs so, :mod:`allocator.web.work`)."""
    token = _ENCLOSING.set(budget)
    try:
        yield
    finally:
        _ENCLOSING.reset(token)


class Budget:
    """A time limit in seconds, counted from now (``None``: no limit), and a memory limit in MB
    (default: ``max_memory_mb`` of the limits), nested in ``parent`` (default: the budget of
    :func:`nested_in`, if any), whose cancellation ends it too."""

    def __init__(
        self,
        seconds: float | None,
        since: float | None = None,
        memory_mb: int | None = None,
        parent: Budget | None = None,
    ):
        self.seconds = seconds
        self.parent = _ENCLOSING.get() if parent is None else parent
        self._cancelled = False  # set once, under _STOPS_LOCK; read without it (atomic)
        self._stops: list[Callable[[], object]] = []
        start = time.monotonic() if since is None else since
        self.deadline = None if seconds is None else start + seconds
        self.memory_mb = default_limits().max_memory_mb if memory_mb is None else memory_mb
        #: What the process held when the answer began: nothing for a command of the command
        #: line (:func:`answer_started` with a moment: the whole process is the answer), else
        #: what it held when the answer's outermost budget was made.
        self._baseline: float = (
            self.parent._baseline
            if self.parent is not None
            else 0.0
            if _ASKED_AT.get() is not None
            else resident_mb()
        )
        self._next_look = 0.0
        self._held = 0.0
        #: Whether some stage stopped early: the answer is then the best found, not proven.
        self.cut_short = False

    @classmethod
    def of_answer(cls, seconds: float | None) -> Budget:
        """The budget of a whole answer: ``seconds`` from when it was asked for.

        >>> with answer_started(time.monotonic() - 1.0):
        ...     round(Budget.of_answer(3.0).remaining())
        2
        """
        return cls(seconds, since=_ASKED_AT.get())

    def share(self, fraction: float) -> Budget:
        """A budget ending when ``fraction`` of what is left of this one has passed."""
        part = Budget(
            None if self.deadline is None else self.remaining() * fraction,
            memory_mb=self.memory_mb,
            parent=self,
        )
        part.seconds = self.seconds
        return part

    def remaining(self, floor: float = 0.0) -> float:
        """Seconds left (a large number without a limit; none once cancelled), at least
        ``floor``."""
        if self.cancelled:
            return floor
        if self.deadline is None:
            return 1e9
        return max(floor, self.deadline - time.monotonic())

    def taken_mb(self) -> float:
        """MB the process has taken since the answer began."""
        return max(0.0, resident_mb() - self._baseline)

    def over_memory(self) -> bool:
        """Whether the answer has taken more than the memory limit (looked at every so often)."""
        return self._looked_mb() > self.memory_mb

    def _looked_mb(self) -> float:
        """:meth:`taken_mb` as last looked at, looked at again every
        :data:`MEMORY_LOOK_SECONDS`."""
        now = time.monotonic()
        if now >= self._next_look:
            self._next_look = now + MEMORY_LOOK_SECONDS
            self._held = self.taken_mb()
        return self._held

    def memory_left_mb(self) -> int:
        """MB the work may still take before the memory limit (at least 1)."""
        return max(1, int(self.memory_mb - self.taken_mb()))

    def cancel(self) -> None:
        """End the work of this budget, and of every budget nested in it, from any thread:
        their checks raise :class:`WorkCancelled`, and the searches under :meth:`stopping`
        stop."""
        with _STOPS_LOCK:
            self._cancelled = True
            stops = list(self._stops)
        for stop in stops:
            stop()

    @property
    def cancelled(self) -> bool:
        """Whether this budget, or one it is nested in, has been cancelled."""
        budget: Budget | None = self
        while budget is not None:
            if budget._cancelled:
                return True
            budget = budget.parent
        return False

    @contextmanager
    def stopping(self, stop: Callable[[], object]) -> Iterator[None]:
        """In the block, ``stop()`` is called (in the cancelling thread) once this budget or
        one it is nested in is cancelled: for a solver's search, which looks at no budget
        (``with budget.stopping(solver.stop_search): solver.solve(model)``)."""
        chain: list[Budget] = []
        budget: Budget | None = self
        while budget is not None:
            chain.append(budget)
            budget = budget.parent
        with _STOPS_LOCK:
            for budget in chain:
                budget._stops.append(stop)
        try:
            yield
        finally:
            with _STOPS_LOCK:
                for budget in chain:
                    budget._stops.remove(stop)

    def expired(self) -> bool:
        """Whether the deadline has passed, the memory limit is reached or the work has been
        cancelled."""
        return (
            self.cancelled
            or (self.deadline is not None and time.monotonic() >= self.deadline)
            or self.over_memory()
        )

    def check(self, what: str = "a line of play") -> None:
        """Raise :class:`TimeLimitError` once the deadline has passed, and
        :class:`MemoryLimitError` once the memory limit is reached."""
        if self.expired():
            raise self.ran_out(what)

    def ran_out(self, what: str = "a line of play") -> TimeLimitError:
        """The error of work this budget stopped: :class:`WorkCancelled` when it was cancelled,
        :class:`MemoryLimitError` when the memory limit is reached, else
        :class:`TimeLimitError`."""
        if self.cancelled:
            return WorkCancelled(self.seconds or 0.0, what)
        if self.over_memory():
            return MemoryLimitError(self.memory_mb, round(self._held), what)
        return TimeLimitError(self.seconds or 0.0, what)

    def reserve(self, nbytes: int, what: str = "a line of play") -> None:
        """Refuse to build ``nbytes`` more when that would pass the memory limit.

        >>> Budget(5.0, memory_mb=64).reserve(2**40, "the lines of play")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        allocator.core.errors.MemoryLimitError: no answer within the memory limit: the lines of ...
        """
        held = self._looked_mb()
        if held + nbytes / 2**20 > self.memory_mb:
            raise MemoryLimitError(self.memory_mb, round(held + nbytes / 2**20), what)

    def ticker(self, what: str, every: int = 256) -> Callable[[], None]:
        """A check for the innermost step of a long loop: it looks at the clock every ``every``
        calls, so that a step of a microsecond costs next to nothing and the deadline is still
        seen within a millisecond or so.

        >>> tick = Budget(0.0).ticker("a legal attack", every=2)
        >>> tick()  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        allocator.core.errors.TimeLimitError: no answer within the time limit: a legal attack ...
        """
        calls = itertools.count()

        def tick() -> None:
            if next(calls) % every == 0:
                self.check(what)

        return tick
