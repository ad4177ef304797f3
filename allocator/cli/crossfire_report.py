"""Readable (rich) reports for the terminal, drawn from the typed answers.

Every text that comes from a file (titles, building and stand names, ids) goes through
:func:`allocator.cli.render.safe`, so that no markup or control character reaches the terminal.
"""

from __future__ import annotations

from itertools import groupby

from rich.console import Console
from rich.table import Table

from allocator.cli.render import safe, titled_table
from allocator.core.text import odds_text, percent, signed
from allocator.games.crossfire.answers import (
    CheckAnswer,
    CombatAnswer,
    ExplainAnswer,
    PlayAnswer,
    RolledCombat,
    RoundAnswer,
    Side,
    SimulateAnswer,
    SolveAnswer,
    TrialsAnswer,
)
from allocator.games.crossfire.battle import Battle
from allocator.games.crossfire.rules import STEP_TITLES
from allocator.games.crossfire.schema import Allocation
from allocator.games.crossfire.words import fight_now_sentence, fight_sentence, parts_text


def describe_stand(battle: Battle, stand_id: str) -> str:
    stand = battle.stand(stand_id)
    rating = f" +{stand.rating}" if stand.rating else ""
    return safe(f"{stand_id} ({stand.type}{rating}, {stand.unit})")


def allocation_table(battle: Battle, allocation: Allocation, title: str) -> Table:
    table = titled_table(title, ("combat", "defenders", "attackers"))
    moved: dict[str, list[str]] = {}
    for stand, target in (allocation.reallocate or {}).items():
        moved.setdefault(target, []).append(stand)
    leaving = allocation.reallocate or {}
    for name, ids in (allocation.combats or {}).items():
        defenders = [
            f"{describe_stand(battle, s)} (moves to {safe(leaving[s])})"
            if s in leaving
            else describe_stand(battle, s)
            for s in ids
        ]
        defenders += [f"+ {describe_stand(battle, s)} (moved in)" for s in moved.get(name, [])]
        attackers = [describe_stand(battle, a) for a in (allocation.attack or {}).get(name, [])]
        table.add_row(safe(name), "\n".join(defenders), "\n".join(attackers) or "-")
    return table


def warnings(console: Console, items: list[str]) -> None:
    for warning in items:
        console.print(f"[yellow]Warning:[/] {safe(warning)}", highlight=False)


def render_check(console: Console, battle: Battle, answer: CheckAnswer) -> None:
    console.print(f"[bold]{safe(battle.title)}[/]", highlight=False)
    warnings(console, answer.warnings)
    if battle.allocation is not None:
        console.print(allocation_table(battle, battle.allocation, "Proposed allocation"))
    else:
        console.print(
            "No allocation in the file, so only the building is checked. "
            "`cfalloc explain FILE` walks through the procedure on it; "
            "`cfalloc solve FILE` finds the best allocation.",
            highlight=False,
        )
    if answer.legal:
        console.print("[bold green]Legal[/]: no rule is broken.")
    else:
        count = len(answer.violations)
        console.print(f"[bold red]Not legal[/]: {count} rule{'s' if count > 1 else ''} broken.")
        for step, items in groupby(answer.violations, key=lambda v: v.step):
            console.print(f"\n[bold]{STEP_TITLES[step]}[/]")
            for v in items:
                stands = f" [dim]({safe(', '.join(v.stands))})[/]" if v.stands else ""
                console.print(f"  [red]{v.rule}[/] {safe(v.message)}{stands}", highlight=False)
    if answer.nearest_legal is not None:
        console.print()
        console.print(allocation_table(battle, answer.nearest_legal, "Nearest legal allocation"))
    if answer.completion is not None:
        console.print()
        console.print(allocation_table(battle, answer.completion, "One legal way to finish it"))
    if answer.cut_short is not None:
        console.print(f"\n[yellow]Not finished in time[/]: {safe(answer.cut_short)}")
    if answer.odds is not None:
        console.print()
        render_round(console, answer.odds, "The odds of this round")


