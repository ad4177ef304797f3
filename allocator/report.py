"""Readable (rich) reports for the terminal; the JSON forms live beside their data models."""

from __future__ import annotations

from itertools import groupby
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from allocator.battle import Battle
from allocator.check import CheckReport
from allocator.schema import Allocation

if TYPE_CHECKING:
    from allocator.solve import SolveResult

STEP_TITLES = {
    0: "The building",
    1: "Step 1 - the defender splits into combats",
    2: "Step 2 - crew-served weapons",
    3: "Step 3 - the rest of the defender",
    4: "Step 4 - the attacker covers every combat",
    5: "Step 5 - the attacker's leaders",
    6: "Step 6 - the defender reallocates unopposed combats",
}


def describe_stand(battle: Battle, stand_id: str) -> str:
    stand = battle.stand(stand_id)
    rating = f" +{stand.rating}" if stand.rating else ""
    return f"{stand_id} ({stand.type}{rating}, {stand.unit})"


def allocation_table(battle: Battle, allocation: Allocation, title: str) -> Table:
    table = Table(title=title, title_justify="left")
    table.add_column("combat")
    table.add_column("defenders")
    table.add_column("attackers")
    moved: dict[str, list[str]] = {}
    for stand, target in (allocation.reallocate or {}).items():
        moved.setdefault(target, []).append(stand)
    for name, ids in (allocation.combats or {}).items():
        defenders = [describe_stand(battle, s) for s in ids]
        defenders += [f"+ {describe_stand(battle, s)} (moved in)" for s in moved.get(name, [])]
        attackers = [describe_stand(battle, a) for a in (allocation.attack or {}).get(name, [])]
        table.add_row(name, "\n".join(defenders), "\n".join(attackers) or "-")
    return table


def render_check(console: Console, battle: Battle, report: CheckReport) -> None:
    title = battle.scenario.title or battle.scenario.building.name
    console.print(f"[bold]{escape(title)}[/]", highlight=False)
    if battle.allocation is not None:
        console.print(allocation_table(battle, battle.allocation, "Proposed allocation"))
    if battle.allocation is None:
        console.print(
            "No allocation in the file, so only the building is checked. "
            "`cfalloc explain FILE` walks through the procedure on it; "
            "`cfalloc solve FILE` finds the best allocation.",
            highlight=False,
        )
    if report.legal:
        console.print("[bold green]Legal[/]: no rule is broken.")
    else:
        count = len(report.violations)
        console.print(f"[bold red]Not legal[/]: {count} rule{'s' if count > 1 else ''} broken.")
        for step, items in groupby(report.violations, key=lambda v: v.step):
            console.print(f"\n[bold]{STEP_TITLES[step]}[/]")
            for v in items:
                stands = f" [dim]({', '.join(v.stands)})[/]" if v.stands else ""
                console.print(f"  [red]{v.rule}[/] {escape(v.message)}{stands}", highlight=False)
    if report.nearest_legal is not None:
        console.print()
        console.print(allocation_table(battle, report.nearest_legal, "Nearest legal allocation"))
    if report.completion is not None:
        console.print()
        console.print(allocation_table(battle, report.completion, "One legal way to finish it"))
    if report.odds is not None:
        console.print()
        console.print(odds_table(report.odds["combats"], "The odds of this round"))
        sweep, exchange = report.odds["sweep"], report.odds["exchange"]
        console.print(
            f"Attacker wins every combat: {sweep['exact']} ({sweep['value']:.1%}); "
            f"expected exchange {exchange['value']:+.3f} stands."
        )
        outcomes = Table(title="Stands lost this round", title_justify="left")
        for column in ("defender loses", "attacker loses", "probability"):
            outcomes.add_column(column, justify="right")
        for row in report.odds["outcomes"]:
            outcomes.add_row(
                str(row["defender_losses"]),
                str(row["attacker_losses"]),
                f"{row['p_exact']} ({row['p']:.1%})",
            )
        console.print(outcomes)


