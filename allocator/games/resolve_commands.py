"""``cfalloc resolve SYSTEM ...``: exact odds and legality for the other systems.

Every command prints a readable report in players' words, or with ``--json`` the typed
:class:`~allocator.core.resolution.ResolveAnswer` (exact numbers as ``"p/q"`` beside their
floats). ``--example`` prints a shipped example file to start from. Bad input gives one line on
stderr and exit code 2.

    cfalloc resolve infinity --active 13/2 --reactive 12/1 --json
    cfalloc resolve matched-dice --attacker 3 --defender 2 --ties defender --json
    cfalloc resolve percentile --example > pillbox.yaml
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, TypeVar

import typer

from allocator.cli.console import OK, guarded, out, print_json
from allocator.cli.options import TimeOption, within_time_limit
from allocator.core.budget import Budget, alarm
from allocator.core.errors import InputError, InternalError
from allocator.core.exact import fraction_text
from allocator.core.library import names, shipped
from allocator.core.text import percent, safe, titled_table
from allocator.core.validation import load_file, validate

if TYPE_CHECKING:
    from rich.console import RenderableType

    from allocator.core.resolution import Resolution

DetailsT = TypeVar("DetailsT")

app = typer.Typer(
    help="Exact odds and legality for the other close-combat systems "
    "(Infinity, matched dice, Battlesystem buildings, percentile assault).",
    no_args_is_help=True,
)

#: The example ``--example`` prints for each command; all of them are in
#: ``models/scenarios/<command>/``.
DEFAULT_EXAMPLES = {
    "infinity": "melee",
    "infinity-allocate": "sniper",
    "matched-dice": "assault-grid",
    "battlesystem": "keep-gatehouse",
    "percentile": "pillbox",
}

JsonOption = Annotated[bool, typer.Option("--json", help="Print the exact answer as JSON.")]
ProfileOption = Annotated[
    Path | None, typer.Option(help="A ruleset profile file replacing the shipped one.")
]
ExampleOption = Annotated[
    bool,
    typer.Option(
        "--example", help="Print a shipped example file to start from (edit it, then run it)."
    ),
]
ExampleNameOption = Annotated[
    str | None,
    typer.Option(
        "--example-name",
        help="Which shipped example --example prints (the error lists the names).",
        show_default=False,
    ),
]

#: Exact fractions longer than this are left to --json in the readable table.
SHORT_FRACTION = 15


def print_example(command: str, name: str | None) -> None:
    """Write a shipped example file of ``command`` to stdout, as it is."""
    path = shipped(
        "scenarios",
        name or DEFAULT_EXAMPLES[command],
        what=f"{command} example",
        subfolder=command,
        known=names("scenarios", command),
    )
    sys.stdout.write(path.read_text(encoding="utf-8"))


def show(
    resolution: Resolution,
    *,
    title: str,
    words: dict[str, str],
    details: Sequence[RenderableType] = (),
) -> None:
    """The readable report: the outcomes in words, the system's details, violations, steps.

    ``title`` and ``words`` are markup-free texts of cfalloc's own; every user text is escaped.
    """
    out.print(f"[bold]{safe(title)}[/]")
    if resolution.distribution:
        table = titled_table("Outcomes", ("outcome", "chance", "exact"), right=("chance", "exact"))
        for outcome, p in resolution.distribution.items():
            exact = fraction_text(p)
            table.add_row(
                safe(words.get(outcome, outcome)),
                percent(p),
                exact if len(exact) <= SHORT_FRACTION else "see --json",
            )
        out.print(table)
    for part in details:
        out.print(part)
    if resolution.violations:
        out.print("[bold red]Not allowed:[/]")
        for violation in resolution.violations:
            out.print(f"  [red]{safe(violation.rule)}[/] {safe(violation.message)}")
    if resolution.steps:
        out.print("[bold]How it was worked out:[/]")
        for number, step in enumerate(resolution.steps, 1):
            out.print(f"  [dim]{number}.[/] {safe(step)}")


def _run(
    command: Callable[[], Resolution],
    as_json: bool,
    report: Callable[[Resolution], None],
    example: tuple[str, bool, str | None],
    time_limit: float,
) -> None:
    """Print the example, or resolve and print the answer; every failure is one line.

    The resolution keeps to ``time_limit``: exit 3, saying so, when it would take longer.
    """

    def body() -> int:
        name, wanted, chosen = example
        if wanted or chosen is not None:
            print_example(name, chosen)
            return OK
        within_time_limit(time_limit)
        with alarm(time_limit, "the exact answer"):
            resolution = command()
        if as_json:
            print_json(resolution.answer().to_json())
        else:
            report(resolution)
        return OK

    guarded(body)


def given_file(path: Path | None, what: str) -> Path:
    """The file a command needs: without one, say so (and that --example gives one)."""
    if path is None:
        raise InputError(f"give the {what} (or --example for one to start from)")
    return path


def _located(file: Path | None, work: Callable[[], Resolution]) -> Resolution:
    """Run ``work``; an InputError without a file names ``file``."""
    try:
        return work()
    except InputError as error:
        raise error.located(str(file) if file else None) from None


def details_of(resolution: Resolution, kind: type[DetailsT]) -> DetailsT:
    """The resolution's details, which a command knows to be of ``kind``."""
    if not isinstance(resolution.details, kind):
        raise InternalError(f"{resolution.system} answered without its {kind.__name__}")
    return resolution.details


