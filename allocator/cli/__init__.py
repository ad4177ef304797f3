"""The ``cfalloc`` command line (Typer + rich): every command has ``--help`` and ``--json``.

Every command lives here, never in a game or in the web package:

* :mod:`allocator.cli.app`: the application and ``--version``, mounting the groups below;
* :mod:`allocator.cli.crossfire` (with its reports, :mod:`allocator.cli.crossfire_report`):
  ``check``, ``solve``, ``explain``, ``simulate``, ``play``;
* :mod:`allocator.cli.resolve`: ``resolve SYSTEM``, each subcommand built from a game's
  :class:`~allocator.core.game.ResolveCommand` in the registry;
* :mod:`allocator.cli.sweep`: ``sweep`` (a grid of exact solves; its picture in
  :mod:`allocator.cli.sweep_plot`);
* :mod:`allocator.cli.serve`: ``serve`` (the web page); :mod:`allocator.cli.schema`: ``schema``;
* :mod:`allocator.cli.console`: the one Console pair and the one error boundary, so that exit
  codes mean the same for every command; :mod:`allocator.cli.options`: the shared options;
  :mod:`allocator.cli.render`: user text made safe for rich markup, titled tables.
"""

from __future__ import annotations


def main() -> None:
    """The ``cfalloc`` entry point: the limits of the environment first (the options' bounds
    come from them), then the application. Ctrl+C at any moment, even while the modules are
    still being imported, ends it quietly with exit code 130. A command's time limit counts
    from the start of the process: its start-up is part of the answer's time."""
    try:
        import sys

        from allocator.core.budget import answer_started, process_started

        started = process_started()
        from allocator.cli.console import BAD_INPUT, say
        from allocator.core.errors import InputError
        from allocator.core.limits import default_limits

        try:
            default_limits()
        except InputError as error:  # before the options are read: --json as it is written
            say(error, "--json" in sys.argv[1:])
            sys.exit(BAD_INPUT)
        from allocator.cli.app import run

        with answer_started(started):
            run()
    except KeyboardInterrupt:
        raise SystemExit(130) from None
