"""Readable reports of the Infinity answers: the rolls, the modifiers applied, the hits that get
through, the wounds and each trooper's wound states.

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
#: The report's title by the kind of roll made.
TITLES = {
    "face_to_face": "Face to Face roll",
    "normal": "Normal Roll",
    "normal_rolls": "two Normal Rolls under Berserk",
    "none": "no roll",
}


def _roll(side: str, roll: RollSummary, special_dice: int) -> str:
    if roll.burst == 0:
        return f"{side}: does not roll."
    bonus = f" (+{len(roll.allies)} from {listing(roll.allies)})" if roll.allies else ""
    special = f", +{special_dice} SD" if special_dice else ""
    return f"{side}: SV {roll.success_value}, Burst {roll.burst}{bonus}{special}."


def rolls_sentence(details: InfinityDetails) -> str:
    """Both rolls in one line."""
    active = _roll("Active", details.active, details.special_dice.get("active", 0))
    reactive = _roll("Reactive", details.reactive, details.special_dice.get("reactive", 0))
    extra = f" {ROLLS[details.roll]}" if details.roll in ROLLS else ""
    return f"{active} {reactive}{extra}"


def vita_word(details: InfinityDetails, trooper: TrooperOutcome) -> str:
    if trooper.structure:
        return "STR"
    return "W" if details.rules == "n4" else "VITA"


def state_words(row: WoundState, vita: str, fights_on: str | None) -> str:
    if row.state == "wounded":
        return f"wounded, {row.wounds_left} {vita} left"
    if row.state == "unhurt":
        return "unhurt"
    if row.state == "fighting_on":
        return f"0 {vita} left, fights on ({fights_on})"
    if row.state == "affected":
        return listing(row.effects)
    return row.state.capitalize()


def _trooper_tables(details: InfinityDetails, trooper: TrooperOutcome) -> list[Part]:
    vita = vita_word(details, trooper)
    who = f"{trooper.side.capitalize()} trooper" + (f" {trooper.name}" if trooper.name else "")
    taken = f", {trooper.wounds_taken} taken" if trooper.wounds_taken else ""
    states = Table(
        f"{who}: {vita} {trooper.vita}{taken}",
        ("after the roll", "chance"),
        [
            (state_words(row, vita, trooper.fights_on), percent(row.chance.exact))
            for row in trooper.states
        ],
        right=("chance",),
        caption=f"{float(trooper.expected_wounds.exact):.2f} new wounds on average",
    )
    columns = ("within orders", "wounded", "out of the fight", "dead", "wounds on average")
    orders = Table(
        f"{who}: the same exchange again",
        columns,
        [
            (
                str(within.orders),
                percent(within.wounded.exact),
                percent(within.out_of_the_fight.exact),
                percent(within.dead.exact),
                f"{float(within.expected_wounds.exact):.2f}",
            )
            for within in trooper.orders
        ],
        right=columns,
    )
    return [states, orders]


def infinity_report(resolution: Resolution) -> Report:
    """The rolls, the modifiers, the hits that get through, the wounds and the wound states."""
    from allocator.games.infinity.rolls import OUTCOME_WORDS

    details = resolution.details_of(InfinityDetails)
    parts: list[Part] = [rolls_sentence(details)]
    if details.modifiers:
        changes = [
            (row.side, "" if row.change is None else f"{row.change:+d}", row.note)
            for row in details.modifiers
        ]
        parts.append(
            Table("Modifiers applied", ("trooper", "change", "why"), changes, right=("change",))
        )
    if details.surviving_hits:
        counted = ("criticals", "successes", "chance")
        rows = [
            (
                f"the {kept.winner} trooper",
                str(kept.criticals),
                str(kept.successes),
                percent(kept.chance.exact),
            )
            for kept in details.surviving_hits
        ]
        parts.append(Table("Hits that get through", ("winner", *counted), rows, right=counted))
    for wounds in details.wounds:
        counted = ("wounds", "exactly", "at least")
        counts = [
            (
                f"{count.wounds} or more" if count.lumped else str(count.wounds),
                percent(count.exactly.exact),
                percent(count.at_least.exact),
            )
            for count in wounds.counts
        ]
        if wounds.expected is None:
            caption = "no bound on the wounds: a save that always fails is rolled again"
        else:
            caption = f"{float(wounds.expected.exact):.2f} wounds on average"
        title = f"Wounds on the {wounds.target} trooper"
        parts.append(Table(title, counted, counts, right=counted, caption=caption))
    for trooper in details.troopers:
        parts.extend(_trooper_tables(details, trooper))
    return Report(f"Infinity close combat: {TITLES[details.roll]}", OUTCOME_WORDS, parts)


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
