"""The planning commands of ``cfalloc``: ``plan`` (which stands to commit or garrison) and
``compare`` (the same fight under two or more rulesets)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Annotated

import typer

from allocator.cli.console import OK, guarded, out, print_json
from allocator.cli.crossfire import FileArg, JsonOpt, RoundsOpt, Side, within_limits
from allocator.cli.options import TimeOption
from allocator.core.exact import parse_chance


def target_option(value: str | Fraction) -> Fraction:
    """``--target``: a chance as ``0.8``, ``80%`` or ``4/5``, read exactly.

    >>> target_option("80%"), target_option("0.8"), target_option("4/5")
    (Fraction(4, 5), Fraction(4, 5), Fraction(4, 5))
    """
    if isinstance(value, Fraction):
        return value
    try:
        return parse_chance(value)
    except ValueError as error:
        raise typer.BadParameter(str(error)) from None


def register(app: typer.Typer) -> None:
    """Add the planning commands to ``app``."""
    app.command()(plan)
    app.command()(compare)


def plan(
    file: FileArg,
    side: Annotated[
        Side, typer.Option(help="Whose plan: the attacker's commitment or the defender's garrison.")
    ] = Side.attacker,
    target: Annotated[
        Fraction | None,
        typer.Option(
            parser=target_option,
            metavar="P",
            help="Also find the fewest stands that reach this chance of taking the building "
            "(the attacker: at least P; the defender: at most P), as 0.8, 80% or 4/5.",
            show_default=False,
        ),
    ] = None,
    plot: Annotated[
        Path | None,
        typer.Option(
            metavar="FILE.png|FILE.svg",
            help="Draw the curve into this picture (needs the extra: pip install 'cfalloc[plot]').",
            show_default=False,
        ),
    ] = None,
    rounds: RoundsOpt = None,
    time_limit: TimeOption = 30.0,
    as_json: JsonOpt = False,
) -> None:
    """Which stands to send in (attacker) or to hold the building with (defender).

    Every choice of the side's `available` stands (default: all) is valued over the whole
    fight (objective take), interchangeable stands swapped counting once: the attacker's
    against the defenders, the defender's (within the building's capacity) against the
    attacker's best commitment. It prints the best choice for each number of squads (the
    curve, with any dip where one more squad does worse), the best of all, and with --target
    the fewest stands that reach it. Values are always the attacker's chance of taking the
    building.
    """

    def body() -> int:
        from allocator.cli.planning_report import render_plan
        from allocator.cli.plot import picture_format, plot_plan, pyplot
        from allocator.core.files import output_file
        from allocator.games.crossfire.battle import load_battle
        from allocator.games.crossfire.plan import plan_answer

        within_limits(time_limit, rounds)
        if plot is not None:  # refused before any work
            picture_format(plot)
            output_file(plot, "--plot")
            pyplot()
        battle = load_battle(file)
        answer = plan_answer(battle, side.value, target, time_limit, rounds)
        if plot is not None:
            plot_plan(answer, plot, battle.title)
        if as_json:
            print_json(answer.to_json())
        else:
            render_plan(out, battle, answer)
        return OK

    guarded(body, as_json)


def compare(
    file: FileArg,
    profile: Annotated[
        list[str] | None,
        typer.Option(
            metavar="PROFILE",
            help="A ruleset to play the fight under, twice or more: a shipped name "
            "(crossfire), a profile file of your own (a path), or a base with house rules "
            "(crossfire:ties=defender,leader_bonus=sum). The first is the reference.",
            show_default=False,
        ),
    ] = None,
    time_limit: TimeOption = 30.0,
    as_json: JsonOpt = False,
) -> None:
    """The same fight under two or more rulesets, side by side, and which number makes the
    difference.

    For each profile: the best one-round value (sweep) and whole-fight value (take), both
    sides at their best, with the defender's best line; then the ruleset values that differ
    from the first profile's, and what each of them does alone.
    """

    def body() -> int:
        from allocator.cli.planning_report import render_compare
        from allocator.core.errors import InputError
        from allocator.games.crossfire.battle import load_battle
        from allocator.games.crossfire.compare import compare_answer
        from allocator.games.crossfire.profile import profile_from_spec

        within_limits(time_limit)
        battle = load_battle(file)
        profiles = {}
        for spec in profile or []:
            if spec in profiles:
                raise InputError(f"{spec[:60]!r} is given twice", place="--profile")
            try:
                profiles[spec] = profile_from_spec(spec, Path.cwd())
            except InputError as error:
                raise error.located(None, "--profile") from None
        answer = compare_answer(battle, profiles, time_limit)
        if as_json:
            print_json(answer.to_json())
        else:
            render_compare(out, battle, answer)
        return OK

    guarded(body, as_json)
