"""The time budget and the alarm that bounds work which checks no budget of its own."""

from __future__ import annotations

import signal
import threading
import time

import pytest

from allocator.core.budget import Budget, alarm
from allocator.core.errors import TimeLimitError


def test_the_alarm_stops_plain_python_work_and_names_it() -> None:
    with (
        pytest.raises(TimeLimitError, match=r"a long sum was not found in 0\.05 s"),
        alarm(0.05, "a long sum"),
    ):
        while True:
            sum(range(1000))


def test_the_alarm_is_put_away_after_its_block() -> None:
    before = signal.getsignal(signal.SIGALRM)
    with alarm(5.0, "nothing"):
        pass
    assert signal.getsignal(signal.SIGALRM) == before
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_outside_the_main_thread_the_alarm_leaves_the_work_alone() -> None:
    done: list[bool] = []

    def work() -> None:
        with alarm(0.01, "work in a thread"):
            time.sleep(0.05)
        done.append(True)

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    assert done == [True]


def test_a_budget_shared_out_keeps_its_own_limit_for_its_messages() -> None:
    part = Budget(10.0).share(0.5)
    assert part.seconds == 10.0 and 0 < part.remaining() <= 5.0
    with pytest.raises(TimeLimitError, match="in 0 s"):
        Budget(0.0).check("nothing")
