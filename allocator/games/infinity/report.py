"""Readable reports of the Infinity answers: the rolls, the hits that get through, the wounds,
the modifiers applied and each trooper's wound states.

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
from allocator.games.infinity.details import (
    AllocationDetails,
    InfinityDetails,
    RollSummary,
    TrooperOutcome,
    WoundState,
)

#: How the roll was made, when it is not the usual one.
ROLLS = {
    "normal_rolls": "Both troopers make Normal Rolls (neither cancels the other).",
    "none": "Neither trooper rolls.",
}


def _roll(side: str, roll: RollSummary, special_dice: int) -> str:
    if roll.burst == 0:
        return f"{side}: does not roll."
    bonus = f" (+{len(roll.allies)} from {listing(roll.allies)})" if roll.allies else ""
    special = f", +{special_dice} SD" if special_dice else ""
    return f"{side}: SV {roll.success_value}, Burst {roll.burst}{bonus}{special}."


def rolls_sentence(details: InfinityDetails) -> str:
    """Both rolls in one line (user names made safe)."""
    active = _roll("Active", details.active, details.special_dice.get("active", 0))
    reactive = _roll("Reactive", details.reactive, details.special_dice.get("reactive", 0))
    extra = f" {ROLLS[details.roll]}" if details.roll in ROLLS else ""
    return safe(f"{active} {reactive}{extra}")


def _vita(details: InfinityDetails, trooper: TrooperOutcome) -> str:
    if trooper.structure:
        return "STR"
    return "W" if details.rules == "n4" else "VITA"


def _state_words(row: WoundState, vita: str, fights_on: str | None) -> str:
    if row.state == "wounded":
        return f"wounded, {row.wounds_left} {vita} left"
    if row.state == "unhurt":
        return "unhurt"
    if row.state == "fighting_on":
        return f"0 {vita} left, fights on ({fights_on})"
    if row.state == "affected":
        return listing(row.effects)
    return row.state.capitalize()


def _trooper_tables(details: InfinityDetails, trooper: TrooperOutcome) -> list[RenderableType]:
    vita = _vita(details, trooper)
    who = f"{trooper.side.capitalize()} trooper" + (f" {trooper.name}" if trooper.name else "")
    taken = f", {trooper.wounds_taken} taken" if trooper.wounds_taken else ""
    states = titled_table(
        safe(f"{who}: {vita} {trooper.vita}{taken}"),
        ("after the roll", "chance"),
        right=("chance",),
    )
    for row in trooper.states:
        states.add_row(safe(_state_words(row, vita, trooper.fights_on)), percent(row.chance.exact))
    expected = f"{float(trooper.expected_wounds.exact):.2f}"
    states.caption, states.caption_justify = f"{expected} new wounds on average", "left"
    columns = ("within orders", "wounded", "out of the fight", "dead", "wounds on average")
    orders = titled_table(safe(f"{who}: the same exchange again"), columns, right=columns)
    for within in trooper.orders:
        orders.add_row(
            str(within.orders),
            percent(within.wounded.exact),
            percent(within.out_of_the_fight.exact),
            percent(within.dead.exact),
            f"{float(within.expected_wounds.exact):.2f}",
        )
    return [states, orders]


def infinity_report(details: InfinityDetails) -> list[RenderableType]:
    """The rolls, the modifiers, the hits that get through, the wounds and the wound states."""
    parts: list[RenderableType] = [rolls_sentence(details)]
    if details.modifiers:
        changes = titled_table("Modifiers applied", ("trooper", "change", "why"), right=("change",))
        for row in details.modifiers:
            change = "" if row.change is None else f"{row.change:+d}"
            changes.add_row(row.side, change, safe(row.note))
        parts.append(changes)
    if details.surviving_hits:
        counted = ("criticals", "successes", "chance")
        hits = titled_table("Hits that get through", ("winner", *counted), right=counted)
        for kept in details.surviving_hits:
            hits.add_row(
                f"the {kept.winner} trooper",
                str(kept.criticals),
                str(kept.successes),
                percent(kept.chance.exact),
            )
        parts.append(hits)
    for wounds in details.wounds:
        counted = ("wounds", "exactly", "at least")
        table = titled_table(f"Wounds on the {wounds.target} trooper", counted, right=counted)
        if wounds.expected is None:
            table.caption = "no bound on the wounds: a save that always fails is rolled again"
        else:
            table.caption = f"{float(wounds.expected.exact):.2f} wounds on average"
        table.caption_justify = "left"
        for count in wounds.counts:
            shown = f"{count.wounds} or more" if count.lumped else str(count.wounds)
            table.add_row(shown, percent(count.exactly.exact), percent(count.at_least.exact))
        parts.append(table)
    for trooper in details.troopers:
        parts.extend(_trooper_tables(details, trooper))
    return parts


def allocation_report(details: AllocationDetails) -> list[RenderableType]:
    """Who moves into contact with whom, and who attacks."""
    table = titled_table("The best arrangement", ("trooper", "moves into contact with"))
    for trooper, enemy in details.contacts.items():
        table.add_row(safe(trooper), safe(enemy))
    attack = safe(f"{details.attacker} attacks {details.target} with Burst {details.burst}.")
    return [table, attack]
