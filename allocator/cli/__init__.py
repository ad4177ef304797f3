"""The ``cfalloc`` command line (Typer + rich): every command has ``--help`` and ``--json``.

* :mod:`allocator.cli.app`: the application, ``--version``, ``schema`` and where the other
  commands come from (Crossfire's in :mod:`allocator.games.crossfire.commands`, the other games'
  in :mod:`allocator.games.resolve_commands`, the web page's in :mod:`allocator.web.cli`);
* :mod:`allocator.cli.console`: the one Console pair and the one error boundary, so that exit
  codes mean the same for every command.
"""

from __future__ import annotations


def main() -> None:
    """The ``cfalloc`` entry point: the limits of the environment first (the options' bounds
    come from them), then the application."""
    import sys

    from allocator.cli.console import BAD_INPUT, report
    from allocator.core.errors import InputError
    from allocator.core.limits import default_limits

    try:
        default_limits()
    except InputError as error:
        report(str(error))
        sys.exit(BAD_INPUT)
    from allocator.cli.app import run

    run()
