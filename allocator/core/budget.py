"""The time budget of one answer: a deadline that every stage of the work checks.

A budget starts when the work starts, so that reading, model building and every solver call
share one time limit. :meth:`Budget.check` raises when the deadline has passed;
:meth:`Budget.remaining` is what a solver call may still use. The budget of a whole answer
(:meth:`Budget.of_answer`) counts, inside :func:`counting_from`, from an earlier moment: a
command line's ``--time-limit`` bounds the whole process, its start-up included.

>>> budget = Budget(5.0)
>>> 0 < budget.remaining() <= 5.0, budget.expired()
(True, False)
>>> Budget(0.0).expired()
True
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from types import FrameType

from allocator.core.errors import TimeLimitError

#: When this process's command line began (set by :func:`allocator.cli.main`; None while the
#: application runs inside another program, as under the tests' runner): a timed command's
#: answer counts its budget from it (:func:`counting_from`).
command_started: float | None = None
#: The moment the budgets of whole answers count from (None: each from its own creation).
_origin: ContextVar[float | None] = ContextVar("budget_origin", default=None)


@contextmanager
def counting_from(moment: float | None) -> Iterator[None]:
    """Within the block, the budget of a whole answer counts from ``moment`` (a
    :func:`time.monotonic` reading; None: from the budget's creation).

    >>> import time
    >>> with counting_from(time.monotonic() - 5.0):
    ...     Budget.of_answer(2.0).expired(), Budget(2.0).expired()
    (True, False)
    """
    token = _origin.set(moment)
    try:
        yield
    finally:
        _origin.reset(token)


class Budget:
    """A time limit in seconds, counted from now (``None``: no limit)."""

    def __init__(self, seconds: float | None):
        self.seconds = seconds
        self.deadline = None if seconds is None else time.monotonic() + seconds
        #: Whether some stage stopped early: the answer is then the best found, not proven.
        self.cut_short = False

    @classmethod
    def of_answer(cls, seconds: float | None) -> Budget:
        """The budget of a whole answer: counted from the moment :func:`counting_from` gives
        (a command line's start), else from now. ``seconds`` stays the limit asked, which a
        :class:`TimeLimitError` names."""
        budget = cls(seconds)
        origin = _origin.get()
        if origin is not None and seconds is not None:
            budget.deadline = origin + seconds
        return budget

    def share(self, fraction: float) -> Budget:
        """A budget ending when ``fraction`` of what is left of this one has passed."""
        part = Budget(None if self.deadline is None else self.remaining() * fraction)
        part.seconds = self.seconds
        return part

    def remaining(self, floor: float = 0.0) -> float:
        """Seconds left (a large number without a limit), at least ``floor``."""
        if self.deadline is None:
            return 1e9
        return max(floor, self.deadline - time.monotonic())

    def expired(self) -> bool:
        return self.deadline is not None and time.monotonic() >= self.deadline

    def check(self, what: str = "a line of play") -> None:
        """Raise :class:`TimeLimitError` once the deadline has passed."""
        if self.expired():
            raise TimeLimitError(self.seconds or 0.0, what)


@contextmanager
def alarm(seconds: float, what: str, limit: float | None = None) -> Iterator[None]:
    """Raise :class:`TimeLimitError` in the block once ``seconds`` have passed, for work that
    checks no budget of its own (the resolvers' exact sums). It rings in the main thread only,
    between two steps of Python; elsewhere, or without ``SIGALRM``, the block runs unbounded.
    ``limit``: the time limit the error names, when ``seconds`` is what is left of it.

    >>> with alarm(5.0, "a sum"):
    ...     sum(range(10))
    45
    """
    if threading.current_thread() is not threading.main_thread() or not hasattr(
        signal, "setitimer"
    ):
        yield
        return

    def ring(signum: int, frame: FrameType | None) -> None:
        raise TimeLimitError(seconds if limit is None else limit, what)

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
