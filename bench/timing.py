"""What the benchmarks share: the median of repeated runs, or the least CPU time of many, timed
in this process."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def median_seconds(action: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def least_cpu_seconds(action: Callable[[], object], repeat: int) -> float:
    """The least CPU time of ``repeat`` runs: for work of a millisecond or so, where the wall
    time of a shared machine is mostly other processes' time."""
    times = []
    for _ in range(repeat):
        start = time.process_time()
        action()
        times.append(time.process_time() - start)
    return min(times)
