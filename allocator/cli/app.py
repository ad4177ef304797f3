"""The ``cfalloc`` application: ``--version`` and its command groups, one module each.

* :mod:`allocator.cli.crossfire`: ``check``, ``solve``, ``explain``, ``simulate``, ``play``;
* :mod:`allocator.cli.planning`: ``plan`` and ``compare``;
* :mod:`allocator.cli.resolve`: ``resolve SYSTEM``, built from the games' registry;
* :mod:`allocator.cli.sweep`: ``sweep``, a grid of exact solves (and its picture,
  :mod:`allocator.cli.sweep_plot`);
* :mod:`allocator.cli.serve`: ``serve``, the web page;
* :mod:`allocator.cli.schema`: ``schema``.
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

import allocator
from allocator.cli import crossfire, planning
from allocator.cli.console import EXIT_CODES_HELP, GuardedGroup, out
from allocator.cli.resolve import resolve_app
from allocator.cli.schema import schema
from allocator.cli.serve import serve
from allocator.cli.sweep import sweep

app = typer.Typer(
    name="cfalloc",
    cls=GuardedGroup,
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


crossfire.register(app)
app.command()(sweep)
planning.register(app)
app.command()(schema)
app.add_typer(resolve_app(), name="resolve")
app.command("serve")(serve)


def run() -> None:
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    app()
