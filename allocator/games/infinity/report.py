"""Readable reports of the Infinity answers: the rolls, the hits that get through, the wounds.

Every name from a file goes through :func:`allocator.core.text.safe`.

>>> from allocator.games.infinity.rolls import InfinityEngagement, InfinityResolver
>>> engagement = InfinityEngagement.model_validate(
...     {"active": {"attribute": 12}, "reactive": {"attribute": 12}})
>>> details = InfinityResolver().resolve(engagement).details
>>> print(rolls_sentence(details))
Active: SV 12, Burst 1. Reactive: SV 12, Burst 1.
"""

from __future__ import annotations

from rich.console import RenderableType

from allocator.core.text import listing, percent, safe, titled_table
from allocator.games.infinity.details import AllocationDetails, InfinityDetails, RollSummary


def _roll(side: str, roll: RollSummary) -> str:
    if roll.burst == 0:
        return f"{side}: does not roll."
    bonus = f" (+{len(roll.allies)} from {listing(roll.allies)})" if roll.allies else ""
    return f"{side}: SV {roll.success_value}, Burst {roll.burst}{bonus}."


def rolls_sentence(details: InfinityDetails) -> str:
    """Both rolls in one line (user names made safe)."""
    return safe(f"{_roll('Active', details.active)} {_roll('Reactive', details.reactive)}")


def infinity_report(details: InfinityDetails) -> list[RenderableType]:
    """The rolls, the hits that get through, and the wounds on each side."""
    parts: list[RenderableType] = [rolls_sentence(details)]
    if details.surviving_hits:
        counted = ("criticals", "successes", "chance")
        hits = titled_table("Hits that get through", ("winner", *counted), right=counted)
        for row in details.surviving_hits:
            hits.add_row(
                f"the {row.winner} trooper",
                str(row.criticals),
                str(row.successes),
                percent(row.chance.exact),
            )
        parts.append(hits)
    for wounds in details.wounds:
        expected = f"{float(wounds.expected.exact):.2f}"
        counted = ("wounds", "exactly", "at least")
        table = titled_table(f"Wounds on the {wounds.target} trooper", counted, right=counted)
        table.caption, table.caption_justify = f"{expected} wounds on average", "left"
        for count in wounds.counts:
            table.add_row(
                str(count.wounds), percent(count.exactly.exact), percent(count.at_least.exact)
            )
        parts.append(table)
    return parts


def allocation_report(details: AllocationDetails) -> list[RenderableType]:
    """Who moves into contact with whom, and who attacks."""
    table = titled_table("The best arrangement", ("trooper", "moves into contact with"))
    for trooper, enemy in details.contacts.items():
        table.add_row(safe(trooper), safe(enemy))
    attack = safe(f"{details.attacker} attacks {details.target} with Burst {details.burst}.")
    return [table, attack]
