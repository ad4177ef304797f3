"""A readable report of the Battlesystem answers: one row per question, and the profile's status.

>>> from allocator.core.resolution import BattlesystemDetails
>>> print(unverified_sentence(BattlesystemDetails(answers=[], profile_unverified=True)))
The command diameters and charisma bonuses in use are not verified ...
"""

from __future__ import annotations

from rich.console import RenderableType

from allocator.core.resolution import BattlesystemDetails
from allocator.core.text import safe, titled_table
from allocator.games.battlesystem.plan import PREDICATE_WORDS


def unverified_sentence(details: BattlesystemDetails) -> str | None:
    if not details.profile_unverified:
        return None
    return (
        "The command diameters and charisma bonuses in use are not verified against the"
        " rulebook: check them against your book and pass your own with --profile FILE (see"
        " docs/resolvers.md)."
    )


def battlesystem_report(details: BattlesystemDetails) -> list[RenderableType]:
    """Every question about every stand, attack and unit, with its answer and why."""
    table = titled_table("Questions about the plan", ("stand or unit", "question", "answer", "why"))
    for answer in details.answers:
        table.add_row(
            safe(answer.subject),
            PREDICATE_WORDS[answer.predicate],
            "[green]yes[/]" if answer.holds else "[red]no[/]",
            safe(answer.reason),
        )
    note = unverified_sentence(details)
    return [table, f"[yellow]Note:[/] {note}"] if note else [table]
