"""``cfalloc schema``: the JSON Schema of a file format or a JSON answer, from the registry."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from allocator.cli.console import OK, guarded, print_json


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
        from allocator.games import formats, json_schema

        if list_formats:
            sys.stdout.write("\n".join(sorted(formats())) + "\n")
        else:
            print_json(json_schema(name))
        return OK

    guarded(body)
