"""The readable answer of the percentile resolver: the tables in use and the melee.

Plain data (:mod:`allocator.core.report`): the command line draws it.

>>> from allocator.games.percentile.details import PercentileDetails
>>> print(tables_sentence(PercentileDetails(
...     attacker="a", defender="d", example_tables=True, reach_in=6, eligible=True)))
These chances use the EXAMPLE tables shipped with cfalloc, ...
"""

from __future__ import annotations

from allocator.core.report import Note, Part, Report
from allocator.core.resolution import Resolution
from allocator.core.text import percent
from allocator.games.percentile.details import PercentileDetails


def tables_sentence(details: PercentileDetails) -> str | None:
    if not details.example_tables:
        return None
    return (
        "These chances use the EXAMPLE tables shipped with cfalloc, not your rulebook's: pass"
        " your own with --tables FILE (see docs/resolvers.md)."
    )


def report(resolution: Resolution) -> Report:
    """The melee, if it can come to one, and a note when the tables are the example."""
    from allocator.games.percentile.procedure import OUTCOME_WORDS

    details = resolution.details_of(PercentileDetails)
    parts: list[Part] = []
    if details.melee is not None and details.expected_melee_turns is not None:
        turns = f"{float(details.expected_melee_turns.exact):.2f}"
        parts.append(
            f"It comes to melee with a {percent(details.melee.exact)} chance; once in melee it"
            f" lasts {turns} turns on average."
        )
    note = tables_sentence(details)
    if note:
        parts.append(Note(note))
    title = f"Percentile close assault: {details.attacker} against {details.defender}"
    return Report(title, OUTCOME_WORDS, parts)
