"""``cfalloc resolve SYSTEM ...``: exact odds and legality for the other systems.

Every command prints a readable report, or with ``--json`` the exact result (fractions as
``"p/q"`` strings). Bad input gives one message on stderr and exit code 2.

    cfalloc resolve infinity --active 13/2 --reactive 12/1 --json
    cfalloc resolve matched-dice --attacker 3 --defender 2 --ties defender --json
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table

from allocator.cli.console import OK, guarded, out, print_json
from allocator.core.errors import InputError
from allocator.core.resolution import load_engagement, validate
from allocator.core.text import safe

if TYPE_CHECKING:
    from allocator.core.resolution import Resolution

app = typer.Typer(
    help="Exact odds and legality for the other close-combat systems "
    "(Infinity, matched dice, Battlesystem buildings, percentile assault).",
    no_args_is_help=True,
)

JsonOption = Annotated[bool, typer.Option("--json", help="Print the exact result as JSON.")]
ProfileOption = Annotated[
    Path | None, typer.Option(help="A ruleset profile file replacing the shipped one.")
]


def _text(value: Any) -> str:
    """A fraction as its decimal, with the exact value when it is short (``--json`` has all)."""
    if isinstance(value, Fraction) and value.denominator != 1:
        return f"{float(value):.4f}" + (f" ({value})" if value.denominator < 10**5 else "")
    return str(value)


def show(resolution: Resolution, as_json: bool) -> None:
    """Print a resolution: JSON, or tables for the distribution, details, violations, steps."""
    if as_json:
        print_json(resolution.to_json())
        return
    console = out
    if resolution.distribution:
        table = Table("outcome", "exact", "≈", title=f"{resolution.system}: outcomes")
        for outcome, p in resolution.distribution.items():
            table.add_row(safe(outcome), str(p), f"{float(p):.4f}")
        console.print(table)
    for key, value in resolution.details.items():
        if isinstance(value, list) and value and isinstance(value[0], dict):
            table = Table(*(safe(column) for column in value[0]), title=safe(key))
            for row in value:
                table.add_row(*(safe(_text(item)) for item in row.values()))
            console.print(table)
        elif isinstance(value, dict):
            shown = ", ".join(f"{name} {_text(item)}" for name, item in value.items())
            console.print(f"[bold]{safe(key)}[/]: {safe(shown)}")
        else:
            console.print(f"[bold]{safe(key)}[/]: {safe(_text(value))}")
    for violation in resolution.violations:
        console.print(f"[bold red]{safe(violation.rule)}[/] {safe(violation.message)}")
    for number, step in enumerate(resolution.steps, 1):
        console.print(f"[dim]{number}.[/] {safe(step)}")


def _run(command: Callable[[], Resolution], as_json: bool) -> None:
    def body() -> int:
        show(command(), as_json)
        return OK

    guarded(body)


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
    as_json: JsonOption = False,
) -> None:
    """Face to Face (or Normal) roll: who wins, surviving hits, and wounds if DAM is given."""

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
            engagement = load_engagement(InfinityEngagement, file)
        else:
            sides = {}
            for side, text, damage, ammo, armour in (
                ("active", active or "", active_damage, active_ammo, active_armour),
                ("reactive", reactive, reactive_damage, reactive_ammo, reactive_armour),
            ):
                roll = parse_roller(text).model_dump()
                sides[side] = {**roll, "damage": damage, "ammunition": ammo, "armour": armour}
            engagement = validate(InfinityEngagement, sides)
        return InfinityResolver(load_infinity_profile(profile)).resolve(engagement)

    _run(command, as_json)


@app.command("infinity-allocate")
def infinity_allocate(
    file: Annotated[Path, typer.Argument(help="Free troopers, enemy targets and the target.")],
    profile: ProfileOption = None,
    as_json: JsonOption = False,
) -> None:
    """The contact arrangement that maximises P(at least one wound) on the chosen target."""

    def command() -> Resolution:
        from allocator.core.resolution import Resolution
        from allocator.games.infinity.allocate import AllocationProblem, allocate
        from allocator.games.infinity.rolls import load_infinity_profile

        problem = load_engagement(AllocationProblem, file)
        plan = allocate(problem, load_infinity_profile(profile))
        steps = [
            "CP-SAT over who touches whom, within each base's contact limit",
            f"{plan.attacker} attacks {problem.target} with Burst {plan.burst}",
        ]
        details = {"contacts": plan.contacts, "attacker": plan.attacker, "burst": plan.burst}
        distribution = {"at_least_one_wound": plan.wound_chance}
        return Resolution("infinity-allocate", distribution, steps, [], details)

    _run(command, as_json)


@app.command("matched-dice")
def matched_dice(
    attacker: Annotated[int | None, typer.Option(help="Unwounded assaulting SPs.")] = None,
    defender: Annotated[int | None, typer.Option(help="Unwounded defending SPs.")] = None,
    ties: Annotated[str | None, typer.Option(help="cancel (seed) or defender (Risk).")] = None,
    rounds: Annotated[int | None, typer.Option(help="Chain this many rounds.")] = None,
    quality: Annotated[str | None, typer.Option(help="Attacker quality: caps the rounds.")] = None,
    file: Annotated[
        Path | None, typer.Option(help="An assault file with bases on the grid.")
    ] = None,
    profile: ProfileOption = None,
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
            engagement = load_engagement(MatchedDiceEngagement, file)
            engagement = validate(MatchedDiceEngagement, {**engagement.model_dump(), **given})
        else:
            engagement = validate(MatchedDiceEngagement, given)
        resolver = MatchedDiceResolver(load_matched_dice_profile(profile))
        return resolver.resolve(engagement)

    _run(command, as_json)


@app.command()
def battlesystem(
    plan: Annotated[Path, typer.Argument(help="The building plan (YAML/JSON).")],
    profile: ProfileOption = None,
    as_json: JsonOption = False,
) -> None:
    """Command, charisma, squeezing in, formation, spacing and facing over a building plan."""

    def command() -> Resolution:
        from allocator.games.battlesystem.plan import (
            BattlesystemPlan,
            BattlesystemResolver,
            load_battlesystem_profile,
        )

        building = load_engagement(BattlesystemPlan, plan)
        return BattlesystemResolver(load_battlesystem_profile(profile)).resolve(building)

    _run(command, as_json)


@app.command()
def percentile(
    file: Annotated[Path, typer.Argument(help="The assault (YAML/JSON).")],
    tables: Annotated[
        Path | None, typer.Option(help="Your tables file; default: the shipped EXAMPLE tables.")
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """The percentile close-assault procedure, with exact chances of every ending."""

    def command() -> Resolution:
        from allocator.games.percentile.procedure import (
            PercentileEngagement,
            PercentileResolver,
            load_tables,
        )

        engagement = load_engagement(PercentileEngagement, file)
        return PercentileResolver(load_tables(tables)).resolve(engagement)

    _run(command, as_json)
