"""The ``cfalloc`` command line (Typer + rich). Every command has ``--json``.

Exit codes: 0 fine (legal), 1 rules broken, 2 bad input. Heavy modules (OR-Tools, the solver)
are imported inside the commands that need them, so that ``cfalloc check`` starts fast.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from allocator.errors import InputError

app = typer.Typer(
    help="Close-combat allocation for Crossfire building fights (and resolvers for other games).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
out = Console()
err = Console(stderr=True, soft_wrap=True)

FileArg = Annotated[
    Path, typer.Argument(help="A scenario file (YAML or JSON).", show_default=False)
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def run_guarded(action: Callable[[], int]) -> None:
    """Run a command body: bad input is one message on stderr and exit code 2."""
    try:
        code = action()
    except InputError as exc:
        err.print(f"[bold red]error:[/] {escape(str(exc))}", highlight=False)
        raise typer.Exit(2) from None
    raise typer.Exit(code)


@app.command()
def check(file: FileArg, as_json: JsonOpt = False) -> None:
    """Check a scenario's allocation: exit 0 legal, 1 rules broken, 2 bad input."""

    def body() -> int:
        from allocator.battle import load_battle
        from allocator.check import check_battle
        from allocator.report import render_check

        battle = load_battle(file)
        report = check_battle(battle)
        if as_json:
            print_json(report.to_json())
        else:
            render_check(out, battle, report)
        return 0 if report.legal else 1

    run_guarded(body)


Side = Annotated[str, typer.Option(help="Whose best allocation: attacker or defender.")]
Objective = Annotated[
    str, typer.Option(help="sweep: P(attacker wins every combat); exchange: expected stands.")
]


def _choice(value: str, allowed: tuple[str, ...], option: str) -> str:
    if value not in allowed:
        raise InputError(f"{option} must be one of {', '.join(allowed)}, not '{value}'")
    return value


@app.command()
def solve(
    file: FileArg,
    side: Side = "defender",
    objective: Objective = "sweep",
    time_limit: Annotated[float, typer.Option(help="Seconds before the search stops.")] = 10.0,
    as_json: JsonOpt = False,
) -> None:
    """Find the best allocation for either side, exactly, with the odds that make it best."""

    def body() -> int:
        from allocator.battle import load_battle
        from allocator.report import render_solve
        from allocator.solve import solve as solve_battle

        battle = load_battle(file)
        result = solve_battle(
            battle,
            _choice(side, ("attacker", "defender"), "--side"),
            _choice(objective, ("sweep", "exchange"), "--objective"),
            time_limit,
        )
        if as_json:
            print_json(result.to_json())
        else:
            render_solve(out, battle, result)
        return 0

    run_guarded(body)


@app.command()
def simulate(
    file: FileArg,
    rounds: Annotated[int, typer.Option(min=1, help="Rounds to play at most (7b).")] = 1,
    seed: Annotated[int, typer.Option(help="Seed of the dice, for a repeatable roll.")] = 1,
    trials: Annotated[
        int, typer.Option(min=0, help="Roll the first round this many times and compare.")
    ] = 0,
    objective: Objective = "sweep",
    as_json: JsonOpt = False,
) -> None:
    """Roll the dice for a complete allocation (or the best line when the file has none)."""

    def body() -> int:
        from allocator.battle import load_battle
        from allocator.report import render_simulation, render_trials
        from allocator.simulate import simulate as simulate_battle
        from allocator.simulate import trials as run_trials

        battle = load_battle(file)
        _choice(objective, ("sweep", "exchange"), "--objective")
        if trials:
            data = run_trials(battle, trials, seed, objective)
            print_json(data) if as_json else render_trials(out, data)
        else:
            data = simulate_battle(battle, rounds, seed, objective)
            print_json(data) if as_json else render_simulation(out, data)
        return 0

    run_guarded(body)


@app.command()
def explain(file: FileArg, objective: Objective = "sweep", as_json: JsonOpt = False) -> None:
    """Walk through the procedure step by step: the file's allocation, or the optimal line."""

    def body() -> int:
        from allocator.battle import load_battle
        from allocator.explain import explain as explain_battle
        from allocator.report import render_explain

        data = explain_battle(
            load_battle(file), _choice(objective, ("sweep", "exchange"), "--objective")
        )
        print_json(data) if as_json else render_explain(out, data)
        return 0

    run_guarded(body)


@app.command()
def schema(
    name: Annotated[
        str,
        typer.Argument(help="Which file format: scenario, organisation, crossfire-profile, ..."),
    ] = "scenario",
    list_formats: Annotated[bool, typer.Option("--list", help="List the file formats.")] = False,
) -> None:
    """Print the JSON Schema of a file format (scenario files by default)."""

    def body() -> int:
        from allocator.file_formats import FORMATS, json_schema

        if list_formats:
            sys.stdout.write("\n".join(sorted(FORMATS)) + "\n")
        else:
            print_json(json_schema(name))
        return 0

    run_guarded(body)


def _mount_web() -> None:
    from allocator.web.cli import serve

    app.command("serve")(serve)


def _mount_resolvers() -> None:
    from allocator.resolvers.cli import app as resolvers_app

    app.add_typer(resolvers_app, name="resolve", help="Odds and legality for other rule systems.")


_mount_resolvers()
_mount_web()


def main() -> None:
    app()


if __name__ == "__main__":
    main()
