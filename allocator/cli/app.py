"""The ``cfalloc`` application: its commands, ``--version`` and ``schema``."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

import allocator
from allocator.cli.console import EXIT_CODES_HELP, OK, guarded, out, print_json

app = typer.Typer(
    help="Close-combat allocation for Crossfire building fights (and resolvers for other "
    f"games). {EXIT_CODES_HELP}",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _version(value: bool) -> None:
    if value:
        out.print(f"cfalloc {allocator.__version__}")
        raise typer.Exit()


@app.callback()
def main_options(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version."),
    ] = False,
) -> None:
    """Close-combat allocation for Crossfire building fights."""


@app.command()
def schema(
    name: Annotated[
        str,
        typer.Argument(
            help="Which file format or answer: scenario, organisation, check-answer, ..."
        ),
    ] = "scenario",
    list_formats: Annotated[bool, typer.Option("--list", help="List the formats.")] = False,
) -> None:
    """Print the JSON Schema of a file format or a JSON answer (scenario files by default)."""

    def body() -> int:
        from allocator.games import FORMATS, json_schema

        if list_formats:
            sys.stdout.write("\n".join(sorted(FORMATS)) + "\n")
        else:
            print_json(json_schema(name))
        return OK

    guarded(body)


def _mount() -> None:
    from allocator.cli.crossfire import register
    from allocator.games.resolve_commands import app as resolve_app
    from allocator.cli.serve import serve

    register(app)
    app.add_typer(resolve_app, name="resolve", help="Odds and legality for other rule systems.")
    app.command("serve")(serve)


_mount()


def run() -> None:
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    app()
