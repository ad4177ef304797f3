"""Benchmark: `cfalloc sweep`'s throughput on this machine against a serial run, in one process.

The shipped sweep (models/sweeps/farmhouse-quality.yaml: 108 cells, each the whole fight solved
exactly) is solved one cell after another in this process, then on joblib's loky processes (one
per core), then on a Dask LocalCluster of one single-threaded worker process per core. Each
backend is warmed up first (its processes started and cfalloc imported in them), so that what
is timed is the sweep itself. Goal (issue 19): cells per second at least 0.9 x the number of
cores times the serial rate.

    python bench/bench_sweep.py [--repeat K] [--no-dask]
"""

from __future__ import annotations

import argparse
import time
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
) -> float:
    start = time.perf_counter()
    done = sum(
        1 for _ in run_unordered(solve_cell, work, backend=backend, jobs=jobs, scheduler=scheduler)
    )
    assert done == len(work)
    return done / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2, help="Solve the grid this many times.")
    parser.add_argument("--no-dask", action="store_true", help="Leave the Dask cluster out.")
    args = parser.parse_args()
    work = tasks(args.repeat)
    cores = local_cores()
    cells_per_second(work[:4])  # warm up: imports, caches
    serial = cells_per_second(work)
    print(f"{len(work)} cells of {SPEC.name} on {cores} cores")
    print(f"    serial (--jobs 1):        {serial:8.1f} cells/s")
    cells_per_second(work[: 4 * cores], jobs=cores)  # start the loky processes
    loky = cells_per_second(work, jobs=cores)
    rows = [(f"loky (--jobs {cores})", loky)]
    if not args.no_dask:
        from dask.distributed import LocalCluster

        with LocalCluster(n_workers=cores, threads_per_worker=1, dashboard_address=None) as cluster:
            address = cluster.scheduler_address
            cells_per_second(work[: 4 * cores], "dask", None, address)  # import cfalloc there
            rows.append((f"dask ({cores} workers)", cells_per_second(work, "dask", None, address)))
    for name, rate in rows:
        ratio = rate / serial
        verdict = "meets" if ratio >= GOAL * cores else "misses"
        print(
            f"    {name + ':':<26}{rate:8.1f} cells/s  ratio {ratio:4.2f} x serial "
            f"({verdict} the goal of {GOAL * cores:.1f})"
        )


if __name__ == "__main__":
    main()
