"""Benchmark: `cfalloc sweep`'s throughput on this machine against a serial run, in one process.

The shipped sweep (models/sweeps/farmhouse-quality.yaml: 108 cells, each the whole fight solved
exactly) is solved one cell after another in this process, on joblib's loky processes (one per
core) and on a Dask LocalCluster of one single-threaded worker process per core. Each backend is
warmed up first (its processes started and cfalloc imported in them), so that what is timed is
the sweep itself; the runs take turns, and each backend's best of ``--rounds`` counts, so that
other work on the machine weighs on all of them alike. Goal (issue 19): cells per second at
least 0.9 x the number of cores times the serial rate. Beside it, how many cells were being
solved at once on average: on a machine that other work keeps busy the ratio falls short while
the backend still keeps every core it is given at work.

    python bench/bench_sweep.py [--repeat K] [--rounds R] [--no-dask]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path

from allocator.core.parallel import Backend, local_cores, run_unordered
from allocator.games.crossfire.sweep import CellTask, load_sweep, solve_cell

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "models" / "sweeps" / "farmhouse-quality.yaml"
GOAL = 0.9


def tasks(repeat: int) -> list[CellTask]:
    """The shipped sweep's cells, ``repeat`` times over."""
    sweep = load_sweep(SPEC)
    return [sweep.task(cell) for cell in sweep.cells] * repeat


def cells_per_second(
    work: list[CellTask],
    backend: Backend = "loky",
    jobs: int | None = 1,
    scheduler: str | None = None,
) -> tuple[float, float]:
    """The cells solved a second, and how many were being solved at once on average (their
    ``seconds`` added up over the time of the run: the cores the backend kept busy)."""
    start = time.perf_counter()
    lines = [
        result.line
        for result in run_unordered(
            solve_cell, work, backend=backend, jobs=jobs, scheduler=scheduler
        )
    ]
    wall = time.perf_counter() - start
    assert len(lines) == len(work)
    return len(lines) / wall, sum(line.seconds for line in lines) / wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2, help="Solve the grid this many times.")
    parser.add_argument("--rounds", type=int, default=3, help="Runs of each backend (best counts).")
    parser.add_argument("--no-dask", action="store_true", help="Leave the Dask cluster out.")
    args = parser.parse_args()
    work = tasks(args.repeat)
    cores = local_cores()
    with ExitStack() as stack:
        runs: dict[str, Callable[[], tuple[float, float]]] = {
            "serial (--jobs 1)": lambda: cells_per_second(work)
        }
        runs[f"loky (--jobs {cores})"] = lambda: cells_per_second(work, jobs=cores)
        if not args.no_dask:
            from dask.distributed import LocalCluster

            cluster = stack.enter_context(
                LocalCluster(n_workers=cores, threads_per_worker=1, dashboard_address=None)
            )
            address = cluster.scheduler_address
            runs[f"dask ({cores} workers)"] = lambda: cells_per_second(work, "dask", None, address)
        for run in runs.values():  # warm up: imports, caches, processes
            run()
        best = {name: (0.0, 0.0) for name in runs}
        for _ in range(args.rounds):
            for name, run in runs.items():
                best[name] = max(best[name], run())
    serial, _ = best.pop("serial (--jobs 1)")
    print(f"{len(work)} cells of {SPEC.name} on {cores} cores, best of {args.rounds} runs each")
    print(f"    {'serial (--jobs 1):':<26}{serial:8.1f} cells/s")
    for name, (rate, busy) in best.items():
        ratio = rate / serial
        verdict = "meets" if ratio >= GOAL * cores else "misses"
        print(
            f"    {name + ':':<26}{rate:8.1f} cells/s  ratio {ratio:4.2f} x serial "
            f"({verdict} the goal of {GOAL * cores:.1f}); {busy:.2f} cells solved at once"
        )


if __name__ == "__main__":
    main()