@app.command()
def infinity(
    active: Annotated[str | None, typer.Option(help="Active roll: SV/B or ATTR+MOD/B.")] = None,
    reactive: Annotated[str, typer.Option(help="Reactive roll; 0/0: none (Normal Roll).")] = "0/0",
    active_damage: Annotated[int | None, typer.Option(help="DAM of the active's hits.")] = None,
    reactive_damage: Annotated[int | None, typer.Option(help="DAM of the reactive's hits.")] = None,
    active_ammo: Annotated[str, typer.Option(help="N, DA or EXP.")] = "N",
    reactive_ammo: Annotated[str, typer.Option(help="N, DA or EXP.")] = "N",
    active_armour: Annotated[int, typer.Option(help="ARM of the active trooper.")] = 0,
    reactive_armour: Annotated[int, typer.Option(help="ARM of the reactive trooper.")] = 0,
    file: Annotated[
        Path | None, typer.Option(help="An engagement file (YAML/JSON) instead.")
    ] = None,
    profile: ProfileOption = None,
    example: ExampleOption = False,
    example_name: ExampleNameOption = None,
    time_limit: TimeOption = 10.0,
    as_json: JsonOption = False,
) -> None:
    """Face to Face (or Normal) roll: who wins, the hits that get through, and the wounds."""

    def command() -> Resolution:
        from allocator.games.infinity.rolls import (
            InfinityEngagement,
            InfinityResolver,
            load_infinity_profile,
            parse_roller,
        )

        if (file is None) == (active is None):
            raise InputError("give either --active (with --reactive) or --file")
        if file:
            engagement = load_file(InfinityEngagement, file)
        else:
            sides = {}
            for side, text, damage, ammo, armour in (
                ("active", active or "", active_damage, active_ammo, active_armour),
                ("reactive", reactive, reactive_damage, reactive_ammo, reactive_armour),
            ):
                try:
                    roll = parse_roller(text)
                except InputError as error:
                    raise error.located(None, f"--{side}") from None
                sides[side] = {**roll, "damage": damage, "ammunition": ammo, "armour": armour}
            engagement = validate(InfinityEngagement, sides)
        resolver = InfinityResolver(load_infinity_profile(profile))
        return _located(file, lambda: resolver.resolve(engagement))

    def report(resolution: Resolution) -> None:
        from allocator.core.resolution import InfinityDetails
        from allocator.games.infinity.report import infinity_report
        from allocator.games.infinity.rolls import OUTCOME_WORDS

        details = details_of(resolution, InfinityDetails)
        both_roll = details.active.burst and details.reactive.burst
        show(
            resolution,
            title="Infinity close combat: " + ("Face to Face roll" if both_roll else "Normal Roll"),
            words=OUTCOME_WORDS,
            details=infinity_report(details),
        )

    _run(command, as_json, report, ("infinity", example, example_name), time_limit)


@app.command("infinity-allocate")
def infinity_allocate(
    file: Annotated[
        Path | None, typer.Argument(help="Free troopers, enemy targets and the target.")
    ] = None,
    profile: ProfileOption = None,
    example: ExampleOption = False,
    example_name: ExampleNameOption = None,
    time_limit: TimeOption = 10.0,
    as_json: JsonOption = False,
) -> None:
    """The contact arrangement that maximises the chance of a wound on the chosen target."""

    def command() -> Resolution:
        from allocator.games.infinity.allocate import AllocationProblem, allocation_resolution
        from allocator.games.infinity.rolls import load_infinity_profile

        budget = Budget(time_limit)
        problem = load_file(AllocationProblem, given_file(file, "allocation file"))
        rules = load_infinity_profile(profile)
        return _located(file, lambda: allocation_resolution(problem, rules, budget=budget))

    def report(resolution: Resolution) -> None:
        from allocator.core.resolution import AllocationDetails
        from allocator.games.infinity.report import allocation_report

        details = details_of(resolution, AllocationDetails)
        show(
            resolution,
            title=f"Infinity: the best contacts to wound {details.target}",
            words={"at_least_one_wound": f"at least one wound on {details.target}"},
            details=allocation_report(details),
        )

    _run(command, as_json, report, ("infinity-allocate", example, example_name), time_limit)


