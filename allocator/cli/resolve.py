"""``cfalloc resolve NAME ...``: exact odds and legality for the other systems, from the registry.

Every subcommand is built the same way from its game's
:class:`~allocator.core.game.ResolveCommand`: the file as an optional argument, the quick-roll
flags where the game has them, its profile option, ``--example`` (print a shipped example;
with ``--run``, run it), ``--time-limit`` and ``--json``. It prints a readable report in
players' words, or with ``--json`` the typed ``ResolveAnswer`` (exact numbers as ``"p/q"``
beside their floats). Bad input is one line on stderr and exit code 2, before the time limit
starts; an answer not found within it is exit 3.

    cfalloc resolve infinity --active 13/2 --reactive 12/1 --json
    cfalloc resolve matched-dice --attacker 3 --defender 2 --ties defender --json
    cfalloc resolve matched-dice --defender 3 --rounds 4 --plan 80%
    cfalloc resolve percentile --example > pillbox.yaml
    cfalloc resolve percentile --example --run

The subcommands are built only when ``cfalloc resolve`` runs (:class:`ResolveGroup`), so the
other commands never import the games' modules.
"""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer
from typer.core import TyperCommand, TyperGroup

from allocator.cli.console import OK, guarded, out, print_json
from allocator.cli.options import TimeOption, within_time_limit
from allocator.cli.render import safe, titled_table

if TYPE_CHECKING:  # the games' side is imported only when `cfalloc resolve` runs
    from pydantic import BaseModel
    from rich.console import RenderableType

    from allocator.core.game import ResolveCommand
    from allocator.core.report import Cell, Part, Report
    from allocator.core.resolution import Resolution

T = TypeVar("T")

HELP = (
    "Exact odds and legality for the other close-combat systems "
    "(Infinity, matched dice, Battlesystem buildings, percentile assault)."
)

#: The options every subcommand has, so that no quick-roll flag may take their names.
COMMON = ("file", "profile", "example", "example_name", "run_example", "time_limit", "as_json")


class ResolveGroup(TyperGroup):
    """The subcommands of ``cfalloc resolve``, built from the registry when first asked for."""

    def _build(self) -> None:
        if not self.commands:
            from allocator.games import resolve_commands

            for name, command in resolve_commands().items():
                self.add_command(build(command), name)

    def list_commands(self, ctx: Any) -> list[str]:
        self._build()
        return super().list_commands(ctx)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        self._build()
        return super().get_command(ctx, cmd_name)


def resolve_app() -> typer.Typer:
    """The ``cfalloc resolve`` group, its subcommands still to be built."""
    return typer.Typer(cls=ResolveGroup, help=HELP, no_args_is_help=True, rich_markup_mode=None)


def build(command: ResolveCommand) -> Any:
    """The Typer (click) command of one ``ResolveCommand``.

    >>> from allocator.games import resolve_commands
    >>> [p.name for p in build(resolve_commands()["percentile"]).params][:3]
    ['file', 'profile', 'example']
    """

    def run(**values: Any) -> None:
        guarded(lambda: answer(command, values), values["as_json"])

    class Command(TyperCommand):
        """The command, whose flags' help gains their choices when it is shown."""

        def format_help(self, ctx: Any, formatter: Any) -> None:
            helps = {name: text for name, _, text in command.options(choices=True)}
            for param in self.params:
                if param.name in helps:
                    param.help = helps[param.name]  # type: ignore[attr-defined]
            super().format_help(ctx, formatter)

    app = typer.Typer(add_completion=False, rich_markup_mode=None)
    run.__signature__ = inspect.Signature(parameters(command))  # type: ignore[attr-defined]
    app.command(command.name, help=command.summary, cls=Command)(run)
    return typer.main.get_command(app)


def parameters(command: ResolveCommand) -> list[inspect.Parameter]:
    """The command line of one command: the file, the flags, the profile, the common options.

    Raises
    ------
    InternalError
        When a quick-roll flag takes the name of a common option.
    """
    from allocator.core.errors import InternalError

    def option(name: str, annotation: Any, default: Any = None) -> inspect.Parameter:
        keyword = inspect.Parameter.KEYWORD_ONLY
        return inspect.Parameter(name, keyword, default=default, annotation=annotation)

    found = [
        inspect.Parameter(
            "file",
            inspect.Parameter.POSITIONAL_OR_KEYWORD,
            default=None,
            annotation=Annotated[
                Path | None, typer.Argument(metavar="FILE", help=command.file, show_default=False)
            ],
        )
    ]
    for name, kind, help_text in command.options():
        if name in COMMON:
            raise InternalError(f"{command.name}: the flag {name} is a common option's name")
        flag = "--" + name.replace("_", "-")
        # a flag given as often as wanted is shown as the text it takes each time
        shown = "<str>" if kind == list[str] else None
        given = typer.Option(flag, help=help_text, show_default=False, metavar=shown)
        found.append(option(name, Annotated[kind | None, given]))
    if command.profile is not None:
        profile = typer.Option(command.profile.flag, help=command.profile.help, show_default=False)
        found.append(option("profile", Annotated[Path | None, profile]))
    found += [
        option(
            "example",
            Annotated[
                bool,
                typer.Option(
                    "--example",
                    help="Print a shipped example file to start from (edit it, then run it); "
                    "with --run, run it.",
                ),
            ],
            False,
        ),
        option(
            "example_name",
            Annotated[
                str | None,
                typer.Option(
                    "--example-name",
                    help="Which shipped example --example prints or runs (the error lists the "
                    "names).",
                    show_default=False,
                ),
            ],
        ),
        option(
            "run_example",
            Annotated[
                bool, typer.Option("--run", help="With --example: run the example, not print it.")
            ],
            False,
        ),
        option("time_limit", TimeOption, 10.0),
        option(
            "as_json",
            Annotated[bool, typer.Option("--json", help="Print the exact answer as JSON.")],
            False,
        ),
    ]
    return found


