"""The time budget of one answer: a deadline that every stage of the work checks.

A budget starts when the work starts, so that reading, model building and every solver call
share one time limit. :meth:`Budget.check` raises when the deadline has passed;
:meth:`Budget.remaining` is what a solver call may still use.

>>> budget = Budget(5.0)
>>> 0 < budget.remaining() <= 5.0, budget.expired()
(True, False)
>>> Budget(0.0).expired()
True
"""

from __future__ import annotations

import time

from allocator.core.errors import TimeLimitError


class Budget:
    """A time limit in seconds, counted from now (``None``: no limit)."""

    def __init__(self, seconds: float | None):
        self.seconds = seconds
        self.deadline = None if seconds is None else time.monotonic() + seconds
        #: Whether some stage stopped early: the answer is then the best found, not proven.
        self.cut_short = False

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
