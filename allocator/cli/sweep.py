"""``cfalloc sweep SPEC``: one exact solve for every cell of a grid, across cores or a cluster.

The spec is read and every cell checked before any work (:func:`~allocator.games.crossfire.
sweep.load_sweep`); the cells then run on joblib's loky processes or an existing Dask cluster
(:mod:`allocator.core.parallel`), each line appended to ``--out`` as it finishes, with a rich
progress bar on stderr when it is a terminal. The lines end sorted in the grid's order.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from allocator.cli.console import OK, err, guarded, out, report
from allocator.cli.render import safe, titled_table
from allocator.core.errors import USAGE, InputError
from allocator.core.files import output_file, resolved
from allocator.core.text import percent, plural, signed

if TYPE_CHECKING:
    from allocator.games.crossfire.sweep import Sweep, SweepLine

#: What each option writes, and the suffixes its file may have.
OUTPUTS = {
    "--out": ("a results file (JSON Lines)", (".jsonl",)),
    "--csv": ("a table of results", (".csv",)),
    "--plot": ("a picture", (".png", ".svg", ".pdf")),
}


class Backend(StrEnum):
    loky = "loky"
    dask = "dask"


class CellRate(ProgressColumn):
    """Cells finished a second, as rich measures its task's speed."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("- cells/s" if speed is None else f"{speed:.1f} cells/s")


@contextmanager
def shown(progress: Progress) -> Iterator[Progress]:
    """``progress`` drawn while the block runs, when it is enabled (a disabled one started
    and stopped would still write a blank line)."""
    if progress.disable:
        yield progress
        return
    with progress:
        yield progress


def progress_bar(console: Console) -> Progress:
    """The sweep's progress: cells done of all, the rate, the time gone and the time left;
    shown only when ``console`` is a terminal."""
    return Progress(
        TextColumn("[bold]sweep[/]"),
        BarColumn(),
        MofNCompleteColumn(),
        CellRate(),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
        console=console,
        disable=not console.is_terminal,
    )


def sweep(
    spec: Annotated[
        Path, typer.Argument(help="A sweep spec (YAML or JSON; docs/sweep.md).", show_default=False)
    ],
    jobs: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="Cells solved at once on this machine, at most one per core (default: one "
            "per core; 1: one after another in this process). Not with --backend dask: the "
            "cluster's workers decide.",
            show_default=False,
        ),
    ] = None,
    backend: Annotated[
        Backend,
        typer.Option(help="loky: processes on this machine; dask: an existing Dask cluster."),
    ] = Backend.loky,
    scheduler: Annotated[
        str | None,
        typer.Option(
            help="With --backend dask: the address of the cluster's scheduler, tcp://HOST:8786.",
            show_default=False,
        ),
    ] = None,
    out_file: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help="Write the lines to this .jsonl file (JSON Lines) as the cells finish, sorted "
            "at the end; run again with the same file to resume an interrupted sweep.",
            show_default=False,
        ),
    ] = None,
    csv_file: Annotated[
        Path | None,
        typer.Option("--csv", help="Also write the results to this .csv file.", show_default=False),
    ] = None,
    plot: Annotated[
        Path | None,
        typer.Option(
            help="Draw the values as the spec's `plot:` says (.png, .svg or .pdf; needs the "
            "extra `plot`).",
            show_default=False,
        ),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the lines (JSON Lines) on stdout.")
    ] = False,
) -> None:
    """Solve every cell of a grid of variants of a scenario, exactly: one line per cell.

    A spec names a scenario and, under vary:, the values each of its paths takes
    (building.capacity: [2, 3], attacker.quality: [green, veteran]); the grid is their product,
    and every cell is checked before any work. Each cell is one exact solve, as cfalloc solve,
    with one CP-SAT worker, run on joblib's loky processes across this machine's cores, or with
    --backend dask on an existing Dask cluster. Without --out or --json the cells are shown as a
    table. A cell's line: {"cell": {path: value}, "status", "value", "value_exact", "seconds"}.

    Example: cfalloc sweep models/sweeps/farmhouse-quality.yaml --out farmhouse.jsonl --plot
    farmhouse.png (the spec's keys: docs/sweep.md, cfalloc schema sweep-spec).
    """

    def body() -> int:
        from allocator.core.parallel import require_backend, run_unordered
        from allocator.games.crossfire.sweep import ResultsFile, load_sweep, solve_cell

        _check_options(backend, jobs, scheduler)
        _check_outputs(spec, {"--out": out_file, "--csv": csv_file, "--plot": plot})
        require_backend(backend.value, scheduler)
        _within_cores(jobs)
        loaded = load_sweep(spec)
        if plot is not None:
            from allocator.cli.sweep_plot import require_plot

            require_plot(loaded)
        results = ResultsFile(loaded, out_file)
        try:
            todo = results.pending()
            with shown(progress_bar(err)) as progress:
                total, done = len(loaded.cells), results.resumed
                task = progress.add_task("cells", total=total, completed=done)
                for result in run_unordered(
                    solve_cell,
                    [loaded.task(cell) for cell in todo],
                    backend=backend.value,
                    jobs=jobs,
                    scheduler=scheduler,
                ):
                    results.add(result)
                    progress.advance(task)
        except KeyboardInterrupt:
            if out_file is not None:
                report(
                    f"interrupted: {len(results.finished):,} of {len(loaded.cells):,} cells are "
                    f"in {out_file}; run the same command again to go on"
                )
            raise
        finally:
            results.close()
        lines = results.lines()
        if csv_file is not None:
            from allocator.core.files import write_atomically
            from allocator.games.crossfire.sweep import csv_text

            write_atomically(csv_file, csv_text(loaded, lines))
        if plot is not None:
            from allocator.cli.sweep_plot import draw

            draw(loaded, lines, plot)
        if as_json:
            import sys

            sys.stdout.write("".join(line.text() + "\n" for line in lines))
        elif out_file is None:
            _render(loaded, lines)
        else:
            _summary(lines, results.resumed, out_file)
        return OK

    guarded(body, as_json)