def render_round(console: Console, odds: RoundAnswer, title: str) -> None:
    console.print(odds_table(odds.combats, title))
    console.print(
        f"Attacker wins every combat: {odds_text(odds.sweep.exact)}; "
        f"expected exchange {signed(odds.exchange.exact, 3)} stands.",
        highlight=False,
    )
    lost = ("defender loses", "attacker loses", "probability")
    outcomes = titled_table("Stands lost this round", lost, right=lost)
    for row in odds.outcomes:
        outcomes.add_row(str(row.defender_losses), str(row.attacker_losses), odds_text(row.p_exact))
    console.print(outcomes)


def bar(p: float, width: int = 20) -> str:
    filled = round(p * width)
    return "[red]" + "█" * filled + "[/][blue]" + "░" * (width - filled) + "[/]"


def odds_table(combats: list[CombatAnswer], title: str) -> Table:
    """Each combat: who fights, both totals with what makes them up, and the odds."""
    table = titled_table(title, ("combat", "attacker's total", "defender's total", "attacker wins"))
    for c in combats:
        table.add_row(
            safe(c.name),
            f"[bold]{c.attacker_total}[/] {safe(parts_text(c.attacker_parts))}",
            f"[bold]{c.defender_total}[/] {safe(parts_text(c.defender_parts))}",
            f"{bar(c.p_attacker_wins)} {odds_text(c.p_attacker_wins_exact)}"
            + (f"\n{safe(c.decided)}" if c.decided else ""),
        )
    return table


def render_solve(console: Console, battle: Battle, answer: SolveAnswer) -> None:
    console.print(
        f"[bold]{safe(battle.title)}[/]: best for the [bold]{answer.side}[/] ({answer.objective})",
        highlight=False,
    )
    warnings(console, answer.warnings)
    if answer.note is not None:
        console.print(f"[yellow]{safe(answer.note[0].upper() + answer.note[1:])}.[/]")
    console.print(allocation_table(battle, answer.allocation, "Line of play"))
    console.print(odds_table(answer.combats, "Odds of the first round"))
    shown = answer.objective.value_text(answer.value_exact)
    proven_count = answer.alternatives_complete and answer.status == "optimal"
    console.print(
        f"Value: {shown}. Other allocations of equal value (interchangeable stands swapped "
        f"count once): {'' if proven_count else 'at least '}{answer.alternatives}.",
        highlight=False,
    )
    console.print(safe(answer.why), highlight=False)
    if answer.fight is not None:
        render_fight(console, answer)


def render_fight(console: Console, answer: SolveAnswer) -> None:
    """The whole fight: the chance of taking the building, the losses, how it ends."""
    fight = answer.fight
    assert fight is not None
    if fight.outcomes is None:  # the search was cut short: only the bounds are known
        console.print(safe(fight_sentence(fight)), highlight=False)
        return
    console.print("[bold]The whole fight[/]")
    console.print(safe(fight_sentence(fight)), highlight=False)
    ends = ("attackers left", "defenders left", "probability")
    table = titled_table("How the fight ends", ends, right=ends)
    for row in fight.outcomes:
        table.add_row(str(row.attacker_left), str(row.defender_left), odds_text(row.p))
    console.print(table)


def render_combats(
    console: Console, combats: list[RolledCombat], removed: dict[Side, list[str]]
) -> None:
    """Each rolled combat: the dice, the scores, the winner; then the stands each side lost."""
    for c in combats:
        if c.note:
            how = c.note
        else:
            rolls = "; then ".join(
                f"attacker rolls {r.attacker} for {r.attacker_score}, defender rolls "
                f"{r.defender} for {r.defender_score}"
                for r in c.rolls
            )
            how = (
                f"{rolls} (totals {c.attacker_total}: {parts_text(c.attacker_parts)}; "
                f"{c.defender_total}: {parts_text(c.defender_parts)})"
            )
        console.print(
            f"  combat {safe(c.name)}: [bold]{c.winner}[/] wins; {safe(how)}", highlight=False
        )
    for side, ids in removed.items():
        if ids:
            console.print(f"  {side} loses {safe(', '.join(ids))}", highlight=False)


