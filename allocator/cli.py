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

from allocator.errors import InputError

app = typer.Typer(
    help="Close-combat allocation for Crossfire building fights (and resolvers for other games).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
out = Console()
err = Console(stderr=True)

FileArg = Annotated[Path, typer.Argument(help="A scenario file (YAML or JSON).", show_default=False)]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def run_guarded(action: Callable[[], int]) -> None:
    """Run a command body: bad input is one message on stderr and exit code 2."""
    try:
        code = action()
    except InputError as exc:
        err.print(f"[bold red]error:[/] {exc}", highlight=False)
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


@app.command()
def schema() -> None:
    """Print the JSON Schema of scenario files."""
    from allocator.schema import scenario_json_schema

    print_json(scenario_json_schema())


def main() -> None:
    app()


if __name__ == "__main__":
    main()
