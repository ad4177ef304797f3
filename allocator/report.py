"""Readable (rich) reports for the terminal; the JSON forms live beside their data models."""

from __future__ import annotations

from itertools import groupby

from rich.console import Console
from rich.table import Table

from allocator.battle import Battle
from allocator.check import CheckReport
from allocator.schema import Allocation

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
    console.print(f"[bold]{title}[/]", highlight=False)
    if battle.allocation is not None:
        console.print(allocation_table(battle, battle.allocation, "Proposed allocation"))
    if report.legal:
        console.print("[bold green]Legal[/]: no rule is broken.")
    else:
        count = len(report.violations)
        console.print(f"[bold red]Not legal[/]: {count} rule{'s' if count > 1 else ''} broken.")
        for step, items in groupby(report.violations, key=lambda v: v.step):
            console.print(f"\n[bold]{STEP_TITLES[step]}[/]")
            for v in items:
                stands = f" [dim]({', '.join(v.stands)})[/]" if v.stands else ""
                console.print(f"  [red]{v.rule}[/] {v.message}{stands}", highlight=False)
    if report.nearest_legal is not None:
        console.print()
        console.print(allocation_table(battle, report.nearest_legal, "Nearest legal allocation"))
