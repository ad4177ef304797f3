"""A resolve command's readable answer as plain data: a title, the outcomes' words, the parts.

A game says *what* to show, in sentences and tables of plain text; the command line draws it
(``allocator.cli.resolve``), escaping every text, so that no game imports a terminal library
and no text from a file can carry markup or control characters to the terminal.

>>> table = Table("Wounds", ("wounds", "chance"), [("0", "53%"), ("1", "47%")], right=("chance",))
>>> Report("Infinity close combat", parts=[table, Note("Check the profile.")]).parts[0].rows[1]
('1', '47%')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

Cell = str | bool
"""A table cell: a text, or a yes/no answer (drawn as a coloured *yes* or *no*)."""


@dataclass(frozen=True)
class Table:
    """A titled table: its column headers, its rows, the columns set right (numbers)."""

    title: str
    columns: tuple[str, ...]
    rows: Sequence[tuple[Cell, ...]]
    right: tuple[str, ...] = ()
    caption: str | None = None


@dataclass(frozen=True)
class Note:
    """A warning the reader must not miss (an example profile, an unverified number)."""

    text: str


Part = str | Table | Note
"""One part of a report: a sentence, a table or a note."""


@dataclass(frozen=True)
class Report:
    """What a resolve command shows beside the outcomes, the violations and the steps.

    ``outcomes`` gives each outcome's name (``active_wins``) in players' words.
    """

    title: str
    outcomes: dict[str, str] = field(default_factory=dict)
    parts: list[Part] = field(default_factory=list)