def left_text(left: dict[Side, list[str]]) -> str:
    return (
        f"Left in the building: defender {safe(', '.join(left['defender'])) or 'none'}; "
        f"attacker {safe(', '.join(left['attacker'])) or 'none'}."
    )


def render_simulation(console: Console, answer: SimulateAnswer) -> None:
    warnings(console, answer.warnings)
    for played in answer.rounds:
        console.print(f"[bold]Round {played.round}[/]")
        render_combats(console, played.combats, played.removed)
    winner = answer.winner or "nobody yet"
    console.print(f"[bold]Outcome[/]: {winner}. {left_text(answer.left)}", highlight=False)
    console.print(f"[dim]Seed {answer.seed}: `--seed {answer.seed}` rolls these dice again.[/]")


def render_play(console: Console, answer: PlayAnswer, written: str | None) -> None:
    """One round played at the table: the combats, who is left, and what comes next."""
    console.print(f"[bold]Round {answer.round}[/]")
    render_combats(console, answer.combats, answer.removed)
    console.print(left_text(answer.left), highlight=False)
    console.print(f"[bold]{safe(answer.result)}[/]", highlight=False)
    if answer.fight is not None:
        console.print(safe(fight_now_sentence(answer.fight, answer.round + 1)), highlight=False)
    if written is not None and answer.over:
        console.print(f"No next round, so {safe(written)} is not written.", highlight=False)
    elif written is not None:
        console.print(f"Round {answer.round + 1}'s scenario: {safe(written)}", highlight=False)


def render_trials(console: Console, answer: TrialsAnswer) -> None:
    warnings(console, answer.warnings)
    table = titled_table(
        f"{answer.trials:,} rolls of the first round", ("combat", "attacker won", "exact odds")
    )
    for c in answer.combats:
        table.add_row(
            safe(c.name), percent(c.attacker_win_rate, 2), odds_text(c.p_attacker_wins_exact)
        )
    table.add_row("every combat", percent(answer.sweep_rate, 2), odds_text(answer.p_sweep_exact))
    console.print(table)
    if answer.take_rate is not None:
        how_long = "to the end" if answer.rounds is None else f"for {answer.rounds} rounds at most"
        how = (
            "round 1 as the file's allocation, then both sides at their best"
            if answer.file_allocation
            else "both sides at their best"
        )
        exact = (
            "the whole fight was not searched in time, so its exact chance is not known"
            if answer.p_take_exact is None
            else f"the exact chance is {odds_text(answer.p_take_exact)}"
        )
        console.print(
            f"Whole fights played {how_long}, {how}: the attacker took the "
            f"building in {percent(answer.take_rate, 2)} of them; {exact}.",
            highlight=False,
        )
    if answer.note is not None:
        console.print(f"[yellow]{safe(answer.note[0].upper() + answer.note[1:])}.[/]")
    console.print(f"[dim]Seed {answer.seed}: `--seed {answer.seed}` rolls these dice again.[/]")


STATUS_STYLE = {
    "followed": "green",
    "optimal": "green",
    "best found": "yellow",
    "broken": "red",
    "not given": "dim",
    "not reached": "dim",
}


def render_explain(console: Console, answer: ExplainAnswer) -> None:
    console.print(f"[bold]{safe(answer.title)}[/]", highlight=False)
    warnings(console, answer.warnings)
    if answer.mode == "optimal":
        console.print(f"No allocation in the file: the optimal line of play ({answer.objective}).")
    elif answer.mode == "best found":
        console.print(
            f"No allocation in the file: the best line of play found in the time limit "
            f"({answer.objective}), not proven optimal."
        )
    for step in answer.steps:
        style = STATUS_STYLE.get(step.status, "white")
        console.print(f"\n[bold]{step.title}[/] [{style}]({step.status})[/]", highlight=False)
        for line in step.text:
            console.print(f"  {safe(line)}", highlight=False)
