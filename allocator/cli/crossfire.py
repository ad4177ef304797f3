"""The Crossfire commands of ``cfalloc``: check, solve, explain, simulate, play.

Heavy modules (OR-Tools, the search) are imported inside the command bodies that need them, so
that ``cfalloc check`` on a legal file starts fast.
"""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from allocator.cli.console import OK, RULES_BROKEN, err, guarded, out, print_json
from allocator.cli.options import TimeOption, within_time_limit
from allocator.core.errors import USAGE, InputError
from allocator.core.limits import default_limits
from allocator.games.crossfire.objectives import (
    DEFAULT_OBJECTIVE,
    OBJECTIVES,
    Objective,
    objective_named,
)

if TYPE_CHECKING:
    from allocator.games.crossfire.battle import Battle
    from allocator.games.crossfire.odds import CombatOdds
    from allocator.games.crossfire.play import TableDice

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
        help="Where the whole fight is played (solve's --objective take, every plan): fight "
        "at most this many rounds (a building not taken by then is held). Default: until one "
        "side is gone. At most CFALLOC_MAX_ROUNDS "
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
    app.command()(play)


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


def play(
    file: FileArg,
    dice: Annotated[
        str | None,
        typer.Option(
            help="The dice rolled at the table, each combat by name, attacker first: "
            "\"A:4-3,B:6-1\". With the profile's dice_mode pool, each side's dice with spaces "
            '("A:6 2-3"); a roll whose totals tie (the dice with their modifiers), then its '
            're-roll after a slash: "A:4-4/5-2" where both sides\' modifiers are alike. '
            "Without it, in a terminal, each combat's dice are asked for.",
            show_default=False,
        ),
    ] = None,
    out_file: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help="Write the next round's scenario to this file (default: print it).",
            show_default=False,
            dir_okay=False,
        ),
    ] = None,
    time_limit: TimeOption = 10.0,
    as_json: JsonOpt = False,
) -> None:
    """Play the file's allocation with the dice rolled at the table: who wins each combat, who
    is left, and the next round's scenario (the survivors, from step 1: 7b), which `cfalloc
    check` reads; when the fight is over, who holds the building.

    The next round's scenario is printed (YAML; with --json inside the answer) or written to
    --out; the round's report goes to stderr while the scenario is printed. The time limit
    bounds the whole fight's odds from the next round on.

    Example: cfalloc play models/scenarios/guide-2hmg-1squad-v-4.yaml --dice "A:4-3,B:1-5"
    --out round-2.yaml (combat A: the attacker rolled 4, the defender 3).
    """

    def body() -> int:
        from allocator.cli.crossfire_report import render_play
        from allocator.core.files import output_file, resolved, write_atomically
        from allocator.games.crossfire.battle import load_battle
        from allocator.games.crossfire.play import dice_of, play_round, round_combats
        from allocator.games.crossfire.scenario_file import scenario_yaml

        within_limits(time_limit)
        if out_file is not None and output_file(out_file, "--out") == resolved(
            file, file=str(file)
        ):
            raise InputError(
                "this is the file being played: write the next round to another file",
                place="--out",
                kind=USAGE,
            )
        battle = load_battle(file)
        if dice is not None:
            try:
                given = dice_of(dice)
            except InputError as error:
                raise error.located(None, "--dice") from None
        elif terminal_attached():
            given = asked_dice(battle)
        elif not any(not combat.decided for combat in round_combats(battle)):
            given = {}  # every combat is decided without a roll
        else:
            raise InputError(
                'give the dice rolled at the table with --dice (e.g. --dice "A:4-3,B:6-1"), '
                "or run cfalloc play in a terminal to be asked for them; see cfalloc play --help",
                kind=USAGE,
            )
        try:
            answer = play_round(battle, given, odds_time_limit=time_limit)
        except InputError as error:
            raise error.located(None, "--dice") if error.file is None else error from None
        text = None if answer.next_scenario is None else scenario_yaml(answer.next_scenario)
        if text is not None and out_file is not None:
            write_atomically(out_file, text)
        if as_json:
            print_json(answer.to_json())
        elif text is not None and out_file is None:
            render_play(err, answer, "printed below")
            sys.stdout.write(text)
        else:
            render_play(out, answer, None if out_file is None else str(out_file))
        return OK

    guarded(body, as_json)


def terminal_attached() -> bool:
    """Whether a player can be asked for the dice (the input is a terminal)."""
    return sys.stdin.isatty()


def asked_dice(battle: Battle) -> dict[str, list[TableDice]]:
    """Each combat's dice, asked for in the terminal (on stderr, so that the next round's
    scenario alone is printed); a bad answer is said and asked again."""
    from allocator.games.crossfire.play import CombatDice, resolve_combat, rolls_of, round_combats

    given: dict[str, list[TableDice]] = {}
    for combat in round_combats(battle):
        if combat.decided:
            continue
        dice = CombatDice.of(battle.ruleset, combat)

        def checked(text: str, combat: CombatOdds = combat) -> list[TableDice]:
            try:
                rolls = rolls_of(combat.name, text)
                resolve_combat(battle, combat, rolls)
            except InputError as error:
                raise typer.BadParameter(error.problem) from None
            return rolls

        try:
            given[combat.name] = typer.prompt(
                f"Combat {combat.name}: {', '.join(combat.attackers)} against "
                f"{', '.join(combat.defenders)} ({dice.words()}); the dice, attacker first "
                f"(e.g. {dice.example()})",
                value_proc=checked,
                err=True,
            )
        except typer.Abort as abort:
            if not isinstance(abort.__context__, EOFError):  # Ctrl+C: leave without a word
                raise
            err.print()
            raise InputError(
                f"the input ended before the dice of combat {combat.name} were given: nothing "
                'is played; give them at the prompt, or with --dice (e.g. --dice "A:4-3,B:6-1")',
                kind=USAGE,
            ) from None
    return given
