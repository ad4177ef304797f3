"""Readable reports of the Infinity answers: the rolls, the hits that get through, the wounds.

Plain data (:mod:`allocator.core.report`): the command line draws it, escaping every name.

>>> from allocator.games.infinity.rolls import InfinityEngagement, InfinityResolver
>>> engagement = InfinityEngagement.model_validate(
...     {"active": {"attribute": 12}, "reactive": {"attribute": 12}})
>>> details = InfinityResolver().resolve(engagement).details
>>> print(rolls_sentence(details))
Active: SV 12, Burst 1. Reactive: SV 12, Burst 1.
"""

from __future__ import annotations

from allocator.core.report import Part, Report, Table
from allocator.core.resolution import Resolution
from allocator.core.text import listing, percent
from allocator.games.infinity.details import AllocationDetails, InfinityDetails, RollSummary


def _roll(side: str, roll: RollSummary) -> str:
    if roll.burst == 0:
        return f"{side}: does not roll."
    bonus = f" (+{len(roll.allies)} from {listing(roll.allies)})" if roll.allies else ""
    return f"{side}: SV {roll.success_value}, Burst {roll.burst}{bonus}."


def rolls_sentence(details: InfinityDetails) -> str:
    """Both rolls in one line."""
    return f"{_roll('Active', details.active)} {_roll('Reactive', details.reactive)}"


def infinity_report(resolution: Resolution) -> Report:
    """The rolls, the hits that get through, and the wounds on each side."""
    from allocator.games.infinity.rolls import OUTCOME_WORDS

    details = resolution.details_of(InfinityDetails)
    parts: list[Part] = [rolls_sentence(details)]
    if details.surviving_hits:
        counted = ("criticals", "successes", "chance")
        rows = [
            (
                f"the {row.winner} trooper",
                str(row.criticals),
                str(row.successes),
                percent(row.chance.exact),
            )
            for row in details.surviving_hits
        ]
        parts.append(Table("Hits that get through", ("winner", *counted), rows, right=counted))
    for wounds in details.wounds:
        expected = f"{float(wounds.expected.exact):.2f}"
        counted = ("wounds", "exactly", "at least")
        counts = [
            (str(count.wounds), percent(count.exactly.exact), percent(count.at_least.exact))
            for count in wounds.counts
        ]
        caption = f"{expected} wounds on average"
        title = f"Wounds on the {wounds.target} trooper"
        parts.append(Table(title, counted, counts, right=counted, caption=caption))
    both_roll = details.active.burst and details.reactive.burst
    title = "Infinity close combat: " + ("Face to Face roll" if both_roll else "Normal Roll")
    return Report(title, OUTCOME_WORDS, parts)


def allocation_report(resolution: Resolution) -> Report:
    """Who moves into contact with whom, and who attacks."""
    details = resolution.details_of(AllocationDetails)
    rows = list(details.contacts.items())
    table = Table("The best arrangement", ("trooper", "moves into contact with"), rows)
    attack = f"{details.attacker} attacks {details.target} with Burst {details.burst}."
    return Report(
        f"Infinity: the best contacts to wound {details.target}",
        {"at_least_one_wound": f"at least one wound on {details.target}"},
        [table, attack],
    )
