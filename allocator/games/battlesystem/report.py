"""The readable answer of the Battlesystem resolver: one row per question, the profile's status.

Plain data (:mod:`allocator.core.report`): the command line draws it.

>>> from allocator.games.battlesystem.details import BattlesystemDetails
>>> print(unverified_sentence(BattlesystemDetails(answers=[], profile_unverified=True)))
The command diameters and charisma bonuses in use are not verified ...
"""

from __future__ import annotations

from allocator.core.report import Note, Part, Report, Table
from allocator.core.resolution import Resolution
from allocator.games.battlesystem.details import BattlesystemDetails


def unverified_sentence(details: BattlesystemDetails) -> str | None:
    if not details.profile_unverified:
        return None
    return (
        "The command diameters and charisma bonuses in use are not verified against the"
        " rulebook: check them against your book and pass your own with --profile FILE (see"
        " docs/resolvers.md)."
    )


def report(resolution: Resolution) -> Report:
    """Every question about every stand, attack and unit, with its answer and why."""
    from allocator.games.battlesystem.plan import PREDICATE_WORDS

    details = resolution.details_of(BattlesystemDetails)
    rows = [
        (answer.subject, PREDICATE_WORDS[answer.predicate], answer.holds, answer.reason)
        for answer in details.answers
    ]
    columns = ("stand or unit", "question", "answer", "why")
    parts: list[Part] = [Table("Questions about the plan", columns, rows)]
    note = unverified_sentence(details)
    if note:
        parts.append(Note(note))
    return Report("Battlesystem: command and fighting in buildings", parts=parts)