def example_file(command: ResolveCommand, name: str | None) -> Path:
    """A shipped example of ``command``: ``name``, or its default one."""
    from allocator.core.library import names, shipped

    return shipped(
        "scenarios",
        name or command.example,
        what=f"{command.name} example",
        subfolder=command.name,
        known=names("scenarios", command.name),
    )


def answer(command: ResolveCommand, values: dict[str, Any]) -> int:
    """Print the example, or read the input, resolve within the time limit and print the answer."""
    from allocator.core.budget import Budget
    from allocator.core.errors import InputError
    from allocator.core.game import Given

    file: Path | None = values["file"]
    if values["example"] or values["example_name"] is not None:
        example = example_file(command, values["example_name"])
        if not values["run_example"]:
            sys.stdout.write(example.read_text(encoding="utf-8"))
            return OK
        if file is not None:
            raise InputError("give a file or --example --run, not both")
        file = example
    elif values["run_example"]:
        raise InputError("--run runs a shipped example: give --example (or --example-name) too")
    time_limit: float = values["time_limit"]
    within_time_limit(time_limit)
    flags = {
        name: values[name] for name, _, _ in command.options() if values[name] not in (None, [])
    }
    roll = quick_roll(command, flags) if flags else None
    work = located(file, lambda: command.prepare(Given(file, roll, values.get("profile"))))
    budget = Budget.of_answer(time_limit)
    resolution = located(file, lambda: work(budget))
    if values["as_json"]:
        from allocator.games.answer import resolve_answer

        print_json(resolve_answer(resolution).to_json())
    else:
        show(resolution, command.report(resolution))
    return OK


def flag_name(place: str) -> str:
    """The flag a place of the quick-roll model names: ``active_skill[1]`` is ``--active-skill``.

    >>> flag_name("active_skill[1]"), flag_name("rules")
    ('--active-skill', '--rules')
    """
    return "--" + place.split("[")[0].split(".")[0].replace("_", "-")


def quick_roll(command: ResolveCommand, flags: dict[str, Any]) -> BaseModel | None:
    """The flags given, as the command's quick-roll model; a bad one is an InputError naming
    the flag (``--rules: Input should be 'n4' or 'n5' (got 'n6')``)."""
    from allocator.core.errors import InputError
    from allocator.core.validation import validate

    if command.quick_roll is None:
        return None
    try:
        return validate(command.quick_roll, flags)
    except InputError as error:
        for problem in error.problems():
            problem.place = flag_name(problem.place) if problem.place else None
        raise error from None


def located(file: Path | None, work: Callable[[], T]) -> T:
    """Run ``work``; an InputError that names no file names ``file``."""
    from allocator.core.errors import InputError

    try:
        return work()
    except InputError as error:
        raise error.located(str(file) if file else None) from None


def show(resolution: Resolution, report: Report) -> None:
    """The readable answer: the outcomes in words, the game's report, violations, steps."""
    from allocator.core.exact import fraction_text
    from allocator.core.text import percent

    out.print(f"[bold]{safe(report.title)}[/]")
    if resolution.distribution:
        table = titled_table("Outcomes", ("outcome", "chance", "exact"), right=("chance", "exact"))
        for outcome, p in resolution.distribution.items():
            table.add_row(safe(report.outcomes.get(outcome, outcome)), percent(p), fraction_text(p))
        out.print(table)
    for part in report.parts:
        out.print(draw(part))
    if resolution.violations:
        out.print("[bold red]Not allowed:[/]")
        for violation in resolution.violations:
            out.print(f"  [red]{safe(violation.rule)}[/] {safe(violation.message)}")
    if resolution.steps:
        out.print("[bold]How it was worked out:[/]")
        for number, step in enumerate(resolution.steps, 1):
            out.print(f"  [dim]{number}.[/] {safe(step)}")


def cell(value: Cell) -> str:
    """One cell of a game's table: a text made safe, or a yes/no answer in colour."""
    if isinstance(value, bool):
        return "[green]yes[/]" if value else "[red]no[/]"
    return safe(value)


def draw(part: Part) -> RenderableType:
    """One part of a game's report, ready for ``Console.print``: every text made safe.

    >>> from allocator.core.report import Note
    >>> draw(Note("[b]check[/b] the profile"))
    '[yellow]Note:[/] \\\\[b]check\\\\[/b] the profile'
    """
    from allocator.core.report import Note, Table

    if isinstance(part, Note):
        return f"[yellow]Note:[/] {safe(part.text)}"
    if isinstance(part, Table):
        table = titled_table(safe(part.title), [safe(c) for c in part.columns], part.right)
        if part.caption:
            table.caption, table.caption_justify = safe(part.caption), "left"
        for row in part.rows:
            table.add_row(*(cell(value) for value in row))
        return table
    return safe(part)