@app.command("matched-dice")
def matched_dice(
    attacker: Annotated[int | None, typer.Option(help="Unwounded assaulting SPs.")] = None,
    defender: Annotated[int | None, typer.Option(help="Unwounded defending SPs.")] = None,
    ties: Annotated[
        str | None,
        typer.Option(
            metavar="cancel|defender",
            help="Equal dice: cancel (as written: nothing happens) or defender (Risk: the "
            "defender wins them). Default: the profile's.",
        ),
    ] = None,
    rounds: Annotated[int | None, typer.Option(help="Chain this many rounds.")] = None,
    quality: Annotated[
        str | None,
        typer.Option(
            help="Attacker quality, one of the profile's attack_limits (shipped: veteran, "
            "elite, regular, inferior): its attack limit caps the rounds."
        ),
    ] = None,
    file: Annotated[
        Path | None, typer.Option(help="An assault file with bases on the grid.")
    ] = None,
    profile: ProfileOption = None,
    example: ExampleOption = False,
    example_name: ExampleNameOption = None,
    time_limit: TimeOption = 10.0,
    as_json: JsonOption = False,
) -> None:
    """One roll of matched dice, or with --rounds / --quality the whole chain of rounds."""

    def command() -> Resolution:
        from allocator.games.matched_dice.assault import (
            MatchedDiceEngagement,
            MatchedDiceResolver,
            load_matched_dice_profile,
        )

        options = {
            "attacker": attacker,
            "defender": defender,
            "ties": ties,
            "rounds": rounds,
            "quality": quality,
        }
        given = {key: value for key, value in options.items() if value is not None}
        if file:
            engagement = load_file(MatchedDiceEngagement, file)
            engagement = validate(MatchedDiceEngagement, {**engagement.model_dump(), **given})
        else:
            engagement = validate(MatchedDiceEngagement, given)
        resolver = MatchedDiceResolver(load_matched_dice_profile(profile))
        return _located(file, lambda: resolver.resolve(engagement))

    def report(resolution: Resolution) -> None:
        from allocator.core.resolution import MatchedDiceDetails
        from allocator.games.matched_dice.assault import OUTCOME_WORDS
        from allocator.games.matched_dice.report import matched_dice_report

        details = details_of(resolution, MatchedDiceDetails)
        show(
            resolution,
            title=f"Matched-dice close assault: {details.attacker_sps} SP against"
            f" {details.defender_sps}",
            words=OUTCOME_WORDS,
            details=matched_dice_report(details),
        )

    _run(command, as_json, report, ("matched-dice", example, example_name), time_limit)


@app.command()
def battlesystem(
    plan: Annotated[Path | None, typer.Argument(help="The building plan (YAML/JSON).")] = None,
    profile: ProfileOption = None,
    example: ExampleOption = False,
    example_name: ExampleNameOption = None,
    time_limit: TimeOption = 10.0,
    as_json: JsonOption = False,
) -> None:
    """Command, charisma, squeezing in, formation, spacing and facing over a building plan."""

    def command() -> Resolution:
        from allocator.games.battlesystem.plan import (
            BattlesystemPlan,
            BattlesystemResolver,
            load_battlesystem_profile,
        )

        building = load_file(BattlesystemPlan, given_file(plan, "building plan"))
        resolver = BattlesystemResolver(load_battlesystem_profile(profile))
        return _located(plan, lambda: resolver.resolve(building))

    def report(resolution: Resolution) -> None:
        from allocator.core.resolution import BattlesystemDetails
        from allocator.games.battlesystem.report import battlesystem_report

        show(
            resolution,
            title="Battlesystem: command and fighting in buildings",
            words={},
            details=battlesystem_report(details_of(resolution, BattlesystemDetails)),
        )

    _run(command, as_json, report, ("battlesystem", example, example_name), time_limit)


@app.command()
def percentile(
    file: Annotated[Path | None, typer.Argument(help="The assault (YAML/JSON).")] = None,
    tables: Annotated[
        Path | None, typer.Option(help="Your tables file; default: the shipped EXAMPLE tables.")
    ] = None,
    example: ExampleOption = False,
    example_name: ExampleNameOption = None,
    time_limit: TimeOption = 10.0,
    as_json: JsonOption = False,
) -> None:
    """The percentile close-assault procedure, with exact chances of every ending."""

    def command() -> Resolution:
        from allocator.games.percentile.procedure import (
            PercentileEngagement,
            PercentileResolver,
            load_tables,
        )

        engagement = load_file(PercentileEngagement, given_file(file, "assault file"))
        resolver = PercentileResolver(load_tables(tables))
        return _located(file, lambda: resolver.resolve(engagement))

    def report(resolution: Resolution) -> None:
        from allocator.core.resolution import PercentileDetails
        from allocator.games.percentile.procedure import OUTCOME_WORDS
        from allocator.games.percentile.report import percentile_report

        details = details_of(resolution, PercentileDetails)
        show(
            resolution,
            title=f"Percentile close assault: {details.attacker} against {details.defender}",
            words=OUTCOME_WORDS,
            details=percentile_report(details),
        )

    _run(command, as_json, report, ("percentile", example, example_name), time_limit)
