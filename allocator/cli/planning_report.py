"""Readable (rich) reports of the planning commands: the plan's table and its terminal chart,
the comparison of rulesets side by side.

Every text that comes from a file goes through :func:`allocator.cli.render.safe`.
"""

from __future__ import annotations

from rich.console import Console

from allocator.cli.render import safe, titled_table
from allocator.core.text import odds_text, percent, plural
from allocator.games.crossfire.answers import CompareAnswer, CompareLine, PlanAnswer, PlanPoint
from allocator.games.crossfire.battle import Battle

#: The widest bar of the terminal chart, in characters (a P(take) of 1).
BAR = 40


def stands_text(stands: list[str]) -> str:
    return safe(", ".join(stands))


def chart(answer: PlanAnswer) -> list[str]:
    """The curve as bars, one line per number of squads (``█`` eighths for the fraction).

    >>> from fractions import Fraction
    >>> p = PlanPoint(squads=2, value=0.5, value_exact=Fraction(1, 2), stands=["a"], against=[])
    >>> a = PlanAnswer(status="optimal", side="attacker", target=None, target_exact=None,
    ...     rounds=None, curve=[p], best=p, reaching=None, dips=[], choices=1, valued=1,
    ...     fights=1, note=None, warnings=[])
    >>> chart(a)
    ['2 squads │████████████████████                      50.0% best']
    """
    eighths = " ▏▎▍▌▋▊▉"
    dips = {d.squads for d in answer.dips}
    width = max(len(plural(p.squads, "squad")) for p in answer.curve)
    lines = []
    for p in answer.curve:
        full, part = divmod(round(p.value * BAR * 8), 8)
        bar = ("█" * full + (eighths[part] if part else "")).ljust(BAR)
        marks = [m for m, on in (("best", p == answer.best), ("dip", p.squads in dips)) if on]
        label = plural(p.squads, "squad").rjust(width)
        lines.append(f"{label} │{bar} {percent(p.value_exact):>6} {' '.join(marks)}".rstrip())
    return lines


def render_plan(console: Console, battle: Battle, answer: PlanAnswer) -> None:
    chosen = "to commit" if answer.side == "attacker" else "to garrison"
    console.print(
        f"[bold]{safe(battle.title)}[/]: the {answer.side}'s plan, which stands {chosen} "
        "(values: the attacker's chance of taking the building over the whole fight)",
        highlight=False,
    )
    for warning in answer.warnings:
        console.print(f"[yellow]Warning:[/] {safe(warning)}", highlight=False)
    if answer.note is not None:
        console.print(f"[yellow]{safe(answer.note[0].upper() + answer.note[1:])}.[/]")
    against = "defenders" if answer.side == "attacker" else "attacker's best commitment"
    table = titled_table(
        "The best choice by squads", ("squads", "P(take)", "stands", against), right=("squads",)
    )
    for p in answer.curve:
        table.add_row(
            str(p.squads), odds_text(p.value_exact), stands_text(p.stands), stands_text(p.against)
        )
    console.print(table)
    for line in chart(answer):
        console.print(line, highlight=False, markup=False)
    best = answer.best
    console.print(
        f"Best: {stands_text(best.stands)} ({plural(best.squads, 'squad')}), "
        f"P(take) {odds_text(best.value_exact)}.",
        highlight=False,
    )
    if answer.target_exact is not None:
        console.print(_target_sentence(answer, answer.reaching), highlight=False)
    if answer.dips:
        for dip in answer.dips:
            console.print(
                f"[yellow]Dip:[/] with {plural(dip.squads, 'squad')} the best is "
                f"{odds_text(dip.value_exact)}, worse for the {answer.side} than "
                f"{odds_text(dip.previous_exact)} with one squad fewer.",
                highlight=False,
            )
    else:
        more = "more squads never lower" if answer.side == "attacker" else "more squads never raise"
        console.print(f"No dip: {more} the attacker's best chance (checked).", highlight=False)
    console.print(
        f"{answer.valued:,} of {answer.choices:,} distinct choices valued "
        f"({plural(answer.fights, 'whole fight')} solved).",
        highlight=False,
    )


def _target_sentence(answer: PlanAnswer, reaching: PlanPoint | None) -> str:
    assert answer.target_exact is not None
    goal = percent(answer.target_exact)
    if reaching is None:
        return f"No choice reaches the target of {goal}."
    return (
        f"Fewest stands for the target of {goal}: {stands_text(reaching.stands)} "
        f"({plural(len(reaching.stands), 'stand')}), P(take) {odds_text(reaching.value_exact)}."
    )


def line_text(line: CompareLine) -> str:
    """A best line in one cell: each combat, its defenders against its attackers."""
    attack = line.allocation.attack or {}
    moved = line.allocation.reallocate or {}
    parts = []
    for name, ids in (line.allocation.combats or {}).items():
        attackers = ", ".join(attack.get(name, [])) or "-"
        parts.append(f"{name}: {', '.join(ids)} v {attackers}")
    parts += [f"{stand} moves to {to}" for stand, to in moved.items()]
    return "\n".join(map(safe, parts))


def render_compare(console: Console, battle: Battle, answer: CompareAnswer) -> None:
    console.print(
        f"[bold]{safe(battle.title)}[/]: {len(answer.profiles)} rulesets side by side "
        "(values: the attacker's, both sides at their best)",
        highlight=False,
    )
    for warning in answer.warnings:
        console.print(f"[yellow]Warning:[/] {safe(warning)}", highlight=False)
    if answer.note is not None:
        console.print(f"[yellow]{safe(answer.note[0].upper() + answer.note[1:])}.[/]")
    table = titled_table(
        "Each ruleset",
        ("profile", "one round (sweep)", "whole fight (take)", "best line, whole fight"),
    )
    for p in answer.profiles:
        table.add_row(
            safe(p.name),
            odds_text(p.one_round.value_exact),
            odds_text(p.whole_fight.value_exact),
            line_text(p.whole_fight),
        )
    console.print(table)
    if not answer.changed:
        console.print("The profiles have the same values: the fight is the same.")
        return
    names = [p.name for p in answer.profiles]
    changed = titled_table("Ruleset values that differ", ("value", *map(safe, names)))
    for change in answer.changed:
        changed.add_row(safe(change.key), *(safe(change.values[n]) for n in names))
    console.print(changed)
    for sentence in answer.summary:
        console.print(f"- {safe(sentence)}", highlight=False)
