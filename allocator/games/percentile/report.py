"""A readable report of the percentile answer: the tables in use and the melee.

>>> from allocator.core.resolution import PercentileDetails
>>> print(tables_sentence(PercentileDetails(
...     attacker="a", defender="d", example_tables=True, reach_in=6, eligible=True)))
These chances use the EXAMPLE tables shipped with cfalloc, ...
"""

from __future__ import annotations

from rich.console import RenderableType

from allocator.core.resolution import PercentileDetails
from allocator.core.text import percent


def tables_sentence(details: PercentileDetails) -> str | None:
    if not details.example_tables:
        return None
    return (
        "These chances use the EXAMPLE tables shipped with cfalloc, not your rulebook's: pass"
        " your own with --tables FILE (see docs/resolvers.md)."
    )


def percentile_report(details: PercentileDetails) -> list[RenderableType]:
    """The melee, if it can come to one, and a note when the tables are the example."""
    parts: list[RenderableType] = []
    if details.melee is not None and details.expected_melee_turns is not None:
        turns = f"{float(details.expected_melee_turns.exact):.2f}"
        parts.append(
            f"It comes to melee with a {percent(details.melee.exact)} chance; once in melee it"
            f" lasts {turns} turns on average."
        )
    note = tables_sentence(details)
    if note:
        parts.append(f"[yellow]Note:[/] {note}")
    return parts
