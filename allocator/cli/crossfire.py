"""The Crossfire commands of ``cfalloc``: check, solve, explain, simulate.

Heavy modules (OR-Tools, the search) are imported inside the command bodies that need them, so
that ``cfalloc check`` on a legal file starts fast.
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from allocator.cli.console import OK, RULES_BROKEN, guarded, out, print_json
from allocator.cli.options import TimeOption, within_time_limit
from allocator.core.errors import InputError
from allocator.core.limits import default_limits
from allocator.games.crossfire.objectives import (
    DEFAULT_OBJECTIVE,
    OBJECTIVES,
    Objective,
    objective_named,
)

FileArg = Annotated[
    Path, typer.Argument(help="A scenario file (YAML or JSON).", show_default=False)
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]


class Side(StrEnum):
    attacker = "attacker"
    defender = "defender"


def objective_option(value: str | Objective) -> Objective:
    """``--objective``: a name of the registry, read once into its :class:`Objective`."""
    if isinstance(value, Objective):
        return value
    try:
        return objective_named(value)
    except InputError as error:
        raise typer.BadParameter(error.problem) from None


SideOpt = Annotated[Side, typer.Option(help="Whose best allocation.")]
OBJECTIVE_WORDS = "; ".join(f"{o.name}: {o.words}" for o in OBJECTIVES.values()) + "."
OBJECTIVE_NAMES = f"<{'|'.join(OBJECTIVES)}>"
ObjectiveOpt = Annotated[
    Objective,
    typer.Option(parser=objective_option, metavar=OBJECTIVE_NAMES, help=OBJECTIVE_WORDS),
]
PlayedObjectiveOpt = Annotated[
    Objective,
    typer.Option(
        parser=objective_option,
        metavar=OBJECTIVE_NAMES,
        help="What both sides play for where the file gives no allocation (round 1 without "
        "one, every later round); with --trials, an objective of the whole fight plays whole "
        "fights. " + OBJECTIVE_WORDS,
    ),
]
RoundsOpt = Annotated[
    int | None,
    typer.Option(
        min=1,
        help="With --objective take: fight at most this many rounds (a building not taken by "
        "then is held). Default: until one side is gone. At most CFALLOC_MAX_ROUNDS "
        f"({default_limits().max_rounds}).",
        show_default=False,
    ),
]


def within_limits(time_limit: float, rounds: int | None = None, trials: int = 0) -> None:
    """Refuse options over their limits, naming the limit and how to raise it."""
    within_time_limit(time_limit)
    limits = default_limits()
    limits.check("max_rounds", rounds or 0, "--rounds")
    limits.check("max_trials", trials, "--trials")


def register(app: typer.Typer) -> None:
    """Add the Crossfire commands to ``app``."""
    app.command()(check)
    app.command()(solve)
    app.command()(explain)
    app.command()(simulate)


def check(file: FileArg, time_limit: TimeOption = 10.0, as_json: JsonOpt = False) -> None:
    """Check a scenario's allocation: every broken rule, the nearest legal allocation, the odds.

    Exit code 0: legal; 1: rules broken; 2: bad input or over a limit; 4: internal error. The
    rules broken are always listed; the time limit bounds the search for the nearest legal
    allocation.
    """

    def body() -> int:
        from allocator.cli.crossfire_report import render_check
        from allocator.games.crossfire.battle import load_battle

        within_limits(time_limit)
        from allocator.games.crossfire.service import check_answer

        battle = load_battle(file)
        answer = check_answer(battle, time_limit)
        if as_json:
            print_json(answer.to_json())
        else:
            render_check(out, battle, answer)
        return OK if answer.legal else RULES_BROKEN

    guarded(body, as_json)


def solve(
    file: FileArg,
    side: SideOpt = Side.defender,
    objective: ObjectiveOpt = DEFAULT_OBJECTIVE,
    rounds: RoundsOpt = None,
    time_limit: TimeOption = 10.0,
    as_json: JsonOpt = False,
) -> None:
    """Find the best allocation for either side, exactly, with the odds that make it best.

    With --side attacker and combats in the file, the attacker answers those combats.
    """

    def body() -> int:
        from allocator.cli.crossfire_report import render_solve
        from allocator.games.crossfire.battle import load_battle
        from allocator.games.crossfire.service import solve_answer

        within_limits(time_limit, rounds)
        battle = load_battle(file)
        answer = solve_answer(battle, side.value, objective, time_limit, rounds)
        if as_json:
            print_json(answer.to_json())
        else:
            render_solve(out, battle, answer)
        return OK

    guarded(body, as_json)


def explain(
    file: FileArg,
    objective: ObjectiveOpt = DEFAULT_OBJECTIVE,
    time_limit: TimeOption = 10.0,
    as_json: JsonOpt = False,
) -> None:
    """Walk through the procedure step by step: the file's allocation, or the optimal line.

    Without an allocation in the file it walks round 1 of the best line for --objective (by
    default the whole fight) and says what it is worth and why.
    """

    def body() -> int:
        from allocator.cli.crossfire_report import render_explain
        from allocator.games.crossfire.battle import load_battle
        from allocator.games.crossfire.service import explain_answer

        within_limits(time_limit)
        answer = explain_answer(load_battle(file), objective, time_limit)
        if as_json:
            print_json(answer.to_json())
        else:
            render_explain(out, answer)
        return OK

    guarded(body, as_json)


def simulate(
    file: FileArg,
    rounds: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="Rounds to play at most (7b). Default: 1, and with --trials and --objective "
            f"take the whole fight. At most CFALLOC_MAX_ROUNDS ({default_limits().max_rounds}).",
            show_default=False,
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            min=0, help="Seed of the dice, to roll the same dice again (default: a fresh seed)."
        ),
    ] = None,
    trials: Annotated[
        int,
        typer.Option(
            min=0,
            help="Play this many whole fights (with --objective "
            f"{' or '.join(o.name for o in OBJECTIVES.values() if o.one_round)}: roll the first "
            "round this many times) and compare with the exact odds; at most "
            f"CFALLOC_MAX_TRIALS ({default_limits().max_trials:,}).",
        ),
    ] = 0,
    objective: PlayedObjectiveOpt = DEFAULT_OBJECTIVE,
    time_limit: TimeOption = 10.0,
    as_json: JsonOpt = False,
) -> None:
    """Roll the dice for a complete allocation (or the best line when the file has none)."""

    def body() -> int:
        from allocator.cli.crossfire_report import render_simulation, render_trials
        from allocator.games.crossfire.battle import load_battle
        from allocator.games.crossfire.service import simulate_answer, trials_answer

        within_limits(time_limit, rounds, trials)
        battle = load_battle(file)
        if trials:
            answer = trials_answer(battle, trials, seed, objective, time_limit, rounds)
            print_json(answer.to_json()) if as_json else render_trials(out, answer)
        else:
            played = simulate_answer(battle, rounds or 1, seed, objective, time_limit)
            print_json(played.to_json()) if as_json else render_simulation(out, played)
        return OK

    guarded(body, as_json)