def bar(p: float, width: int = 20) -> str:
    filled = round(p * width)
    return "[red]" + "█" * filled + "[/][blue]" + "░" * (width - filled) + "[/]"


def odds_table(combats: list[dict[str, Any]], title: str) -> Table:
    table = Table(title=title, title_justify="left")
    for column in ("combat", "defenders", "attackers", "totals (att v def)", "attacker wins"):
        table.add_column(column)
    for c in combats:
        table.add_row(
            c["name"],
            ", ".join(c["defenders"]),
            ", ".join(c["attackers"]),
            f"{c['attacker_total']} v {c['defender_total']}",
            f"{bar(c['p_attacker_wins'])} {c['p_attacker_wins_exact']} "
            f"({c['p_attacker_wins']:.1%})",
        )
    return table


def render_solve(console: Console, battle: Battle, result: SolveResult) -> None:
    data = result.to_json()
    title = battle.scenario.title or battle.scenario.building.name
    console.print(
        f"[bold]{escape(title)}[/]: best for the [bold]{result.side}[/] ({result.objective})",
        highlight=False,
    )
    for warning in result.warnings:
        console.print(f"[yellow]Warning:[/] {escape(warning)}", highlight=False)
    if not result.proven:
        console.print(
            "[yellow]Best found, not proven optimal: the time limit stopped the search.[/]"
        )
    console.print(allocation_table(battle, result.line.allocation(), "Line of play"))
    console.print(odds_table(data["combats"], "Odds"))
    console.print(
        f"Value: {data['value_exact']} ({data['value']:.4f}). "
        f"Other allocations of equal value (interchangeable stands swapped count once): "
        f"{'' if result.alternatives_complete else 'at least '}{result.alternatives}."
    )
    console.print(escape(result.why()), highlight=False)


def render_simulation(console: Console, data: dict[str, Any]) -> None:
    for played in data["rounds"]:
        console.print(f"[bold]Round {played['round']}[/]")
        for c in played["combats"]:
            rolls = ", ".join(f"{r['attacker']} v {r['defender']}" for r in c["rolls"])
            how = (
                c.get("note")
                or f"rolls {rolls} (totals {c['attacker_total']} v {c['defender_total']})"
            )
            console.print(
                f"  combat {c['name']}: [bold]{c['winner']}[/] wins; {how}", highlight=False
            )
        for side, ids in played["removed"].items():
            if ids:
                console.print(f"  {side} loses {', '.join(ids)}", highlight=False)
    winner = data["winner"] or "nobody yet"
    console.print(
        f"[bold]Outcome[/]: {winner}. Left in the building: "
        f"defender {', '.join(data['left']['defender']) or 'none'}; "
        f"attacker {', '.join(data['left']['attacker']) or 'none'}.",
        highlight=False,
    )


def render_trials(console: Console, data: dict[str, Any]) -> None:
    table = Table(title=f"{data['trials']} rolls of the first round", title_justify="left")
    for column in ("combat", "attacker won", "exact odds"):
        table.add_column(column)
    for c in data["combats"]:
        table.add_row(c["name"], f"{c['attacker_win_rate']:.2%}", f"{c['p_attacker_wins']:.2%}")
    table.add_row("every combat", f"{data['sweep_rate']:.2%}", f"{data['p_sweep']:.2%}")
    console.print(table)


STATUS_STYLE = {
    "followed": "green",
    "optimal": "green",
    "broken": "red",
    "not given": "dim",
    "not reached": "dim",
}


def render_explain(console: Console, data: dict[str, Any]) -> None:
    console.print(f"[bold]{escape(data['title'])}[/]", highlight=False)
    if data["mode"] == "optimal":
        console.print(f"No allocation in the file: the optimal line of play ({data['objective']}).")
    for step in data["steps"]:
        style = STATUS_STYLE.get(step["status"], "white")
        console.print(f"\n[bold]{step['title']}[/] [{style}]({step['status']})[/]", highlight=False)
        for line in step["text"]:
            console.print(f"  {escape(line)}", highlight=False)
