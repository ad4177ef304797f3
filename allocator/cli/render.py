"""Drawing answers in the terminal with rich: user text made safe, titled tables, game reports.

Text from a file (titles, names, ids) may hold control characters, terminal escape sequences or
rich markup. :func:`safe` strips the first two (:func:`allocator.core.text.plain`) and escapes
the third, so that it prints as written; every readable output passes user text through it, and
:func:`draw` passes every text of a game's report (:mod:`allocator.core.report`) through it.

>>> safe("Farm\\x1b[31m [b]house[/b]")
'Farm[31m \\\\[b]house\\\\[/b]'
>>> draw(Note("[b]check[/b] the profile"))
'[yellow]Note:[/] \\\\[b]check\\\\[/b] the profile'
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import RenderableType
from rich.markup import escape
from rich.table import Table

from allocator.core.report import Cell, Note, Part
from allocator.core.report import Table as ReportTable
from allocator.core.text import plain


def safe(text: object) -> str:
    """``text`` ready to be interpolated into rich markup: no control characters, no markup."""
    return escape(plain(text))


def titled_table(title: str, columns: Iterable[str], right: Iterable[str] = ()) -> Table:
    """A rich table titled on the left, with these columns (those in ``right`` right-justified).

    Numbers (the right-justified columns) stay on one line while the words beside them can
    wrap; a number still too long for the terminal goes on over the next line, never cut.

    >>> [c.header for c in titled_table("Odds", ["combat", "p"], right=["p"]).columns]
    ['combat', 'p']
    """
    table = Table(title=title, title_justify="left")
    right = set(right)
    for column in columns:
        number = column in right
        table.add_column(
            column, justify="right" if number else "left", no_wrap=number, overflow="fold"
        )
    return table


def cell(value: Cell) -> str:
    """One cell: a text made safe, or a yes/no answer in colour."""
    if isinstance(value, bool):
        return "[green]yes[/]" if value else "[red]no[/]"
    return safe(value)


def draw(part: Part) -> RenderableType:
    """One part of a game's report, ready for ``Console.print``."""
    if isinstance(part, Note):
        return f"[yellow]Note:[/] {safe(part.text)}"
    if isinstance(part, ReportTable):
        table = titled_table(safe(part.title), [safe(c) for c in part.columns], part.right)
        if part.caption:
            table.caption, table.caption_justify = safe(part.caption), "left"
        for row in part.rows:
            table.add_row(*(cell(value) for value in row))
        return table
    return safe(part)