def _check_options(backend: Backend, jobs: int | None, scheduler: str | None) -> None:
    if backend is Backend.dask and jobs is not None:
        raise InputError(
            "--jobs is for the loky backend: a Dask cluster runs as many cells at once as its "
            "workers have threads",
            place="--jobs",
            kind=USAGE,
        )
    if jobs is not None and backend is Backend.loky:
        from allocator.core.parallel import local_cores

        cores = local_cores()
        if jobs > cores:  # loky starts them all at once: --jobs 100000 would be as many processes
            raise InputError(
                f"this machine gives cfalloc {plural(cores, 'core', 'cores')}: at most {cores} "
                "cells at once (a cell's solve keeps a core busy)",
                place="--jobs",
                kind=USAGE,
            )
    if backend is Backend.loky and scheduler is not None:
        raise InputError(
            "--scheduler names a Dask scheduler: give --backend dask with it",
            place="--scheduler",
            kind=USAGE,
        )


def _within_cores(jobs: int | None) -> None:
    """More processes than cores only slow every cell down (and each holds a solver's memory)."""
    from allocator.core.parallel import local_cores

    if jobs is None:
        return
    cores = local_cores()
    if jobs > cores:
        raise InputError(
            f"this machine has {cores} cores: give --jobs {cores} or fewer (or run on a Dask "
            "cluster for more)",
            place="--jobs",
            kind=USAGE,
        )


def _check_outputs(spec: Path, outputs: dict[str, Path | None]) -> None:
    """Each file to write is of its kind (so never a scenario, a profile or a spec, which are
    .yaml, .yml or .json files), its own, a regular file if it is there, in a folder that is
    there and may be written: said before any work rather than after it."""
    seen: dict[Path, str] = {resolved(spec, file=str(spec)): "the spec"}
    for option, path in outputs.items():
        if path is None:
            continue
        kind, suffixes = OUTPUTS[option]
        if path.suffix.lower() not in suffixes:
            raise InputError(
                f"{kind} is a {', '.join(suffixes)} file, not "
                f"{repr(path.suffix) if path.suffix else 'one without a suffix'}",
                place=option,
                kind=USAGE,
            )
        found = output_file(path, option)
        if found in seen:
            raise InputError(
                f"{path} is already {seen[found]}: name another file", place=option, kind=USAGE
            )
        seen[found] = option


def _status_text(status: str) -> str:
    return "best found, not proven optimal" if status == "feasible" else status


def _render(loaded: Sweep, lines: list[SweepLine]) -> None:
    from allocator.games.crossfire.sweep import value_text

    objective = loaded.spec.objective
    title = loaded.spec.title or f"Sweep of {loaded.scenario_file}"
    # Above the table, not its title: a title wraps at the table's width, a narrow one here.
    out.print(f"{safe(title)}: {objective.title}, best for the {loaded.spec.side}", style="italic")
    table = titled_table("", [*loaded.paths, "value", "status"], right=["value", "status"])
    for line in lines:
        exact = line.value_exact
        if exact is None:
            shown = "-"
        else:
            shown = percent(exact) if objective.unit == "chance" else signed(exact, 3)
        cells = [safe(value_text(line.cell.get(path))) for path in loaded.paths]
        table.add_row(*cells, shown, _status_text(line.status))
    out.print(table)
    _warn(loaded, lines)


#: The cells a warning names, at most, before it says how many more there are.
CELLS_NAMED = 3


def _warn(loaded: Sweep, lines: list[SweepLine]) -> None:
    """Each warning of the cells once, with the cells it is about (a building that breaks B1
    in some cells is solved as given there, as ``cfalloc solve`` warns)."""
    from allocator.games.crossfire.sweep import value_text

    cells_of: dict[str, list[str]] = {}
    for line in lines:
        cell = ", ".join(f"{path}={value_text(line.cell.get(path))}" for path in loaded.paths)
        for warning in line.warnings:
            cells_of.setdefault(warning, []).append(cell or "the scenario")
    for warning, cells in cells_of.items():
        if len(cells) == len(lines):
            where = "every cell"
        else:
            named = cells[:CELLS_NAMED]
            more = len(cells) - len(named)
            where = "; ".join(named) + (f"; and {more:,} more" if more else "")
        out.print(f"[yellow]Warning[/] ({safe(where)}): {safe(warning)}", highlight=False)


def _summary(lines: list[SweepLine], resumed: int, path: Path) -> None:
    from collections import Counter

    counts = Counter(line.status for line in lines)
    said = ", ".join(f"{n:,} {_status_text(status)}" for status, n in sorted(counts.items()))
    again = f" ({resumed:,} of them from an earlier run)" if resumed else ""
    warned = sum(1 for line in lines if line.warnings)
    warnings = f"; {plural(warned, 'cell')} with warnings (in their lines)" if warned else ""
    out.print(
        f"{len(lines):,} cells{again}: {said}{warnings}; written to {safe(path)}", highlight=False
    )
